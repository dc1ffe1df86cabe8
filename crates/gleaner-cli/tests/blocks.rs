//! `gleaner blocks` (VCE's block tree as JSON and as a picture) and the
//! visual extractors `vce` and `kfe` through `gleaner extract`, on a
//! fixture page.

use std::path::{Path, PathBuf};

mod support;
use support::{gleaner, run, run_ok, stdout};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

#[test]
fn blocks_json_has_every_vector_and_one_main_block() {
    let out = run_ok(gleaner().arg("blocks").arg(fixture("heise.html")));
    let tree: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(tree["layout"], "heuristic");
    let blocks = tree["blocks"].as_array().expect("blocks");
    assert!(blocks.len() > 10);
    let main = tree["main"].as_u64().expect("a main block") as usize;
    for key in [
        "text_length",
        "link_text_length",
        "link_density",
        "width",
        "height",
        "avg_font_size",
        "top",
        "bottom",
        "repeated_patterns",
        "is_valid",
        "factor_value",
    ] {
        assert!(blocks.iter().all(|b| !b[key].is_null()), "{key}");
    }
    let mains: Vec<usize> = (0..blocks.len()).filter(|&i| blocks[i]["is_main"] == true).collect();
    assert_eq!(mains, [main]);
    let best = blocks
        .iter()
        .filter(|b| b["is_valid"] == true)
        .map(|b| b["factor_value"].as_f64().expect("number"))
        .fold(0.0, f64::max);
    assert_eq!(blocks[main]["factor_value"].as_f64(), Some(best));
}

#[test]
fn blocks_html_draws_boxes_and_outlines_the_main_block() {
    let dir = tempfile::tempdir().expect("tempdir");
    let picture = dir.path().join("blocks.html");
    run_ok(
        gleaner()
            .arg("blocks")
            .arg(fixture("heise.html"))
            .args(["--format", "html", "-o"])
            .arg(&picture),
    );
    let html = std::fs::read_to_string(&picture).expect("picture");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("class=\"b main\"").count(), 1);
    assert!(html.matches("class=\"b").count() > 10);
    assert!(html.contains("position:absolute") && html.contains("FactorValue"));
}

#[test]
fn blocks_rejects_unknown_parameters_and_browser_without_support() {
    let out = run(gleaner().arg("blocks").arg(fixture("heise.html")).args(["-p", "nope=1"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn inspect_vce_links_the_blocks_picture() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report.html");
    run_ok(
        gleaner().args(["inspect", "-a", "vce"]).arg(fixture("heise.html")).arg("-o").arg(&report),
    );
    let html = std::fs::read_to_string(&report).expect("report");
    assert!(html.contains("href=\"report.blocks.html\""), "no link to the picture");
    assert!(dir.path().join("report.blocks.html").exists());
}

#[test]
fn extract_with_vce_and_kfe() {
    for algorithm in ["vce", "kfe"] {
        let out = run_ok(gleaner().args(["extract", "-a", algorithm]).arg(fixture("heise.html")));
        let text = stdout(&out);
        assert!(text.contains("AgileBits hat Version 5.3"), "{algorithm}: {text}");
    }
    let out = run_ok(
        gleaner()
            .args(["extract", "-a", "vce", "--layout", "heuristic"])
            .arg(fixture("heise.html")),
    );
    assert!(stdout(&out).contains("AgileBits"));
}
