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
