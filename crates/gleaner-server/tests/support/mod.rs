//! Test helpers: the server on 127.0.0.1 in this process, a bounded raw
//! HTTP/1.1 client, and a small site to fetch pages from.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use gleaner_server::Config;

#[path = "../../../gleaner-crawl/tests/server/mod.rs"]
mod server;

pub use server::Server;

/// How long any read of a test waits at most.
pub const IO_TIMEOUT: Duration = Duration::from_secs(20);

/// A gleaner server running on its own runtime, stopped when dropped.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Starts a server with `config` on 127.0.0.1, port chosen by the system.
pub fn start(config: Config) -> Running {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let server = gleaner_server::Server::new(listener, config).expect("server");
            addr_tx.send(server.local_addr().expect("addr")).expect("send addr");
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .expect("serve");
        });
    });
    let addr = addr_rx.recv_timeout(IO_TIMEOUT).expect("server started");
    Running { addr, stop: Some(stop), thread: Some(thread) }
}

impl Running {
    /// Asks the server to shut down (gracefully) and waits for it.
    pub fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Sends the shutdown signal without waiting.
    pub fn signal_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.text()))
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
pub fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(IO_TIMEOUT)).expect("timeout");
    stream.set_write_timeout(Some(IO_TIMEOUT)).expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).expect("write head");
    let _ = stream.write_all(body);
    read_reply(&mut stream)
}

/// Reads an answer to the end of the connection.
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    stream.set_read_timeout(Some(IO_TIMEOUT)).expect("timeout");
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete answer: {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply { status, headers, body }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..line_end]).split(';').next().unwrap_or("0").trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
}

/// POSTs JSON.
pub fn post_json(addr: SocketAddr, path: &str, body: &serde_json::Value) -> Reply {
    send(addr, "POST", path, &[("Content-Type", "application/json")], body.to_string().as_bytes())
}

/// An article page with a menu and a footer.
pub fn article(title: &str) -> String {
    format!(
        "<!doctype html><html lang=en><head><title>{title}</title>\
         <meta name=description content='A page about {title}.'></head><body>\
         <nav><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li>\
         <li><a href=/about>About us</a></li></ul></nav>\
         <article><h1>{title}</h1>\
         <p>The first paragraph of the article about {title} tells the reader what happened, \
         where it happened and why anyone should care about it at all.</p>\
         <p>A second paragraph gives the details: the people involved, what they said, and what \
         comes next for the town, its council and the river that runs through it.</p>\
         <p>The last paragraph closes the story with a quote from a resident who has lived by \
         the river for forty years and has seen three floods.</p></article>\
         <footer><p>Copyright 2024 The Example Gazette. All rights reserved.</p></footer>\
         </body></html>"
    )
}

/// A small site on 127.0.0.1 (gleaner-crawl's test server): `/article`,
/// `/slow` (after 2 s), `/moved` (302 to `redirect_to`), else 404.
pub fn test_site(redirect_to: Option<String>) -> Server {
    Server::start(move |target| match target {
        "/article" => server::Reply::html(article("Flood defences")),
        "/slow" => server::Reply::delayed(
            Duration::from_secs(2),
            server::Reply::html(article("Slow news")),
        ),
        "/moved" => match &redirect_to {
            Some(to) => server::Reply::redirect(302, to),
            None => server::Reply::status(404),
        },
        _ => server::Reply::status(404),
    })
}

/// A config that fetches from 127.0.0.1 (tests only), without delays.
pub fn fetching() -> Config {
    let mut config = Config::default();
    config.allow_fetch = true;
    config.allow_private_addresses = true;
    config.fetch_delay = Duration::ZERO;
    config.fetch_timeout = Duration::from_secs(10);
    config
}
