//! Any bytes: the renderers on selections no extractor would make. The
//! first byte picks every n-th text node, the rest is the page; text,
//! Markdown (with and without links and images) and clean HTML render
//! without panicking and without control characters, and the text of a
//! selection never holds more words than the text of the whole page.
#![no_main]

use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions, Selection};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, page)) = data.split_first() else { return };
    let Ok(doc) = Document::parse(page, &ParseOptions::default()) else { return };
    let step = usize::from(pick % 4) + 1;
    let mut sel = Selection::none(&doc);
    for (i, id) in doc.ids().filter(|&id| doc.is_text(id)).enumerate() {
        sel.set(id, i % step == usize::from(pick >> 6) % step);
    }
    let all = render::text(&doc, &Selection::all(&doc));
    for options in [RenderOptions::default(), RenderOptions::default().links(true).images(true)] {
        for format in [Format::Text, Format::Markdown, Format::Html] {
            let out = render::render(&doc, &sel, format, options);
            assert!(!out.chars().any(render::is_output_control), "{format:?}");
            if format == Format::Text {
                let words = |s: &str| s.split_whitespace().count();
                assert!(words(&out) <= words(&all), "a part has more words than the page");
            }
        }
    }
});
