//! Page sources for gleaner: where pages come from.
//!
//! The core `gleaner` crate does no I/O. This crate fetches pages for it
//! through one trait, [`PageSource`], with three sources:
//!
//! - [`HttpSource`]: HTTP(S) with reqwest and rustls. It obeys
//!   `robots.txt`, waits between requests to a host (and as long as a
//!   `Retry-After` asks, within a cap), follows redirects itself (on the
//!   same host unless told otherwise, with loop detection), connects only
//!   to addresses its [`AddressPolicy`] allows, decodes `Content-Encoding`
//!   within the byte cap, caps time and bytes, and skips responses that
//!   are not HTML.
//! - [`DirSource`]: a local folder served as a site (`x/` ↔ `x/index.html`).
//! - [`WarcSource`]: a WARC file written by [`WarcRecorder`] (or another
//!   crawler), so a crawl can be replayed offline and every experiment
//!   repeats without the network.
//!
//! [`warc`] reads archives of any size as a stream and extracts their
//! HTML responses in parallel (`gleaner warc`).
//!
//! [`crawl`] walks a site breadth-first from a start page through any
//! source, with caps on pages, attempts, time and queue size; URLs are
//! normalised ([`url_key`]) so each page is fetched once.
//!
//! [`training`] learns a page's own template from the pages it links to,
//! by Gottron's structural clusters or by Alarte et al.'s menu subdigraph.
//!
//! The API is blocking; the HTTP source runs its own small tokio runtime.

mod address;
mod crawl;
mod dir;
pub mod discover;
mod http;
mod links;
pub mod training;
mod urls;
mod warc_io;

/// Reading WARC archives as a stream and extracting their pages: a
/// streaming reader ([`warc::WarcReader`]), the choice of which records
/// are pages ([`warc::select`]), and the batch that extracts them into
/// JSON Lines or a WARC of `conversion` records, resumably
/// ([`warc::run_warc`]).
pub mod warc {
    pub use gleaner_warc::{
        block_bytes_to_keep, damage_message, failed_record, learn_host_templates, manifest_path,
        run_archives, run_warc, select, ArchiveSource, ArchiveTag, RecordOffset, Selected, Skip,
        WarcBatchError, WarcError, WarcEvent, WarcOptions, WarcOutputFormat, WarcPage, WarcReader,
        WarcRecord, WarcTotals, HTTP_HEAD_ALLOWANCE, MAX_GZIP_NAME_BYTES, MAX_HEADER_BYTES,
    };
}
pub use url::Url;

pub use crate::address::{
    check_ip, AddressClass, AddressError, AddressPolicy, Admission, GuardedResolver,
};
pub use crate::crawl::{crawl, Crawl, CrawlOptions, CrawlStats, Visit};
pub use crate::dir::DirSource;
pub use crate::http::{HttpOptions, HttpSource, DEFAULT_MAX_URL_LEN, DEFAULT_USER_AGENT};
pub use crate::links::{page_links, PageLinks};
pub use crate::urls::{clean_url, output_name, same_origin, same_site, url_key};
pub use crate::warc_io::{WarcRecorder, WarcSource};
pub use gleaner_warc::{looks_like_html, parse_content_type};

/// A page as a source delivered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The final URL, after redirects.
    pub url: Url,
    /// The HTTP status of the final response (2xx).
    pub status: u16,
    /// The media type from the `Content-Type` header, lower-case and
    /// without parameters (`text/html`); `None` when the header was absent.
    pub content_type: Option<String>,
    /// The `charset` parameter of the `Content-Type` header, as given.
    /// Map it with `gleaner::document::encoding_for_label` and pass it to
    /// `ParseOptions::encoding`.
    pub charset: Option<String>,
    /// The final response's headers, in order as received.
    pub headers: Vec<(String, String)>,
    /// The redirects followed before [`Fetched::url`], in order.
    pub redirects: Vec<Redirect>,
    /// The page's bytes: the response body with its `Content-Encoding`
    /// (gzip, deflate, br, zstd) undone.
    pub body: Vec<u8>,
    /// The body as sent, when the server applied a `Content-Encoding`
    /// (`None` when [`Fetched::body`] is that already): what a WARC
    /// response record stores beside the headers as received.
    pub encoded_body: Option<Vec<u8>>,
    /// The address the final response came from, when the source knows
    /// it (the HTTP connection's peer; a WARC's `WARC-IP-Address`).
    pub remote_ip: Option<std::net::IpAddr>,
}

impl Fetched {
    /// Parse options for this page: `base` (the caller's limits) with its
    /// URL and, when the server named a charset the core knows, that
    /// encoding as the transport's
    /// ([`ParseOptions::transport_encoding`](gleaner::ParseOptions::transport_encoding)).
    pub fn parse_options(&self, base: &gleaner::ParseOptions) -> gleaner::ParseOptions {
        let parse = base.clone().url(Some(self.url.to_string()));
        match self.charset.as_deref().and_then(gleaner::document::encoding_for_label) {
            Some(encoding) => parse.transport_encoding(Some(encoding)),
            None => parse,
        }
    }
}

/// One redirect that a source followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The URL that answered with a redirect.
    pub from: Url,
    /// Its status (301, 302, 303, 307 or 308).
    pub status: u16,
    /// Where it pointed (the `Location` header resolved against `from`).
    pub to: Url,
}

/// Where pages come from: the web, a folder, an archive.
///
/// Implementations are blocking and must bound their own time and memory.
/// A failure is a [`CrawlError`] for that page only; a crawl goes on.
pub trait PageSource {
    /// Fetches the page at `url`, following redirects.
    ///
    /// # Errors
    /// A typed [`CrawlError`] for this page.
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError>;

    /// [`PageSource::fetch`], ending by `deadline` (a crawl's `max_time`)
    /// with [`CrawlError::OutOfTime`], even in the middle of a request.
    /// Sources without waits (a folder, an archive) ignore it.
    ///
    /// # Errors
    /// As [`PageSource::fetch`], and [`CrawlError::OutOfTime`].
    fn fetch_within(
        &self,
        url: &Url,
        deadline: Option<std::time::Instant>,
    ) -> Result<Fetched, CrawlError> {
        let _ = deadline;
        self.fetch(url)
    }
}

impl<S: PageSource + ?Sized> PageSource for &S {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        (**self).fetch(url)
    }

    fn fetch_within(
        &self,
        url: &Url,
        deadline: Option<std::time::Instant>,
    ) -> Result<Fetched, CrawlError> {
        (**self).fetch_within(url, deadline)
    }
}

impl<S: PageSource + ?Sized> PageSource for Box<S> {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        (**self).fetch(url)
    }

    fn fetch_within(
        &self,
        url: &Url,
        deadline: Option<std::time::Instant>,
    ) -> Result<Fetched, CrawlError> {
        (**self).fetch_within(url, deadline)
    }
}

/// Why a page was not delivered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    /// The fetch (every redirect hop: connect, headers and body) took
    /// longer than the timeout.
    #[error("timed out after {0:?}")]
    Timeout(std::time::Duration),
    /// The time limit of the whole run (a crawl's `max_time`, the
    /// source's `max_time`) ran out before or during the fetch.
    #[error("out of time: the run's time limit (--max-time-secs) ran out")]
    OutOfTime,
    /// The body is larger than the byte cap; it was not read whole.
    #[error("body larger than {limit} bytes")]
    TooLarge {
        /// The cap in bytes.
        limit: u64,
    },
    /// A redirect pointed back to a URL already visited in the same chain.
    #[error("redirect loop at {0}")]
    RedirectLoop(Url),
    /// More redirects than allowed.
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    /// A redirect without a usable `Location` header.
    #[error("redirect {status} without a usable Location")]
    BadRedirect {
        /// The redirect's status.
        status: u16,
    },
    /// `robots.txt` disallows the URL for our user agent.
    #[error("disallowed by robots.txt")]
    RobotsDisallowed,
    /// `robots.txt` answered with this server error (5xx, or 429 without a
    /// usable `Retry-After`): RFC 9309 §2.3.1.4 says to assume the whole
    /// site is disallowed while it does.
    #[error(
        "robots.txt answered HTTP {0}: nothing on the site is fetched while it fails (RFC 9309)"
    )]
    RobotsUnavailable(u16),
    /// The address policy refused the URL's host or what it resolves to,
    /// or the host name could not be resolved.
    #[error("{0}")]
    Address(AddressError),
    /// The origin answered 429 or 503 asking to wait longer than the
    /// source waits ([`HttpOptions::max_retry_after`]): it is not asked
    /// again until then.
    #[error(
        "{origin} answered HTTP {status} asking to wait {} s (Retry-After), longer than the {} s \
         gleaner waits (--max-retry-after-secs): not asking it again until then",
        wait.as_secs(),
        most.as_secs()
    )]
    BackedOff {
        /// The origin (`scheme://host:port`).
        origin: String,
        /// 429 or 503.
        status: u16,
        /// The wait it asked for.
        wait: std::time::Duration,
        /// The longest wait the source honours.
        most: std::time::Duration,
    },
    /// The URL is longer than the source requests.
    #[error("URL too long: {len} bytes, more than {limit}")]
    UrlTooLong {
        /// The URL's length in bytes.
        len: usize,
        /// The limit ([`HttpOptions::max_url_len`]).
        limit: usize,
    },
    /// The body's `Content-Encoding` is unknown or its bytes are corrupt.
    #[error("cannot decode the body: {0}")]
    ContentEncoding(String),
    /// The URL (or a redirect target) is outside the crawl's site.
    #[error("off-site: {0}")]
    OffSite(Url),
    /// The URL's scheme is neither http nor https.
    #[error("unsupported URL scheme {0:?}")]
    UnsupportedScheme(String),
    /// The response is not HTML: by its content type, or by sniffing.
    #[error("not HTML: {0}")]
    NotHtml(String),
    /// The server answered with a status other than 2xx or a redirect.
    #[error("HTTP {0}")]
    Status(u16),
    /// No such page: missing file, or not in the archive.
    #[error("not found")]
    NotFound,
    /// A canonical duplicate of a page already fetched.
    #[error("duplicate of {0}")]
    Duplicate(Url),
    /// A network failure (connection refused, reset, TLS, …).
    #[error("network: {0}")]
    Network(String),
    /// A local I/O failure (folder or archive).
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    /// An archive that cannot be read.
    #[error("WARC: {0}")]
    Warc(String),
}

impl CrawlError {
    /// A short, stable name for the reason, for summaries
    /// (`timeout`, `too-large`, `robots`, `off-site`, `http-500`, …).
    pub fn reason(&self) -> String {
        match self {
            CrawlError::Timeout(_) => "timeout".into(),
            CrawlError::OutOfTime => "max-time".into(),
            CrawlError::RobotsUnavailable(_) => "robots-unavailable".into(),
            CrawlError::Address(AddressError::Dns { .. }) => "dns".into(),
            CrawlError::Address(_) => "refused-address".into(),
            CrawlError::BackedOff { .. } => "backed-off".into(),
            CrawlError::UrlTooLong { .. } => "url-too-long".into(),
            CrawlError::ContentEncoding(_) => "bad-encoding".into(),
            CrawlError::TooLarge { .. } => "too-large".into(),
            CrawlError::RedirectLoop(_) => "redirect-loop".into(),
            CrawlError::TooManyRedirects(_) => "too-many-redirects".into(),
            CrawlError::BadRedirect { .. } => "bad-redirect".into(),
            CrawlError::RobotsDisallowed => "robots".into(),
            CrawlError::OffSite(_) => "off-site".into(),
            CrawlError::UnsupportedScheme(_) => "unsupported-scheme".into(),
            CrawlError::NotHtml(_) => "not-html".into(),
            CrawlError::Status(s) => format!("http-{s}"),
            CrawlError::NotFound => "not-found".into(),
            CrawlError::Duplicate(_) => "duplicate".into(),
            CrawlError::Network(_) => "network".into(),
            CrawlError::Io(_) => "io".into(),
            CrawlError::Warc(_) => "warc".into(),
        }
    }

    /// Whether the failure happened before anything was requested (robots,
    /// off-site, scheme, address policy, a host backed off, a URL too
    /// long): such failures do not use up the crawl's attempts.
    pub fn before_request(&self) -> bool {
        matches!(
            self,
            CrawlError::RobotsDisallowed
                | CrawlError::RobotsUnavailable(_)
                | CrawlError::OffSite(_)
                | CrawlError::UnsupportedScheme(_)
                | CrawlError::Address(AddressError::Refused { .. })
                | CrawlError::BackedOff { .. }
                | CrawlError::UrlTooLong { .. }
        )
    }

    /// A copy of this error (an I/O error keeps its kind and message):
    /// one `robots.txt` failure is every page's of that origin.
    pub fn duplicate(&self) -> CrawlError {
        use CrawlError as E;
        match self {
            E::Timeout(d) => E::Timeout(*d),
            E::OutOfTime => E::OutOfTime,
            E::TooLarge { limit } => E::TooLarge { limit: *limit },
            E::RedirectLoop(u) => E::RedirectLoop(u.clone()),
            E::TooManyRedirects(n) => E::TooManyRedirects(*n),
            E::BadRedirect { status } => E::BadRedirect { status: *status },
            E::RobotsDisallowed => E::RobotsDisallowed,
            E::RobotsUnavailable(s) => E::RobotsUnavailable(*s),
            E::Address(e) => E::Address(e.clone()),
            E::BackedOff { origin, status, wait, most } => {
                E::BackedOff { origin: origin.clone(), status: *status, wait: *wait, most: *most }
            }
            E::UrlTooLong { len, limit } => E::UrlTooLong { len: *len, limit: *limit },
            E::ContentEncoding(m) => E::ContentEncoding(m.clone()),
            E::OffSite(u) => E::OffSite(u.clone()),
            E::UnsupportedScheme(s) => E::UnsupportedScheme(s.clone()),
            E::NotHtml(m) => E::NotHtml(m.clone()),
            E::Status(s) => E::Status(*s),
            E::NotFound => E::NotFound,
            E::Duplicate(u) => E::Duplicate(u.clone()),
            E::Network(m) => E::Network(m.clone()),
            E::Io(e) => E::Io(std::io::Error::new(e.kind(), e.to_string())),
            E::Warc(m) => E::Warc(m.clone()),
        }
    }
}

impl From<gleaner_warc::NotHtml> for CrawlError {
    fn from(e: gleaner_warc::NotHtml) -> CrawlError {
        CrawlError::NotHtml(e.0)
    }
}

impl From<AddressError> for CrawlError {
    fn from(e: AddressError) -> CrawlError {
        match e {
            AddressError::Scheme(s) => CrawlError::UnsupportedScheme(s),
            other => CrawlError::Address(other),
        }
    }
}

/// A redirect status.
pub(crate) fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}
