//! Any bytes: parsing never panics, and a parsed page renders its full
//! text and title.
#![no_main]

use gleaner::{render, Document, ParseOptions, Selection};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = Document::parse(data, &ParseOptions::default()) else { return };
    let _ = gleaner::metadata::title(&doc);
    let _ = render::text(&doc, &Selection::all(&doc));
});
