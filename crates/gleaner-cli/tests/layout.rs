//! `--layout browser`: extraction and evaluation with the real Chromium,
//! offline; a clear error when Chromium is missing. The page's resources
//! live on a server started by the test, which must see no request.
#![cfg(feature = "browser")]

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;
mod support;

use server::{Reply, Server};
use support::{gleaner, put, run, run_ok, stderr, stdout};

/// A news page whose stylesheet, script and image are on `origin`.
fn page(origin: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html><head><title>Story</title><base href="{origin}/">
<link rel="stylesheet" href="static/site.css"><script src="static/app.js"></script></head>
<body><nav><a href="/">Home</a> | <a href="/news">News</a></nav>
<article><h1>Rivers rise after the storm</h1>
<p>The river rose two metres overnight after three days of rain, and the town closed the old
bridge to traffic while engineers checked its piers for damage from floating debris.</p>
<img src="static/photo.jpg" width="400" height="300" alt="the bridge">
<p>Residents of the lower streets moved their cars to higher ground, and the school on the
riverbank sent its pupils home at noon as water reached the playground fence.</p></article>
<footer>Copyright the Daily Example</footer></body></html>"#
    )
}

fn serve() -> Server {
    Server::start(|target| match target {
        "/static/site.css" => Reply::typed("text/css", "body { display: none }"),
        "/static/app.js" => Reply::typed("text/javascript", "document.body.remove()"),
        _ => Reply::html("<p>a page that must not be fetched</p>"),
    })
}

#[test]
fn extract_with_browser_layout_fetches_nothing() {
    let server = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    let origin = server.url("");
    let file = put(dir.path(), "story.html", page(&origin));
    let out = run_ok(gleaner().args(["extract", "--layout", "browser"]).arg(&file));
    assert!(stdout(&out).contains("The river rose two metres overnight"), "{}", stdout(&out));
    assert_eq!(server.requests(), Vec::<String>::new());
}

#[test]
fn eval_with_browser_layout_labels_its_rows() {
    let server = serve();
    let dir = tempfile::tempdir().expect("temp dir");
    put(dir.path(), "input/1.html", page(&server.url("")));
    put(dir.path(), "GoldStandard/1.txt", "The river rose two metres overnight");
    let out = run_ok(
        gleaner()
            .args(["eval", "--algorithms", "plain", "--metric", "lcs", "--format", "json"])
            .args(["--layout", "browser", "--no-progress", "--data"])
            .arg(dir.path()),
    );
    let rows: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON rows");
    assert_eq!(rows[0]["algorithm"], "plain+browser", "{rows}");
    assert_eq!(rows[0]["failed"], 0, "{rows}");
    assert_eq!(server.requests(), Vec::<String>::new());
}

#[test]
fn missing_chromium_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = put(dir.path(), "p.html", "<p>text</p>");
    let out = run(gleaner()
        .env("GLEANER_CHROMIUM", "/nonexistent/chromium")
        .args(["extract", "--layout", "browser"])
        .arg(&file));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("Chromium not found") && err.contains("/nonexistent/chromium"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
