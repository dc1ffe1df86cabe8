//! The source-level and Crunch algorithms on the real fixture pages
//! (`tests/fixtures/*.html` with `*.gold.txt`): an accuracy floor per
//! algorithm with the LCS F1, and robustness on hostile pages (one
//! 5 MB line, no text at all).
//!
//! Run with `--nocapture` to see the measured table.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gleaner::extract::{self, Params};
use gleaner::{render, Document, ParseOptions};

/// Every algorithm with the mean LCS F1 floor it must reach on the fixtures
/// (a little below what was measured when it was added).
const FLOORS: &[(&str, f64)] = &[
    ("article", 0.95),
    ("bte", 0.83),
    ("dsc", 0.88),
    ("lqf", 0.87),
    ("crunch", 0.9),
    ("ccb", 0.83),
    ("accb", 0.81),
    ("tccb", 0.87),
    ("ttr", 0.79),
    ("ttr-kmeans", 0.78),
    ("ttr-em", 0.86),
    ("ttr-farthest-first", 0.77),
    ("ttr-prediction", 0.74),
    ("cetr", 0.87),
];

/// Baselines printed for comparison.
const BASELINES: &[&str] = &["plain"];

fn fixtures() -> Vec<(String, Document, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter_map(|n| n.strip_suffix(".gold.txt").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "fixtures missing in {}", dir.display());
    names
        .into_iter()
        .map(|name| {
            let html = std::fs::read(dir.join(format!("{name}.html"))).expect("page");
            let gold = std::fs::read_to_string(dir.join(format!("{name}.gold.txt"))).expect("gold");
            let doc = Document::parse(&html, &ParseOptions::default()).expect("parse");
            (name, doc, gold)
        })
        .collect()
}

/// Gottron's word-sequence LCS precision, recall and F1 (the papers'
/// metric, `gleaner_eval::lcs_prf`).
fn prf(got: &str, gold: &str) -> (f64, f64, f64) {
    gleaner_eval::lcs_prf(got, gold).map_or((0.0, 0.0, 0.0), |p| (p.precision, p.recall, p.f1))
}

/// Mean (P, R, F1) of one configured algorithm over the fixtures, printing
/// one row.
fn evaluate(
    label: &str,
    name: &str,
    params: &Params,
    pages: &[(String, Document, String)],
) -> (f64, f64, f64) {
    let extractor = extract::algorithm(name).and_then(|a| a.build(params)).expect("build");
    let mut row = format!("{label:<32}");
    let mut sum = (0.0, 0.0, 0.0);
    for (_, doc, gold) in pages {
        let out = render::text(doc, &extractor.extract(doc));
        let (p, r, f) = prf(&out, gold);
        row.push_str(&format!(" {f:>6.3}"));
        sum = (sum.0 + p, sum.1 + r, sum.2 + f);
    }
    let n = pages.len() as f64;
    let mean = (sum.0 / n, sum.1 / n, sum.2 / n);
    println!("{row}  | P {:.3} R {:.3} F1 {:.3}", mean.0, mean.1, mean.2);
    mean
}

#[test]
fn every_algorithm_reaches_its_f1_floor_on_the_fixtures() {
    let pages = fixtures();
    let header: String = pages.iter().map(|(n, _, _)| format!(" {:>6.6}", n)).collect();
    println!("{:<32}{header}  | mean", "algorithm (LCS F1)");
    let none = Params::new();
    for name in BASELINES {
        evaluate(name, name, &none, &pages);
    }
    let mut failures = Vec::new();
    for &(name, floor) in FLOORS {
        let (_, _, f1) = evaluate(name, name, &none, &pages);
        if f1 < floor {
            failures.push(format!("{name}: mean F1 {f1:.3} < floor {floor}"));
        }
    }
    // The virtual-line option, measured for the line-based methods.
    let blocks = Params::new().with("lines", "blocks");
    for &(name, _) in FLOORS.iter().filter(|(n, _)| n.starts_with("ttr") || *n == "cetr") {
        evaluate(&format!("{name} lines=blocks"), name, &blocks, &pages);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every new algorithm once on a 5 MB page that is a single line, and on
/// pages without text: no panic, nothing quadratic.
#[test]
fn one_line_five_megabyte_page_and_empty_pages() {
    let unit = "<div class=\"item\"><a href=\"/x\">link</a> some words &amp; more text here.</div>";
    let mut html = String::from("<html><body>");
    while html.len() < 5 << 20 {
        html.push_str(unit);
    }
    html.push_str("</body></html>");
    assert!(!html.contains('\n'));
    let big = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
    let empties: Vec<Document> = ["", "<html><body></body></html>", "<div><img></div>", "\n\n"]
        .iter()
        .map(|h| Document::parse(h.as_bytes(), &ParseOptions::default()).expect("parse"))
        .collect();
    let variants = [Params::new(), Params::new().with("lines", "blocks")];
    for &(name, _) in FLOORS {
        let line_based = name.starts_with("ttr") || name == "cetr";
        for params in variants.iter().take(if line_based { 2 } else { 1 }) {
            let extractor = extract::algorithm(name).and_then(|a| a.build(params)).expect("build");
            let started = Instant::now();
            let sel = extractor.extract(&big);
            let took = started.elapsed();
            println!("{name} {params:?}: {took:?}, {} nodes", sel.count());
            // Linear work is well under a second even unoptimised; a
            // quadratic algorithm would take hours on 5 MB.
            assert!(took < Duration::from_secs(30), "{name} took {took:?}");
            for doc in &empties {
                assert_eq!(extractor.extract(doc).count(), 0, "{name}");
            }
        }
    }
}
