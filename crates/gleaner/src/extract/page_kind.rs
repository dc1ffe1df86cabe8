//! Is a page an article, or a list, index or search page? Decided after
//! extraction, from what the extractor chose and the structure around it.
//!
//! Reads the DOM and a [`Selection`]. A page is not an article when any
//! of these holds (structure first, the page's own declaration last):
//!
//! 1. **Little or nothing was extracted**: fewer than
//!    [`MIN_ARTICLE_CHARS`] characters (a third of that when the page
//!    declares itself an article: a short news item is still one).
//! 2. **The content is mostly links**: more than [`MAX_LINK_SHARE`] of its
//!    characters are link text (a table of contents, a link index).
//! 3. **The content is mostly teasers**: more than [`MAX_TEASER_SHARE`] of
//!    its characters sit in runs of sibling items of one shape (same tag
//!    and class), at least [`MIN_TEASERS`] of them, each led by a link to
//!    another page — a linked title with an unlinked blurb and date is
//!    still a teaser (issue 11, "teaser lists") — and the rest holds fewer
//!    than [`MIN_BODY_CHARS`] (an article body beside a related-stories
//!    list or a live feed the extractor kept is still an article).
//! 4. **The page says it is a website and the content holds a teaser
//!    run**: `og:type` `website` (or a JSON-LD `WebPage`/`CollectionPage`/
//!    `SearchResultsPage`) with at least [`MIN_TEASERS`] teasers holding
//!    more than a third of the content.
//!
//! ```
//! use gleaner::{extract::page_kind, metadata::Metadata, Document, ParseOptions};
//! let teasers: String = (0..6)
//!     .map(|i| format!("<li><a href=/story/{i}>Story {i}</a> A blurb about story {i}, \
//!          which is told elsewhere on this site.</li>"))
//!     .collect();
//! let html = format!("<ul>{teasers}</ul>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let all = gleaner::Selection::all(&doc);
//! assert!(!page_kind::is_article(&doc, &all, &Metadata::extract(&doc)));
//! # Ok::<(), gleaner::Error>(())
//! ```

use markup5ever::local_name;

use crate::document::{Document, NodeFlags, NodeId};
use crate::metadata::Metadata;
use crate::selection::Selection;

/// Fewest characters of extracted text an article has. Default 500 \[I\]:
/// a paragraph or two.
pub const MIN_ARTICLE_CHARS: usize = 500;

/// Largest share of link text in an article's content. \[I\]
pub const MAX_LINK_SHARE: f64 = 0.5;

/// Largest share of an article's content in teaser runs … \[I\]
pub const MAX_TEASER_SHARE: f64 = 0.5;

/// … unless the rest, outside the teasers, holds at least this many
/// characters: an article body with a teaser list beside it. \[I\]
pub const MIN_BODY_CHARS: usize = 1000;

/// Fewest sibling items of one shape that make a teaser run. \[I\]
pub const MIN_TEASERS: usize = 4;

/// Page types (JSON-LD) of collections and search results.
const LISTING_TYPES: &[&str] =
    &["website", "WebSite", "CollectionPage", "SearchResultsPage", "ItemList", "ProfilePage"];

/// What a page is, and which rule of the module documentation said so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PageKind {
    /// An article: none of the rules below holds.
    Article,
    /// Rule 1: little or nothing extracted.
    LittleText,
    /// Rule 2: the content is mostly link text.
    MostlyLinks,
    /// Rule 3: the content is mostly teasers.
    Teasers,
    /// Rule 4: a page declared a website whose content holds a teaser run.
    DeclaredListing,
}

/// Is the page an article rather than a list, index or search page,
/// given the extractor's `selection` and the page's metadata? See the
/// module documentation for the rules.
pub fn is_article(doc: &Document, selection: &Selection, meta: &Metadata) -> bool {
    classify(doc, selection, meta) == PageKind::Article
}

/// The page's kind and the rule that decided it (see [`is_article`]).
pub fn classify(doc: &Document, selection: &Selection, meta: &Metadata) -> PageKind {
    let (selected, chars, link_chars) = selected_chars(doc, selection);
    let min = if meta.declares_article() { MIN_ARTICLE_CHARS / 3 } else { MIN_ARTICLE_CHARS };
    if chars < min {
        return PageKind::LittleText;
    }
    if link_chars as f64 > MAX_LINK_SHARE * chars as f64 {
        return PageKind::MostlyLinks;
    }
    let (teasers, teaser_chars) = teaser_runs(doc, selected);
    let teaser_share = teaser_chars as f64 / chars as f64;
    // An article body beside a teaser list the extractor kept (related
    // stories, a live feed) still makes an article.
    let body_chars = chars.saturating_sub(teaser_chars);
    if teaser_share > MAX_TEASER_SHARE && body_chars < MIN_BODY_CHARS {
        return PageKind::Teasers;
    }
    let says_listing = meta
        .page_type
        .as_deref()
        .is_some_and(|t| LISTING_TYPES.iter().any(|l| l.eq_ignore_ascii_case(t)));
    if says_listing && teasers >= MIN_TEASERS && teaser_share > 1.0 / 3.0 {
        return PageKind::DeclaredListing;
    }
    PageKind::Article
}

/// The selected characters of each node (by node index), counted once
/// for both the rules and the teaser runs, which sum them per subtree
/// (issue 12), with their total and the link characters among them.
/// `u32`, as the page's text has fewer than 2³² bytes (its offsets are
/// `u32`), so no sum saturates (issue 13: four bytes a node, not eight).
fn selected_chars(doc: &Document, selection: &Selection) -> (Vec<u32>, usize, usize) {
    let mut chars = 0usize;
    let mut link_chars = 0usize;
    let mut selected = vec![0u32; doc.len()];
    for id in selection.iter() {
        let n = doc.text(id).trim().chars().count();
        chars += n;
        if doc.flags(id).contains(NodeFlags::IN_LINK) {
            link_chars += n;
        }
        if let Some(slot) = selected.get_mut(id.index()) {
            *slot = u32::try_from(n).unwrap_or(u32::MAX);
        }
    }
    (selected, chars, link_chars)
}

/// The teasers in the selection (items of runs of at least
/// [`MIN_TEASERS`] link-led siblings of one shape) and the selected
/// characters they hold, given the selected characters of each node
/// (`selected`, by node index). Outer runs are counted, runs nested
/// inside a teaser are not.
fn teaser_runs(doc: &Document, mut selected: Vec<u32>) -> (usize, usize) {
    // The selected characters before each node in document order (in
    // place of its own): a subtree is a range of node ids, so its sum is
    // the difference of two of these, and a subtree that holds none is
    // passed over whole (issue 12: the parents holding the selection are
    // a few of the page's nodes). No sum reaches 2³² (see
    // `selected_chars`): the wrapping differences are exact.
    let mut total = 0u32;
    for slot in selected.iter_mut() {
        let own = *slot;
        *slot = total;
        total = total.wrapping_add(own);
    }
    let before = |id: NodeId| selected.get(id.index()).copied().unwrap_or(total);
    let in_subtree = |id: NodeId| before(doc.subtree_end(id)).wrapping_sub(before(id));
    let mut teasers = 0;
    let mut teaser_chars = 0;
    let mut parent = NodeId(0);
    while parent.index() < doc.len() {
        let end = doc.subtree_end(parent);
        if in_subtree(parent) == 0 {
            parent = end;
            continue;
        }
        // Counted before anything is collected: most parents have fewer.
        let items = || doc.children(parent).filter(|&c| doc.element(c).is_some());
        let mut found = false;
        if items().take(MIN_TEASERS).count() >= MIN_TEASERS {
            let mut groups: Vec<(Shape<'_>, Vec<NodeId>)> = Vec::new();
            for item in items() {
                let key = Shape::of(doc, item);
                match groups.iter_mut().find(|(k, _)| k.same(&key)) {
                    Some((_, members)) => members.push(item),
                    None => groups.push((key, vec![item])),
                }
            }
            // A group too small to be a run is not read further: its
            // items' first texts are not looked for (issue 12).
            for (_, members) in groups.into_iter().filter(|(_, m)| m.len() >= MIN_TEASERS) {
                let led: Vec<NodeId> = members
                    .into_iter()
                    .filter(|&m| in_subtree(m) > 0 && led_by_link(doc, m))
                    .collect();
                if led.len() >= MIN_TEASERS {
                    teasers += led.len();
                    teaser_chars += led.iter().map(|&m| in_subtree(m) as usize).sum::<usize>();
                    found = true;
                }
            }
        }
        // Runs nested inside a run's items are not counted.
        parent = if found { end } else { NodeId(parent.0 + 1) };
    }
    (teasers, teaser_chars)
}

/// An item's shape: its tag and class, read as `tag.class` (borrowed
/// from the page: no string is built per item).
struct Shape<'a> {
    tag: &'a str,
    class: &'a str,
}

impl<'a> Shape<'a> {
    fn of(doc: &'a Document, id: NodeId) -> Shape<'a> {
        let tag = doc.name(id).map_or("", |n| n.as_ref());
        Shape { tag, class: doc.attr(id, "class").unwrap_or("").trim() }
    }

    /// Do the two read the same as `tag.class`?
    fn same(&self, other: &Shape<'_>) -> bool {
        if self.tag == other.tag {
            return self.class == other.class;
        }
        // A tag name may hold a dot itself (`<x.y>`).
        self.read().eq(other.read())
    }

    /// The bytes of `tag.class`.
    fn read(&self) -> impl Iterator<Item = u8> + '_ {
        self.tag.bytes().chain([b'.']).chain(self.class.bytes())
    }
}

/// Is the item's first visible text inside a link to another page (a
/// linked title before any blurb)?
fn led_by_link(doc: &Document, item: NodeId) -> bool {
    let Some(first) = doc.subtree(item).find(|&n| {
        doc.is_text(n)
            && doc.flags(n).contains(NodeFlags::VISIBLE)
            && !doc.text(n).trim().is_empty()
    }) else {
        return false;
    };
    doc.ancestors(first)
        .take_while(|&a| a != item)
        .chain(std::iter::once(item))
        .find(|&a| doc.is(a, local_name!("a")))
        .and_then(|a| doc.attr(a, "href"))
        .is_some_and(|href| {
            let href = href.trim();
            !href.is_empty() && !href.starts_with('#') && !href.starts_with("javascript:")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    const PARA: &str = "A paragraph of real prose, long enough to read as part of an \
        article and not as a caption, a menu entry or a label on a button, which says \
        something about the subject at hand and then says a little more.";

    fn article(html: &str) -> bool {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let selection = crate::extract::by_name("article").expect("article").extract(&doc);
        is_article(&doc, &selection, &Metadata::extract(&doc))
    }

    /// `GLEANER_PAGE_KIND=a.html:b.html cargo test -p gleaner --lib
    /// page_kind -- --ignored --nocapture` prints each page's kind.
    #[test]
    #[ignore = "a tool for looking at pages, run by hand"]
    fn print_page_kinds() {
        for path in std::env::var("GLEANER_PAGE_KIND").unwrap_or_default().split(':') {
            let Ok(bytes) = std::fs::read(path) else { continue };
            let doc = Document::parse(&bytes, &ParseOptions::default()).expect("parse");
            let selection = crate::extract::by_name("article").expect("article").extract(&doc);
            let (teasers, teaser_chars) = teaser_runs(&doc, selected_chars(&doc, &selection).0);
            let kind = classify(&doc, &selection, &Metadata::extract(&doc));
            println!("{path}: {kind:?} teasers {teasers} chars {teaser_chars}");
        }
    }

    #[test]
    fn prose_is_an_article_even_with_a_short_link_list_inside() {
        let html = format!(
            "<article><h1>Title</h1><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>\
             <ul><li><a href=/a>See also a</a></li><li><a href=/b>See also b</a></li></ul></article>"
        );
        assert!(article(&html));
    }

    #[test]
    fn nothing_or_little_extracted_is_not_an_article() {
        assert!(!article("<p>Search results: no match.</p>"));
        assert!(!article(""));
        // A page that declares itself an article may be short.
        let short = format!("<meta property=og:type content=article><p>{PARA}</p>");
        assert!(article(&short));
    }

    #[test]
    fn teaser_lists_and_link_indexes_are_not_articles() {
        let teasers: String = (0..8)
            .map(|i| {
                format!(
                    "<div class=card><h2><a href=/s/{i}>Story number {i} headline</a></h2>\
                     <p>A blurb about story {i} that is told elsewhere on the site, long enough \
                     to hold readers.</p><span>May {i}, 2024</span></div>"
                )
            })
            .collect();
        assert!(!article(&format!("<main>{teasers}</main>")));
        let index: String =
            (0..30).map(|i| format!("<li><a href=/p{i}>Chapter {i}</a></li>")).collect();
        assert!(!article(&format!("<div class=toc><ul>{index}</ul></div>")));
    }
}
