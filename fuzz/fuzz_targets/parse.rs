//! Any bytes: parsing never panics (also with a small nesting cap, a
//! forced encoding and every attribute kept), and a parsed page gives its
//! title, frames, full text and node-id serialisation.
#![no_main]

use gleaner::{metadata, render, Document, ParseOptions, Selection};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = [
        ParseOptions::default(),
        ParseOptions::default()
            .max_nesting(8)
            .keep_all_attributes(true)
            .encoding(gleaner::document::encoding_for_label("windows-1252")),
    ];
    for options in &options {
        let Ok(doc) = Document::parse(data, options) else { continue };
        let _ = metadata::title(&doc);
        let _ = metadata::frameset_sources(&doc);
        let text = render::text(&doc, &Selection::all(&doc));
        assert!(!text.chars().any(render::is_output_control), "control character in text");
        let _ = render::html_with_node_ids(&doc);
    }
});
