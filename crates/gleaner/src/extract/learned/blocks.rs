//! The units the learned model decides on: **text blocks**, a block-level
//! element's own text (the Link Quota Filter's block text, Mantratzis et
//! al. 2005; boilerpipe's and jusText's text blocks, `docs/algorithms.md#blocks`).
//!
//! A block is a run of visible text nodes, in document order, whose
//! nearest block-level ancestor (the *owner*) is the same element:
//! `<div>A<p>B</p>C</div>` has three blocks, `A`, `B` and `C`, the first
//! and last owned by the `div`. Each block carries its counts, its
//! owner's depth, and how far up from its owner the nearest element
//! giving each [`Cue`](super::names::Cue) is — one forward pass over the
//! document with a stack of open elements, so no element is read twice.

use std::ops::Range;

use super::super::name_table::NameTable;
use super::names::{element_cues, markup_cue, tag_cue, Cues, CUES};
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// A distance that says "no such ancestor".
pub const FAR: u8 = u8::MAX;

/// A depth that says "no such ancestor".
const NONE: u8 = u8::MAX;

/// One text block; see the [module docs](self).
#[derive(Debug, Clone)]
pub struct Block {
    /// The nearest block-level ancestor of the text.
    pub owner: NodeId,
    /// The block's text nodes: a range of [`Blocks::text_nodes`].
    pub texts: Range<u32>,
    /// Non-whitespace characters.
    pub chars: u32,
    /// Words.
    pub words: u32,
    /// Non-whitespace characters inside links.
    pub link_chars: u32,
    /// Words inside links.
    pub link_words: u32,
    /// The owner's depth (the root is 0).
    pub depth: u16,
    /// For each cue, the levels from the owner up to the nearest element
    /// that gives it (0: the owner itself), [`FAR`] when none does.
    pub near: [u8; CUES],
    /// The cues of the inline elements between the text and its owner
    /// (`<a>`, `<strong>`, `<time>`, a `<span class=date>`).
    pub inline: Cues,
}

impl Block {
    /// Link characters over characters.
    pub fn link_density(&self) -> f32 {
        if self.chars == 0 {
            0.0
        } else {
            self.link_chars as f32 / self.chars as f32
        }
    }

    /// The nearest `<footer>` element or element of ARIA role
    /// `contentinfo` at or above the block's owner, if any.
    pub fn footer(&self, doc: &Document) -> Option<NodeId> {
        let levels = self.near[const { tag_cue("tag_footer") }]
            .min(self.near[const { markup_cue("role_contentinfo") }]);
        if levels == FAR {
            return None;
        }
        std::iter::once(self.owner).chain(doc.ancestors(self.owner)).nth(usize::from(levels))
    }
}

/// The blocks of a page, in document order, and their text nodes.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// The blocks.
    pub blocks: Vec<Block>,
    /// Every block's text nodes, in order; a block's are its `texts`.
    pub text_nodes: Vec<NodeId>,
}

/// An open element of the forward pass.
struct Open {
    end: u32,
    depth: u16,
    block: bool,
    /// For each cue, the depth of the nearest element giving it, this one
    /// included (`NONE`: none; depths past 254 count as 254).
    near: [u8; CUES],
    /// Cues of the inline elements from the nearest block down to here.
    inline: Cues,
}

impl Blocks {
    /// The blocks of `doc`, at most `max_blocks` of them (`None` when the
    /// page has more: the caller falls back to another extractor rather
    /// than hold a row for every one of hundreds of thousands).
    pub fn of(doc: &Document, max_blocks: usize) -> Option<Blocks> {
        let mut out = Blocks::default();
        let root = doc.root();
        let mut open: Vec<Open> = vec![Open {
            end: doc.subtree_end(root).0,
            depth: 0,
            block: true,
            near: [NONE; CUES],
            inline: Cues::default(),
        }];
        // The owner of the block being built, and the stack index of it.
        let mut current: Option<NodeId> = None;
        let mut owners: Vec<usize> = vec![0];
        let mut owner_ids: Vec<NodeId> = vec![root];
        let mut names = NameTable::for_page(doc);
        for id in doc.ids().skip(1) {
            while open.len() > 1 && open.last().is_some_and(|o| id.0 >= o.end) {
                if open.pop().is_some_and(|o| o.block) {
                    owners.pop();
                    owner_ids.pop();
                }
            }
            let Some(parent) = open.last() else { break };
            if let Some(e) = doc.element(id) {
                let block = doc.flags(id).contains(NodeFlags::BLOCK);
                let depth = parent.depth.saturating_add(1);
                let cues = element_cues(&e, &mut names);
                let mut near = parent.near;
                let capped = depth.min(u16::from(NONE - 1)) as u8;
                for c in cues.iter() {
                    near[c] = capped;
                }
                let inline = if block { Cues::default() } else { parent.inline.union(cues) };
                let end = doc.subtree_end(id).0;
                if end > id.0 + 1 {
                    open.push(Open { end, depth, block, near, inline });
                    if block {
                        owners.push(open.len() - 1);
                        owner_ids.push(id);
                    }
                }
                continue;
            }
            if !doc.is_visible_text(id) {
                continue;
            }
            let (Some(&o), Some(&owner)) = (owners.last(), owner_ids.last()) else { continue };
            let stats = doc.stats(id);
            let index = out.text_nodes.len() as u32;
            out.text_nodes.push(id);
            let inline = parent.inline;
            if current != Some(owner) {
                if out.blocks.len() >= max_blocks {
                    return None;
                }
                let frame = &open[o];
                let depth = frame.depth.min(u16::from(NONE - 1)) as u8;
                let near =
                    frame.near.map(|n| if n == NONE { FAR } else { depth.saturating_sub(n) });
                out.blocks.push(Block {
                    owner,
                    texts: index..index,
                    chars: 0,
                    words: 0,
                    link_chars: 0,
                    link_words: 0,
                    depth: frame.depth,
                    near,
                    inline: Cues::default(),
                });
                current = Some(owner);
            }
            if let Some(b) = out.blocks.last_mut() {
                b.texts.end = index + 1;
                b.chars += stats.chars;
                b.words += stats.words;
                b.link_chars += stats.link_chars;
                b.link_words += stats.link_words;
                b.inline = b.inline.union(inline);
            }
        }
        Some(out)
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Is the page without text?
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The text nodes of block `i`.
    pub fn texts(&self, i: usize) -> &[NodeId] {
        match self.blocks.get(i) {
            Some(b) => {
                self.text_nodes.get(b.texts.start as usize..b.texts.end as usize).unwrap_or(&[])
            }
            None => &[],
        }
    }

    /// The text of block `i`, whitespace collapsed.
    pub fn text(&self, doc: &Document, i: usize) -> String {
        let mut s = String::new();
        for &t in self.texts(i) {
            crate::document::push_collapsed(&mut s, doc.text(t));
        }
        s.trim().to_string()
    }

    /// The blocks under element `e`: those whose first text node is in its
    /// subtree, a run of the blocks in document order.
    pub fn under(&self, doc: &Document, e: NodeId) -> Range<usize> {
        let end = doc.subtree_end(e).0;
        let first = |b: &Block| match b.texts.is_empty() {
            true => u32::MAX,
            false => self.text_nodes.get(b.texts.start as usize).map_or(u32::MAX, |t| t.0),
        };
        self.blocks.partition_point(|b| first(b) < e.0)
            ..self.blocks.partition_point(|b| first(b) < end)
    }

    /// Each block: does `selection` hold any of its text?
    pub fn kept(&self, selection: &Selection) -> Vec<bool> {
        (0..self.len()).map(|i| self.texts(i).iter().any(|&t| selection.contains(t))).collect()
    }

    /// Puts block `i`'s text in `selection` (`keep`) or takes it out.
    pub fn set(&self, i: usize, selection: &mut Selection, keep: bool) {
        for &t in self.texts(i) {
            selection.set(t, keep);
        }
    }
}

/// A page's blocks and the selection of those whose text holds any of
/// `keep`: a post-step's tests start from it.
#[cfg(test)]
pub fn selecting(html: &str, keep: &[&str]) -> (Document, Blocks, Selection) {
    let doc = Document::parse(html.as_bytes(), &crate::ParseOptions::default()).expect("parse");
    let blocks = Blocks::of(&doc, 10_000).expect("blocks");
    let mut selection = Selection::none(&doc);
    for i in 0..blocks.len() {
        if keep.iter().any(|k| blocks.text(&doc, i).contains(k)) {
            blocks.set(i, &mut selection, true);
        }
    }
    (doc, blocks, selection)
}

#[cfg(test)]
mod tests {
    use super::super::names::cue;
    use super::*;
    use crate::document::ParseOptions;

    fn blocks(html: &str) -> (Document, Blocks) {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let b = Blocks::of(&doc, 1000).expect("blocks");
        (doc, b)
    }

    #[test]
    fn a_block_is_an_owner_s_run_of_text() {
        let (doc, b) =
            blocks("<div>A <b>bold</b><p>B</p>C</div><ul><li><a href=/>D</a> e</li></ul>");
        let texts: Vec<String> = (0..b.len()).map(|i| b.text(&doc, i)).collect();
        assert_eq!(texts, ["A bold", "B", "C", "D e"]);
        assert_eq!(b.blocks[3].link_chars, 1);
        assert_eq!(b.blocks[3].chars, 2);
        assert!(b.blocks[3].inline.contains(cue("tag_a").expect("cue")));
    }

    #[test]
    fn cues_are_counted_up_from_the_owner() {
        let (_, b) = blocks("<nav class=menu><ul><li>Home</li></ul></nav><p>Text</p>");
        let nav = cue("tag_nav").expect("cue");
        let menu = cue("name_nav").expect("cue");
        let li = cue("tag_li").expect("cue");
        assert_eq!(b.blocks[0].near[li], 0);
        assert_eq!(b.blocks[0].near[nav], 2);
        assert_eq!(b.blocks[0].near[menu], 2);
        assert_eq!(b.blocks[1].near[nav], FAR);
    }

    #[test]
    fn too_many_blocks_is_none() {
        let html = "<p>x</p>".repeat(20);
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        assert!(Blocks::of(&doc, 10).is_none());
        assert_eq!(Blocks::of(&doc, 20).map(|b| b.len()), Some(20));
    }
}
