//! Part of pass 10, **end-of-article boilerplate** \[I\]: what templates
//! and press releases append after the article's last paragraph — author
//! bios, the "About `<Company>`" section of a press release (with its
//! contact lines), copyright and contact lines (issue 11, "boilerplate at
//! the end: author bios, 'About `<company>`' press-release footers,
//! copyright and address lines").
//!
//! trafilatura removes such lines by class names and its list of
//! boilerplate phrases; names alone backfire here (issue 11: "broad
//! class-name rules backfire"), so each rule needs three pieces of
//! evidence: **position** (only the last lines of the selection, walked
//! from the end, stopping at the first line that is article text),
//! **wording** (what the line says) and **structure** (its shape and
//! size, or for a bio the name of the block around it). A line holding
//! half the selected text is never removed, nor a tail holding half of
//! it.

use super::segments::Analysis;
use crate::document::{Document, NodeId};
use crate::selection::Selection;

/// One line of the selection: the selected text nodes of one text
/// segment (a paragraph, a heading, a run between `<br><br>`), in order,
/// kept as a run of its [`Lines`]' list (issue 13: a table of one-letter
/// cells has a line per cell, which a list per line made 80 bytes each).
pub(super) struct Line {
    /// The line's run of [`Lines::texts`].
    start: u32,
    end: u32,
    /// The block the segment belongs to.
    pub owner: NodeId,
    /// Non-whitespace characters.
    pub chars: u32,
}

/// Lines of the selection, their text nodes in one list.
#[derive(Default)]
pub(super) struct Lines {
    /// Every line's text nodes, line after line.
    texts: Vec<NodeId>,
    /// The lines, in document order.
    pub lines: Vec<Line>,
    /// The segment of the last line pushed, while the lines are gathered.
    last_segment: Option<usize>,
}

impl Lines {
    /// The selected text nodes of `line`.
    pub(super) fn texts(&self, line: &Line) -> &[NodeId] {
        self.texts.get(line.start as usize..line.end as usize).unwrap_or(&[])
    }

    /// Takes `line`'s text nodes out of `sel`.
    pub(super) fn deselect(&self, line: &Line, sel: &mut Selection) {
        self.texts(line).iter().for_each(|&t| sel.set(t, false));
    }

    /// Does `line`'s first text start with `word` (spaces before it
    /// skipped)?
    fn starts_with(&self, doc: &Document, line: &Line, word: &str) -> bool {
        self.texts(line).first().is_some_and(|&t| doc.text(t).trim_start().starts_with(word))
    }

    /// The text of `line`, whitespace collapsed and trimmed (built on
    /// demand: most lines are never read). Built once, in room for all of
    /// it: a collapsed text starts with no whitespace and ends with one
    /// space at most, so trimming is dropping that space, not copying the
    /// text (issue 13: a page of one long line held it three times).
    pub(super) fn text(&self, doc: &Document, line: &Line) -> String {
        let texts = self.texts(line);
        let len = texts.iter().map(|&t| doc.text(t).len()).sum();
        let mut out = String::with_capacity(len);
        for &t in texts {
            crate::document::push_collapsed(&mut out, doc.text(t));
        }
        if out.ends_with(' ') {
            out.pop();
        }
        out
    }

    /// Would a text of segment `segment` (`None`: a text of no segment,
    /// a line of its own) continue the last line?
    fn continues(&self, segment: Option<usize>) -> bool {
        !self.lines.is_empty() && segment.is_some() && self.last_segment == segment
    }

    /// Adds selected text node `id` of segment `segment`, with `chars`
    /// characters: to the last line when it [continues](Lines::continues)
    /// it, or as a new line owned by `owner` (asked only then).
    fn push(
        &mut self,
        segment: Option<usize>,
        id: NodeId,
        chars: u32,
        owner: impl FnOnce() -> NodeId,
    ) {
        let at = self.texts.len() as u32;
        self.texts.push(id);
        let continues = self.continues(segment);
        match self.lines.last_mut() {
            Some(line) if continues => {
                line.end = at + 1;
                line.chars += chars;
            }
            _ => {
                self.last_segment = segment;
                self.lines.push(Line { start: at, end: at + 1, owner: owner(), chars });
            }
        }
    }

    /// Drops the lines without characters.
    fn without_empty_lines(mut self) -> Lines {
        self.lines.retain(|l| l.chars > 0);
        self
    }
}

/// The selection's lines inside the chosen elements, in document order.
pub(super) fn selected_lines(
    doc: &Document,
    a: &Analysis,
    chosen: &[NodeId],
    sel: &Selection,
) -> Lines {
    let mut lines = Lines::default();
    for &root in chosen {
        for id in doc.subtree(root).filter(|&id| doc.is_text(id) && sel.contains(id)) {
            let owner = || a.segment_owner(doc, id).unwrap_or(root);
            lines.push(a.segment_index(id), id, doc.stats(id).chars, owner);
        }
    }
    lines.without_empty_lines()
}

/// The last lines of the selection inside the chosen elements, in
/// document order, back to the first one that reaches into the first half
/// of the selected characters (nothing before it can go: see
/// [`TAIL_MAX_SHARE`]), and the selected characters in all.
fn tail_lines(doc: &Document, a: &Analysis, chosen: &[NodeId], sel: &Selection) -> (Lines, u32) {
    let selected =
        |root: NodeId| doc.subtree(root).filter(move |&id| doc.is_text(id) && sel.contains(id));
    let total: u32 =
        chosen.iter().flat_map(|&root| selected(root)).map(|id| doc.stats(id).chars).sum();
    let half = total / 2;
    // Gathered from the end, then turned around.
    let mut lines = Lines::default();
    let mut seen = 0u32;
    'roots: for &root in chosen.iter().rev() {
        let texts = doc.subtree(root).rev().filter(|&id| doc.is_text(id) && sel.contains(id));
        for id in texts {
            let segment = a.segment_index(id);
            if !lines.continues(segment) && seen > half {
                break 'roots;
            }
            let chars = doc.stats(id).chars;
            let owner = || a.segment_owner(doc, id).unwrap_or(root);
            lines.push(segment, id, chars, owner);
            seen += chars;
        }
    }
    let n = lines.texts.len() as u32;
    lines.texts.reverse();
    lines.lines.reverse();
    for line in &mut lines.lines {
        (line.start, line.end) = (n - line.end, n - line.start);
    }
    let mut lines = lines.without_empty_lines();
    lines.lines.shrink_to_fit();
    lines.texts.shrink_to_fit();
    (lines, total)
}

/// Most of the selected characters a removed line, or the whole removed
/// tail, may hold \[I\].
const TAIL_MAX_SHARE: f64 = 0.5;
/// Most words of a copyright or contact line \[I\].
const SHORT_LINE_WORDS: usize = 30;
/// Most words of an author bio \[I\].
const BIO_WORDS: usize = 100;
/// Most words of an "About <Company>" heading line \[I\] …
const ABOUT_WORDS: usize = 8;
/// … and most characters.
const ABOUT_CHARS: u32 = 80;

/// Pass 10, **end-of-article boilerplate**: from the selection's last
/// line backwards, copyright lines, contact lines and author bios are
/// removed until a line is none of them; then the last "About <Name>"
/// line in the selection's second half that another line follows starts
/// a press release's boilerplate, removed with everything after it; then
/// the walk from the end is repeated.
pub(super) fn remove_end_boilerplate(
    doc: &Document,
    a: &Analysis,
    chosen: &[NodeId],
    sel: &mut Selection,
) {
    let (mut lines, total) = tail_lines(doc, a, chosen, sel);
    let limit = TAIL_MAX_SHARE * f64::from(total);
    let mut removed = 0u32;
    // May `chars` more characters go, `removed` being gone already?
    let fits = |removed: u32, chars: u32| f64::from(removed + chars) <= limit;
    let walk = |lines: &mut Lines, sel: &mut Selection, removed: &mut u32| {
        while let Some(line) = lines.lines.last() {
            // A line past the share still removable stays whatever it
            // says: its text is not built (issue 13: the whole
            // selection, on a page of one long line).
            if !fits(*removed, line.chars) {
                break;
            }
            let text = LineText::new(lines.text(doc, line));
            let end_line =
                text.is_copyright() || text.is_contact() || is_author_bio(doc, chosen, line, &text);
            if !end_line {
                break;
            }
            *removed += line.chars;
            lines.deselect(line, sel);
            lines.lines.pop();
        }
    };
    walk(&mut lines, sel, &mut removed);
    // The press release's "About <Name>" section, in the second half:
    // every line but the first of `tail_lines`, which crosses the half.
    let about = {
        let (all, line) = (&lines, |i: usize| &lines.lines[i]);
        (1..all.lines.len().saturating_sub(1))
            .rev()
            .filter(|&i| line(i).chars <= ABOUT_CHARS && all.starts_with(doc, line(i), "About"))
            .find(|&i| is_about_heading(&all.text(doc, line(i)), &all.text(doc, line(i + 1))))
    };
    if let Some(start) = about {
        let tail: u32 = lines.lines[start..].iter().map(|l| l.chars).sum();
        if fits(removed, tail) {
            for line in &lines.lines[start..] {
                lines.deselect(line, sel);
            }
            lines.lines.truncate(start);
            removed += tail;
            walk(&mut lines, sel, &mut removed);
        }
    }
}

/// A tail line's text, read once for all the end-line tests (issue 12:
/// each test split and lower-cased the same line again): its words,
/// counted up to one more than [`BIO_WORDS`], the most any test takes,
/// and its lower case, made only for a line short enough for a copyright
/// or contact line.
struct LineText {
    text: String,
    /// Words, at most `BIO_WORDS + 1`.
    words: usize,
    /// The lower case, for a line of at most [`SHORT_LINE_WORDS`] words.
    lower: Option<String>,
}

impl LineText {
    fn new(text: String) -> LineText {
        let words = text.split_whitespace().take(BIO_WORDS + 1).count();
        let lower = (words <= SHORT_LINE_WORDS).then(|| text.to_lowercase());
        LineText { text, words, lower }
    }

    /// A copyright line: short, and "©", "(c)" or "Copyright" first, or
    /// "All rights reserved" in it.
    fn is_copyright(&self) -> bool {
        let Some(lower) = &self.lower else { return false };
        let lower = lower.trim_start();
        lower.starts_with('©')
            || lower.starts_with("(c)")
            || lower.starts_with("copyright")
            || lower.contains("all rights reserved")
    }

    /// A contact line: short, and a contact label first ("Contact:",
    /// "Media contact", "Tel:", "Email:") or an e-mail address or a
    /// telephone number (nine digits or more in one run of digits and
    /// `+-(). /`) in it.
    fn is_contact(&self) -> bool {
        let Some(lower) = &self.lower else { return false };
        const LABELS: &[&str] = &[
            "contact:",
            "contacts:",
            "media contact",
            "press contact",
            "media inquiries",
            "press inquiries",
            "tel:",
            "tel.",
            "phone:",
            "fax:",
            "email:",
            "e-mail:",
        ];
        if LABELS.iter().any(|l| lower.starts_with(l)) {
            return true;
        }
        let email = self.text.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            w.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty() && host.contains('.') && !host.starts_with('.')
            })
        });
        email || has_phone_number(&self.text)
    }
}

/// [`LineText::is_copyright`] of `text`.
#[cfg(test)]
fn is_copyright(text: &str) -> bool {
    LineText::new(text.to_string()).is_copyright()
}

/// [`LineText::is_contact`] of `text`.
#[cfg(test)]
fn is_contact(text: &str) -> bool {
    LineText::new(text.to_string()).is_contact()
}

/// Nine digits or more in one run of digits, spaces and `+-().`/`.
fn has_phone_number(text: &str) -> bool {
    let mut digits = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits += 1;
            if digits >= 9 {
                return true;
            }
        } else if !matches!(c, ' ' | '+' | '-' | '(' | ')' | '.' | '/') {
            digits = 0;
        }
    }
    false
}

/// Name parts of a block that holds an author's bio.
const BIO_NAMES: &[&str] =
    &["bio", "bios", "biography", "authorbio", "authorbox", "authorinfo", "abouttheauthor"];
/// Name parts that, beside `author`, say the block is about the author.
const AUTHOR_BOX_NAMES: &[&str] =
    &["about", "box", "info", "details", "card", "profile", "description", "bottom"];
/// What a bio says its subject is.
const ROLES: &[&str] = &[
    "reporter",
    "writer",
    "journalist",
    "editor",
    "correspondent",
    "author",
    "columnist",
    "contributor",
    "freelance",
    "freelancer",
    "photographer",
    "producer",
    "critic",
    "blogger",
    "novelist",
    "analyst",
    "professor",
    "researcher",
    "fellow",
];

/// An author bio: at most [`BIO_WORDS`] words, and either inside a block
/// of the chosen elements named as a bio (`author-bio`, `about-author`),
/// or saying "<Name> is a/an/the … <role>" (reporter, writer, editor …)
/// in its first sentence.
fn is_author_bio(doc: &Document, chosen: &[NodeId], line: &Line, text: &LineText) -> bool {
    if text.words > BIO_WORDS {
        return false;
    }
    let named = std::iter::once(line.owner)
        .chain(doc.ancestors(line.owner))
        .take_while(|&id| !chosen.contains(&id))
        .filter_map(|id| doc.element(id))
        .any(|e| {
            let names = e.id_and_class();
            let parts: Vec<&str> = names
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|p| !p.is_empty())
                .collect();
            parts.iter().any(|p| BIO_NAMES.contains(p))
                || (parts.contains(&"author") && parts.iter().any(|p| AUTHOR_BOX_NAMES.contains(p)))
        });
    named || says_who_the_author_is(&text.text)
}

/// "<Name> is a/an/the … <role>" within the first sentence, the verb
/// among the first six words.
fn says_who_the_author_is(text: &str) -> bool {
    let first = text.split(". ").next().unwrap_or(text).to_lowercase();
    let words: Vec<&str> = first.split_whitespace().collect();
    let verb = words
        .windows(2)
        .take(6)
        .position(|w| matches!(w, ["is" | "was", "a" | "an" | "the"]) || w == ["has", "been"]);
    let Some(v) = verb else { return false };
    v >= 1
        && words[v..].iter().any(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            ROLES.contains(&w) || ROLES.iter().any(|r| w.strip_suffix('s') == Some(r))
        })
}

/// "About <Name>": at most [`ABOUT_WORDS`] words, "About" first and a
/// capital after it, no sentence end, and the line after it names
/// the same first word (the company's description: "Acme Corp. is …").
fn is_about_heading(text: &str, next: &str) -> bool {
    let t = text.trim().trim_end_matches(':');
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() < 2 || words.len() > ABOUT_WORDS || words[0] != "About" {
        return false;
    }
    let name = words[1];
    let capital = name.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    let sentence = t.ends_with(['.', '!', '?']);
    let name = name.trim_matches(|c: char| !c.is_alphanumeric());
    capital && !sentence && !name.is_empty() && next.contains(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{run_config, PARA};
    use crate::extract::article::ArticleConfig;

    fn run_with(html: &str, end_boilerplate: bool) -> String {
        run_config(html, ArticleConfig { end_boilerplate, ..Default::default() })
    }

    /// See: issue 11, "Boilerplate at the end: author bios, 'About
    /// <company>' press-release footers, copyright and address lines".
    #[test]
    fn issue_11_a_press_release_footer_goes() {
        let html = format!(
            "<div class=release><h1>Acme opens a plant</h1><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>\
             <h3>About Acme</h3><p>Acme Corp. makes sea walls, flood gates and pumps for towns on the coast.</p>\
             <p>Media contact: Jane Roe, press@acme.example, +1 555 010 0199</p>\
             <p>© 2024 Acme Corp. All rights reserved.</p></div>"
        );
        let out = run_with(&html, true);
        assert_eq!(out.matches("A powerful storm").count(), 4, "{out}");
        for junk in ["About Acme", "makes sea walls", "Media contact", "All rights"] {
            assert!(!out.contains(junk), "{junk}: {out}");
        }
        let out = run_with(&html, false);
        assert!(out.contains("About Acme") && out.contains("All rights"), "{out}");
    }

    #[test]
    fn issue_11_an_author_bio_at_the_end_goes_and_one_in_the_middle_stays() {
        let bio =
            "<p><em>Jane Roe is a staff reporter covering the coast and its weather.</em></p>";
        let html = format!("<article><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>{bio}</article>");
        let out = run_with(&html, true);
        assert!(!out.contains("Jane Roe"), "{out}");
        assert!(run_with(&html, false).contains("Jane Roe"));
        let html = format!("<article><p>{PARA}</p>{bio}<p>{PARA}</p><p>{PARA}</p></article>");
        assert!(run_with(&html, true).contains("Jane Roe"));
        // A bio block by its name, without the wording.
        let html = format!(
            "<article><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>\
             <div class=author-bio><p>Jane Roe lives by the sea with two dogs and a boat.</p></div></article>"
        );
        assert!(!run_with(&html, true).contains("Jane Roe"));
    }

    #[test]
    fn the_last_paragraphs_of_a_short_text_are_never_most_of_it() {
        // The only paragraph is a copyright notice: it is the page.
        let html = "<div><p>Copyright 2024 Jane Roe, all rights reserved, by the sea.</p></div>";
        assert!(run_with(html, true).contains("Copyright 2024"));
    }

    #[test]
    fn line_wording() {
        assert!(is_copyright("© 2024 Example News"));
        assert!(is_copyright("Copyright (c) Example. All rights reserved."));
        assert!(!is_copyright("The copyright of the photographs was disputed in court for years."));
        assert!(is_contact("Contact: press office"));
        assert!(is_contact("Call us on (020) 7946 0958 today"));
        assert!(!is_contact("In 2024, 1,200 homes were flooded."));
        assert!(says_who_the_author_is("John Smith is a freelance writer based in Leeds."));
        assert!(!says_who_the_author_is("The storm is a reminder of what the sea can do."));
        assert!(is_about_heading("About Acme Corp", "Acme Corp is a maker of pumps."));
        assert!(!is_about_heading("About the storm", "It was big."));
        assert!(!is_about_heading("About Us", "We are a newspaper."));
    }
}
