//! Any bytes: every extractor (line-based ones also with `lines=blocks`)
//! and every renderer run without panicking.
#![no_main]

use gleaner::extract::{self, Params};
use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = Document::parse(data, &ParseOptions::default()) else { return };
    let options = RenderOptions::default().links(true).images(true);
    let blocks = Params::new().with("lines", "blocks");
    for algorithm in extract::algorithms() {
        let mut extractors = vec![algorithm.build(&Params::new()).expect("defaults are valid")];
        extractors.extend(algorithm.build(&blocks).ok());
        for extractor in extractors {
            let sel = extractor.extract(&doc);
            for format in [Format::Text, Format::Markdown, Format::Html] {
                let _ = render::render(&doc, &sel, format, options);
            }
        }
    }
});
