//! The HTTP(S) source: reqwest with rustls on a small tokio runtime of its
//! own, behind the blocking [`PageSource`] trait.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use url::Url;

use crate::sniff::{check_body, check_type, parse_content_type};
use crate::urls::{clean_url, same_site};
use crate::{is_redirect, CrawlError, Fetched, PageSource, Redirect};

/// The user agent sent unless [`HttpOptions::user_agent`] says otherwise.
/// Its product token (`gleaner-crawl`) is the name `robots.txt` rules match.
pub const DEFAULT_USER_AGENT: &str =
    concat!("gleaner-crawl/", env!("CARGO_PKG_VERSION"), " (+https://example.invalid/gleaner)");

/// The most of a `robots.txt` that is read (RFC 9309 asks for 500 KiB).
const ROBOTS_MAX_BYTES: u64 = 512 * 1024;

/// Redirects followed when fetching `robots.txt`.
const ROBOTS_MAX_REDIRECTS: usize = 5;

/// How the HTTP source behaves.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// The `User-Agent` header; its first word before `/` is the agent name
    /// matched against `robots.txt`.
    pub user_agent: String,
    /// Longest time for one request: connecting, headers and the whole
    /// body. A server that drips bytes is cut off here. Default 30 s.
    pub timeout: Duration,
    /// Largest body read; a longer one is [`CrawlError::TooLarge`] and is
    /// not read further. Default 10 MiB.
    pub max_bytes: u64,
    /// Most redirects followed for one page. Default 10.
    pub max_redirects: usize,
    /// Least time between two requests to one host. Default 500 ms; a
    /// larger `Crawl-delay` in `robots.txt` wins, up to
    /// [`HttpOptions::max_crawl_delay`].
    pub delay: Duration,
    /// The most of a `robots.txt` `Crawl-delay` that is honoured. Default 10 s.
    pub max_crawl_delay: Duration,
    /// Refuse redirects to another site ([`CrawlError::OffSite`]). Default true.
    pub stay_on_site: bool,
    /// Obey `robots.txt`. Default true.
    pub obey_robots: bool,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            user_agent: DEFAULT_USER_AGENT.to_string(),
            timeout: Duration::from_secs(30),
            max_bytes: 10 << 20,
            max_redirects: 10,
            delay: Duration::from_millis(500),
            max_crawl_delay: Duration::from_secs(10),
            stay_on_site: true,
            obey_robots: true,
        }
    }
}

impl HttpOptions {
    /// Sets [`HttpOptions::user_agent`].
    pub fn user_agent(mut self, agent: impl Into<String>) -> HttpOptions {
        self.user_agent = agent.into();
        self
    }

    /// Sets [`HttpOptions::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> HttpOptions {
        self.timeout = timeout;
        self
    }

    /// Sets [`HttpOptions::max_bytes`].
    pub fn max_bytes(mut self, bytes: u64) -> HttpOptions {
        self.max_bytes = bytes;
        self
    }

    /// Sets [`HttpOptions::max_redirects`].
    pub fn max_redirects(mut self, n: usize) -> HttpOptions {
        self.max_redirects = n;
        self
    }

    /// Sets [`HttpOptions::delay`].
    pub fn delay(mut self, delay: Duration) -> HttpOptions {
        self.delay = delay;
        self
    }

    /// Sets [`HttpOptions::stay_on_site`].
    pub fn stay_on_site(mut self, yes: bool) -> HttpOptions {
        self.stay_on_site = yes;
        self
    }

    /// Sets [`HttpOptions::obey_robots`].
    pub fn obey_robots(mut self, yes: bool) -> HttpOptions {
        self.obey_robots = yes;
        self
    }

    /// The agent name that `robots.txt` groups are matched against.
    fn robots_agent(&self) -> &str {
        let token = self.user_agent.split(['/', ' ']).next().unwrap_or("");
        if token.is_empty() {
            "gleaner-crawl"
        } else {
            token
        }
    }
}

/// What `robots.txt` allows on one origin.
enum Robots {
    /// No rules (404, unparsable file, robots not obeyed).
    AllowAll,
    /// The server failed (5xx, unreachable): RFC 9309 says assume nothing
    /// is allowed.
    DisallowAll,
    /// Parsed rules.
    Rules(texting_robots::Robot),
}

impl Robots {
    fn allowed(&self, url: &Url) -> bool {
        match self {
            Robots::AllowAll => true,
            Robots::DisallowAll => false,
            Robots::Rules(r) => r.allowed(url.as_str()),
        }
    }

    fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Robots::Rules(r) => {
                r.delay.filter(|d| d.is_finite() && *d > 0.0).map(Duration::from_secs_f32)
            }
            _ => None,
        }
    }
}

/// One response: a page, or a redirect to follow.
enum Hop {
    Page(Fetched),
    Redirect { status: u16, to: Url },
}

/// Pages from the web. Blocking; safe to share between threads (the crawl
/// fetches a few pages at once). Do not call it from inside an async
/// runtime: it runs its own.
pub struct HttpSource {
    options: HttpOptions,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    robots: Mutex<HashMap<String, Arc<Robots>>>,
    robots_gate: Mutex<()>,
    next_slot: Mutex<HashMap<String, Instant>>,
}

impl std::fmt::Debug for HttpSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpSource").field("options", &self.options).finish_non_exhaustive()
    }
}

fn network(e: reqwest::Error) -> CrawlError {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    CrawlError::Network(text)
}

fn origin_key(url: &Url) -> String {
    format!(
        "{}://{}:{}",
        url.scheme(),
        url.host_str().unwrap_or(""),
        url.port_or_known_default().unwrap_or(0)
    )
}

impl HttpSource {
    /// A source with these options.
    ///
    /// # Errors
    /// [`CrawlError::Network`] when the HTTP client or its runtime cannot
    /// be set up.
    pub fn new(options: HttpOptions) -> Result<HttpSource, CrawlError> {
        let client = reqwest::Client::builder()
            .user_agent(options.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(options.timeout)
            .pool_max_idle_per_host(4)
            .build()
            .map_err(network)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("gleaner-crawl-http")
            .enable_io()
            .enable_time()
            .build()?;
        Ok(HttpSource {
            options,
            client,
            runtime,
            robots: Mutex::new(HashMap::new()),
            robots_gate: Mutex::new(()),
            next_slot: Mutex::new(HashMap::new()),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    /// Waits until this host may be asked again, and books the next turn.
    fn wait_turn(&self, url: &Url, robots: Option<&Robots>) {
        let crawl_delay =
            robots.and_then(Robots::crawl_delay).map(|d| d.min(self.options.max_crawl_delay));
        let delay = crawl_delay.map_or(self.options.delay, |d| d.max(self.options.delay));
        let now = Instant::now();
        let slot = {
            let mut slots = self.next_slot.lock().unwrap_or_else(|e| e.into_inner());
            let slot = slots.get(&origin_key(url)).copied().map_or(now, |s| s.max(now));
            slots.insert(origin_key(url), slot + delay);
            slot
        };
        let wait = slot.saturating_duration_since(now);
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
    }

    /// The robots rules of `url`'s origin, fetched once.
    fn robots_for(&self, url: &Url) -> Arc<Robots> {
        if !self.options.obey_robots {
            return Arc::new(Robots::AllowAll);
        }
        let key = origin_key(url);
        let cached =
            |s: &HttpSource| s.robots.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(r) = cached(self) {
            return r;
        }
        let _gate = self.robots_gate.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = cached(self) {
            return r;
        }
        let robots = Arc::new(self.fetch_robots(url));
        self.robots.lock().unwrap_or_else(|e| e.into_inner()).insert(key, Arc::clone(&robots));
        robots
    }

    fn fetch_robots(&self, url: &Url) -> Robots {
        let Ok(mut current) = url.join("/robots.txt") else {
            return Robots::AllowAll;
        };
        for _ in 0..=ROBOTS_MAX_REDIRECTS {
            self.wait_turn(&current, None);
            let hop = self.run(self.request(&current, ROBOTS_MAX_BYTES, false));
            match hop {
                Ok(Hop::Redirect { to, .. }) if matches!(to.scheme(), "http" | "https") => {
                    current = to
                }
                Ok(Hop::Redirect { .. }) => return Robots::AllowAll,
                Ok(Hop::Page(page)) => {
                    return match texting_robots::Robot::new(self.options.robots_agent(), &page.body)
                    {
                        Ok(r) => Robots::Rules(r),
                        Err(_) => Robots::AllowAll,
                    }
                }
                Err(CrawlError::Status(s)) if (400..500).contains(&s) => return Robots::AllowAll,
                Err(_) => return Robots::DisallowAll,
            }
        }
        Robots::AllowAll
    }

    /// Runs one request on the runtime, bounded by the timeout.
    fn run<F: std::future::Future<Output = Result<Hop, CrawlError>>>(
        &self,
        f: F,
    ) -> Result<Hop, CrawlError> {
        let timeout = self.options.timeout;
        self.runtime
            .block_on(async { tokio::time::timeout(timeout, f).await })
            .map_err(|_| CrawlError::Timeout(timeout))?
    }

    /// One GET, no redirect followed. `pages` asks for the HTML checks
    /// and the byte cap as an error; otherwise the body is cut at the cap.
    async fn request(&self, url: &Url, max_bytes: u64, pages: bool) -> Result<Hop, CrawlError> {
        let mut response = self.client.get(url.clone()).send().await.map_err(network)?;
        let status = response.status().as_u16();
        // For WARC-IP-Address: the peer of the connection that answered.
        let remote_ip = response.remote_addr().map(|a| a.ip());
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (k.as_str().to_string(), String::from_utf8_lossy(v.as_bytes()).into_owned())
            })
            .collect();
        let header = |name: &str| {
            headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
        };
        if is_redirect(status) {
            let to = header("location")
                .and_then(|l| url.join(l.trim()).ok())
                .ok_or(CrawlError::BadRedirect { status })?;
            return Ok(Hop::Redirect { status, to });
        }
        if !(200..300).contains(&status) {
            return Err(CrawlError::Status(status));
        }
        let (content_type, charset) =
            header("content-type").map(parse_content_type).unwrap_or_default();
        let declared_html = if pages { check_type(content_type.as_deref())? } else { true };
        if pages && response.content_length().is_some_and(|n| n > max_bytes) {
            return Err(CrawlError::TooLarge { limit: max_bytes });
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(network)? {
            let room = usize::try_from(max_bytes).unwrap_or(usize::MAX).saturating_sub(body.len());
            if chunk.len() > room {
                if pages {
                    return Err(CrawlError::TooLarge { limit: max_bytes });
                }
                body.extend_from_slice(&chunk[..room]);
                break;
            }
            body.extend_from_slice(&chunk);
        }
        if pages {
            check_body(declared_html, &body)?;
        }
        Ok(Hop::Page(Fetched {
            url: url.clone(),
            status,
            content_type,
            charset,
            headers,
            redirects: Vec::new(),
            body,
            remote_ip,
        }))
    }
}

impl PageSource for HttpSource {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(CrawlError::UnsupportedScheme(url.scheme().to_string()));
        }
        let start = clean_url(url);
        let mut current = start.clone();
        let mut seen = HashSet::from([start.to_string()]);
        let mut redirects = Vec::new();
        loop {
            let robots = self.robots_for(&current);
            if !robots.allowed(&current) {
                return Err(CrawlError::RobotsDisallowed);
            }
            self.wait_turn(&current, Some(&robots));
            match self.run(self.request(&current, self.options.max_bytes, true))? {
                Hop::Page(mut page) => {
                    page.redirects = redirects;
                    return Ok(page);
                }
                Hop::Redirect { status, to } => {
                    if !matches!(to.scheme(), "http" | "https") {
                        return Err(CrawlError::UnsupportedScheme(to.scheme().to_string()));
                    }
                    if self.options.stay_on_site && !same_site(&start, &to) {
                        return Err(CrawlError::OffSite(to));
                    }
                    if !seen.insert(clean_url(&to).to_string()) {
                        return Err(CrawlError::RedirectLoop(to));
                    }
                    if redirects.len() >= self.options.max_redirects {
                        return Err(CrawlError::TooManyRedirects(self.options.max_redirects));
                    }
                    let next = clean_url(&to);
                    redirects.push(Redirect { from: current, status, to: next.clone() });
                    current = next;
                }
            }
        }
    }
}
