//! The learned extractor's model files and bringing your own labels
//! (issue 32): `gleaner train` on a few labelled pages, `--model` on
//! `extract`, reproducible training, damaged models refused.

mod support;

use std::path::{Path, PathBuf};

use support::{gleaner, put, run, run_ok, stderr, stdout};

/// Navigation and a footer around every page.
const NAV: &str =
    "<header><nav><a href=/>Home</a> <a href=/news>News</a> <a href=/sport>Sport</a> \
                   <a href=/weather>Weather</a> <a href=/about>About us</a></nav></header>";
const FOOTER: &str = "<footer><a href=/privacy>Privacy</a> <a href=/terms>Terms</a> \
                      <a href=/contact>Contact</a></footer>";

/// A page of a town's news site: an article and, beside it, a box of key
/// facts about the town, which `article` leaves out (an `aside`) and this
/// site's labels keep.
fn page(town: &str, river: &str, year: u32, people: u32) -> (String, String) {
    let body = [
        format!(
            "The council of {town} approved a new bridge over the {river} on Tuesday, after two \
             years of planning and three public consultations with residents."
        ),
        format!(
            "Work is expected to start in the spring and to last eighteen months, during which \
             the old crossing in {town} will stay open to pedestrians and cyclists."
        ),
        format!(
            "Local businesses in {town} welcomed the decision, saying that the closure of the \
             old bridge to lorries had cost them trade for almost a decade."
        ),
    ];
    let facts = [
        format!("{town} was first chartered in {year}"),
        format!("About {people} people live in {town} today"),
        format!("The {river} floods the lower town every few winters"),
    ];
    let html = format!(
        "<!DOCTYPE html><html><head><title>{town} approves new bridge</title></head><body>{NAV}\
         <main><article><h1>{town} approves new bridge</h1>{}</article>\
         <aside class=\"factbox\"><h3>Key facts about {town}</h3><ul>{}</ul></aside></main>\
         {FOOTER}</body></html>",
        body.iter().map(|p| format!("<p>{p}</p>")).collect::<String>(),
        facts.iter().map(|f| format!("<li>{f}</li>")).collect::<String>(),
    );
    let gold = format!(
        "{town} approves new bridge\n\n{}\n\nKey facts about {town}\n\n{}",
        body.join("\n\n"),
        facts.join("\n")
    );
    (html, gold)
}

/// Three labelled pages in the layout `gleaner eval` reads (`input/`,
/// `GoldStandard/`), and a fourth page to extract.
fn labelled(dir: &Path) -> (PathBuf, PathBuf) {
    let data = dir.join("factboxes");
    let towns = [
        ("Ashford", "Stour", 1887, 74_000),
        ("Kendal", "Kent", 1575, 29_000),
        ("Ludlow", "Teme", 1461, 11_000),
    ];
    for (i, (town, river, year, people)) in towns.into_iter().enumerate() {
        let (html, gold) = page(town, river, year, people);
        put(&data, &format!("input/{i}.html"), html);
        put(&data, &format!("GoldStandard/{i}.txt"), gold);
    }
    let (html, _) = page("Hexham", "Tyne", 1239, 13_000);
    let new_page = put(dir, "hexham.html", html);

    (data, new_page)
}

fn train(data: &Path, out: &Path) {
    run_ok(gleaner().args(["train", "--no-progress", "--data"]).arg(data).arg("-o").arg(out));
}

fn extract(page: &Path, args: &[&str]) -> String {
    stdout(&run_ok(gleaner().args(["extract", "--no-progress", "-f", "txt"]).args(args).arg(page)))
}

// See: issue 32, "Done when": `--model` on a model trained on 3 handmade
// pages whose gold keeps a block the default drops keeps that block.
#[test]
fn issue_32_a_model_trained_on_three_pages_keeps_what_their_labels_keep() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, hexham) = labelled(dir.path());
    let model = dir.path().join("factboxes.model");
    train(&data, &model);
    let rules = extract(&hexham, &["-a", "article"]);
    assert!(rules.contains("Council of Hexham") || rules.contains("council of Hexham"), "{rules}");
    assert!(!rules.contains("first chartered in 1239"), "article leaves the box out: {rules}");
    let learned = extract(&hexham, &["-a", "learned", "--model", model.to_str().expect("utf-8")]);
    assert!(learned.contains("council of Hexham approved"), "{learned}");
    assert!(learned.contains("first chartered in 1239"), "the labels keep the box: {learned}");
    assert!(learned.contains("About 13000 people live in Hexham"), "{learned}");
    assert!(!learned.contains("Weather"), "the navigation stays out: {learned}");
    assert!(!learned.contains("Privacy"), "the footer stays out: {learned}");
}

// See: issue 32: training twice on the same pages writes the same model,
// byte for byte.
#[test]
fn issue_32_training_twice_gives_the_same_model() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, _) = labelled(dir.path());
    let (a, b) = (dir.path().join("a.model"), dir.path().join("b.model"));
    train(&data, &a);
    train(&data, &b);
    let (a, b) = (std::fs::read(a).expect("a"), std::fs::read(b).expect("b"));
    assert!(a.starts_with(b"GLEANLRN"), "a model file");
    assert!(a == b, "two trainings differ ({} and {} bytes)", a.len(), b.len());
}

// See: issue 32: a model says how it was trained — its datasets, options
// and how its policies were set — in its metadata.
#[test]
fn issue_32_a_model_records_how_its_policies_were_set() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, _) = labelled(dir.path());
    let bytes = |policies: &[&str]| {
        let out = dir.path().join("m.model");
        run_ok(
            gleaner()
                .args(["train", "--no-progress", "--data"])
                .arg(&data)
                .args(policies)
                .arg("-o")
                .arg(&out),
        );
        String::from_utf8_lossy(&std::fs::read(&out).expect("model")).into_owned()
    };
    let fixed = bytes(&["--policies", "fixed"]);
    assert!(fixed.contains(r#""policies":"fixed""#), "fixed");
    assert!(fixed.contains(r#""datasets":{"factboxes":3}"#), "datasets");
    assert!(bytes(&[]).contains(r#""policies":"threshold""#), "no --cv: the threshold");
}

// See: issue 32: a damaged, truncated or foreign model file is an error
// that says so, never a panic or silent output.
#[test]
fn issue_32_a_damaged_model_file_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (data, hexham) = labelled(dir.path());
    let good = dir.path().join("good.model");
    train(&data, &good);
    let bytes = std::fs::read(&good).expect("model");
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x40;
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("flipped.model", flipped, "checksum"),
        ("truncated.model", bytes[..bytes.len() / 3].to_vec(), "model"),
        ("foreign.model", b"<html>not a model</html>".to_vec(), "GLEANLRN"),
        ("empty.model", Vec::new(), "model"),
    ];
    for (name, content, says) in cases {
        let path = put(dir.path(), name, content);
        let out = run(gleaner()
            .args(["extract", "--no-progress", "-a", "learned", "--model"])
            .arg(&path)
            .arg(&hexham));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: nothing extracted");
    }
}
