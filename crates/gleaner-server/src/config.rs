//! What a server is started with: `gleaner serve`'s flags.

use std::path::PathBuf;
use std::time::Duration;

/// The server's settings. [`Config::default`] is `gleaner serve` without
/// flags: no fetching, no token, the limits below.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// Whether requests may name a URL to fetch (`--allow-fetch`).
    pub allow_fetch: bool,
    /// Hosts URLs may name (`--allow-host`): a name admits itself and its
    /// subdomains; empty admits every host.
    pub allow_hosts: Vec<String>,
    /// Whether fetches may reach loopback, private and link-local
    /// addresses (`--allow-private-addresses`); cloud metadata addresses
    /// never.
    pub allow_private_addresses: bool,
    /// Origins (scheme, host, port) for which private addresses are
    /// admitted, all others' stay refused (`--allow-private-origin`).
    pub allow_private_origins: Vec<gleaner_crawl::Url>,
    /// Whether fetches obey `robots.txt` (not with `--ignore-robots`).
    pub obey_robots: bool,
    /// The fetcher's `User-Agent`.
    pub user_agent: String,
    /// Longest time one fetch may take, redirects included.
    pub fetch_timeout: Duration,
    /// Least time between two fetches from one origin.
    pub fetch_delay: Duration,
    /// The bearer token every request but `GET /healthz` and `GET /`
    /// must carry (`--token` or `GLEANER_TOKEN`).
    pub token: Option<String>,
    /// Largest request body, in bytes (and largest line of a batch).
    pub max_body_bytes: usize,
    /// Largest page fetched or given, in bytes.
    pub max_page_bytes: usize,
    /// Most time one page may take from parse to extraction; past it the
    /// record says it was cut off. A request may ask for less.
    pub time_budget: Duration,
    /// Requests handled at once; more get `503` with `Retry-After`.
    pub max_concurrency: usize,
    /// Requests per second one client address may make (a token bucket
    /// holding [`Config::rate_burst`]); `None`: no limit.
    pub rate_limit: Option<f64>,
    /// The bucket's size: requests a client may make at once.
    pub rate_burst: u32,
    /// Longest time a client may take to send a request's headers, and
    /// between two pieces of its body (slow clients are cut off).
    pub read_timeout: Duration,
    /// Longest time one request may take in all (`408` past it); batches
    /// stream and are bounded per page instead.
    pub request_timeout: Duration,
    /// How long a shutdown waits for requests under way.
    pub shutdown_grace: Duration,
    /// Templates held in memory (least recently used dropped first).
    pub template_capacity: usize,
    /// Where learned templates are also written, and looked up when not
    /// in memory.
    pub template_dir: Option<PathBuf>,
    /// Pages extracted at once within one batch request.
    pub batch_parallelism: usize,
    /// Pages extracted at once in all (default: one per core); requests
    /// beyond wait their turn (fetches are not counted).
    pub extract_threads: usize,
    /// Most pages `POST /v1/templates` learns from.
    pub max_template_pages: usize,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            allow_fetch: false,
            allow_hosts: Vec::new(),
            allow_private_addresses: false,
            allow_private_origins: Vec::new(),
            obey_robots: true,
            user_agent: gleaner_crawl::DEFAULT_USER_AGENT.to_string(),
            fetch_timeout: Duration::from_secs(30),
            fetch_delay: Duration::from_millis(500),
            token: None,
            max_body_bytes: 16 << 20,
            max_page_bytes: gleaner::ParseOptions::default().max_bytes,
            time_budget: Duration::from_secs(10),
            max_concurrency: (cores * 16).max(16),
            rate_limit: None,
            rate_burst: 20,
            read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(30),
            template_capacity: 256,
            template_dir: None,
            batch_parallelism: cores,
            extract_threads: cores,
            max_template_pages: 200,
        }
    }
}
