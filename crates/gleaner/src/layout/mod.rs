//! Page layout: each element's box, font size, background colour and
//! visibility, as a browser would render the page.
//!
//! The Visual Clustering Extractor (Asfia et al. 2010, S-4,
//! `docs/algorithms.md#vce`) reads the page as a person sees it; its block
//! tree compares an element's *visual style vector* (width, height, font
//! size, background colour, top, left) with its parent's. A [`Layout`] holds that vector
//! for every element of a [`Document`], by [`NodeId`](crate::NodeId), and travels with
//! the document ([`Document::with_layout`]) so any extractor may read it.
//!
//! Where a layout comes from is a [`LayoutProvider`]:
//! - a real browser (the `gleaner-browser` crate: Chromium over the
//!   DevTools protocol, [`LayoutOrigin::Browser`]);
//! - an estimate from the HTML alone ([`HeuristicLayout`],
//!   [`LayoutOrigin::Heuristic`]), which needs no browser and is what extractors fall back on when a document
//!   carries no layout.
//!
//! Coordinates are CSS pixels from the top-left corner of the page (not
//! the viewport), as `DOMSnapshot.captureSnapshot` reports them.
//!
//! The boxes ([`Layout`], [`LayoutBox`], [`Rect`], [`Rgba`]) are data that
//! a document carries, so they are kept with the document (re-exported
//! here); this module holds what makes them, and reads the document, so
//! imports run one way: layout → document.

mod heuristic;

pub use self::heuristic::{HeuristicConfig, HeuristicLayout};
use crate::document::Document;
pub use crate::document::{Layout, LayoutBox, LayoutOrigin, Rect, Rgba};
use crate::error::Result;

/// Something that lays out a document: a browser, or an estimate.
pub trait LayoutProvider: Send + Sync {
    /// The layout of `doc`, with a slot for each of its nodes.
    ///
    /// # Errors
    /// [`Error::Layout`](crate::Error::Layout) when the provider cannot
    /// lay the page out (the browser is missing, crashed or timed out).
    fn layout(&self, doc: &Document) -> Result<Layout>;

    /// What kind of layout this provider makes.
    fn origin(&self) -> LayoutOrigin;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{render, NodeId, ParseOptions};

    /// A browser's layout of `doc`: a box for every element, visible
    /// where `visible` says.
    fn boxes(doc: &Document, visible: impl Fn(NodeId) -> bool) -> Layout {
        let mut layout = Layout::new(doc.len(), LayoutOrigin::Browser, 1280.0);
        for id in doc.ids().filter(|&id| doc.element(id).is_some()) {
            layout.set(
                id,
                LayoutBox {
                    rect: Rect { left: 0.0, top: 0.0, width: 800.0, height: 20.0 },
                    font_size: 16.0,
                    background: Rgba::TRANSPARENT,
                    visible: visible(id),
                },
            );
        }
        layout
    }

    #[test]
    fn text_the_layout_hides_is_set_aside_for_every_extractor() {
        let html = "<body><div id=modal><p>Accept our cookies now</p></div>\
                    <article><p>The story itself, told at length.</p></article></body>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let layout = boxes(&doc, |id| doc.attr(id, "id") != Some("modal"));
        let laid_out = doc.clone().with_layout(layout);
        assert!(laid_out.layout().is_some());
        assert_eq!(laid_out.text_content(laid_out.body()), "The story itself, told at length.");
        let plain = crate::extract::by_name("plain").expect("plain").extract(&laid_out);
        assert_eq!(render::text(&laid_out, &plain), "The story itself, told at length.");
        // A page that hides most of its text is shown by its scripts:
        // nothing is set aside.
        let all_hidden = boxes(&doc, |_| false);
        let revealed = doc.clone().with_layout(all_hidden);
        assert_eq!(revealed.text_content(revealed.body()), doc.text_content(doc.body()));
        assert!(revealed
            .layout()
            .is_some_and(|l| l.get(revealed.body()).is_some_and(|b| b.visible)));
        // A layout for another document is ignored.
        let other = Layout::new(3, LayoutOrigin::Heuristic, 1280.0);
        assert!(doc.with_layout(other).layout().is_none());
    }

    #[test]
    fn a_hidden_tab_panel_is_read_with_a_layout_as_without() {
        // A browser gives the hidden tab and what it holds invisible
        // boxes; it is read all the same, as the parse reads it. The
        // modal beside it is not.
        let html = "<body><div role=tabpanel hidden><p>Specifications in a tab</p></div>\
                    <div class=modal><p>Accept our cookies now</p></div>\
                    <article><p>The story itself, told at length and then some more.</p>\
                    <p>And a second paragraph of the story, long as well.</p></article></body>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let layout = boxes(&doc, |id| {
            let in_box = |name: &str| {
                std::iter::once(id).chain(doc.ancestors(id)).any(|a| {
                    doc.attr(a, "role") == Some(name) || doc.attr(a, "class") == Some(name)
                })
            };
            !in_box("tabpanel") && !in_box("modal")
        });
        let laid_out = doc.clone().with_layout(layout);
        let text = laid_out.text_content(laid_out.body());
        assert!(text.contains("Specifications in a tab"), "{text}");
        assert!(!text.contains("cookies"), "{text}");
        assert_eq!(text, doc.text_content(doc.body()).replace("Accept our cookies now", ""));
    }
}
