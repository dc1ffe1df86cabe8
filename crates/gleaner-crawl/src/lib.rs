//! Page sources for gleaner: where pages come from.
//!
//! The core `gleaner` crate does no I/O. This crate fetches pages for it
//! through one trait, [`PageSource`], with three sources:
//!
//! - [`HttpSource`]: HTTP(S) with reqwest and rustls. It obeys
//!   `robots.txt`, waits between requests to a host, follows redirects
//!   itself (on the same host unless told otherwise, with loop detection),
//!   caps time and bytes, and skips responses that are not HTML.
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

mod crawl;
mod dir;
mod http;
mod links;
mod sniff;
pub mod training;
mod urls;
mod warc_batch;
mod warc_io;
mod warc_page;
mod warc_read;
mod warc_write;

/// Reading WARC archives as a stream and extracting their pages: a
/// streaming reader ([`warc::WarcReader`]), the choice of which records
/// are pages ([`warc::select`]), and the batch that extracts them into
/// JSON Lines or a WARC of `conversion` records, resumably
/// ([`warc::run_warc`]).
pub mod warc {
    pub use crate::warc_batch::{
        damage_message, learn_host_templates, manifest_path, page_record, run_warc, HostTemplates,
        WarcBatchError, WarcEvent, WarcOptions, WarcOutputFormat, WarcTotals,
    };
    pub use crate::warc_page::{
        block_bytes_to_keep, select, Selected, WarcPage, HTTP_HEAD_ALLOWANCE,
    };
    pub use crate::warc_read::{
        RecordOffset, Skip, WarcError, WarcReader, WarcRecord, MAX_GZIP_NAME_BYTES,
        MAX_HEADER_BYTES,
    };
}

pub use url::Url;

pub use crate::crawl::{crawl, Crawl, CrawlOptions, CrawlStats, Visit};
pub use crate::dir::DirSource;
pub use crate::http::{HttpOptions, HttpSource, DEFAULT_USER_AGENT};
pub use crate::links::{page_links, PageLinks};
pub use crate::sniff::{looks_like_html, parse_content_type};
pub use crate::urls::{clean_url, same_site, url_key};
pub use crate::warc_io::{WarcRecorder, WarcSource};

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
    /// The response body as sent (no content decoding).
    pub body: Vec<u8>,
    /// The address the final response came from, when the source knows
    /// it (the HTTP connection's peer; a WARC's `WARC-IP-Address`).
    pub remote_ip: Option<std::net::IpAddr>,
}

impl Fetched {
    /// Parse options for this page: `base` (the caller's limits) with its
    /// URL and, when the server named a charset the core knows, that
    /// encoding.
    pub fn parse_options(&self, base: &gleaner::ParseOptions) -> gleaner::ParseOptions {
        let parse = base.clone().url(Some(self.url.to_string()));
        match self.charset.as_deref().and_then(gleaner::document::encoding_for_label) {
            Some(encoding) => parse.encoding(Some(encoding)),
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
}

impl<S: PageSource + ?Sized> PageSource for &S {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        (**self).fetch(url)
    }
}

impl<S: PageSource + ?Sized> PageSource for Box<S> {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        (**self).fetch(url)
    }
}

/// Why a page was not delivered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlError {
    /// The request (connect, headers and body) took longer than the timeout.
    #[error("timed out after {0:?}")]
    Timeout(std::time::Duration),
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
    /// off-site, scheme): such failures do not use up the crawl's attempts.
    pub fn before_request(&self) -> bool {
        matches!(
            self,
            CrawlError::RobotsDisallowed
                | CrawlError::OffSite(_)
                | CrawlError::UnsupportedScheme(_)
        )
    }
}

/// A redirect status.
pub(crate) fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}
