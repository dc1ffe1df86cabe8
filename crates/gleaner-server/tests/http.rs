//! `gleaner serve` over real HTTP on 127.0.0.1: every route, the shims,
//! the limits, auth, the address policy and graceful shutdown. Every
//! read is bounded ([`support::IO_TIMEOUT`]); servers stop when dropped.

mod support;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use gleaner_server::Config;
use serde_json::json;
use support::{article, fetching, post_json, send, start, test_site};

#[test]
fn extract_answers_with_the_record_and_the_formats_asked_for() {
    let server = start(Config::default());
    let reply = post_json(
        server.addr,
        "/v1/extract",
        &json!({"html": article("River news"), "base_url": "https://example.org/river",
                "formats": ["text", "markdown", "html", "json"], "links": true}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let r = reply.json();
    assert_eq!(r["title"], "River news");
    assert_eq!(r["url"], "https://example.org/river");
    assert_eq!(r["language"], "en");
    assert_eq!(r["description"], "A page about River news.");
    assert!(r["text"].as_str().is_some_and(|t| t.contains("forty years")), "{r}");
    assert!(!r["text"].as_str().unwrap_or_default().contains("All rights reserved"), "{r}");
    assert!(r["markdown"].as_str().is_some_and(|m| m.starts_with("# River news")), "{r}");
    assert!(r["html"].as_str().is_some_and(|h| h.contains("<p>")), "{r}");
    for key in ["page_type", "is_article", "warnings", "timings", "fingerprint", "error"] {
        assert!(r.get(key).is_some(), "no {key}: {r}");
    }

    // A raw HTML body with the options as query parameters.
    let reply = send(
        server.addr,
        "POST",
        "/v1/extract?formats=markdown&base_url=https://example.org/q&algorithm=article&favor=precision",
        &[("Content-Type", "text/html; charset=utf-8")],
        article("Query options").as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let r = reply.json();
    assert_eq!(
        (r["algorithm"].as_str(), r["url"].as_str()),
        (Some("article"), Some("https://example.org/q"))
    );
    assert!(r["markdown"].as_str().is_some_and(|m| m.contains("forty years")));

    // Bad requests are 400 with a reason.
    for bad in
        [json!({}), json!({"html": "x", "algorithm": "nope"}), json!({"html": "x", "colour": 1})]
    {
        let reply = post_json(server.addr, "/v1/extract", &bad);
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
        assert_eq!(reply.json()["kind"], "bad_request");
    }
    // Binary input is a record that says so, with 422.
    let reply = send(
        server.addr,
        "POST",
        "/v1/extract",
        &[("Content-Type", "text/html")],
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    );
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert_eq!(reply.json()["failure"], "not_html");
}

#[test]
fn the_time_budget_cuts_a_page_off_and_the_record_says_so() {
    let server = start(Config::default());
    let big = format!("<body>{}</body>", "<div><p>word word word</p></div>".repeat(200_000));
    let reply = post_json(server.addr, "/v1/extract", &json!({"html": big, "time_budget_ms": 1}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let r = reply.json();
    assert_eq!(r["failure"], "time_budget");
    assert!(r["error"].as_str().is_some_and(|e| e.contains("time")), "{r}");
}

#[test]
fn batch_streams_records_in_input_order_and_a_bad_line_is_one_failed_line() {
    let server = start(Config::default());
    let mut body = String::new();
    for (i, title) in ["One", "Two", "Three"].iter().enumerate() {
        body.push_str(&json!({"html": article(title), "id": i}).to_string());
        body.push('\n');
        if i == 0 {
            body.push_str("{not json\n\n");
        }
    }
    let reply = send(
        server.addr,
        "POST",
        "/v1/batch",
        &[("Content-Type", "application/x-ndjson")],
        body.as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/x-ndjson"));
    let lines: Vec<serde_json::Value> =
        reply.text().lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 4, "{}", reply.text());
    assert_eq!(lines[0]["title"], "One");
    assert_eq!(lines[0]["id"], 0);
    assert_eq!(lines[1]["success"], false);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(
        (lines[2]["title"].as_str(), lines[3]["title"].as_str()),
        (Some("Two"), Some("Three"))
    );
}

#[test]
fn templates_are_learned_stored_and_applied() {
    let dir = tempfile::tempdir().expect("dir");
    let mut config = Config::default();
    config.template_dir = Some(dir.path().to_path_buf());
    let server = start(config);
    let pages: Vec<String> =
        ["Alpha", "Beta", "Gamma", "Delta"].iter().map(|t| article(t)).collect();
    let reply = post_json(server.addr, "/v1/templates", &json!({"pages": pages}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let learned = reply.json();
    let id = learned["id"].as_str().expect("id").to_string();
    assert_eq!(learned["pages"], 4);
    assert!(learned["template_segments"].as_u64().is_some_and(|n| n > 0), "{learned}");
    assert!(dir.path().join(format!("{id}.json")).is_file());

    let reply = post_json(
        server.addr,
        "/v1/extract",
        &json!({"html": article("Epsilon"), "template": id, "algorithm": "entropy"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let r = reply.json();
    assert_eq!(r["template_applied"], true, "{r}");
    assert!(!r["text"].as_str().unwrap_or_default().contains("About us"), "{r}");

    let shown = send(server.addr, "GET", &format!("/v1/templates/{id}"), &[], b"");
    assert_eq!(shown.status, 200);
    assert!(shown.json().get("segments").is_some());
    assert_eq!(send(server.addr, "GET", "/v1/templates/nothing-here", &[], b"").status, 404);
    let few = post_json(server.addr, "/v1/templates", &json!({"pages": [article("Only")]}));
    assert_eq!(few.status, 400);
    let reply =
        post_json(server.addr, "/v1/extract", &json!({"html": "<p>x</p>", "algorithm": "entropy"}));
    assert_eq!(reply.status, 400, "an algorithm that needs a template, without one");
}

#[test]
fn the_service_routes_answer() {
    let server = start(Config::default());
    let health = send(server.addr, "GET", "/healthz", &[], b"");
    assert_eq!((health.status, health.json()["status"].as_str()), (200, Some("ok")));
    let algorithms = send(server.addr, "GET", "/v1/algorithms", &[], b"").json();
    let list = algorithms.as_array().expect("list");
    assert!(list
        .iter()
        .any(|a| a["name"] == "article" && a["params"].as_array().is_some_and(|p| !p.is_empty())));
    let openapi = send(server.addr, "GET", "/openapi.json", &[], b"").json();
    for path in [
        "/v1/extract",
        "/v1/batch",
        "/v1/templates",
        "/v1/scrape",
        "/v2/scrape",
        "/{url}",
        "/metrics",
    ] {
        assert!(openapi["paths"].get(path).is_some(), "{path} missing from /openapi.json");
    }
    let page = send(server.addr, "GET", "/", &[], b"");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<form id=\"form\"") && !page.text().contains("src=\"http"));
    let report = post_json(
        server.addr,
        "/v1/inspect",
        &json!({"html": article("Inspected"), "algorithm": "article"}),
    );
    assert_eq!(report.status, 200, "{}", report.text());
    assert!(report.text().contains("Inspected") && report.text().contains("<html"));
    // The metrics count what happened.
    let _ = post_json(server.addr, "/v1/extract", &json!({"html": "x", "algorithm": "nope"}));
    let metrics = send(server.addr, "GET", "/metrics", &[], b"").text();
    for needle in [
        "gleaner_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1",
        "gleaner_request_duration_seconds_bucket{route=\"/v1/inspect\",le=\"+Inf\"} 1",
        "gleaner_errors_total{kind=\"bad_request\"} 1",
        "gleaner_pages_total",
        "gleaner_page_bytes_total",
        "gleaner_in_flight_requests 1",
    ] {
        assert!(metrics.contains(needle), "no {needle:?} in\n{metrics}");
    }
}

#[test]
fn urls_need_allow_fetch_and_are_refused_at_private_addresses() {
    let site = test_site(None);
    let closed = start(Config::default());
    let reply = post_json(closed.addr, "/v1/extract", &json!({"url": site.url("/article")}));
    assert_eq!((reply.status, reply.json()["kind"].as_str()), (403, Some("fetch_disabled")));
    let reply = post_json(closed.addr, "/v1/scrape", &json!({"url": site.url("/article")}));
    assert_eq!(reply.status, 403);

    // Fetching on, private addresses not: loopback by address and by name
    // (refused after DNS), and metadata addresses never.
    let mut config = Config::default();
    config.allow_fetch = true;
    config.fetch_delay = Duration::ZERO;
    let public_only = start(config);
    for url in [site.url("/article"), format!("http://localhost:{}/article", site.port())] {
        let reply = post_json(public_only.addr, "/v1/extract", &json!({"url": url}));
        assert_eq!(reply.status, 403, "{url}: {}", reply.text());
        assert!(reply.text().contains("refused by the address policy"), "{}", reply.text());
    }
    let private_ok = start(fetching());
    let reply = post_json(
        private_ok.addr,
        "/v1/extract",
        &json!({"url": "http://169.254.169.254/latest/meta-data/"}),
    );
    assert_eq!(reply.status, 403, "{}", reply.text());

    // A redirect from an admitted origin to another private one.
    let target = test_site(None);
    let redirecting = test_site(Some(target.url("/article")));
    let mut config = Config::default();
    config.allow_fetch = true;
    config.fetch_delay = Duration::ZERO;
    config.allow_private_origins = vec![redirecting.origin().parse().expect("url")];
    let one_origin = start(config);
    let reply =
        post_json(one_origin.addr, "/v1/extract", &json!({"url": redirecting.url("/article")}));
    assert_eq!(reply.status, 200, "the admitted origin itself: {}", reply.text());
    let reply =
        post_json(one_origin.addr, "/v1/extract", &json!({"url": redirecting.url("/moved")}));
    assert_eq!(reply.status, 403, "{}", reply.text());
    assert!(
        reply.text().contains("address policy") || reply.text().contains("off-site"),
        "{}",
        reply.text()
    );

    // The host allow-list.
    let mut config = fetching();
    config.allow_hosts = vec!["example.org".into()];
    let listed = start(config);
    let reply = post_json(listed.addr, "/v1/extract", &json!({"url": site.url("/article")}));
    assert_eq!(reply.status, 403);
    assert!(reply.text().contains("--allow-host"));
}

#[test]
fn a_fetched_page_is_extracted_with_its_fetch() {
    let site = test_site(None);
    let server = start(fetching());
    let reply = post_json(
        server.addr,
        "/v1/extract",
        &json!({"url": site.url("/article"), "formats": ["markdown"]}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let r = reply.json();
    assert_eq!(r["url"], site.url("/article"));
    assert_eq!(r["fetch"]["status"], 200);
    assert!(r["markdown"].as_str().is_some_and(|m| m.contains("# Flood defences")), "{r}");
    let reply = post_json(server.addr, "/v1/extract", &json!({"url": site.url("/missing")}));
    assert_eq!(reply.status, 502, "{}", reply.text());
}

#[test]
fn firecrawl_scrape_v1_and_v2_answer_in_firecrawl_shape() {
    let site = test_site(None);
    let server = start(fetching());
    for path in ["/v1/scrape", "/v2/scrape"] {
        let formats = if path == "/v1/scrape" {
            json!(["markdown", "html", "rawHtml", "links"])
        } else {
            json!([{"type": "markdown"}, "html", "rawHtml", "links"])
        };
        let reply = post_json(
            server.addr,
            path,
            &json!({"url": site.url("/article"), "formats": formats, "waitFor": 0}),
        );
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        let r = reply.json();
        assert_eq!(r["success"], true);
        let data = &r["data"];
        assert!(data["markdown"]
            .as_str()
            .is_some_and(|m| m.contains("Flood defences") && m.contains("forty years")));
        assert!(data["html"].as_str().is_some_and(|h| h.contains("<p>")));
        assert!(data["rawHtml"].as_str().is_some_and(|h| h.contains("<nav>")));
        assert!(
            data["links"]
                .as_array()
                .is_some_and(|l| l.iter().any(|u| u == &json!(site.url("/news")))),
            "{data}"
        );
        let meta = &data["metadata"];
        assert_eq!(meta["title"], "Flood defences");
        assert_eq!(meta["description"], "A page about Flood defences.");
        assert_eq!(meta["language"], "en");
        assert_eq!(meta["sourceURL"], site.url("/article"));
        assert_eq!(meta["statusCode"], 200);
    }
    // onlyMainContent: false keeps the menu; includeTags and excludeTags narrow.
    let whole = post_json(
        server.addr,
        "/v1/scrape",
        &json!({"url": site.url("/article"), "onlyMainContent": false}),
    )
    .json();
    assert!(whole["data"]["markdown"].as_str().is_some_and(|m| m.contains("About us")), "{whole}");
    let narrowed = post_json(
        server.addr,
        "/v1/scrape",
        &json!({"url": site.url("/article"), "onlyMainContent": false, "includeTags": ["article"], "excludeTags": ["h1"]}),
    )
    .json();
    let md = narrowed["data"]["markdown"].as_str().expect("markdown");
    assert!(
        md.contains("forty years") && !md.contains("About us") && !md.contains("All rights"),
        "{md}"
    );
    let bad = post_json(
        server.addr,
        "/v1/scrape",
        &json!({"url": site.url("/article"), "formats": ["screenshot"]}),
    );
    assert_eq!((bad.status, bad.json()["success"].as_bool()), (400, Some(false)));
}

#[test]
fn jina_reader_answers_get_url_with_its_headers() {
    let site = test_site(None);
    let server = start(fetching());
    let path = format!("/{}", site.url("/article"));
    let plain = send(server.addr, "GET", &path, &[], b"");
    assert_eq!(plain.status, 200, "{}", plain.text());
    let text = plain.text();
    assert!(text.starts_with("Title: Flood defences\n\nURL Source: "), "{text}");
    assert!(
        text.contains("Markdown Content:\n# Flood defences") && text.contains("forty years"),
        "{text}"
    );
    let json = send(server.addr, "GET", &path, &[("Accept", "application/json")], b"").json();
    assert_eq!(
        (json["code"].as_i64(), json["data"]["title"].as_str()),
        (Some(200), Some("Flood defences"))
    );
    assert_eq!(json["data"]["url"], site.url("/article"));
    let html = send(
        server.addr,
        "GET",
        &path,
        &[("X-Return-Format", "html"), ("Accept", "application/json")],
        b"",
    )
    .json();
    assert!(html["data"]["content"].as_str().is_some_and(|c| c.contains("<p>")), "{html}");
    let targeted = send(
        server.addr,
        "GET",
        &path,
        &[
            ("X-Return-Format", "text"),
            ("X-Target-Selector", "footer"),
            ("X-Remove-Selector", "nav"),
        ],
        b"",
    )
    .text();
    assert!(
        targeted.contains("Text Content:\nCopyright 2024") && !targeted.contains("forty years"),
        "{targeted}"
    );
    assert_eq!(
        send(server.addr, "GET", &path, &[("X-Target-Selector", "p:hover")], b"").status,
        400
    );
}

#[test]
fn oversized_bodies_get_413_before_they_are_read() {
    let mut config = Config::default();
    config.max_body_bytes = 1000;
    let server = start(config);
    let reply = post_json(server.addr, "/v1/extract", &json!({"html": "x".repeat(5000)}));
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(reply.json()["kind"], "too_large");
    // Chunked, without a length: cut off while reading.
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    let head = "POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes()).expect("head");
    let chunk = "a".repeat(800);
    for _ in 0..2 {
        let _ = stream.write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    assert_eq!(support::read_reply(&mut stream).status, 413);
    // A batch line longer than the limit ends the batch with an error line.
    let line = json!({"html": "y".repeat(3000)}).to_string();
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    let head = "POST /v1/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes()).expect("head");
    let _ = stream.write_all(format!("{:x}\r\n{line}\n\r\n0\r\n\r\n", line.len() + 1).as_bytes());
    let reply = support::read_reply(&mut stream);
    assert!(reply.text().contains("\"kind\":\"too_large\""), "{}", reply.text());
}

#[test]
fn slow_clients_are_cut_off() {
    let mut config = Config::default();
    config.read_timeout = Duration::from_secs(1);
    let server = start(config);
    // Headers that never end: the connection is closed.
    let began = Instant::now();
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream.write_all(b"POST /v1/extract HTTP/1.1\r\nHost: x\r\n").expect("write");
    let reply = {
        let mut raw = Vec::new();
        stream.set_read_timeout(Some(support::IO_TIMEOUT)).expect("timeout");
        let _ = std::io::Read::read_to_end(&mut stream, &mut raw);
        raw
    };
    assert!(began.elapsed() < Duration::from_secs(10), "closed after {:?}", began.elapsed());
    assert!(reply.is_empty() || String::from_utf8_lossy(&reply).contains("408"), "{reply:?}");
    // A body that stops halfway: 408.
    let began = Instant::now();
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream
        .write_all(b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"html\":")
        .expect("write");
    let reply = support::read_reply(&mut stream);
    assert_eq!(reply.status, 408, "{}", reply.text());
    assert_eq!(reply.json()["kind"], "slow_client");
    assert!(began.elapsed() < Duration::from_secs(10));
}

#[test]
fn too_many_requests_at_once_get_503_with_retry_after() {
    let site = test_site(None);
    let mut config = fetching();
    config.max_concurrency = 1;
    let server = start(config);
    let addr = server.addr;
    let slow_url = site.url("/slow");
    let slow =
        std::thread::spawn(move || post_json(addr, "/v1/extract", &json!({"url": slow_url})));
    // Wait until the slow request holds the only permit (the metrics
    // are never turned away, and count themselves).
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(10) {
        let metrics = send(server.addr, "GET", "/metrics", &[], b"").text();
        if metrics.contains("gleaner_in_flight_requests 2") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let busy = post_json(server.addr, "/v1/extract", &json!({"html": article("Now")}));
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert_eq!(busy.json()["kind"], "busy");
    // The health check is never turned away.
    assert_eq!(send(server.addr, "GET", "/healthz", &[], b"").status, 200);
    let slow = slow.join().expect("slow request");
    assert_eq!(slow.status, 200, "{}", slow.text());
    assert_eq!(
        post_json(server.addr, "/v1/extract", &json!({"html": article("Later")})).status,
        200
    );
}

#[test]
fn a_client_over_its_rate_gets_429_with_retry_after() {
    let mut config = Config::default();
    config.rate_limit = Some(0.5);
    config.rate_burst = 2;
    let server = start(config);
    let statuses: Vec<u16> = (0..3)
        .map(|_| post_json(server.addr, "/v1/extract", &json!({"html": "<p>x</p>"})).status)
        .collect();
    assert_eq!(statuses, [200, 200, 429]);
    let reply = post_json(server.addr, "/v1/extract", &json!({"html": "<p>x</p>"}));
    assert_eq!(reply.status, 429);
    assert!(reply
        .header("retry-after")
        .and_then(|s| s.parse::<u64>().ok())
        .is_some_and(|s| (1..=2).contains(&s)));
    assert_eq!(send(server.addr, "GET", "/healthz", &[], b"").status, 200);
}

#[test]
fn a_token_guards_everything_but_the_page_and_the_health_check() {
    let mut config = Config::default();
    config.token = Some("s3cret-token".into());
    let server = start(config);
    let body = json!({"html": article("Guarded")}).to_string();
    let json_type = ("Content-Type", "application/json");
    let none = send(server.addr, "POST", "/v1/extract", &[json_type], body.as_bytes());
    assert_eq!((none.status, none.header("www-authenticate")), (401, Some("Bearer")));
    let wrong = send(
        server.addr,
        "POST",
        "/v1/extract",
        &[json_type, ("Authorization", "Bearer nope")],
        body.as_bytes(),
    );
    assert_eq!(wrong.status, 401);
    let right = send(
        server.addr,
        "POST",
        "/v1/extract",
        &[json_type, ("Authorization", "Bearer s3cret-token")],
        body.as_bytes(),
    );
    assert_eq!(right.status, 200, "{}", right.text());
    assert_eq!(send(server.addr, "GET", "/metrics", &[], b"").status, 401);
    assert_eq!(send(server.addr, "GET", "/healthz", &[], b"").status, 200);
    assert_eq!(send(server.addr, "GET", "/", &[], b"").status, 200);
}

#[test]
fn shutdown_finishes_requests_under_way_and_stops_accepting() {
    let site = test_site(None);
    let mut server = start(fetching());
    let addr = server.addr;
    let slow_url = site.url("/slow");
    let slow =
        std::thread::spawn(move || post_json(addr, "/v1/extract", &json!({"url": slow_url})));
    // Let the request reach the server, then ask it to stop.
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(5) {
        let metrics = send(addr, "GET", "/metrics", &[], b"").text();
        if metrics.contains("gleaner_in_flight_requests 2") {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    server.signal_shutdown();
    let reply = slow.join().expect("slow request");
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert!(reply.json()["markdown"].as_str().is_some_and(|m| m.contains("Slow news")));
    server.shutdown();
    assert!(TcpStream::connect(addr).is_err(), "still accepting after shutdown");
}
