//! `gleaner crawl`: crawl a real site served on 127.0.0.1 by the test,
//! write WARC, replay it offline, crawl a folder, obey --user-agent in
//! robots.txt. Each test allows its own server's origin only
//! (`--allow-private-origin`).

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;

use std::process::{Command, Output};

use server::{site_dir, Reply, Server};

fn gleaner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gleaner")).args(args).output().unwrap()
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn crawl_writes_warc_and_the_replay_gives_the_same_pages() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("site.warc.gz");
    let archive_arg = archive.to_str().unwrap();
    let Some(site) = site_dir("linux-shell") else { return };
    let server = Server::site(&site);
    let start = server.url("/index.html");
    let origin = server.origin();
    let live = gleaner(&[
        "crawl",
        &start,
        "--allow-private-origin",
        &origin,
        "--max-pages",
        "100",
        "--delay-ms",
        "0",
        "--timeout-secs",
        "5",
        "-o",
        archive_arg,
    ]);
    assert!(live.status.success(), "{}", stderr(&live));
    assert_eq!(lines(&live).len(), 25);
    assert!(stderr(&live).contains("crawl: 25 pages fetched"), "{}", stderr(&live));
    assert!(stderr(&live).contains("(51 records)"), "warcinfo and 2 per page: {}", stderr(&live));
    let requests = server.requests().len();
    drop(server);

    let replay_archive = dir.path().join("replay.warc");
    let replay = gleaner(&[
        "crawl",
        &start,
        "--source",
        archive_arg,
        "-o",
        replay_archive.to_str().unwrap(),
    ]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert_eq!(lines(&replay), lines(&live));
    assert_eq!(requests, 26, "pages and robots.txt, nothing in the replay");
    let again = gleaner_crawl::WarcSource::open(&replay_archive).unwrap();
    let first = gleaner_crawl::WarcSource::open(&archive).unwrap();
    assert_eq!(again.urls(), first.urls());
}

#[test]
fn crawl_a_folder_offline_within_the_page_cap() {
    let Some(root) = site_dir("shell-novice") else { return };
    let out =
        gleaner(&["crawl", "index.html", "--source", root.to_str().unwrap(), "--max-pages", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pages = lines(&out);
    assert_eq!(pages.len(), 5);
    assert_eq!(pages[0], "http://localhost/index.html");
    assert!(stderr(&out).contains("stopped by max-pages"), "{}", stderr(&out));
}

#[test]
fn user_agent_is_what_robots_txt_rules_match() {
    let server = Server::start(|target| match target {
        "/robots.txt" => Reply::typed("text/plain", "User-agent: pickybot\nDisallow: /\n"),
        _ => Reply::html("<p>hello</p>"),
    });
    let start = server.url("/");
    let origin = server.origin();
    let refused = gleaner(&[
        "crawl",
        &start,
        "--delay-ms",
        "0",
        "--user-agent",
        "pickybot/2.0 (test)",
        "--allow-private-origin",
        &origin,
    ]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("1 robots"), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("no page fetched"), "{}", stderr(&refused));
    assert_eq!(server.requests(), ["/robots.txt"]);

    let allowed = gleaner(&["crawl", &start, "--delay-ms", "0", "--allow-private-origin", &origin]);
    assert!(allowed.status.success(), "{}", stderr(&allowed));
    assert_eq!(lines(&allowed), [start]);
}

#[test]
fn usage_errors_exit_2() {
    let out = gleaner(&["crawl", "http://127.0.0.1:9/", "--source", "/nonexistent/folder"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no such folder or file"));
    let out = gleaner(&["crawl", "ftp://example.invalid/"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = gleaner(&["crawl", "http://127.0.0.1:9/", "--max-pages", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
