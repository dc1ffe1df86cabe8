//! Pages given as URLs: where they come from (the web, a folder served as
//! a site, a WARC archive) and how `extract` learns their template from
//! the pages they link to (`--site-training`).

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use gleaner_batch::{Job, Record, SiteTraining};
use gleaner_crawl::training::{links_training, menu_training};
use gleaner_crawl::{DirSource, HttpOptions, HttpSource, PageSource, Url, WarcSource};

use crate::flags::{FetchArgs, NetworkArgs, SiteTraining as Mode};
use crate::UsageError;

/// Is this input a URL rather than a file?
pub fn is_url(input: &Path) -> bool {
    input.to_str().is_some_and(|s| s.starts_with("http://") || s.starts_with("https://"))
}

/// The URL of an input; with an offline folder a bare path is read under
/// `http://localhost/`.
pub fn parse_url(input: &str, source: Option<&Path>) -> Result<Url, UsageError> {
    if input.len() > gleaner_crawl::DEFAULT_MAX_URL_LEN {
        let head: String = input.chars().take(60).collect();
        return Err(UsageError(format!(
            "{head}…: URL too long: {} bytes, more than {}",
            input.len(),
            gleaner_crawl::DEFAULT_MAX_URL_LEN
        )));
    }
    match Url::parse(input) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(url),
        Ok(url) => Err(UsageError(format!("{input}: not an http(s) URL ({})", url.scheme()))),
        Err(_) if source.is_some_and(Path::is_dir) => Url::parse("http://localhost/")
            .and_then(|base| base.join(input))
            .map_err(|e| UsageError(format!("{input}: {e}"))),
        Err(e) => Err(UsageError(format!("{input}: {e}"))),
    }
}

/// The page source `--source` names, or the web.
///
/// # Errors
/// A `--source` that is neither a folder nor a readable WARC file, or an
/// HTTP client that cannot start.
pub fn page_source(
    fetch: &FetchArgs,
    start: &Url,
    max_bytes: u64,
) -> anyhow::Result<Box<dyn PageSource + Sync>> {
    let max_time = (fetch.max_time_secs > 0).then(|| Duration::from_secs(fetch.max_time_secs));
    let http = http_options(&fetch.network, &fetch.user_agent, fetch.timeout_secs)?
        .max_bytes(max_bytes)
        .delay(Duration::from_millis(fetch.delay_ms))
        .max_time(max_time);
    source_at(fetch.source.as_deref(), start, http, max_bytes)
}

/// The HTTP options every fetching command shares: the user agent, the
/// timeout, the address policy and the longest `Retry-After` waited for.
///
/// # Errors
/// An `--allow-private-origin` that is not a URL.
pub fn http_options(
    network: &NetworkArgs,
    user_agent: &str,
    timeout_secs: u64,
) -> Result<HttpOptions, UsageError> {
    Ok(HttpOptions::default()
        .user_agent(user_agent)
        .timeout(Duration::from_secs(timeout_secs.max(1)))
        .address_policy(network.policy()?)
        .max_retry_after(Duration::from_secs(network.max_retry_after_secs)))
}

/// The folder or WARC file at `path`, or the web with `http` when there
/// is none (shared by `extract`, `template extract` and `crawl`).
///
/// # Errors
/// A path that is neither a folder nor a readable WARC file, or an HTTP
/// client that cannot start.
pub fn source_at(
    path: Option<&Path>,
    start: &Url,
    http: HttpOptions,
    max_bytes: u64,
) -> anyhow::Result<Box<dyn PageSource + Sync>> {
    let Some(path) = path else {
        return Ok(Box::new(HttpSource::new(http)?));
    };
    if path.is_dir() {
        let mut root = start.clone();
        root.set_path("/");
        root.set_query(None);
        return Ok(Box::new(DirSource::new(path, &root).max_bytes(max_bytes)));
    }
    if path.is_file() {
        let archive = WarcSource::open(path)
            .with_context(|| format!("{}", path.display()))?
            .max_bytes(max_bytes);
        return Ok(Box::new(archive));
    }
    Err(UsageError(format!("--source {}: no such folder or file", path.display())).into())
}

/// What `extract` needs to turn a URL into a record: the engine's
/// fetcher ([`gleaner_batch::Fetch`]), called on its workers, so that
/// the pages of a list are fetched concurrently (each host still waits
/// its delay: the source keeps one slot per host).
pub struct UrlFetch {
    /// Where pages come from: the web (through the address policy, after
    /// DNS and every redirect), a folder or an archive.
    pub source: Box<dyn PageSource + Sync>,
    /// How to learn the page's template, if at all.
    pub training: Option<Mode>,
    /// Links fetched at most (`links`).
    pub max_links: usize,
    /// The subdigraph size (`menu`).
    pub menu_pages: usize,
    /// How templates are clustered (`links`).
    pub site: gleaner::template::SiteOptions,
}

impl gleaner_batch::Fetch for UrlFetch {
    fn record(&self, job: &Job, url: &str) -> Record {
        match Url::parse(url) {
            Ok(url) => self.fetched(job, &url),
            Err(e) => job.failed_record(url, &e.to_string()),
        }
    }
}

impl UrlFetch {
    /// The record of the page at `url`, fetched from the source. Failures
    /// (the page cannot be fetched or parsed) are the record's error.
    fn fetched(&self, job: &Job, url: &Url) -> Record {
        let name = url.as_str();
        let source = &*self.source;
        match self.training {
            None => match gleaner_crawl::training::fetch_page(source, url, job.parse()) {
                Ok(key) => job.record_for_document(name, &key.doc, None, None),
                Err(e) => job.failed_record(name, &e.to_string()),
            },
            Some(Mode::Links) => {
                match links_training(url, source, self.max_links, &self.site, job.parse()) {
                    Ok(t) => {
                        let marks = t.model.as_ref().map(|m| m.mark(&t.key.doc));
                        let training = SiteTraining {
                            mode: "links".into(),
                            pages_fetched: t.pages_fetched,
                            cluster_size: Some(t.cluster_size),
                            subdigraph: None,
                            template_applied: marks.is_some(),
                        };
                        job.record_for_document(name, &t.key.doc, marks.as_deref(), Some(training))
                    }
                    Err(e) => job.failed_record(name, &e.to_string()),
                }
            }
            Some(Mode::Menu) => {
                let menu = gleaner::template::menu::MenuConfig::default().n(self.menu_pages.max(1));
                let etdm = gleaner::template::etdm::EtdmConfig::default();
                match menu_training(url, source, &menu, &etdm, job.parse()) {
                    Ok(t) => {
                        let applied = !t.subdigraph.is_empty();
                        let training = SiteTraining {
                            mode: "menu".into(),
                            pages_fetched: t.pages_loaded,
                            cluster_size: None,
                            subdigraph: Some(t.subdigraph.clone()),
                            template_applied: applied,
                        };
                        let aside = applied.then_some(t.template.as_slice());
                        job.record_for_document(name, &t.key.doc, aside, Some(training))
                    }
                    Err(e) => job.failed_record(name, &e.to_string()),
                }
            }
        }
    }
}
