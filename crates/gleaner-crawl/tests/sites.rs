//! Crawls of the real shared sites, served on 127.0.0.1 by an in-process
//! server: each page fetched once, caps obeyed, WARC round trip, and the
//! folder source agreeing with HTTP.

mod server;

use std::collections::HashSet;
use std::time::Duration;

use gleaner_crawl::{
    crawl, url_key, AddressPolicy, CrawlOptions, DirSource, Fetched, HttpOptions, HttpSource,
    PageSource, Url, WarcRecorder, WarcSource,
};
use server::{site_dir, Server};

/// A fast source allowed to fetch from this test's own server only.
fn fast_http(server: &Server) -> HttpSource {
    let own = AddressPolicy::default().allow_private_origin(&Url::parse(&server.origin()).unwrap());
    HttpSource::new(
        HttpOptions::default()
            .delay(Duration::ZERO)
            .timeout(Duration::from_secs(5))
            .address_policy(own),
    )
    .unwrap()
}

fn options(max_pages: usize) -> CrawlOptions {
    CrawlOptions::default().max_pages(max_pages).max_time(Duration::from_secs(60))
}

fn pages(source: &(impl PageSource + Sync), start: &str, opts: &CrawlOptions) -> Vec<Fetched> {
    let start = Url::parse(start).unwrap();
    crawl(&start, source, opts).filter_map(|v| v.result.ok()).collect()
}

/// Request targets spelled as pages: `x/index.html` is `x/`.
fn page_target(target: &str) -> String {
    target.strip_suffix("index.html").unwrap_or(target).to_string()
}

#[test]
fn linux_shell_pages_are_fetched_once_each() {
    let Some(root) = site_dir("linux-shell") else { return };
    let server = Server::site(&root);
    let got = pages(&fast_http(&server), &server.url("/index.html"), &options(100));
    // Every page of the Sphinx build: `index.html` and `<name>/index.html`.
    // `genindex/` and `search/` are reached through `<link rel=index>` and
    // `<link rel=search>` only.
    let on_disk = std::fs::read_dir(&root)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().join("index.html").is_file())
        .count()
        + 1;
    assert_eq!(on_disk, 25);
    assert_eq!(got.len(), on_disk, "{:?}", got.iter().map(|p| p.url.as_str()).collect::<Vec<_>>());
    let keys: HashSet<String> = got.iter().map(|p| url_key(&p.url)).collect();
    assert_eq!(keys.len(), got.len());
    let requests = server.requests();
    let mut seen = HashSet::new();
    for r in &requests {
        assert!(seen.insert(page_target(r)), "requested twice: {r}; all: {requests:?}");
    }
    assert_eq!(server.count("/robots.txt"), 1);
    assert!(got.iter().all(|p| p.content_type.as_deref() == Some("text/html")));
}

#[test]
fn shell_novice_crawl_is_bounded_by_the_page_cap() {
    let Some(site) = site_dir("shell-novice") else { return };
    let server = Server::site(&site);
    let start = Url::parse(&server.url("/index.html")).unwrap();
    let source = fast_http(&server);
    let opts = options(10);
    let mut run = crawl(&start, &source, &opts);
    let got: Vec<Fetched> = run.by_ref().filter_map(|v| v.result.ok()).collect();
    assert_eq!(got.len(), 10);
    assert_eq!(run.stats().stopped_by, Some("max-pages"));
    // Ten pages and robots.txt; the crawl runs two fetches at a time and
    // never starts one past the cap.
    assert!(server.requests().len() <= 11, "{:?}", server.requests());

    let all = pages(&source, &server.url("/index.html"), &options(200));
    // SOURCE.md: 36 of 38 pages are reachable (the 404 pages are not).
    assert_eq!(all.len(), 36);
}

#[test]
fn warc_round_trip_replays_the_same_pages_offline() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("site.warc.gz");
    let Some(site) = site_dir("linux-shell") else { return };
    let server = Server::site(&site);
    let start = server.url("/index.html");
    let source = fast_http(&server);
    let mut recorder = WarcRecorder::create(&archive, &source.options().user_agent).unwrap();
    let live: Vec<Fetched> = crawl(&Url::parse(&start).unwrap(), &source, &options(100))
        .filter_map(|v| v.result.ok())
        .inspect(|p| recorder.write(p).unwrap())
        .collect();
    recorder.finish().unwrap();
    let requests = server.requests().len();
    drop(server);

    let replay_source = WarcSource::open(&archive).unwrap();
    assert_eq!(replay_source.urls().len(), live.len());
    let replay = pages(&replay_source, &start, &options(100));
    let summary = |ps: &[Fetched]| -> Vec<(String, Vec<u8>)> {
        ps.iter().map(|p| (p.url.to_string(), p.body.clone())).collect()
    };
    assert_eq!(summary(&replay), summary(&live));
    assert!(replay.iter().zip(&live).all(|(r, l)| r.content_type == l.content_type));
    assert_eq!(requests, live.len() + 1, "pages and robots.txt only");
}

#[test]
fn a_folder_source_finds_the_pages_http_finds() {
    let Some(root) = site_dir("linux-shell") else { return };
    let server = Server::site(&root);
    let http: HashSet<String> =
        pages(&fast_http(&server), &server.url("/index.html"), &options(100))
            .iter()
            .map(|p| url_key(&p.url))
            .collect();
    let base = Url::parse(&server.url("/")).unwrap();
    let folder = DirSource::new(&root, &base);
    let from_folder = pages(&folder, &server.url("/index.html"), &options(100));
    let keys: HashSet<String> = from_folder.iter().map(|p| url_key(&p.url)).collect();
    assert_eq!(keys, http);
    assert_eq!(from_folder.len(), keys.len());
}
