//! Extraction benchmarks: each algorithm on real fixture pages, parsed once
//! outside the timed loop. Every iteration checks that something was
//! extracted. `vce` estimates its layout inside the loop, as it does for a
//! document without one; `heuristic layout` times that estimate alone.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gleaner::extract::{self, Params};
use gleaner::layout::HeuristicLayout;
use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions};

/// Every algorithm, with the line-based ones also in `lines=blocks` mode.
const ALGORITHMS: &[(&str, &[(&str, &str)])] = &[
    ("article", &[]),
    ("plain", &[]),
    ("bte", &[]),
    ("dsc", &[]),
    ("lqf", &[]),
    ("crunch", &[]),
    ("ccb", &[]),
    ("accb", &[]),
    ("tccb", &[]),
    ("ttr", &[]),
    ("ttr", &[("lines", "blocks")]),
    ("ttr-kmeans", &[]),
    ("ttr-em", &[]),
    ("ttr-farthest-first", &[]),
    ("ttr-prediction", &[]),
    ("cetr", &[]),
    ("cetr", &[("lines", "blocks")]),
    ("vce", &[]),
    ("kfe", &[]),
];

const PAGES: &[(&str, &[u8])] = &[
    ("ars-1", include_bytes!("../../../tests/fixtures/ars-1.html")),
    ("lemonde-1", include_bytes!("../../../tests/fixtures/lemonde-1.html")),
];

fn algorithms(c: &mut Criterion) {
    for &(page, bytes) in PAGES {
        let doc = Document::parse(bytes, &ParseOptions::default()).expect("fixture parses");
        let mut group = c.benchmark_group(format!("extract/{page}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("parse (reference)", |b| {
            b.iter(|| Document::parse(black_box(bytes), &ParseOptions::default()))
        });
        // The layout `vce` estimates for itself when the document has none.
        group.bench_function("heuristic layout", |b| {
            b.iter(|| HeuristicLayout::default().estimate(black_box(&doc)))
        });
        for &(name, settings) in ALGORITHMS {
            let mut params = Params::new();
            let mut label = name.to_string();
            for (k, v) in settings {
                params = params.with(k, v);
                label.push_str(&format!(" {k}={v}"));
            }
            let extractor =
                extract::algorithm(name).and_then(|a| a.build(&params)).expect("registered");
            group.bench_function(label, |b| {
                b.iter(|| {
                    let selection = extractor.extract(black_box(&doc));
                    assert!(selection.count() > 0, "{name} extracted nothing from {page}");
                    selection
                })
            });
        }
        // The renderers, on the default extractor's selection.
        let selection = extract::by_name("article").expect("registered").extract(&doc);
        group.bench_function("render text", |b| {
            b.iter(|| render::text(black_box(&doc), &selection))
        });
        for (label, format) in
            [("render markdown", Format::Markdown), ("render html", Format::Html)]
        {
            group.bench_function(label, |b| {
                b.iter(|| {
                    render::render(black_box(&doc), &selection, format, RenderOptions::default())
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, algorithms);
criterion_main!(benches);
