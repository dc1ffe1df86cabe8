//! Output formats for corpus tools (issue 36): `-f csv` read back by
//! Python's `csv` module equals the JSON Lines records, key for key.

use std::path::Path;
use std::process::Command;

fn fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    pages.sort();
    pages
}

fn extract(format: &str, inputs: &[String]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "-f", format, "--no-progress"])
        .args(inputs)
        .output()
        .expect("gleaner runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Python's reading of a CSV against the JSON Lines, cell by cell: a
/// null is an empty cell, a string itself, anything else its JSON.
const COMPARE: &str = r#"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
records = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(rows) == len(records), (len(rows), len(records))
def cell(v):
    if v is None: return ""
    if isinstance(v, str): return v
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
for row, record in zip(rows, records):
    for key, value in record.items():
        assert key in row, key
        assert row[key] == cell(value), (key, row[key][:80], cell(value)[:80])
print(len(rows))
"#;

#[test]
fn issue_36_csv_read_back_by_python_equals_the_jsonl_records() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!(
            "skipped: issue_36_csv_read_back_by_python_equals_the_jsonl_records: needs python3"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("gleaner-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut inputs = fixtures();
    // A failed record (binary junk) is a row too, its error in `error`.
    let junk = dir.join("junk.html");
    std::fs::write(&junk, [0u8, 159, 146, 150, 0, 1, 2, 3].repeat(64)).expect("junk");
    inputs.push(junk.to_string_lossy().into_owned());
    let csv_path = dir.join("out.csv");
    let jsonl_path = dir.join("out.jsonl");
    std::fs::write(&csv_path, extract("csv", &inputs)).expect("csv");
    std::fs::write(&jsonl_path, extract("jsonl", &inputs)).expect("jsonl");
    let out = Command::new("python3")
        .args(["-c", COMPARE])
        .arg(&csv_path)
        .arg(&jsonl_path)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), inputs.len().to_string());
}

fn records(args: &[&str], inputs: &[String]) -> (Vec<serde_json::Value>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "-f", "jsonl", "--no-progress"])
        .args(args)
        .args(inputs)
        .output()
        .expect("gleaner runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let records = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect();
    (records, stderr)
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn issue_36_every_record_has_a_fingerprint_and_near_duplicates_go() {
    let dir = std::env::temp_dir().join(format!("gleaner-dedup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ars = std::fs::read_to_string(fixture("ars-1.html")).expect("fixture");
    // The same story under another name, with another footer.
    let copy = dir.join("ars-copy.html");
    std::fs::write(&copy, ars.replace("</body>", "<footer>Mirror</footer></body>")).expect("copy");
    let inputs =
        vec![fixture("ars-1.html"), fixture("heise.html"), copy.to_string_lossy().into_owned()];
    let (all, _) = records(&[], &inputs);
    let prints: Vec<&str> = all.iter().map(|r| r["fingerprint"].as_str().unwrap_or("")).collect();
    assert!(prints.iter().all(|p| p.len() == 16 && p.bytes().all(|b| b.is_ascii_hexdigit())));
    let (kept, stderr) = records(&["--dedup-documents"], &inputs);
    let _ = std::fs::remove_dir_all(&dir);
    let sources: Vec<&str> = kept.iter().map(|r| r["source"].as_str().unwrap_or("")).collect();
    assert_eq!(sources, [inputs[0].as_str(), inputs[1].as_str()], "{stderr}");
    assert!(stderr.contains("1 duplicate"), "{stderr}");
}

#[test]
fn issue_36_length_type_and_language_filters() {
    let inputs = fixtures();
    let (none, stderr) = records(&["--keep-page-types", "forum,product"], &inputs);
    assert!(none.is_empty() && stderr.contains("page-type"), "{stderr}");
    let (long, _) = records(&["--min-words", "100000"], &inputs);
    assert!(long.is_empty());
    let (all, _) = records(&["--min-words", "20"], &inputs);
    assert_eq!(all.len(), inputs.len());
    // Le Monde's page is French, heise's German, the others English.
    let (marked, _) = records(&["--target-language", "fr"], &inputs);
    assert_eq!(marked.len(), inputs.len());
    for r in &marked {
        let french = r["source"].as_str().is_some_and(|s| s.contains("lemonde"));
        assert_eq!(r["error"].is_null(), french, "{}: {}", r["source"], r["error"]);
        if !french {
            assert_eq!(r["error"], "language");
        }
    }
    let (only, _) = records(&["--target-language", "fr,de", "--skip-other-languages"], &inputs);
    let mut sources: Vec<&str> = only.iter().map(|r| r["source"].as_str().unwrap_or("")).collect();
    sources.sort();
    assert_eq!(sources, [fixture("heise.html").as_str(), fixture("lemonde-1.html").as_str()]);
    let bad = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "--target-language", "english", &inputs[0]])
        .output()
        .expect("gleaner runs");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn issue_36_deduplicate_is_deterministic_in_input_order() {
    let dir = std::env::temp_dir().join(format!("gleaner-paragraphs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let words = ["harbour", "meadow", "lantern", "quarry", "orchard", "glacier", "canyon"];
    let mut inputs = Vec::new();
    for i in 0..60 {
        let w = |k: usize| words[(i * 3 + k) % words.len()];
        let html = format!(
            "<html><head><title>Story {i}</title></head><body><article><h1>Story {i}</h1>\
             <p>Story {i} begins at the {a} where {b} and {c} meet, told in words of its own \
             for the {i}th time, with details only this page has.</p>\
             <p>Subscribe to the weekly letter of the valley news for more stories.</p>\
             <p>It ends at the {c} near the {a}, page {i}, after a long day of walking.</p>\
             </article></body></html>",
            a = w(0),
            b = w(1),
            c = w(2),
        );
        let path = dir.join(format!("p{i:03}.html"));
        std::fs::write(&path, html).expect("page");
        inputs.push(path.to_string_lossy().into_owned());
    }
    let run = || records(&["--deduplicate", "--parallel", "2"], &inputs).0;
    let first = run();
    let second = run();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(first, second, "same inputs, same order: same output");
    let with_boilerplate: Vec<usize> = first
        .iter()
        .enumerate()
        .filter(|(_, r)| r["text"].as_str().is_some_and(|t| t.contains("weekly letter")))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(with_boilerplate, [0, 1], "kept in the first two records only");
    assert!(first.iter().all(|r| r["text"].as_str().is_some_and(|t| t.contains("It ends at"))));
    let md = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "--deduplicate", "-f", "markdown", &fixture("ars-1.html")])
        .output()
        .expect("gleaner runs");
    assert_eq!(md.status.code(), Some(2));
}
