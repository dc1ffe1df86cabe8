//! Site templates from a collection of pages (Gottron 2008, S-0;
//! `docs/algorithms.md#template-detection`).
//!
//! Pages of one site built from one template share their structure and
//! the template's text (menus, headers, footers, side boxes). This module
//! finds the templates and the text they contribute:
//!
//! 1. [`PageShape`]: a page's structural fingerprints — CP, CPS and CTSS
//!    sets ([`fingerprint`]) — and, for RTDM, its element tree ([`rtdm`]);
//! 2. [`page_distance`] between two shapes by one of the four
//!    [`Distance`]s;
//! 3. [`cluster()`]: single-linkage clusters at a threshold, by union-find
//!    over all pairs, or over MinHash candidate pairs for large
//!    collections ([`cluster`](mod@cluster));
//! 4. [`TemplateModel`]: learned from one cluster, the document frequency
//!    of every text segment; a segment on more than a third of the pages
//!    is template text ([`model`]);
//! 5. [`Templated`]: any extractor run on a page whose template text is
//!    set aside first ([`Document::set_aside`]); with
//!    [`Plain`](crate::extract::Plain) inside, this is the paper's
//!    entropy-style extractor: the page minus its template.
//!
//! ```
//! use gleaner::template::{Templated, TemplateModel};
//! use gleaner::extract::{Extractor, Plain};
//! use gleaner::{render, Document, ParseOptions};
//!
//! let page = |story: &str| {
//!     let html = format!("<nav><a href=/>Home</a> <a href=/news>News</a></nav><p>{story}</p><footer>© Example</footer>");
//!     Document::parse(html.as_bytes(), &ParseOptions::default())
//! };
//! let pages = [page("First story.")?, page("Second story.")?, page("Third story.")?];
//! let model = std::sync::Arc::new(TemplateModel::learn(&pages));
//! let entropy = Templated::new(Box::new(Plain), model);
//! let fresh = page("A story the model never saw.")?;
//! assert_eq!(render::text(&fresh, &entropy.extract(&fresh)), "A story the model never saw.");
//! # Ok::<(), gleaner::Error>(())
//! ```

pub mod cluster;
pub mod distance;
pub mod etdm;
pub mod fingerprint;
pub mod menu;
pub mod model;
pub mod rtdm;
pub mod site;

use std::borrow::Borrow;
use std::sync::Arc;

pub use self::cluster::{groups, single_linkage, single_linkage_over, single_linkage_sets};
pub use self::distance::{set_distance, Distance};
pub use self::etdm::{equality, etdm, menu_template, template_html, EtdmConfig};
pub use self::fingerprint::{Fingerprint, DEFAULT_SHINGLE};
pub use self::menu::{complete_subdigraph, links, MenuConfig, Subdigraph};
pub use self::model::{
    ModelBuilder, TemplateModel, TemplateSegment, DEFAULT_SHARE, MAX_MODEL_BYTES,
};
pub use self::rtdm::{rtdm_distance, ElementTree};
pub use self::site::{PageSummary, SiteOptions, SiteTemplates};
use crate::document::Document;
use crate::extract::Extractor;
use crate::selection::Selection;

/// What clustering needs to know of a page: its fingerprints, and its
/// element tree when RTDM is the distance.
#[derive(Debug, Clone, Default)]
pub struct PageShape {
    /// CP, CPS and CTSS.
    pub fingerprint: Fingerprint,
    /// The element tree (RTDM only).
    pub tree: Option<ElementTree>,
}

impl PageShape {
    /// The shape of `doc` for `distance`, with shingle length `k`.
    pub fn of(doc: &Document, distance: Distance, k: usize) -> PageShape {
        PageShape {
            fingerprint: Fingerprint::of(doc, k),
            tree: (distance == Distance::Rtdm).then(|| ElementTree::of(doc)),
        }
    }
}

/// The distance of two pages, in \[0, 1\]. RTDM between shapes made
/// without trees is 1.
pub fn page_distance(distance: Distance, a: &PageShape, b: &PageShape) -> f64 {
    match distance.set_of(&a.fingerprint).zip(distance.set_of(&b.fingerprint)) {
        Some((x, y)) => set_distance(x, y),
        None => match (&a.tree, &b.tree) {
            (Some(x), Some(y)) => rtdm_distance(x, y),
            _ => 1.0,
        },
    }
}

/// Above this many pages, [`cluster()`] compares MinHash candidate pairs
/// instead of all pairs (for the set distances; RTDM always compares all).
pub const EXACT_LIMIT: usize = 5_000;

/// Single-linkage clusters of `pages` at `threshold`: a label per page,
/// numbered by first appearance. Exact up to [`EXACT_LIMIT`] pages (by an
/// inverted index over the sets, [`cluster::single_linkage_sets`]); above
/// it, pairs come from MinHash banding of the distance's set
/// ([`cluster::candidate_pairs`]), which keeps time and memory linear in
/// the pages but can split a cluster whose pages are only weakly linked.
/// RTDM compares all pairs.
pub fn cluster<P: Borrow<PageShape>>(
    pages: &[P],
    distance: Distance,
    threshold: f64,
) -> Vec<usize> {
    let shape = |i: usize| pages[i].borrow();
    let d = |i: usize, j: usize| page_distance(distance, shape(i), shape(j));
    let sets: Vec<&[u64]> =
        pages.iter().filter_map(|p| distance.set_of(&p.borrow().fingerprint)).collect();
    if sets.len() != pages.len() {
        return single_linkage(pages.len(), threshold, d);
    }
    if pages.len() <= EXACT_LIMIT {
        return cluster::single_linkage_sets(&sets, threshold);
    }
    let signatures: Vec<_> = sets.iter().map(|s| cluster::minhash(s)).collect();
    let mut unions = cluster::UnionFind::new(pages.len());
    cluster::for_each_candidate(&signatures, 64, |i, j| {
        if unions.find(i) != unions.find(j) && d(i, j) <= threshold {
            unions.union(i, j);
        }
    });
    unions.labels()
}

/// An extractor run with a site's template set aside: the template text a
/// [`TemplateModel`] marks is invisible to the extractor (and never in its
/// selection). See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Templated<E> {
    inner: E,
    model: Arc<TemplateModel>,
    keep_content_prose: bool,
}

impl<E: Extractor> Templated<E> {
    /// `inner` with `model`'s template text set aside.
    pub fn new(inner: E, model: Arc<TemplateModel>) -> Templated<E> {
        Templated { inner, model, keep_content_prose: true }
    }

    /// Whether template text inside the extracted content is put back
    /// (default yes; see [`restore_prose_inside_content`]). The paper's
    /// entropy extractor keeps everything but the template, so there is no
    /// "inside" to speak of: it runs without.
    pub fn keep_content_prose(mut self, yes: bool) -> Templated<E> {
        self.keep_content_prose = yes;
        self
    }

    /// The model.
    pub fn model(&self) -> &TemplateModel {
        &self.model
    }
}

impl<E: Extractor> Extractor for Templated<E> {
    // (E may be a `Box<dyn Extractor>` or a reference to one.)
    fn extract(&self, doc: &Document) -> Selection {
        let marks = self.model.mark(doc);
        extract_set_aside(&self.inner, doc, &marks, self.keep_content_prose)
    }
}

/// Runs `extractor` on `doc` with the text nodes marked in `marks` (by
/// node id) set aside: they are invisible to it and not in its selection,
/// except, with `keep_content_prose`, template text inside the extracted
/// content ([`restore_prose_inside_content`]). This is what [`Templated`]
/// does with a model's marks; a template found another way (Alarte et
/// al.'s equal top-down mapping, [`etdm()`]) is applied the same way.
pub fn extract_set_aside(
    extractor: &dyn Extractor,
    doc: &Document,
    marks: &[bool],
    keep_content_prose: bool,
) -> Selection {
    let marks: Vec<bool> = doc
        .ids()
        .map(|id| doc.is_text(id) && marks.get(id.index()).copied().unwrap_or(false))
        .collect();
    if !marks.contains(&true) {
        return extractor.extract(doc);
    }
    let masked = doc.set_aside(&marks);
    let mut selection = extractor.extract(&masked);
    for (i, &marked) in marks.iter().enumerate() {
        if marked {
            selection.set(crate::NodeId(i as u32), false);
        }
    }
    if keep_content_prose {
        restore_prose_inside_content(doc, &marks, &mut selection);
    }
    selection
}

/// Mean words per segment from which a run of template text that sits
/// inside the extracted content is prose the reader needs \[I\].
pub const PROSE_WORDS: f64 = 12.0;

/// The largest share of its block's words a marked text node may have to
/// count as a fragment of the block's paragraph \[I\].
pub const FRAGMENT_SHARE: f64 = 0.25;

/// Puts back template text that is part of the content (used by
/// [`Templated`]). Two cases \[I:
/// both measured on cleanportaleval, where they hold\]:
///
/// - **Fragments of a paragraph.** Text-node segments such as "The" or
///   ", " between two links occur on every page; when their block has
///   selected text and they are at most [`FRAGMENT_SHARE`] of its words,
///   they belong to that paragraph.
/// - **Prose and headings inside the content.** A series' standing
///   introduction, a column's recurring disclaimer, the excerpts of
///   neighbouring posts on a blog page, a lesson's "Overview" and
///   "Objectives" headings repeat across pages, yet readers (and the gold
///   standards) count them as content. A run of consecutive marked text
///   is put back when the text just before and just after it are selected
///   (it sits inside the content, not beside it) and it reads as prose (at
///   least [`PROSE_WORDS`] words per block on average; menus and link
///   lists have a word or three per item); otherwise only its headings
///   and heading-like labels (see `is_heading_like`) go back.
pub fn restore_prose_inside_content(doc: &Document, marks: &[bool], selection: &mut Selection) {
    let own = crate::extract::lqf::BlockOwnText::compute(doc);
    let texts: Vec<crate::NodeId> =
        doc.text_nodes().filter(|&id| doc.stats(id).words > 0).collect();
    // Fragments: blocks with selected text take back marked pieces that
    // are a small part of them.
    let mut block_selected = vec![false; doc.len()];
    let mut block_words = vec![0u32; doc.len()];
    for &id in &texts {
        let block = own.owner[id.index()].index();
        block_words[block] += doc.stats(id).words;
        if selection.contains(id) {
            block_selected[block] = true;
        }
    }
    for &id in &texts {
        let block = own.owner[id.index()].index();
        let small =
            f64::from(doc.stats(id).words) <= FRAGMENT_SHARE * f64::from(block_words[block]);
        if marks[id.index()] && block_selected[block] && small {
            selection.set(id, true);
        }
    }
    // Prose runs between selected text.
    let mut k = 0;
    while k < texts.len() {
        if selection.contains(texts[k]) || !marks[texts[k].index()] {
            k += 1;
            continue;
        }
        let start = k;
        while k < texts.len() && marks[texts[k].index()] && !selection.contains(texts[k]) {
            k += 1;
        }
        let run = &texts[start..k];
        let before = start.checked_sub(1).is_some_and(|b| selection.contains(texts[b]));
        let after = texts.get(k).is_some_and(|&a| selection.contains(a));
        let words: u32 = run.iter().map(|&id| doc.stats(id).words).sum();
        let mut blocks: Vec<crate::NodeId> = run.iter().map(|&id| own.owner[id.index()]).collect();
        blocks.dedup();
        let prose = f64::from(words) >= PROSE_WORDS * blocks.len() as f64;
        if !(before && after) {
            continue;
        }
        for &id in run {
            if prose || is_heading_like(doc, own.owner[id.index()]) {
                selection.set(id, true);
            }
        }
    }
}

/// Does block `b` title what follows it: a heading element, an element
/// with `role=heading`, or one whose class names it a title or heading
/// (`admonition-title`, `card-title`, `panel-heading`: the labels of
/// callouts and cards that documentation themes repeat on every page)?
fn is_heading_like(doc: &Document, b: crate::NodeId) -> bool {
    if doc.name(b).is_some_and(|n| crate::document::tags::heading_level(n).is_some()) {
        return true;
    }
    if doc.attr(b, "role").is_some_and(|r| r.eq_ignore_ascii_case("heading")) {
        return true;
    }
    doc.attr(b, "class").is_some_and(|class| {
        class.split_ascii_whitespace().any(|c| {
            let c = c.to_ascii_lowercase();
            c.ends_with("-title") || c.ends_with("-heading") || c == "title" || c == "heading"
        })
    })
}
