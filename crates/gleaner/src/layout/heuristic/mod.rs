//! A layout estimated from the HTML alone: no browser, no style sheets.
//!
//! [`HeuristicLayout`] walks the document once in pre-order (closing each
//! element when the walk leaves its subtree) and gives every element a
//! box, a font size, a background colour and a visibility flag. It is an
//! *approximation* ([`LayoutOrigin::Heuristic`]); what it models:
//!
//! - **Viewport**: a page [`HeuristicConfig::viewport_width`] pixels wide
//!   (1280 by default); `body` has the user-agent margin of 8 px.
//! - **Display**: the block-level tags of [`tags::is_block`] are blocks,
//!   everything else is inline; an inline `style` `display` (block, flex,
//!   grid, list-item, table…, inline, inline-block, none) overrides the
//!   tag. Not rendered (`display:none`, and so invisible with a zero box,
//!   their subtrees too): `head`, `script`, `style`, `template`, `title`,
//!   `meta`, `link`, `noscript` (a scripting browser), `dialog`, `param`,
//!   `source`, `track`, `datalist`, elements with the `hidden` attribute,
//!   `<input type=hidden>` and `style="display:none"`. Rendered but
//!   invisible (box kept, `visible` false, inherited):
//!   `visibility:hidden` and `opacity:0`.
//! - **Font size**: 16 px at the root, inherited; headings `h1` 2em, `h2`
//!   1.5em, `h3` 1.17em, `h4` 1em, `h5` 0.83em, `h6` 0.67em; `small` 0.83em,
//!   `big` 1.2em, `sub`/`sup` 0.83em, monospace (`pre`, `code`, `kbd`,
//!   `samp`, `tt`) 13 px as Chromium's default; inline `font-size` in px,
//!   pt, em, rem, % and the keywords (`small`, `x-large`, `smaller`, …).
//! - **Background**: inline `background-color`, the first colour of
//!   `background`, or the `bgcolor` attribute (hex, `rgb()`/`rgba()` and
//!   common names); not inherited, as in CSS.
//! - **Width**: a block fills its container's content box, less the
//!   user-agent margins (`blockquote`, `figure` 40 px each side, `dd` 40 px
//!   left) and list indentation (`ul`, `ol`, `menu` 40 px padding). Inline
//!   `width`/`max-width` (px, em, %) and the `width` attribute override.
//!   *Columns* sit side by side while they fit in the container's width:
//!   table cells (the row's width split by `colspan`), children of an
//!   inline `display:flex` container (an equal share each), floated boxes
//!   with a width, grid-system classes (Bootstrap `col-8`/`col-md-8` of 12,
//!   the widest breakpoint that applies at the viewport width; Foundation
//!   `large-9 columns`/`cell`; Tailwind `w-1/3`, `md:w-2/3`; Pure
//!   `pure-u-1-3`), and sidebars: `aside` or an id/class naming a sidebar
//!   (`sidebar`, `*-sidebar`, `widget-area`, `rail`) takes
//!   [`HeuristicConfig::sidebar_fraction`] of the width, and a sibling
//!   named as the main column (`main`, `article`, or an id/class with
//!   `content`, `main`, `primary`, `article`, `post`) the rest.
//! - **Height and vertical position**: by document order. Inline content
//!   flows in lines inside its block: each character advances
//!   [`HeuristicConfig::char_width_em`] × its font size, a line is the
//!   block's content width, and a line is [`HeuristicConfig::line_height`]
//!   × the largest font size on it tall (`br` ends a line; an image with a
//!   known size is one wide, tall glyph). Blocks stack below each other
//!   with the tags' default vertical margins (`p` 1em, `h1` 0.67em, …;
//!   adjacent margins collapse to the larger, a first child's top margin
//!   and a last child's bottom margin collapse through their parent,
//!   nothing more). A block is as
//!   tall as its content unless a `height` (inline style or attribute)
//!   says otherwise. An inline element's box covers the lines its text
//!   falls on.
//!
//! Not modelled: style sheets (so class-based `display:none`, floats,
//! fonts and colours from CSS files are unknown), positioning
//! (`absolute`, `fixed`, transforms), padding and borders other than list
//! indentation, text wrapping at word boundaries, `white-space: pre` line
//! breaks, replaced elements without a declared size (they have none),
//! and scripts. `width`, `height`, `bgcolor` and `align` attributes are
//! read only when the document keeps them
//! ([`ParseOptions::keep_all_attributes`](crate::ParseOptions), which a
//! job with a layout provider sets); inline `style` is always kept.
//!
//! Every number parsed from the page is clamped (finite, non-negative,
//! at most 10⁶ px), so no input makes a box NaN or infinite.
//!
//! ```
//! use gleaner::layout::{HeuristicLayout, LayoutProvider};
//! use gleaner::{Document, NodeId, ParseOptions};
//! let doc = Document::parse(b"<h1>Title</h1><p>Text</p>", &ParseOptions::default())?;
//! let layout = HeuristicLayout::default().layout(&doc)?;
//! let font = |tag: &str| {
//!     let id = doc.ids().find(|&i| doc.name(i).is_some_and(|n| &**n == tag)).unwrap_or(NodeId(0));
//!     layout.get(id).map_or(0.0, |b| b.font_size)
//! };
//! assert_eq!((font("h1"), font("p")), (32.0, 16.0));
//! # Ok::<(), gleaner::Error>(())
//! ```

mod flow;
mod grid;
mod style;

use self::flow::Flow;
use super::{Layout, LayoutOrigin, LayoutProvider};
use crate::document::Document;
use crate::error::Result;

/// Largest length accepted from the page, in px.
const MAX_PX: f32 = 1.0e6;

/// Parameters of [`HeuristicLayout`]; all \[I\] (browser defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct HeuristicConfig {
    /// Width of the viewport in CSS px. Default 1280, a common desktop
    /// window.
    pub viewport_width: f32,
    /// Font size of the root in px. Default 16, every browser's default.
    pub base_font_size: f32,
    /// Average advance of a character (spaces included) in em. Default
    /// 0.5, typical of proportional sans-serif text.
    pub char_width_em: f32,
    /// Line height as a multiple of the font size. Default 1.2, CSS
    /// `line-height: normal` for common fonts.
    pub line_height: f32,
    /// Share of its container's width a sidebar takes. Default 0.25.
    pub sidebar_fraction: f32,
}

impl Default for HeuristicConfig {
    fn default() -> HeuristicConfig {
        HeuristicConfig {
            viewport_width: 1280.0,
            base_font_size: 16.0,
            char_width_em: 0.5,
            line_height: 1.2,
            sidebar_fraction: 0.25,
        }
    }
}

impl HeuristicConfig {
    /// Sets [`HeuristicConfig::viewport_width`].
    pub fn viewport_width(mut self, px: f32) -> HeuristicConfig {
        self.viewport_width = px;
        self
    }

    /// The configuration with every value made usable: finite and within
    /// a sensible range.
    fn sanitized(self) -> HeuristicConfig {
        HeuristicConfig {
            viewport_width: clamp(self.viewport_width, 1.0, MAX_PX, 1280.0),
            base_font_size: clamp(self.base_font_size, 1.0, 1000.0, 16.0),
            char_width_em: clamp(self.char_width_em, 0.01, 10.0, 0.5),
            line_height: clamp(self.line_height, 0.1, 10.0, 1.2),
            sidebar_fraction: clamp(self.sidebar_fraction, 0.01, 1.0, 0.25),
        }
    }
}

/// `v` within `lo..=hi`; `fallback` when it is not a number.
fn clamp(v: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if v.is_nan() {
        fallback
    } else {
        v.clamp(lo, hi)
    }
}

/// Estimates a layout from the HTML alone; the module documentation in
/// `layout/heuristic.rs` gives the rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeuristicLayout {
    config: HeuristicConfig,
}

impl HeuristicLayout {
    /// The estimator with this configuration.
    pub fn new(config: HeuristicConfig) -> HeuristicLayout {
        HeuristicLayout { config: config.sanitized() }
    }

    /// The estimated layout of `doc` (infallible; [`LayoutProvider::layout`]
    /// wraps it).
    pub fn estimate(&self, doc: &Document) -> Layout {
        Flow::new(doc, self.config).run()
    }
}

impl LayoutProvider for HeuristicLayout {
    fn layout(&self, doc: &Document) -> Result<Layout> {
        Ok(self.estimate(doc))
    }

    fn origin(&self) -> LayoutOrigin {
        LayoutOrigin::Heuristic
    }
}

#[cfg(test)]
mod tests {
    use markup5ever::local_name;

    use super::*;
    use crate::document::{ElementRef, NodeId};
    use crate::layout::{LayoutBox, Rgba};
    use crate::ParseOptions;

    fn laid_out(html: &str) -> (Document, Layout) {
        let options = ParseOptions::default().keep_all_attributes(true);
        let doc = Document::parse(html.as_bytes(), &options).expect("parse");
        let layout = HeuristicLayout::default().estimate(&doc);
        (doc, layout)
    }

    fn find(doc: &Document, pred: impl Fn(ElementRef<'_>) -> bool) -> NodeId {
        doc.ids().find(|&i| doc.element(i).is_some_and(&pred)).expect("element")
    }

    fn by_id(doc: &Document, id: &str) -> NodeId {
        find(doc, |e| e.attr("id") == Some(id))
    }

    fn bx(layout: &Layout, id: NodeId) -> LayoutBox {
        *layout.get(id).expect("box")
    }

    #[test]
    fn headings_have_bigger_fonts_than_paragraphs() {
        let (doc, l) =
            laid_out("<h1 id=a>Title</h1><p id=b>Text <small id=c>fine</small></p><h3 id=d>x</h3>");
        let f = |id| bx(&l, by_id(&doc, id)).font_size;
        assert_eq!(f("a"), 32.0);
        assert_eq!(f("b"), 16.0);
        assert!(f("c") < 16.0);
        assert!(f("d") > 16.0 && f("d") < 32.0);
    }

    #[test]
    fn display_none_and_friends_are_invisible() {
        let html = "<div id=a style='display: none'><p id=a2>x</p></div><p id=b hidden>y</p>\
                    <input id=c type=hidden><p id=d style='visibility:hidden'>z</p><p id=e>ok</p>";
        let (doc, l) = laid_out(html);
        for id in ["a", "a2", "b", "c", "d"] {
            assert!(!bx(&l, by_id(&doc, id)).visible, "{id}");
        }
        assert!(bx(&l, by_id(&doc, "e")).visible);
        let head = find(&doc, |e| e.name == local_name!("head"));
        assert!(!bx(&l, head).visible);
    }

    #[test]
    fn bootstrap_columns_sit_side_by_side() {
        let html = "<div class=row><div id=main class='col-md-8'><p>Main text here.</p></div>\
                    <div id=side class='col-md-4'><p>Side</p></div></div><p id=after>After</p>";
        let (doc, l) = laid_out(html);
        let (m, s) = (bx(&l, by_id(&doc, "main")).rect, bx(&l, by_id(&doc, "side")).rect);
        assert_eq!(m.top, s.top);
        assert!((m.width - 2.0 * s.width).abs() < 1.0, "{m:?} {s:?}");
        assert!((s.left - m.right()).abs() < 0.5);
        let after = bx(&l, by_id(&doc, "after")).rect;
        assert!(after.top >= m.bottom().max(s.bottom()));
    }

    #[test]
    fn sidebars_and_cells_narrow_their_column() {
        let html = "<div><main id=m><p>Text</p></main><aside id=s>Links</aside></div>\
                    <table><tr><td id=c1>a</td><td id=c2 colspan=3>b</td></tr></table>";
        let (doc, l) = laid_out(html);
        let (m, s) = (bx(&l, by_id(&doc, "m")).rect, bx(&l, by_id(&doc, "s")).rect);
        assert_eq!(m.top, s.top);
        assert!(s.width < m.width);
        let (c1, c2) = (bx(&l, by_id(&doc, "c1")).rect, bx(&l, by_id(&doc, "c2")).rect);
        assert!((c2.width - 3.0 * c1.width).abs() < 1.0 && c1.top == c2.top);
    }

    #[test]
    fn tops_increase_in_document_order_and_text_makes_height() {
        let long = "word ".repeat(400);
        let html = format!("<p id=a>short</p><p id=b>{long}</p><h2 id=c>Next</h2>");
        let (doc, l) = laid_out(&html);
        let (a, b, c) = (
            bx(&l, by_id(&doc, "a")).rect,
            bx(&l, by_id(&doc, "b")).rect,
            bx(&l, by_id(&doc, "c")).rect,
        );
        assert!(a.top < b.top && b.top < c.top);
        assert!(b.height > 5.0 * a.height, "{a:?} {b:?}");
        assert!(c.top >= b.bottom());
        assert!(l.page().height >= c.bottom());
    }

    #[test]
    fn inline_styles_are_read_and_clamped() {
        let html = "<div id=a style='width:50%;background-color:#ff0000;font-size:2em'>x</div>\
                    <div id=b style='width:NaNpx;font-size:-5px;height:1e99px'>y</div>\
                    <span id=c style='background: url(x.png) rgb(0, 0, 255) no-repeat'>z</span>";
        let (doc, l) = laid_out(html);
        let a = bx(&l, by_id(&doc, "a"));
        assert_eq!(a.background, Rgba::rgb(255, 0, 0));
        assert_eq!(a.font_size, 32.0);
        assert!((a.rect.width - (1280.0 - 16.0) / 2.0).abs() < 0.5);
        let b = bx(&l, by_id(&doc, "b"));
        assert!(b.rect.width.is_finite() && b.rect.height.is_finite() && b.font_size >= 1.0);
        assert_eq!(bx(&l, by_id(&doc, "c")).background, Rgba::rgb(0, 0, 255));
    }

    #[test]
    fn never_panics_on_odd_input() {
        for html in ["", "<td>x", "<a><div><p>x</div></a>", "<br><br>", "<img width=-3 height=9>"] {
            let (doc, l) = laid_out(html);
            assert_eq!(l.len(), doc.len());
            for id in doc.ids() {
                if let Some(b) = l.get(id) {
                    assert!(b.rect.width.is_finite() && b.rect.top.is_finite(), "{html}");
                }
            }
        }
    }
}
