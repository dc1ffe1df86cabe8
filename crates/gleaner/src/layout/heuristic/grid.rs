//! The grid heuristics: which elements sit side by side as columns and
//! what share of the row each takes — grid-system classes (Bootstrap,
//! Foundation, Tailwind, Pure), sidebars and the main column beside them,
//! and table cells' `colspan`.

use markup5ever::local_name;

use crate::document::ElementRef;

/// The share of its row a grid-system class gives: Bootstrap, Foundation,
/// Tailwind and Pure, at `viewport` px.
pub(super) fn grid_fraction(class: &str, viewport: f32) -> Option<f32> {
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
pub(super) fn ratio(s: &str, sep: char) -> Option<f32> {
    let (a, b) = s.split_once(sep)?;
    let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
    (b > 0).then(|| f32::from(a) / f32::from(b))
}

/// Minimum viewport width of a grid breakpoint name (Bootstrap 5 /
/// Tailwind).
pub(super) fn breakpoint(name: &str) -> Option<f32> {
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

/// `aside`, or an id/class naming a sidebar. Names of page layouts that
/// hold a sidebar (WordPress's `content-sidebar` on `<body>`,
/// `content-sidebar-wrap`) are not sidebars themselves, nor is the body.
pub(super) fn is_sidebar(e: ElementRef<'_>) -> bool {
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
pub(super) fn is_main_column(e: ElementRef<'_>) -> bool {
    matches!(e.name, local_name!("main") | local_name!("article"))
        || e.id_and_class().split_ascii_whitespace().any(|t| {
            ["content", "main", "primary", "article", "post"].iter().any(|k| t.contains(k))
        })
}

/// A cell's `colspan` (1 when absent or odd).
pub(super) fn colspan(e: ElementRef<'_>) -> f32 {
    let n = e.attr("colspan").and_then(|v| v.trim().parse::<u16>().ok()).unwrap_or(1);
    f32::from(n.clamp(1, 1000))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
