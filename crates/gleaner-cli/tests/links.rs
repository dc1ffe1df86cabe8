//! `gleaner links` (issue 36) against a site served on 127.0.0.1 by each
//! test (bounded; it stops when dropped): sitemaps named by robots.txt or
//! found at /sitemap.xml, an index with a gzipped child, a loop and a
//! missing child, feeds announced by a page, filters, and the address
//! policy on every file.

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;
mod support;

use std::process::Output;
use std::sync::{Arc, OnceLock};

use server::{Reply, Server};
use support::gzip;

fn gleaner(args: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gleaner"));
    cmd.args(args).output().expect("gleaner runs")
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn urlset(origin: &str, paths: &[&str]) -> String {
    let urls: String = paths
        .iter()
        .map(|p| {
            let loc = if p.starts_with("http") { p.to_string() } else { format!("{origin}{p}") };
            format!("<url><loc>{loc}</loc></url>")
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"
    )
}

/// A site whose robots.txt (when `robots`) names a sitemap index; without
/// it, `/sitemap.xml` is a plain urlset.
fn site(robots: bool) -> Server {
    let origin: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let o = origin.clone();
    let server = Server::start(move |target| {
        let origin = o.get().map(String::as_str).unwrap_or("");
        let xml = |body: String| Reply::typed("application/xml", body);
        match target {
            "/robots.txt" if robots => Reply::typed(
                "text/plain",
                format!(
                    "User-agent: *\nDisallow: /private/\nSitemap: {origin}/sitemap_index.xml\n"
                ),
            ),
            "/robots.txt" => Reply::status(404),
            "/sitemap_index.xml" => xml(format!(
                "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                 <sitemap><loc>{origin}/s1.xml.gz</loc></sitemap>\
                 <sitemap><loc>{origin}/sitemap_index.xml</loc></sitemap>\
                 <sitemap><loc>{origin}/missing.xml</loc></sitemap>\
                 <sitemap><loc>http://127.0.0.1:1/elsewhere.xml</loc></sitemap>\
                 <sitemap><loc>{origin}/s2.xml</loc></sitemap></sitemapindex>"
            )),
            "/s1.xml.gz" => Reply::typed(
                "application/gzip",
                gzip(urlset(origin, &["/a", "/b", "https://other.example/x"]).as_bytes()),
            ),
            "/s2.xml" => xml(urlset(origin, &["/c", "/a"])),
            "/sitemap.xml" => xml(urlset(origin, &["/only"])),
            "/" => Reply::html(
                "<html><head><title>Home</title>\
                 <link rel=alternate type=application/atom+xml href=/atom.xml>\
                 <link rel=stylesheet href=/s.css></head>\
                 <body><a href=/a>A</a> <a href=/b#top>B</a> <a href=https://other.example/>O</a>\
                 </body></html>",
            ),
            "/atom.xml" => Reply::typed(
                "application/atom+xml",
                format!(
                    "<feed xmlns=\"http://www.w3.org/2005/Atom\"><link href=\"{origin}/\"/>\
                     <entry><title>One</title><link href=\"{origin}/e1\"/></entry>\
                     <entry><title>Two</title><link rel=\"alternate\" href=\"/e2\"/></entry></feed>"
                ),
            ),
            "/a" | "/b" => Reply::html(format!(
                "<html><head><title>Page {target}</title></head><body><main><h1>Page {target}</h1>\
                 <p>This is the text of page {target}, a paragraph long enough to be the main \
                 content of the page, written for the test of URL lists.</p></main></body></html>"
            )),
            "/nf" => Reply::html(
                "<html><body><p>Links: <a href=/a>followed</a>, <a rel=nofollow href=/b>not</a>, \
                 <a rel='ugc noopener' href=/c>not either</a>.</p></body></html>",
            ),
            "/rss.xml" => Reply::typed(
                "application/rss+xml",
                "<rss version=\"2.0\"><channel><link>/</link>\
                 <item><link>/r1</link></item><item><link>/r2</link></item></channel></rss>",
            ),
            _ => Reply::status(404),
        }
    });
    origin.set(server.origin()).expect("set once");
    server
}

/// `gleaner COMMAND URL EXTRA…` against `server` (its origin allowed),
/// bounded by the tool's own limits: each fetch and the whole run.
fn against(server: &Server, command: &str, url: &str, extra: &[&str]) -> Output {
    let origin = server.origin();
    let mut args = vec![
        command,
        url,
        "--allow-private-origin",
        origin.as_str(),
        "--delay-ms",
        "0",
        "--timeout-secs",
        "10",
        "--max-time-secs",
        "60",
    ];
    args.extend_from_slice(extra);
    gleaner(&args)
}

fn links(server: &Server, url: &str, extra: &[&str]) -> Output {
    against(server, "links", url, extra)
}

fn crawl(server: &Server, start: &str, extra: &[&str]) -> Output {
    against(server, "crawl", start, extra)
}

#[test]
fn issue_36_sitemaps_from_robots_through_an_index_with_gzip_a_loop_and_a_missing_child() {
    let server = site(true);
    let out = links(&server, &server.url("/"), &["--sitemap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out), [server.url("/a"), server.url("/b"), server.url("/c")]);
    let err = stderr(&out);
    assert!(err.contains("missing.xml"), "{err}");
    assert!(err.contains("elsewhere.xml") && err.contains("address policy"), "{err}");
    // The index that lists itself is read once.
    assert_eq!(server.count("/sitemap_index.xml"), 1);
    // Other hosts with --all-hosts; a filter.
    let all = links(&server, &server.url("/"), &["--sitemap", "--all-hosts"]);
    assert!(lines(&all).contains(&"https://other.example/x".to_string()), "{}", stderr(&all));
    let some = links(&server, &server.url("/"), &["--sitemap", "--url-filter", "/[bc]$"]);
    assert_eq!(lines(&some), [server.url("/b"), server.url("/c")]);
}

#[test]
fn issue_36_without_robots_the_sitemap_is_at_sitemap_xml() {
    let server = site(false);
    let out = links(&server, &server.url("/some/page"), &["--sitemap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out), [server.url("/only")]);
}

#[test]
fn issue_36_feeds_announced_by_a_page_or_given_directly() {
    let server = site(true);
    let out = links(&server, &server.url("/"), &["--feed"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out), [server.url("/e1"), server.url("/e2")]);
    let rss = links(&server, &server.url("/rss.xml"), &["--feed"]);
    assert_eq!(lines(&rss), [server.url("/r1"), server.url("/r2")], "{}", stderr(&rss));
}

#[test]
fn issue_36_without_a_flag_the_page_s_own_links() {
    let server = site(true);
    let out = links(&server, &server.url("/"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out), [server.url("/a"), server.url("/b")]);
}

#[test]
fn issue_36_loopback_is_refused_unless_allowed() {
    let server = site(true);
    let out = gleaner(&["links", &server.url("/"), "--sitemap", "--delay-ms", "0"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(lines(&out).is_empty());
    assert!(stderr(&out).contains("address policy"), "{}", stderr(&out));
    assert_eq!(server.requests().len(), 0, "nothing was fetched");
    let bad = gleaner(&["links", "http://example.org/", "--url-filter", "(unclosed"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("--url-filter"), "{}", stderr(&bad));
}

#[test]
fn issue_36_extract_reads_a_url_list_and_every_line_is_a_record() {
    let server = site(true);
    let dir = std::env::temp_dir().join(format!("gleaner-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let list = dir.join("urls.txt");
    let long = format!("{}/{}", server.origin(), "x".repeat(10_000));
    std::fs::write(
        &list,
        format!(
            "# pages to fetch\n\n{a}\nnot a url\n  {missing}  \n{long}\n{b}",
            a = server.url("/a"),
            missing = server.url("/missing"),
            b = server.url("/b"),
        ),
    )
    .expect("write");
    let origin = server.origin();
    let out = gleaner(&[
        "extract",
        "-i",
        list.to_str().expect("utf-8"),
        "-f",
        "jsonl",
        "--allow-private-origin",
        origin.as_str(),
        "--delay-ms",
        "0",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records: Vec<serde_json::Value> =
        lines(&out).iter().map(|l| serde_json::from_str(l).expect("a JSON record")).collect();
    let summary: Vec<(String, bool)> = records
        .iter()
        .map(|r| {
            let source = r["source"].as_str().unwrap_or("").to_string();
            (source.chars().take(40).collect(), r["error"].is_null())
        })
        .collect();
    assert_eq!(records.len(), 5, "{summary:?}");
    assert!(records[0]["text"].as_str().is_some_and(|t| t.contains("text of page /a")));
    assert!(records[1]["error"].as_str().is_some_and(|e| e.contains("not a url")), "{summary:?}");
    assert!(!records[2]["error"].is_null(), "the missing page fails: {summary:?}");
    assert!(
        records[3]["error"].as_str().is_some_and(|e| e.contains("too long")),
        "{:?}",
        records[3]["error"]
    );
    assert!(records[4]["text"].as_str().is_some_and(|t| t.contains("text of page /b")));
    assert_eq!(server.count("/x"), 0, "the long line is never fetched");
}

#[test]
fn issue_36_crawl_seeded_by_the_sitemap() {
    let server = site(true);
    let out = crawl(&server, &server.url("/a"), &["--sitemap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The start page, then the sitemap's pages (/a once; /c is missing,
    // other.example is off the site).
    assert_eq!(lines(&out), [server.url("/a"), server.url("/b")], "{}", stderr(&out));
    assert!(stderr(&out).contains("URLs from"), "{}", stderr(&out));
    let bad = gleaner(&["crawl", "http://localhost/", "--sitemap", "--source", "."]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

#[test]
fn issue_36_crawl_honours_rel_nofollow_unless_told() {
    let server = site(true);
    let out = crawl(&server, &server.url("/nf"), &[]);
    assert_eq!(lines(&out), [server.url("/nf"), server.url("/a")], "{}", stderr(&out));
    assert_eq!(server.count("/b"), 0);
    let all = crawl(&server, &server.url("/nf"), &["--follow-nofollow"]);
    assert_eq!(
        lines(&all),
        [server.url("/nf"), server.url("/a"), server.url("/b")],
        "{}",
        stderr(&all)
    );
}

/// The shipped site `shell-novice` (../shared/data/sites), served as it
/// is but for its sitemap, which names the live site: here a robots.txt
/// names a sitemap index whose child is the site's own sitemap, gzipped,
/// its URLs pointed at this server.
fn shipped_site() -> Option<Server> {
    let root = server::site_dir("shell-novice")?;
    let sitemap = std::fs::read_to_string(root.join("sitemap.xml")).expect("sitemap");
    let origin: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let o = origin.clone();
    let server = Server::start(move |target| {
        let origin = o.get().map(String::as_str).unwrap_or("");
        match target {
            "/robots.txt" => Reply::typed(
                "text/plain",
                format!("User-agent: *\nSitemap: {origin}/sitemap_index.xml\n"),
            ),
            "/sitemap_index.xml" => Reply::typed(
                "application/xml",
                format!(
                    "<sitemapindex><sitemap><loc>{origin}/sitemap.xml.gz</loc></sitemap></sitemapindex>"
                ),
            ),
            "/sitemap.xml.gz" => Reply::typed(
                "application/gzip",
                gzip(sitemap.replace("https://swcarpentry.github.io/shell-novice", origin).as_bytes()),
            ),
            _ => server::static_file(&root, target),
        }
    });
    origin.set(server.origin()).expect("set once");
    Some(server)
}

#[test]
fn issue_36_the_shipped_site_from_its_sitemap() {
    let Some(server) = shipped_site() else { return };
    let out = links(&server, &server.url("/"), &["--sitemap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let urls = lines(&out);
    assert_eq!(urls.len(), 38, "{}", stderr(&out));
    assert!(urls.iter().all(|u| u.starts_with(&server.origin())));
    // The list, extracted: every URL a record, a corpus after the filters.
    let dir = std::env::temp_dir().join(format!("gleaner-shipped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let list = dir.join("urls.txt");
    std::fs::write(&list, format!("# shell-novice\n{}\nnot a url\n", urls.join("\n")))
        .expect("list");
    let origin = server.origin();
    let list_arg = list.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "extract",
            "-i",
            &list_arg,
            "-f",
            "jsonl",
            "--allow-private-origin",
            &origin,
            "--delay-ms",
            "0",
        ];
        args.extend_from_slice(extra);
        gleaner(&args)
    };
    let all = run(&[]);
    assert_eq!(lines(&all).len(), 39, "every URL and the bad line: {}", stderr(&all));
    let corpus = run(&["--target-language", "en", "--dedup-documents", "--min-words", "50"]);
    let _ = std::fs::remove_dir_all(&dir);
    let kept = lines(&corpus);
    assert!(kept.len() >= 10 && kept.len() < 38, "{} kept: {}", kept.len(), stderr(&corpus));
    assert!(stderr(&corpus).contains("duplicate"), "{}", stderr(&corpus));
    // The crawl seeded by the sitemap reaches the pages without links.
    let crawled = crawl(&server, &server.url("/"), &["--sitemap", "--max-pages", "60"]);
    assert_eq!(crawled.status.code(), Some(0), "{}", stderr(&crawled));
    assert!(lines(&crawled).len() >= 38, "{}", stderr(&crawled));
}
