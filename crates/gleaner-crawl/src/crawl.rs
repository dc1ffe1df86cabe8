//! The breadth-first crawl over any [`PageSource`].

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use url::Url;

use crate::links::page_links;
use crate::urls::{clean_url, same_site, url_key};
use crate::{CrawlError, Fetched, PageSource};

/// Caps and scope of a crawl.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CrawlOptions {
    /// Most pages delivered. Default 100.
    pub max_pages: usize,
    /// Most requests made, failed ones included (robots and off-site
    /// refusals cost none). Default `None`: twice `max_pages` plus 20.
    pub max_attempts: Option<usize>,
    /// The crawl ends this long after it starts: no fetch starts later,
    /// and fetches under way are cut off then (through
    /// [`PageSource::fetch_within`]; their URLs count as unvisited).
    /// Default 10 minutes.
    pub max_time: Duration,
    /// Follow links to any host; by default only the start page's site
    /// (host and port, see [`same_site`]).
    pub all_hosts: bool,
    /// Pages fetched at once (each host still waits its delay). Default 2.
    pub concurrency: usize,
    /// Most distinct URLs remembered (queued, fetched or skipped); links
    /// past it are dropped and counted. Default 100 000.
    pub max_known_urls: usize,
    /// Follow what pages ask crawlers not to: links marked
    /// `rel=nofollow` (`ugc`, `sponsored`) and the links of pages marked
    /// `<meta name=robots content=nofollow>`. Default off.
    pub follow_nofollow: bool,
}

impl Default for CrawlOptions {
    fn default() -> CrawlOptions {
        CrawlOptions {
            max_pages: 100,
            max_attempts: None,
            max_time: Duration::from_secs(600),
            all_hosts: false,
            concurrency: 2,
            max_known_urls: 100_000,
            follow_nofollow: false,
        }
    }
}

impl CrawlOptions {
    /// Sets [`CrawlOptions::max_pages`].
    pub fn max_pages(mut self, n: usize) -> CrawlOptions {
        self.max_pages = n;
        self
    }

    /// Sets [`CrawlOptions::max_attempts`].
    pub fn max_attempts(mut self, n: usize) -> CrawlOptions {
        self.max_attempts = Some(n);
        self
    }

    /// Sets [`CrawlOptions::max_time`].
    pub fn max_time(mut self, t: Duration) -> CrawlOptions {
        self.max_time = t;
        self
    }

    /// Sets [`CrawlOptions::all_hosts`].
    pub fn all_hosts(mut self, yes: bool) -> CrawlOptions {
        self.all_hosts = yes;
        self
    }

    /// Sets [`CrawlOptions::follow_nofollow`].
    pub fn follow_nofollow(mut self, yes: bool) -> CrawlOptions {
        self.follow_nofollow = yes;
        self
    }

    /// Sets [`CrawlOptions::concurrency`] (at least 1).
    pub fn concurrency(mut self, n: usize) -> CrawlOptions {
        self.concurrency = n.max(1);
        self
    }

    fn attempts_cap(&self) -> usize {
        self.max_attempts.unwrap_or_else(|| self.max_pages.saturating_mul(2).saturating_add(20))
    }
}

/// One URL the crawl dealt with: a page, or why there is none.
#[derive(Debug)]
pub struct Visit {
    /// The URL as queued (fragment and tracking parameters removed).
    pub url: Url,
    /// Links followed from the start page to reach it (0 for the start).
    pub depth: usize,
    /// The page, or the typed reason it was skipped.
    pub result: Result<Fetched, CrawlError>,
}

/// Counts of a crawl so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlStats {
    /// Pages delivered.
    pub pages: usize,
    /// Requests made (pages and failures after a request).
    pub attempts: usize,
    /// Skipped URLs by [`CrawlError::reason`].
    pub skipped: BTreeMap<String, usize>,
    /// Links dropped because [`CrawlOptions::max_known_urls`] was reached.
    pub dropped_links: usize,
    /// The cap that ended the crawl before the queue ran dry, if any:
    /// `"max-pages"`, `"max-attempts"` or `"max-time"`.
    pub stopped_by: Option<&'static str>,
    /// URLs still queued when the crawl ended.
    pub unvisited: usize,
}

/// A crawl in progress: an iterator of [`Visit`]s, breadth first.
pub struct Crawl<'s, S: ?Sized> {
    source: &'s S,
    options: CrawlOptions,
    start: Url,
    queue: VecDeque<(Url, usize)>,
    known: HashSet<String>,
    delivered: HashSet<String>,
    ready: VecDeque<Visit>,
    stats: CrawlStats,
    started: Instant,
    /// A source said the time is up (its own limit, or the crawl's).
    out_of_time: bool,
    finished: bool,
}

impl<S: ?Sized> std::fmt::Debug for Crawl<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Crawl")
            .field("start", &self.start)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// Starts a breadth-first crawl at `start` through `source`. Nothing is
/// fetched until the iterator is advanced. Each distinct page (by
/// [`url_key`], after redirects and `<link rel=canonical>`) is delivered
/// once; links come from `<a href>`/`<area href>` through the core parser,
/// and are not followed from pages marked `<meta name=robots
/// content=nofollow>`. Memory stays bounded: at most
/// [`CrawlOptions::concurrency`] bodies are held, and the URL sets are
/// capped.
pub fn crawl<'s, S: PageSource + Sync + ?Sized>(
    start: &Url,
    source: &'s S,
    options: &CrawlOptions,
) -> Crawl<'s, S> {
    let start = clean_url(start);
    let mut crawl = Crawl {
        source,
        options: options.clone(),
        start: start.clone(),
        queue: VecDeque::new(),
        known: HashSet::new(),
        delivered: HashSet::new(),
        ready: VecDeque::new(),
        stats: CrawlStats::default(),
        started: Instant::now(),
        out_of_time: false,
        finished: false,
    };
    crawl.known.insert(url_key(&start));
    crawl.queue.push_back((start, 0));
    crawl
}

impl<S: PageSource + Sync + ?Sized> Crawl<'_, S> {
    /// The counts so far (final once the iterator has ended).
    pub fn stats(&self) -> &CrawlStats {
        &self.stats
    }

    fn in_scope(&self, url: &Url) -> bool {
        self.options.all_hosts || same_site(&self.start, url)
    }

    fn skip(&mut self, url: Url, depth: usize, error: CrawlError) {
        *self.stats.skipped.entry(error.reason()).or_insert(0) += 1;
        self.ready.push_back(Visit { url, depth, result: Err(error) });
    }

    /// Why no further fetch may start, if so.
    fn cap_reached(&self) -> Option<&'static str> {
        if self.stats.pages >= self.options.max_pages {
            Some("max-pages")
        } else if self.stats.attempts >= self.options.attempts_cap() {
            Some("max-attempts")
        } else if self.out_of_time || self.started.elapsed() >= self.options.max_time {
            Some("max-time")
        } else {
            None
        }
    }

    /// The next URLs to fetch: as many as may run at once and as the caps
    /// leave room for.
    fn next_batch(&mut self) -> Vec<(Url, usize)> {
        let room = (self.options.max_pages - self.stats.pages)
            .min(self.options.attempts_cap().saturating_sub(self.stats.attempts))
            .min(self.options.concurrency.max(1));
        let mut batch = Vec::new();
        while batch.len() < room {
            let Some((url, depth)) = self.queue.pop_front() else { break };
            if self.delivered.contains(&url_key(&url)) {
                continue;
            }
            batch.push((url, depth));
        }
        batch
    }

    fn fetch_batch(&self, batch: &[(Url, usize)]) -> Vec<Result<Fetched, CrawlError>> {
        let deadline = self.started.checked_add(self.options.max_time);
        if let [(url, _)] = batch {
            return vec![self.source.fetch_within(url, deadline)];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .map(|(url, _)| scope.spawn(move || self.source.fetch_within(url, deadline)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(std::io::Error::other("the page source panicked").into())
                    })
                })
                .collect()
        })
    }

    fn take(&mut self, url: Url, depth: usize, result: Result<Fetched, CrawlError>) {
        let page = match result {
            Ok(page) => page,
            // Cut off by the crawl's own deadline: not a failure of the
            // page, which stays unvisited.
            Err(CrawlError::OutOfTime) => {
                self.out_of_time = true;
                self.queue.push_front((url, depth));
                return;
            }
            Err(e) => {
                if !e.before_request() {
                    self.stats.attempts += 1;
                }
                return self.skip(url, depth, e);
            }
        };
        self.stats.attempts += 1;
        let final_key = url_key(&page.url);
        if self.delivered.contains(&final_key) {
            let to = page.url.clone();
            return self.skip(url, depth, CrawlError::Duplicate(to));
        }
        let links = match page_links(&page) {
            Ok(links) => links,
            Err(e) => return self.skip(url, depth, e),
        };
        if let Some(canonical) = links.canonical.filter(|c| same_site(c, &page.url)) {
            let key = url_key(&canonical);
            if key != final_key {
                if self.delivered.contains(&key) {
                    return self.skip(url, depth, CrawlError::Duplicate(canonical));
                }
                self.known.insert(key.clone());
                self.delivered.insert(key);
            }
        }
        self.known.insert(final_key.clone());
        self.delivered.insert(final_key);
        self.stats.pages += 1;
        self.ready.push_back(Visit { url, depth, result: Ok(page) });
        let follow = self.options.follow_nofollow;
        if links.nofollow && !follow {
            return;
        }
        let marked = if follow { links.nofollow_links } else { Vec::new() };
        self.enqueue(links.links.into_iter().chain(marked), depth + 1);
    }

    /// Queues URLs not seen before at `depth` (off-site ones are skipped,
    /// past [`CrawlOptions::max_known_urls`] dropped).
    fn enqueue(&mut self, urls: impl IntoIterator<Item = Url>, depth: usize) {
        for link in urls {
            let key = url_key(&link);
            if self.known.contains(&key) {
                continue;
            }
            if self.known.len() >= self.options.max_known_urls {
                self.stats.dropped_links += 1;
                continue;
            }
            self.known.insert(key);
            if self.in_scope(&link) {
                self.queue.push_back((clean_url(&link), depth));
            } else {
                let off = clean_url(&link);
                self.skip(off.clone(), depth, CrawlError::OffSite(off));
            }
        }
    }

    /// Queues more start URLs after the start page (a site's sitemap),
    /// at depth 1, each once, within the caps; off-site ones are skipped
    /// unless [`CrawlOptions::all_hosts`].
    pub fn seed(&mut self, urls: impl IntoIterator<Item = Url>) {
        self.enqueue(urls, 1);
    }
}

impl<S: PageSource + Sync + ?Sized> Iterator for Crawl<'_, S> {
    type Item = Visit;

    fn next(&mut self) -> Option<Visit> {
        loop {
            if let Some(visit) = self.ready.pop_front() {
                return Some(visit);
            }
            if self.finished {
                return None;
            }
            if let Some(cap) = self.cap_reached() {
                self.stats.stopped_by = (!self.queue.is_empty()).then_some(cap);
                self.stats.unvisited = self.queue.len();
                self.finished = true;
                continue;
            }
            let batch = self.next_batch();
            if batch.is_empty() {
                self.finished = true;
                continue;
            }
            let results = self.fetch_batch(&batch);
            for ((url, depth), result) in batch.into_iter().zip(results) {
                self.take(url, depth, result);
            }
        }
    }
}
