//! LQF — Link Quota Filter (Mantratzis, Orgun & Cassidy, HT'05; as used
//! as a baseline in Gottron's CCB evaluation, S-2).
//!
//! Reads the **DOM**. For each block-level node `n`, the link quota is
//!
//! ```text
//! LinkQuota(n) = t_link / t_tot
//! ```
//!
//! over the text of `n` that is not inside a nested block: link text counts
//! fully, other inline elements contribute their own link share
//! (`docs/algorithms.md#lqf`, reading "descendants" as children with recursion so
//! that no text counts twice). Blocks with a quota above θ are link lists
//! (menus, tag clouds, related links) and are removed; everything else is
//! kept, so LQF has high recall and modest precision.
//!
//! Deviation: a removed block loses its *own* text, not its nested blocks,
//! which are judged on their own quota. Removing whole subtrees would let
//! one "Home" link next to an article's `<p>`s delete the article.
//!
//! ```
//! use gleaner::{extract::{Extractor, Lqf}, render, Document, ParseOptions};
//! let html = b"<div><a href=/>Home</a> | <a href=/n>News</a></div><p>Body text with <a href=/x>a link</a> inside.</p>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! assert_eq!(render::text(&doc, &Lqf::default().extract(&doc)), "Body text with a link inside.");
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::extractor::Extractor;
use super::params::{config, Range};
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

config! {
    /// Parameters of [`Lqf`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct LqfConfig for "lqf" {
        /// A block whose link quota exceeds this is removed. The published
        /// value was not recovered; default 0.5 \[I\], `docs/algorithms.md#lqf` suggests
        /// tuning in 0.3–0.7.
        threshold: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
    }
}

/// Link Quota Filter. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Lqf {
    config: LqfConfig,
}

impl Lqf {
    /// LQF with this configuration.
    pub fn new(config: LqfConfig) -> Lqf {
        Lqf { config }
    }
}

/// For every node, its nearest block-level ancestor-or-self ("owner"), and
/// for every block its own (non-nested-block) text and link text.
pub(crate) struct BlockOwnText {
    /// Owner block of each node (the root for nodes outside any block).
    pub owner: Vec<NodeId>,
    /// Own characters of each block (0 for non-blocks).
    pub chars: Vec<u32>,
    /// Own link characters of each block.
    pub link_chars: Vec<u32>,
}

/// Every node but the root with its owner block (its nearest
/// block-level ancestor-or-self, the root outside any block), in
/// document order: one forward pass with a stack of open blocks, for
/// callers that need the owners one at a time rather than an array of
/// them (issue 13).
pub(crate) fn block_owners(doc: &Document) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
    // Each open block with the end of its subtree, read once when it
    // opens: a node is inside when its id is below that end.
    let mut open: Vec<(NodeId, NodeId)> = vec![(doc.root(), doc.subtree_end(doc.root()))];
    doc.ids().skip(1).map(move |id| {
        while open.len() > 1 && open.last().is_none_or(|&(_, end)| id >= end) {
            open.pop();
        }
        if doc.flags(id).contains(NodeFlags::BLOCK) {
            open.push((id, doc.subtree_end(id)));
        }
        (id, open.last().map_or(NodeId(0), |&(block, _)| block))
    })
}

/// The owner block of a node that is not itself a block (a text node),
/// as [`block_owners`] gives it: found up the node's ancestors, for
/// callers that need a few nodes' owners (the visible text nodes lie a
/// few levels below their block) rather than every node's (issue 12).
pub(crate) fn block_owner(doc: &Document, id: NodeId) -> NodeId {
    doc.ancestors(id).find(|&a| doc.flags(a).contains(NodeFlags::BLOCK)).unwrap_or(doc.root())
}

impl BlockOwnText {
    /// One forward pass ([`block_owners`]).
    pub fn compute(doc: &Document) -> BlockOwnText {
        let n = doc.len();
        let mut owner = vec![NodeId(0); n];
        let mut chars = vec![0u32; n];
        let mut link_chars = vec![0u32; n];
        for (id, own) in block_owners(doc) {
            owner[id.index()] = own;
            let stats = doc.stats(id);
            if stats.flags.contains(NodeFlags::TEXT) {
                chars[own.index()] += stats.chars;
                link_chars[own.index()] += stats.link_chars;
            }
        }
        BlockOwnText { owner, chars, link_chars }
    }

    /// The link quota of a block (0 without own text).
    pub fn quota(&self, block: NodeId) -> f64 {
        let total = self.chars[block.index()];
        if total == 0 {
            0.0
        } else {
            f64::from(self.link_chars[block.index()]) / f64::from(total)
        }
    }
}

impl Extractor for Lqf {
    fn extract(&self, doc: &Document) -> Selection {
        let own = BlockOwnText::compute(doc);
        let mut sel = Selection::all(doc);
        for id in doc.text_nodes() {
            if own.quota(own.owner[id.index()]) > self.config.threshold {
                sel.set(id, false);
            }
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quota_of(html: &str, tag: &str) -> f64 {
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        let own = BlockOwnText::compute(&doc);
        let id = doc.ids().find(|&i| doc.name(i).is_some_and(|n| &**n == tag)).expect(tag);
        own.quota(id)
    }

    #[test]
    fn quota_ignores_nested_blocks() {
        // 4 link chars out of 8 own chars; the nested <p> does not count.
        let html = "<div><a href=#>link</a>text<p>lots of paragraph text here</p></div>";
        assert!((quota_of(html, "div") - 0.5).abs() < 1e-9);
    }

    #[test]
    fn inline_elements_contribute_their_link_share() {
        let html = "<li><span><a href=#>ab</a>cd</span>efgh</li>";
        assert!((quota_of(html, "li") - 0.25).abs() < 1e-9);
    }

    #[test]
    fn threshold_is_strict() {
        let html = "<div><p><a href=#>abcd</a>efgh</p></div>";
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        let kept = Lqf::new(LqfConfig { threshold: 0.5 }).extract(&doc).count();
        assert_eq!(kept, 2);
        let dropped = Lqf::new(LqfConfig { threshold: 0.4 }).extract(&doc).count();
        assert_eq!(dropped, 0);
    }
}
