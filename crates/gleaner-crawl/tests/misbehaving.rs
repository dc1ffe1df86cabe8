//! A misbehaving server on 127.0.0.1: every failure is a typed error for
//! that page, the crawl goes on, and time, bytes and requests stay bounded.

mod common;
mod server;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{quick_for, url};
use gleaner_crawl::{crawl, CrawlError, CrawlOptions, HttpOptions, HttpSource, PageSource, Visit};
use server::{Reply, Server, HANG_GUARD};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01";

fn http(options: HttpOptions) -> HttpSource {
    HttpSource::new(options).unwrap()
}

/// The misbehaving routes, and a hub page linking to all of them.
fn misbehave(target: &str) -> Reply {
    let n = |prefix: &str| target.strip_prefix(prefix).and_then(|r| r.parse::<u32>().ok());
    match target {
        "/" => Reply::html(
            [
                "/loop/a",
                "/chain/0",
                "/error",
                "/drip",
                "/endless",
                "/declared-huge",
                "/image.png",
                "/html-as-text",
                "/unlabelled",
                "/unlabelled-png",
                "/latin1",
                "/empty-redirect",
                "/ok",
            ]
            .iter()
            .map(|l| format!("<a href=\"{l}\">{l}</a>\n"))
            .collect::<String>(),
        ),
        "/loop/a" => Reply::redirect(302, "/loop/b"),
        "/loop/b" => Reply::redirect(302, "/loop/a"),
        "/error" => Reply::status(500),
        "/drip" => Reply::Drip { every: Duration::from_millis(100) },
        "/endless" => Reply::Endless,
        "/declared-huge" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/html".into()),
                ("Content-Length".into(), "2000000000".into()),
            ],
            body: Vec::new(),
        },
        "/image.png" => Reply::typed("image/png", PNG),
        "/html-as-text" => Reply::typed("text/plain", "<!DOCTYPE html><title>t</title><p>x"),
        "/unlabelled" => Reply::Full {
            status: 200,
            headers: Vec::new(),
            body: b"<!DOCTYPE html><title>u</title><p>unlabelled".to_vec(),
        },
        "/unlabelled-png" => Reply::Full { status: 200, headers: Vec::new(), body: PNG.to_vec() },
        "/latin1" => Reply::typed("text/html; charset=iso-8859-1", b"<p>caf\xe9</p>".to_vec()),
        "/empty-redirect" => Reply::Full { status: 302, headers: Vec::new(), body: Vec::new() },
        "/ok" => Reply::html("<p>fine</p>"),
        _ => match n("/chain/") {
            Some(i) => Reply::redirect(301, &format!("/chain/{}", i + 1)),
            None => Reply::status(404),
        },
    }
}

#[test]
fn each_failure_is_a_typed_error() {
    let server = Server::start(misbehave);
    let source = http(quick_for(&[&server]));
    let fetch = |path: &str| source.fetch(&url(&server.url(path)));

    assert!(matches!(fetch("/loop/a"), Err(CrawlError::RedirectLoop(u)) if u.path() == "/loop/a"));
    assert!(matches!(fetch("/chain/0"), Err(CrawlError::TooManyRedirects(5))));
    assert_eq!(server.count("/chain/"), 6, "the first request and five redirects");
    assert!(matches!(fetch("/error"), Err(CrawlError::Status(500))));
    assert!(matches!(fetch("/nowhere"), Err(CrawlError::Status(404))));
    assert!(matches!(fetch("/empty-redirect"), Err(CrawlError::BadRedirect { status: 302 })));
    assert!(matches!(fetch("/declared-huge"), Err(CrawlError::TooLarge { limit: 1_048_576 })));

    // Content types: labels win over bytes, except that binary bytes are
    // never a page; without a label the bytes must look like HTML.
    assert!(matches!(fetch("/image.png"), Err(CrawlError::NotHtml(t)) if t == "image/png"));
    assert!(matches!(fetch("/html-as-text"), Err(CrawlError::NotHtml(t)) if t == "text/plain"));
    assert!(matches!(fetch("/unlabelled-png"), Err(CrawlError::NotHtml(_))));
    let unlabelled = fetch("/unlabelled").unwrap();
    assert_eq!(unlabelled.content_type, None);

    // The header's charset is passed on and decodes the page.
    let latin1 = fetch("/latin1").unwrap();
    assert_eq!(latin1.charset.as_deref(), Some("iso-8859-1"));
    let doc = gleaner::Document::parse(
        &latin1.body,
        &latin1.parse_options(&gleaner::ParseOptions::default()),
    )
    .unwrap();
    assert!(doc.text_content(doc.body()).contains("café"));
}

#[test]
fn a_slow_drip_is_cut_off_by_the_timeout() {
    let server = Server::start(misbehave);
    let source = http(quick_for(&[&server]));
    let started = Instant::now();
    let result = source.fetch(&url(&server.url("/drip")));
    assert!(matches!(result, Err(CrawlError::Timeout(_))), "{result:?}");
    assert!(started.elapsed() < HANG_GUARD, "{:?}", started.elapsed());
}

#[test]
fn an_endless_body_is_capped_not_read_whole() {
    let server = Server::start(misbehave);
    let source = http(quick_for(&[&server]).timeout(Duration::from_secs(5)));
    let started = Instant::now();
    let result = source.fetch(&url(&server.url("/endless")));
    assert!(matches!(result, Err(CrawlError::TooLarge { limit: 1_048_576 })), "{result:?}");
    assert!(started.elapsed() < HANG_GUARD);
    // The client hung up: the server's writes fail soon after the cap,
    // with at most the socket buffers in flight.
    std::thread::sleep(Duration::from_millis(300));
    let sent = server.written();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.written(), sent, "the server is still sending");
    assert!(sent < 32 << 20, "{sent} bytes sent for a 1 MiB cap");
}

#[test]
fn a_crawl_goes_on_past_every_failure() {
    let server = Server::start(misbehave);
    let source = http(quick_for(&[&server]));
    let options = CrawlOptions::default().max_pages(50).max_time(Duration::from_secs(30));
    let started = Instant::now();
    let mut run = crawl(&url(&server.url("/")), &source, &options);
    let visits: Vec<Visit> = run.by_ref().collect();
    assert!(started.elapsed() < HANG_GUARD);
    let ok: Vec<&str> = visits.iter().filter(|v| v.result.is_ok()).map(|v| v.url.path()).collect();
    assert_eq!(ok, ["/", "/unlabelled", "/latin1", "/ok"]);
    let expected: BTreeMap<String, usize> = [
        ("bad-redirect", 1),
        ("http-500", 1),
        ("not-html", 3),
        ("redirect-loop", 1),
        ("timeout", 1),
        ("too-large", 2),
        ("too-many-redirects", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(run.stats().skipped, expected);
    assert_eq!(run.stats().pages, 4);
    assert_eq!(run.stats().stopped_by, None);
}

#[test]
fn robots_txt_disallow_is_obeyed() {
    let server = Server::start(|target| {
        match target {
        "/robots.txt" => Reply::typed(
            "text/plain",
            "User-agent: *\nDisallow: /private/\n\nUser-agent: gleaner-crawl\nDisallow: /private/\nDisallow: /only-us/\n",
        ),
        "/" => Reply::html(
            "<a href=/private/a>a</a><a href=/private/b>b</a><a href=/only-us/>o</a>\
             <a href=/public>p</a><a href=/redirect-to-private>r</a>",
        ),
        "/redirect-to-private" => Reply::redirect(302, "/private/c"),
        "/public" => Reply::html("<a href=/private/d>d</a>"),
        _ => Reply::status(404),
    }
    });
    let source = http(quick_for(&[&server]));
    let options = CrawlOptions::default().max_time(Duration::from_secs(30));
    let visits: Vec<Visit> = crawl(&url(&server.url("/")), &source, &options).collect();
    let disallowed: Vec<&str> = visits
        .iter()
        .filter(|v| matches!(v.result, Err(CrawlError::RobotsDisallowed)))
        .map(|v| v.url.path())
        .collect();
    assert_eq!(
        disallowed,
        ["/private/a", "/private/b", "/only-us/", "/redirect-to-private", "/private/d"]
    );
    assert_eq!(server.count("/private/"), 0);
    assert_eq!(server.count("/only-us/"), 0);
    assert_eq!(server.count("/robots.txt"), 1);
    assert_eq!(server.requests().len(), 4, "{:?}", server.requests());

    // Another agent name matches the `*` group only.
    let other = http(quick_for(&[&server]).user_agent("otherbot/1.0"));
    assert!(other.fetch(&url(&server.url("/only-us/"))).is_err_and(|e| e.reason() == "http-404"));
    assert!(matches!(
        other.fetch(&url(&server.url("/private/a"))),
        Err(CrawlError::RobotsDisallowed)
    ));
}

#[test]
fn a_failing_robots_txt_means_nothing_is_allowed() {
    let server = Server::start(|target| match target {
        "/robots.txt" => Reply::status(503),
        _ => Reply::html("<p>page</p>"),
    });
    let source = http(quick_for(&[&server]));
    // Issue 31: said so, not "disallowed by robots.txt".
    let failed = source.fetch(&url(&server.url("/")));
    assert!(matches!(failed, Err(CrawlError::RobotsUnavailable(503))), "{failed:?}");
    assert!(failed.unwrap_err().to_string().starts_with("robots.txt answered HTTP 503"));
    assert_eq!(server.requests(), ["/robots.txt"]);
}

#[test]
fn off_site_links_are_not_followed() {
    let elsewhere = Server::start(|_| Reply::html("<p>elsewhere</p>"));
    let away = elsewhere.url("/page");
    let away_redirect = away.clone();
    let home = Server::start(move |target| match target {
        "/" => Reply::html(format!(
            "<a href=\"{away}\">off</a><a href=/moved>moved</a><a href=/ok>ok</a>"
        )),
        "/moved" => Reply::redirect(302, &away_redirect),
        "/ok" => Reply::html("<p>ok</p>"),
        _ => Reply::status(404),
    });
    let source = http(quick_for(&[&home, &elsewhere]));
    let options = CrawlOptions::default().max_time(Duration::from_secs(30));
    let visits: Vec<Visit> = crawl(&url(&home.url("/")), &source, &options).collect();
    let off: Vec<&Visit> =
        visits.iter().filter(|v| matches!(v.result, Err(CrawlError::OffSite(_)))).collect();
    assert_eq!(off.len(), 2, "{visits:?}");
    assert_eq!(visits.iter().filter(|v| v.result.is_ok()).count(), 2);
    assert!(elsewhere.requests().is_empty(), "{:?}", elsewhere.requests());

    // Told to, the crawl goes to other hosts.
    let everywhere = http(quick_for(&[&home, &elsewhere]).stay_on_site(false));
    let options = options.all_hosts(true).max_pages(10);
    let ok =
        crawl(&url(&home.url("/")), &everywhere, &options).filter(|v| v.result.is_ok()).count();
    assert_eq!(ok, 3, "/, /ok and the other host's page, delivered once");
    // Reached by a link and by a redirect fetched at the same time: a
    // redirect's target is known only after it is requested.
    assert!((1..=2).contains(&elsewhere.count("/page")));
}

#[test]
fn a_page_of_ten_thousand_links_is_bounded_by_the_page_cap() {
    let server = Server::start(|target| match target {
        "/" => Reply::html(
            (0..10_000)
                .map(|i| format!("<a href=\"/p/{i}?utm_source=hub#top\">{i}</a>\n"))
                .collect::<String>(),
        ),
        t if t.starts_with("/p/") => {
            Reply::html("<a href=\"/\">home</a><a href=\"/index.html\">i</a>")
        }
        _ => Reply::status(404),
    });
    let source = http(quick_for(&[&server]));
    let options = CrawlOptions::default().max_pages(30).max_time(Duration::from_secs(30));
    let mut run = crawl(&url(&server.url("/")), &source, &options);
    let ok: Vec<String> =
        run.by_ref().filter_map(|v| v.result.ok()).map(|p| p.url.to_string()).collect();
    assert_eq!(ok.len(), 30);
    assert!(ok[1].ends_with("/p/0"), "tracking parameters and fragments dropped: {}", ok[1]);
    assert_eq!(run.stats().stopped_by, Some("max-pages"));
    assert_eq!(run.stats().unvisited, 10_000 - 29);
    let requests = server.requests();
    assert_eq!(requests.len(), 31, "30 pages and robots.txt");
    assert_eq!(server.count("/index.html"), 0, "/index.html is / already fetched");
}

#[test]
fn requests_to_a_host_are_spaced_by_the_delay() {
    let server = Server::start(|target| match target {
        "/" => Reply::html("<a href=/a>a</a><a href=/b>b</a><a href=/c>c</a>"),
        _ => Reply::html("<p>leaf</p>"),
    });
    let source = http(quick_for(&[&server]).delay(Duration::from_millis(150)));
    let started = Instant::now();
    let options = CrawlOptions::default().max_time(Duration::from_secs(30));
    let ok = crawl(&url(&server.url("/")), &source, &options).filter(|v| v.result.is_ok()).count();
    assert_eq!(ok, 4);
    // robots.txt and four pages: four gaps of at least 150 ms.
    assert!(started.elapsed() >= Duration::from_millis(600), "{:?}", started.elapsed());
    assert!(started.elapsed() < HANG_GUARD);
}
