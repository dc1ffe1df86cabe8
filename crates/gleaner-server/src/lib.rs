/*!
`gleaner serve`: a self-hosted extraction server (axum on tokio).

Routes ([`routes`]): gleaner's own API — `POST /v1/extract`, `POST
/v1/batch` (NDJSON in and out, streamed in input order), `POST
/v1/templates`, `GET /v1/algorithms`, `POST /v1/inspect`, `GET /healthz`,
`GET /metrics`, `GET /openapi.json` — the shims that answer in the shapes
other readers' clients expect ([`shims`]: Firecrawl's `POST /v1/scrape`
and `/v2/scrape`, Jina Reader's `GET /{url}`), and `GET /`, a page to
try extraction and see what was kept ([`page`]).

Every page goes through gleaner-batch's [`Job`](gleaner_batch::Job) on
tokio's blocking pool, bounded by the page's time budget. URLs are
fetched only with [`Config::allow_fetch`], through gleaner-crawl's
fetcher and its address policy ([`fetch`]). The limits — body size,
concurrency (`503`), per-client rate (`429`), slow clients, request time,
bearer token — are in [`guard`] and [`server`]; [`mcp`] is the same
extraction as a Model Context Protocol server over stdio.
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod config;
pub mod css;
pub mod error;
pub mod extract;
pub mod fetch;
pub mod guard;
pub mod mcp;
pub mod metrics;
pub mod page;
pub mod routes;
pub mod server;
pub mod shims;
pub mod templates;

use std::sync::Arc;

pub use crate::config::Config;
pub use crate::error::ApiError;
pub use crate::server::{serve, Server};

/// What every handler shares.
#[derive(Debug)]
pub struct State {
    /// The settings.
    pub config: Config,
    /// The fetcher (off without `--allow-fetch`).
    pub fetcher: fetch::Fetcher,
    /// Learned templates.
    pub templates: templates::TemplateStore,
    /// The counters of `GET /metrics`.
    pub metrics: metrics::Metrics,
    /// Requests handled at once.
    pub permits: Arc<tokio::sync::Semaphore>,
    /// Per-client token buckets.
    pub rates: guard::RateLimiter,
    /// Pages extracted at once ([`Config::extract_threads`]).
    pub workers: Arc<tokio::sync::Semaphore>,
}

impl State {
    /// The state `config` makes.
    ///
    /// # Errors
    /// The fetcher's HTTP client cannot be set up.
    pub fn new(config: Config) -> Result<Arc<State>, gleaner_crawl::CrawlError> {
        let fetcher = fetch::Fetcher::new(&config)?;
        let templates =
            templates::TemplateStore::new(config.template_capacity, config.template_dir.clone());
        let permits = Arc::new(tokio::sync::Semaphore::new(config.max_concurrency.max(1)));
        let rates = guard::RateLimiter::new(config.rate_limit, config.rate_burst);
        let workers = Arc::new(tokio::sync::Semaphore::new(config.extract_threads.max(1)));
        Ok(Arc::new(State {
            config,
            fetcher,
            templates,
            metrics: metrics::Metrics::default(),
            permits,
            rates,
            workers,
        }))
    }
}
