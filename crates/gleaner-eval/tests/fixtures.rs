//! Real pages with gold text (`tests/fixtures/`, from the Readability test
//! suite): the DOM methods must beat Plain, and the source view must align
//! with the DOM. The per-algorithm F1 floors are in
//! `accuracy.rs`.

use std::path::PathBuf;

use gleaner::{extract, render, Document, ParseOptions};

fn fixtures() -> Vec<(String, Vec<u8>, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixtures dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "html") {
            let stem = path.file_stem().and_then(|s| s.to_str()).expect("name").to_string();
            let html = std::fs::read(&path).expect("html");
            let gold = std::fs::read_to_string(dir.join(format!("{stem}.gold.txt"))).expect("gold");
            out.push((stem, html, gold));
        }
    }
    out.sort();
    assert!(out.len() >= 5, "fixtures missing");
    out
}

/// Gottron's word-sequence LCS F1 (the evaluation metric of the papers).
fn f1(extracted: &str, gold: &str) -> f64 {
    gleaner_eval::lcs_prf(extracted, gold).map_or(0.0, |p| p.f1)
}

fn mean_f1(algorithm: &str) -> f64 {
    let extractor = extract::by_name(algorithm).expect("algorithm");
    let pages = fixtures();
    let mut sum = 0.0;
    for (name, html, gold) in &pages {
        let doc = Document::parse(html, &ParseOptions::default()).expect("parse");
        let text = render::text(&doc, &extractor.extract(&doc));
        let score = f1(&text, gold);
        println!("{algorithm:8} {name:20} F1 {score:.3}");
        sum += score;
    }
    sum / pages.len() as f64
}

#[test]
fn plain_keeps_everything() {
    // Plain has perfect recall; its F1 is the floor every method must beat.
    assert!(mean_f1("plain") > 0.7);
}

#[test]
fn methods_beat_plain() {
    let plain = mean_f1("plain");
    for a in ["article", "bte", "dsc", "lqf", "crunch"] {
        assert!(mean_f1(a) > plain, "{a} not above plain");
    }
}

#[test]
fn source_text_maps_to_the_dom() {
    for (name, html, _) in fixtures() {
        let doc = Document::parse(&html, &ParseOptions::default()).expect("parse");
        let share = doc.source().mapped_share();
        println!("{name:20} mapped {share:.4}");
        // Exact by construction: only text the tree builder drops (in a
        // frameset, a template's content) could stay unmapped.
        assert!(share > 0.999, "{name}: only {share:.4} of the source text mapped");
    }
}
