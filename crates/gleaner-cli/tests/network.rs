//! Issue 31 through the binary, against a hostile server on 127.0.0.1
//! started by each test (bounded; it stops when dropped): the address
//! policy and its flags, deadlines, site training's budgets and origin,
//! content codings, messages that say what happened, and `-o DIR` for
//! URLs. Each test failed before its fix.

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;
mod support;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use server::{Reply, Server, HANG_GUARD};
use support::gzip;

fn gleaner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gleaner")).args(args).output().expect("gleaner runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A small site of one template: a menu of `/a` … `/d`, and a paragraph.
fn site(target: &str) -> Reply {
    let menu = "<nav><ul><li><a href=/>Home</a><li><a href=/a>Alpha</a><li><a href=/b>Beta</a>\
                <li><a href=/c>Gamma</a><li><a href=/d>Delta</a></ul></nav>";
    let footer = "<footer><p>Copyright the small site, all rights reserved.</p></footer>";
    match target {
        "/robots.txt" => Reply::status(404),
        "/" | "/a" | "/b" | "/c" | "/d" => Reply::html(format!(
            "<!DOCTYPE html><html><head><title>Page {target}</title></head><body>{menu}\
             <main><h1>Page {target}</h1><p>This is the text of page {target}, a paragraph \
             long enough to be the main content of the page, written for the test.</p></main>\
             {footer}</body></html>"
        )),
        _ => Reply::status(404),
    }
}

// Items 6 and 14: refused by policy, or connection refused; never
// "disallowed by robots.txt".
#[test]
fn issue_31_extract_says_refused_by_policy_or_connection_refused() {
    let out = gleaner(&["extract", "http://127.0.0.1:1/"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "refused by the address policy: 127.0.0.1 is a loopback address \
             (--allow-private-addresses lifts this)"
        ),
        "{}",
        stderr(&out)
    );
    let out = gleaner(&["extract", "http://127.0.0.1:1/", "--allow-private-addresses"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("connection refused by 127.0.0.1:1"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("robots"), "{}", stderr(&out));
    // Metadata stays refused with the allowance.
    let out = gleaner(&[
        "extract",
        "http://169.254.169.254/latest/meta-data/",
        "--allow-private-addresses",
    ]);
    assert!(
        stderr(&out).contains("is a cloud metadata address, never fetched"),
        "{}",
        stderr(&out)
    );
}

// Item 14: a URL too long is the input's error, not the network's.
#[test]
fn issue_31_a_url_too_long_is_an_input_error() {
    let long = format!("http://example.invalid/{}", "a".repeat(100_000));
    let out = gleaner(&["extract", &long]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("URL too long: 100023 bytes, more than 8192"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("network"), "{}", stderr(&out));
    let out = gleaner(&["crawl", &long]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

// Item 3: fetching the training pages is not the page's time budget.
#[test]
fn issue_31_site_training_fetch_time_is_not_the_page_time_budget() {
    let server = Server::start(site);
    let url = server.url("/");
    let origin = server.origin();
    for mode in ["links", "menu"] {
        let started = Instant::now();
        let out = gleaner(&[
            "extract",
            &url,
            "-f",
            "jsonl",
            "--site-training",
            mode,
            "--delay-ms",
            "400",
            "--time-budget-ms",
            "1000",
            "--allow-private-origin",
            &origin,
        ]);
        let took = started.elapsed();
        assert!(out.status.success(), "{mode} ({took:?}): {}", stderr(&out));
        assert!(took > Duration::from_millis(1600), "{mode}: four pages 400 ms apart: {took:?}");
        let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a record");
        assert!(record["error"].is_null(), "{record}");
        assert!(record["site_training"]["pages_fetched"].as_u64() >= Some(4), "{record}");
        assert!(record["text"].as_str().is_some_and(|t| t.contains("text of page /")), "{record}");
    }
}

// Item 5: training and `template extract` stay on the key page's origin.
#[test]
fn issue_31_site_training_and_template_extract_stay_on_the_origin() {
    let other = Server::start(site);
    let port = other.port();
    let home = Server::start(move |target| match site(target) {
        Reply::Full { status: 200, headers, body } => {
            let links = format!(
                "<a href=\"http://127.0.0.1:{port}/a\">elsewhere</a>\
                 <a href=\"http://127.0.0.1:{port}/b\">elsewhere</a></body>"
            );
            let body = String::from_utf8_lossy(&body).replace("</body>", &links);
            Reply::Full { status: 200, headers, body: body.into_bytes() }
        }
        other => other,
    });
    let url = home.url("/");
    let url = url.as_str();
    // Every private address allowed: only the origin rule keeps it home.
    for args in [
        &["extract", url, "--site-training", "links", "--delay-ms", "0"][..],
        &["extract", url, "--site-training", "menu", "--delay-ms", "0"][..],
        &["template", "extract", url, "--delay-ms", "0"][..],
    ] {
        let out = gleaner(&[args, &["--allow-private-addresses"][..]].concat());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    assert!(other.requests().is_empty(), "{:?}", other.requests());
    assert!(home.count("/a") >= 1);
}

// Item 7: --max-time-secs ends the crawl, fetches under way included.
#[test]
fn issue_31_crawl_max_time_is_a_deadline_for_fetches_under_way() {
    let server = Server::start(|target| match target {
        "/" => Reply::html("<a href=/d1>1</a><a href=/d2>2</a><a href=/d3>3</a><a href=/d4>4</a>"),
        "/robots.txt" => Reply::status(404),
        _ => Reply::Drip { every: Duration::from_millis(100) },
    });
    let started = Instant::now();
    let out = gleaner(&[
        "crawl",
        &server.url("/"),
        "--max-time-secs",
        "1",
        "--timeout-secs",
        "8",
        "--concurrency",
        "4",
        "--delay-ms",
        "0",
        "--allow-private-origin",
        &server.origin(),
    ]);
    let took = started.elapsed();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(took < HANG_GUARD, "{took:?}");
    assert!(stderr(&out).contains("stopped by max-time with 4 URLs unvisited"), "{}", stderr(&out));
}

// Items 6 and 11: crawl refuses loopback unless allowed, and caps --max-bytes.
#[test]
fn issue_31_crawl_refuses_private_addresses_and_an_unbounded_max_bytes() {
    let server = Server::start(site);
    let out = gleaner(&["crawl", &server.url("/"), "--delay-ms", "0", "--all-hosts"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 refused-address"), "{}", stderr(&out));
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    let out = gleaner(&["crawl", &server.url("/"), "--max-bytes", "2000000000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("(1 GiB)"), "{}", stderr(&out));
    let out = gleaner(&["crawl", &server.url("/"), "--allow-private-origin", "not a url"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}

// Item 13: a gzip site is crawled (it was 0 pages, "not HTML:
// application/gzip"), the WARC keeps the bytes as sent, and the replay
// decodes them.
#[test]
fn issue_31_a_gzip_site_is_crawled_archived_and_replayed() {
    let server = Server::start(|target| match site(target) {
        Reply::Full { status: 200, headers, body } if target != "/robots.txt" => {
            let mut headers = headers;
            headers.push(("Content-Encoding".into(), "gzip".into()));
            Reply::Full { status: 200, headers, body: gzip(&body) }
        }
        other => other,
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = dir.path().join("site.warc.gz");
    let archive_arg = archive.to_str().expect("utf-8 path");
    let origin = server.origin();
    let start = server.url("/");
    let live = gleaner(&[
        "crawl",
        &start,
        "--delay-ms",
        "0",
        "--allow-private-origin",
        &origin,
        "-o",
        archive_arg,
    ]);
    assert!(live.status.success(), "{}", stderr(&live));
    assert!(stderr(&live).contains("crawl: 5 pages fetched"), "{}", stderr(&live));
    let replay = gleaner(&["crawl", &start, "--source", archive_arg]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert_eq!(replay.stdout, live.stdout);
    let text = gleaner(&["extract", &server.url("/b"), "--source", archive_arg]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("text of page /b"), "{}", stderr(&text));
}

// Item 15: `-o DIR` with URL inputs writes HOST_PORT/PATH.
#[test]
fn issue_31_output_dir_of_urls_is_a_host_and_path_layout() {
    let server = Server::start(site);
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("out");
    let out = gleaner(&[
        "extract",
        &server.url("/"),
        &server.url("/a"),
        "-o",
        out_dir.to_str().expect("utf-8 path"),
        "--delay-ms",
        "0",
        "--no-progress",
        "--allow-private-origin",
        &server.origin(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let host = out_dir.join(format!("127.0.0.1_{}", server.port()));
    assert!(host.join("index.txt").is_file(), "{:?}", std::fs::read_dir(&out_dir));
    assert!(host.join("a.txt").is_file());
    let names: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("out")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [format!("127.0.0.1_{}", server.port())]);
}
