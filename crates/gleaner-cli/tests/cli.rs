//! The command-line contract, driven through the real binary: formats,
//! stdin, `-o`, `--input-dir`, failed records and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod support;
use support::{gleaner, jsonl, put, run, run_ok, stderr, stdout};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

/// Runs `cmd` with `input` on its standard input. The writer ignores a
/// closed pipe: the command may stop reading early (`--max-bytes`).
fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer thread");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
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
    put(dir.path(), "a.html", ARTICLE);
    put(dir.path(), "sub/b.htm", "<p>Second page with some words in it.</p>");
    put(dir.path(), "sub/c.html", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    put(dir.path(), "ignored.txt", "not a page");
    let out = run(gleaner()
        .args(["extract", "--output-format", "jsonl", "--algorithm", "plain", "--input-dir"])
        .arg(dir.path()));
    assert!(out.status.success(), "a failed record does not fail the batch");
    let lines = jsonl(&out);
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
    put(src.path(), "x/y/page.html", ARTICLE);
    put(src.path(), "x/zipped.html.gz", gzip(ARTICLE.as_bytes()));
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
    let one = run_ok(gleaner().args(["extract", "-f", "json"]).arg(fixture("ars-1.html")));
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).expect("json");
    assert!(v.is_object());
    assert!(v["source"].as_str().is_some_and(|s| s.ends_with("ars-1.html")), "{v}");
    let two = run_ok(
        gleaner()
            .args(["extract", "-f", "json"])
            .arg(fixture("ars-1.html"))
            .arg(fixture("heise.html")),
    );
    let v: serde_json::Value = serde_json::from_slice(&two.stdout).expect("json");
    let records = v.as_array().expect("array");
    assert_eq!(records.len(), 2);
    assert!(records[0]["source"].as_str().is_some_and(|s| s.ends_with("ars-1.html")));
    assert!(records[1]["source"].as_str().is_some_and(|s| s.ends_with("heise.html")));
    assert!(records[1]["text"].as_str().is_some_and(|t| t.contains("AgileBits hat Version 5.3")));
    // A folder can name several pages: an array, whatever it holds (one
    // page here), so the shape is known from the command line (issue 33).
    let src = tempfile::tempdir().expect("tempdir");
    put(src.path(), "only.html", ARTICLE);
    let folder = run_ok(gleaner().args(["extract", "-f", "json", "--input-dir"]).arg(src.path()));
    let v: serde_json::Value = serde_json::from_slice(&folder.stdout).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v}");
}

#[test]
fn every_format_and_algorithm_runs() {
    // Every algorithm keeps this sentence of the article, in each format's
    // own markup.
    let sentence = "A flaw in the wildly popular online game";
    for algorithm in ["plain", "bte", "dsc", "lqf"] {
        for format in ["txt", "markdown", "html", "json", "jsonl"] {
            let out = run_ok(
                gleaner()
                    .args(["extract", "--algorithm", algorithm, "--output-format", format])
                    .arg(fixture("ars-1.html")),
            );
            let body = stdout(&out);
            let what = format!("{algorithm} {format}");
            match format {
                "txt" => {
                    assert!(body.contains(&format!("{sentence} Minecraft makes")), "{what}")
                }
                "markdown" => {
                    assert!(body.contains(&format!("{sentence} *Minecraft* makes")), "{what}")
                }
                "html" => {
                    assert!(body.starts_with("<article>"), "{what}");
                    assert!(body.trim_end().ends_with("</article>"), "{what}");
                    assert!(body.contains(&format!("{sentence} <em>Minecraft</em>")), "{what}");
                }
                _ => {
                    assert_eq!(body.lines().count() == 1, format == "jsonl", "{what}");
                    let v: serde_json::Value = serde_json::from_str(&body).expect("JSON");
                    assert_eq!(v["algorithm"], algorithm);
                    assert!(v["text"].as_str().is_some_and(|t| t.contains(sentence)), "{what}");
                    assert_eq!(v["encoding"], "UTF-8", "{what}");
                }
            }
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    let out = run(gleaner().args(["extract", "--algorithm", "nope"]).arg(fixture("ars-1.html")));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown algorithm \"nope\""), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let out = run(gleaner()
        .args(["extract", "--param", "beta=x", "-a", "dsc"])
        .arg(fixture("ars-1.html")));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("beta"), "the bad parameter is named: {}", stderr(&out));
    let out = run(gleaner().arg("extract"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no inputs"), "{}", stderr(&out));
}

#[test]
fn nothing_readable_exits_1_with_a_record() {
    let out = run(gleaner().args(["extract", "-f", "jsonl", "/nonexistent/page.html"]));
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("record written");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("No such file")), "{v}");
    assert_eq!(v["source"], "/nonexistent/page.html");
    assert!(stderr(&out).contains("/nonexistent/page.html"), "{}", stderr(&out));
    // One readable input is enough for exit 0.
    let out = run(gleaner()
        .args(["extract", "-f", "jsonl", "/nonexistent/page.html"])
        .arg(fixture("heise.html")));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(jsonl(&out).len(), 2);
}

#[test]
fn parameters_change_the_result() {
    let strict = run_ok(
        gleaner().args(["extract", "-a", "lqf", "-p", "threshold=0"]).arg(fixture("ars-1.html")),
    );
    let loose = run_ok(
        gleaner().args(["extract", "-a", "lqf", "-p", "threshold=1"]).arg(fixture("ars-1.html")),
    );
    assert!(strict.stdout.len() < loose.stdout.len());
}

#[test]
fn algorithms_lists_names_and_papers() {
    let out = run(gleaner().arg("algorithms"));
    let text = stdout(&out);
    for name in ["plain", "bte", "dsc", "lqf"] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing");
    }
    let json = run_ok(gleaner().args(["algorithms", "--json"]));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let list = v.as_array().expect("array");
    assert!(list.iter().all(|x| x["paper"].is_string() && x["summary"].is_string()));
    let defaults: Vec<&serde_json::Value> =
        list.iter().filter(|x| x["default"] == true).map(|x| &x["name"]).collect();
    assert_eq!(defaults, ["learned"], "exactly one default");
    // The text listing names every algorithm of the JSON one, and each can
    // be used with `extract -a`.
    for entry in list {
        let name = entry["name"].as_str().expect("name");
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing");
        if entry["needs_template"] == true {
            // Without a template model it is a usage error, not silence.
            let out = run(gleaner().args(["extract", "-a", name]).arg(fixture("heise.html")));
            assert_eq!(out.status.code(), Some(2), "{name} without a template");
            assert!(stderr(&out).contains("needs a template"), "{}", stderr(&out));
            continue;
        }
        let out = run_ok(gleaner().args(["extract", "-a", name]).arg(fixture("heise.html")));
        assert!(!out.stdout.is_empty(), "{name} extracts nothing from heise");
    }
}

/// A tiny dataset in the plain layout: one good page, one binary page, one
/// page without gold (not listed); and an L3S-style dataset whose gold is
/// not HTML.
fn tiny_dataset() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    let root = dir.path().join("tiny");
    put(&root, "input/1.html", ARTICLE);
    put(
        &root,
        "GoldStandard/1.txt",
        format!("Storm hits the coast\n\n{STORM_SENTENCE}\n\nOfficials said that thousands of homes were without power and that schools would stay closed until Wednesday."),
    );
    put(&root, "input/2.html", png);
    put(&root, "GoldStandard/2.txt", "Some gold text");
    put(&root, "input/3.html", ARTICLE);
    let l3s = dir.path().join("l3s-tiny");
    put(&l3s, "input/a.html", ARTICLE);
    put(&l3s, "GoldStandard/a.txt", png);
    dir
}

/// The article's first paragraph.
const STORM_SENTENCE: &str = "A powerful storm reached the coast on Monday, bringing heavy rain and strong winds to towns along the shore.";

/// `gleaner eval` on the tiny dataset(s) with these extra arguments.
fn eval(dir: &Path, datasets: &[&str], args: &[&str]) -> Output {
    let mut cmd = gleaner();
    cmd.args(["eval", "--no-progress"]).args(args);
    for d in datasets {
        cmd.arg("--data").arg(dir.join(d));
    }
    run_ok(&mut cmd)
}

fn json_rows(o: &Output) -> Vec<serde_json::Value> {
    serde_json::from_slice(&o.stdout).expect("a JSON array of rows")
}

fn f64_at(v: &serde_json::Value, i: usize) -> f64 {
    v[i].as_f64().unwrap_or_else(|| panic!("number at {i} in {v}"))
}

#[test]
fn eval_json_rows_have_the_contract_keys_and_bad_pages_do_not_stop_the_run() {
    let dir = tiny_dataset();
    let out = eval(
        dir.path(),
        &["tiny", "l3s-tiny"],
        &["--algorithms", "plain,lqf", "--metric", "all", "--format", "json"],
    );
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 24, "2 datasets and their macro average x 2 algorithms x 4 metrics");
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
    let peer =
        put(dir.path(), "peer.json", format!(r#"{{"1": {{"articleBody": "{STORM_SENTENCE}"}}}}"#));
    let out = eval(
        dir.path(),
        &["tiny"],
        &["--algorithms", "none", "--metric", "lcs", "--format", "json", "--peer-name", "mytool"]
            .into_iter()
            .chain(["--peer-output", peer.to_str().expect("utf-8 path")])
            .collect::<Vec<_>>(),
    );
    let rows = json_rows(&out);
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
    let out = eval(
        dir.path(),
        &["tiny"],
        &[
            "--algorithms",
            "lqf",
            "--metric",
            "lcs",
            "--format",
            "json",
            "--sweep",
            "threshold=0:1:0.5",
        ],
    );
    let rows = json_rows(&out);
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
    let mut files: Vec<(String, String)> = std::fs::read_dir(out.path())
        .expect("out")
        .map(|e| {
            let path = e.expect("entry").path();
            let name = path.file_name().expect("name").to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("read"))
        })
        .collect();
    files.sort();
    let texts: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.trim())).collect();
    assert_eq!(
        texts,
        [
            ("x-2.txt", "first page text"),
            ("x-3.txt", "third page text"),
            ("x.txt", "second page text")
        ],
        "inputs in order a/x.htm, a/x.html, b/x.html; later ones get -2, -3"
    );
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

/// A page whose text names it (`page-N-marker`), with `paragraphs`
/// paragraphs of filler.
fn numbered_page(n: usize, paragraphs: usize) -> String {
    let mut html = format!(
        "<html><head><title>Page {n}</title></head><body><h1>Page {n}</h1>\
         <p>This is page-{n}-marker, the first paragraph of page {n}.</p>"
    );
    for j in 0..paragraphs {
        html.push_str(&format!(
            "<p>Paragraph {j} of page {n} says something ordinary about the weather.</p>\n"
        ));
    }
    html + "</body></html>"
}

#[test]
fn parallel_output_is_in_input_order_whatever_the_thread_count() {
    // 70 pages (more than one chunk of work), sizes from one paragraph to
    // a few thousand, given in an order that is neither sorted nor by size.
    let dir = tempfile::tempdir().expect("tempdir");
    let n = 70;
    let paths: Vec<PathBuf> = (0..n)
        .map(|i| {
            let paragraphs = if i % 9 == 0 { 3000 } else { 1 + (i * 37) % 23 };
            put(dir.path(), &format!("p{i:02}.html"), numbered_page(i, paragraphs))
        })
        .collect();
    let order: Vec<usize> = (0..n).map(|k| (k * 29) % n).collect();
    let extract = |threads: &str, format: &str| {
        let mut cmd = gleaner();
        cmd.args(["extract", "-a", "plain", "-f", format, "--parallel", threads]);
        cmd.args(order.iter().map(|&i| &paths[i]));
        run_ok(&mut cmd)
    };
    let one = extract("1", "jsonl");
    let four = extract("4", "jsonl");
    assert_eq!(stdout(&one), stdout(&four), "same output with 1 and 4 threads");
    let records = jsonl(&four);
    assert_eq!(records.len(), n);
    for (record, &i) in records.iter().zip(&order) {
        let source = record["source"].as_str().expect("source");
        assert!(source.ends_with(&format!("p{i:02}.html")), "{source} in place of page {i}");
        let text = record["text"].as_str().expect("text");
        assert!(text.contains(&format!("page-{i}-marker")), "page {i} has another's text");
        assert_eq!(record["title"], format!("Page {i}"));
    }
    // Plain text: the `==> name <==` headers come in the same order.
    let txt = stdout(&extract("4", "txt"));
    let headers: Vec<&str> = txt.lines().filter(|l| l.starts_with("==> ")).collect();
    let expected: Vec<String> =
        order.iter().map(|&i| format!("==> {} <==", paths[i].display())).collect();
    assert_eq!(headers, expected);
    assert_eq!(txt, stdout(&extract("1", "txt")));
}

/// A page that declares `charset` and holds `body` (already encoded).
fn page_declaring(charset: &str, body: &[u8]) -> Vec<u8> {
    let mut page =
        format!("<html><head><meta charset=\"{charset}\"><title>Encoded</title></head><body><p>")
            .into_bytes();
    page.extend_from_slice(body);
    page.extend_from_slice(b"</p></body></html>");
    page
}

/// `東京の天気は晴れです。明日も良い天気になるでしょう。` in Shift_JIS.
const SHIFT_JIS_TEXT: &[u8] = b"\x93\x8c\x8b\x9e\x82\xcc\x93\x56\x8b\x43\x82\xcd\x90\xb0\x82\xea\
    \x82\xc5\x82\xb7\x81\x42\x96\xbe\x93\xfa\x82\xe0\x97\xc7\x82\xa2\x93\x56\x8b\x43\x82\xc9\x82\xc8\
    \x82\xe9\x82\xc5\x82\xb5\x82\xe5\x82\xa4\x81\x42";

#[test]
fn encoding_flag_overrides_a_wrong_declared_charset() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        // windows-1252 bytes behind a Greek declaration: é reads as ι.
        (
            put(
                dir.path(),
                "latin.html",
                page_declaring("iso-8859-7", b"Un caf\xe9 cr\xe8me na\xefve \xe0 la fran\xe7aise."),
            ),
            "windows-1252",
            "Un café crème naïve à la française.",
        ),
        // Shift_JIS behind a windows-1252 declaration.
        (
            put(dir.path(), "japanese.html", page_declaring("windows-1252", SHIFT_JIS_TEXT)),
            "shift_jis",
            "東京の天気は晴れです。明日も良い天気になるでしょう。",
        ),
    ];
    for (page, label, expected) in cases {
        let extract = |flag: Option<&str>| {
            let mut cmd = gleaner();
            cmd.args(["extract", "-a", "plain", "-f", "jsonl"]).arg(&page);
            if let Some(label) = flag {
                cmd.args(["--encoding", label]);
            }
            jsonl(&run_ok(&mut cmd)).remove(0)
        };
        let declared = extract(None);
        let text = declared["text"].as_str().expect("text");
        assert!(!text.contains(expected), "{label}: decoded right without the flag: {text}");
        let given = extract(Some(label));
        assert_eq!(given["text"], expected, "{label}");
        let name = given["encoding"].as_str().expect("encoding").to_ascii_lowercase();
        assert_eq!(name, label, "the record names the encoding used");
    }
    let out = run(gleaner()
        .args(["extract", "--encoding", "klingon-8"])
        .arg(dir.path().join("latin.html")));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown character encoding \"klingon-8\""), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "no record for a usage error");
}

#[test]
fn max_bytes_fails_only_the_inputs_over_the_limit() {
    let limit = 2000;
    let big = numbered_page(1, 200);
    assert!(big.len() > 3 * limit);
    let small = numbered_page(2, 3);
    assert!(small.len() < limit);
    let dir = tempfile::tempdir().expect("tempdir");
    let gz = gzip(big.as_bytes());
    assert!(gz.len() < limit, "compressed it fits, decompressed it does not");
    let inputs = [
        put(dir.path(), "a-big.html", &big),
        put(dir.path(), "b-small.html", &small),
        put(dir.path(), "c-big.html.gz", &gz),
        put(dir.path(), "d-small.html.gz", gzip(small.as_bytes())),
    ];
    let out = run_ok(
        gleaner()
            .args(["extract", "-a", "plain", "-f", "jsonl", "--max-bytes", &limit.to_string()])
            .args(&inputs),
    );
    let records = jsonl(&out);
    assert_eq!(records.len(), 4, "one record per input");
    let too_large = format!("more than the limit of {limit} bytes (raise --max-bytes)");
    for (record, fails) in records.iter().zip([true, false, true, false]) {
        if fails {
            let error = record["error"].as_str().expect("an error");
            assert!(error.contains(&too_large), "{error}");
            assert_eq!(record["text"], "");
        } else {
            assert!(record["error"].is_null(), "{record}");
            assert!(record["text"].as_str().expect("text").contains("page-2-marker"));
        }
    }
    assert!(stderr(&out).contains("4 pages, 2 failed"), "{}", stderr(&out));
    // Standard input is cut at the limit too, and so is the default when
    // nothing is said (the page is accepted).
    let piped = |max: Option<usize>| {
        let mut cmd = gleaner();
        cmd.args(["extract", "-a", "plain", "-f", "jsonl", "-"]);
        if let Some(max) = max {
            cmd.args(["--max-bytes", &max.to_string()]);
        }
        jsonl(&run_with_stdin(&mut cmd, big.as_bytes())).remove(0)
    };
    let record = piped(Some(limit));
    assert!(record["error"].as_str().is_some_and(|e| e.contains(&too_large)), "{record}");
    let record = piped(None);
    assert!(record["error"].is_null(), "{record}");
    assert_eq!(record["bytes"], big.len());
}

/// A paragraph with a safe link, an unsafe link and an image.
const LINKED: &str = "<html><body><h1>Links and pictures</h1>\
    <p>Read the <a href=\"https://example.com/report\">full report</a> before you \
    <a href=\"javascript:alert(1)\">click here</a> or <a href=\" JavaScript:void(0)\">there</a>.</p>\
    <p>The harbour at dawn: <img src=\"/img/harbour.jpg\" alt=\"Harbour at dawn\"> as seen from the pier.</p>\
    </body></html>";

#[test]
fn links_and_images_flags_keep_them_in_markdown_and_html() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = put(dir.path(), "linked.html", LINKED);
    let extract = |format: &str, flags: &[&str]| {
        stdout(&run_ok(
            gleaner().args(["extract", "-a", "plain", "-f", format]).args(flags).arg(&page),
        ))
    };
    let link_md = "[full report](https://example.com/report)";
    let image_md = "![Harbour at dawn](/img/harbour.jpg)";
    let link_html = "<a href=\"https://example.com/report\">full report</a>";
    let image_html = "<img src=\"/img/harbour.jpg\" alt=\"Harbour at dawn\">";
    for format in ["markdown", "html"] {
        let (link, image) =
            if format == "html" { (link_html, image_html) } else { (link_md, image_md) };
        let bare = extract(format, &[]);
        assert!(bare.contains("full report") && bare.contains("click here"), "{bare}");
        assert!(!bare.contains("example.com") && !bare.contains("harbour.jpg"), "{bare}");
        let links = extract(format, &["--links"]);
        assert!(links.contains(link), "{format}: {links}");
        assert!(!links.contains("harbour.jpg"), "{format}: images without --images: {links}");
        let images = extract(format, &["--images"]);
        assert!(images.contains(image), "{format}: {images}");
        assert!(!images.contains("example.com"), "{format}: links without --links: {images}");
        let both = extract(format, &["--links", "--images"]);
        assert!(both.contains(link) && both.contains(image), "{format}: {both}");
        // Unsafe links lose their target but keep their text.
        assert!(both.contains("click here") && both.contains("there"), "{format}: {both}");
        assert!(!both.to_ascii_lowercase().contains("javascript"), "{format}: {both}");
    }
    // Plain text is the same with or without the flags.
    assert_eq!(extract("txt", &[]), extract("txt", &["--links", "--images"]));
}

#[test]
fn gzip_is_recognised_by_magic_bytes_and_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let zipped = gzip(ARTICLE.as_bytes());
    let inputs = [
        put(dir.path(), "disguised.html", &zipped),
        put(dir.path(), "named.html.gz", &zipped),
        put(dir.path(), "NAMED.HTM.GZ", &zipped),
    ];
    let out = run_ok(gleaner().args(["extract", "-a", "lqf", "-f", "jsonl"]).args(&inputs));
    let records = jsonl(&out);
    assert_eq!(records.len(), 3);
    for record in &records {
        assert!(record["error"].is_null(), "{record}");
        assert_eq!(record["title"], "Storm hits the coast");
        assert!(record["text"].as_str().expect("text").contains("A powerful storm"), "{record}");
        assert_eq!(record["bytes"], ARTICLE.len(), "bytes counts the decompressed page");
    }
    // A gzip stream that is cut short is that input's error.
    let broken = put(dir.path(), "broken.html.gz", &zipped[..zipped.len() / 2]);
    let out = run(gleaner().args(["extract", "-f", "jsonl"]).arg(&broken));
    let record = jsonl(&out).remove(0);
    assert!(record["error"].as_str().is_some_and(|e| e.contains("invalid gzip")), "{record}");
}

#[test]
fn input_dir_picks_up_page_extensions_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = "<p>Some page text in a file.</p>";
    for name in [
        "a.html",
        "b.htm",
        "c.xhtml",
        "d.XHTML",
        "e.xhtml.gz",
        "sub/deeper/f.html",
        "g.txt",
        "h.xml",
        "i.html.bak",
        "j.gz",
        "k.php",
        "html",
        ".html",
        "sub/noext",
    ] {
        let bytes =
            if name.ends_with(".gz") { gzip(page.as_bytes()) } else { page.as_bytes().to_vec() };
        put(dir.path(), name, bytes);
    }
    let out = run_ok(
        gleaner().args(["extract", "-a", "plain", "-f", "jsonl", "--input-dir"]).arg(dir.path()),
    );
    let picked: Vec<String> = jsonl(&out)
        .iter()
        .map(|r| {
            assert!(r["error"].is_null(), "{r}");
            assert_eq!(r["text"], "Some page text in a file.");
            let source = Path::new(r["source"].as_str().expect("source"));
            let rel = source.strip_prefix(dir.path()).expect("under the directory");
            rel.to_string_lossy().into_owned()
        })
        .collect();
    assert_eq!(
        picked,
        ["a.html", "b.htm", "c.xhtml", "d.XHTML", "e.xhtml.gz", "sub/deeper/f.html"],
        "sorted, recursive, page extensions only"
    );
}

#[test]
fn eval_per_page_writes_every_pages_scores_and_they_add_up_to_the_table() {
    let dir = tiny_dataset();
    let per_page = dir.path().join("pages.jsonl");
    let per_page_arg = per_page.to_str().expect("utf-8 path");
    let out = eval(
        dir.path(),
        &["tiny"],
        &[
            "--algorithms",
            "plain,lqf",
            "--metric",
            "all",
            "--format",
            "json",
            "--per-page",
            per_page_arg,
        ],
    );
    let rows = json_rows(&out);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&per_page)
        .expect("per-page file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 4, "2 algorithms x the 2 pages with gold");
    for line in &lines {
        let keys: Vec<&String> = line.as_object().expect("object").keys().collect();
        let mut keys = keys.into_iter().cloned().collect::<Vec<_>>();
        keys.sort();
        assert_eq!(keys, ["algorithm", "dataset", "edr", "failed", "id", "lcs", "shingle", "word"]);
        assert_eq!(line["dataset"], "tiny");
        let binary = line["id"] == "2";
        assert_eq!(line["failed"], binary, "the PNG page fails: {line}");
        assert_eq!(line["lcs"].as_array().map(Vec::len), Some(3), "[P, R, F1]: {line}");
        assert_eq!(line["edr"].as_array().map(Vec::len), Some(3), "[P, R, F1]: {line}");
        assert_eq!(line["shingle"].as_array().map(Vec::len), Some(2), "[P, R]: {line}");
        if !binary {
            assert!(f64_at(&line["lcs"], 1) > 0.45, "{line}");
        }
    }
    // The table's LCS precision and recall are the means of the pages'.
    for algorithm in ["plain", "lqf"] {
        let pages: Vec<&serde_json::Value> =
            lines.iter().filter(|l| l["algorithm"] == algorithm).collect();
        assert_eq!(pages.len(), 2, "{algorithm}");
        let row = rows
            .iter()
            .find(|r| r["algorithm"] == algorithm && r["metric"] == "lcs")
            .expect("lcs row");
        for (i, key) in [(0, "precision"), (1, "recall")] {
            let mean = pages.iter().map(|p| f64_at(&p["lcs"], i)).sum::<f64>() / 2.0;
            let table = row[key].as_f64().expect("number");
            assert!((mean - table).abs() < 1e-9, "{algorithm} {key}: {mean} vs {table}");
        }
    }
}

#[test]
fn eval_peers_dir_scores_every_peer_of_each_dataset() {
    let dir = tiny_dataset();
    let peers = dir.path().join("peers");
    put(&peers, "tiny/mytool.json", format!(r#"{{"1": {{"articleBody": "{STORM_SENTENCE}"}}}}"#));
    put(&peers, "tiny/mytool.timing.json", r#"{"ms_per_page": 12.5}"#);
    put(&peers, "tiny/other.json", r#"{"1": {"articleBody": ""}, "2": {"articleBody": "x"}}"#);
    put(&peers, "tiny/notes.txt", "not a peer");
    put(&peers, "elsewhere/third.json", r#"{"1": {"articleBody": "storm"}}"#);
    let peers_arg = peers.to_str().expect("utf-8 path");
    let out = eval(
        dir.path(),
        &["tiny", "l3s-tiny"],
        &["--algorithms", "lqf", "--metric", "lcs", "--format", "json", "--peers-dir", peers_arg],
    );
    let rows = json_rows(&out);
    let labels = |dataset: &str| -> Vec<String> {
        rows.iter()
            .filter(|r| r["dataset"] == dataset)
            .map(|r| r["algorithm"].as_str().expect("algorithm").to_string())
            .collect()
    };
    assert_eq!(labels("tiny"), ["lqf", "mytool", "other"], "peers in name order, no timing file");
    assert_eq!(labels("l3s-tiny"), ["lqf"], "a dataset without peers gets none");
    assert_eq!(labels("macro-avg"), ["lqf"], "peers of one dataset are not macro-averaged");
    let row = |name: &str| {
        rows.iter().find(|r| r["dataset"] == "tiny" && r["algorithm"] == name).expect("row")
    };
    // Same numbers as --peer-output gives (see above): P = 0.5, R = 0.2375.
    let mytool = row("mytool");
    assert!((mytool["precision"].as_f64().expect("p") - 0.5).abs() < 1e-9, "{mytool}");
    assert!((mytool["recall"].as_f64().expect("r") - 0.2375).abs() < 1e-9, "{mytool}");
    assert_eq!(mytool["ms_per_page"], 12.5, "timing read from mytool.timing.json");
    assert_eq!(mytool["failed"], 1, "page 2 has no output from mytool");
    let other = row("other");
    assert!(other["ms_per_page"].is_null());
    assert_eq!(other["failed"], 0);
    assert_eq!(other["f1"], 0.0);
}

#[test]
fn eval_md_and_pivot_tables_name_algorithms_and_datasets() {
    let dir = tiny_dataset();
    // A second scorable dataset: the same page, gold in the Readability
    // layout's HTML form.
    let second = dir.path().join("readability-tiny");
    put(&second, "input/x.html", ARTICLE);
    put(
        &second,
        "GoldStandard/x.txt",
        "<div><h1>Storm hits the coast</h1><p>A powerful storm reached the coast on Monday.</p></div>",
    );
    let datasets = ["tiny", "readability-tiny"];
    let common = ["--algorithms", "plain,lqf", "--metric", "lcs,shingle"];
    let json =
        json_rows(&eval(dir.path(), &datasets, &[&common[..], &["--format", "json"]].concat()));
    let f1 = |dataset: &str, algorithm: &str, metric: &str| {
        let row = json
            .iter()
            .find(|r| {
                r["dataset"] == dataset && r["algorithm"] == algorithm && r["metric"] == metric
            })
            .unwrap_or_else(|| panic!("no row {dataset} {algorithm} {metric}"));
        format!("{:.3}", row["f1"].as_f64().expect("f1"))
    };

    let md = stdout(&eval(dir.path(), &datasets, &[&common[..], &["--format", "md"]].concat()));
    let mut lines = md.lines();
    assert_eq!(
        lines.next(),
        Some("| dataset | algorithm | metric | precision | recall | F1 | ± | accuracy | pages | failed | ms/page |")
    );
    assert_eq!(lines.next(), Some("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"));
    let rows: Vec<Vec<&str>> =
        lines.map(|l| l.trim_matches('|').split('|').map(str::trim).collect()).collect();
    assert_eq!(rows.len(), 12, "(2 datasets + macro-avg) x 2 algorithms x 2 metrics: {md}");
    for row in &rows {
        assert_eq!(row.len(), 11, "{row:?}");
        assert_eq!(row[5], f1(row[0], row[1], row[2]), "F1 cell of {row:?}");
    }
    let cells = |i: usize| rows.iter().map(|r| r[i]).collect::<std::collections::BTreeSet<_>>();
    assert_eq!(cells(0), ["macro-avg", "readability-tiny", "tiny"].into());
    assert_eq!(cells(1), ["lqf", "plain"].into());
    assert_eq!(cells(2), ["lcs", "shingle"].into());

    let pivot =
        stdout(&eval(dir.path(), &datasets, &[&common[..], &["--format", "pivot"]].concat()));
    for metric in ["lcs", "shingle"] {
        let heading = format!("**{metric}** F1");
        let table: Vec<&str> = pivot
            .split(&heading)
            .nth(1)
            .unwrap_or_else(|| panic!("no {heading} in {pivot}"))
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .collect();
        assert_eq!(table.len(), 4, "header, rule, 2 algorithms: {pivot}");
        assert_eq!(table[0], "| algorithm | tiny | readability-tiny | macro-avg | ms/page |");
        assert_eq!(table[1], "|---|---:|---:|---:|---:|");
        let body: Vec<Vec<&str>> = table[2..4]
            .iter()
            .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
            .collect();
        let mut names: Vec<&str> = body.iter().map(|r| r[0]).collect();
        let macro_f1 = |a: &str| f1("macro-avg", a, metric).parse::<f64>().expect("f1");
        assert!(macro_f1(names[0]) >= macro_f1(names[1]), "best macro F1 first: {names:?}");
        for row in &body {
            assert_eq!(row.len(), 5, "{row:?}");
            for (i, dataset) in ["tiny", "readability-tiny", "macro-avg"].iter().enumerate() {
                assert_eq!(row[i + 1], f1(dataset, row[0], metric), "{metric} {row:?}");
            }
            assert!(row[4].parse::<f64>().is_ok(), "ms/page is a number: {row:?}");
        }
        names.sort_unstable();
        assert_eq!(names, ["lqf", "plain"]);
    }
}

#[test]
fn a_closed_output_pipe_ends_the_batch_quietly() {
    // More output than a pipe holds, so that writing fails once the reader
    // is gone. Rust ignores SIGPIPE, so the write returns EPIPE, which
    // `extract` treats as the end of the batch: exit 0, nothing on stderr.
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..200 {
        put(dir.path(), &format!("p{i:03}.html"), numbered_page(i, 20));
    }
    for format in ["jsonl", "txt"] {
        let mut child = gleaner()
            .args(["extract", "-a", "plain", "--parallel", "2", "-f", format, "--input-dir"])
            .arg(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        std::io::BufRead::read_line(&mut reader, &mut first).expect("one line");
        assert!(first.contains("p000.html"), "{format}: {first}");
        drop(reader);
        let out = child.wait_with_output().expect("wait");
        let err = stderr(&out);
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{format}: {err}");
        assert_eq!(err, "", "{format}: no error, and no summary of an interrupted batch");
        assert_eq!(out.status.code(), Some(0), "{format}: {:?}", out.status);
    }
}

#[test]
fn stdin_given_twice_is_a_usage_error() {
    let out = run(gleaner().args(["extract", "-", "-"]));
    assert!(stderr(&out).contains("more than once"), "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_single_too_large_input_fails_alike_from_a_file_stdin_or_gzip() {
    let limit = 100;
    let page = numbered_page(1, 100);
    let dir = tempfile::tempdir().expect("tempdir");
    let file = put(dir.path(), "big.html", &page);
    let gz = put(dir.path(), "big.html.gz", gzip(page.as_bytes()));
    let max = ["--max-bytes", "100"];
    let outputs = [
        run(gleaner().args(["extract", "-f", "jsonl"]).args(max).arg(&file)),
        run(gleaner().args(["extract", "-f", "jsonl"]).args(max).arg(&gz)),
        run_with_stdin(gleaner().args(["extract", "-f", "jsonl", "-"]).args(max), page.as_bytes()),
    ];
    for out in &outputs {
        let record = jsonl(out).remove(0);
        let error = record["error"].as_str().expect("error");
        assert!(error.contains("more than the limit of 100 bytes"), "{error}");
        assert!(
            !error.contains(&format!("input is {} bytes", limit + 1)),
            "a size that is not the input's: {error}"
        );
        assert_eq!(out.status.code(), Some(1), "no input could be read: {record}");
    }
}

// See: issue 13, defect 9.
#[test]
fn issue_13_failed_inputs_exit_1_and_print_nothing_in_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let png = put(dir.path(), "img.html", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let out = run(gleaner().arg("extract").arg(&png));
    assert_eq!(out.status.code(), Some(1), "a single non-HTML input fails");
    assert!(out.stdout.is_empty(), "no blank line: {:?}", stdout(&out));
    assert!(stderr(&out).contains("it looks like a PNG image"), "{}", stderr(&out));
    let good = put(dir.path(), "ok.html", ARTICLE);
    let txt = dir.path().join("txt");
    let out = run(gleaner().args(["extract", "-o"]).arg(&txt).arg(&png).arg(&good));
    assert_eq!(out.status.code(), Some(0), "one input extracted: {}", stderr(&out));
    assert!(!txt.join("img.txt").exists(), "no file for a failed input in txt");
    assert!(txt.join("ok.txt").exists());
    let jsonl = dir.path().join("jsonl");
    run(gleaner().args(["extract", "-f", "jsonl", "-o"]).arg(&jsonl).arg(&png));
    let record = std::fs::read_to_string(jsonl.join("img.jsonl")).expect("the error record");
    assert!(record.contains("PNG image"), "{record}");
    let out = run(gleaner().args(["extract", "--max-bytes", "2000000000"]).arg(&good));
    assert_eq!(out.status.code(), Some(2), "over 1 GiB is a usage error");
    assert!(stderr(&out).contains("1 GiB"), "{}", stderr(&out));
    let help = stdout(&run(gleaner().args(["extract", "--help"])));
    assert!(help.contains("Exit status: 0 when at least one input was extracted"), "{help}");
}

// See: issue 13, defect 7.
#[test]
fn issue_13_parallel_is_capped_with_a_warning() {
    let out =
        run_ok(gleaner().args(["extract", "--parallel", "100000"]).arg(fixture("heise.html")));
    assert!(stderr(&out).contains("warning: --parallel 100000: using"), "{}", stderr(&out));
    assert!(!stdout(&out).is_empty());
}

// See: issue 13, defect 5.
#[cfg(unix)]
#[test]
fn issue_13_input_dir_with_a_fifo_does_not_hang() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    std::os::unix::fs::symlink(&fifo, dir.path().join("a.html")).expect("symlink");
    put(dir.path(), "b.html", ARTICLE);
    let mut child = gleaner()
        .args(["extract", "-f", "jsonl", "--input-dir"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("gleaner hangs on a FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let records = jsonl(&out);
    assert_eq!(records.len(), 2);
    let error = records[0]["error"].as_str().expect("an error record for the FIFO");
    assert!(error.contains("not a regular file"), "{error}");
    assert!(records[1]["error"].is_null());
}

/// A ScrapingHub-layout dataset: a page, a truncated gzip page, an empty
/// gold, a page without gold and gold without a page.
fn scrapinghub_dataset(dir: &Path) -> PathBuf {
    let root = dir.join("scrapinghub");
    let body = format!("Storm hits the coast\n\n{STORM_SENTENCE}");
    let truth = serde_json::json!({
        "good": {"articleBody": body},
        "cut": {"articleBody": body},
        "empty": {"articleBody": ""},
        "lost": {"articleBody": "no page"},
    });
    put(&root, "ground-truth.json", truth.to_string());
    let gz = gzip(ARTICLE.as_bytes());
    put(&root, "html/good.html.gz", &gz);
    put(&root, "html/cut.html.gz", gz.get(..gz.len() / 2).unwrap_or(&[]));
    put(&root, "html/empty.html.gz", &gz);
    put(&root, "html/orphan.html.gz", &gz);
    root
}

// See: issue 13, defect 10.
#[test]
fn issue_13_eval_accounts_for_every_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    scrapinghub_dataset(dir.path());
    let per_page = dir.path().join("pages.jsonl");
    let out = run_ok(
        gleaner()
            .args(["eval", "--no-progress", "--algorithms", "plain", "--format", "json"])
            .arg("--data")
            .arg(dir.path().join("scrapinghub"))
            .arg("--per-page")
            .arg(&per_page),
    );
    for row in json_rows(&out) {
        assert_eq!(row["pages"], 2, "good and cut are scored, empty is not: {row}");
        assert_eq!(row["failed"], 1, "{row}");
    }
    let pages = std::fs::read_to_string(&per_page).expect("per page");
    let ids: Vec<String> = pages
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json")["id"].to_string())
        .collect();
    assert_eq!(ids, ["\"cut\"", "\"empty\"", "\"good\""], "no empty id");
    let err = stderr(&out);
    assert!(
        err.contains(
            "warning: scrapinghub: not scored: 1 page files without gold, 1 gold without a page \
             file, 1 pages with empty gold"
        ),
        "{err}"
    );
}

// See: issue 13, defect 10.
#[test]
fn issue_13_empty_gold_is_skipped_by_every_metric() {
    let dir = tiny_dataset();
    let out = eval(dir.path(), &["l3s-tiny"], &["--algorithms", "plain", "--format", "json"]);
    for row in json_rows(&out) {
        assert_eq!(row["pages"], 0, "{row}");
    }
}

// See: issue 13, defect 4.
#[test]
fn issue_13_eval_reads_gzip_by_magic_bytes_within_max_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("zipped");
    put(&root, "input/1.html", gzip(ARTICLE.as_bytes()));
    put(&root, "GoldStandard/1.txt", STORM_SENTENCE);
    put(&root, "input/2.html", gzip(&vec![b' '; 8 << 20]));
    put(&root, "GoldStandard/2.txt", STORM_SENTENCE);
    let out = eval(
        dir.path(),
        &["zipped"],
        &["--algorithms", "plain", "--format", "json", "--max-bytes", "1000000"],
    );
    let rows = json_rows(&out);
    let lcs = rows.iter().find(|r| r["metric"] == "lcs").expect("lcs row");
    assert_eq!(lcs["failed"], 1, "the bomb fails: {lcs}");
    assert!(f64_at(&serde_json::json!([lcs["recall"]]), 0) > 0.4, "the gzip page is read: {lcs}");
    let err = stderr(&out);
    assert!(err.contains("more than the limit of 1000000 bytes (raise --max-bytes)"), "{err}");
}

/// See: issue 11, "Relative links and image URLs are never made
/// absolute": `--url` is the base (after `<base href>`) and the record's
/// `url`.
#[test]
fn issue_11_url_flag_makes_links_absolute_and_fills_the_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = ARTICLE.replace("Officials said", "Officials <a href=report.html>said</a>");
    let path = put(dir.path(), "page.html", page);
    let md = run_ok(
        gleaner()
            .args(["extract", "-f", "markdown", "--links", "--url", "https://ex.org/news/a"])
            .arg(&path),
    );
    assert!(stdout(&md).contains("[said](https://ex.org/news/report.html)"), "{}", stdout(&md));
    let rec =
        run_ok(gleaner().args(["extract", "-f", "jsonl", "--url", "https://ex.org/n"]).arg(&path));
    assert_eq!(jsonl(&rec)[0]["url"], "https://ex.org/n");
    let bad = run(gleaner().args(["extract", "--url", "news/a"]).arg(&path));
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

/// See: issue 11: `-p` with an unknown key lists the keys, `algorithms
/// --json` lists each algorithm's parameters with defaults, and `inspect`
/// defaults to the default extractor.
#[test]
fn issue_11_parameters_are_discoverable_and_inspect_uses_the_default() {
    let bad =
        run(gleaner().args(["extract", "-a", "lqf", "-p", "nope=1"]).arg(fixture("heise.html")));
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("threshold"), "{}", stderr(&bad));
    let json = run_ok(gleaner().args(["algorithms", "--json"]));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let lqf = v.as_array().expect("array").iter().find(|a| a["name"] == "lqf").expect("lqf");
    let params = lqf["params"].as_array().expect("params");
    assert_eq!(params.len(), 1, "{params:?}");
    assert_eq!((&params[0]["name"], &params[0]["default"]), (&"threshold".into(), &"0.5".into()));
    // Issue 33: each parameter's declaration comes along.
    assert_eq!((&params[0]["type"], &params[0]["range"]), (&"float".into(), &"[0, 1]".into()));
    assert!(params[0]["doc"].as_str().is_some_and(|d| d.contains("link quota")));
    let report = run_ok(gleaner().arg("inspect").arg(fixture("heise.html")));
    assert!(stdout(&report).contains("gleaner inspect: learned on"), "{}", stdout(&report));
}

/// `gleaner inspect` on the default extractor says why: the container the
/// votes chose, and each block left out inside it with the rule that
/// removed it (here a share bar by its name and a list of short links by
/// its link quota).
/// See: issue 11 ("which container won, which blocks were removed and by
/// which rule").
#[test]
fn issue_11_inspect_names_the_container_and_the_rule_of_each_removed_block() {
    let dir = tempfile::tempdir().expect("temp dir");
    let para = "The council voted on Tuesday to close the old bridge for repairs, \
                and the works will take most of the coming year, officials said.";
    let page = format!(
        "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
         <div id=story class=article-body><h1>Bridge closes</h1><p>{para}</p>\
         <div class=share-tools><a href=/s/fb>Share on Facebook</a> Share this story now</div>\
         <p>{para}</p><p>{para}</p>\
         <ul><li><a href=/a>One</a></li><li><a href=/b>Two</a></li><li><a href=/c>Three</a></li></ul>\
         </div><footer>Copyright 2026</footer></body></html>"
    );
    let path = dir.path().join("bridge.html");
    std::fs::write(&path, page).expect("write page");
    let report = dir.path().join("report.html");
    run_ok(gleaner().arg("inspect").arg(&path).arg("-o").arg(&report));
    let html = std::fs::read_to_string(&report).expect("report written");
    assert!(html.contains("<h2>Decisions</h2>"), "{html}");
    assert!(html.contains("div#story.article-body"), "the container is named: {html}");
    assert!(html.contains("inner boilerplate"), "the share bar's rule: {html}");
    assert!(html.contains("div.share-tools"), "the share bar is listed: {html}");
    assert!(html.contains("link quota above the limit"), "the link list's rule: {html}");
    assert!(html.contains("One Two Three"), "a removed list's items stay apart: {html}");
}

/// A page that would retitle the terminal (`ESC ] 0 ; … BEL`) and clear it
/// (`ESC [ 2 J`), by character reference and by raw bytes, in its text and
/// title: no output format lets a control character through.
/// See: issue 13, defect 8.
#[test]
fn issue_13_no_output_format_prints_control_characters() {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = "<html><head><meta charset=utf-8>\
        <title>Storm&#27;]0;pwned&#7; \u{1b}[2J\u{9b}hits</title></head><body>\
        <p>A powerful storm&#27;]0;pwned&#7; reached the coast \u{1b}[2J on Monday, \
        bringing heavy rain\u{7}\u{7f}\u{202e} and strong winds to towns along the shore.</p>\
        <p>Officials said that thousands of homes were without power and that schools \
        would stay closed until Wednesday.&#x1B;c</p></body></html>";
    let path = put(dir.path(), "pwned.html", page);
    let is_control = |c: char| c.is_control() && c != '\n' && c != '\t' || c == '\u{202e}';
    for format in ["txt", "markdown", "html", "json", "jsonl"] {
        let out = run_ok(
            gleaner()
                .args(["extract", "--algorithm", "plain", "--output-format", format])
                .args(["--links", "--images"])
                .arg(&path),
        );
        let body = stdout(&out);
        assert!(!body.chars().any(is_control), "{format}: {body:?}");
        // Markdown escapes the brackets; the words are the same.
        assert!(body.contains("pwned reached the coast"), "{format}: {body}");
        assert!(body.contains("2J on Monday"), "{format}: {body}");
        if format == "jsonl" {
            let record = &jsonl(&out)[0];
            assert_eq!(record["title"], "Storm]0;pwned [2Jhits");
            let text = record["text"].as_str().unwrap_or_default();
            assert!(!text.chars().any(is_control), "{text:?}");
            assert!(text.contains("heavy rain and strong"), "{text:?}");
        }
    }
}

// See: issue 13 ("Hard limits as configuration"; per-document time budget).
#[test]
fn issue_13_limits_are_flags_and_a_page_out_of_time_is_an_error_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dense = put(dir.path(), "dense.html", "<p>x</p>".repeat(250_000));
    let good = fixture("heise.html");
    // Out of time: an error record that says so, the other input extracted.
    let out = run(gleaner()
        .args(["extract", "-f", "jsonl", "--time-budget-ms", "1"])
        .arg(&dense)
        .arg(&good));
    let records = jsonl(&out);
    assert_eq!(records.len(), 2);
    let error = records[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("time budget of 1 ms"), "{error}");
    assert_eq!(records[0]["text"], "");
    // With no budget both extract.
    let out = run_ok(
        gleaner().args(["extract", "-f", "jsonl", "--time-budget-ms", "0"]).arg(&dense).arg(&good),
    );
    assert!(jsonl(&out).iter().all(|r| r["error"].is_null()), "{}", stdout(&out));
    // The parse limits: too many elements is an error; nesting, formatting
    // and attributes are capped, not errors.
    let out = run(gleaner().args(["extract", "-f", "jsonl", "--max-elements", "1000"]).arg(&dense));
    assert_eq!(out.status.code(), Some(1));
    let error = jsonl(&out)[0]["error"].as_str().unwrap_or_default().to_string();
    assert!(error.contains("more than 1000 elements"), "{error}");
    let deep = put(dir.path(), "deep.html", "<div>".repeat(100) + "deep text");
    let out = run_ok(gleaner().args(["extract", "-a", "plain", "--max-nesting", "5"]).arg(&deep));
    assert!(stdout(&out).contains("deep text"));
    // Every command that reads pages takes the limits and checks them.
    for cmd in [&["inspect"][..], &["blocks"], &["extract"]] {
        let out = run(gleaner().args(cmd).args(["--max-bytes", "2000000000"]).arg(&good));
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {}", stderr(&out));
        let out = run(gleaner().args(cmd).args(["--max-elements", "0"]).arg(&good));
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {}", stderr(&out));
    }
}

// See: issue 13, defect 8 (terminal controls), for file names: the txt
// header and the messages on stderr print names without them.
#[test]
fn issue_13_control_characters_in_file_names_do_not_reach_the_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = put(dir.path(), "a\u{1b}]0;pwned\u{7}.html", ARTICLE);
    let bad = put(dir.path(), "b\u{1b}[2J.html", [0x89u8, b'P', b'N', b'G', 0, 0, 1, 2]);
    let out = run(gleaner().arg("extract").arg(&good).arg(&bad));
    for shown in [stdout(&out), stderr(&out)] {
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{7}'), "{shown:?}");
    }
    assert!(stdout(&out).contains("]0;pwned.html <=="), "{}", stdout(&out));
    assert!(stderr(&out).contains("[2J.html: input is not HTML"), "{}", stderr(&out));
}
