//! Runs the Rust peers (rs-trafilatura, dom_smoothie) over evaluation
//! datasets and writes what `bench/peers/run.py` writes for the Python
//! ones, so that `gleaner eval --peers-dir` scores them the same way:
//!
//! * `OUT/<dataset>/<peer>.json`: `{id: {"articleBody": text}}`;
//! * `OUT/<dataset>/<peer>.timing.json`: `{"ms_per_page", "pages", "failed"}`.
//!
//! Pages are listed, read and unwrapped as `run.py` does (`input/ID.html`
//! with `GoldStandard/ID.txt`, or `html/ID.html[.gz]`; CleanEval's
//! `<text …>` wrapper removed). Each peer gets the page's URL when the
//! dataset gives one (WCXB's ground truth), as `gleaner eval` gives it to
//! gleaner. Timing covers what the peer does with the page's bytes
//! (decoding where it takes text, parsing, extracting), one page at a time
//! on one thread, after one untimed warm-up page. A page on which a peer
//! fails, panics or takes more than 60 s gets an empty text and counts in
//! `failed`.
//!
//! ```sh
//! cargo run --release --manifest-path bench/peers/rust/Cargo.toml -- \
//!     --data ../shared/data/wcxb-dev [--data DIR ...] [--peers rs-trafilatura,dom_smoothie] \
//!     [--out bench/peers/out]
//! ```

use std::collections::BTreeMap;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const PEERS: [&str; 2] = ["rs-trafilatura", "dom_smoothie"];

struct Page {
    id: String,
    html: Option<Vec<u8>>,
    url: Option<String>,
}

fn main() {
    let mut data: Vec<PathBuf> = Vec::new();
    let mut out = PathBuf::from("bench/peers/out");
    let mut peers: Vec<String> = PEERS.iter().map(|p| p.to_string()).collect();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--data", Some(v)) => data.push(PathBuf::from(v)),
            ("--out", Some(v)) => out = PathBuf::from(v),
            ("--peers", Some(v)) => {
                peers = v
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect()
            }
            _ => {
                eprintln!(
                    "usage: rust-peers --data DIR [--data DIR ...] [--peers {}] [--out DIR]",
                    PEERS.join(",")
                );
                std::process::exit(2);
            }
        }
    }
    if data.is_empty() {
        eprintln!("rust-peers: no --data");
        std::process::exit(2);
    }
    if let Some(p) = peers.iter().find(|p| !PEERS.contains(&p.as_str())) {
        eprintln!("rust-peers: unknown peer {p} (known: {})", PEERS.join(", "));
        std::process::exit(2);
    }
    for dir in &data {
        let (name, dir) = dataset_dir(dir);
        let pages = match list_pages(&dir) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", dir.display());
                std::process::exit(1);
            }
        };
        let out_dir = out.join(&name);
        if let Err(e) = std::fs::create_dir_all(&out_dir) {
            eprintln!("{}: {e}", out_dir.display());
            std::process::exit(1);
        }
        eprintln!("{name}: {} pages", pages.len());
        for peer in &peers {
            let timing = run_peer(peer, &pages, &out_dir);
            eprintln!("  {peer}: {timing}");
        }
    }
}

/// The dataset's name and the folder holding its pages: WCXB keeps its
/// split in `dev/`, named after the benchmark as `gleaner eval` names it.
fn dataset_dir(dir: &Path) -> (String, PathBuf) {
    let name =
        |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if dir.join("dev/html").is_dir() && !dir.join("html").is_dir() {
        (name(dir), dir.join("dev"))
    } else if matches!(name(dir).as_str(), "dev" | "test") && dir.join("ground-truth").is_dir() {
        (dir.parent().map(name).unwrap_or_default(), dir.to_path_buf())
    } else {
        (name(dir), dir.to_path_buf())
    }
}

/// Digit runs compare by value (2 before 10), as `run.py` orders ids.
fn natural_key(s: &str) -> Vec<(u8, u128, String)> {
    let mut key = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits > 0 {
            key.push((0, rest[..digits].parse().unwrap_or(u128::MAX), String::new()));
            rest = &rest[digits..];
        } else {
            let other = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
            key.push((1, 0, rest[..other].to_string()));
            rest = &rest[other..];
        }
    }
    key
}

fn list_pages(dir: &Path) -> Result<Vec<Page>, String> {
    let names = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .map(|r| {
                r.flatten()
                    .filter(|e| e.path().is_file())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut ids: BTreeMap<String, PathBuf> = BTreeMap::new();
    let (input, gold, html) = (dir.join("input"), dir.join("GoldStandard"), dir.join("html"));
    if input.is_dir() {
        let golds: Vec<String> = names(&gold);
        for n in names(&input) {
            if let Some(id) = n.strip_suffix(".html") {
                if !gold.is_dir() || golds.iter().any(|g| g.strip_suffix(".txt") == Some(id)) {
                    ids.insert(id.to_string(), input.join(&n));
                }
            }
        }
    } else if html.is_dir() {
        for n in names(&html) {
            if let Some(id) = n.strip_suffix(".html.gz").or_else(|| n.strip_suffix(".html")) {
                ids.entry(id.to_string()).or_insert_with(|| html.join(&n));
            }
        }
    } else {
        return Err("no input/ nor html/ folder".into());
    }
    let mut ids: Vec<(String, PathBuf)> = ids.into_iter().filter(|(k, _)| !k.is_empty()).collect();
    ids.sort_by_cached_key(|(k, _)| (natural_key(k), k.clone()));
    Ok(ids
        .into_iter()
        .map(|(id, path)| {
            let html = read_page(&path).map_err(|e| eprintln!("{id}: cannot read: {e}")).ok();
            let url = page_url(&dir.join("ground-truth").join(format!("{id}.json")));
            Page { id, html, url }
        })
        .collect())
}

fn read_page(path: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    let raw = if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice()).read_to_end(&mut out)?;
        out
    } else {
        raw
    };
    Ok(strip_text_wrapper(raw))
}

/// The page's URL from a WCXB ground-truth file, when there is one.
fn page_url(path: &Path) -> Option<String> {
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json.get("url").and_then(|u| u.as_str()).map(String::from)
}

/// Removes CleanEval's `<text …>` first line and closing `</text>`.
fn strip_text_wrapper(html: Vec<u8>) -> Vec<u8> {
    let start = html.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(0);
    let bom = if html[start..].starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let s = start + bom;
    let head = &html[s..html.len().min(s + 6)];
    if !(head.len() == 6
        && head[..5].eq_ignore_ascii_case(b"<text")
        && (head[5] == b'>' || head[5].is_ascii_whitespace()))
    {
        return html;
    }
    let Some(end) = html[s..].iter().take(64 * 1024).position(|&b| b == b'>') else { return html };
    let mut body = html[s + end + 1..].to_vec();
    let trimmed = body.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    if trimmed >= 7 && body[trimmed - 7..trimmed].eq_ignore_ascii_case(b"</text>") {
        body.truncate(trimmed - 7);
    }
    body
}

/// BOM, else a `<meta>` charset in the first 4 KiB, else UTF-8, else
/// windows-1252 — as `run.py` decodes for the peers that take text.
fn decode(html: &[u8]) -> String {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(html) {
        return enc.decode_without_bom_handling(&html[bom..]).0.into_owned();
    }
    let head = String::from_utf8_lossy(&html[..html.len().min(4096)]).to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = head[from..].find("<meta") {
        let tag_start = from + i;
        let tag =
            &head[tag_start..head[tag_start..].find('>').map_or(head.len(), |j| tag_start + j)];
        if let Some(c) = tag.find("charset") {
            let value = tag[c + 7..].trim_start();
            if let Some(value) = value.strip_prefix('=') {
                let label: String = value
                    .trim_start()
                    .trim_start_matches(['"', '\''])
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "_.:-".contains(*c))
                    .collect();
                if let Some(enc) = encoding_rs::Encoding::for_label(label.as_bytes()) {
                    return enc.decode_without_bom_handling(html).0.into_owned();
                }
            }
        }
        from = tag_start + 5;
    }
    match std::str::from_utf8(html) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(html).0.into_owned(),
    }
}

fn extract(peer: &str, html: &[u8], url: Option<&str>) -> Option<String> {
    match peer {
        // rs-trafilatura decodes the bytes itself.
        "rs-trafilatura" => {
            let options =
                rs_trafilatura::Options { url: url.map(String::from), ..Default::default() };
            rs_trafilatura::extract_bytes_with_options(html, &options).ok().map(|r| r.content_text)
        }
        "dom_smoothie" => {
            let text = decode(html);
            let url = url.filter(|u| u.starts_with("http"));
            // Formatted: a line break between paragraphs, as the Python
            // peers' text has them (the shingle metric reads word order).
            let config = dom_smoothie::Config {
                text_mode: dom_smoothie::TextMode::Formatted,
                ..Default::default()
            };
            let mut r = dom_smoothie::Readability::new(text, url, Some(config)).ok()?;
            r.parse().ok().map(|a| a.text_content.to_string())
        }
        _ => None,
    }
}

/// A page that takes longer than this counts as failed, as in `run.py`.
const PAGE_TIMEOUT: Duration = Duration::from_secs(60);

/// A page for the worker: the peer, the page's bytes and URL.
type Job = (String, Vec<u8>, Option<String>);

/// A thread that runs the peers, so that a page that never returns can be
/// given up on: the worker is then left behind and a new one started.
struct Worker {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<(Option<String>, f64)>,
}

impl Worker {
    fn start() -> Worker {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done) = mpsc::channel();
        std::thread::spawn(move || {
            for (peer, html, url) in job_rx {
                let start = Instant::now();
                let out = catch_unwind(AssertUnwindSafe(|| extract(&peer, &html, url.as_deref())));
                let secs = start.elapsed().as_secs_f64();
                if done_tx.send((out.ok().flatten(), secs)).is_err() {
                    break;
                }
            }
        });
        Worker { jobs, done }
    }

    /// The peer's text and its time, `None` when it failed, panicked or
    /// ran out of time (the worker is then replaced).
    fn run(&mut self, job: Job) -> (Option<String>, f64) {
        if self.jobs.send(job).is_err() {
            *self = Worker::start();
            return (None, 0.0);
        }
        match self.done.recv_timeout(PAGE_TIMEOUT) {
            Ok(r) => r,
            Err(_) => {
                *self = Worker::start();
                (None, PAGE_TIMEOUT.as_secs_f64())
            }
        }
    }
}

fn run_peer(peer: &str, pages: &[Page], out_dir: &Path) -> String {
    let mut worker = Worker::start();
    if let Some(p) = pages.iter().find(|p| p.html.is_some()) {
        let _ = worker.run((peer.to_string(), p.html.clone().unwrap_or_default(), p.url.clone()));
    }
    let (mut failed, mut timed, mut total) = (0usize, 0usize, 0f64);
    let mut results = serde_json::Map::new();
    for (k, page) in pages.iter().enumerate() {
        let text = match &page.html {
            None => {
                failed += 1;
                String::new()
            }
            Some(html) => {
                timed += 1;
                let (out, secs) = worker.run((peer.to_string(), html.clone(), page.url.clone()));
                total += secs;
                out.unwrap_or_else(|| {
                    failed += 1;
                    String::new()
                })
            }
        };
        results.insert(page.id.clone(), serde_json::json!({ "articleBody": text }));
        if (k + 1) % 200 == 0 {
            eprintln!("  {peer}: {}/{}", k + 1, pages.len());
        }
    }
    let ms =
        if timed > 0 { (1000.0 * total / timed as f64 * 1000.0).round() / 1000.0 } else { 0.0 };
    let timing = serde_json::json!({ "ms_per_page": ms, "pages": pages.len(), "failed": failed });
    let write = |name: String, v: &serde_json::Value| {
        let path = out_dir.join(name);
        if let Err(e) = serde_json::to_string(v)
            .map_err(std::io::Error::other)
            .and_then(|s| std::fs::write(&path, s + "\n"))
        {
            eprintln!("{}: {e}", path.display());
        }
    };
    write(format!("{peer}.json"), &serde_json::Value::Object(results));
    write(format!("{peer}.timing.json"), &timing);
    timing.to_string()
}
