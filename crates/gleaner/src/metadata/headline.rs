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
            let nodes: Vec<NodeId> = self.in_order().collect();
            nodes.iter().enumerate().find_map(|(i, &id)| {
                let text = super::collapse(doc.text(id));
                if is_byline_label(&text) {
                    // `By <a>Jane Doe</a>`, `<p>Written by</p><p>Jane Doe</p>`.
                    return nodes.get(i + 1).and_then(|&next| name(doc.text(next)));
                }
                name(after_label(&text)?)
            })
        })
    }
}

/// The labels a byline's name follows, in its text or as a text of its
/// own (`Written by`, `Text by:`), compared ignoring case. (`Reviewed
/// by`, a medical page's reviewer, is not one.)
const BYLINE_LABELS: &[&str] =
    &["by", "written by", "posted by", "words by", "text by", "article by", "story by"];

/// `text` after the byline label it starts with (a [`BYLINE_LABELS`]
/// one or `Author`, then an optional colon and a space), compared at
/// character boundaries.
fn after_label(text: &str) -> Option<&str> {
    BYLINE_LABELS.iter().chain(&["author"]).find_map(|label| {
        let rest = text.get(label.len()..)?;
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        (text[..label.len()].eq_ignore_ascii_case(label) && rest.starts_with(' '))
            .then(|| rest.trim_start())
    })
}

/// Is `text` a byline's label alone (`By`, `Written by`, `Text by:`)?
fn is_byline_label(text: &str) -> bool {
    let text = text.trim().trim_end_matches(':').trim_end();
    BYLINE_LABELS.iter().any(|l| text.eq_ignore_ascii_case(l))
}

/// The first date `nodes` show (see [`Window::date`]).
fn date_in(doc: &Document, nodes: &[NodeId]) -> Option<String> {
    let mut text = String::new();
    let mut after_label = false;
    for &id in nodes {
        // A member's profile beside a post (`Joined: Mon Jul 24, 2017`)
        // dates the member, not the page.
        let own = doc.text(id);
        let labelled = after_label || starts_with_member_label(own);
        after_label = is_member_date_label(own);
        if labelled {
            continue;
        }
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

/// Labels of a member's dates in a forum's profile box, compared
/// ignoring case (`Joined:`, `Member since`, `Registered`).
const MEMBER_DATE_LABELS: &[&str] = &["joined", "join date", "member since", "registered"];

/// Is `text` one of [`MEMBER_DATE_LABELS`] alone (a colon after it): the
/// label of a member's date in a forum's profile box, whose value is not
/// the page's date nor a post's?
pub fn is_member_date_label(text: &str) -> bool {
    let text = text.trim().trim_end_matches(':').trim_end();
    MEMBER_DATE_LABELS.iter().any(|l| text.eq_ignore_ascii_case(l))
}

/// Does `text` start with one of [`MEMBER_DATE_LABELS`] and a colon?
fn starts_with_member_label(text: &str) -> bool {
    let text = text.trim_start();
    MEMBER_DATE_LABELS.iter().any(|l| {
        text.get(..l.len()).is_some_and(|head| head.eq_ignore_ascii_case(l))
            && text[l.len()..].trim_start().starts_with(':')
    })
}

/// Does the element say it holds the author's name?
fn marks_author(doc: &Document, id: NodeId) -> bool {
    const WORDS: &[&str] = &["author", "byline", "writer", "username"];
    // Words of the value (`post_author-name`, `bylineAuthor`), not
    // `authorized` or `authority`.
    let says = |v: &str| {
        v.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| {
            let word = word.to_ascii_lowercase();
            !word.starts_with("authori") && WORDS.iter().any(|w| word.contains(w))
        })
    };
    ["class", "id", "itemprop", "rel"].iter().any(|a| doc.attr(id, a).is_some_and(says))
}

/// A byline's text as a name: a label (`By`, `Written by`, `Author:`)
/// cut, the text cut at the first separator (`|`, `•`, `·`, ` on `,
/// ` in `, ` - `) and at a date (`Jane Doe, Dec 19, 2025`, `Sat, 20 Dec`),
/// punctuation trimmed; `None` when what is left is empty, long, not led
/// by a letter, a label (`Written by`, `Follow the author`), a phrase in
/// lower case, a date, or holds a number or a colon (a headline under an
/// element whose class names the author, `entry-author-garr`).
fn name(text: &str) -> Option<String> {
    let text = super::collapse(text);
    let text = super::trim_name(&text);
    let text = after_label(text).unwrap_or(text);
    // A separator ends the name, or ends the text (`Posted by Ree in `
    // before a category's link).
    let end = ["|", "•", "·", " on ", " in ", " - ", " – ", " — "]
        .iter()
        .filter_map(|sep| {
            let last = sep.trim_end();
            text.find(sep).or_else(|| text.ends_with(last).then(|| text.len() - last.len()))
        })
        .min()
        .unwrap_or(text.len());
    let mut kept = 0;
    for part in text[..end].split(", ") {
        if starts_a_date(part) {
            break;
        }
        kept += part.len() + 2;
    }
    let name = super::trim_name(&text[..kept.min(end)]);
    let words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    let ok = name.chars().next().is_some_and(char::is_alphabetic)
        && name.chars().count() <= MAX_NAME_CHARS
        && words.len() <= MAX_NAME_WORDS
        && !words.iter().any(|w| NOT_IN_NAMES.contains(&w.as_str()) || super::is_default_account(w))
        // A headline's words, not a name's: a number of its own, a colon.
        && !words.iter().any(|w| w.chars().all(|c| c.is_ascii_digit()))
        && !name.contains(':')
        && words.last().is_some_and(|w| w != "by")
        && !(words.len() > 1 && name.chars().all(|c| !c.is_uppercase()))
        && super::date::find_in_text(name).is_none()
        && !super::looks_like_url(name);
    ok.then(|| name.to_string())
}

/// Words that are in a byline's labels and buttons, not in names.
const NOT_IN_NAMES: &[&str] = &[
    "author",
    "authors",
    "follow",
    "posted",
    "written",
    "comment",
    "comments",
    "share",
    "read",
    "undefined",
    "null",
    "visit",
    "store",
    "view",
    "profile",
];

/// Does a part of a byline start a date: a number, a month's name before
/// a number (`April 3`, not `April Ryan`), or a weekday's name?
fn starts_a_date(part: &str) -> bool {
    const WEEKDAYS: &[&str] =
        &["mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"];
    let mut words = part.split_whitespace();
    let first = words.next().unwrap_or("");
    let digit = |w: &str| w.starts_with(|c: char| c.is_ascii_digit());
    let day = first.trim_end_matches('.').to_ascii_lowercase();
    digit(first)
        || (super::date::month_number(first).is_some() && words.next().is_some_and(digit))
        || WEEKDAYS.contains(&day.as_str())
        || (day.ends_with("day") && WEEKDAYS.iter().any(|w| day.starts_with(w)))
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
    fn a_members_join_date_is_not_the_pages() {
        // phpBB's profile box beside the first post, then the post's date.
        let html = "<h1>Forum</h1><dl><dd><strong>Joined:</strong> Mon Jul 24, 2017 9:28 am</dd>\
            <dd>Member since: Dec 18, 2017</dd></dl><p>Post by ann » Sat Feb 24, 2024 12:41 pm</p>";
        let (doc, w) = window(html);
        assert_eq!(w.date(&doc).as_deref(), Some("2024-02-24"));
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
        // A label, then the name in a link; a date after the name.
        let (doc, w) = window(
            "<h1>T</h1><div><strong>By <a href=/team/vo>Dr. Vahid Osman</a></strong> - Mar 27, 2024</div>",
        );
        assert_eq!(w.author(&doc).as_deref(), Some("Dr. Vahid Osman"));
        assert_eq!(w.date(&doc).as_deref(), Some("2024-03-27"));
        let (doc, w) = window("<h1>T</h1><p class=post-author>Written by</p><p class=post-author>April Ryan, Dec 2, 2025</p>");
        assert_eq!(w.author(&doc).as_deref(), Some("April Ryan"));
        // Other labels, alone or leading the name, in any case.
        let (doc, w) = window("<h1>T</h1><p>Written by</p><p>Edzel Tabing</p>");
        assert_eq!(w.author(&doc).as_deref(), Some("Edzel Tabing"));
        let (doc, w) = window("<h1>T</h1><p>Text by: Hunter Dukes</p>");
        assert_eq!(w.author(&doc).as_deref(), Some("Hunter Dukes"));
        let (doc, w) = window("<h1>T</h1><p>BY Ann Lee</p>");
        assert_eq!(w.author(&doc).as_deref(), Some("Ann Lee"));
        // Not a reviewer, nor a word that starts like a label.
        let (doc, w) = window("<h1>T</h1><p>Reviewed by</p><p>Dr. Ann Lee</p><p>Byron Bay</p>");
        assert_eq!(w.author(&doc), None);
        // A category after the name; a blog's default account.
        let (doc, w) = window("<h1>T</h1><p>Posted by Ree in <a href=/c>Cowboys</a></p>");
        assert_eq!(w.author(&doc).as_deref(), Some("Ree"));
        let (doc, w) = window("<h1>T</h1><p>Posted by <a href=/author/admin>admin</a></p>");
        assert_eq!(w.author(&doc), None);
        let (doc, w) = window(
            "<h1>Presentation Zen</h1><div class=entry-author-garr><h3>European Seminars 2012 \
             in London</h3><h3>Presentation: The need</h3></div>",
        );
        assert_eq!(w.author(&doc), None);
        // Labels are compared at character boundaries.
        let (doc, w) = window("<h1>T</h1><p>Żb</p><p>Éxt by: x</p><p>Wrįtten by Ann</p>");
        assert_eq!(w.author(&doc), None);
    }

    /// Labels and separators are cut at character boundaries (a panic
    /// on `Zá`-like bylines was caught by the WCEB run).
    #[test]
    fn issue_30_bylines_in_any_script_do_not_panic() {
        for text in [
            "Zá",
            "Zázrak",
            "ž",
            "Autor: Jiří Novák",
            "by",
            "é, 3",
            "日本語の著者",
            "By Ü | x",
            "Téxt by",
        ] {
            let _ = name(text);
            let _ = super::super::date::find_in_text(text);
        }
        assert_eq!(name("By Jiří Novák").as_deref(), Some("Jiří Novák"));
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
        // Bylines that are not names.
        for html in [
            "<h1>T</h1><span class=author>12 comments</span>",
            "<h1>T</h1><span class=author>Written By</span>",
            "<h1>T</h1><span class=author>Follow the author</span>",
            "<h1>T</h1><div class=byline>Sat, 20 Dec, 2025 - 06:36</div>",
            "<h1>T</h1><span class=authorized-dealer>Authorized Dealer</span>",
            "<h1>T</h1><span class=author-note>printing one of our examples.</span>",
        ] {
            let (doc, w) = window(html);
            assert_eq!(w.author(&doc), None, "{html}");
        }
    }
}
