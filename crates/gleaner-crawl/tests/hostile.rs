//! Issue 31, the network side: a hostile server on 127.0.0.1 (bounded,
//! stopping itself) against the HTTP source and the crawl. Each test
//! failed before its fix:
//!
//! - private, loopback and metadata addresses refused, on every hop,
//!   after DNS too; a test allows exactly its own server's origin;
//! - `robots.txt` redirects obey the site and address policy;
//! - site training follows links on the key page's origin only;
//! - the timeout covers a whole fetch, the crawl's `max_time` cuts
//!   fetches under way;
//! - `Retry-After` is honoured per origin, within a cap, and an origin
//!   asking for longer is left alone;
//! - `Content-Encoding` is asked for and decoded within the byte cap
//!   (`robots.txt` too), and WARC keeps the bytes as sent;
//! - failures say what happened (robots.txt 5xx or timeout, a refused
//!   connection, a URL too long).

mod common;
mod server;

use std::io::Write;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{quick, url};
use gleaner_crawl::{
    crawl, AddressClass, AddressError, AddressPolicy, CrawlError, CrawlOptions, HttpOptions,
    HttpSource, PageSource, Visit, WarcRecorder, WarcSource,
};
use server::{Reply, Server, HANG_GUARD};

/// A source with `options`, allowed to fetch from these servers only.
fn source_for(servers: &[&Server], options: HttpOptions) -> HttpSource {
    HttpSource::new(options.address_policy(common::own(servers))).unwrap()
}

fn refused_class(result: &Result<gleaner_crawl::Fetched, CrawlError>) -> Option<AddressClass> {
    match result {
        Err(CrawlError::Address(AddressError::Refused { class, .. })) => Some(*class),
        _ => None,
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut w = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
    w.write_all(bytes).unwrap();
    w.into_inner()
}

/// A port on 127.0.0.1 where nothing listens.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

// Item 6: one address policy for every fetch.

#[test]
fn issue_31_private_addresses_are_refused_unless_allowed() {
    let server = Server::start(|_| Reply::html("<p>secret</p>"));
    let strict = HttpSource::new(quick()).unwrap();
    let port = server.port();
    // The address as written, as resolved by DNS, and in an IPv6 disguise.
    for (target, class) in [
        (server.url("/"), AddressClass::Loopback),
        (format!("http://localhost:{port}/"), AddressClass::Loopback),
        (format!("http://[::ffff:127.0.0.1]:{port}/"), AddressClass::Loopback),
        (format!("http://2130706433:{port}/"), AddressClass::Loopback),
        ("http://169.254.169.254/latest/meta-data/".into(), AddressClass::Metadata),
        ("http://[fd00:ec2::254]/".into(), AddressClass::Metadata),
        (format!("http://0.0.0.0:{port}/"), AddressClass::Unspecified),
    ] {
        let got = strict.fetch(&url(&target));
        assert_eq!(refused_class(&got), Some(class), "{target}: {got:?}");
    }
    let message = strict.fetch(&url(&server.url("/"))).unwrap_err().to_string();
    assert!(message.contains("127.0.0.1 is a loopback address"), "{message}");
    let crawled: Vec<Visit> = crawl(
        &url(&server.url("/")),
        &strict,
        &CrawlOptions::default().all_hosts(true).max_time(Duration::from_secs(10)),
    )
    .collect();
    assert!(crawled.iter().all(|v| v.result.is_err()), "{crawled:?}");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    // Allowed for its origin, the same server answers.
    assert!(source_for(&[&server], quick()).fetch(&url(&server.url("/"))).is_ok());
    // Other schemes are never fetched.
    let file = strict.fetch(&url("file:///etc/passwd"));
    assert!(matches!(file, Err(CrawlError::UnsupportedScheme(_))), "{file:?}");
}

#[test]
fn issue_31_redirects_and_links_leave_the_allowed_origin_for_public_addresses_only() {
    let other = Server::start(|_| Reply::html("<p>admin</p>"));
    let v6 = Server::bind("[::1]:0", |_| Reply::html("<p>redis</p>")).ok();
    let port = other.port();
    let v6_url = format!("http://[::1]:{}/", v6.as_ref().map_or(6379, Server::port));
    let v6_hub = v6_url.clone();
    let home = Server::start(move |target| match target {
        "/meta" => Reply::redirect(302, "http://169.254.169.254/latest/meta-data/"),
        "/v6" => Reply::redirect(302, &v6_url),
        "/localhost" => Reply::redirect(302, &format!("http://localhost:{port}/admin")),
        "/other-port" => Reply::redirect(302, &format!("http://127.0.0.1:{port}/admin")),
        "/mapped" => Reply::redirect(302, &format!("http://[::ffff:127.0.0.1]:{port}/admin")),
        "/" => Reply::html(format!(
            "<a href=\"http://127.0.0.1:{port}/a\">a</a><a href=\"http://localhost:{port}/b\">b</a>\
             <a href=\"{v6_hub}\">c</a><a href=\"http://169.254.169.254/\">m</a>"
        )),
        _ => Reply::status(404),
    });
    // Another host allowed by redirects (no site rule): the address
    // policy alone stops each hop.
    let anywhere = source_for(&[&home], quick().stay_on_site(false));
    for (path, class) in [
        ("/meta", AddressClass::Metadata),
        ("/v6", AddressClass::Loopback),
        ("/localhost", AddressClass::Loopback),
        ("/other-port", AddressClass::Loopback),
        ("/mapped", AddressClass::Loopback),
    ] {
        let got = anywhere.fetch(&url(&home.url(path)));
        assert_eq!(refused_class(&got), Some(class), "{path}: {got:?}");
    }
    let visits: Vec<Visit> = crawl(
        &url(&home.url("/")),
        &anywhere,
        &CrawlOptions::default().all_hosts(true).max_time(Duration::from_secs(10)),
    )
    .collect();
    let refused = visits.iter().filter(|v| refused_class(&v.result).is_some()).count();
    assert_eq!(refused, 4, "{visits:?}");
    // Private addresses allowed everywhere: the site rule still stops a
    // redirect to another port, and metadata stays refused.
    let intranet =
        HttpSource::new(quick().address_policy(AddressPolicy::default().allow_private(true)))
            .unwrap();
    let got = intranet.fetch(&url(&home.url("/other-port")));
    assert!(matches!(got, Err(CrawlError::OffSite(_))), "{got:?}");
    let intranet_anywhere = HttpSource::new(
        quick().stay_on_site(false).address_policy(AddressPolicy::default().allow_private(true)),
    )
    .unwrap();
    let got = intranet_anywhere.fetch(&url(&home.url("/meta")));
    assert_eq!(refused_class(&got), Some(AddressClass::Metadata), "{got:?}");
    assert!(other.requests().is_empty(), "{:?}", other.requests());
    if let Some(v6) = &v6 {
        assert!(v6.requests().is_empty(), "{:?}", v6.requests());
    }
}

// Item 4: robots.txt redirects obey the same policy.

#[test]
fn issue_31_robots_txt_redirects_obey_the_site_and_address_policy() {
    let other = Server::start(|_| Reply::typed("text/plain", "User-agent: *\nAllow: /\n"));
    let port = other.port();
    for (name, location) in [
        ("metadata", "http://169.254.169.254/latest/meta-data/".to_string()),
        ("ipv6 loopback", "http://[::1]:6379/".to_string()),
        ("another port", format!("http://localhost:{port}/admin")),
        ("another port by address", format!("http://127.0.0.1:{port}/admin")),
    ] {
        let home = Server::start(move |target| match target {
            "/robots.txt" => Reply::redirect(302, &location),
            _ => Reply::html("<p>page</p>"),
        });
        // Allowed only its own origin, or every private address on a site.
        let own = source_for(&[&home], quick());
        let intranet =
            HttpSource::new(quick().address_policy(AddressPolicy::default().allow_private(true)))
                .unwrap();
        // Off the site allowed (`--all-hosts`): the address policy stops it.
        let all_hosts = source_for(&[&home], quick().stay_on_site(false));
        for source in [own, intranet, all_hosts] {
            let page = source.fetch(&url(&home.url("/")));
            assert!(page.is_ok(), "{name}: a redirect not followed leaves no rules: {page:?}");
        }
        assert_eq!(home.count("/robots.txt"), 3, "{name}");
    }
    assert!(other.requests().is_empty(), "{:?}", other.requests());
    // On the site, robots.txt redirects are followed as before.
    let moved = Server::start(|target| match target {
        "/robots.txt" => Reply::redirect(301, "/real-robots.txt"),
        "/real-robots.txt" => Reply::typed("text/plain", "User-agent: *\nDisallow: /\n"),
        _ => Reply::html("<p>page</p>"),
    });
    let got = source_for(&[&moved], quick()).fetch(&url(&moved.url("/")));
    assert!(matches!(got, Err(CrawlError::RobotsDisallowed)), "{got:?}");
}

// Item 5: site training stays on the key page's origin.

#[test]
fn issue_31_site_training_follows_links_on_the_origin_only() {
    use gleaner::template::menu::MenuConfig;
    let other = Server::start(|_| Reply::html("<p>another server</p>"));
    let port = other.port();
    let home = Server::start(move |target| {
        let nav = format!(
            "<ul><li><a href=/a>a</a><li><a href=/b>b</a><li><a href=/c>c</a>\
             <li><a href=\"http://127.0.0.1:{port}/x\">x</a>\
             <li><a href=\"http://127.0.0.1:{port}/y\">y</a></ul>"
        );
        match target {
            "/robots.txt" => Reply::status(404),
            _ => Reply::html(format!("<html><body>{nav}<p>page {target}</p></body></html>")),
        }
    });
    // Both servers are allowed: only the origin rule keeps training home.
    let source = source_for(&[&home, &other], quick());
    let parse = gleaner::ParseOptions::default();
    let site = gleaner::template::SiteOptions::default();
    let key = url(&home.url("/"));
    let links = gleaner_crawl::training::links_training(&key, &source, 30, &site, &parse).unwrap();
    assert_eq!(links.pages_fetched, 3);
    let menu = MenuConfig::default().n(4);
    let etdm = gleaner::template::etdm::EtdmConfig::default();
    let found =
        gleaner_crawl::training::menu_training(&key, &source, &menu, &etdm, &parse).unwrap();
    assert!(found.subdigraph.iter().all(|p| p.starts_with(&home.origin())), "{found:?}");
    assert!(other.requests().is_empty(), "{:?}", other.requests());
}

// Item 7: wall-clock deadlines.

#[test]
fn issue_31_the_timeout_covers_every_redirect_hop() {
    let server = Server::start(|target| {
        let hop = target.strip_prefix("/slow/").and_then(|n| n.parse::<u32>().ok());
        match hop {
            Some(n) => Reply::delayed(
                Duration::from_millis(300),
                Reply::redirect(302, &format!("/slow/{}", n + 1)),
            ),
            None => Reply::status(404),
        }
    });
    let source = source_for(&[&server], quick().max_redirects(10));
    let started = Instant::now();
    let got = source.fetch(&url(&server.url("/slow/0")));
    let took = started.elapsed();
    assert!(matches!(got, Err(CrawlError::Timeout(_))), "{got:?}");
    assert!(took < HANG_GUARD, "{took:?}");
    assert!(server.count("/slow/") <= 4, "{:?}", server.requests());
}

#[test]
fn issue_31_max_time_cuts_fetches_under_way() {
    let server = Server::start(|target| match target {
        "/" => Reply::html("<a href=/d1>1</a><a href=/d2>2</a><a href=/d3>3</a><a href=/d4>4</a>"),
        "/robots.txt" => Reply::status(404),
        _ => Reply::Drip { every: Duration::from_millis(100) },
    });
    let source = source_for(&[&server], quick().timeout(Duration::from_secs(8)));
    let options =
        CrawlOptions::default().max_time(Duration::from_millis(1500)).concurrency(4).max_pages(10);
    let started = Instant::now();
    let mut run = crawl(&url(&server.url("/")), &source, &options);
    let visits: Vec<Visit> = run.by_ref().collect();
    let took = started.elapsed();
    assert!(took < HANG_GUARD, "{took:?}");
    assert_eq!(visits.iter().filter(|v| v.result.is_ok()).count(), 1, "{visits:?}");
    assert_eq!(run.stats().stopped_by, Some("max-time"));
    assert_eq!(run.stats().unvisited, 4);
    // The source's own limit, for a command that fetches without a crawl.
    let limited = source_for(
        &[&server],
        quick().timeout(Duration::from_secs(8)).max_time(Some(Duration::from_millis(800))),
    );
    let started = Instant::now();
    let got = limited.fetch(&url(&server.url("/d1")));
    assert!(matches!(got, Err(CrawlError::OutOfTime)), "{got:?}");
    assert!(started.elapsed() < HANG_GUARD, "{:?}", started.elapsed());
    let again = limited.fetch(&url(&server.url("/")));
    assert!(matches!(again, Err(CrawlError::OutOfTime)), "{again:?}");
}

// Item 12: Retry-After.

#[test]
fn issue_31_retry_after_is_waited_for_and_the_page_asked_again() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let server = Server::start(move |target| match target {
        "/busy" if counter.fetch_add(1, Ordering::SeqCst) == 0 => Reply::retry_after(503, "1"),
        // An HTTP-date in the past: no wait, asked again at once.
        "/later" => Reply::retry_after(429, "Sun, 06 Nov 1994 08:49:37 GMT"),
        _ => Reply::html("<p>ready</p>"),
    });
    let source = source_for(&[&server], quick().timeout(Duration::from_secs(3)));
    let started = Instant::now();
    std::thread::scope(|s| {
        let busy = s.spawn(|| source.fetch(&url(&server.url("/busy"))));
        // Asked while the origin is told to wait: it waits too.
        std::thread::sleep(Duration::from_millis(300));
        let other = source.fetch(&url(&server.url("/other")));
        assert!(other.is_ok(), "{other:?}");
        assert!(started.elapsed() >= Duration::from_secs(1), "{:?}", started.elapsed());
        let busy = busy.join().unwrap();
        assert!(busy.is_ok(), "{busy:?}");
    });
    assert_eq!(server.count("/busy"), 2);
    let later = source.fetch(&url(&server.url("/later")));
    assert!(matches!(later, Err(CrawlError::Status(429))), "{later:?}");
    assert_eq!(server.count("/later"), 3, "the first request and two retries");
}

#[test]
fn issue_31_a_host_asking_for_too_long_is_left_alone() {
    let server = Server::start(|target| match target {
        "/" => Reply::html((0..50).map(|i| format!("<a href=/p/{i}>{i}</a>")).collect::<String>()),
        "/robots.txt" => Reply::status(404),
        _ => Reply::retry_after(503, "3600"),
    });
    let source = source_for(&[&server], quick().max_retry_after(Duration::from_secs(2)));
    let started = Instant::now();
    // Two fetches at once (the default): both may be under way when the
    // first answer comes.
    let mut run = crawl(
        &url(&server.url("/")),
        &source,
        &CrawlOptions::default().max_pages(60).max_time(Duration::from_secs(20)),
    );
    let visits: Vec<Visit> = run.by_ref().collect();
    assert!(started.elapsed() < HANG_GUARD, "{:?}", started.elapsed());
    assert!(server.count("/p/") <= 2, "asked at most once a fetch slot: {:?}", server.requests());
    assert_eq!(run.stats().skipped.get("backed-off"), Some(&50), "{:?}", run.stats());
    let message = visits.iter().find_map(|v| v.result.as_ref().err()).unwrap().to_string();
    assert!(
        message.contains("asking to wait 3600 s (Retry-After), longer than the 2 s"),
        "{message}"
    );
}

// Item 13: content codings.

#[test]
fn issue_31_content_encodings_are_asked_for_and_decoded_within_the_cap() {
    let page = b"<!DOCTYPE html><title>t</title><p>encoded page</p>".to_vec();
    let (gz, br) = (gzip(&page), brotli(&page));
    let zst = zstd::encode_all(&page[..], 3).unwrap();
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    zlib.write_all(&page).unwrap();
    let deflate = zlib.finish().unwrap();
    let bomb = gzip(&b"<p>".repeat(8 << 20));
    let server = Server::start(move |target| match target {
        "/gzip" => Reply::encoded("gzip", gz.clone()),
        "/br" => Reply::encoded("br", br.clone()),
        "/zstd" => Reply::encoded("zstd", zst.clone()),
        "/deflate" => Reply::encoded("deflate", deflate.clone()),
        "/bomb" => Reply::encoded("gzip", bomb.clone()),
        "/corrupt" => Reply::encoded("gzip", b"\x1f\x8b\x08\0 not really gzip".to_vec()),
        "/unknown" => Reply::encoded("compress", b"???".to_vec()),
        _ => Reply::status(404),
    });
    let source = source_for(&[&server], quick());
    for coding in ["gzip", "br", "zstd", "deflate"] {
        let got = source.fetch(&url(&server.url(&format!("/{coding}")))).unwrap();
        assert_eq!(got.body, page, "{coding}");
        assert!(got.encoded_body.as_ref().is_some_and(|raw| raw != &page), "{coding}");
    }
    let heads = server.heads();
    assert!(
        heads
            .iter()
            .all(|h| h.to_ascii_lowercase().contains("accept-encoding: gzip, deflate, br, zstd")),
        "{heads:?}"
    );
    let started = Instant::now();
    let bomb = source.fetch(&url(&server.url("/bomb")));
    assert!(matches!(bomb, Err(CrawlError::TooLarge { limit: 1_048_576 })), "{bomb:?}");
    assert!(started.elapsed() < HANG_GUARD);
    let corrupt = source.fetch(&url(&server.url("/corrupt")));
    assert!(matches!(corrupt, Err(CrawlError::ContentEncoding(_))), "{corrupt:?}");
    let unknown = source.fetch(&url(&server.url("/unknown")));
    assert!(matches!(unknown, Err(CrawlError::ContentEncoding(_))), "{unknown:?}");
}

#[test]
fn issue_31_a_gzipped_robots_txt_is_obeyed() {
    let rules = gzip(b"User-agent: *\nDisallow: /\n");
    let server = Server::start(move |target| match target {
        "/robots.txt" => Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/plain".into()),
                ("Content-Encoding".into(), "gzip".into()),
            ],
            body: rules.clone(),
        },
        _ => Reply::html("<p>page</p>"),
    });
    let got = source_for(&[&server], quick()).fetch(&url(&server.url("/")));
    assert!(matches!(got, Err(CrawlError::RobotsDisallowed)), "{got:?}");
    assert_eq!(server.requests(), ["/robots.txt"]);
}

#[test]
fn issue_31_warc_keeps_the_body_as_sent_and_replays_it_decoded() {
    let page = b"<!DOCTYPE html><p>zipped page</p>".to_vec();
    let sent = gzip(&page);
    let body = sent.clone();
    let server = Server::start(move |target| match target {
        "/" => Reply::encoded("gzip", body.clone()),
        _ => Reply::status(404),
    });
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("crawl.warc");
    let fetched = source_for(&[&server], quick()).fetch(&url(&server.url("/"))).unwrap();
    let mut recorder = WarcRecorder::create(&archive, "test").unwrap();
    recorder.write(&fetched).unwrap();
    recorder.finish().unwrap();
    let bytes = std::fs::read(&archive).unwrap();
    let at = bytes.windows(sent.len()).position(|w| w == sent.as_slice());
    assert!(at.is_some(), "the gzip bytes as sent are in the WARC");
    let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
    assert!(text.contains("content-encoding: gzip"));
    assert!(text.contains(&format!("content-length: {}", sent.len())));
    let replay = WarcSource::open(&archive).unwrap().fetch(&url(&server.url("/"))).unwrap();
    assert_eq!(replay.body, page);
    assert_eq!(replay.encoded_body.as_deref(), Some(sent.as_slice()));
}

// Item 14: failures that say what happened.

#[test]
fn issue_31_failures_say_what_happened() {
    // Nothing listens: connection refused, not "disallowed by robots.txt".
    let port = closed_port();
    let anywhere =
        HttpSource::new(quick().address_policy(AddressPolicy::default().allow_private(true)))
            .unwrap();
    let got = anywhere.fetch(&url(&format!("http://127.0.0.1:{port}/")));
    match &got {
        Err(CrawlError::Network(m)) => {
            assert_eq!(m, &format!("connection refused by 127.0.0.1:{port}"))
        }
        other => panic!("{other:?}"),
    }
    // A robots.txt that times out: a timeout.
    let slow = Server::start(|target| match target {
        "/robots.txt" => Reply::Drip { every: Duration::from_millis(200) },
        _ => Reply::html("<p>page</p>"),
    });
    let got = source_for(&[&slow], quick()).fetch(&url(&slow.url("/")));
    assert!(matches!(got, Err(CrawlError::Timeout(_))), "{got:?}");
    // A URL too long is refused before any request.
    let server = Server::start(|target| match target {
        "/long" => Reply::redirect(302, &format!("/{}", "x".repeat(9000))),
        _ => Reply::html("<p>page</p>"),
    });
    let source = source_for(&[&server], quick());
    let long = url(&server.url(&format!("/{}", "y".repeat(100_000))));
    let got = source.fetch(&long);
    assert!(matches!(got, Err(CrawlError::UrlTooLong { limit: 8192, .. })), "{got:?}");
    assert!(got.unwrap_err().to_string().starts_with("URL too long"));
    let got = source.fetch(&url(&server.url("/long")));
    assert!(matches!(got, Err(CrawlError::UrlTooLong { .. })), "{got:?}");
    assert_eq!(server.requests(), ["/robots.txt", "/long"]);
}
