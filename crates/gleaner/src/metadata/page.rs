//! Metadata from the page's own markup, when no `<meta>` or JSON-LD says
//! it: `<html lang>`, `<link rel=canonical>`, `<time datetime>`,
//! microdata `itemprop` on visible elements, and the link types `author`,
//! `category` and `tag` (`<a rel="category tag">`, as WordPress writes).
//!
//! References: WHATWG HTML §3.2.6.2 (`lang`), §4.6.7 (link types:
//! `author`, `canonical` from RFC 6596, `tag`), §4.5.14 (`time`),
//! §5 (microdata).

use markup5ever::local_name;

use super::elements::MetadataElements;
use super::Metadata;
use crate::document::{Document, NodeId};

/// Most characters of an author's name read from the page's text: longer
/// text under `itemprop=author` or `rel=author` is a bio, not a name.
const MAX_AUTHOR_CHARS: usize = 100;

/// The page's metadata as its markup states it, and the date of its
/// first `<time datetime>` (its `date` is only one marked as the
/// publication date).
pub(super) fn metadata(doc: &Document, elements: &MetadataElements) -> (Metadata, Option<String>) {
    let mut meta = Metadata::default();
    let mut categories = Vec::new();
    let mut tags = Vec::new();
    let mut first_time = None;
    for id in elements.iter() {
        let Some(element) = doc.element(id) else { continue };
        // Compared without case (no lower-cased copy per element); both
        // found in one pass over the attributes, by atom (issue 12).
        let [itemprop, rel] = element.attrs_named([&local_name!("itemprop"), &local_name!("rel")]);
        let itemprop_is = |value: &str| itemprop.is_some_and(|p| p.eq_ignore_ascii_case(value));
        let has_rel = |word: &str| {
            rel.is_some_and(|r| r.split_whitespace().any(|w| w.eq_ignore_ascii_case(word)))
        };
        match element.name {
            local_name!("html") if meta.language.is_none() => {
                meta.language = doc.attr(id, "lang").map(super::collapse).filter(|l| !l.is_empty());
            }
            local_name!("link") if has_rel("canonical") && meta.url.is_none() => {
                meta.url = doc.attr(id, "href").map(|h| h.trim().to_string());
            }
            local_name!("time") => {
                let date = doc.attr(id, "datetime").and_then(super::normalise_date);
                if itemprop_is("datepublished") && date.is_some() {
                    meta.date = meta.date.or(date);
                } else if first_time.is_none() {
                    first_time = date;
                }
            }
            local_name!("a") if has_rel("author") && meta.author.is_none() => {
                meta.author = short_text(doc, id);
            }
            local_name!("a") if has_rel("category") || has_rel("tag") => {
                let Some(text) = short_text(doc, id) else { continue };
                if has_rel("category") {
                    categories.push(text)
                } else {
                    tags.push(text)
                }
            }
            _ if itemprop_is("author") && meta.author.is_none() => {
                // `<span itemprop=author><span itemprop=name>…`: the name
                // when marked, else the element's text.
                let named = doc.subtree(id).find(|&n| {
                    doc.attr(n, "itemprop").is_some_and(|p| p.eq_ignore_ascii_case("name"))
                });
                // A `<meta itemprop=name content=…>` holds it in its
                // `content` (Stack Exchange's asker: read as text, the
                // empty name passed the author to the first commenter).
                meta.author = match named {
                    Some(n) if doc.is(n, local_name!("meta")) => {
                        doc.attr(n, "content").and_then(short_name)
                    }
                    _ => short_text(doc, named.unwrap_or(id)),
                };
            }
            _ if itemprop_is("datepublished") && meta.date.is_none() => {
                meta.date = ["datetime", "content"]
                    .iter()
                    .find_map(|a| doc.attr(id, a))
                    .and_then(super::normalise_date)
                    .or_else(|| super::normalise_date(&doc.text_content(id)));
            }
            _ => {}
        }
    }
    if let Some(titles) = super::titles_of(doc, elements) {
        meta.title = Some(titles.shown);
        meta.stated_title = Some(titles.stated);
        meta.unheaded_title = Some(titles.unheaded);
    }
    meta.categories = super::unique_nonempty(categories);
    meta.tags = super::unique_nonempty(tags);
    (meta, first_time)
}

/// The element's text, collapsed, when it is short enough to be a name.
fn short_text(doc: &Document, id: NodeId) -> Option<String> {
    short_name(&doc.text_content(id))
}

/// A text, collapsed, when it is short enough to be a name (see
/// [`short_text`]).
fn short_name(text: &str) -> Option<String> {
    let text = super::collapse(text);
    let text = text.trim_start_matches('@').trim();
    let text = super::trim_name(strip_by(text));
    (!text.is_empty() && text.chars().count() <= MAX_AUTHOR_CHARS && !super::looks_like_url(text))
        .then(|| text.to_string())
}

/// `By Jane Doe` → `Jane Doe`.
fn strip_by(text: &str) -> &str {
    match text.get(..3) {
        Some(by) if by.eq_ignore_ascii_case("by ") => text[3..].trim_start(),
        _ => text,
    }
}
