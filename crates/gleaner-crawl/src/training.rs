//! A page's own template from the pages it links to — the two
//! single-key-page methods of the template papers:
//!
//! - [`links_training`]: Gottron 2008 (S-0 §3): fetch the pages the
//!   key page links to, cluster them by structure (CP), and learn the
//!   DF model of the key page's cluster;
//! - [`menu_training`]: Alarte, Insa, Silva & Tamarit (S-1): load
//!   linked pages only until the menu's complete subdigraph is found
//!   (Algorithm 1), then map the key page into each of them by equal
//!   top-down mapping (Algorithm 2): the nodes mapped into all of them
//!   are the template.
//!
//! Both fetch through any [`PageSource`], so they run on the web, on a
//! folder served as a site, or on a WARC archive of an earlier crawl.
//! They follow links on the key page's origin only (scheme, host and
//! port: another port is another server).
//!
//! Fetching and extracting have separate budgets (issue 31): the key
//! page's time budget (`ParseOptions::time_budget`) covers its parse and
//! its extraction, not the time spent fetching the training pages, so a
//! key page is never lost because its site is slow or asks for a long
//! `Crawl-delay`. A source out of time ([`CrawlError::OutOfTime`]) ends
//! the training with the pages fetched so far.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use gleaner::template::etdm::{menu_template, EtdmConfig};
use gleaner::template::menu::{complete_subdigraph, links, MenuConfig};
use gleaner::template::{PageSummary, SiteOptions, SiteTemplates, TemplateModel};
use gleaner::Document;

use crate::urls::same_origin;
use crate::{CrawlError, Fetched, PageSource, Url};

/// How many of the key page's links [`links_training`] fetches at most.
/// Default 30 \[I: cap the training set,
/// `docs/algorithms.md#structural-distances-and-clustering`\].
pub const DEFAULT_MAX_LINKS: usize = 30;

/// The key page, parsed, with what was fetched for it.
#[derive(Debug)]
pub struct KeyPage {
    /// The key page as fetched.
    pub fetched: Fetched,
    /// The key page parsed (every attribute kept, for ETDM).
    pub doc: Document,
}

/// The outcome of [`links_training`].
#[derive(Debug)]
pub struct LinksTraining {
    /// The key page.
    pub key: KeyPage,
    /// Linked pages fetched and parsed.
    pub pages_fetched: usize,
    /// Pages in the key page's structural cluster, itself included.
    pub cluster_size: usize,
    /// The template model of that cluster, when it is large enough.
    pub model: Option<TemplateModel>,
}

/// The outcome of [`menu_training`].
#[derive(Debug)]
pub struct MenuTraining {
    /// The key page.
    pub key: KeyPage,
    /// The pages of the menu's complete subdigraph (or the best smaller
    /// one).
    pub subdigraph: Vec<String>,
    /// Pages loaded to find it.
    pub pages_loaded: usize,
    /// Whether a subdigraph of the full size was found.
    pub complete: bool,
    /// The template: a mask over the key page's nodes (elements and
    /// text), empty of meaning when `subdigraph` is empty.
    pub template: Vec<bool>,
}

/// Fetches and parses a page with `parse`'s limits (every attribute
/// kept, the charset of the HTTP header first; the source bounds the
/// bytes).
///
/// # Errors
/// The page cannot be fetched, or is not HTML.
pub fn fetch_page(
    source: &dyn PageSource,
    url: &Url,
    parse: &gleaner::ParseOptions,
) -> Result<KeyPage, CrawlError> {
    parse_page(source.fetch(url)?, parse)
}

/// Parses a fetched page as [`fetch_page`] does.
fn parse_page(fetched: Fetched, parse: &gleaner::ParseOptions) -> Result<KeyPage, CrawlError> {
    let options = fetched
        .parse_options(parse)
        .max_bytes(fetched.body.len().clamp(1, gleaner::document::MAX_SUPPORTED_BYTES))
        .keep_all_attributes(true);
    let doc =
        Document::parse(&fetched.body, &options).map_err(|e| CrawlError::NotHtml(e.to_string()))?;
    Ok(KeyPage { fetched, doc })
}

/// Fetches and parses the key page, and says how long the parse took.
fn fetch_key(
    source: &dyn PageSource,
    url: &Url,
    parse: &gleaner::ParseOptions,
) -> Result<(KeyPage, Duration), CrawlError> {
    let fetched = source.fetch(url)?;
    let began = Instant::now();
    let key = parse_page(fetched, parse)?;
    Ok((key, began.elapsed()))
}

/// The key page with the rest of its time budget started afresh: what
/// its parse left of `parse.time_budget` is its extraction's, however
/// long the training pages took to fetch.
fn rearm(key: KeyPage, parse: &gleaner::ParseOptions, parse_time: Duration) -> KeyPage {
    let rest = parse.time_budget.map(|b| b.saturating_sub(parse_time));
    let doc = key.doc.with_deadline(gleaner::document::Deadline::starting_now(rest));
    KeyPage { fetched: key.fetched, doc }
}

/// The key page's links ([`links`]) on its own origin.
fn origin_links(doc: &Document, page: &Url) -> Vec<String> {
    links(doc, page.as_str())
        .into_iter()
        .filter(|l| Url::parse(l).is_ok_and(|u| same_origin(&u, page)))
        .collect()
}

/// Gottron's training set: the key page's links on its origin (at most
/// `max_links`, in document order) are fetched, the pages clustered with
/// `site` options (CP by default), and the key page's cluster learned as
/// a [`TemplateModel`] when it has at least `site.min_cluster` pages.
/// Linked pages that fail to load are skipped; once the source is out of
/// time the training ends with the pages it has.
///
/// # Errors
/// The key page itself cannot be fetched or parsed.
pub fn links_training(
    key_url: &Url,
    source: &dyn PageSource,
    max_links: usize,
    site: &SiteOptions,
    parse: &gleaner::ParseOptions,
) -> Result<LinksTraining, CrawlError> {
    let (key, parse_time) = fetch_key(source, key_url, parse)?;
    let targets = origin_links(&key.doc, &key.fetched.url);
    let key_summary = PageSummary::of(&key.doc, site);
    let mut summaries = Vec::new();
    let mut names = vec![key.fetched.url.to_string()];
    let mut pages_fetched = 0;
    for target in targets.iter().take(max_links) {
        let Ok(url) = Url::parse(target) else { continue };
        let page = match fetch_page(source, &url, parse) {
            Ok(page) => page,
            Err(CrawlError::OutOfTime) => break,
            Err(_) => continue,
        };
        pages_fetched += 1;
        let summary = PageSummary::of(&page.doc, site);
        // A copy of the key page would make its content "template".
        if summary.is_mirror_of(&key_summary) {
            continue;
        }
        summaries.push(Some(summary));
        names.push(page.fetched.url.to_string());
    }
    let key = rearm(key, parse, parse_time);
    summaries.insert(0, Some(key_summary));
    let learned = SiteTemplates::learn(&summaries, &names, site);
    let model = learned.model_of(0).map(|m| TemplateModel::clone(m));
    Ok(LinksTraining { key, pages_fetched, cluster_size: learned.cluster_size(0), model })
}

/// Alarte et al.'s template of the key page: Algorithm 1 finds the menu's
/// complete subdigraph among the pages it links to (loading them lazily,
/// `menu` caps the loads), Algorithm 2 maps the key page into each of
/// them (`etdm`).
///
/// # Errors
/// The key page itself cannot be fetched or parsed.
pub fn menu_training(
    key_url: &Url,
    source: &dyn PageSource,
    menu: &MenuConfig,
    etdm: &EtdmConfig,
    parse: &gleaner::ParseOptions,
) -> Result<MenuTraining, CrawlError> {
    let (key, parse_time) = fetch_key(source, key_url, parse)?;
    let key_links = origin_links(&key.doc, &key.fetched.url);
    let mut loaded: HashMap<String, Document> = HashMap::new();
    let mut out_of_time = false;
    let found = complete_subdigraph(&key_links, menu, |link| {
        if out_of_time {
            return None;
        }
        let url = Url::parse(link).ok()?;
        let page = match fetch_page(source, &url, parse) {
            Ok(page) => page,
            Err(CrawlError::OutOfTime) => {
                out_of_time = true;
                return None;
            }
            Err(_) => return None,
        };
        let out = origin_links(&page.doc, &page.fetched.url);
        loaded.insert(link.to_string(), page.doc);
        Some(out)
    });
    let key = rearm(key, parse, parse_time);
    let others: Vec<&Document> = found.pages.iter().filter_map(|p| loaded.get(p)).collect();
    let template = if others.is_empty() {
        vec![false; key.doc.len()]
    } else {
        menu_template(&key.doc, &others, etdm)
    };
    Ok(MenuTraining {
        key,
        subdigraph: found.pages,
        pages_loaded: found.loaded,
        complete: found.complete,
        template,
    })
}
