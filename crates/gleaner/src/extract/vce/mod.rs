//! VCE — Visual Clustering Extractor (Asfia, Pedram & Rahmani, "Main
//! Content Extraction from Detailed Web Pages", S-4; `docs/algorithms.md#vce`).
//!
//! Reads the **visual blocks** of the page: each element's box, font size
//! and background from a [`Layout`] — the document's own
//! ([`Document::layout`], e.g. from a browser) or, when it has none, the
//! estimate of [`HeuristicLayout`] (approximate: see its docs). Two
//! phases \[S-4 Fig. 2\]:
//!
//! 1. **GetBlockTree** \[S-4 §2.1\]: in pre-order, an element whose
//!    *visual distance* to its parent — how many of width, height, font
//!    size, background colour, top and left differ — reaches a threshold
//!    roots a new block; otherwise it joins its parent's block. Text
//!    bubbles up to the parent (TextManipulation), link-heavy children
//!    excepted; a PatternCache counts child blocks that repeat a sibling's
//!    pattern; totals give the general averages.
//! 2. **FindMainBlock** \[S-4 §2.2\]: among the blocks that meet the least
//!    conditions against the averages, the one with the largest
//!
//! ```text
//! FactorValue = TextLength · Width · AvgFontSize · Bottom
//!             / (LinkDensity + RepeatedPatterns · Top + ε)      [S-4 Eq. 1]
//! ```
//!
//! is the main block, and its text is the output.
//!
//! Where the paper is silent we choose, each choice a [`VceConfig`] field
//! tagged \[I\]: tolerances of the distance, the pattern (tag, class and
//! child-block tags; leaf blocks have none), the link-density thresholds,
//! ε. Deviations, each because the paper's literal reading fails on real
//! pages:
//! - inline elements join their block ([`VceConfig::inline_blocks`]);
//! - text climbs one block level only (a child block passes its text up
//!   when it contains no other block), so `body` — the widest box reaching
//!   lowest — does not win by gathering everything;
//! - `Bottom` is measured from the block's top edge
//!   ([`VceConfig::bottom_from_top_edge`]), else a container scores lower
//!   the longer its text runs down the page and its first paragraph wins;
//! - the output is the main block's whole subtree less the link lists and
//!   comment-like blocks inside it ([`VceConfig::prune`]), not only the
//!   text that bubbled into it (lists and quotes in an article are content).
//!
//! ```
//! use gleaner::{extract::{Extractor, Vce}, render, Document, ParseOptions};
//! let html = b"<body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>
//!   <div><h1>Storm</h1><p>A storm reached the coast on Monday with heavy rain.</p>
//!   <p>Thousands of homes were without power until Wednesday.</p></div>
//!   <p>&copy; 2024 <a href=/i>Imprint</a></p></body>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! let text = render::text(&doc, &Vce::default().extract(&doc));
//! assert!(text.starts_with("Storm") && text.ends_with("Wednesday."));
//! # Ok::<(), gleaner::Error>(())
//! ```

mod block_tree;
mod main_block;

pub use self::block_tree::{visual_distance, Averages, Block, BlockSpec, BlockTree};
pub use self::main_block::{factor_value, is_valid};
use super::extractor::Extractor;
use super::params::{config, Range};
use crate::document::Document;
use crate::layout::{HeuristicConfig, HeuristicLayout, Layout};
use crate::selection::Selection;

config! {
    /// Parameters of [`Vce`]. The paper gives no values; all are \[I\].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct VceConfig for "vce" {
        /// An element roots a new block when this many of its six visual
        /// properties differ from its parent's. Default 2 \[I\].
        distance_threshold: u32 = 2, range Range::closed(1.0, 6.0), source "I";
        /// Two lengths (px) differ when further apart than this. Default 5
        /// \[I\].
        absolute_tolerance: f32 = 5.0, range Range::at_least(0.0), source "I";
        /// …and, for sizes (width, height, font size), further apart than
        /// this share of the larger. Default 0.10 \[I\].
        relative_tolerance: f32 = 0.10, range Range::closed(0.0, 1.0), source "I";
        /// TextManipulation: a child whose link density reaches this keeps its
        /// text from its parent (unless it is a leaf link). Default 0.5 \[I\].
        link_density: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
        /// Validity: a candidate's link density must not exceed this. Default
        /// 0.5 \[I\].
        max_link_density: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
        /// Validity: a candidate must be at least this share of the average
        /// block width. Default 0.5 \[I\]: at 1 a main column of two thirds
        /// fails wherever full-width headers, footers and wrappers are many.
        min_width_share: f64 = 0.5, range Range::closed(0.0, 10.0), source "I";
        /// A block with this many repeated child patterns is comment-like.
        /// Default 3 \[I\].
        comment_repetitions: u32 = 3, source "I";
        /// ε added to the FactorValue denominator. Default 0.1 \[I\]:
        /// 0.01 was the first guess, but then a paragraph without a link
        /// outscores the article around it (link density 0.05) sixfold and
        /// wins; with 0.1 a few links weigh at most about 2× (LCS F1 macro
        /// 0.741 → 0.780 on the dev sets, flat beyond).
        epsilon: f64 = 0.1, range Range::above(0.0), source "I";
        /// Let inline elements (links, spans) root blocks as the paper's
        /// literal rule would. Default false \[I, deviation\].
        inline_blocks: bool = false, source "I, deviation";
        /// Measure `Bottom` from the block's top edge (page height − top)
        /// rather than its bottom edge. Default true \[I, deviation\].
        bottom_from_top_edge: bool = true, source "I, deviation";
        /// Leave link lists (link density above [`VceConfig::link_density`])
        /// and comment-like blocks inside the main block out of the output.
        /// Default true \[I, deviation\].
        prune: bool = true, source "I, deviation";
        /// Viewport width (px) of the heuristic layout used when the document
        /// carries none. Default 1280 \[I\].
        viewport_width: f32 = 1280.0, range Range::closed(1.0, 1.0e5), source "I";
    }
}

/// The Visual Clustering Extractor. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Vce {
    config: VceConfig,
}

impl Vce {
    /// VCE with this configuration.
    pub fn new(config: VceConfig) -> Vce {
        Vce { config }
    }

    /// The block tree of `doc` with every block scored and the main block
    /// chosen, on the document's layout or, without one, the heuristic
    /// estimate.
    pub fn block_tree(&self, doc: &Document) -> BlockTree {
        match doc.layout() {
            Some(layout) => self.block_tree_with(doc, layout),
            None => {
                let heuristic =
                    HeuristicConfig::default().viewport_width(self.config.viewport_width);
                let layout = HeuristicLayout::new(heuristic).estimate(doc);
                self.block_tree_with(doc, &layout)
            }
        }
    }

    /// The scored block tree of `doc` on `layout` (made for `doc`).
    pub fn block_tree_with(&self, doc: &Document, layout: &Layout) -> BlockTree {
        let mut tree = block_tree::get_block_tree(doc, layout, &self.config);
        main_block::find_main_block(&mut tree, &self.config);
        tree
    }

    /// The output for a block tree: the main block's visible text, less
    /// (with [`VceConfig::prune`]) the link lists and comment-like blocks
    /// inside it.
    pub fn selection(&self, doc: &Document, tree: &BlockTree) -> Selection {
        let Some(main) = tree.main_block() else { return Selection::none(doc) };
        let mut sel = Selection::subtree(doc, main.root);
        for id in doc.subtree(main.root) {
            // Only visible boxes take part: hidden by the layout (a style
            // sheet's display:none under a browser) is not content.
            let hidden = doc.element(id).is_some() && tree.block_of(id).is_none();
            let pruned = self.config.prune
                && id != main.root
                && tree.block_of(id).and_then(|b| tree.blocks.get(b)).is_some_and(|b| {
                    b.root == id
                        && (b.spec.comment_like
                            || doc.stats(id).link_density() > self.config.link_density)
                });
            if hidden || pruned {
                sel.deselect_subtree(doc, id);
            }
        }
        sel
    }
}

impl Extractor for Vce {
    fn extract(&self, doc: &Document) -> Selection {
        let tree = self.block_tree(doc);
        self.selection(doc, &tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::NodeId;
    use crate::layout::{LayoutBox, LayoutOrigin, Rect, Rgba};
    use crate::{render, ParseOptions};

    fn parse(html: &str) -> Document {
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    fn by_id(doc: &Document, id: &str) -> NodeId {
        doc.ids().find(|&i| doc.attr(i, "id") == Some(id)).expect(id)
    }

    /// A hand-made layout: every element gets `default` unless `boxes`
    /// names it by id.
    fn layout(doc: &Document, boxes: &[(&str, [f32; 4], f32)]) -> Layout {
        let mut l = Layout::new(doc.len(), LayoutOrigin::Browser, 1280.0);
        for id in doc.ids().filter(|&i| doc.element(i).is_some()) {
            let spec = doc
                .attr(id, "id")
                .and_then(|name| boxes.iter().find(|(n, _, _)| *n == name))
                .map_or(([0.0, 0.0, 1280.0, 3000.0], 16.0), |&(_, r, f)| (r, f));
            l.set(id, bx(spec.0, spec.1));
        }
        l
    }

    fn bx([left, top, width, height]: [f32; 4], font: f32) -> LayoutBox {
        LayoutBox {
            rect: Rect { left, top, width, height },
            font_size: font,
            background: Rgba::TRANSPARENT,
            visible: true,
        }
    }

    fn root_ids(doc: &Document, tree: &BlockTree) -> Vec<String> {
        tree.blocks
            .iter()
            .map(|b| doc.attr(b.root, "id").unwrap_or(doc.name(b.root).map_or("?", |n| n)).into())
            .collect()
    }

    #[test]
    fn a_new_block_starts_when_two_properties_differ() {
        let doc = parse("<div id=a><div id=b>x</div><div id=c>y</div></div>");
        // b: only the height differs (1 property) → joins a's block;
        // c: top and height differ (2) → a block of its own.
        let l = layout(
            &doc,
            &[
                ("a", [0.0, 0.0, 1280.0, 3000.0], 16.0),
                ("b", [0.0, 0.0, 1280.0, 100.0], 16.0),
                ("c", [0.0, 100.0, 1280.0, 100.0], 16.0),
            ],
        );
        let tree = Vce::default().block_tree_with(&doc, &l);
        assert_eq!(tree.block_of(by_id(&doc, "a")), tree.block_of(by_id(&doc, "b")));
        assert_ne!(tree.block_of(by_id(&doc, "a")), tree.block_of(by_id(&doc, "c")));
        assert_eq!(root_ids(&doc, &tree), ["html", "c"]);
        // Within tolerance: 3 px apart is the same.
        let mut near = bx([0.0, 3.0, 1283.0, 3000.0], 16.0);
        assert_eq!(
            visual_distance(&near, &bx([0.0, 0.0, 1280.0, 3000.0], 16.0), &VceConfig::default()),
            0
        );
        near.background = Rgba::rgb(255, 255, 255);
        near.font_size = 32.0;
        assert_eq!(
            visual_distance(&near, &bx([0.0, 0.0, 1280.0, 3000.0], 16.0), &VceConfig::default()),
            2
        );
    }

    #[test]
    fn repeated_child_patterns_are_counted() {
        let item = |i: u32| format!("<li id=i{i} class=c><div>who</div><div>said</div></li>");
        let html = format!(
            "<ol id=list>{}</ol><div id=x><p id=p1>a</p><p id=p2>b</p></div>",
            (0..4).map(item).collect::<String>()
        );
        let doc = parse(&html);
        let mut boxes: Vec<(String, [f32; 4], f32)> = Vec::new();
        boxes.push(("list".into(), [0.0, 0.0, 800.0, 400.0], 16.0));
        boxes.push(("x".into(), [0.0, 400.0, 800.0, 200.0], 16.0));
        for i in 0..4 {
            boxes.push((format!("i{i}"), [0.0, 10.0 + i as f32 * 90.0, 800.0, 90.0], 16.0));
        }
        boxes.push(("p1".into(), [0.0, 400.0, 800.0, 50.0], 16.0));
        boxes.push(("p2".into(), [0.0, 450.0, 800.0, 50.0], 16.0));
        let named: Vec<(&str, [f32; 4], f32)> =
            boxes.iter().map(|(n, r, f)| (n.as_str(), *r, *f)).collect();
        // The inner divs of each item differ in top and height from it.
        let mut l = layout(&doc, &named);
        for (k, id) in doc
            .ids()
            .filter(|&i| doc.is(i, markup5ever::local_name!("div")) && doc.attr(i, "id").is_none())
            .enumerate()
        {
            l.set(id, bx([0.0, k as f32 * 45.0 + 30.0, 800.0, 20.0], 16.0));
        }
        let tree = Vce::default().block_tree_with(&doc, &l);
        let list = &tree.blocks[tree.block_of(by_id(&doc, "list")).expect("list block")];
        assert_eq!(list.spec.repeated_patterns, 3);
        assert!(list.spec.comment_like);
        // Leaf paragraphs have no pattern: no repetition.
        let x = &tree.blocks[tree.block_of(by_id(&doc, "x")).expect("x block")];
        assert_eq!(x.spec.repeated_patterns, 0);
        assert!(!x.spec.comment_like);
    }

    #[test]
    fn link_heavy_children_do_not_bubble_text() {
        let doc = parse(
            "<div id=d><p id=nav><a href=/a>one link</a> <a href=/b>two link</a> x</p>\
             <p id=t>plain text here <a href=/c>link</a></p></div>",
        );
        let l = layout(
            &doc,
            &[
                ("d", [0.0, 0.0, 1280.0, 200.0], 16.0),
                ("nav", [0.0, 0.0, 1280.0, 100.0], 16.0),
                ("t", [0.0, 100.0, 1280.0, 100.0], 16.0),
            ],
        );
        let tree = Vce::default().block_tree_with(&doc, &l);
        let d = &tree.blocks[tree.block_of(by_id(&doc, "d")).expect("d")];
        // Only the text paragraph's 17 characters ("plaintexthere" +
        // "link") climb; the link paragraph (density 14/15) stays.
        assert_eq!(d.spec.text_length, 17.0);
        assert_eq!(d.spec.link_text_length, 4.0);
        // A leaf link inside a paragraph passes its text up.
        let t = &tree.blocks[tree.block_of(by_id(&doc, "t")).expect("t")];
        assert_eq!(t.spec.link_text_length, 4.0);
    }

    #[test]
    fn zero_denominator_is_guarded() {
        let spec = BlockSpec {
            text_length: 100.0,
            width: 800.0,
            avg_font_size: 16.0,
            bottom: 1000.0,
            ..BlockSpec::default()
        };
        let v = factor_value(&spec, &VceConfig::default());
        assert!(v.is_finite() && (v - 100.0 * 800.0 * 16.0 * 1000.0 / 0.1).abs() < 1.0);
        // Top counts only through repeated patterns.
        let with_top = BlockSpec { top: 500.0, ..spec };
        assert_eq!(factor_value(&with_top, &VceConfig::default()), v);
        let repeated = BlockSpec { repeated_patterns: 2, ..with_top };
        assert!(factor_value(&repeated, &VceConfig::default()) < v / 1000.0);
        let empty = BlockSpec::default();
        assert_eq!(factor_value(&empty, &VceConfig::default()), 0.0);
    }

    const PAGE: &str =
        "<body id=body><ul id=nav><li><a href=/>Home</a></li><li><a href=/n>News</a></li>\
        <li><a href=/s>Sport</a></li></ul>\
        <div id=main><h1 id=h>Storm hits the coast</h1>\
        <p id=p1>A powerful storm reached the coast on Monday, bringing heavy rain.</p>\
        <p id=p2>Officials said thousands of homes were without power until Wednesday.</p></div>\
        <div id=side><p id=s1>Advertisement: buy our fine products today, cheap.</p></div>\
        <div id=hidden><p id=hp>Secret text that nobody can see at all, it is long.</p></div>\
        <p id=foot>&copy; 2024 <a href=/i>Imprint</a></p></body>";

    fn page_layout(doc: &Document) -> Layout {
        let mut l = layout(
            doc,
            &[
                ("body", [0.0, 0.0, 1280.0, 1000.0], 16.0),
                ("nav", [0.0, 0.0, 1280.0, 50.0], 16.0),
                ("main", [0.0, 50.0, 900.0, 800.0], 16.0),
                ("h", [0.0, 50.0, 900.0, 40.0], 32.0),
                ("p1", [0.0, 90.0, 900.0, 300.0], 16.0),
                ("p2", [0.0, 390.0, 900.0, 300.0], 16.0),
                ("side", [900.0, 50.0, 380.0, 800.0], 16.0),
                ("s1", [900.0, 50.0, 380.0, 100.0], 16.0),
                ("hidden", [0.0, 50.0, 1280.0, 900.0], 16.0),
                ("hp", [0.0, 50.0, 1280.0, 900.0], 16.0),
                ("foot", [0.0, 950.0, 1280.0, 50.0], 16.0),
            ],
        );
        for id in ["hidden", "hp"] {
            let id = by_id(doc, id);
            if let Some(&b) = l.get(id) {
                l.set(id, LayoutBox { visible: false, ..b });
            }
        }
        l
    }

    #[test]
    fn the_main_block_is_the_wide_text_rich_low_link_one() {
        let doc = parse(PAGE);
        let l = page_layout(&doc);
        let vce = Vce::default();
        let tree = vce.block_tree_with(&doc, &l);
        let main = tree.main_block().expect("main");
        assert_eq!(doc.attr(main.root, "id"), Some("main"));
        assert!(main.is_valid);
        let side = &tree.blocks[tree.block_of(by_id(&doc, "side")).expect("side")];
        assert!(side.factor_value < main.factor_value);
        let text = render::text(&doc, &vce.selection(&doc, &tree));
        assert!(text.starts_with("Storm hits the coast") && text.ends_with("Wednesday."), "{text}");
    }

    #[test]
    fn hidden_boxes_are_ignored() {
        let doc = parse(PAGE);
        let tree = Vce::default().block_tree_with(&doc, &page_layout(&doc));
        assert_eq!(tree.block_of(by_id(&doc, "hidden")), None);
        assert_eq!(tree.block_of(by_id(&doc, "hp")), None);
        assert!(tree.blocks.iter().all(|b| doc.attr(b.root, "id") != Some("hidden")));
    }

    #[test]
    fn falls_back_to_the_heuristic_layout() {
        let doc = parse(PAGE);
        assert!(doc.layout().is_none());
        let tree = Vce::default().block_tree(&doc);
        assert_eq!(tree.origin, LayoutOrigin::Heuristic);
        let text = render::text(&doc, &Vce::default().extract(&doc));
        assert!(text.contains("A powerful storm") && !text.contains("Home"), "{text}");
    }

    #[test]
    fn empty_pages_select_nothing() {
        for html in ["", "<html><body></body></html>", "<div><img></div>"] {
            assert_eq!(Vce::default().extract(&parse(html)).count(), 0);
        }
    }
}
