//! The style cascade as far as the estimate goes: lengths, an element's
//! inline `style` (display, visibility, size, font size, background,
//! float) and what its tag gives by default (the user-agent style sheet:
//! font sizes, margins, elements not rendered).

use markup5ever::{local_name, LocalName};

use super::{clamp, MAX_PX};
use crate::document::ElementRef;
use crate::layout::Rgba;

/// A length from a style or attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Length {
    Px(f32),
    Em(f32),
    Percent(f32),
}

impl Length {
    /// Parses `12px`, `1.5em`, `2rem` (as em of the base), `12pt`, `50%`,
    /// a bare number (px, as attributes give it).
    pub(super) fn parse(s: &str) -> Option<Length> {
        let s = s.trim();
        let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))?;
        let (num, unit) = if split == 0 { return None } else { s.split_at(split) };
        Length::with_unit(num, unit)
    }

    pub(super) fn with_unit(num: &str, unit: &str) -> Option<Length> {
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
    pub(super) fn parse_attr(s: &str) -> Option<Length> {
        let s = s.trim();
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Length::with_unit(s, "");
        }
        Length::parse(s)
    }

    /// In px, against `reference` for % and `font` for em.
    pub(super) fn px(self, reference: f32, font: f32) -> f32 {
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
pub(super) struct Style {
    pub(super) display: Option<Display>,
    pub(super) hidden: bool,
    pub(super) width: Option<Length>,
    pub(super) max_width: Option<Length>,
    pub(super) height: Option<Length>,
    pub(super) font_size: Option<FontSize>,
    pub(super) background: Option<Rgba>,
    pub(super) float: bool,
    pub(super) column_flow: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Display {
    None,
    Block,
    Flex,
    Inline,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum FontSize {
    Absolute(f32),
    Relative(Length),
}

impl Style {
    pub(super) fn parse(style: &str) -> Style {
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
pub(super) fn font_size(v: &str) -> Option<FontSize> {
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
pub(super) fn color(v: &str) -> Option<Rgba> {
    Rgba::parse_css(v.trim().trim_end_matches(','))
}

/// Elements a browser does not render (user-agent `display:none`).
pub(super) fn not_rendered(e: ElementRef<'_>) -> bool {
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
pub(super) fn tag_font_em(name: &LocalName) -> f32 {
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

pub(super) fn is_monospace(name: &LocalName) -> bool {
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
pub(super) fn tag_margins(name: &LocalName) -> (f32, f32, f32, f32) {
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
