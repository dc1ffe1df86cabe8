//! Every WARC gleaner writes, read by warcio, the reference Python WARC
//! library (what pywb and many pipelines read with): `warcio check`
//! (digests) and `warcio index` (every record parses) on the archives of
//! `gleaner crawl -o` (a site served on 127.0.0.1, and a folder offline)
//! and of `gleaner warc -f warc`, plain and gzipped.
//!
//! warcio is installed from PyPI into a throwaway venv under the target
//! directory (`CARGO_TARGET_TMPDIR/warcio-venv`, kept between runs); it is
//! never a dependency of the crates. When the venv cannot be made (no
//! Python, no network) the test prints that it was skipped, by name, and
//! passes — unless `GLEANER_REQUIRE_WARCIO=1`, which makes that a failure
//! (for CI).
//!
//! See: issue 31 (item 16).

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use server::{site_dir, Server};

/// The warcio release the test is written against.
const WARCIO: &str = "warcio==1.8.1";

fn gleaner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gleaner")).args(args).output().expect("gleaner runs")
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    out
}

/// The `warcio` command of the venv, made when missing; `Err` says why it
/// cannot be.
fn warcio() -> Result<PathBuf, String> {
    let bin = support::pypi_venv("warcio-venv", WARCIO)?.join("warcio");
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!("{} is missing after pip install", bin.display()))
    }
}

/// Runs `warcio check` and `warcio index` on `archive` and asserts both
/// pass; the index's lines (JSON, one per record).
fn warcio_accepts(warcio: &Path, archive: &Path) -> Vec<serde_json::Value> {
    let check = Command::new(warcio).arg("check").arg("-v").arg(archive).output().expect("warcio");
    let said = String::from_utf8_lossy(&check.stdout).into_owned()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "warcio check {}: {said}", archive.display());
    let index = Command::new(warcio)
        .args(["index", "-f", "warc-type,warc-target-uri,warc-date,length,offset"])
        .arg(archive)
        .output()
        .expect("warcio");
    assert!(
        index.status.success(),
        "warcio index {}: {}",
        archive.display(),
        String::from_utf8_lossy(&index.stderr)
    );
    let index: Vec<serde_json::Value> = String::from_utf8_lossy(&index.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("warcio index writes JSON lines"))
        .collect();
    // Every record has a digest, and warcio checked it.
    let passed = said.matches("digest pass").count();
    assert_eq!(passed, index.len(), "warcio check {}: {said}", archive.display());
    index
}

#[test]
fn issue_31_warcio_checks_and_indexes_every_warc_gleaner_writes() {
    let warcio = match warcio() {
        Ok(bin) => bin,
        Err(why) => {
            let skip = format!(
                "issue_31_warcio_checks_and_indexes_every_warc_gleaner_writes: SKIPPED, no warcio \
                 venv: {why}"
            );
            assert!(std::env::var_os("GLEANER_REQUIRE_WARCIO").is_none(), "{skip}");
            eprintln!("{skip}");
            return;
        }
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let path = |name: &str| dir.path().join(name);
    let arg = |p: &Path| p.to_str().expect("utf-8 path").to_string();

    // `gleaner crawl -o` from a live site (WARC-IP-Address known) and from
    // a folder, plain and gzipped.
    let Some(site) = site_dir("linux-shell") else { return };
    let server = Server::site(&site);
    let start = server.url("/index.html");
    // The test server is on 127.0.0.1: allowed for its origin only.
    let origin = server.origin();
    let live = path("live.warc.gz");
    ok(gleaner(&[
        "crawl",
        &start,
        "--allow-private-origin",
        &origin,
        "--max-pages",
        "5",
        "--delay-ms",
        "0",
        "-o",
        &arg(&live),
    ]));
    drop(server);
    let Some(folder) = site_dir("linux-shell") else { return };
    let offline = path("offline.warc");
    ok(gleaner(&[
        "crawl",
        "index.html",
        "--source",
        &arg(&folder),
        "--max-pages",
        "5",
        "-o",
        &arg(&offline),
    ]));
    // `gleaner warc -f warc` over the live crawl, plain and gzipped.
    let converted = path("text.warc");
    let converted_gz = path("text.warc.gz");
    for out in [&converted, &converted_gz] {
        ok(gleaner(&["warc", "-f", "warc", "--no-progress", "-o", &arg(out), &arg(&live)]));
    }

    for archive in [&live, &offline, &converted, &converted_gz] {
        let index = warcio_accepts(&warcio, archive);
        assert!(!index.is_empty(), "{}", archive.display());
        assert_eq!(index[0]["warc-type"], "warcinfo", "{}", archive.display());
        assert!(
            index.iter().all(|r| r["warc-date"].as_str().is_some_and(|d| d.ends_with('Z'))),
            "every record has a WARC-Date, the warcinfo too: {index:?}"
        );
    }
    let live_index = warcio_accepts(&warcio, &live);
    let kinds: Vec<&str> = live_index.iter().filter_map(|r| r["warc-type"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "response").count(), 5, "{kinds:?}");
    let text =
        String::from_utf8_lossy(&flate_all(&std::fs::read(&live).expect("archive"))).into_owned();
    assert!(text.contains("\r\nWARC-IP-Address: 127.0.0.1\r\n"), "the peer's address");
    assert!(text.contains("\r\nWARC-Payload-Digest: sha1:"), "payload digests");
    let converted_text = std::fs::read_to_string(&converted).expect("converted");
    assert!(converted_text.starts_with("WARC/1.1\r\nWARC-Type: warcinfo\r\n"));
    assert!(converted_text.contains("\r\nWARC-Type: conversion\r\nWARC-Record-ID: "));
}

/// The bytes of every gzip member of `bytes`, one after the other.
fn flate_all(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).expect("gunzip");
    out
}
