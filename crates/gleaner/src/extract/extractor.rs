//! The [`Extractor`] trait every algorithm implements, and what it
//! returns ([`Extraction`]).

use std::fmt;

use super::learned;
use crate::document::Document;
use crate::metadata::Metadata;
use crate::selection::Selection;

/// A main-content extractor.
pub trait Extractor: Send + Sync + fmt::Debug {
    /// Decides which text nodes of `doc` are main content.
    fn extract(&self, doc: &Document) -> Selection;

    /// [`Extractor::extract`] and, for an extractor that tells page types
    /// apart ([`learned`]), the page's type and its probability.
    fn extract_typed(&self, doc: &Document) -> Extraction {
        Extraction { selection: self.extract(doc), page_type: None, type_probabilities: None }
    }

    /// [`Extractor::extract_typed`] for a caller that has already read the
    /// page's metadata, which an extractor reading it too may reuse.
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        let _ = metadata;
        self.extract_typed(doc)
    }

    /// [`Extractor::extract_typed_with`] with the page's type told
    /// whatever the extractor: its own, or else the compiled-in
    /// classifier's probabilities ([`learned::classify`]), which a
    /// record's `page_type` reads. `article` overrides it to read the page
    /// once for both, as the classifier reads `article`'s decision.
    fn extract_classified_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        with_page_type(self.extract_typed_with(doc, metadata), doc, metadata)
    }
}

/// `extraction` with the compiled-in classifier's probabilities
/// ([`learned::classify`]) when it tells no page type of its own: what
/// [`Extractor::extract_classified_with`] does unless overridden.
pub fn with_page_type(
    mut extraction: Extraction,
    doc: &Document,
    metadata: &Metadata,
) -> Extraction {
    if extraction.page_type.is_none() && extraction.type_probabilities.is_none() {
        extraction.type_probabilities = learned::classify(doc, metadata);
    }
    extraction
}

/// What [`Extractor::extract_typed`] decided.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// The main content.
    pub selection: Selection,
    /// The page's type and its probability, when the extractor tells.
    pub page_type: Option<(learned::PageType, f32)>,
    /// Every type's probability, when a classifier (not a forced type)
    /// decided, in [`learned::PAGE_TYPES`] order.
    pub type_probabilities: Option<[f32; 7]>,
}

impl<E: Extractor + ?Sized> Extractor for Box<E> {
    fn extract(&self, doc: &Document) -> Selection {
        (**self).extract(doc)
    }

    fn extract_typed(&self, doc: &Document) -> Extraction {
        (**self).extract_typed(doc)
    }
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_typed_with(doc, metadata)
    }

    fn extract_classified_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_classified_with(doc, metadata)
    }
}

impl<E: Extractor + ?Sized> Extractor for &E {
    fn extract(&self, doc: &Document) -> Selection {
        (**self).extract(doc)
    }

    fn extract_typed(&self, doc: &Document) -> Extraction {
        (**self).extract_typed(doc)
    }
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_typed_with(doc, metadata)
    }

    fn extract_classified_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_classified_with(doc, metadata)
    }
}
