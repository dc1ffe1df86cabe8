//! From `DOMSnapshot.captureSnapshot` to a gleaner [`Layout`].
//!
//! The snapshot (<https://chromedevtools.github.io/devtools-protocol/tot/DOMSnapshot/>)
//! holds one `DocumentSnapshot` per frame; the first is the page. Its
//! `nodes` table has each DOM node's attributes as pairs of indexes into
//! the shared `strings` table; its `layout` table has one row per layout
//! object: the DOM node it belongs to (`nodeIndex`), its border box in
//! page coordinates (`bounds`, x y width height) and the computed values
//! of the styles asked for (`styles`, indexes into `strings`, in
//! [`COMPUTED_STYLES`] order). The page was loaded with a
//! [`NODE_ID_ATTRIBUTE`] on every element, which gives each row its
//! gleaner [`NodeId`].

use gleaner::layout::{Layout, LayoutBox, LayoutOrigin, Rect, Rgba};
use gleaner::render::NODE_ID_ATTRIBUTE;
use gleaner::{Document, Error, NodeId, Result};
use serde_json::Value;

/// The computed styles read for every layout object, in this order.
pub(crate) const COMPUTED_STYLES: [&str; 7] = [
    "font-size",
    "background-color",
    "display",
    "visibility",
    "opacity",
    "overflow-x",
    "overflow-y",
];

/// What one element's row says, before visibility is settled with the
/// ancestors.
#[derive(Debug, Clone, Copy)]
struct Row {
    rect: Rect,
    font_size: f32,
    background: Rgba,
    /// `visibility` is `visible` and `display` is not `none`.
    shown: bool,
    /// Nothing inside this element can be seen: `opacity: 0`, or a
    /// zero width or height with that axis's overflow clipped.
    hides_content: bool,
}

/// The layout of `doc` from a snapshot of its serialization.
///
/// Each element gets the box of its first layout object. An element of
/// the body with no layout object and nothing rendered inside it
/// (`display: none` and its inside) gets an empty invisible box; the
/// others with none (`<head>`, elements the snapshot lacks) get no box. An element is visible when it is rendered, its own
/// `visibility` is `visible` (the property is inherited, so this covers
/// ancestors too), and neither it nor an ancestor has `opacity: 0` or
/// clips its content to a zero width or height.
///
/// # Errors
/// [`Error::Layout`] when the snapshot does not have the protocol's shape.
pub(crate) fn layout(doc: &Document, snapshot: &Value, viewport_width: f32) -> Result<Layout> {
    let malformed = |what: &str| Error::Layout(format!("malformed DOM snapshot: {what}"));
    let strings: Vec<&str> = snapshot["strings"]
        .as_array()
        .ok_or_else(|| malformed("no strings"))?
        .iter()
        .map(|s| s.as_str().unwrap_or_default())
        .collect();
    let string = |v: &Value| v.as_u64().and_then(|i| strings.get(i as usize).copied());
    let page = &snapshot["documents"][0];
    let attributes = page["nodes"]["attributes"].as_array().ok_or_else(|| malformed("no nodes"))?;
    let gleaner_ids: Vec<Option<NodeId>> = attributes
        .iter()
        .map(|attrs| {
            let pairs = attrs.as_array()?;
            pairs.chunks(2).find_map(|pair| match pair {
                [name, value] if string(name) == Some(NODE_ID_ATTRIBUTE) => {
                    string(value)?.parse::<u32>().ok().map(NodeId)
                }
                _ => None,
            })
        })
        .collect();
    let tree = &page["layout"];
    let node_index = tree["nodeIndex"].as_array().ok_or_else(|| malformed("no layout"))?;
    let bounds = tree["bounds"].as_array().ok_or_else(|| malformed("no bounds"))?;
    let styles = tree["styles"].as_array().ok_or_else(|| malformed("no styles"))?;

    let mut rows: Vec<Option<Row>> = vec![None; doc.len()];
    for ((node, bound), style) in node_index.iter().zip(bounds).zip(styles) {
        let Some(id) = node.as_u64().and_then(|n| gleaner_ids.get(n as usize).copied().flatten())
        else {
            continue; // text, pseudo-elements, elements the browser made
        };
        let Some(slot) = rows.get_mut(id.index()).filter(|s| s.is_none()) else {
            continue; // out of range, or a second layout object
        };
        if doc.element(id).is_none() {
            continue;
        }
        let b: Vec<f32> = bound
            .as_array()
            .map_or(Vec::new(), |b| b.iter().map(|v| v.as_f64().unwrap_or(0.0) as f32).collect());
        let &[left, top, width, height] = b.as_slice() else {
            continue;
        };
        let values: Vec<&str> = style
            .as_array()
            .map_or(Vec::new(), |s| s.iter().map(|v| string(v).unwrap_or_default()).collect());
        let value = |i: usize| values.get(i).copied().unwrap_or_default();
        let rect = Rect { left, top, width, height };
        let clipped =
            |size: f32, overflow: &str| size <= 0.0 && matches!(overflow, "hidden" | "clip");
        *slot = Some(Row {
            rect,
            font_size: font_size(value(0)),
            background: color(value(1)),
            shown: value(2) != "none" && value(3) != "hidden" && value(3) != "collapse",
            hides_content: value(4).parse::<f32>().is_ok_and(|o| o <= 0.0)
                || clipped(width, value(5))
                || clipped(height, value(6)),
        });
    }

    // An element the browser parsed but did not render, with nothing
    // rendered inside it either (`display: none` and what it holds; an
    // element with `display: contents` has no box but its children do),
    // gets an invisible empty box: the page hides it.
    let mut in_snapshot = vec![false; doc.len()];
    for id in gleaner_ids.iter().flatten() {
        if let Some(flag) = in_snapshot.get_mut(id.index()) {
            *flag = true;
        }
    }
    let mut renders = vec![false; doc.len()];
    for id in doc.ids().rev() {
        let own = rows.get(id.index()).is_some_and(Option::is_some);
        let inside = renders.get(id.index()).copied().unwrap_or(false);
        let here = own || inside;
        if let (Some(parent), true) = (doc.parent(id), here) {
            if let Some(flag) = renders.get_mut(parent.index()) {
                *flag = true;
            }
        }
        if let Some(flag) = renders.get_mut(id.index()) {
            *flag = here;
        }
    }
    let body = doc.body();
    let unrendered = |id: NodeId| {
        in_snapshot[id.index()]
            && !renders[id.index()]
            && doc.element(id).is_some()
            && id != body
            && doc.contains(body, id)
    };

    let mut layout = Layout::new(doc.len(), LayoutOrigin::Browser, viewport_width);
    // Ancestors come first in document order.
    let mut hidden_inside = vec![false; doc.len()];
    for id in doc.ids() {
        let from_parent =
            doc.parent(id).is_some_and(|p| hidden_inside.get(p.index()).copied().unwrap_or(false));
        let row = rows.get(id.index()).copied().flatten();
        let hides = row.is_some_and(|r| r.hides_content);
        if let Some(flag) = hidden_inside.get_mut(id.index()) {
            *flag = from_parent || hides;
        }
        if row.is_none() && unrendered(id) {
            layout.set(
                id,
                LayoutBox {
                    rect: Rect::default(),
                    font_size: 0.0,
                    background: Rgba::TRANSPARENT,
                    visible: false,
                },
            );
        }
        if let Some(row) = row {
            let visible = row.shown && !hides && !from_parent;
            layout.set(
                id,
                LayoutBox {
                    rect: row.rect,
                    font_size: row.font_size,
                    background: row.background,
                    visible,
                },
            );
        }
    }
    Ok(layout)
}

/// A computed `font-size` (always `<number>px`); 16 if unreadable.
fn font_size(value: &str) -> f32 {
    value.strip_suffix("px").and_then(|v| v.trim().parse().ok()).unwrap_or(16.0)
}

/// A computed colour. CSS Color 4 §15 serializes sRGB colours as
/// `rgb(r, g, b)` or `rgba(r, g, b, a)` and others as
/// `color(srgb r g b / a)` or a function of their own space.
///
/// Deviation: colours in other spaces (`oklch(…)`, `lab(…)`, …) are read
/// as mid grey with their alpha, because converting them is more than the
/// block comparison needs: it tells a painted background from none.
fn color(value: &str) -> Rgba {
    Rgba::parse_css(value).unwrap_or_else(|| {
        // Another colour space (oklch, lab, …): mid grey, keeping its alpha.
        let a =
            value.split_once('/').and_then(|(_, a)| a.trim_end_matches(')').trim().parse().ok());
        Rgba {
            a: a.map_or(255, |a: f32| (a.clamp(0.0, 1.0) * 255.0).round() as u8),
            ..Rgba::rgb(128, 128, 128)
        }
    })
}

#[cfg(test)]
mod tests {
    use gleaner::ParseOptions;
    use serde_json::json;

    use super::*;

    #[test]
    fn colors() {
        assert_eq!(color("rgba(0, 0, 0, 0)"), Rgba::TRANSPARENT);
        assert_eq!(color("rgb(255, 255, 255)"), Rgba::rgb(255, 255, 255));
        assert_eq!(color("rgba(10, 20, 30, 0.5)"), Rgba { r: 10, g: 20, b: 30, a: 128 });
        assert_eq!(color("color(srgb 1 0 0.5 / 0.25)"), Rgba { r: 255, g: 0, b: 128, a: 64 });
        assert_eq!(color("oklch(0.5 0.1 200 / 0)").a, 0);
        assert_eq!(color("transparent"), Rgba::TRANSPARENT);
    }

    #[test]
    fn font_sizes() {
        assert_eq!(font_size("32px"), 32.0);
        assert_eq!(font_size("13.3333px"), 13.3333);
        assert_eq!(font_size("large"), 16.0);
    }

    /// A hand-made snapshot of `<div id=a style="opacity:0"><p>x</p></div>`:
    /// the paragraph inherits the invisibility, `head` has no row.
    #[test]
    fn rows_map_to_nodes_and_opacity_hides_descendants() {
        let doc = Document::parse_str(
            "<html><head></head><body><div><p>x</p></div></body></html>",
            &ParseOptions::default(),
        )
        .expect("parses");
        let id = |name: &str| doc.ids().find(|&i| doc.name(i).is_some_and(|n| &**n == name));
        let (body, div, p, head) = (id("body"), id("div"), id("p"), id("head"));
        let n = |i: Option<NodeId>| i.map_or(String::new(), |i| i.0.to_string());
        let strings = json!([
            NODE_ID_ATTRIBUTE,
            n(body),
            n(div),
            n(p),
            n(head),
            "16px",
            "rgba(0, 0, 0, 0)",
            "block",
            "visible",
            "1",
            "visible",
            "0",
            "32px"
        ]);
        let snapshot = json!({
            "strings": strings,
            "documents": [{
                "nodes": {"attributes": [[], [0, 1], [0, 2], [0, 3], [0, 4], []]},
                "layout": {
                    "nodeIndex": [1, 2, 3, 5],
                    "bounds": [[0, 0, 1280, 100], [8, 8, 1264, 50], [8, 8, 1264, 20], [8, 8, 5, 5]],
                    "styles": [
                        [5, 6, 7, 8, 9, 10, 10],
                        [5, 6, 7, 8, 11, 10, 10],
                        [12, 6, 7, 8, 9, 10, 10],
                        [5, 6, 7, 8, 9, 10, 10]
                    ]
                }
            }]
        });
        let layout = layout(&doc, &snapshot, 1280.0).expect("well-formed");
        let get = |i: Option<NodeId>| i.and_then(|i| layout.get(i)).copied();
        let body_box = get(body).expect("body has a box");
        assert!(body_box.visible);
        assert_eq!(body_box.rect.width, 1280.0);
        assert!(!get(div).expect("div has a box").visible);
        let p_box = get(p).expect("p has a box");
        assert!(!p_box.visible);
        assert_eq!(p_box.font_size, 32.0);
        assert!(get(head).is_none());
        assert_eq!(layout.origin(), LayoutOrigin::Browser);
    }

    #[test]
    fn malformed_snapshot_is_an_error() {
        let doc = Document::parse_str("<p>x", &ParseOptions::default()).expect("parses");
        assert!(matches!(layout(&doc, &json!({"x": 1}), 1280.0), Err(Error::Layout(_))));
    }
}
