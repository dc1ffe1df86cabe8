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
    use crate::{render, ParseOptions};

    #[test]
    fn text_the_layout_hides_is_set_aside_for_every_extractor() {
        let html = "<body><div id=modal><p>Accept our cookies now</p></div>\
                    <article><p>The story itself, told at length.</p></article></body>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let mut layout = Layout::new(doc.len(), LayoutOrigin::Browser, 1280.0);
        let shown = LayoutBox {
            rect: Rect { left: 0.0, top: 0.0, width: 800.0, height: 20.0 },
            font_size: 16.0,
            background: Rgba::TRANSPARENT,
            visible: true,
        };
        for id in doc.ids().filter(|&id| doc.element(id).is_some()) {
            let modal = doc.attr(id, "id") == Some("modal");
            layout.set(id, LayoutBox { visible: !modal, ..shown });
        }
        let laid_out = doc.clone().with_layout(layout);
        assert!(laid_out.layout().is_some());
        assert_eq!(laid_out.text_content(laid_out.body()), "The story itself, told at length.");
        let plain = crate::extract::by_name("plain").expect("plain").extract(&laid_out);
        assert_eq!(render::text(&laid_out, &plain), "The story itself, told at length.");
        // A page that hides most of its text is shown by its scripts:
        // nothing is set aside.
        let mut all_hidden = Layout::new(doc.len(), LayoutOrigin::Browser, 1280.0);
        for id in doc.ids().filter(|&id| doc.element(id).is_some()) {
            all_hidden.set(id, LayoutBox { visible: false, ..shown });
        }
        let revealed = doc.clone().with_layout(all_hidden);
        assert_eq!(revealed.text_content(revealed.body()), doc.text_content(doc.body()));
        assert!(revealed
            .layout()
            .is_some_and(|l| l.get(revealed.body()).is_some_and(|b| b.visible)));
        // A layout for another document is ignored.
        let other = Layout::new(3, LayoutOrigin::Heuristic, 1280.0);
        assert!(doc.with_layout(other).layout().is_none());
    }
}
