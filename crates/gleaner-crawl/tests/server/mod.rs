//! A small HTTP/1.1 server on 127.0.0.1 for the crawl tests: one thread per
//! connection, one request per connection (`Connection: close`), every
//! request logged (target and head), everything bounded in count and time;
//! dropped, it stops. Shared by the gleaner-crawl tests and the CLI tests
//! (`#[path]`).
//!
//! Since issue 31 gleaner refuses loopback addresses unless told: a test
//! allows exactly its own server, by [`Server::origin`] (the library's
//! `AddressPolicy::allow_private_origin`, the CLI's
//! `--allow-private-origin`), so a redirect or link to another port or
//! host stays refused as it would be on the web.
#![allow(dead_code)]

#[path = "../../../../tests/support/shared_data.rs"]
mod shared_data;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The bound on a test's wall-clock time that only catches a hang: what
/// a test checks is the outcome (the error, the stop reason, what was
/// fetched), never how fast a loaded machine got there.
pub const HANG_GUARD: Duration = Duration::from_secs(60);

/// Most connections one server accepts before it stops.
const MAX_CONNECTIONS: usize = 20_000;
/// Longest any misbehaving response goes on.
const MAX_MISBEHAVIOUR: Duration = Duration::from_secs(10);
/// Most bytes an endless body sends.
const MAX_ENDLESS: u64 = 1 << 30;

/// What the server answers.
pub enum Reply {
    /// A whole response.
    Full { status: u16, headers: Vec<(String, String)>, body: Vec<u8> },
    /// HTML headers, then one byte every `every` (a slow drip).
    Drip { every: Duration },
    /// A chunked body that never ends (until the client hangs up, 1 GiB,
    /// or 10 s).
    Endless,
    /// Another reply, after a pause (at most 10 s).
    Delayed { after: Duration, reply: Box<Reply> },
}

impl Reply {
    pub fn html(body: impl Into<Vec<u8>>) -> Reply {
        Reply::typed("text/html; charset=utf-8", body)
    }

    pub fn typed(content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::Full {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }

    pub fn status(status: u16) -> Reply {
        Reply::Full {
            status,
            headers: vec![("Content-Type".into(), "text/html".into())],
            body: format!("<p>status {status}</p>").into_bytes(),
        }
    }

    /// `reply` after `after`.
    pub fn delayed(after: Duration, reply: Reply) -> Reply {
        Reply::Delayed { after, reply: Box::new(reply) }
    }

    /// HTML with a `Content-Encoding` header: `encoded` are the bytes sent.
    pub fn encoded(coding: &str, encoded: Vec<u8>) -> Reply {
        Reply::Full {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/html; charset=utf-8".into()),
                ("Content-Encoding".into(), coding.into()),
            ],
            body: encoded,
        }
    }

    /// A status with a `Retry-After` header.
    pub fn retry_after(status: u16, value: &str) -> Reply {
        Reply::Full {
            status,
            headers: vec![
                ("Content-Type".into(), "text/html".into()),
                ("Retry-After".into(), value.into()),
            ],
            body: b"<p>busy</p>".to_vec(),
        }
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::Full {
            status,
            headers: vec![("Location".into(), location.into())],
            body: Vec::new(),
        }
    }
}

pub type Handler = Arc<dyn Fn(&str) -> Reply + Send + Sync>;

/// A running server; dropped, it stops.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<String>>>,
    heads: Arc<Mutex<Vec<String>>>,
    written: Arc<AtomicU64>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server answering each request target with `handler`.
    pub fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Server {
        Server::bind("127.0.0.1:0", handler).expect("bind 127.0.0.1:0")
    }

    /// Starts a server on a loopback address of the caller's choice
    /// (`[::1]:0`); an error when the machine has no such address.
    pub fn bind(
        at: &str,
        handler: impl Fn(&str) -> Reply + Send + Sync + 'static,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(at)?;
        let addr = listener.local_addr()?;
        assert!(addr.ip().is_loopback(), "test servers listen on loopback only");
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let written = Arc::new(AtomicU64::new(0));
        let handler: Handler = Arc::new(handler);
        let (stop2, log2, heads2, written2) =
            (stop.clone(), log.clone(), heads.clone(), written.clone());
        let accept = std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                if stop2.load(Ordering::SeqCst) || n >= MAX_CONNECTIONS {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (handler, log, heads, written, stop) = (
                    handler.clone(),
                    log2.clone(),
                    heads2.clone(),
                    written2.clone(),
                    stop2.clone(),
                );
                std::thread::spawn(move || serve(stream, &*handler, &log, &heads, &written, &stop));
            }
        });
        Ok(Server { addr, stop, log, heads, written, accept: Some(accept) })
    }

    /// The server's origin, `http://127.0.0.1:PORT`: what a test allows.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The request heads so far (request line and header lines), in
    /// order of arrival.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }

    /// Serves folder `root` as a static server does (`x/` is
    /// `x/index.html`, a folder without `/` redirects).
    pub fn site(root: &Path) -> Server {
        let root = root.to_path_buf();
        Server::start(move |target| static_file(&root, target))
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The request targets so far, in order of arrival.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Requests whose target starts with `prefix`.
    pub fn count(&self, prefix: &str) -> usize {
        self.requests().iter().filter(|r| r.starts_with(prefix)).count()
    }

    /// Body bytes sent so far.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

/// The folder of a test site of `../shared/data/sites` (data outside the
/// repository), or `None` when it is absent: the test is then skipped by
/// name, or fails under `GLEANER_REQUIRE_DATA=1`
/// (`tests/support/shared_data.rs`).
pub fn site_dir(name: &str) -> Option<PathBuf> {
    let dir = shared_data::path("GLEANER_SITES_DIR", "sites").join(name).join("site");
    shared_data::require(dir.join("index.html"))?;
    Some(dir)
}

fn read_request(stream: &mut TcpStream) -> Option<(String, String)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        if buf.len() > 64 * 1024 {
            return None;
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let line = head.lines().next()?.to_string();
    let mut words = line.split_whitespace();
    let _method = words.next()?;
    let target = words.next()?.to_string();
    let end = head.find("\r\n\r\n").unwrap_or(head.len());
    Some((target, head[..end].to_string()))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn serve(
    mut stream: TcpStream,
    handler: &(dyn Fn(&str) -> Reply + Send + Sync),
    log: &Mutex<Vec<String>>,
    heads: &Mutex<Vec<String>>,
    written: &AtomicU64,
    stop: &AtomicBool,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let Some((target, head)) = read_request(&mut stream) else { return };
    log.lock().unwrap().push(target.clone());
    heads.lock().unwrap().push(head);
    let started = Instant::now();
    let mut reply = handler(&target);
    while let Reply::Delayed { after, reply: next } = reply {
        let until = started + after.min(MAX_MISBEHAVIOUR);
        while Instant::now() < until && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(10));
        }
        reply = *next;
    }
    respond(stream, reply, written, stop, started);
}

fn respond(
    mut stream: TcpStream,
    reply: Reply,
    written: &AtomicU64,
    stop: &AtomicBool,
    started: Instant,
) {
    let going = || !stop.load(Ordering::SeqCst) && started.elapsed() < MAX_MISBEHAVIOUR;
    match reply {
        Reply::Full { status, headers, body } => {
            let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in &headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
                head.push_str(&format!("Content-Length: {}\r\n", body.len()));
            }
            head.push_str("Connection: close\r\n\r\n");
            if stream.write_all(head.as_bytes()).is_ok() && stream.write_all(&body).is_ok() {
                written.fetch_add(body.len() as u64, Ordering::SeqCst);
            }
        }
        Reply::Drip { every } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<p>";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            while going() {
                std::thread::sleep(every);
                if stream.write_all(b"x").and_then(|()| stream.flush()).is_err() {
                    return;
                }
                written.fetch_add(1, Ordering::SeqCst);
            }
        }
        Reply::Endless => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let data = b"<p>endless</p>\n".repeat(4096);
            let mut chunk = format!("{:x}\r\n", data.len()).into_bytes();
            chunk.extend_from_slice(&data);
            chunk.extend_from_slice(b"\r\n");
            while going() && written.load(Ordering::SeqCst) < MAX_ENDLESS {
                if stream.write_all(&chunk).is_err() {
                    return;
                }
                written.fetch_add(data.len() as u64, Ordering::SeqCst);
            }
        }
        Reply::Delayed { .. } => {}
    }
}

pub fn static_file(root: &Path, target: &str) -> Reply {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if path.split('/').any(|s| s == ".." || s.contains('%')) {
        return Reply::status(404);
    }
    let mut file = root.join(path.trim_start_matches('/'));
    if file.is_dir() {
        if !path.ends_with('/') {
            return Reply::redirect(301, &format!("{path}/"));
        }
        file.push("index.html");
    }
    let Ok(body) = std::fs::read(&file) else { return Reply::status(404) };
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let content_type = match ext {
        "html" => "text/html",
        "css" => "text/css",
        "js" => "text/javascript",
        "txt" => "text/plain",
        "xml" => "application/xml",
        "png" => "image/png",
        _ => "application/octet-stream",
    };
    Reply::typed(content_type, body)
}
