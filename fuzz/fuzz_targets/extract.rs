//! Any bytes: every registered extractor (line-based ones also with
//! `lines=blocks`; `entropy` inside `Templated` with a model learned from
//! the page itself) and every renderer run without panicking, select
//! only nodes of the page and print no control characters.
#![no_main]

use std::sync::Arc;

use gleaner::extract::{self, Extractor, Params};
use gleaner::render::{self, Format, RenderOptions};
use gleaner::template::{TemplateModel, Templated};
use gleaner::{Document, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = Document::parse(data, &ParseOptions::default()) else { return };
    let options = RenderOptions::default().links(true).images(true);
    let blocks = Params::new().with("lines", "blocks");
    let model = Arc::new(TemplateModel::learn([&doc, &doc, &doc]));
    for algorithm in extract::algorithms() {
        let mut extractors = vec![algorithm.build(&Params::new()).expect("defaults are valid")];
        extractors.extend(algorithm.build(&blocks).ok());
        if algorithm.capabilities.needs_template {
            let inner = algorithm.build(&Params::new()).expect("defaults are valid");
            extractors.push(Box::new(Templated::new(inner, Arc::clone(&model))));
        }
        for extractor in extractors {
            let sel = extractor.extract(&doc);
            assert!(sel.iter().all(|id| id.index() < doc.len()), "{}", algorithm.name);
            for format in [Format::Text, Format::Markdown, Format::Html] {
                let out = render::render(&doc, &sel, format, options);
                assert!(!out.chars().any(render::is_output_control), "{}", algorithm.name);
            }
        }
    }
});
