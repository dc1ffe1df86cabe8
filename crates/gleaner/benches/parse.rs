//! Parse + `Document` build throughput on the fixture pages.

use criterion::black_box;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gleaner::document::stages;
use gleaner::{Document, ParseOptions};

const PAGES: &[(&str, &[u8])] = &[
    ("ars-1", include_bytes!("../../../tests/fixtures/ars-1.html")),
    ("google-sre-book-1", include_bytes!("../../../tests/fixtures/google-sre-book-1.html")),
    ("heise", include_bytes!("../../../tests/fixtures/heise.html")),
    ("herald-sun-1", include_bytes!("../../../tests/fixtures/herald-sun-1.html")),
    ("lemonde-1", include_bytes!("../../../tests/fixtures/lemonde-1.html")),
    ("medium-2", include_bytes!("../../../tests/fixtures/medium-2.html")),
];

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    let options = ParseOptions::default();
    for (name, html) in PAGES {
        group.throughput(Throughput::Bytes(html.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), html, |b, html| {
            b.iter(|| {
                let doc = Document::parse(html, &options).expect("fixture parses");
                assert!(doc.text_nodes().count() > 50);
                doc
            })
        });
    }
    let all: usize = PAGES.iter().map(|(_, h)| h.len()).sum();
    group.throughput(Throughput::Bytes(all as u64));
    group.bench_function("all-fixtures", |b| {
        b.iter(|| {
            PAGES
                .iter()
                .map(|(_, html)| Document::parse(html, &options).expect("fixture parses").len())
                .sum::<usize>()
        })
    });
    // Reference: html5ever's tree building alone, on the same bytes.
    let texts: Vec<String> =
        PAGES.iter().map(|(_, h)| String::from_utf8_lossy(h).into_owned()).collect();
    group.bench_function("html5ever-tree-building-only", |b| {
        b.iter(|| texts.iter().map(|t| stages::html5ever_tree(t)).sum::<usize>())
    });
    group.finish();
}

/// The parse one stage at a time (issue 12), so that a regression shows
/// where it came from: decoding, the source tokenizer alone, tree
/// construction (the source tokenizer feeding html5ever's tree builder,
/// with the token↔node records), statistics, dropping the document.
fn stages(c: &mut Criterion) {
    for (name, html) in PAGES {
        let mut group = c.benchmark_group(format!("stage/{name}"));
        group.throughput(Throughput::Bytes(html.len() as u64));
        let text = stages::decode(html);
        let mut doc = Document::parse(html, &ParseOptions::default()).expect("fixture parses");
        group.bench_function("decode", |b| b.iter(|| stages::decode(black_box(html))));
        group.bench_function("tokenize", |b| {
            b.iter_batched(|| text.clone(), stages::tokenize, criterion::BatchSize::SmallInput)
        });
        group.bench_function("tree", |b| b.iter(|| stages::tree(black_box(&text))));
        group.bench_function("stats", |b| b.iter(|| stages::stats(black_box(&mut doc))));
        group.bench_function("drop document", |b| {
            b.iter_batched(|| doc.clone(), drop, criterion::BatchSize::SmallInput)
        });
        group.finish();
    }
}

criterion_group!(benches, parse, stages);
criterion_main!(benches);
