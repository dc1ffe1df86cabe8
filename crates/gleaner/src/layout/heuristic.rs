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

use markup5ever::{local_name, LocalName};

use super::{Layout, LayoutBox, LayoutOrigin, LayoutProvider, Rect, Rgba};
use crate::document::{tags, Document, ElementRef, NodeId, NodeKind};
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

/// A length from a style or attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Length {
    Px(f32),
    Em(f32),
    Percent(f32),
}

impl Length {
    /// Parses `12px`, `1.5em`, `2rem` (as em of the base), `12pt`, `50%`,
    /// a bare number (px, as attributes give it).
    fn parse(s: &str) -> Option<Length> {
        let s = s.trim();
        let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))?;
        let (num, unit) = if split == 0 { return None } else { s.split_at(split) };
        Length::with_unit(num, unit)
    }

    fn with_unit(num: &str, unit: &str) -> Option<Length> {
        let v: f32 = num.parse().ok()?;
        if !v.is_finite() {
            return None;
        }
        let v = v.clamp(0.0, MAX_PX);
        Some(match unit.trim() {
            "" | "px" => Length::Px(v),
            "pt" => Length::Px(v * 4.0 / 3.0),
            "em" | "rem" => Length::Em(v),
            "%" => Length::Percent(v),
            _ => return None,
        })
    }

    /// Parses a length that may be a bare number.
    fn parse_attr(s: &str) -> Option<Length> {
        let s = s.trim();
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Length::with_unit(s, "");
        }
        Length::parse(s)
    }

    /// In px, against `reference` for % and `font` for em.
    fn px(self, reference: f32, font: f32) -> f32 {
        let v = match self {
            Length::Px(v) => v,
            Length::Em(v) => v * font,
            Length::Percent(v) => v / 100.0 * reference,
        };
        clamp(v, 0.0, MAX_PX, 0.0)
    }
}

/// What an element's inline `style` says, as far as layout goes.
#[derive(Debug, Clone, Copy, Default)]
struct Style {
    display: Option<Display>,
    hidden: bool,
    width: Option<Length>,
    max_width: Option<Length>,
    height: Option<Length>,
    font_size: Option<FontSize>,
    background: Option<Rgba>,
    float: bool,
    column_flow: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Display {
    None,
    Block,
    Flex,
    Inline,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum FontSize {
    Absolute(f32),
    Relative(Length),
}

impl Style {
    fn parse(style: &str) -> Style {
        let mut s = Style::default();
        for decl in style.split(';') {
            let Some((prop, value)) = decl.split_once(':') else { continue };
            let prop = prop.trim().to_ascii_lowercase();
            let value = value.to_ascii_lowercase();
            let value = value.trim().trim_end_matches("!important").trim();
            match prop.as_str() {
                "display" => {
                    s.display = Some(match value {
                        "none" => Display::None,
                        "flex" | "grid" => Display::Flex,
                        "inline" | "inline-block" | "inline-flex" | "contents" => Display::Inline,
                        _ => Display::Block,
                    })
                }
                "visibility" => s.hidden = value == "hidden" || value == "collapse",
                "opacity" => s.hidden |= value.parse::<f32>().is_ok_and(|o| o <= 0.0),
                "width" => s.width = Length::parse(value),
                "max-width" => s.max_width = Length::parse(value),
                "height" => s.height = Length::parse(value),
                "font-size" => s.font_size = font_size(value),
                "background-color" => s.background = color(value),
                "background" => {
                    let functional = value.find("rgb").and_then(|at| {
                        let rest = value.get(at..)?;
                        color(rest.get(..=rest.find(')')?)?)
                    });
                    s.background = functional
                        .or_else(|| value.split_whitespace().find_map(color))
                        .or(s.background)
                }
                "float" => s.float = value == "left" || value == "right",
                "flex-direction" => s.column_flow = value.starts_with("column"),
                _ => {}
            }
        }
        s
    }
}

/// A `font-size` value.
fn font_size(v: &str) -> Option<FontSize> {
    let px = match v {
        "xx-small" => 9.0,
        "x-small" => 10.0,
        "small" => 13.0,
        "medium" => 16.0,
        "large" => 18.0,
        "x-large" => 24.0,
        "xx-large" => 32.0,
        "xxx-large" => 48.0,
        "smaller" => return Some(FontSize::Relative(Length::Em(0.833))),
        "larger" => return Some(FontSize::Relative(Length::Em(1.2))),
        _ => {
            return match Length::parse(v)? {
                Length::Px(p) => Some(FontSize::Absolute(p)),
                Length::Percent(p) => Some(FontSize::Relative(Length::Em(p / 100.0))),
                rel => Some(FontSize::Relative(rel)),
            }
        }
    };
    Some(FontSize::Absolute(px))
}

/// A CSS colour ([`Rgba::parse_css`]).
fn color(v: &str) -> Option<Rgba> {
    Rgba::parse_css(v.trim().trim_end_matches(','))
}

/// Elements a browser does not render (user-agent `display:none`).
fn not_rendered(e: ElementRef<'_>) -> bool {
    matches!(
        e.name,
        local_name!("head")
            | local_name!("script")
            | local_name!("style")
            | local_name!("template")
            | local_name!("title")
            | local_name!("meta")
            | local_name!("link")
            | local_name!("base")
            | local_name!("noscript")
            | local_name!("dialog")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("datalist")
    ) || e.attr("hidden").is_some()
        || (e.name == local_name!("input")
            && e.attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
}

/// The tag's own font size relative to its parent's, in em.
fn tag_font_em(name: &LocalName) -> f32 {
    match *name {
        local_name!("h1") => 2.0,
        local_name!("h2") => 1.5,
        local_name!("h3") => 1.17,
        local_name!("h5") => 0.83,
        local_name!("h6") => 0.67,
        local_name!("small") | local_name!("sub") | local_name!("sup") => 0.83,
        local_name!("big") => 1.2,
        _ => 1.0,
    }
}

fn is_monospace(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("pre")
            | local_name!("code")
            | local_name!("kbd")
            | local_name!("samp")
            | local_name!("tt")
            | local_name!("xmp")
            | local_name!("listing")
    )
}

/// User-agent margins: (top and bottom in em, left px, right px), and the
/// list padding in px.
fn tag_margins(name: &LocalName) -> (f32, f32, f32, f32) {
    match *name {
        local_name!("p") | local_name!("dl") | local_name!("pre") => (1.0, 0.0, 0.0, 0.0),
        local_name!("ul") | local_name!("ol") | local_name!("menu") => (1.0, 0.0, 0.0, 40.0),
        local_name!("blockquote") | local_name!("figure") => (1.0, 40.0, 40.0, 0.0),
        local_name!("dd") => (0.0, 40.0, 0.0, 0.0),
        local_name!("h1") => (0.67, 0.0, 0.0, 0.0),
        local_name!("h2") => (0.83, 0.0, 0.0, 0.0),
        local_name!("h3") => (1.0, 0.0, 0.0, 0.0),
        local_name!("h4") => (1.33, 0.0, 0.0, 0.0),
        local_name!("h5") => (1.67, 0.0, 0.0, 0.0),
        local_name!("h6") => (2.33, 0.0, 0.0, 0.0),
        local_name!("hr") => (0.5, 0.0, 0.0, 0.0),
        local_name!("body") => (0.5, 8.0, 8.0, 0.0),
        _ => (0.0, 0.0, 0.0, 0.0),
    }
}

/// The share of its row a grid-system class gives: Bootstrap, Foundation,
/// Tailwind and Pure, at `viewport` px.
fn grid_fraction(class: &str, viewport: f32) -> Option<f32> {
    let mut best: Option<(f32, f32)> = None; // (breakpoint, fraction)
    let mut foundation: Option<(f32, f32)> = None;
    let mut is_foundation_column = false;
    let offer = |slot: &mut Option<(f32, f32)>, bp: f32, f: f32| {
        if bp <= viewport && f > 0.0 && f <= 1.0 && slot.is_none_or(|(b, _)| bp >= b) {
            *slot = Some((bp, f));
        }
    };
    for token in class.split_ascii_whitespace() {
        let token = token.to_ascii_lowercase();
        if matches!(token.as_str(), "columns" | "column" | "cell") {
            is_foundation_column = true;
        }
        // Bootstrap: col-N, col-BP-N (N of 12).
        if let Some(rest) = token.strip_prefix("col-") {
            let (bp, n) = match rest.split_once('-') {
                Some((bp, n)) => (breakpoint(bp), n),
                None => (Some(0.0), rest),
            };
            if let (Some(bp), Ok(n)) = (bp, n.parse::<u8>()) {
                offer(&mut best, bp, f32::from(n) / 12.0);
            }
            continue;
        }
        // Foundation: small-N, medium-N, large-N (with `columns`/`cell`).
        if let Some((bp, n)) = token.split_once('-') {
            let bp = match bp {
                "small" => Some(0.0),
                "medium" => Some(640.0),
                "large" => Some(1024.0),
                "xlarge" => Some(1200.0),
                _ => None,
            };
            if let (Some(bp), Ok(n)) = (bp, n.parse::<u8>()) {
                offer(&mut foundation, bp, f32::from(n) / 12.0);
                continue;
            }
        }
        // Tailwind: [bp:]w-A/B, [bp:]w-full.
        let (bp, utility) = match token.split_once(':') {
            Some((bp, u)) => (breakpoint(bp), u),
            None => (Some(0.0), token.as_str()),
        };
        if let (Some(bp), Some(w)) = (bp, utility.strip_prefix("w-")) {
            let f = if w == "full" { Some(1.0) } else { ratio(w, '/') };
            if let Some(f) = f {
                offer(&mut best, bp, f);
            }
            continue;
        }
        // Pure: pure-u-A-B, pure-u-BP-A-B.
        if let Some(rest) = token.strip_prefix("pure-u-") {
            let (bp, r) = match rest.split_once('-') {
                Some((bp, r)) if breakpoint(bp).is_some() => (breakpoint(bp), r),
                _ => (Some(0.0), rest),
            };
            if let (Some(bp), Some(f)) = (bp, ratio(r, '-')) {
                offer(&mut best, bp, f);
            }
        }
    }
    if is_foundation_column {
        best = best.or(foundation);
    }
    best.map(|(_, f)| f)
}

/// `A<sep>B` as A/B.
fn ratio(s: &str, sep: char) -> Option<f32> {
    let (a, b) = s.split_once(sep)?;
    let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
    (b > 0).then(|| f32::from(a) / f32::from(b))
}

/// Minimum viewport width of a grid breakpoint name (Bootstrap 5 /
/// Tailwind).
fn breakpoint(name: &str) -> Option<f32> {
    Some(match name {
        "xs" => 0.0,
        "sm" => 576.0,
        "md" => 768.0,
        "lg" => 992.0,
        "xl" => 1200.0,
        "xxl" | "2xl" => 1400.0,
        _ => return None,
    })
}

/// The narrowest width text is wrapped in, in px \[I\].
const MIN_LINE_WIDTH: f32 = 60.0;

/// `aside`, or an id/class naming a sidebar. Names of page layouts that
/// hold a sidebar (WordPress's `content-sidebar` on `<body>`,
/// `content-sidebar-wrap`) are not sidebars themselves, nor is the body.
fn is_sidebar(e: ElementRef<'_>) -> bool {
    if matches!(e.name, local_name!("body") | local_name!("html")) {
        return false;
    }
    e.name == local_name!("aside")
        || e.id_and_class().split(|c: char| c.is_ascii_whitespace() || c == '_').any(|t| {
            let layout = t.contains("content")
                || t.contains("main")
                || ["-wrap", "-wrapper", "-container", "-layout", "-page"]
                    .iter()
                    .any(|end| t.ends_with(end));
            !layout
                && (t.contains("sidebar")
                    || t.contains("side-bar")
                    || t == "widget-area"
                    || t == "rail"
                    || t.ends_with("-rail"))
        })
}

/// `main`, `article`, or an id/class naming the main column.
fn is_main_column(e: ElementRef<'_>) -> bool {
    matches!(e.name, local_name!("main") | local_name!("article"))
        || e.id_and_class().split_ascii_whitespace().any(|t| {
            ["content", "main", "primary", "article", "post"].iter().any(|k| t.contains(k))
        })
}

/// The pending line boxes of a block.
#[derive(Debug, Clone, Copy, Default)]
struct Lines {
    /// Horizontal advance of the inline content so far, in px (over all
    /// its lines, as if on one long line).
    advance: f32,
    /// Height of the tallest line so far.
    line: f32,
}

/// Columns placed side by side in a block.
#[derive(Debug, Clone, Copy)]
struct Row {
    used: f32,
    top: f32,
    bottom: f32,
}

/// An open element (or the document root) during the walk.
#[derive(Debug, Clone)]
struct Frame {
    id: NodeId,
    end: NodeId,
    block: bool,
    /// Index in the stack of the block whose lines this one's inline
    /// content falls on (itself for a block).
    host: usize,
    rect: Rect,
    content_left: f32,
    content_width: f32,
    font: f32,
    background: Rgba,
    visible: bool,
    fixed_height: Option<f32>,
    column: bool,
    margin_after: f32,
    // Flow state (blocks).
    cursor: f32,
    margin: f32,
    lines: Lines,
    row: Option<Row>,
    flushes: u32,
    /// Children share the width: table cells (by colspan) or flex items.
    shares: Option<f32>,
    sidebar_child: bool,
    // Where an inline element started in its host.
    start: Lines,
    start_cursor: f32,
    start_flushes: u32,
}

impl Frame {
    /// A frame for `id` in flow `host`: a block at `rect` when `block`,
    /// with nothing laid out in it yet.
    fn open(doc: &Document, id: NodeId, block: bool, host: usize, rect: Rect, font: f32) -> Frame {
        Frame {
            id,
            end: doc.subtree_end(id),
            block,
            host,
            rect,
            content_left: rect.left,
            content_width: rect.width.max(1.0),
            font,
            background: Rgba::TRANSPARENT,
            visible: true,
            fixed_height: None,
            column: false,
            margin_after: 0.0,
            cursor: rect.top,
            margin: 0.0,
            lines: Lines::default(),
            row: None,
            flushes: 0,
            shares: None,
            sidebar_child: false,
            start: Lines::default(),
            start_cursor: rect.top,
            start_flushes: 0,
        }
    }
}

/// The walk: one pre-order pass with a stack of open elements.
struct Flow<'a> {
    doc: &'a Document,
    config: HeuristicConfig,
    layout: Layout,
    stack: Vec<Frame>,
}

impl<'a> Flow<'a> {
    fn new(doc: &'a Document, config: HeuristicConfig) -> Flow<'a> {
        Flow {
            doc,
            config,
            layout: Layout::new(doc.len(), LayoutOrigin::Heuristic, config.viewport_width),
            stack: Vec::new(),
        }
    }

    fn run(mut self) -> Layout {
        let doc = self.doc;
        let c = self.config;
        let page = Rect { left: 0.0, top: 0.0, width: c.viewport_width, height: 0.0 };
        let root = Frame::open(doc, doc.root(), true, 0, page, c.base_font_size);
        self.stack.push(root);
        let mut i = 1usize;
        while i < doc.len() {
            let id = NodeId(i as u32);
            while self.stack.len() > 1 && self.stack.last().is_some_and(|f| f.end <= id) {
                self.close();
            }
            i += 1;
            match doc.kind(id) {
                NodeKind::Text(_) => self.text(id),
                NodeKind::Element(e) => {
                    if let Some(skip_to) = self.element(id, e) {
                        i = skip_to.index().max(i);
                    }
                }
                _ => {}
            }
        }
        while self.stack.len() > 1 {
            self.close();
        }
        self.layout
    }

    /// Inline text: advances its host's lines.
    fn text(&mut self, id: NodeId) {
        let stats = self.doc.stats(id);
        // Collapsed length: the visible characters plus one space a word.
        let chars = stats.chars + stats.words;
        let Some(top) = self.stack.last() else { return };
        if stats.chars == 0 {
            return;
        }
        let (host, font) = (top.host, top.font);
        let advance = chars as f32 * self.config.char_width_em * font;
        self.advance(host, advance, font * self.config.line_height);
    }

    fn advance(&mut self, host: usize, advance: f32, line: f32) {
        self.close_row(host);
        if let Some(h) = self.stack.get_mut(host) {
            if h.lines.advance == 0.0 {
                h.cursor += h.margin;
                h.margin = 0.0;
            }
            h.lines.advance += advance;
            h.lines.line = h.lines.line.max(line);
        }
    }

    /// Turns a block's pending lines into height.
    fn flush(&mut self, host: usize) {
        let lh = self.config.line_height;
        if let Some(h) = self.stack.get_mut(host) {
            if h.lines.advance > 0.0 {
                let lines = (h.lines.advance / h.content_width.max(1.0)).ceil().max(1.0);
                h.cursor += lines * h.lines.line.max(h.font * lh);
                h.lines = Lines::default();
                h.flushes += 1;
            }
        }
    }

    fn close_row(&mut self, host: usize) {
        if let Some(h) = self.stack.get_mut(host) {
            if let Some(row) = h.row.take() {
                h.cursor = h.cursor.max(row.bottom);
                h.margin = 0.0;
            }
        }
    }

    /// Opens an element; returns where to resume when its subtree is
    /// skipped (not rendered).
    fn element(&mut self, id: NodeId, e: ElementRef<'_>) -> Option<NodeId> {
        let doc = self.doc;
        let c = self.config;
        let parent_index = self.stack.len() - 1;
        let parent = self.stack.last()?;
        let style = e.attr("style").map(Style::parse).unwrap_or_default();
        if not_rendered(e) || style.display == Some(Display::None) {
            let end = doc.subtree_end(id);
            let at =
                Rect { left: parent.content_left, top: parent.cursor, width: 0.0, height: 0.0 };
            for n in doc.subtree(id) {
                if doc.element(n).is_some() {
                    let b = LayoutBox {
                        rect: at,
                        font_size: parent.font,
                        background: Rgba::TRANSPARENT,
                        visible: false,
                    };
                    self.layout.set(n, b);
                }
            }
            return Some(end);
        }
        // Font size: the tag's, then the style's.
        let mut font = parent.font * tag_font_em(&e.name);
        if is_monospace(&e.name) {
            font = font * 13.0 / 16.0;
        }
        font = match style.font_size {
            Some(FontSize::Absolute(px)) => px,
            Some(FontSize::Relative(l)) => l.px(parent.font, parent.font),
            None => font,
        };
        let font = clamp(font, 1.0, 1000.0, parent.font);
        let background = style
            .background
            .or_else(|| e.attr("bgcolor").and_then(color))
            .unwrap_or(Rgba::TRANSPARENT);
        let visible = parent.visible && !style.hidden;
        let block = match style.display {
            Some(Display::Inline) => false,
            Some(Display::Block | Display::Flex) => true,
            _ => tags::is_block(&e.name),
        };
        let host = if parent.block { parent_index } else { parent.host };
        let width_attr = e.attr("width").and_then(Length::parse_attr);
        let height_attr = e.attr("height").and_then(Length::parse_attr);
        if !block {
            return self.inline(id, e, host, font, background, visible, style);
        }
        self.flush(host);
        let h = self.stack.get(host)?.clone();
        let (margin_em, margin_left, margin_right, padding) = tag_margins(&e.name);
        let margin = margin_em * font;
        let avail = (h.content_width - margin_left - margin_right).max(0.0);
        // Column share: cells, flex items, grid classes, sidebars.
        let class = e.attr("class").unwrap_or("");
        let share = if matches!(e.name, local_name!("td") | local_name!("th")) {
            h.shares.map(|total| colspan(e) / total.max(1.0))
        } else {
            h.shares
                .map(|n| 1.0 / n.max(1.0))
                .or_else(|| grid_fraction(class, c.viewport_width))
                .or_else(|| is_sidebar(e).then_some(c.sidebar_fraction))
                .or_else(|| {
                    (h.sidebar_child && is_main_column(e)).then_some(1.0 - c.sidebar_fraction)
                })
        };
        let explicit = style.width.or(width_attr).map(|l| l.px(h.content_width, font));
        let mut width = explicit.or(share.map(|f| f * h.content_width)).unwrap_or(avail);
        if let Some(max) = style.max_width.map(|l| l.px(h.content_width, font)) {
            width = width.min(max);
        }
        let width = width.clamp(0.0, h.content_width.max(0.0));
        let column = share.is_some() || (style.float && explicit.is_some());
        let (left, top) = if column && width < h.content_width - 0.5 || share.is_some() {
            self.place_column(host, width)
        } else {
            self.close_row(host);
            let hf = self.stack.get_mut(host)?;
            // A first child's top margin collapses with its parent's (CSS 2
            // §8.3.1), so a wrapper and its only block share their top.
            let first = host > 0 && hf.cursor <= hf.rect.top && hf.lines.advance == 0.0;
            hf.cursor += if first { 0.0 } else { hf.margin.max(margin) };
            hf.margin = 0.0;
            (hf.content_left + margin_left, hf.cursor)
        };
        let fixed_height = style.height.or(height_attr).map(|l| l.px(0.0, font));
        // Children that share this block's width.
        let shares = if e.name == local_name!("tr") {
            Some(doc.children(id).filter_map(|k| doc.element(k)).map(colspan).sum::<f32>())
        } else if style.display == Some(Display::Flex) && !style.column_flow {
            Some(doc.children(id).filter(|&k| doc.element(k).is_some()).count() as f32)
        } else {
            None
        };
        let sidebar_child = doc.children(id).filter_map(|k| doc.element(k)).any(is_sidebar);
        let index = self.stack.len();
        let rect = Rect { left, top, width, height: 0.0 };
        self.stack.push(Frame {
            content_left: left + padding,
            // Text wraps in at least MIN_LINE_WIDTH, however narrow the
            // box: deep list indents and nested columns would otherwise
            // wrap a word per line and make pages of runaway height.
            content_width: (width - padding).max(MIN_LINE_WIDTH),
            background,
            visible,
            fixed_height,
            column,
            margin_after: margin,
            shares,
            sidebar_child,
            ..Frame::open(doc, id, true, index, rect, font)
        });
        None
    }

    /// Places a column of `width` in `host`'s row: beside the previous
    /// column when it fits, else in a new row below.
    fn place_column(&mut self, host: usize, width: f32) -> (f32, f32) {
        let Some(h) = self.stack.get_mut(host) else { return (0.0, 0.0) };
        let fits = h.row.is_some_and(|r| r.used + width <= h.content_width + 0.5);
        if !fits {
            if let Some(row) = h.row.take() {
                h.cursor = h.cursor.max(row.bottom);
            }
            h.cursor += h.margin;
            h.margin = 0.0;
            h.row = Some(Row { used: 0.0, top: h.cursor, bottom: h.cursor });
        }
        match h.row.as_mut() {
            Some(row) => {
                let left = h.content_left + row.used;
                row.used += width;
                (left, row.top)
            }
            None => (h.content_left, h.cursor),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn inline(
        &mut self,
        id: NodeId,
        e: ElementRef<'_>,
        host: usize,
        font: f32,
        background: Rgba,
        visible: bool,
        style: Style,
    ) -> Option<NodeId> {
        let doc = self.doc;
        let h = self.stack.get(host)?;
        let reference = h.content_width;
        if e.name == local_name!("br") {
            let lh = font * self.config.line_height;
            let w = h.content_width.max(1.0);
            let advance = h.lines.advance;
            let to_end = if advance == 0.0 { w } else { (advance / w).ceil() * w - advance };
            self.advance(host, to_end.max(0.01), lh);
        }
        // A replaced element with a declared size is one glyph of that size.
        let size = |s: Option<Length>, attr: &str| {
            s.or_else(|| e.attr(attr).and_then(Length::parse_attr)).map(|l| l.px(reference, font))
        };
        let w = size(style.width, "width");
        let hgt = size(style.height, "height");
        if matches!(e.name, local_name!("img") | local_name!("video") | local_name!("input")) {
            if let (Some(w), Some(hgt)) = (w, hgt) {
                self.advance(host, w.min(reference), hgt);
            }
        }
        let h = self.stack.get(host)?;
        let frame = Frame {
            content_left: h.content_left,
            content_width: h.content_width,
            background,
            visible,
            start: h.lines,
            start_cursor: h.cursor,
            start_flushes: h.flushes,
            ..Frame::open(doc, id, false, host, Rect::default(), font)
        };
        self.stack.push(frame);
        None
    }

    /// Closes the innermost open element: sets its box and advances its
    /// host's flow.
    fn close(&mut self) {
        let index = self.stack.len() - 1;
        let lh = self.config.line_height;
        if self.stack.get(index).is_some_and(|f| f.block) {
            self.flush(index);
            self.close_row(index);
        }
        let Some(f) = self.stack.pop() else { return };
        let rect = if f.block {
            let content = (f.cursor - f.rect.top).max(0.0);
            let height = f.fixed_height.unwrap_or(content);
            Rect { height, ..f.rect }
        } else {
            self.inline_rect(&f, lh)
        };
        if self.doc.element(f.id).is_some() {
            let b =
                LayoutBox { rect, font_size: f.font, background: f.background, visible: f.visible };
            self.layout.set(f.id, b);
        }
        if f.block {
            // The flow this block sits in: the nearest block ancestor.
            let host = self.stack.last().map_or(0, |p| if p.block { index - 1 } else { p.host });
            if let Some(h) = self.stack.get_mut(host) {
                match (f.column, h.row.as_mut()) {
                    (true, Some(row)) => row.bottom = row.bottom.max(rect.bottom()),
                    _ => {
                        h.cursor = h.cursor.max(rect.bottom());
                        h.margin = f.margin_after;
                    }
                }
            }
        }
    }

    /// The box of an inline element from where its content started and
    /// ended on its host's lines.
    fn inline_rect(&self, f: &Frame, lh: f32) -> Rect {
        let Some(h) = self.stack.get(f.host) else { return Rect::default() };
        let w = h.content_width.max(1.0);
        let line = (f.font * lh).max(f.start.line);
        let first = (f.start.advance / w).floor();
        let top = f.start_cursor + first * line;
        if h.flushes != f.start_flushes {
            // Blocks inside the inline element: it spans them all.
            let bottom = h.cursor + if h.lines.advance > 0.0 { line } else { 0.0 };
            return Rect { left: h.content_left, top, width: w, height: (bottom - top).max(0.0) };
        }
        let end = h.lines.advance.max(f.start.advance);
        let last = ((end - 0.01).max(f.start.advance) / w).floor();
        let start_x = f.start.advance - first * w;
        if last <= first {
            Rect {
                left: h.content_left + start_x,
                top,
                width: (end - f.start.advance).min(w),
                height: line,
            }
        } else {
            Rect { left: h.content_left, top, width: w, height: (last - first + 1.0) * line }
        }
    }
}

/// A cell's `colspan` (1 when absent or odd).
fn colspan(e: ElementRef<'_>) -> f32 {
    let n = e.attr("colspan").and_then(|v| v.trim().parse::<u16>().ok()).unwrap_or(1);
    f32::from(n.clamp(1, 1000))
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn grid_classes() {
        assert_eq!(grid_fraction("col-md-8", 1280.0), Some(8.0 / 12.0));
        assert_eq!(grid_fraction("col-12 col-lg-3", 1280.0), Some(0.25));
        assert_eq!(grid_fraction("col-xxl-3 col-6", 1280.0), Some(0.5));
        assert_eq!(grid_fraction("large-9 columns", 1280.0), Some(0.75));
        assert_eq!(grid_fraction("large-9", 1280.0), None);
        assert_eq!(grid_fraction("w-full md:w-1/3", 1280.0), Some(1.0 / 3.0));
        assert_eq!(grid_fraction("pure-u-1 pure-u-md-2-3", 1280.0), Some(2.0 / 3.0));
        assert_eq!(grid_fraction("col-md-0x", 1280.0), None);
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
