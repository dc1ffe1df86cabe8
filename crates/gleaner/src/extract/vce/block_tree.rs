//! GetBlockTree \[S-4 §2.1\]: one pre-order pass that groups DOM elements
//! into visual blocks, then a reverse pass that bubbles text up
//! (TextManipulation), counts repeated child patterns (PatternCache,
//! PatternVerifier) and accumulates the general parameters
//! (ElementManipulation).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use markup5ever::local_name;

use super::VceConfig;
use crate::document::{tags, Document, NodeFlags, NodeId};
use crate::layout::{Layout, LayoutBox, LayoutOrigin, Rect};

/// A block's specification vector \[S-4 §2.1.3–2.1.6\].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BlockSpec {
    /// Characters of text the block gathered (its own and bubbled up).
    pub text_length: f64,
    /// Of those, characters inside links.
    pub link_text_length: f64,
    /// `link_text_length / text_length` (0 without text).
    pub link_density: f64,
    /// Width of the block's root box, px.
    pub width: f64,
    /// Height of the block's root box, px.
    pub height: f64,
    /// Font size averaged over the gathered characters, px (the root's
    /// font size when there is no text).
    pub avg_font_size: f64,
    /// Distance of the box's top from the page's top, px.
    pub top: f64,
    /// Distance from the page's bottom, px (see
    /// [`VceConfig::bottom_from_top_edge`]).
    pub bottom: f64,
    /// Child blocks whose pattern an earlier sibling already had.
    pub repeated_patterns: u32,
    /// The children repeat abnormally (comments, teasers, link lists):
    /// `repeated_patterns ≥` [`VceConfig::comment_repetitions`].
    pub comment_like: bool,
}

/// One visual block: a DOM element and the descendants that look like it.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The element that roots the block.
    pub root: NodeId,
    /// The enclosing block (`None` for a root block), as an index into
    /// [`BlockTree::blocks`].
    pub parent: Option<usize>,
    /// The child blocks, in document order.
    pub children: Vec<usize>,
    /// Depth in the block tree (root blocks 0).
    pub depth: u32,
    /// The root's box.
    pub rect: Rect,
    /// The specification vector.
    pub spec: BlockSpec,
    /// FactorValue \[S-4 Eq. 1\]; 0 for blocks that are not valid.
    pub factor_value: f64,
    /// Met the least conditions against the general averages \[S-4
    /// §2.2.1\].
    pub is_valid: bool,
    /// The PatternCache key: root tag, class and the child blocks' root
    /// tags; `None` for a leaf block \[I\].
    pub pattern: Option<u64>,
}

/// The general parameters averaged over all blocks \[S-4 §2.1.6\].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Averages {
    /// Mean text length.
    pub text_length: f64,
    /// Mean link text length.
    pub link_text_length: f64,
    /// Link text over text, from the totals.
    pub link_density: f64,
    /// Mean width.
    pub width: f64,
    /// Mean height.
    pub height: f64,
}

/// The block tree of a page and the main block \[S-4 Fig. 2\].
#[derive(Debug, Clone, PartialEq)]
pub struct BlockTree {
    /// The blocks in pre-order (a parent before its children).
    pub blocks: Vec<Block>,
    /// The general averages.
    pub averages: Averages,
    /// The page box of the layout.
    pub page: Rect,
    /// Where the layout came from.
    pub origin: LayoutOrigin,
    /// Index of the main block, if any block has text.
    pub main: Option<usize>,
    block_of: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl BlockTree {
    /// The block `id` belongs to (`None` for nodes that do not take part:
    /// invisible, boxless or not elements).
    pub fn block_of(&self, id: NodeId) -> Option<usize> {
        self.block_of.get(id.index()).filter(|&&b| b != NONE).map(|&b| b as usize)
    }

    /// The main block, if any.
    pub fn main_block(&self) -> Option<&Block> {
        self.main.and_then(|i| self.blocks.get(i))
    }
}

/// The visual distance between an element's box and its parent's: how
/// many of width, height, font size, background colour, top and left
/// differ \[S-4 §2.1.3\]. Sizes differ when they are apart by more than
/// both [`VceConfig::absolute_tolerance`] and
/// [`VceConfig::relative_tolerance`] of the larger; positions when apart
/// by more than the absolute tolerance \[I\].
pub fn visual_distance(a: &LayoutBox, b: &LayoutBox, config: &VceConfig) -> u32 {
    let abs = config.absolute_tolerance;
    let size = |x: f32, y: f32| {
        let d = (x - y).abs();
        d > abs && d > config.relative_tolerance * x.abs().max(y.abs())
    };
    let pos = |x: f32, y: f32| (x - y).abs() > abs;
    [
        size(a.rect.width, b.rect.width),
        size(a.rect.height, b.rect.height),
        size(a.font_size, b.font_size),
        a.background != b.background,
        pos(a.rect.top, b.rect.top),
        pos(a.rect.left, b.rect.left),
    ]
    .iter()
    .filter(|&&d| d)
    .count() as u32
}

/// GetBlockTree \[S-4 Fig. 3\] over `doc` laid out by `layout`. The
/// FactorValues are left at 0 for FindMainBlock.
pub(super) fn get_block_tree(doc: &Document, layout: &Layout, config: &VceConfig) -> BlockTree {
    let n = doc.len();
    let mut block_of = vec![NONE; n];
    let mut blocks: Vec<Block> = Vec::new();
    // DetectBlock \[S-4 §2.1.3\], pre-order.
    for id in doc.ids() {
        let Some(e) = doc.element(id) else { continue };
        let Some(b) = layout.get(id).filter(|b| b.visible) else { continue };
        let parent = doc.parent(id).filter(|&p| doc.element(p).is_some());
        let parent_block = parent.map(|p| block_of[p.index()]);
        let joins = match (parent, parent_block) {
            // Under an element that does not take part (hidden): neither.
            (Some(_), Some(NONE)) => continue,
            (Some(p), Some(pb)) => {
                // Deviation [I]: inline elements join their block unless
                // `inline_blocks`; a real layout gives every link and span
                // a box unlike its paragraph's, which would make each a
                // block and bury the paragraphs' text.
                let inline = !tags::is_block(&e.name) && !config.inline_blocks;
                let close = layout
                    .get(p)
                    .is_some_and(|pb| visual_distance(b, pb, config) < config.distance_threshold);
                (inline || close).then_some(pb)
            }
            _ => None,
        };
        block_of[id.index()] = match joins {
            Some(pb) => pb,
            None => {
                let index = blocks.len() as u32;
                let parent = parent_block.filter(|&pb| pb != NONE).map(|pb| pb as usize);
                let depth = parent.and_then(|p| blocks.get(p)).map_or(0, |p| p.depth + 1);
                if let Some(p) = parent.and_then(|p| blocks.get_mut(p)) {
                    p.children.push(index as usize);
                }
                blocks.push(Block {
                    root: id,
                    parent,
                    children: Vec::new(),
                    depth,
                    rect: b.rect,
                    spec: BlockSpec::default(),
                    factor_value: 0.0,
                    is_valid: false,
                    pattern: None,
                });
                index
            }
        };
    }
    let text = bubble_text(doc, layout, config, &block_of, &blocks);
    let page = layout.page();
    for block in &mut blocks {
        let i = block.root.index();
        let (t, l, fs) = text[i];
        let r = block.rect;
        let edge = if config.bottom_from_top_edge { r.top } else { r.bottom() };
        let font = layout.get(block.root).map_or(16.0, |b| b.font_size);
        block.spec = BlockSpec {
            text_length: t,
            link_text_length: l,
            link_density: if t > 0.0 { (l / t).clamp(0.0, 1.0) } else { 0.0 },
            width: finite(r.width),
            height: finite(r.height),
            avg_font_size: if t > 0.0 { fs / t } else { finite(font) },
            top: finite(r.top),
            bottom: finite(page.height - edge),
            repeated_patterns: 0,
            comment_like: false,
        };
    }
    pattern_verifier(doc, &mut blocks, config);
    let averages = element_manipulation(&blocks);
    BlockTree { blocks, averages, page, origin: layout.origin(), main: None, block_of }
}

/// A non-negative finite f64 from a layout number.
fn finite(v: f32) -> f64 {
    if v.is_finite() {
        f64::from(v.max(0.0))
    } else {
        0.0
    }
}

/// TextManipulation \[S-4 §2.1.4–2.1.5, Fig. 6\]: each element's immediate
/// text and link text, plus what its children pass up. Returns (text
/// length, link text length, Σ characters × font size) per node.
///
/// A child passes its text to its parent when (it is in the parent's
/// block, or it roots a block that contains no other block) and (its link
/// density is below [`VceConfig::link_density`] or it is a leaf link). We
/// read the garbled "is not parent of any block" of Fig. 6 as "roots a
/// leaf block" \[I\]: text climbs one block level, so a content container
/// gathers its paragraphs' text but `body` does not gather the
/// container's, which keeps the widest, lowest-reaching block from
/// winning by size alone.
fn bubble_text(
    doc: &Document,
    layout: &Layout,
    config: &VceConfig,
    block_of: &[u32],
    blocks: &[Block],
) -> Vec<(f64, f64, f64)> {
    let mut acc = vec![(0.0f64, 0.0f64, 0.0f64); doc.len()];
    // Whether a node's subtree roots some block below it (for leaf links).
    let mut block_below = vec![false; doc.len()];
    let takes_part = |id: NodeId| block_of.get(id.index()).is_some_and(|&b| b != NONE);
    for id in doc.ids().rev() {
        let Some(parent) = doc.parent(id) else { continue };
        if !takes_part(parent) {
            continue;
        }
        let (p, c) = (parent.index(), id.index());
        if doc.is_text(id) {
            let stats = doc.stats(id);
            if stats.flags.contains(NodeFlags::VISIBLE) && stats.chars > 0 {
                let font = layout.get(parent).map_or(16.0, |b| f64::from(b.font_size));
                let chars = f64::from(stats.chars);
                acc[p].0 += chars;
                acc[p].1 += f64::from(stats.link_chars);
                acc[p].2 += chars * font;
            }
            continue;
        }
        if !takes_part(id) {
            continue;
        }
        let roots_block = block_of[c] != block_of[p];
        block_below[p] |= block_below[c] || roots_block;
        let leaf_block =
            roots_block && blocks.get(block_of[c] as usize).is_some_and(|b| b.children.is_empty());
        let (t, l, fs) = acc[c];
        let density = if t > 0.0 { l / t } else { 0.0 };
        let leaf_link = doc.is(id, local_name!("a")) && !block_below[c];
        if (!roots_block || leaf_block) && (density < config.link_density || leaf_link) {
            acc[p].0 += t;
            acc[p].1 += l;
            acc[p].2 += fs;
        }
    }
    acc
}

/// PatternCache and PatternVerifier \[S-4 §2.1.2, Fig. 5\]: per block, the
/// child blocks whose pattern an earlier sibling had. The pattern is not
/// defined in the paper; ours \[I\] is the root's tag and `class` and the
/// tags of the block's own child blocks' roots, and a leaf block has none:
/// paragraphs are text, not repeated items, while comments, teasers and
/// structured list items repeat their shape.
fn pattern_verifier(doc: &Document, blocks: &mut [Block], config: &VceConfig) {
    for i in 0..blocks.len() {
        let Some(block) = blocks.get(i) else { continue };
        if block.children.is_empty() {
            continue;
        }
        let mut h = DefaultHasher::new();
        if let Some(e) = doc.element(block.root) {
            e.name.hash(&mut h);
            e.attr("class").unwrap_or("").hash(&mut h);
        }
        for &c in &block.children {
            if let Some(name) = blocks.get(c).and_then(|c| doc.name(c.root)) {
                name.hash(&mut h);
            }
        }
        let pattern = h.finish();
        if let Some(b) = blocks.get_mut(i) {
            b.pattern = Some(pattern);
        }
    }
    for i in 0..blocks.len() {
        let mut cache = HashSet::new();
        let mut repeated = 0u32;
        for &c in blocks.get(i).map_or(&[][..], |b| &b.children[..]) {
            if let Some(p) = blocks.get(c).and_then(|c| c.pattern) {
                if !cache.insert(p) {
                    repeated += 1;
                }
            }
        }
        if let Some(b) = blocks.get_mut(i) {
            b.spec.repeated_patterns = repeated;
            b.spec.comment_like = repeated >= config.comment_repetitions;
        }
    }
}

/// ElementManipulation \[S-4 §2.1.6\]: totals of width, height, text and
/// link text over the blocks, divided by the number of blocks \[I: per
/// block, not per DOM node\].
fn element_manipulation(blocks: &[Block]) -> Averages {
    let n = blocks.len().max(1) as f64;
    let sum = |f: fn(&BlockSpec) -> f64| blocks.iter().map(|b| f(&b.spec)).sum::<f64>();
    let text = sum(|s| s.text_length);
    let links = sum(|s| s.link_text_length);
    Averages {
        text_length: text / n,
        link_text_length: links / n,
        link_density: if text > 0.0 { links / text } else { 0.0 },
        width: sum(|s| s.width) / n,
        height: sum(|s| s.height) / n,
    }
}
