/*!
Real page layout for gleaner: each element's border box, computed font
size, background colour and visibility, measured by the system's headless
Chromium over the DevTools protocol, offline.

# Brief overview
[`BrowserLayout`] is a [`LayoutProvider`]: give it a parsed
[`Document`] (parsed with
[`keep_all_attributes`](gleaner::ParseOptions::keep_all_attributes), so
`style`, `width`, `bgcolor` and the rest reach the browser) and it returns
a [`Layout`] with a box for every element the browser rendered.

How a page is laid out:
1. The document is serialized back to HTML with a `data-gleaner-id`
   attribute on every element ([`gleaner::render::html_with_node_ids`]).
2. A browser tab navigates to the page's URL (a placeholder when the page
   has none), and the DevTools Fetch domain answers that document request
   with the serialized HTML. Every other request the page makes is failed,
   or answered from the caller's in-memory [`Resource`]s (a site's CSS, for
   instance): nothing is fetched from the network. Scripts are off unless
   [`BrowserConfig::scripts`] is set.
3. After the load event one `DOMSnapshot.captureSnapshot` call returns
   every layout object's box and computed styles, and the
   `data-gleaner-id` on each maps it back to its gleaner node.

One browser serves a whole batch; [`BrowserConfig::pool_size`] browsers
serve parallel callers. A browser that crashes, hangs past the page's time
limit or drops its connection is killed and replaced on the next page.
Dropping the provider closes its browsers, kills any that do not exit, and
removes their temporary profiles.

# Why not chromiumoxide
chromiumoxide (0.9) is async and would need a tokio runtime inside this
blocking provider, and it drives the page itself (its handler enables
domains and tracks frames on every page). Its typed bindings for the
whole protocol, tokio and an HTTP stack took 2 min 49 s for a cold
single-job debug build here (1 min 52 s CPU), for the handful of commands
and the one event loop this crate needs. The client here is a few hundred
lines over tungstenite's blocking WebSocket (its cold build: 43 s CPU)
and leaves every timeout and process in our hands. It was chosen for
that, not because chromiumoxide failed with Chromium 156 (not tried).

# Example
```no_run
use gleaner::layout::LayoutProvider;
use gleaner::{Document, ParseOptions};
use gleaner_browser::{BrowserConfig, BrowserLayout};

let provider = BrowserLayout::new(BrowserConfig::default())?;
let options = ParseOptions::default().keep_all_attributes(true);
let doc = Document::parse(b"<h1>Title</h1><p>Text</p>", &options)?;
let layout = provider.layout(&doc)?;
let doc = doc.with_layout(layout);
assert!(doc.layout().is_some());
# Ok::<(), gleaner::Error>(())
```
*/

#![deny(missing_docs)]

mod cdp;
mod snapshot;

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use gleaner::layout::{Layout, LayoutOrigin, LayoutProvider};
use gleaner::{Document, Error, Result};

use crate::cdp::{Chromium, Failure, Settings};

/// The environment variable naming the Chromium binary to use.
pub const CHROMIUM_ENV: &str = "GLEANER_CHROMIUM";

/// Binaries looked for on `PATH` when [`CHROMIUM_ENV`] is not set (after
/// `/usr/bin/chromium`, the Debian package's).
pub const CHROMIUM_NAMES: &[&str] = &["chromium", "chromium-browser", "google-chrome"];

/// The URL a page without one (or with one the browser cannot load, such
/// as a file path) is loaded at. `.invalid` never resolves (RFC 2606).
pub const PLACEHOLDER_URL: &str = "https://gleaner.invalid/page.html";

/// A response the page may receive for one URL instead of a blocked
/// request: a stylesheet of the site, an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The `Content-Type` header, e.g. `text/css`.
    pub content_type: String,
    /// The body.
    pub body: Vec<u8>,
}

/// How [`BrowserLayout`] runs the browser.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BrowserConfig {
    /// The Chromium binary. Default: [`CHROMIUM_ENV`] if set, else
    /// `/usr/bin/chromium`, else the first of [`CHROMIUM_NAMES`] on `PATH`.
    pub binary: Option<PathBuf>,
    /// Viewport width in CSS pixels. Default 1280.
    pub viewport_width: u32,
    /// Viewport height in CSS pixels. Default 800.
    pub viewport_height: u32,
    /// Run the page's inline scripts. Default false. External scripts are
    /// never fetched either way (unless given as [`Resource`]s).
    pub scripts: bool,
    /// Time one page may take, from navigation to snapshot. Default 20 s.
    pub timeout: Duration,
    /// Time a browser may take to start. Default 30 s.
    pub start_timeout: Duration,
    /// Browsers run at once for parallel callers (each with one tab).
    /// Default 1; at least 1.
    pub pool_size: usize,
    /// Responses by exact URL for requests the page makes; every other
    /// request fails. Default none.
    pub resources: HashMap<String, Resource>,
}

impl Default for BrowserConfig {
    fn default() -> BrowserConfig {
        BrowserConfig {
            binary: None,
            viewport_width: 1280,
            viewport_height: 800,
            scripts: false,
            timeout: Duration::from_secs(20),
            start_timeout: Duration::from_secs(30),
            pool_size: 1,
            resources: HashMap::new(),
        }
    }
}

impl BrowserConfig {
    /// Sets [`BrowserConfig::binary`].
    pub fn binary(mut self, path: impl Into<PathBuf>) -> BrowserConfig {
        self.binary = Some(path.into());
        self
    }

    /// Sets [`BrowserConfig::viewport_width`] and
    /// [`BrowserConfig::viewport_height`].
    pub fn viewport(mut self, width: u32, height: u32) -> BrowserConfig {
        self.viewport_width = width;
        self.viewport_height = height;
        self
    }

    /// Sets [`BrowserConfig::scripts`].
    pub fn scripts(mut self, yes: bool) -> BrowserConfig {
        self.scripts = yes;
        self
    }

    /// Sets [`BrowserConfig::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> BrowserConfig {
        self.timeout = timeout;
        self
    }

    /// Sets [`BrowserConfig::pool_size`].
    pub fn pool_size(mut self, browsers: usize) -> BrowserConfig {
        self.pool_size = browsers;
        self
    }

    /// Adds a [`Resource`] answering requests for `url`.
    pub fn resource(mut self, url: impl Into<String>, resource: Resource) -> BrowserConfig {
        self.resources.insert(url.into(), resource);
        self
    }

    /// Checks the values.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for a zero viewport, time limit or pool.
    pub fn validate(&self) -> Result<()> {
        if self.viewport_width == 0 || self.viewport_height == 0 {
            return Err(Error::InvalidConfig("the viewport must not be empty".into()));
        }
        if self.timeout.is_zero() || self.start_timeout.is_zero() {
            return Err(Error::InvalidConfig("browser time limits must be positive".into()));
        }
        if self.pool_size == 0 {
            return Err(Error::InvalidConfig("the browser pool needs at least one".into()));
        }
        Ok(())
    }
}

/// Layout by headless Chromium. See the [crate docs](crate).
pub struct BrowserLayout {
    settings: Settings,
    timeout: Duration,
    pool: Pool,
}

impl std::fmt::Debug for BrowserLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserLayout")
            .field("binary", &self.settings.binary)
            .field("pool_size", &self.pool.size)
            .finish_non_exhaustive()
    }
}

impl BrowserLayout {
    /// A provider with this configuration. Browsers start on first use.
    ///
    /// # Errors
    /// [`Error::Layout`] naming the binary when Chromium cannot be found,
    /// [`Error::InvalidConfig`] from [`BrowserConfig::validate`].
    pub fn new(config: BrowserConfig) -> Result<BrowserLayout> {
        config.validate()?;
        let binary = match config.binary {
            Some(path) => existing(path, "the configured Chromium")?,
            None => find_chromium(std::env::var_os(CHROMIUM_ENV))?,
        };
        Ok(BrowserLayout {
            settings: Settings {
                binary,
                viewport: (config.viewport_width, config.viewport_height),
                scripts: config.scripts,
                start_timeout: config.start_timeout,
                resources: Arc::new(config.resources),
            },
            timeout: config.timeout,
            pool: Pool {
                state: Mutex::new(PoolState { idle: Vec::new(), live: 0 }),
                freed: Condvar::new(),
                size: config.pool_size,
            },
        })
    }

    /// The Chromium binary in use.
    pub fn binary(&self) -> &Path {
        &self.settings.binary
    }

    /// Process ids of the browsers running now (each also has helper
    /// processes of its own), for monitoring memory.
    pub fn browser_pids(&self) -> Vec<u32> {
        self.pool.lock().idle.iter().map(Chromium::pid).collect()
    }
}

impl LayoutProvider for BrowserLayout {
    /// # Errors
    /// [`Error::Layout`] when a browser cannot start, the page takes longer
    /// than [`BrowserConfig::timeout`], or the browser fails twice in a
    /// row on it (it is restarted after the first failure).
    fn layout(&self, doc: &Document) -> Result<Layout> {
        let html = gleaner::render::html_with_node_ids(doc);
        let url = page_url(doc.url());
        let mut last = String::new();
        for _attempt in 0..2 {
            let mut browser = self.pool.acquire(&self.settings)?;
            let deadline = Instant::now() + self.timeout;
            match browser.snapshot(&html, &url, deadline) {
                Ok(snapshot) => {
                    self.pool.release(browser);
                    return snapshot::layout(doc, &snapshot, self.settings.viewport.0 as f32);
                }
                Err(Failure::Page(message)) => {
                    self.pool.release(browser);
                    return Err(Error::Layout(message));
                }
                Err(Failure::Timeout(message)) => {
                    self.pool.discard(browser);
                    let secs = self.timeout.as_secs_f64();
                    return Err(Error::Layout(format!("{message} (limit {secs} s)")));
                }
                Err(Failure::Dead(message)) => {
                    self.pool.discard(browser);
                    last = message;
                }
            }
        }
        Err(Error::Layout(format!("the browser failed twice on this page: {last}")))
    }

    fn origin(&self) -> LayoutOrigin {
        LayoutOrigin::Browser
    }
}

/// The URL to load `url`'s page at: itself without the fragment when it
/// is http(s), else [`PLACEHOLDER_URL`].
fn page_url(url: Option<&str>) -> String {
    url.and_then(|u| url::Url::parse(u).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map_or_else(
            || PLACEHOLDER_URL.to_owned(),
            |mut u| {
                u.set_fragment(None);
                u.into()
            },
        )
}

/// The Chromium binary: `env` (the value of [`CHROMIUM_ENV`]) if given,
/// else `/usr/bin/chromium`, else the first of [`CHROMIUM_NAMES`] on
/// `PATH`.
///
/// # Errors
/// [`Error::Layout`] naming what was looked for.
pub fn find_chromium(env: Option<OsString>) -> Result<PathBuf> {
    if let Some(path) = env.filter(|p| !p.is_empty()) {
        return existing(PathBuf::from(path), CHROMIUM_ENV);
    }
    let debian = Path::new("/usr/bin/chromium");
    if debian.is_file() {
        return Ok(debian.to_path_buf());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in CHROMIUM_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(Error::Layout(format!(
        "Chromium not found: {CHROMIUM_ENV} is not set, /usr/bin/chromium does not exist and \
         none of {} is on PATH (install the `chromium` package or set {CHROMIUM_ENV})",
        CHROMIUM_NAMES.join(", ")
    )))
}

fn existing(path: PathBuf, what: &str) -> Result<PathBuf> {
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::Layout(format!("Chromium not found: {what} {} does not exist", path.display())))
    }
}

/// Up to `size` browsers, started on demand, each used by one caller at a
/// time.
struct Pool {
    state: Mutex<PoolState>,
    freed: Condvar,
    size: usize,
}

struct PoolState {
    /// Browsers waiting for a page.
    idle: Vec<Chromium>,
    /// Browsers started and not yet discarded (idle or in use).
    live: usize,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An idle browser, a new one if fewer than `size` run, else the next
    /// one released.
    fn acquire(&self, settings: &Settings) -> Result<Chromium> {
        let mut state = self.lock();
        loop {
            if let Some(browser) = state.idle.pop() {
                return Ok(browser);
            }
            if state.live < self.size {
                state.live += 1;
                drop(state);
                return Chromium::launch(settings).map_err(|failure| {
                    self.lock().live -= 1;
                    self.freed.notify_one();
                    let (Failure::Dead(m) | Failure::Timeout(m) | Failure::Page(m)) = failure;
                    Error::Layout(format!("{}: {m}", settings.binary.display()))
                });
            }
            state = self.freed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn release(&self, browser: Chromium) {
        self.lock().idle.push(browser);
        self.freed.notify_one();
    }

    /// Stops a browser that failed; its place is free for a new one.
    fn discard(&self, browser: Chromium) {
        drop(browser);
        self.lock().live -= 1;
        self.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_binary_is_a_clear_error() {
        let err = find_chromium(Some("/nonexistent/chromium".into())).expect_err("missing");
        let text = err.to_string();
        assert!(text.contains("/nonexistent/chromium") && text.contains(CHROMIUM_ENV), "{text}");
        let err = BrowserLayout::new(BrowserConfig::default().binary("/nonexistent"))
            .expect_err("missing");
        assert!(matches!(err, Error::Layout(m) if m.contains("/nonexistent")));
    }

    #[test]
    fn page_urls() {
        assert_eq!(page_url(Some("http://127.0.0.1:8/a/b.html#x")), "http://127.0.0.1:8/a/b.html");
        assert_eq!(page_url(Some("/tmp/page.html")), PLACEHOLDER_URL);
        assert_eq!(page_url(Some("file:///tmp/page.html")), PLACEHOLDER_URL);
        assert_eq!(page_url(None), PLACEHOLDER_URL);
    }

    #[test]
    fn invalid_configs() {
        assert!(BrowserConfig::default().pool_size(0).validate().is_err());
        assert!(BrowserConfig::default().viewport(0, 10).validate().is_err());
        assert!(BrowserConfig::default().timeout(Duration::ZERO).validate().is_err());
        assert!(BrowserConfig::default().validate().is_ok());
    }
}
