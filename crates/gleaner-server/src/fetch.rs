//! Fetching the URLs requests name: through gleaner-crawl's
//! [`HttpSource`] (robots, byte and time caps, user agent, its address
//! policy checked after DNS and on every redirect hop), behind
//! `--allow-fetch` and the `--allow-host` list.

use std::time::Instant;

use axum::http::StatusCode;
use gleaner_crawl::{AddressPolicy, CrawlError, Fetched, HttpOptions, HttpSource, PageSource, Url};

use crate::config::Config;
use crate::error::ApiError;

/// The server's fetcher; `None` inside when fetching is off.
pub struct Fetcher {
    source: Option<HttpSource>,
    allow_hosts: Vec<String>,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("enabled", &self.source.is_some())
            .field("allow_hosts", &self.allow_hosts)
            .finish()
    }
}

impl Fetcher {
    /// The fetcher `config` asks for.
    ///
    /// # Errors
    /// The HTTP client cannot be set up.
    pub fn new(config: &Config) -> Result<Fetcher, CrawlError> {
        let source = if config.allow_fetch {
            let mut policy = AddressPolicy::default().allow_private(config.allow_private_addresses);
            for origin in &config.allow_private_origins {
                policy = policy.allow_private_origin(origin);
            }
            let options = HttpOptions::default()
                .user_agent(config.user_agent.clone())
                .timeout(config.fetch_timeout)
                .max_bytes(config.max_page_bytes as u64)
                .delay(config.fetch_delay)
                .obey_robots(config.obey_robots)
                .address_policy(policy);
            Some(HttpSource::new(options)?)
        } else {
            None
        };
        let allow_hosts = config
            .allow_hosts
            .iter()
            .map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect();
        Ok(Fetcher { source, allow_hosts })
    }

    /// Whether URLs may be fetched at all.
    pub fn enabled(&self) -> bool {
        self.source.is_some()
    }

    /// `text` as a URL this server may fetch: fetching on, http(s), a
    /// host on the allow-list.
    ///
    /// # Errors
    /// [`ApiError::FetchDisabled`], [`ApiError::BadRequest`] for a URL
    /// that is not one, [`ApiError::Forbidden`] for a host off the list.
    pub fn check(&self, text: &str) -> Result<Url, ApiError> {
        if !self.enabled() {
            return Err(ApiError::FetchDisabled);
        }
        if text.len() > gleaner_crawl::DEFAULT_MAX_URL_LEN {
            return Err(ApiError::BadRequest(format!(
                "URL too long: {} bytes, more than {}",
                text.len(),
                gleaner_crawl::DEFAULT_MAX_URL_LEN
            )));
        }
        let url = Url::parse(text.trim())
            .map_err(|e| ApiError::BadRequest(format!("url {text:?}: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") || !url.has_host() {
            return Err(ApiError::BadRequest(format!("url {text:?}: not an http(s) URL")));
        }
        self.check_host(&url)?;
        Ok(url)
    }

    fn check_host(&self, url: &Url) -> Result<(), ApiError> {
        if self.allow_hosts.is_empty() {
            return Ok(());
        }
        let host = url.host_str().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
        let allowed = self.allow_hosts.iter().any(|a| {
            host == *a
                || (host.len() > a.len() && host.ends_with(a.as_str()) && {
                    host.as_bytes()[host.len() - a.len() - 1] == b'.'
                })
        });
        if allowed {
            Ok(())
        } else {
            Err(ApiError::Forbidden(format!(
                "host {host} is not on this server's --allow-host list"
            )))
        }
    }

    /// Fetches `url` (blocking: call it off the async runtime), by
    /// `deadline` at the latest; the final URL after redirects is checked
    /// against the allow-list too.
    ///
    /// # Errors
    /// The fetch failed, as an [`ApiError::Fetch`] with the status that
    /// says why, or [`ApiError::Forbidden`] for a refused address.
    pub fn fetch(&self, url: &Url, deadline: Option<Instant>) -> Result<Fetched, ApiError> {
        let Some(source) = &self.source else { return Err(ApiError::FetchDisabled) };
        let fetched = source.fetch_within(url, deadline).map_err(fetch_error)?;
        for hop in &fetched.redirects {
            self.check_host(&hop.to)?;
        }
        self.check_host(&fetched.url)?;
        Ok(fetched)
    }
}

/// The HTTP status a failed fetch answers with.
fn fetch_error(e: CrawlError) -> ApiError {
    let status = match &e {
        CrawlError::Address(_) | CrawlError::RobotsDisallowed | CrawlError::OffSite(_) => {
            return ApiError::Forbidden(format!("cannot fetch: {e}"));
        }
        CrawlError::Timeout(_) | CrawlError::OutOfTime => StatusCode::GATEWAY_TIMEOUT,
        CrawlError::NotHtml(_)
        | CrawlError::UnsupportedScheme(_)
        | CrawlError::UrlTooLong { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::BAD_GATEWAY,
    };
    ApiError::Fetch { status, message: format!("cannot fetch: {e}") }
}

impl Drop for Fetcher {
    /// The HTTP source owns a tokio runtime, which may not be dropped on
    /// an async runtime's thread: it goes on a thread of its own.
    fn drop(&mut self) {
        if let Some(source) = self.source.take() {
            let _ = std::thread::Builder::new()
                .name("gleaner-fetcher-drop".into())
                .spawn(move || drop(source));
        }
    }
}
