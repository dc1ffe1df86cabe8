//! The HTTP(S) source: reqwest with rustls on a small tokio runtime of its
//! own, behind the blocking [`PageSource`] trait.
//!
//! Every request goes through one [`AddressPolicy`] (scheme, address host,
//! and every address DNS gives, see [`crate::address`]) and one clock:
//!
//! - a fetch (every redirect hop, and the waits between them) ends within
//!   [`HttpOptions::timeout`] of its first request; `robots.txt`, fetched
//!   once per origin before its first page, has a timeout of its own;
//! - nothing goes past the source's [`HttpOptions::max_time`] or the
//!   deadline a caller passes to [`PageSource::fetch_within`] (a crawl's
//!   `max_time`), not even a request under way.
//!
//! A `429` or `503` answer with `Retry-After` (RFC 9110 §10.2.3) holds back
//! every request to that origin for the time asked, up to
//! [`HttpOptions::max_retry_after`], and the page is asked again (at most
//! [`HttpOptions::max_retries`] times); an origin that asks for longer is
//! not asked again until that time has passed.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use url::Url;

use crate::address::{AddressError, AddressPolicy, GuardedResolver};
use crate::urls::{clean_url, same_site};
use crate::{is_redirect, CrawlError, Fetched, PageSource, Redirect};
use gleaner_warc::decode::{decode, is_encoded, DecodeError, ACCEPT_ENCODING};
use gleaner_warc::sniff::{check_body, check_type, parse_content_type};

/// The user agent sent unless [`HttpOptions::user_agent`] says otherwise.
/// Its product token (`gleaner-crawl`) is the name `robots.txt` rules match.
pub const DEFAULT_USER_AGENT: &str =
    concat!("gleaner-crawl/", env!("CARGO_PKG_VERSION"), " (+https://example.invalid/gleaner)");

/// The longest URL requested by default, in bytes: 8 KiB, what common
/// servers accept in a request line (Apache's `LimitRequestLine` 8190,
/// nginx's 8k header buffers; RFC 9110 §4.1 recommends at least 8000).
pub const DEFAULT_MAX_URL_LEN: usize = 8 * 1024;

/// The most of a `robots.txt` that is read (RFC 9309 §2.5 asks for 500
/// KiB), after content decoding.
const ROBOTS_MAX_BYTES: u64 = 512 * 1024;

/// Redirects followed when fetching `robots.txt` (RFC 9309 §2.3.1.2: at
/// least five).
const ROBOTS_MAX_REDIRECTS: usize = 5;

/// How the HTTP source behaves.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// The `User-Agent` header; its first word before `/` is the agent name
    /// matched against `robots.txt`.
    pub user_agent: String,
    /// Longest time for one fetch: every redirect hop (connecting, headers
    /// and the whole body) and the waits between hops, from its first
    /// request. A server that drips bytes, or a chain of slow redirects, is
    /// cut off here. `robots.txt` has a timeout of its own. Default 30 s.
    pub timeout: Duration,
    /// Longest time for everything this source fetches, from its creation
    /// (a command's `--max-time-secs`): past it every fetch fails with
    /// [`CrawlError::OutOfTime`], one under way included. Default `None`.
    pub max_time: Option<Duration>,
    /// Largest body read, after content decoding, and largest body
    /// received; a longer one is [`CrawlError::TooLarge`] and is not read
    /// further. Default 10 MiB; at most
    /// `gleaner::document::MAX_SUPPORTED_BYTES` (1 GiB).
    pub max_bytes: u64,
    /// Most redirects followed for one page. Default 10.
    pub max_redirects: usize,
    /// Least time between two requests to one origin. Default 500 ms; a
    /// larger `Crawl-delay` in `robots.txt` wins, up to
    /// [`HttpOptions::max_crawl_delay`].
    pub delay: Duration,
    /// The most of a `robots.txt` `Crawl-delay` that is honoured. Default 10 s.
    pub max_crawl_delay: Duration,
    /// The longest `Retry-After` of a 429 or 503 answer that is waited
    /// for; an origin asking for longer is given up on until that time
    /// has passed ([`CrawlError::BackedOff`]). Default 60 s.
    pub max_retry_after: Duration,
    /// How many times one fetch asks again after a `Retry-After` within
    /// [`HttpOptions::max_retry_after`]. Default 2.
    pub max_retries: usize,
    /// Longest URL requested, in bytes; longer ones (given, linked or
    /// redirected to) are [`CrawlError::UrlTooLong`]. Default
    /// [`DEFAULT_MAX_URL_LEN`].
    pub max_url_len: usize,
    /// Refuse redirects to another site ([`CrawlError::OffSite`]), for
    /// pages and for `robots.txt`. Default true.
    pub stay_on_site: bool,
    /// Obey `robots.txt`. Default true.
    pub obey_robots: bool,
    /// Which addresses may be connected to. Default: public ones only.
    pub address_policy: AddressPolicy,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            user_agent: DEFAULT_USER_AGENT.to_string(),
            timeout: Duration::from_secs(30),
            max_time: None,
            max_bytes: 10 << 20,
            max_redirects: 10,
            delay: Duration::from_millis(500),
            max_crawl_delay: Duration::from_secs(10),
            max_retry_after: Duration::from_secs(60),
            max_retries: 2,
            max_url_len: DEFAULT_MAX_URL_LEN,
            stay_on_site: true,
            obey_robots: true,
            address_policy: AddressPolicy::default(),
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

    /// Sets [`HttpOptions::max_time`].
    pub fn max_time(mut self, max_time: Option<Duration>) -> HttpOptions {
        self.max_time = max_time;
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

    /// Sets [`HttpOptions::max_crawl_delay`].
    pub fn max_crawl_delay(mut self, most: Duration) -> HttpOptions {
        self.max_crawl_delay = most;
        self
    }

    /// Sets [`HttpOptions::max_retry_after`].
    pub fn max_retry_after(mut self, most: Duration) -> HttpOptions {
        self.max_retry_after = most;
        self
    }

    /// Sets [`HttpOptions::max_retries`].
    pub fn max_retries(mut self, n: usize) -> HttpOptions {
        self.max_retries = n;
        self
    }

    /// Sets [`HttpOptions::max_url_len`].
    pub fn max_url_len(mut self, bytes: usize) -> HttpOptions {
        self.max_url_len = bytes;
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

    /// Sets [`HttpOptions::address_policy`].
    pub fn address_policy(mut self, policy: AddressPolicy) -> HttpOptions {
        self.address_policy = policy;
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
    /// No rules (4xx, unparsable file, a redirect not followed, robots
    /// not obeyed): RFC 9309 §2.3.1.3 allows everything.
    AllowAll,
    /// The server answered 5xx (or 429): RFC 9309 §2.3.1.4 says assume
    /// nothing is allowed.
    Unavailable(u16),
    /// The file could not be fetched at all (unreachable, DNS, timeout,
    /// refused address): nothing is fetched from the origin, and each of
    /// its pages fails with this error.
    Failed(CrawlError),
    /// Parsed rules.
    Rules(texting_robots::Robot),
}

impl Robots {
    fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Robots::Rules(r) => {
                r.delay.filter(|d| d.is_finite() && *d > 0.0).map(Duration::from_secs_f32)
            }
            _ => None,
        }
    }
}

/// One response: a page, a redirect to follow, or a request to come back
/// later.
enum Hop {
    Page(Fetched),
    Redirect {
        status: u16,
        to: Url,
    },
    /// 429 or 503, with the `Retry-After` wait if the server gave one.
    Retry {
        status: u16,
        wait: Option<Duration>,
    },
}

/// One origin's `robots.txt`, once fetched; its lock makes one thread
/// fetch it while the others of that origin wait.
type RobotsSlot = Arc<Mutex<Option<Arc<Robots>>>>;

/// The deadlines one fetch runs under: its own (the timeout, from its
/// first request) and the command's.
struct Clock {
    timeout: Duration,
    fetch: Option<Instant>,
    overall: Option<Instant>,
}

impl Clock {
    /// Starts the fetch's own deadline, if not started yet.
    fn start(&mut self) {
        if self.fetch.is_none() {
            self.fetch = Some(Instant::now() + self.timeout);
        }
    }

    /// Forgets the fetch's own deadline: a retry starts afresh.
    fn restart(&mut self) {
        self.fetch = None;
    }

    /// The earliest deadline in force and the error it ends with.
    fn limit(&self) -> Option<(Instant, CrawlError)> {
        let fetch = self.fetch.map(|t| (t, CrawlError::Timeout(self.timeout)));
        let overall = self.overall.map(|t| (t, CrawlError::OutOfTime));
        match (fetch, overall) {
            (Some(a), Some(b)) => Some(if b.0 <= a.0 { b } else { a }),
            (a, b) => a.or(b),
        }
    }
}

/// Pages from the web. Blocking; safe to share between threads (the crawl
/// fetches a few pages at once). Do not call it from inside an async
/// runtime: it runs its own.
pub struct HttpSource {
    options: HttpOptions,
    /// The client whose resolver refuses every non-public address.
    public: reqwest::Client,
    /// The client whose resolver lets private addresses through, for URLs
    /// the policy allows them for.
    private: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    /// `robots.txt` per origin.
    robots: Mutex<HashMap<String, RobotsSlot>>,
    /// When each origin may be asked next.
    next_slot: Mutex<HashMap<String, Instant>>,
    /// Origins that asked to be left alone for longer than
    /// `max_retry_after`: until when, and what they answered.
    backed_off: Mutex<HashMap<String, (Instant, u16, Duration)>>,
    /// The end of [`HttpOptions::max_time`].
    deadline: Option<Instant>,
}

impl std::fmt::Debug for HttpSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpSource").field("options", &self.options).finish_non_exhaustive()
    }
}

/// A reqwest failure as a [`CrawlError`] that says what happened: the
/// address policy's refusal or DNS failure (from the resolver, found in
/// the error's chain), a refused or failed connection with the address,
/// or the whole chain of messages.
fn network(e: &reqwest::Error, url: &Url, timeout: Duration) -> CrawlError {
    let mut source = std::error::Error::source(e);
    let mut io = None;
    while let Some(s) = source {
        if let Some(refused) = s.downcast_ref::<AddressError>() {
            return CrawlError::from(refused.clone());
        }
        if let Some(e) = s.downcast_ref::<std::io::Error>() {
            io = Some(e);
        }
        source = s.source();
    }
    if e.is_timeout() {
        return CrawlError::Timeout(timeout);
    }
    let place = format!(
        "{}:{}",
        url.host_str().unwrap_or_default(),
        url.port_or_known_default().unwrap_or_default()
    );
    match io {
        Some(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            CrawlError::Network(format!("connection refused by {place}"))
        }
        Some(io) if e.is_connect() => {
            CrawlError::Network(format!("cannot connect to {place}: {io}"))
        }
        _ => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text.push_str(": ");
                text.push_str(&s.to_string());
                source = s.source();
            }
            CrawlError::Network(text)
        }
    }
}

/// The key of an origin (scheme, host, port) for per-origin state.
fn origin_key(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// A `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an
/// HTTP-date (IMF-fixdate, or the obsolete RFC 850 and asctime forms that
/// §5.6.7 asks recipients to accept), as a wait from `now`. A date in the
/// past is no wait; a number too large for a duration is the longest one.
pub(crate) fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value)
        .map(|d| d.to_utc())
        .or_else(|_| {
            chrono::NaiveDateTime::parse_from_str(value, "%A, %d-%b-%y %H:%M:%S GMT")
                .map(|d| d.and_utc())
        })
        .or_else(|_| {
            chrono::NaiveDateTime::parse_from_str(value, "%a %b %e %H:%M:%S %Y")
                .map(|d| d.and_utc())
        })
        .ok()?;
    let at = SystemTime::from(date);
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

impl HttpSource {
    /// A source with these options.
    ///
    /// # Errors
    /// [`CrawlError::Network`] when the HTTP client or its runtime cannot
    /// be set up.
    pub fn new(mut options: HttpOptions) -> Result<HttpSource, CrawlError> {
        options.max_bytes = options.max_bytes.min(gleaner::document::MAX_SUPPORTED_BYTES as u64);
        let client = |private_ok: bool| {
            reqwest::Client::builder()
                .user_agent(options.user_agent.clone())
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(options.timeout)
                .pool_max_idle_per_host(4)
                // The policy checks the address gleaner connects to; through
                // a proxy that would be the proxy's.
                .no_proxy()
                .dns_resolver(GuardedResolver::new(private_ok).shared())
                .build()
                .map_err(|e| CrawlError::Network(e.to_string()))
        };
        let (public, private) = (client(false)?, client(true)?);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("gleaner-crawl-http")
            .enable_io()
            .enable_time()
            .build()?;
        let deadline = options.max_time.map(|t| Instant::now() + t);
        Ok(HttpSource {
            options,
            public,
            private,
            runtime,
            robots: Mutex::new(HashMap::new()),
            next_slot: Mutex::new(HashMap::new()),
            backed_off: Mutex::new(HashMap::new()),
            deadline,
        })
    }

    /// The options in force.
    pub fn options(&self) -> &HttpOptions {
        &self.options
    }

    fn clock(&self, deadline: Option<Instant>) -> Clock {
        let overall = match (deadline, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Clock { timeout: self.options.timeout, fetch: None, overall }
    }

    /// The checks before a URL is requested: its length and the address
    /// policy. Gives the client to request it with.
    fn admit(&self, url: &Url) -> Result<&reqwest::Client, CrawlError> {
        let len = url.as_str().len();
        if len > self.options.max_url_len {
            return Err(CrawlError::UrlTooLong { len, limit: self.options.max_url_len });
        }
        let admission = self.options.address_policy.check_url(url)?;
        Ok(if admission.private_ok { &self.private } else { &self.public })
    }

    /// Fails when `url`'s origin asked to be left alone for longer than
    /// `max_retry_after`, and that time has not passed.
    fn check_backed_off(&self, url: &Url) -> Result<(), CrawlError> {
        let key = origin_key(url);
        let mut map = self.backed_off.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&key) {
            Some(&(until, status, wait)) if Instant::now() < until => Err(CrawlError::BackedOff {
                origin: key,
                status,
                wait,
                most: self.options.max_retry_after,
            }),
            Some(_) => {
                map.remove(&key);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// What to do with a 429 or 503: `Ok(())` when the fetch should ask
    /// again (the origin's next turn is booked after the wait), else the
    /// error that ends it.
    fn retry(
        &self,
        url: &Url,
        status: u16,
        wait: Option<Duration>,
        retries: &mut usize,
    ) -> Result<(), CrawlError> {
        let Some(wait) = wait else { return Err(CrawlError::Status(status)) };
        let key = origin_key(url);
        if wait > self.options.max_retry_after {
            let until = Instant::now().checked_add(wait).unwrap_or_else(far_future);
            let mut map = self.backed_off.lock().unwrap_or_else(|e| e.into_inner());
            map.insert(key.clone(), (until, status, wait));
            return Err(CrawlError::BackedOff {
                origin: key,
                status,
                wait,
                most: self.options.max_retry_after,
            });
        }
        if *retries >= self.options.max_retries {
            return Err(CrawlError::Status(status));
        }
        *retries += 1;
        let at = Instant::now() + wait;
        let mut slots = self.next_slot.lock().unwrap_or_else(|e| e.into_inner());
        let slot = slots.entry(key).or_insert(at);
        *slot = (*slot).max(at);
        Ok(())
    }

    /// Waits until this origin may be asked again, and books the next
    /// turn; fails without waiting when the turn comes after the clock's
    /// deadline.
    fn wait_turn(
        &self,
        url: &Url,
        robots: Option<&Robots>,
        clock: &Clock,
    ) -> Result<(), CrawlError> {
        let crawl_delay =
            robots.and_then(Robots::crawl_delay).map(|d| d.min(self.options.max_crawl_delay));
        let delay = crawl_delay.map_or(self.options.delay, |d| d.max(self.options.delay));
        let now = Instant::now();
        let slot = {
            let mut slots = self.next_slot.lock().unwrap_or_else(|e| e.into_inner());
            let key = origin_key(url);
            let slot = slots.get(&key).copied().map_or(now, |s| s.max(now));
            if let Some((limit, error)) = clock.limit() {
                if slot >= limit {
                    return Err(error);
                }
            }
            slots.insert(key, slot + delay);
            slot
        };
        let wait = slot.saturating_duration_since(now);
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
        Ok(())
    }

    /// The robots rules of `url`'s origin, fetched once; an origin whose
    /// `robots.txt` cannot be had is an error for each of its pages.
    fn robots_for(&self, url: &Url, clock: &Clock) -> Result<Arc<Robots>, CrawlError> {
        if !self.options.obey_robots {
            return Ok(Arc::new(Robots::AllowAll));
        }
        let entry = {
            let mut map = self.robots.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(map.entry(origin_key(url)).or_default())
        };
        let mut slot = entry.lock().unwrap_or_else(|e| e.into_inner());
        let robots = match &*slot {
            Some(robots) => Arc::clone(robots),
            None => {
                let robots = Arc::new(self.fetch_robots(url, clock)?);
                *slot = Some(Arc::clone(&robots));
                robots
            }
        };
        match &*robots {
            Robots::Failed(e) => Err(e.duplicate()),
            Robots::Unavailable(status) => Err(CrawlError::RobotsUnavailable(*status)),
            _ => Ok(robots),
        }
    }

    /// Fetches and reads `robots.txt` for `page`'s origin, under a clock
    /// of its own. Redirects are followed on the site only (any site with
    /// [`HttpOptions::stay_on_site`] off), each target checked by the
    /// address policy; one not followed leaves no rules (RFC 9309
    /// §2.3.1.2 lets a crawler treat it as unavailable, §2.3.1.3). Only
    /// the command's deadline is an error; every other outcome is cached.
    fn fetch_robots(&self, page: &Url, page_clock: &Clock) -> Result<Robots, CrawlError> {
        let Ok(first) = page.join("/robots.txt") else {
            return Ok(Robots::AllowAll);
        };
        let mut clock =
            Clock { timeout: self.options.timeout, fetch: None, overall: page_clock.overall };
        let mut current = first.clone();
        let mut hops = 0;
        let mut retries = 0;
        let outcome = loop {
            if let Err(e) = self.check_backed_off(&current) {
                break Robots::Failed(e);
            }
            let client = match self.admit(&current) {
                Ok(client) => client,
                Err(e) if hops == 0 => break Robots::Failed(e),
                Err(_) => break Robots::AllowAll,
            };
            match self.wait_turn(&current, None, &clock) {
                Err(e @ CrawlError::OutOfTime) => return Err(e),
                Err(e) => break Robots::Failed(e),
                Ok(()) => {}
            }
            clock.start();
            match self.run(self.request(client, &current, ROBOTS_MAX_BYTES, Body::Robots), &clock) {
                Ok(Hop::Page(page)) => {
                    let agent = self.options.robots_agent();
                    break texting_robots::Robot::new(agent, &page.body)
                        .map_or(Robots::AllowAll, Robots::Rules);
                }
                Ok(Hop::Redirect { to, .. }) => {
                    let on_site = !self.options.stay_on_site || same_site(&first, &to);
                    if hops >= ROBOTS_MAX_REDIRECTS || !on_site {
                        break Robots::AllowAll;
                    }
                    hops += 1;
                    current = to;
                }
                Ok(Hop::Retry { status, wait }) => {
                    match self.retry(&current, status, wait, &mut retries) {
                        Ok(()) => clock.restart(),
                        Err(CrawlError::Status(s)) => break Robots::Unavailable(s),
                        Err(e) => break Robots::Failed(e),
                    }
                }
                Err(CrawlError::Status(s)) if (400..500).contains(&s) => break Robots::AllowAll,
                Err(CrawlError::Status(s)) => break Robots::Unavailable(s),
                Err(e @ CrawlError::OutOfTime) => return Err(e),
                Err(CrawlError::Address(_)) if hops > 0 => break Robots::AllowAll,
                Err(e) => break Robots::Failed(e),
            }
        };
        Ok(outcome)
    }

    /// Runs one request on the runtime, cut at the clock's deadline.
    fn run<F: std::future::Future<Output = Result<Hop, CrawlError>>>(
        &self,
        f: F,
        clock: &Clock,
    ) -> Result<Hop, CrawlError> {
        match clock.limit() {
            None => self.runtime.block_on(f),
            Some((limit, error)) => self
                .runtime
                .block_on(async {
                    tokio::time::timeout_at(tokio::time::Instant::from_std(limit), f).await
                })
                .map_err(|_| error)?,
        }
    }

    /// One GET, no redirect followed. A [`Body::Page`] gets the HTML
    /// checks; a page or a [`Body::Resource`] past the byte cap is an
    /// error, while `robots.txt` is cut at the cap. The body is decoded as
    /// its `Content-Encoding` says, the bytes as sent kept beside it.
    async fn request(
        &self,
        client: &reqwest::Client,
        url: &Url,
        max_bytes: u64,
        kind: Body,
    ) -> Result<Hop, CrawlError> {
        let pages = kind == Body::Page;
        let capped = kind != Body::Robots;
        let timeout = self.options.timeout;
        let mut response = client
            .get(url.clone())
            .header(reqwest::header::ACCEPT_ENCODING, ACCEPT_ENCODING)
            .send()
            .await
            .map_err(|e| network(&e, url, timeout))?;
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
        if matches!(status, 429 | 503) {
            let wait = header("retry-after").and_then(|v| retry_after(v, SystemTime::now()));
            return Ok(Hop::Retry { status, wait });
        }
        if !(200..300).contains(&status) {
            return Err(CrawlError::Status(status));
        }
        let (content_type, charset) =
            header("content-type").map(parse_content_type).unwrap_or_default();
        let declared_html = if pages { check_type(content_type.as_deref())? } else { true };
        if capped && response.content_length().is_some_and(|n| n > max_bytes) {
            return Err(CrawlError::TooLarge { limit: max_bytes });
        }
        let cap = usize::try_from(max_bytes).unwrap_or(usize::MAX);
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| network(&e, url, timeout))? {
            let room = cap.saturating_sub(body.len());
            if chunk.len() > room {
                if capped {
                    return Err(CrawlError::TooLarge { limit: max_bytes });
                }
                body.extend_from_slice(&chunk[..room]);
                break;
            }
            body.extend_from_slice(&chunk);
        }
        let codings = header("content-encoding").unwrap_or_default();
        let (body, encoded_body) = if is_encoded(codings) {
            match decode(codings, &body, cap, !capped) {
                Ok(decoded) => (decoded, Some(body)),
                Err(DecodeError::TooLarge) => {
                    return Err(CrawlError::TooLarge { limit: max_bytes })
                }
                Err(e) => return Err(CrawlError::ContentEncoding(e.to_string())),
            }
        } else {
            (body, None)
        };
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
            encoded_body,
            remote_ip,
        }))
    }
}

/// An instant far enough ahead to mean "not in this run".
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(100 * 365 * 24 * 3600)
}

/// What a response is fetched as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    /// A page: HTML only, whole within the byte cap.
    Page,
    /// Any other file a crawl reads (a sitemap, a feed): any type, whole
    /// within the byte cap.
    Resource,
    /// `robots.txt`: any type, cut at its cap.
    Robots,
}

impl PageSource for HttpSource {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        self.fetch_within(url, None)
    }

    fn fetch_within(&self, url: &Url, deadline: Option<Instant>) -> Result<Fetched, CrawlError> {
        self.fetch_as(url, deadline, Body::Page)
    }
}

impl HttpSource {
    /// Fetches a file that is not a page — a sitemap, a feed — as
    /// [`PageSource::fetch_within`] fetches a page (robots rules, delays,
    /// redirects, address policy, byte and time caps), whatever its
    /// content type.
    ///
    /// # Errors
    /// As [`PageSource::fetch_within`], except that a body that is not
    /// HTML is no error.
    pub fn fetch_resource(
        &self,
        url: &Url,
        deadline: Option<Instant>,
    ) -> Result<Fetched, CrawlError> {
        self.fetch_as(url, deadline, Body::Resource)
    }

    fn fetch_as(
        &self,
        url: &Url,
        deadline: Option<Instant>,
        kind: Body,
    ) -> Result<Fetched, CrawlError> {
        let mut clock = self.clock(deadline);
        if let Some((limit, error @ CrawlError::OutOfTime)) = clock.limit() {
            if Instant::now() >= limit {
                return Err(error);
            }
        }
        let start = clean_url(url);
        self.admit(&start)?;
        let mut current = start.clone();
        let mut seen = HashSet::from([start.to_string()]);
        let mut redirects = Vec::new();
        let mut retries = 0;
        loop {
            self.check_backed_off(&current)?;
            let robots = self.robots_for(&current, &clock)?;
            if let Robots::Rules(rules) = &*robots {
                if !rules.allowed(current.as_str()) {
                    return Err(CrawlError::RobotsDisallowed);
                }
            }
            let client = self.admit(&current)?;
            self.wait_turn(&current, Some(&robots), &clock)?;
            clock.start();
            match self.run(self.request(client, &current, self.options.max_bytes, kind), &clock)? {
                Hop::Page(mut page) => {
                    page.redirects = redirects;
                    return Ok(page);
                }
                Hop::Retry { status, wait } => {
                    self.retry(&current, status, wait, &mut retries)?;
                    clock.restart();
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
                    self.admit(&next)?;
                    redirects.push(Redirect { from: current, status, to: next.clone() });
                    current = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_31_retry_after_in_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // 1994-11-06 08:49:37
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(
            retry_after("99999999999999999999999", now),
            Some(Duration::from_secs(u64::MAX))
        );
        let ten = Some(Duration::from_secs(10));
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now), ten);
        assert_eq!(retry_after("Sunday, 06-Nov-94 08:49:47 GMT", now), ten);
        assert_eq!(retry_after("Sun Nov  6 08:49:47 1994", now), ten);
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now), Some(Duration::ZERO));
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-5", now), None);
        assert_eq!(retry_after("", now), None);
    }
}
