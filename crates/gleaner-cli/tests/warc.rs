//! `gleaner warc`: WARC archives built here (plain, gzipped per record,
//! gzipped whole) through the real binary: which records are pages, the
//! HTTP charset over the meta charset, `url` and `date`, error records,
//! the WARC output read back, `--resume` after SIGKILL (and after random
//! kills and tampering), damaged archives.

mod support;

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use support::{gleaner, jsonl, run, run_ok, stderr};

/// One WARC record, as a crawler writes it.
fn record(kind: &str, uri: &str, id: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Date: 2024-05-01T10:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// A `response` record of an HTTP response with `headers` and `body`.
fn response(uri: &str, id: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut http = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    http.extend_from_slice(body);
    record("response", uri, id, "application/http; msgtype=response", &http)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).expect("gunzip");
    out
}

const ARTICLE: &str = "A long paragraph of the article text that the extractor keeps, with \
    enough words in it to count as the main content of the page for any algorithm at all.";

/// The records of one small crawl: 3 HTML pages (one in windows-1252 by
/// its HTTP header against a UTF-8 meta charset, one chunked and gzipped)
/// and 5 records that are not pages.
fn crawl() -> Vec<Vec<u8>> {
    let page = |title: &str| {
        format!("<html><head><title>{title}</title></head><body><p>{ARTICLE}</p></body></html>")
    };
    let mut latin = b"<html><head><meta charset=\"utf-8\"><title>Caf\xe9</title></head><body><p>Caf\xe9 au lait. "
        .to_vec();
    latin.extend_from_slice(ARTICLE.as_bytes());
    latin.extend_from_slice(b"</p></body></html>");
    let zipped = gzip(page("Zipped").as_bytes());
    let mut chunked = format!("{:x}\r\n", zipped.len()).into_bytes();
    chunked.extend_from_slice(&zipped);
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    vec![
        record(
            "warcinfo",
            "",
            "00000000-0000-0000-0000-000000000000",
            "application/warc-fields",
            b"software: test\r\n",
        ),
        record(
            "request",
            "http://a.example/one",
            "10000000-0000-0000-0000-000000000001",
            "application/http; msgtype=request",
            b"GET /one HTTP/1.1\r\nHost: a.example\r\n\r\n",
        ),
        response(
            "http://a.example/one",
            "20000000-0000-0000-0000-000000000002",
            "Content-Type: text/html; charset=utf-8\r\n",
            page("One").as_bytes(),
        ),
        response(
            "http://b.example/latin",
            "30000000-0000-0000-0000-000000000003",
            "Content-Type: text/html; charset=windows-1252\r\n",
            &latin,
        ),
        record(
            "revisit",
            "http://a.example/one",
            "40000000-0000-0000-0000-000000000004",
            "application/http; msgtype=response",
            b"HTTP/1.1 304 Not Modified\r\n\r\n",
        ),
        response(
            "http://a.example/logo.png",
            "50000000-0000-0000-0000-000000000005",
            "Content-Type: image/png\r\n",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        ),
        record(
            "metadata",
            "http://a.example/one",
            "60000000-0000-0000-0000-000000000006",
            "application/warc-fields",
            b"fetchTimeMs: 5\r\n",
        ),
        response(
            "http://a.example/zipped",
            "70000000-0000-0000-0000-000000000007",
            "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
            &chunked,
        ),
    ]
}

#[test]
fn a_servers_latin1_charset_over_a_utf8_body_gives_way_to_utf8() {
    // A server's default `charset=iso-8859-1` in front of a UTF-8 page.
    let body = format!(
        "<html><head><title>Café</title></head><body><p>Café au lait \u{2014} it\u{2019}s \
         {ARTICLE}</p></body></html>"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = support::put(
        dir.path(),
        "utf8.warc",
        response(
            "http://c.example/utf8",
            "80000000-0000-0000-0000-000000000008",
            "Content-Type: text/html; charset=iso-8859-1\r\n",
            body.as_bytes(),
        ),
    );
    let out = run_ok(gleaner().arg("warc").arg(&archive).arg("--no-progress"));
    let records = jsonl(&out);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["encoding"], "UTF-8");
    assert_eq!(records[0]["title"], "Café");
    let text = records[0]["text"].as_str().expect("text");
    assert!(text.starts_with("Café au lait \u{2014} it\u{2019}s"), "{text}");
}

/// The three ways archives are stored.
fn write_archives(dir: &Path, records: &[Vec<u8>]) -> [PathBuf; 3] {
    let plain = records.concat();
    let per_record: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
    [
        support::put(dir, "plain.warc", &plain),
        support::put(dir, "per-record.warc.gz", per_record),
        support::put(dir, "whole.warc.gz", gzip(&plain)),
    ]
}

#[test]
fn html_responses_are_extracted_alike_from_plain_and_gzipped_archives() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut seen = Vec::new();
    for archive in write_archives(dir.path(), &crawl()) {
        let out = run_ok(gleaner().arg("warc").arg(&archive).arg("--no-progress"));
        let records = jsonl(&out);
        let keys: Vec<(String, String, String)> = records
            .iter()
            .map(|r| {
                assert_eq!(r["error"], serde_json::Value::Null, "{r}");
                let source = r["source"].as_str().expect("source");
                assert!(source.starts_with(&format!("{}#", archive.display())), "{source}");
                let field = |k: &str| r[k].as_str().expect(k).to_string();
                (field("url"), field("date"), field("text"))
            })
            .collect();
        let urls: Vec<&str> = keys.iter().map(|k| k.0.as_str()).collect();
        assert_eq!(
            urls,
            ["http://a.example/one", "http://b.example/latin", "http://a.example/zipped"]
        );
        assert_eq!(keys[0].1, "2024-05-01T10:00:00Z");
        // The HTTP charset wins over <meta charset="utf-8">.
        assert_eq!(records[1]["encoding"], "windows-1252");
        assert_eq!(records[1]["title"], "Café");
        assert!(keys[1].2.starts_with("Café au lait."), "{}", keys[1].2);
        assert_eq!(records[2]["title"], "Zipped", "de-chunked and gunzipped");
        assert!(keys.iter().all(|k| k.2.contains("main content of the page")));
        let summary = stderr(&out);
        assert!(
            summary.contains("8 records read: 3 extracted, 0 failed, 5 skipped (metadata 1, non-html 1, request 1, revisit 1, warcinfo 1)"),
            "{summary}"
        );
        seen.push(keys);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "the same records from every storage");
}

/// See: issue 33, "`warc` records omit `published_date` when unknown where
/// every other key is null".
#[test]
fn issue_33_every_warc_record_has_published_date_null_when_unknown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut records = crawl();
    records.push(response(
        "http://a.example/dated",
        "90000000-0000-0000-0000-000000000009",
        "Content-Type: text/html; charset=utf-8\r\n",
        dated_page().as_bytes(),
    ));
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    // A second archive cut in the middle of its last member: an error record.
    let mut cut = members[..3].concat();
    cut.extend_from_slice(&members[3][..members[3].len() / 2]);
    let good = support::put(dir.path(), "good.warc.gz", members.concat());
    let broken = support::put(dir.path(), "broken.warc.gz", &cut);
    let out = run(gleaner().arg("warc").arg(&good).arg(&broken).arg("--no-progress"));
    let records = jsonl(&out);
    let dates: Vec<(&str, &serde_json::Value)> = records
        .iter()
        .map(|r| {
            let object = r.as_object().expect("a JSON object");
            let date = object.get("published_date").unwrap_or_else(|| panic!("no key: {r}"));
            (r["url"].as_str().unwrap_or("-"), date)
        })
        .collect();
    let null = serde_json::Value::Null;
    let dated = serde_json::json!("2024-04-30");
    assert_eq!(
        dates,
        [
            ("http://a.example/one", &null),
            ("http://b.example/latin", &null),
            ("http://a.example/zipped", &null),
            ("http://a.example/dated", &dated),
            ("http://a.example/one", &null),
            ("-", &null),
        ],
        "{records:?}"
    );
    assert!(records[5]["error"].as_str().is_some_and(|e| e.contains("truncated")), "{records:?}");
    // `extract` records have it null (every key is always there): `date`
    // is the page's own there.
    let page = support::put(dir.path(), "dated.html", dated_page());
    let line = jsonl(&run_ok(gleaner().args(["extract", "-f", "jsonl"]).arg(&page)));
    assert!(line[0]["published_date"].is_null(), "{:?}", line[0]);
    assert_eq!(line[0]["date"], "2024-04-30");
}

/// A page whose metadata gives its publication date.
fn dated_page() -> String {
    format!(
        "<html><head><meta property=\"article:published_time\" content=\"2024-04-30\">\
         </head><body><p>{ARTICLE}</p></body></html>"
    )
}

#[test]
fn a_bad_record_and_a_truncated_archive_are_error_records_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut records = crawl();
    records.insert(
        3,
        response(
            "http://a.example/bad",
            "80000000-0000-0000-0000-000000000008",
            "Content-Type: text/html\r\nContent-Encoding: br\r\n",
            b"\xff\xfe not brotli",
        ),
    );
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    // The archive ends in the middle of the fifth record's member.
    let mut cut = members[..4].concat();
    cut.extend_from_slice(&members[4][..members[4].len() / 2]);
    let broken = support::put(dir.path(), "broken.warc.gz", &cut);
    let good = support::put(dir.path(), "good.warc.gz", members.concat());
    let out = run(gleaner().arg("warc").arg(&broken).arg(&good).arg("--no-progress"));
    assert_eq!(out.status.code(), Some(1), "a corrupt archive sets the exit status");
    let records = jsonl(&out);
    let summary: Vec<(String, Option<String>)> = records
        .iter()
        .map(|r| {
            (r["url"].as_str().unwrap_or("-").to_string(), r["error"].as_str().map(str::to_string))
        })
        .collect();
    assert_eq!(summary.len(), 2 + 1 + 4, "{summary:?}");
    assert_eq!(summary[0], ("http://a.example/one".to_string(), None));
    let bad = summary[1].1.as_deref().expect("the bad record fails");
    assert!(bad.starts_with("cannot decode br content"), "{bad}");
    assert_eq!(summary[1].0, "http://a.example/bad");
    // The damage is named where it is: the cut member's offset.
    let offset = members[..4].iter().map(Vec::len).sum::<usize>();
    assert_eq!(records[2]["source"], format!("{}#{offset}", broken.display()), "the cut member");
    let truncated = summary[2].1.as_deref().expect("the archive fails");
    assert!(
        truncated.starts_with(&format!(
            "corrupt or truncated WARC: corrupt gzip data at compressed offset {offset}: the \
             member is cut short"
        )),
        "{truncated}"
    );
    assert_eq!(summary[3..].iter().filter(|s| s.1.is_none()).count(), 3, "{summary:?}");
    assert!(
        stderr(&out).contains("2 archives, 13 records read: 4 extracted, 3 failed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn warc_output_is_conversion_records_that_refer_to_their_responses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let [_, archive, _] = write_archives(dir.path(), &crawl());
    let json = jsonl(&run_ok(gleaner().arg("warc").arg(&archive).arg("--no-progress")));
    let out = dir.path().join("text.warc.gz");
    run_ok(gleaner().args(["warc", "-f", "warc", "--no-progress", "-o"]).arg(&out).arg(&archive));
    let bytes = std::fs::read(&out).expect("output");
    let mut reader = gleaner_crawl::warc::WarcReader::new(Cursor::new(&bytes[..])).expect("a WARC");
    let mut read = Vec::new();
    while let Some(r) = reader.next_record(|_| u64::MAX) {
        read.push(r.expect("a valid record"));
    }
    let kinds: Vec<String> = read.iter().map(|r| r.warc_type()).collect();
    assert_eq!(kinds, ["warcinfo", "conversion", "conversion", "conversion"]);
    let refers: Vec<&str> =
        read[1..].iter().map(|r| r.header("WARC-Refers-To").expect("refers")).collect();
    assert_eq!(
        refers,
        [
            "<urn:uuid:20000000-0000-0000-0000-000000000002>",
            "<urn:uuid:30000000-0000-0000-0000-000000000003>",
            "<urn:uuid:70000000-0000-0000-0000-000000000007>"
        ]
    );
    for (conversion, record) in read[1..].iter().zip(&json) {
        assert_eq!(conversion.target_uri(), record["url"].as_str());
        assert_eq!(conversion.date(), record["date"].as_str());
        assert_eq!(conversion.header("content-type"), Some("text/plain; charset=utf-8"));
        assert_eq!(
            String::from_utf8_lossy(&conversion.block),
            record["text"].as_str().expect("text")
        );
        assert!(conversion.record_id().is_some_and(|id| id.starts_with("<urn:uuid:")));
    }
    // One gzip member per record, as in any .warc.gz.
    assert_eq!(read[1].offset.within, 0);
    assert_ne!(read[1].offset.file, read[2].offset.file);
}

#[test]
fn markdown_text_keeps_links_when_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page =
        format!("<html><body><p>{ARTICLE} <a href=\"/more\">Read more</a></p></body></html>");
    let archive = support::put(
        dir.path(),
        "a.warc",
        response(
            "http://a.example/x/",
            "90000000-0000-0000-0000-000000000009",
            "Content-Type: text/html\r\n",
            page.as_bytes(),
        ),
    );
    let out = run_ok(
        gleaner()
            .args(["warc", "--text-format", "markdown", "--links", "-a", "plain"])
            .arg(&archive),
    );
    let text = jsonl(&out)[0]["text"].as_str().expect("text").to_string();
    assert!(
        text.contains("[Read more](http://a.example/more)"),
        "links resolved against WARC-Target-URI: {text}"
    );
}

/// `-f` names the text format as `extract -f` does, and still the
/// container (`-f jsonl`, `-f warc`); `--container` names the container
/// alone; flags that disagree are a usage error (issue 33).
#[test]
fn issue_33_warc_takes_the_text_format_under_extracts_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = format!("<html><body><h2>Head</h2><p>{ARTICLE}</p></body></html>");
    let archive = support::put(
        dir.path(),
        "a.warc",
        response(
            "http://a.example/x/",
            "90000000-0000-0000-0000-000000000010",
            "Content-Type: text/html\r\n",
            page.as_bytes(),
        ),
    );
    let warc = |args: &[&str]| run_ok(gleaner().arg("warc").args(args).arg(&archive));
    let old = warc(&["--text-format", "markdown", "-a", "plain"]);
    assert_eq!(warc(&["-f", "markdown", "-a", "plain"]).stdout, old.stdout);
    assert_eq!(warc(&["-f", "jsonl"]).stdout, warc(&[]).stdout);
    let text = jsonl(&old)[0]["text"].as_str().expect("text").to_string();
    assert!(text.contains("## Head"), "{text}");
    let conversion = warc(&["-f", "markdown", "--container", "warc", "-a", "plain"]);
    let body = String::from_utf8_lossy(&conversion.stdout).into_owned();
    assert!(body.starts_with("WARC/1.1") && body.contains("## Head"), "{body}");
    assert!(warc(&["-f", "warc"]).stdout.starts_with(b"WARC/1.1"));
    for bad in
        [&["-f", "markdown", "--text-format", "html"][..], &["-f", "warc", "--container", "jsonl"]]
    {
        let out = run(gleaner().arg("warc").args(bad).arg(&archive));
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("disagree"), "{}", stderr(&out));
    }
}

/// `extract`'s metadata, comment and preset options work on `warc` too:
/// `--comments` fills the `comments` key (and leaves the comments out of
/// `text`), `-f warc --with-metadata` opens each conversion record with the
/// metadata header, and `--precision` is taken (and refused with another
/// algorithm than the default, as by `extract`).
/// See: issue 14 ("Every `extract` option works here").
#[test]
fn extract_options_for_metadata_comments_and_presets_work_on_warc() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = format!(
        "<html><head><title>Bridge</title><meta name=author content=\"Ann Lee\"></head><body>\
         <article><h1>Bridge</h1><p>{ARTICLE}</p><p>{ARTICLE}</p></article>\
         <div id=comments class=comments><h2>Comments</h2>\
         <div class=comment><p>I walk over this bridge every single day and I am glad.</p></div>\
         </div></body></html>"
    );
    let archive = support::put(
        dir.path(),
        "a.warc",
        response(
            "http://a.example/bridge",
            "91000000-0000-0000-0000-000000000009",
            "Content-Type: text/html\r\n",
            page.as_bytes(),
        ),
    );
    let out = run_ok(gleaner().args(["warc", "--no-progress", "--comments"]).arg(&archive));
    let record = &jsonl(&out)[0];
    let comments = record["comments"].as_str().expect("comments key");
    assert!(comments.contains("every single day"), "{record}");
    let text = record["text"].as_str().expect("text");
    assert!(text.contains("main content") && !text.contains("every single day"), "{record}");

    let converted = dir.path().join("meta.warc");
    run_ok(
        gleaner()
            .args(["warc", "-f", "warc", "--with-metadata", "--no-progress", "-o"])
            .arg(&converted)
            .arg(&archive),
    );
    let bytes = std::fs::read(&converted).expect("output");
    let mut reader = gleaner_crawl::warc::WarcReader::new(Cursor::new(&bytes[..])).expect("a WARC");
    let mut bodies = Vec::new();
    while let Some(r) = reader.next_record(|_| u64::MAX) {
        let r = r.expect("a valid record");
        if r.warc_type() == "conversion" {
            bodies.push(String::from_utf8_lossy(&r.block).into_owned());
        }
    }
    assert_eq!(bodies.len(), 1);
    assert!(bodies[0].starts_with("---\n"), "{}", bodies[0]);
    assert!(bodies[0].contains("author: Ann Lee"), "{}", bodies[0]);
    assert!(bodies[0].contains("main content"), "{}", bodies[0]);

    let precise = run_ok(gleaner().args(["warc", "--no-progress", "--precision"]).arg(&archive));
    assert!(jsonl(&precise)[0]["text"].as_str().is_some_and(|t| t.contains("main content")));
    let refused = run(gleaner().args(["warc", "--precision", "-a", "plain"]).arg(&archive));
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
}

/// Archives for the resume test: `files` archives of `pages` pages each.
fn many_archives(dir: &Path, files: usize, pages: usize) -> Vec<PathBuf> {
    (0..files)
        .map(|f| {
            let members: Vec<u8> = (0..pages)
                .flat_map(|p| {
                    // Words that differ from page to page, so that the
                    // output compresses little and reaches the file while
                    // its shard is still being written.
                    let words: Vec<String> = (0..400)
                        .map(|i| format!("w{}", (f * 7919 + p * 104_729 + i * 613) % 1_000_003))
                        .collect();
                    let body = format!(
                        "<html><head><title>{f}-{p}</title></head><body><div><p>{ARTICLE}</p>\
                         <p>{}.</p></div></body></html>",
                        words.join(" ")
                    );
                    let uri = format!("http://h{f}.example/{p}");
                    gzip(&response(
                        &uri,
                        &format!("{f:08}-0000-0000-0000-{p:012}"),
                        "Content-Type: text/html\r\n",
                        body.as_bytes(),
                    ))
                })
                .collect();
            support::put(dir, &format!("shard-{f}.warc.gz"), members)
        })
        .collect()
}

/// The shards a manifest lists and the output length it vouches for.
fn manifest(out: &Path) -> (usize, u64) {
    let path = gleaner_crawl::warc::manifest_path(out);
    let Ok(text) = std::fs::read(path) else { return (0, 0) };
    let json: serde_json::Value = serde_json::from_slice(&text).expect("a manifest is whole JSON");
    let shards = json["shards"].as_array().expect("shards");
    (shards.len(), shards.last().map_or(0, |s| s["output_end"].as_u64().expect("output_end")))
}

#[test]
fn resume_after_sigkill_writes_every_record_exactly_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (files, pages) = (6, 60);
    let archives = many_archives(dir.path(), files, pages);
    let out = dir.path().join("out.jsonl.gz");
    let mut child = gleaner()
        .args(["warc", "--parallel", "1", "--no-progress", "-o"])
        .arg(&out)
        .args(&archives)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("gleaner starts");
    // Kill it once a shard is finished and before the last one is.
    let started = Instant::now();
    let mut killed = false;
    while child.try_wait().expect("wait").is_none() && started.elapsed() < Duration::from_secs(120)
    {
        // Best in the middle of a shard, with part of it written; at the
        // latest once the last shard has begun.
        let (done, end) = manifest(&out);
        let len = std::fs::metadata(&out).map_or(0, |m| m.len());
        if (done >= 1 && len > end) || done + 1 >= files {
            child.kill().expect("SIGKILL");
            killed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.wait();
    assert!(killed, "the run ended before it could be killed: make the shards larger");
    let (done_before, end) = manifest(&out);
    assert!((1..files).contains(&done_before), "killed between shards: {done_before}");
    // What a killed writer leaves after the last finished shard: part of
    // a gzip member (the kill itself usually leaves some; make sure).
    let len = std::fs::metadata(&out).expect("output").len();
    if len == end {
        let mut file = std::fs::OpenOptions::new().append(true).open(&out).expect("open");
        file.write_all(&gzip(b"{\"url\": \"half a record")[..20]).expect("append");
    }
    let (done_before, _) = manifest(&out);
    assert!(done_before < files, "killed before the end");
    let resumed = run_ok(
        gleaner()
            .args(["warc", "--resume", "--parallel", "2", "--no-progress", "-o"])
            .arg(&out)
            .args(&archives),
    );
    assert!(
        stderr(&resumed).contains(&format!("({done_before} already done, skipped)")),
        "{}",
        stderr(&resumed)
    );
    let text = String::from_utf8(gunzip(&std::fs::read(&out).expect("output"))).expect("utf-8");
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("whole JSON lines");
        assert_eq!(record["error"], serde_json::Value::Null);
        *count.entry(record["url"].as_str().expect("url").to_string()).or_default() += 1;
    }
    assert_eq!(count.len(), files * pages, "every page");
    assert!(count.values().all(|&n| n == 1), "no page twice");
    assert_eq!(manifest(&out).0, files);
}

#[test]
fn resume_refuses_a_manifest_of_another_algorithm() {
    let dir = tempfile::tempdir().expect("tempdir");
    let [archive, ..] = write_archives(dir.path(), &crawl());
    let out = dir.path().join("o.jsonl");
    run_ok(gleaner().args(["warc", "-a", "plain", "-o"]).arg(&out).arg(&archive));
    let again =
        run(gleaner().args(["warc", "--resume", "-a", "article", "-o"]).arg(&out).arg(&archive));
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("cannot resume from"), "{}", stderr(&again));
    let same =
        run_ok(gleaner().args(["warc", "--resume", "-a", "plain", "-o"]).arg(&out).arg(&archive));
    assert!(stderr(&same).contains("0 archives (1 already done, skipped)"), "{}", stderr(&same));
    let lines = std::fs::read_to_string(&out).expect("output").lines().count();
    assert_eq!(lines, 3, "nothing written twice");
    // An archive that changed since it was extracted is not skipped blindly.
    let mut grown = std::fs::read(&archive).expect("archive");
    grown.extend_from_slice(&crawl()[2]);
    std::fs::write(&archive, grown).expect("write");
    let changed =
        run(gleaner().args(["warc", "--resume", "-a", "plain", "-o"]).arg(&out).arg(&archive));
    assert_eq!(changed.status.code(), Some(1));
    assert!(stderr(&changed).contains("bytes when it was extracted"), "{}", stderr(&changed));
}

#[test]
fn site_templates_are_learned_per_host() {
    let dir = tempfile::tempdir().expect("tempdir");
    let menu = "<nav><ul><li><a href=/>Home page of the shop</a></li>\
                <li><a href=/about>About our small company</a></li></ul></nav>";
    let foot =
        "<footer><p>Copyright 2024 The Small Shop Company, all rights reserved.</p></footer>";
    let page = |n: usize| {
        format!(
            "<html><head><title>Page {n}</title></head><body>{menu}<main><h1>Article {n}</h1>\
             <p>The unique article number {n}: {}</p></main>{foot}</body></html>",
            "alpha beta gamma delta ".repeat(n + 3)
        )
    };
    // Five pages of one shop, and one page of another host with the same
    // menu: alone on its host, it has no model and keeps its menu.
    let mut records: Vec<Vec<u8>> = (0..5)
        .map(|n| {
            response(
                &format!("http://shop.example/{n}"),
                &format!("{n:036}"),
                "Content-Type: text/html\r\n",
                page(n).as_bytes(),
            )
        })
        .collect();
    records.push(response(
        "http://other.example/9",
        &format!("{:036}", 9),
        "Content-Type: text/html\r\n",
        page(9).as_bytes(),
    ));
    let archive = support::put(dir.path(), "sites.warc", records.concat());
    let out = run_ok(
        gleaner().args(["warc", "-a", "plain", "--site-templates", "--no-progress"]).arg(&archive),
    );
    assert!(stderr(&out).contains("2 hosts, 2 template clusters"), "{}", stderr(&out));
    let records = jsonl(&out);
    assert_eq!(records.len(), 6);
    for r in &records[..5] {
        let text = r["text"].as_str().expect("text");
        assert_eq!(
            (r["template_cluster_size"].as_u64(), r["template_applied"].as_bool()),
            (Some(5), Some(true))
        );
        assert!(
            text.starts_with("Article")
                && !text.contains("Home page")
                && !text.contains("Copyright"),
            "{text}"
        );
    }
    assert_eq!(records[5]["template_applied"], false);
    assert!(records[5]["text"].as_str().expect("text").contains("Home page of the shop"));
}

/// See: issue 31 (item 2): one bad record (`Content-Length: -5`) costs
/// that record only — the records after it are extracted, from a plain
/// archive and from one gzipped per record — and the summary counts the
/// bytes skipped.
#[test]
fn issue_31_one_bad_record_does_not_drop_the_records_after_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut records = crawl();
    let latin = String::from_utf8_lossy(&records[3]).into_owned();
    let length = latin.split("Content-Length: ").nth(1).and_then(|t| t.split('\r').next());
    records[3] = latin
        .replacen(
            &format!("Content-Length: {}", length.expect("a length")),
            "Content-Length: -5",
            1,
        )
        .into_bytes();
    let plain = support::put(dir.path(), "plain.warc", records.concat());
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    let per_record = support::put(dir.path(), "per-record.warc.gz", members.concat());
    let offsets = [
        records[..3].iter().map(Vec::len).sum::<usize>(),
        members[..3].iter().map(Vec::len).sum::<usize>(),
    ];
    for (archive, offset) in [plain, per_record].iter().zip(offsets) {
        let out = run(gleaner().arg("warc").arg(archive).arg("--no-progress"));
        assert_eq!(out.status.code(), Some(1), "damage sets the exit status");
        let records = jsonl(&out);
        let urls: Vec<&str> = records.iter().map(|r| r["url"].as_str().unwrap_or("-")).collect();
        assert_eq!(urls, ["http://a.example/one", "-", "http://a.example/zipped"], "{records:?}");
        assert_eq!(records[1]["source"], format!("{}#{offset}", archive.display()));
        let error = records[1]["error"].as_str().expect("an error record");
        assert!(
            error.contains("Content-Length is not a number")
                && error.contains("bytes skipped, reading resumed at offset"),
            "{error}"
        );
        let summary = stderr(&out);
        assert!(summary.contains("bytes of damaged archive skipped"), "{summary}");
        assert!(summary.contains("2 extracted, 1 failed"), "{summary}");
    }
}

/// See: issue 31 (item 14): a zstd archive is named as such, not called
/// corrupt.
#[test]
fn issue_31_a_zstd_archive_is_named_unsupported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = support::put(dir.path(), "a.warc.zst", [0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]);
    let out = run(gleaner().arg("warc").arg(&archive).arg("--no-progress"));
    assert_eq!(out.status.code(), Some(1));
    let record = &jsonl(&out)[0];
    let error = record["error"].as_str().expect("error");
    assert!(error.contains("zstd-compressed WARC is not supported"), "{error}");
    assert!(!error.contains("corrupt"), "{error}");
}

/// The output of a finished `warc -o OUT` run (which leaves a manifest).
fn finished_run(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> Vec<u8> {
    run_ok(gleaner().args(["warc", "--no-progress", "-o"]).arg(out).args(extra).args(inputs));
    assert!(gleaner_crawl::warc::manifest_path(out).exists(), "a manifest");
    std::fs::read(out).expect("output")
}

/// See: issue 31 (item 1): `--resume` checks the output against the
/// manifest and refuses, with a message and without touching either, an
/// output cut short, missing or changed, a manifest that claims more
/// than was written (no sparse file is made), and other output options.
#[test]
fn issue_31_resume_refuses_an_output_that_is_not_what_the_manifest_says() {
    let dir = tempfile::tempdir().expect("tempdir");
    let [plain, per_record, _] = write_archives(dir.path(), &crawl());
    let out = dir.path().join("out.jsonl.gz");
    let manifest = gleaner_crawl::warc::manifest_path(&out);
    let first = [per_record.clone(), plain.clone()];
    let written = finished_run(&first, &out, &[]);
    let manifest_text = std::fs::read(&manifest).expect("manifest");
    let more = support::put(dir.path(), "more.warc", crawl()[2].clone());
    let inputs = [per_record, plain, more];
    let resume = |extra: &[&str]| {
        run(gleaner()
            .args(["warc", "--resume", "--no-progress", "-o"])
            .arg(&out)
            .args(extra)
            .args(&inputs))
    };
    let refused = |out: &Output, why: &str| {
        assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
        let said = stderr(out);
        assert!(said.contains("cannot resume from") && said.contains(why), "{said}");
    };
    let restore = || {
        std::fs::write(&out, &written).expect("output");
        std::fs::write(&manifest, &manifest_text).expect("manifest");
    };

    // Cut short (`truncate -s 700`): refused, left as it is.
    std::fs::write(&out, &written[..written.len().min(700) / 2]).expect("cut");
    refused(&resume(&[]), "shorter than");
    assert_eq!(std::fs::metadata(&out).expect("output").len(), (written.len().min(700) / 2) as u64);
    // Missing.
    std::fs::remove_file(&out).expect("rm");
    refused(&resume(&[]), "is missing");
    assert!(!out.exists(), "not made again");
    // Changed inside what the manifest vouches for.
    restore();
    let mut changed = written.clone();
    changed[written.len() / 2] ^= 0x20;
    std::fs::write(&out, &changed).expect("changed");
    refused(&resume(&[]), "SHA-1 differs");
    // A manifest that claims 1e12 bytes: refused, and no sparse file.
    restore();
    let text = String::from_utf8(manifest_text.clone()).expect("json");
    let end = format!("\"output_end\": {}", written.len());
    assert!(text.contains(&end), "{text}");
    std::fs::write(&manifest, text.replace(&end, "\"output_end\": 1000000000000")).expect("lie");
    refused(&resume(&[]), "shorter than");
    assert_eq!(std::fs::metadata(&out).expect("output").len(), written.len() as u64);
    // Another text format would mix two in one output.
    restore();
    refused(&resume(&["--text-format", "markdown"]), "--text-format");
    refused(&resume(&["--links"]), "render");
    // The same options: the new archive only, appended.
    restore();
    let resumed = resume(&[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stderr(&resumed).contains("(2 already done, skipped)"), "{}", stderr(&resumed));
    let lines = String::from_utf8(gunzip(&std::fs::read(&out).expect("output"))).expect("utf-8");
    assert_eq!(lines.lines().count(), 3 + 3 + 1, "each page once");
}

/// A small deterministic generator (xorshift64*), seeded from the clock
/// unless `GLEANER_SEED` is set; failures print the seed.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        let seed =
            std::env::var("GLEANER_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        eprintln!("GLEANER_SEED={seed}");
        Rng(seed | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }
}

/// See: issue 31 ("Done when"): `gleaner warc -o` killed with SIGKILL at
/// random points, the output or manifest then tampered with at random
/// (cut, grown, a byte flipped, removed), and resumed (killed again at
/// random, up to twice): the final output holds every page exactly once,
/// or a resume refuses with a message.
#[test]
fn issue_31_resume_after_random_kills_and_tampering() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Shards whose output is larger than the writer's 64 KiB buffer, so
    // that a kill can leave part of a shard in the output.
    let (files, pages) = (3, 90);
    let archives = many_archives(dir.path(), files, pages);
    let reference = dir.path().join("reference.jsonl.gz");
    let timed = Instant::now();
    finished_run(&archives, &reference, &["--parallel", "1"]);
    let run_ms = timed.elapsed().as_millis() as u64;
    let mut rng = Rng::new();
    let count = |out: &Path| -> BTreeMap<String, usize> {
        let text = String::from_utf8(gunzip(&std::fs::read(out).expect("output"))).expect("utf-8");
        let mut count = BTreeMap::new();
        for line in text.lines() {
            let record: serde_json::Value = serde_json::from_str(line).expect("whole JSON lines");
            *count.entry(record["url"].as_str().expect("url").to_string()).or_default() += 1;
        }
        count
    };
    for round in 0..4 {
        let out = dir.path().join(format!("out-{round}.jsonl.gz"));
        let manifest = gleaner_crawl::warc::manifest_path(&out);
        let mut outcome = None;
        let mut events = Vec::new();
        for attempt in 0..4 {
            let mut cmd = gleaner();
            cmd.args(["warc", "--parallel", "1", "--no-progress", "-o"]).arg(&out).args(&archives);
            if attempt > 0 {
                cmd.arg("--resume");
            }
            let mut child = cmd
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("gleaner starts");
            // Kill at a random moment of what a whole run takes (the last
            // attempt runs to its end).
            let deadline = if attempt < 3 {
                Duration::from_millis(rng.below(run_ms + run_ms / 4 + 1))
            } else {
                Duration::from_secs(60)
            };
            let started = Instant::now();
            let mut killed = false;
            while child.try_wait().expect("wait").is_none() {
                if started.elapsed() >= deadline {
                    child.kill().expect("SIGKILL");
                    killed = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            let done = child.wait_with_output().expect("wait");
            if killed && !done.status.success() {
                let len = std::fs::metadata(&out).map_or(0, |m| m.len());
                events.push(format!("killed at {len} bytes"));
                if attempt == 0 {
                    // Tamper with what the kill left.
                    let tamper = rng.below(6);
                    events.push(format!("tampering {tamper}"));
                    match tamper {
                        0 => {}
                        1 => {
                            let f = std::fs::OpenOptions::new().write(true).open(&out);
                            if let Ok(f) = f {
                                f.set_len(rng.below(len + 1)).expect("cut");
                            }
                        }
                        2 => {
                            let f = std::fs::OpenOptions::new().append(true).open(&out);
                            if let Ok(mut f) = f {
                                f.write_all(b"\x1f\x8b\x08\x00junk").expect("grow");
                            }
                        }
                        3 if len > 0 => {
                            let mut bytes = std::fs::read(&out).expect("output");
                            let at = rng.below(len) as usize;
                            bytes[at] ^= 1 << rng.below(8);
                            std::fs::write(&out, bytes).expect("flip");
                        }
                        4 => {
                            let _ = std::fs::remove_file(&out);
                        }
                        _ => {
                            let _ = std::fs::remove_file(&manifest);
                        }
                    }
                }
                continue;
            }
            outcome = Some(done);
            break;
        }
        let done = outcome.expect("the last attempt runs to its end");
        let said = String::from_utf8_lossy(&done.stderr);
        eprintln!("round {round}: {events:?}, then exit {:?}", done.status.code());
        if done.status.success() {
            let count = count(&out);
            assert_eq!(count.len(), files * pages, "round {round}: every page; {said}");
            assert!(count.values().all(|&n| n == 1), "round {round}: no page twice; {said}");
        } else {
            assert_eq!(done.status.code(), Some(1), "round {round}: {said}");
            assert!(said.contains("cannot resume from"), "round {round}: a message: {said}");
        }
    }
}
