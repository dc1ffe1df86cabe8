//! What a page writes by its headline: the date and the byline a reader
//! sees just over or under the `<h1>` (`By Jane Doe · Dec 19, 2025`),
//! for pages whose JSON-LD and `<meta>` elements do not say them (issue
//! 30: on WCXB-dev, 128 of the 162 pages with a gold date that gleaner
//! left without one show that date as text, mostly by the headline).
//!
//! The window read is the page's visible text from [`BEFORE_CHARS`]
//! characters before the first visible `<h1>` to [`AFTER_CHARS`]
//! characters after its start: far enough for a byline block, near
//! enough to leave out the dates of teasers, comments and footers.

use markup5ever::local_name;

use super::elements::MetadataElements;
use crate::document::{Document, NodeFlags, NodeId};

/// Characters of visible text read before the headline.
const BEFORE_CHARS: usize = 100;

/// Characters of visible text read from the headline's start on.
const AFTER_CHARS: usize = 600;

/// Most characters of a name taken from a byline.
const MAX_NAME_CHARS: usize = 60;

/// Most words of a name taken from a byline.
const MAX_NAME_WORDS: usize = 6;

/// The visible text nodes around the headline, in document order; empty
/// when the page has no visible `<h1>`.
pub(super) struct Window {
    nodes: Vec<NodeId>,
    /// How many of `nodes` come before the headline.
    before: usize,
}

impl Window {
    pub(super) fn of(doc: &Document, elements: &MetadataElements) -> Window {
        let Some(h1) = elements
            .named(doc, local_name!("h1"))
            .find(|&id| doc.flags(id).contains(NodeFlags::VISIBLE))
        else {
            return Window { nodes: Vec::new(), before: 0 };
        };
        let chars = |id: NodeId| doc.text(id).trim().chars().count();
        let mut before = Vec::new();
        let mut seen = 0;
        for i in (0..h1.0).rev() {
            let id = NodeId(i);
            if !doc.is_visible_text(id) {
                continue;
            }
            seen += chars(id);
            if seen > BEFORE_CHARS {
                break;
            }
            before.push(id);
        }
        before.reverse();
        let count = before.len();
        let mut nodes = before;
        let mut seen = 0;
        let end = u32::try_from(doc.len()).unwrap_or(u32::MAX);
        for i in h1.0..end {
            let id = NodeId(i);
            if !doc.is_visible_text(id) {
                continue;
            }
            nodes.push(id);
            seen += chars(id);
            if seen >= AFTER_CHARS {
                break;
            }
        }
        Window { nodes, before: count }
    }

    /// The nodes from the headline on, then those before it: a byline
    /// under the headline is preferred to one over it.
    fn in_order(&self) -> impl Iterator<Item = NodeId> + '_ {
        let (before, after) = self.nodes.split_at(self.before.min(self.nodes.len()));
        after.iter().chain(before).copied()
    }

    /// The first date the window shows, from the headline on, else
    /// before it: a `<time datetime>`'s (its text may be `3 days ago`),
    /// else one written in its text.
    pub(super) fn date(&self, doc: &Document) -> Option<String> {
        let (before, after) = self.nodes.split_at(self.before.min(self.nodes.len()));
        date_in(doc, after).or_else(|| date_in(doc, before))
    }

    /// The name in the window's byline: the text of an element marked as
    /// the author's (`class`/`id` naming `author`, `byline`, `writer` or
    /// `username`, `rel=author`, `itemprop=author`), else a text that
    /// starts with `By `; `None` when neither reads as a name.
    pub(super) fn author(&self, doc: &Document) -> Option<String> {
        let marked = self.in_order().find_map(|id| {
            doc.ancestors(id).take(3).any(|a| marks_author(doc, a)).then(|| name(doc.text(id)))?
        });
        marked.or_else(|| {
            self.in_order().find_map(|id| {
                let text = super::collapse(doc.text(id));
                let rest = text.strip_prefix("By ").or_else(|| text.strip_prefix("by "))?;
                name(rest)
            })
        })
    }
}

/// The first date `nodes` show (see [`Window::date`]).
fn date_in(doc: &Document, nodes: &[NodeId]) -> Option<String> {
    let mut text = String::new();
    for &id in nodes {
        let time = doc
            .ancestors(id)
            .take(3)
            .find(|&a| doc.is(a, local_name!("time")))
            .and_then(|t| doc.attr(t, "datetime"))
            .and_then(super::normalise_date);
        match time {
            Some(iso) => text.push_str(&iso),
            None => text.push_str(doc.text(id)),
        }
        text.push(' ');
    }
    super::date::find_in_text(&text)
}

/// Does the element say it holds the author's name?
fn marks_author(doc: &Document, id: NodeId) -> bool {
    const WORDS: &[&str] = &["author", "byline", "writer", "username"];
    let says = |v: &str| {
        let v = v.to_ascii_lowercase();
        WORDS.iter().any(|w| v.contains(w))
    };
    ["class", "id", "itemprop", "rel"].iter().any(|a| doc.attr(id, a).is_some_and(says))
}

/// A byline's text as a name: `By` and `Written by` cut, the text cut at
/// the first separator (`|`, `•`, `·`, ` on `, ` - `, a line break),
/// punctuation trimmed; `None` when what is left is empty, long, holds a
/// date, or is not led by a letter.
fn name(text: &str) -> Option<String> {
    let text = super::collapse(text);
    let mut text = text.as_str();
    for prefix in ["written by ", "posted by ", "words by ", "by ", "author: ", "author "] {
        if text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix) {
            text = &text[prefix.len()..];
            break;
        }
    }
    let end = ["|", "•", "·", " on ", " - ", " – ", " — "]
        .iter()
        .filter_map(|sep| text.find(sep))
        .min()
        .unwrap_or(text.len());
    // `Jane Doe, Dec 19, 2025`: the parts from the first that starts a
    // date (a digit, or a month's name before one) on are left out.
    let mut kept = 0;
    for part in text[..end].split(", ") {
        let mut words = part.split_whitespace();
        let first = words.next().unwrap_or("");
        let digit = |w: &str| w.starts_with(|c: char| c.is_ascii_digit());
        // `April Ryan` is a name, `April 3` a date.
        let month = super::date::month_number(first).is_some() && words.next().is_some_and(digit);
        if digit(first) || month {
            break;
        }
        kept += part.len() + 2;
    }
    let name = super::trim_name(&text[..kept.min(end)]);
    let ok = !name.is_empty()
        && name.chars().next().is_some_and(char::is_alphabetic)
        && name.chars().count() <= MAX_NAME_CHARS
        && name.split_whitespace().count() <= MAX_NAME_WORDS
        && !name.eq_ignore_ascii_case("by")
        && !name.eq_ignore_ascii_case("author")
        && super::date::find_in_text(name).is_none()
        && !super::looks_like_url(name);
    ok.then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn window(html: &str) -> (Document, Window) {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let w = Window::of(&doc, &MetadataElements::of(&doc));
        (doc, w)
    }

    #[test]
    fn issue_30_date_and_byline_by_the_headline() {
        let html = "<nav>Home News Dec 1, 2020</nav><article><h1>Storm hits</h1>\
            <p class=meta><span class=byline>By Jane Doe</span> | <span>Dec. 19, 2025</span></p>\
            <p>Text.</p></article><footer>Posted by Site Admin Jan 2, 2021</footer>";
        let (doc, w) = window(html);
        assert_eq!(w.date(&doc).as_deref(), Some("2025-12-19"));
        assert_eq!(w.author(&doc).as_deref(), Some("Jane Doe"));
        // A `<time>` whose text is relative gives its `datetime`.
        let (doc, w) = window(
            "<h1>T</h1><time datetime='2025-01-02T03:04:05Z'>3 days ago</time> \
             <div>By Ann Lee on Monday</div>",
        );
        assert_eq!(w.date(&doc).as_deref(), Some("2025-01-02T03:04:05Z"));
        assert_eq!(w.author(&doc).as_deref(), Some("Ann Lee"));
    }

    #[test]
    fn issue_30_nothing_far_from_the_headline_or_without_one() {
        let far =
            format!("<h1>T</h1><p>{}</p><p>By Jo Bloggs, Dec 19, 2025</p>", "word ".repeat(200));
        let (doc, w) = window(&far);
        assert_eq!(w.date(&doc), None);
        assert_eq!(w.author(&doc), None);
        let (doc, w) = window("<p>By Jo Bloggs, Dec 19, 2025</p>");
        assert_eq!(w.date(&doc), None);
        assert_eq!(w.author(&doc), None);
        // A byline that is not a name.
        let (doc, w) = window("<h1>T</h1><span class=author>12 comments</span>");
        assert_eq!(w.author(&doc), None);
    }
}
