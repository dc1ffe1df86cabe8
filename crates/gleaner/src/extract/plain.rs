//! Plain: every visible text of the page.
//!
//! The baseline of the CCB evaluation (Gottron 2008, S-2, column
//! "Plain"): the page with its markup, scripts, styles and hidden parts
//! removed. It has perfect recall by construction, so its precision shows
//! how much boilerplate a page carries.
//!
//! ```
//! use gleaner::{extract::{Extractor, Plain}, render, Document, ParseOptions};
//! let doc = Document::parse(b"<nav>Home</nav><p>Text<script>x()</script></p>", &ParseOptions::default())?;
//! assert_eq!(render::text(&doc, &Plain.extract(&doc)), "Home\n\nText");
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::extractor::Extractor;
use crate::document::Document;
use crate::selection::Selection;

/// The Plain baseline. It has no parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Extractor for Plain {
    fn extract(&self, doc: &Document) -> Selection {
        Selection::all(doc)
    }
}
