//! Page metadata: the title, and whether the page is a frameset.
//!
//! The title comes from `og:title` (or `twitter:title`), else `<title>`,
//! else the first `<h1>`. Site names are cut off the way readers expect:
//! `"Story headline | Example News"` becomes `"Story headline"`. When an
//! `<h1>` matches one segment of the title, that segment wins; otherwise
//! the longest segment does (Readability.js uses a similar rule).

use markup5ever::local_name;

use crate::document::{Document, NodeFlags, NodeId};

/// Separators between a headline and a site name.
const SEPARATORS: &[&str] =
    &[" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " « ", " / ", " ~ "];

/// The page title, cleaned of site-name suffixes and prefixes, with
/// whitespace collapsed and control characters left out.
pub fn title(doc: &Document) -> Option<String> {
    let meta = meta_content(doc, &["og:title", "twitter:title"]);
    let title_tag = doc
        .ids()
        .find(|&id| doc.is(id, local_name!("title")))
        .map(|id| collapse(&all_text(doc, id)))
        .filter(|t| !t.is_empty());
    let h1 = doc
        .ids()
        .find(|&id| {
            doc.is(id, local_name!("h1")) && doc.stats(id).flags.contains(NodeFlags::VISIBLE)
        })
        .map(|id| doc.text_content(id))
        .filter(|t| !t.is_empty());
    let raw = meta.or(title_tag).or_else(|| h1.clone())?;
    Some(clean(&raw, h1.as_deref()))
}

/// Cuts a site name off `raw`, preferring the segment that equals the h1.
pub fn clean(raw: &str, h1: Option<&str>) -> String {
    let raw = collapse(raw);
    if let Some(h1) = h1 {
        if same_heading(&raw, h1) {
            return raw;
        }
    }
    if let Some(h1) = h1 {
        // A colon separates too when a segment is the page's own heading
        // (`Lesson: Page` over `<h1>Page</h1>`); alone it is too common
        // inside headlines to cut at.
        let segment = SEPARATORS
            .iter()
            .chain([&": "])
            .flat_map(|sep| raw.split(*sep).map(str::trim))
            .find(|s| same_heading(s, h1));
        if let Some(seg) = segment {
            return seg.to_string();
        }
    }
    let Some(sep) = SEPARATORS.iter().find(|s| raw.contains(**s)) else {
        return raw;
    };
    let segments: Vec<&str> = raw.split(sep).map(str::trim).filter(|s| !s.is_empty()).collect();
    let words = |s: &str| s.split_whitespace().count();
    let best = segments.iter().copied().max_by(|a, b| {
        // Longest by words; on ties the earlier segment.
        words(a).cmp(&words(b)).then(std::cmp::Ordering::Greater)
    });
    match best {
        Some(seg) if words(seg) >= 2 => seg.to_string(),
        _ => raw,
    }
}

/// Do a title (or title segment) and a heading say the same, ignoring
/// case and a permalink mark after the heading (`¶`, `#`, an icon font's
/// private-use glyph, as Sphinx and others add)?
pub(crate) fn same_heading(title: &str, heading: &str) -> bool {
    let heading = heading
        .trim()
        .trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, '¶' | '#' | '§' | '\u{e000}'..='\u{f8ff}')
        })
        .trim();
    !heading.is_empty() && title.trim().eq_ignore_ascii_case(heading)
}

/// The `src` of every `<frame>` when the page is a frameset, `None`
/// otherwise. A frameset page has no content of its own: what a reader
/// sees is in the frames, which are other pages to fetch and extract.
pub fn frameset_sources(doc: &Document) -> Option<Vec<String>> {
    doc.ids().find(|&id| doc.is(id, local_name!("frameset")))?;
    Some(
        doc.ids()
            .filter(|&id| doc.is(id, local_name!("frame")))
            .filter_map(|id| doc.attr(id, "src"))
            .map(|src| crate::render::strip_controls(src).into_owned())
            .collect(),
    )
}

fn meta_content(doc: &Document, keys: &[&str]) -> Option<String> {
    for key in keys {
        for id in doc.ids() {
            if !doc.is(id, local_name!("meta")) {
                continue;
            }
            let matches = ["property", "name"]
                .iter()
                .any(|a| doc.attr(id, a).is_some_and(|v| v.trim().eq_ignore_ascii_case(key)));
            if matches {
                if let Some(c) = doc.attr(id, "content").map(collapse).filter(|c| !c.is_empty()) {
                    return Some(c);
                }
            }
        }
    }
    None
}

fn all_text(doc: &Document, id: NodeId) -> String {
    doc.subtree(id).filter(|&n| doc.is_text(n)).map(|n| doc.text(n)).collect()
}

/// Whitespace collapsed to single spaces, control characters left out
/// (issue 13: a title is printed to terminals; see
/// [`strip_controls`](crate::render::strip_controls)).
fn collapse(s: &str) -> String {
    crate::render::strip_controls(s).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn t(html: &str) -> Option<String> {
        title(&Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse"))
    }

    #[test]
    fn site_name_is_cut() {
        assert_eq!(
            t("<title>Big storm hits the coast | Daily Planet</title>").as_deref(),
            Some("Big storm hits the coast")
        );
        assert_eq!(
            t("<title>News - Big storm hits the coast</title>").as_deref(),
            Some("Big storm hits the coast")
        );
    }

    #[test]
    fn h1_match_wins() {
        let html = "<title>Daily Planet World News | Storm</title><h1>Storm</h1>";
        assert_eq!(t(html).as_deref(), Some("Storm"));
    }

    #[test]
    fn a_colon_separates_only_before_the_page_heading() {
        let lesson =
            "<title>The Unix Shell: Additional Resources</title><h1>Additional Resources</h1>";
        assert_eq!(t(lesson).as_deref(), Some("Additional Resources"));
        let headline = "<title>Rust: a language for everyone</title><h1>Other</h1>";
        assert_eq!(t(headline).as_deref(), Some("Rust: a language for everyone"));
    }

    /// See: issue 13, defect 8: a title must not retitle the terminal.
    #[test]
    fn issue_13_title_has_no_control_characters() {
        let html = "<title>Head&#27;]0;pwned&#7; \u{1b}[2J\u{9b}line\r\u{202e}x | Site</title>";
        assert_eq!(t(html).as_deref(), Some("Head]0;pwned [2Jline x"));
        let og = "<meta property=og:title content='OG&#27;&#7;'><h1>H\u{1b}</h1>";
        assert_eq!(t(og).as_deref(), Some("OG"));
        assert_eq!(t("<h1>Only\u{1b} heading</h1>").as_deref(), Some("Only heading"));
    }

    #[test]
    fn og_title_then_title_then_h1() {
        assert_eq!(
            t("<meta property=og:title content='OG one'><title>T two</title>").as_deref(),
            Some("OG one")
        );
        assert_eq!(t("<h1>Only heading</h1>").as_deref(), Some("Only heading"));
        assert_eq!(t("<p>nothing</p>"), None);
    }
}
