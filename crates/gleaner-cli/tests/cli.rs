//! The command-line contract, driven through the real binary: formats,
//! stdin, `-o`, `--input-dir`, failed records and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn gleaner() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gleaner"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("gleaner runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

const ARTICLE: &str = "<html><head><title>Storm hits the coast | Daily Planet</title></head><body>\
    <ul><li><a href=/>Home</a></li><li><a href=/w>World</a></li><li><a href=/s>Sport</a></li></ul>\
    <h1>Storm hits the coast</h1>\
    <p>A powerful storm reached the coast on Monday, bringing heavy rain and strong winds to towns along the shore.</p>\
    <p>Officials said that thousands of homes were without power and that schools would stay closed until Wednesday.</p>\
    <ul><li><a href=/i>Imprint</a></li><li><a href=/p>Privacy</a></li></ul></body></html>";

#[test]
fn extracts_a_fixture_to_stdout() {
    let out = run(gleaner().arg("extract").arg(fixture("heise.html")));
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("AgileBits hat Version 5.3"), "{text}");
    assert!(!text.contains("Zeitschriften-Abo"), "navigation leaked");
}

#[test]
fn reads_stdin() {
    let mut child = gleaner()
        .args(["extract", "-", "--algorithm", "lqf"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(ARTICLE.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with("Storm hits the coast\n\nA powerful storm"), "{text}");
    assert!(!text.contains("Imprint"));
}

#[test]
fn jsonl_has_one_record_per_input_even_for_failures() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.html"), ARTICLE).expect("write");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    std::fs::write(dir.path().join("sub/b.htm"), "<p>Second page with some words in it.</p>")
        .expect("write");
    std::fs::write(dir.path().join("sub/c.html"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").expect("write");
    std::fs::write(dir.path().join("ignored.txt"), "not a page").expect("write");
    let out = run(gleaner()
        .args(["extract", "--output-format", "jsonl", "--algorithm", "plain", "--input-dir"])
        .arg(dir.path()));
    assert!(out.status.success(), "a failed record does not fail the batch");
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(lines.len(), 3);
    for record in &lines {
        for key in ["source", "title", "text", "algorithm", "error"] {
            assert!(record.get(key).is_some(), "{key} missing in {record}");
        }
        assert_eq!(record["algorithm"], "plain");
    }
    assert!(lines[0]["source"].as_str().expect("source").ends_with("a.html"));
    assert_eq!(lines[0]["title"], "Storm hits the coast");
    assert!(lines[0]["error"].is_null());
    assert!(lines[1]["text"].as_str().expect("text").contains("Second page"));
    assert!(lines[2]["error"].as_str().expect("error").contains("PNG"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 pages, 1 failed"), "{stderr}");
}

#[test]
fn output_dir_mirrors_names() {
    let src = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(src.path().join("x/y")).expect("mkdir");
    std::fs::write(src.path().join("x/y/page.html"), ARTICLE).expect("write");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(ARTICLE.as_bytes()).expect("gzip");
    std::fs::write(src.path().join("x/zipped.html.gz"), gz.finish().expect("gzip")).expect("write");
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = run(gleaner()
        .args(["extract", "-a", "lqf", "--output-format", "markdown", "--input-dir"])
        .arg(src.path())
        .arg("-o")
        .arg(out_dir.path()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(out_dir.path().join("x/y/page.md")).expect("page.md");
    assert!(md.contains("# Storm hits the coast"), "{md}");
    let md = std::fs::read_to_string(out_dir.path().join("x/zipped.md")).expect("zipped.md");
    assert!(md.contains("A powerful storm"));
}

#[test]
fn json_is_an_object_for_one_input_and_an_array_for_several() {
    let one = run(gleaner().args(["extract", "-f", "json"]).arg(fixture("ars-1.html")));
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).expect("json");
    assert!(v.is_object());
    let two = run(gleaner()
        .args(["extract", "-f", "json"])
        .arg(fixture("ars-1.html"))
        .arg(fixture("heise.html")));
    let v: serde_json::Value = serde_json::from_slice(&two.stdout).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(2));
}

#[test]
fn every_format_and_algorithm_runs() {
    for algorithm in ["plain", "bte", "dsc", "lqf"] {
        for format in ["txt", "markdown", "html", "json", "jsonl"] {
            let out = run(gleaner()
                .args(["extract", "--algorithm", algorithm, "--output-format", format])
                .arg(fixture("ars-1.html")));
            assert!(out.status.success(), "{algorithm} {format}");
            assert!(!out.stdout.is_empty(), "{algorithm} {format}");
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    let out = run(gleaner().args(["extract", "--algorithm", "nope"]).arg(fixture("ars-1.html")));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown algorithm"));
    let out = run(gleaner()
        .args(["extract", "--param", "beta=x", "-a", "dsc"])
        .arg(fixture("ars-1.html")));
    assert_eq!(out.status.code(), Some(2));
    let out = run(gleaner().arg("extract"));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn nothing_readable_exits_1_with_a_record() {
    let out = run(gleaner().args(["extract", "-f", "jsonl", "/nonexistent/page.html"]));
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("record written");
    assert!(v["error"].is_string());
}

#[test]
fn parameters_change_the_result() {
    let strict = run(gleaner()
        .args(["extract", "-a", "lqf", "-p", "threshold=0"])
        .arg(fixture("ars-1.html")));
    let loose = run(gleaner()
        .args(["extract", "-a", "lqf", "-p", "threshold=1"])
        .arg(fixture("ars-1.html")));
    assert!(strict.stdout.len() < loose.stdout.len());
}

#[test]
fn algorithms_lists_names_and_papers() {
    let out = run(gleaner().arg("algorithms"));
    let text = stdout(&out);
    for name in ["plain", "bte", "dsc", "lqf"] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing");
    }
    let json = run(gleaner().args(["algorithms", "--json"]));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert!(v.as_array().is_some_and(|a| a.iter().all(|x| x["paper"].is_string())));
}

/// A tiny dataset in the plain layout: one good page, one binary page, one
/// page without gold (not listed); and an L3S-style dataset whose gold is
/// not HTML.
fn tiny_dataset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("tiny");
    std::fs::create_dir_all(root.join("input")).expect("mkdir");
    std::fs::create_dir_all(root.join("GoldStandard")).expect("mkdir");
    std::fs::write(root.join("input/1.html"), ARTICLE).expect("write");
    std::fs::write(
        root.join("GoldStandard/1.txt"),
        "Storm hits the coast\n\nA powerful storm reached the coast on Monday, bringing heavy rain and strong winds to towns along the shore.\n\nOfficials said that thousands of homes were without power and that schools would stay closed until Wednesday.",
    )
    .expect("write");
    std::fs::write(root.join("input/2.html"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").expect("write");
    std::fs::write(root.join("GoldStandard/2.txt"), "Some gold text").expect("write");
    std::fs::write(root.join("input/3.html"), ARTICLE).expect("write");
    let l3s = dir.path().join("l3s-tiny");
    std::fs::create_dir_all(l3s.join("input")).expect("mkdir");
    std::fs::create_dir_all(l3s.join("GoldStandard")).expect("mkdir");
    std::fs::write(l3s.join("input/a.html"), ARTICLE).expect("write");
    std::fs::write(l3s.join("GoldStandard/a.txt"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
        .expect("write");
    dir
}

#[test]
fn eval_json_rows_have_the_contract_keys_and_bad_pages_do_not_stop_the_run() {
    let dir = tiny_dataset();
    let out = run(gleaner()
        .args([
            "eval",
            "--algorithms",
            "plain,lqf",
            "--metric",
            "all",
            "--format",
            "json",
            "--data",
        ])
        .arg(dir.path().join("tiny"))
        .arg("--data")
        .arg(dir.path().join("l3s-tiny")));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json array");
    assert_eq!(rows.len(), 18, "2 datasets and their macro average x 2 algorithms x 3 metrics");
    let keys = [
        "dataset",
        "algorithm",
        "metric",
        "precision",
        "recall",
        "f1",
        "f1_std",
        "accuracy",
        "pages",
        "failed",
        "ms_per_page",
    ];
    for row in &rows {
        let obj = row.as_object().expect("object");
        assert_eq!(obj.len(), keys.len(), "exactly the contract keys: {row}");
        for k in keys {
            assert!(obj.contains_key(k), "{k} missing");
        }
        let failed = if row["dataset"] == "l3s-tiny" { 0 } else { 1 };
        assert_eq!(row["failed"], failed, "the binary page fails: {row}");
    }
    let row = |d: &str| {
        rows.iter()
            .find(|r| r["dataset"] == d && r["algorithm"] == "lqf" && r["metric"] == "lcs")
            .expect("row")
    };
    assert_eq!(row("tiny")["pages"], 2, "the binary page is scored as empty");
    assert!(row("tiny")["recall"].as_f64().expect("recall") > 0.45);
    assert_eq!(row("l3s-tiny")["pages"], 0, "a page without usable gold is skipped");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("l3s-tiny: a: no gold text"), "the bad gold is reported: {stderr}");
}

#[test]
fn eval_scores_peer_output_with_the_same_scorer() {
    let dir = tiny_dataset();
    let peer = dir.path().join("peer.json");
    std::fs::write(
        &peer,
        r#"{"1": {"articleBody": "A powerful storm reached the coast on Monday, bringing heavy rain and strong winds to towns along the shore."}}"#,
    )
    .expect("write");
    let out = run(gleaner()
        .args([
            "eval",
            "--algorithms",
            "none",
            "--metric",
            "lcs",
            "--format",
            "json",
            "--peer-name",
            "mytool",
            "--data",
        ])
        .arg(dir.path().join("tiny"))
        .arg("--peer-output")
        .arg(&peer));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["algorithm"], "mytool");
    // Page 1: all 19 extracted words are gold words (P = 1), 19 of the 40
    // gold words were found (R = 0.475); page 2 has no output (P = R = 0).
    let p = rows[0]["precision"].as_f64().expect("p");
    let r = rows[0]["recall"].as_f64().expect("r");
    assert!((p - 0.5).abs() < 1e-9, "{p}");
    assert!((r - 0.2375).abs() < 1e-9, "{r}");
    assert!(rows[0]["ms_per_page"].is_null());
}

#[test]
fn eval_sweep_labels_rows_by_value() {
    let dir = tiny_dataset();
    let out = run(gleaner()
        .args([
            "eval",
            "--algorithms",
            "lqf",
            "--metric",
            "lcs",
            "--format",
            "json",
            "--sweep",
            "threshold=0:1:0.5",
            "--data",
        ])
        .arg(dir.path().join("tiny")));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json");
    let labels: Vec<&str> = rows.iter().filter_map(|r| r["algorithm"].as_str()).collect();
    assert_eq!(labels, ["lqf[threshold=0]", "lqf[threshold=0.5]", "lqf[threshold=1]"]);
}

#[test]
fn lines_flag_switches_line_based_algorithms_to_virtual_lines() {
    // A minified page is one physical line: line-based TTR keeps all or
    // nothing of it; virtual lines cut at block tags separate the article.
    let minified = ARTICLE.replace('\n', "");
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("min.html");
    std::fs::write(&page, &minified).expect("write");
    let source = run(gleaner().args(["extract", "-a", "ttr", "--lines", "source"]).arg(&page));
    let blocks = run(gleaner().args(["extract", "-a", "ttr", "--lines", "blocks"]).arg(&page));
    assert!(source.status.success() && blocks.status.success());
    let blocks_text = stdout(&blocks);
    assert!(blocks_text.contains("A powerful storm"), "{blocks_text}");
    assert!(!blocks_text.contains("Home"), "{blocks_text}");
    assert_ne!(stdout(&source), blocks_text);
    let not_line_based =
        run(gleaner().args(["extract", "-a", "lqf", "--lines", "blocks"]).arg(&page));
    assert_eq!(not_line_based.status.code(), Some(2));
}

#[test]
fn colliding_output_names_do_not_overwrite() {
    let src = tempfile::tempdir().expect("tempdir");
    for (dir, name, text) in
        [("a", "x.html", "first"), ("a", "x.htm", "second"), ("b", "x.html", "third")]
    {
        std::fs::create_dir_all(src.path().join(dir)).expect("mkdir");
        std::fs::write(src.path().join(dir).join(name), format!("<p>{text} page text</p>"))
            .expect("write");
    }
    let out = tempfile::tempdir().expect("tempdir");
    let status = run(gleaner()
        .args(["extract", "-a", "plain", "--input-dir"])
        .arg(src.path().join("a"))
        .arg("--input-dir")
        .arg(src.path().join("b"))
        .arg("-o")
        .arg(out.path()));
    assert!(status.status.success());
    let mut texts: Vec<String> = std::fs::read_dir(out.path())
        .expect("out")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
        .collect();
    texts.sort();
    assert_eq!(texts.len(), 3, "{texts:?}");
}

#[test]
fn frameset_pages_and_utf16_pages() {
    let dir = tempfile::tempdir().expect("tempdir");
    let frames = dir.path().join("frames.html");
    std::fs::write(
        &frames,
        "<frameset cols='50%,50%'><frame src=left.html><frame src=main.html></frameset>",
    )
    .expect("write");
    let out = run(gleaner().args(["extract", "-f", "jsonl"]).arg(&frames));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("main.html")), "{v}");
    let utf16 = dir.path().join("utf16.html");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(ARTICLE.encode_utf16().flat_map(|u| u.to_le_bytes()));
    std::fs::write(&utf16, bytes).expect("write");
    let out = run(gleaner().args(["extract", "-f", "jsonl"]).arg(&utf16));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["error"].is_null(), "{v}");
    assert!(v["text"].as_str().is_some_and(|t| t.contains("A powerful storm")));
}

#[test]
fn eval_without_data_reads_every_dataset_in_gleaner_data() {
    let dir = tiny_dataset();
    let out = run(gleaner().env("GLEANER_DATA", dir.path()).args([
        "eval",
        "--algorithms",
        "plain",
        "--metric",
        "lcs",
        "--format",
        "json",
    ]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json");
    let datasets: Vec<&str> = rows.iter().filter_map(|r| r["dataset"].as_str()).collect();
    assert_eq!(datasets, ["l3s-tiny", "tiny", "macro-avg"]);
}
