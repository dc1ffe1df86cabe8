//! The boxes a layout gives a document's elements: each element's border
//! box, font size, background colour and visibility ([`Layout`]), kept
//! on the [`Document`](super::Document) it was made for
//! ([`Document::with_layout`](super::Document::with_layout)).
//!
//! The data only: what makes a layout, a browser or the estimate from
//! the HTML, is the [`layout`](crate::layout) module above the document,
//! whose providers read a parsed document and fill these boxes in
//! (`docs/layout.md`; VCE's visual style vector, Asfia et
//! al. 2010, `docs/algorithms.md#vce`).
//!
//! Coordinates are CSS pixels from the top-left corner of the page (not
//! the viewport), as `DOMSnapshot.captureSnapshot` reports them.

use super::node::NodeId;

/// An axis-aligned rectangle in CSS pixels, page coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    /// Distance of the left edge from the page's left edge.
    pub left: f32,
    /// Distance of the top edge from the page's top.
    pub top: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

impl Rect {
    /// The distance of the bottom edge from the page's top.
    pub fn bottom(&self) -> f32 {
        self.top + self.height
    }

    /// The distance of the right edge from the page's left edge.
    pub fn right(&self) -> f32 {
        self.left + self.width
    }

    /// Width × height; 0 for an empty or inverted box.
    pub fn area(&self) -> f32 {
        self.width.max(0.0) * self.height.max(0.0)
    }
}

/// A colour with alpha; alpha 0 is transparent (no background of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha: 0 transparent, 255 opaque.
    pub a: u8,
}

impl Rgba {
    /// Fully transparent: the initial value of `background-color`.
    pub const TRANSPARENT: Rgba = Rgba { r: 0, g: 0, b: 0, a: 0 };

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r, g, b, a: 255 }
    }

    /// True when the colour paints nothing.
    pub fn is_transparent(&self) -> bool {
        self.a == 0
    }

    /// A CSS colour as a style sheet or a browser's computed style
    /// writes it: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`,
    /// `rgba()` (numbers or percentages, commas or spaces, `/ alpha`),
    /// `color(srgb r g b / a)`, `transparent` and common names. `None`
    /// for anything else (other colour spaces, unknown names).
    pub fn parse_css(v: &str) -> Option<Rgba> {
        let v = v.trim();
        if let Some(hex) = v.strip_prefix('#') {
            return parse_hex(hex);
        }
        let Some((function, args)) = v.split_once('(') else {
            return named_color(v);
        };
        let args = args.trim_end().trim_end_matches(')');
        let mut parts = args.split([',', ' ', '/']).filter(|p| !p.is_empty());
        let srgb = match function.trim() {
            "rgb" | "rgba" => false,
            "color" if parts.next() == Some("srgb") => true,
            _ => return None,
        };
        let mut channel = || -> Option<u8> {
            let p = parts.next()?;
            let x = match p.strip_suffix('%') {
                Some(pc) => pc.parse::<f32>().ok()? * 2.55,
                None if srgb => p.parse::<f32>().ok()? * 255.0,
                None => p.parse::<f32>().ok()?,
            };
            Some((unit_clamp(x / 255.0, 0.0) * 255.0).round() as u8)
        };
        let (r, g, b) = (channel()?, channel()?, channel()?);
        let a = parts.next().and_then(|p| p.parse::<f32>().ok()).map_or(255, |a| {
            let a = if a > 1.0 { a / 255.0 } else { a };
            (unit_clamp(a, 1.0) * 255.0).round() as u8
        });
        Some(Rgba { r, g, b, a })
    }
}

/// `transparent` and common colour names.
fn named_color(v: &str) -> Option<Rgba> {
    let (r, g, b) = match v {
        "transparent" => return Some(Rgba::TRANSPARENT),
        "white" => (255, 255, 255),
        "black" => (0, 0, 0),
        "red" => (255, 0, 0),
        "green" => (0, 128, 0),
        "blue" => (0, 0, 255),
        "yellow" => (255, 255, 0),
        "orange" => (255, 165, 0),
        "gray" | "grey" => (128, 128, 128),
        "silver" => (192, 192, 192),
        "lightgray" | "lightgrey" => (211, 211, 211),
        "whitesmoke" => (245, 245, 245),
        "navy" => (0, 0, 128),
        "maroon" => (128, 0, 0),
        "purple" => (128, 0, 128),
        "teal" => (0, 128, 128),
        "beige" => (245, 245, 220),
        "ivory" => (255, 255, 240),
        "lightblue" => (173, 216, 230),
        "lightyellow" => (255, 255, 224),
        _ => return None,
    };
    Some(Rgba::rgb(r, g, b))
}

/// `x` clamped to 0..=1, `fallback` when it is not a number.
fn unit_clamp(x: f32, fallback: f32) -> f32 {
    if x.is_nan() {
        fallback
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// `rgb`, `rgba`, `rrggbb` or `rrggbbaa` in hexadecimal.
fn parse_hex(hex: &str) -> Option<Rgba> {
    let digit = |i: usize| hex.get(i..=i).and_then(|d| u8::from_str_radix(d, 16).ok());
    let pair = |i: usize| hex.get(i..i + 2).and_then(|d| u8::from_str_radix(d, 16).ok());
    match hex.len() {
        3 | 4 => {
            let a = if hex.len() == 4 { digit(3)? * 17 } else { 255 };
            Some(Rgba { r: digit(0)? * 17, g: digit(1)? * 17, b: digit(2)? * 17, a })
        }
        6 | 8 => {
            let a = if hex.len() == 8 { pair(6)? } else { 255 };
            Some(Rgba { r: pair(0)?, g: pair(2)?, b: pair(4)?, a })
        }
        _ => None,
    }
}

/// What the layout says of one element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutBox {
    /// The element's border box.
    pub rect: Rect,
    /// Computed `font-size` in CSS pixels.
    pub font_size: f32,
    /// Computed `background-color`; transparent when the element paints
    /// none of its own.
    pub background: Rgba,
    /// False when the element is not rendered or cannot be seen:
    /// `display:none`, `visibility:hidden`, `opacity:0`, a zero-size box
    /// with hidden overflow, the `hidden` attribute.
    pub visible: bool,
}

/// Where a [`Layout`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutOrigin {
    /// Measured by a real browser engine.
    Browser,
    /// Estimated from the HTML alone.
    Heuristic,
}

impl LayoutOrigin {
    /// The name the command line uses: `browser` or `heuristic`.
    pub fn name(self) -> &'static str {
        match self {
            LayoutOrigin::Browser => "browser",
            LayoutOrigin::Heuristic => "heuristic",
        }
    }
}

/// The boxes of a document's elements, by node id. See the
/// [module docs](crate::layout).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    boxes: Vec<Option<LayoutBox>>,
    origin: LayoutOrigin,
    page: Rect,
}

impl Layout {
    /// An empty layout for a document of `node_count` nodes, rendered at
    /// `viewport_width` pixels.
    pub fn new(node_count: usize, origin: LayoutOrigin, viewport_width: f32) -> Layout {
        Layout {
            boxes: vec![None; node_count],
            origin,
            page: Rect { left: 0.0, top: 0.0, width: viewport_width, height: 0.0 },
        }
    }

    /// Sets the box of node `id`; ids out of range are ignored. The page
    /// grows to hold every box set.
    pub fn set(&mut self, id: NodeId, b: LayoutBox) {
        if let Some(slot) = self.boxes.get_mut(id.index()) {
            *slot = Some(b);
            if b.visible {
                self.page.width = self.page.width.max(b.rect.right());
                self.page.height = self.page.height.max(b.rect.bottom());
            }
        }
    }

    /// The box of node `id`, if the layout has one (elements only;
    /// elements the layout engine did not render have none).
    pub fn get(&self, id: NodeId) -> Option<&LayoutBox> {
        self.boxes.get(id.index()).and_then(Option::as_ref)
    }

    /// Counts every box as visible: for a page whose layout hides what
    /// scripts would show
    /// ([`Document::with_layout`](super::Document::with_layout)).
    pub fn show_all(&mut self) {
        for b in self.boxes.iter_mut().flatten() {
            b.visible = true;
            self.page.width = self.page.width.max(b.rect.right());
            self.page.height = self.page.height.max(b.rect.bottom());
        }
    }

    /// Where the layout came from.
    pub fn origin(&self) -> LayoutOrigin {
        self.origin
    }

    /// The whole page: the viewport's width (or wider, when content
    /// overflows) and the height of the lowest visible box.
    pub fn page(&self) -> Rect {
        self.page
    }

    /// Number of node slots: the node count of the document it was made
    /// for.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// True when made for an empty node list.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }
}
