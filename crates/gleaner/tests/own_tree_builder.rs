//! Differential test of gleaner's own tree builder (issue 12) against
//! html5ever's over every page of the dev datasets
//! (`../shared/data/wceb/*/input/`): both fed by gleaner's tokenizer, every
//! attribute and comment kept, the trees compared in the html5lib dump
//! format. Slow in a debug build, so ignored by default:
//!
//! ```text
//! cargo test --release -p gleaner --test own_tree_builder -- --ignored --nocapture
//! ```
//!
//! When the datasets are missing the test says so and passes.

use std::path::PathBuf;

use gleaner::document::conformance::{gleaner_tree, own_tree};
use gleaner::document::stages::decode;

fn datasets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wceb")
}

#[test]
#[ignore = "3 000 pages: run with --release -- --ignored"]
fn own_tree_builder_builds_html5evers_trees_on_the_dev_pages() {
    let Ok(sets) = std::fs::read_dir(datasets()) else {
        eprintln!("datasets not found at {}: skipped", datasets().display());
        return;
    };
    let mut pages: Vec<PathBuf> = sets
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_dir(e.path().join("input")).ok())
        .flat_map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())))
        .collect();
    pages.sort();
    let mut different = Vec::new();
    for page in &pages {
        let Ok(bytes) = std::fs::read(page) else { continue };
        let text = decode(&bytes);
        if own_tree(&text, true) != gleaner_tree(&text, true) {
            different.push(page.display().to_string());
        }
    }
    println!(
        "own tree builder: {} of {} dev pages build html5ever's tree",
        pages.len() - different.len(),
        pages.len()
    );
    assert!(different.is_empty(), "trees differ on {} pages: {different:?}", different.len());
}
