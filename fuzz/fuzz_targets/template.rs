//! Any bytes, cut into pages at each NUL byte: fingerprints and shapes for
//! every distance, distances (in [0, 1]) and clusters, a template model
//! learned from the pages, its JSON round trip, the entropy extractor
//! with it, and ETDM's menu template. The whole input is also read as a
//! model's JSON.
#![no_main]

use std::sync::Arc;

use gleaner::extract::{Extractor, Plain};
use gleaner::template::{
    self, Distance, EtdmConfig, Fingerprint, PageShape, TemplateModel, Templated, DEFAULT_SHINGLE,
};
use gleaner::{render, Document, ParseOptions};
use libfuzzer_sys::fuzz_target;

/// At most this many pages, to keep the pairwise steps fast.
const MAX_PAGES: usize = 6;

fuzz_target!(|data: &[u8]| {
    let _ = TemplateModel::from_json(data);
    let docs: Vec<Document> = data
        .split(|&b| b == 0)
        .take(MAX_PAGES)
        .filter_map(|page| Document::parse(page, &ParseOptions::default()).ok())
        .collect();
    for doc in &docs {
        let _ = Fingerprint::of(doc, 1);
        let _ = template::model::segments(doc);
    }
    for distance in Distance::ALL {
        let shapes: Vec<PageShape> =
            docs.iter().map(|d| PageShape::of(d, distance, DEFAULT_SHINGLE)).collect();
        for a in &shapes {
            for b in &shapes {
                let d = template::page_distance(distance, a, b);
                assert!((0.0..=1.0).contains(&d), "{distance:?} distance {d}");
            }
        }
        let labels = template::cluster(&shapes, distance, distance.default_threshold());
        assert_eq!(labels.len(), shapes.len());
    }
    let model = TemplateModel::learn(&docs);
    let json = model.to_json().expect("a model serialises");
    let back = TemplateModel::from_json(json.as_bytes()).expect("its own JSON reads back");
    assert_eq!(back.to_json().expect("serialises"), json, "JSON round trip");
    let entropy = Templated::new(Plain, Arc::new(model));
    for doc in &docs {
        let _ = render::text(doc, &entropy.extract(doc));
    }
    if let Some((key, others)) = docs.split_first() {
        let others: Vec<&Document> = others.iter().collect();
        let mask = template::menu_template(key, &others, &EtdmConfig::default());
        assert_eq!(mask.len(), key.len());
        let _ = template::template_html(key, &mask);
    }
});
