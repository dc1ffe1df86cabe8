//! The page title at the head of Markdown, once, and the page's heading
//! levels below it (issues 11 and 35).
//!
//! The extracted Markdown often holds the page's own headline, not always
//! first (a kicker such as `#### Biz & IT` can come before it), and at
//! any level; some pages repeat it. The title is written once, first, as
//! `# Title` — the page's headline (with its inline formatting) when one
//! of the first blocks is the title, else the title given — and the other
//! headings take the levels below it in the page's order of levels, no
//! level skipped.

use super::writer::Writer;

/// How many blocks from the start may hold the page's headline.
const HEADLINE_BLOCKS: usize = 5;

/// `markdown` opened by the page title as a `# Title` heading, so that
/// every page's Markdown starts with its title (issue 11), once
/// (issue 35). When one of the first blocks is a heading or a one-line
/// paragraph whose words equal the title (or contain it or are contained
/// in it, at least half as long), that block becomes the `# ` heading,
/// moved first; other such blocks among the first are dropped. Headings
/// below are renumbered from `##` on, no level skipped. Nothing is added
/// when `title` is blank (the headings are still renumbered).
///
/// ```
/// use gleaner::render::markdown_with_title;
/// assert_eq!(markdown_with_title("Body.", "Storm"), "# Storm\n\nBody.");
/// assert_eq!(markdown_with_title("## Storm!\n\nBody.", "Storm"), "# Storm!\n\nBody.");
/// ```
pub fn markdown_with_title(markdown: &str, title: &str) -> String {
    let title = title.trim();
    let mut blocks = split_blocks(markdown);
    let title_words = heading_words(title);
    let mut headline: Option<String> = None;
    if !title_words.is_empty() {
        let mut i = 0;
        let mut seen = 0;
        while i < blocks.len() && seen < HEADLINE_BLOCKS {
            seen += 1;
            let text = headline_text(&blocks[i]);
            match text {
                Some(t) if same_words(&heading_words(t), &title_words) => {
                    if headline.is_none() {
                        headline = Some(t.to_string());
                    }
                    blocks.remove(i);
                }
                _ => i += 1,
            }
        }
    }
    renumber(&mut blocks);
    let head = match headline {
        Some(h) => Some(format!("# {h}")),
        None if !title.is_empty() => {
            let mut w = Writer::markdown();
            w.marker("# ".into());
            w.text(title, false);
            Some(w.finish())
        }
        None => None,
    };
    head.into_iter().chain(blocks.into_iter().map(|b| b.text)).collect::<Vec<_>>().join("\n\n")
}

/// A block of the Markdown: its text (lines joined), and its heading
/// level when it is a heading line, with the length of the list bullets
/// and indent before the heading's `#`s (a card's title in a list item,
/// `- ### Boot`).
struct Block {
    text: String,
    level: Option<usize>,
    at: usize,
}

/// The Markdown's blocks: runs of lines between blank lines, a fenced
/// code block whole (blank lines inside it included).
fn split_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut fence: Option<usize> = None;
    let flush = |current: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !current.is_empty() {
            let text = current.join("\n");
            let at = item_prefix(&text);
            let level = (current.len() == 1).then(|| heading_level(&text[at..])).flatten();
            blocks.push(Block { text, level, at });
            current.clear();
        }
    };
    for line in markdown.lines() {
        // A fence may be a list item's, after its bullet or indent.
        let body = &line[item_prefix(line)..];
        let ticks = body.bytes().take_while(|&b| b == b'`').count();
        match fence {
            Some(open) => {
                current.push(line);
                if ticks >= open && body.trim_end().len() == ticks {
                    fence = None;
                }
            }
            None if ticks >= 3 => {
                current.push(line);
                fence = Some(ticks);
            }
            None if line.trim().is_empty() => flush(&mut current, &mut blocks),
            None => current.push(line),
        }
    }
    flush(&mut current, &mut blocks);
    blocks
}

/// The length of a line's list-item prefix: its indent and bullets
/// (`- `, `  `, `- - `), before a heading's `#`s.
fn item_prefix(line: &str) -> usize {
    let mut at = 0;
    let bytes = line.as_bytes();
    loop {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b' '), _) => at += 1,
            (Some(b'-'), Some(b' ')) => at += 2,
            _ => return at,
        }
    }
}

/// The level of an ATX heading line written by the renderer (`## x`).
fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    ((1..=6).contains(&hashes) && line.as_bytes().get(hashes) == Some(&b' ')).then_some(hashes)
}

/// The text of a block that may be the headline: a heading's text, or a
/// one-line paragraph that is not a list item, quote, table or code.
fn headline_text(block: &Block) -> Option<&str> {
    if let Some(level) = block.level {
        return (block.at == 0).then(|| block.text[level..].trim());
    }
    let t = block.text.as_str();
    let plain = !t.contains('\n')
        && t.chars().next().is_some_and(|c| c.is_alphanumeric() || matches!(c, '*' | '['))
        && !t.starts_with("![")
        && t.len() <= 300;
    plain.then_some(t)
}

/// Do the words of a line and of the title match: equal, or one holding
/// the other and at least half as long?
fn same_words(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    !short.is_empty() && long.contains(short) && short.len() * 2 >= long.len()
}

/// Gives the headings levels from 2 on: the page's levels in their
/// order (its highest becomes `##`), and none deeper than one below the
/// heading before it.
fn renumber(blocks: &mut [Block]) {
    let mut levels: Vec<usize> = blocks.iter().filter_map(|b| b.level).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut previous = 1;
    for b in blocks.iter_mut() {
        let Some(level) = b.level else { continue };
        let rank = levels.iter().position(|&l| l == level).unwrap_or(0) + 2;
        let new = rank.min(previous + 1).min(6);
        if new != level {
            let (prefix, heading) = b.text.split_at(b.at);
            b.text = format!("{prefix}{}{}", "#".repeat(new), &heading[level..]);
            b.level = Some(new);
        }
        previous = new;
    }
}

/// The words of a line, lowercase letters and digits only, without link
/// targets (`](…)`), for comparing a heading with the title.
fn heading_words(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find(')').map_or("", |j| &rest[i + j + 1..]);
    }
    out.push_str(rest);
    out.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// See: issue 11, "The title appears in Markdown only when the page's
    /// `<h1>` is inside the chosen block".
    #[test]
    fn issue_11_markdown_opens_with_the_title_once() {
        assert_eq!(markdown_with_title("Body text.", "A # title"), "# A \\# title\n\nBody text.");
        assert_eq!(
            markdown_with_title("# Storm hits\n\nBody.", "Storm hits"),
            "# Storm hits\n\nBody."
        );
        let linked = "## [Storm hits the coast](https://x.org/a)\n\nBody.";
        assert_eq!(
            markdown_with_title(linked, "Storm hits the coast"),
            "# [Storm hits the coast](https://x.org/a)\n\nBody."
        );
        assert_eq!(markdown_with_title("", "T"), "# T");
        assert_eq!(markdown_with_title("Body.", " "), "Body.");
    }

    /// See: issue 35, the title printed twice for ars-1 and medium-2.
    #[test]
    fn issue_35_the_headline_once_first_and_levels_below_it() {
        let ars = "#### Biz & IT —\n\n# Just-released *Minecraft* exploit\n\n## Two-year-old bug\n\nText.";
        assert_eq!(
            markdown_with_title(ars, "Just-released Minecraft exploit"),
            "# Just-released *Minecraft* exploit\n\n## Biz & IT —\n\n## Two-year-old bug\n\nText."
        );
        let medium = "#### On “Literally”\n\n---\n\n### On “Literally”\n\nYou either are.";
        assert_eq!(
            markdown_with_title(medium, "On “Literally” – Medium"),
            "# On “Literally”\n\n---\n\nYou either are."
        );
        // A card's title in a list item is renumbered as the other
        // headings are; a list item's code is not a heading.
        let items = "## Intro\n\n- #### A\n\n  Text.\n\n  ```\n  # not a heading\n\n  ## nor this\n  ```\n\n- #### B";
        assert_eq!(
            markdown_with_title(items, "Page"),
            "# Page\n\n## Intro\n\n- ### A\n\n  Text.\n\n  ```\n  # not a heading\n\n  ## nor this\n  ```\n\n- ### B"
        );
        let deep = "Intro.\n\n### A\n\n##### B\n\n```\n# not a heading\n\n## nor this\n```\n\n## C";
        assert_eq!(
            markdown_with_title(deep, "Page"),
            "# Page\n\nIntro.\n\n## A\n\n### B\n\n```\n# not a heading\n\n## nor this\n```\n\n## C"
        );
    }
}
