//! Mozilla Readability's `expected.html`: an HTML fragment whose rendered
//! text is the truth
//! ([`GoldFormat::Readability`](super::GoldFormat::Readability)).

use gleaner::document::{Document, ParseOptions};
use gleaner::render;
use gleaner::Selection;

use crate::error::Result;

/// HTML fragment gold (Readability's `expected.html`): its rendered text.
pub(super) fn html_gold(html: &str) -> Result<String> {
    let doc = Document::parse_str(html, &ParseOptions::default())?;
    Ok(render::text(&doc, &Selection::all(&doc)).trim().to_owned())
}
