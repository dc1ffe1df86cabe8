//! Parse + `Document` build throughput on the fixture pages.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
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
        b.iter(|| texts.iter().map(|t| gleaner::document::bench_tree_building(t)).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
