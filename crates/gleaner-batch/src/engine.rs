//! The one batch engine: a source of work, one [`Job`], one [`Sink`].
//!
//! Every batch front end — `gleaner extract` (files, folders, standard
//! input, URLs), `gleaner warc` (archives), `gleaner eval`, Python's
//! `extract_batch` and `iter_warc` — runs through [`Engine::run`]: a
//! source yields its items lazily on the calling thread (a WARC of
//! millions of records or a URL list never held whole), each item
//! becomes a [`Unit`] and a [`Record`] on one worker pool (the item's
//! own decoding, reading, fetching and extraction all on the workers),
//! and the sink gets the records back in source order through a bounded
//! reorder window. A panic anywhere in an
//! item's work is that item's error record; an item that cannot be read
//! is an error record too, never a silent skip.
//!
//! Site templates are learned in one place, [`Engine::learn_sites`]: a
//! pre-pass over a source that clusters its pages by template within
//! each group (a folder is one group; an archive's pages are grouped by
//! host) and learns a model per cluster ([`SiteTemplates::learn`]).

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use gleaner::template::{PageSummary, SiteOptions, SiteTemplates};
use gleaner::Document;

use crate::error::Result;
use crate::input::Input;
use crate::job::{Failure, Job, Page, Record};
use crate::run::{ordered, summarize, Flow, Totals, WorkerPool};

/// Where one page of a batch stands among the pages whose templates are
/// learned together ([`Engine::learn_sites`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteKey {
    /// The group its templates are learned in: empty for a folder, the
    /// host for a page of an archive.
    pub group: String,
    /// The page's key, unique within the batch and the same in the
    /// pre-pass and the run (a file's position; an archive record's
    /// `FILE#OFFSET`).
    pub id: String,
    /// How the learned models name it (their `sources`).
    pub name: String,
}

/// What a worker does for one item of a source.
#[derive(Debug)]
#[non_exhaustive]
// A unit lives on one worker for one item and is never stored in bulk,
// so a ready record is not worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Unit<T> {
    /// An input (a file, standard input, bytes) read with the job's size
    /// limit and transparent gzip ([`Job::record`]).
    Input {
        /// The input.
        input: Input,
        /// Its place among the pages whose templates are learned.
        site: Option<SiteKey>,
        /// Handed to the sink with the record.
        tag: T,
    },
    /// A page in memory whose URL and encoding may be known from outside
    /// it (an archived HTTP response, a Python `str`):
    /// [`Job::record_for_page`].
    Page {
        /// The record's `source`.
        source: String,
        /// The page's bytes, as they are (no gzip).
        bytes: Vec<u8>,
        /// Its URL, the base of its links.
        url: Option<String>,
        /// Its character encoding, when known from outside the page.
        encoding: Option<&'static encoding_rs::Encoding>,
        /// Its place among the pages whose templates are learned.
        site: Option<SiteKey>,
        /// Handed to the sink with the record.
        tag: T,
    },
    /// A URL, fetched on a worker by the engine's [`Fetch`].
    Url {
        /// The URL.
        url: String,
        /// Handed to the sink with the record.
        tag: T,
    },
    /// Nothing for the job to do: a record made already (an input that
    /// failed before extraction: a damaged stretch of an archive, a line
    /// of a URL list that is no URL) or none at all (an archive record
    /// that is not a page; the end of an archive).
    Ready {
        /// The record, if any.
        record: Option<Record>,
        /// Handed to the sink.
        tag: T,
    },
}

/// An item of a source: what it is, made into a [`Unit`] on a worker
/// thread (decoding an archive record is work too).
pub trait Work: Send {
    /// What the sink gets with the item's record (the input, its place
    /// in an archive).
    type Tag: Send;

    /// The unit of work for this item, the `position`-th of its source.
    fn unit(self, position: usize, job: &Job) -> Unit<Self::Tag>;

    /// Adjusts a page's record after extraction, on the worker (an
    /// archive record's capture date goes into `date`). Does nothing by
    /// default.
    fn finish(_tag: &Self::Tag, _record: &mut Record) {}
}

/// A file, standard input or bytes: one [`Unit::Input`], handed to the
/// sink as itself.
impl Work for Input {
    type Tag = Input;

    fn unit(self, position: usize, _job: &Job) -> Unit<Input> {
        let site =
            SiteKey { group: String::new(), id: position.to_string(), name: self.source.clone() };
        Unit::Input { tag: self.clone(), input: self, site: Some(site) }
    }
}

/// Fetches the page at a URL into a record, on a worker (the front end's
/// HTTP client, folder or archive: the engine itself has no network).
pub trait Fetch: Sync {
    /// The record of the page at `url` with `job`; a page that cannot be
    /// fetched is a record with its error.
    fn record(&self, job: &Job, url: &str) -> Record;
}

/// Where the records of a batch go, in source order.
pub trait Sink<T> {
    /// Takes the outcome of one item: its tag (`None` when the item's
    /// work panicked outside the job's own guard, and `record` says so)
    /// and its record (`None` for an item without one). [`Flow::Stop`]
    /// ends the batch (a reader that went away).
    ///
    /// # Errors
    /// A write error; the batch stops with it.
    fn write(&mut self, tag: Option<T>, record: Option<Record>) -> Result<Flow>;
}

/// The template models of a batch, learned by [`Engine::learn_sites`]:
/// one [`SiteTemplates`] per group, and each page's place in its group.
#[derive(Debug, Default)]
pub struct Sites {
    groups: HashMap<String, SiteTemplates>,
    /// Page id → (group, index among the group's pages).
    pages: HashMap<String, (String, usize)>,
}

impl Sites {
    /// Groups with at least one page (hosts of an archive).
    pub fn groups(&self) -> usize {
        self.groups.len()
    }

    /// Template clusters over every group, and how many have a model.
    pub fn clusters(&self) -> (usize, usize) {
        self.groups.values().fold((0, 0), |(all, with), site| {
            (all + site.sizes.len(), with + site.models.iter().filter(|m| m.is_some()).count())
        })
    }

    /// Pages learned from, and how many of them have a model.
    pub fn pages_with_model(&self) -> (usize, usize) {
        let with = self.pages.values().filter(|(g, i)| self.of_index(g, *i).is_some()).count();
        (self.pages.len(), with)
    }

    fn of_index(
        &self,
        group: &str,
        index: usize,
    ) -> Option<&std::sync::Arc<gleaner::template::TemplateModel>> {
        self.groups.get(group)?.model_of(index)
    }

    /// The templates of a page's group and its index there.
    pub fn of(&self, key: &SiteKey) -> Option<(&SiteTemplates, usize)> {
        let (group, index) = self.pages.get(&key.id)?;
        Some((self.groups.get(group)?, *index))
    }
}

/// A batch's job on a worker pool: [`Engine::run`] a source into a sink.
pub struct Engine<'a> {
    job: &'a Job,
    pool: WorkerPool,
    sites: Option<&'a Sites>,
    fetch: Option<&'a dyn Fetch>,
}

impl std::fmt::Debug for Engine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("job", &self.job)
            .field("threads", &self.threads())
            .field("sites", &self.sites.is_some())
            .field("fetch", &self.fetch.is_some())
            .finish()
    }
}

impl<'a> Engine<'a> {
    /// An engine running `job` on `threads` worker threads (0: one per
    /// core; capped by [`worker_threads`](crate::worker_threads)).
    ///
    /// # Errors
    /// The worker pool cannot start.
    pub fn new(job: &'a Job, threads: usize) -> Result<Engine<'a>> {
        Ok(Engine { job, pool: WorkerPool::new(threads)?, sites: None, fetch: None })
    }

    /// An engine on rayon's global pool (one thread per core, started
    /// once per process: a library called for many small batches).
    pub fn on_global_pool(job: &'a Job) -> Engine<'a> {
        Engine { job, pool: WorkerPool::Global, sites: None, fetch: None }
    }

    /// Extracts each page with its group's template model
    /// ([`Engine::learn_sites`]).
    pub fn sites(mut self, sites: Option<&'a Sites>) -> Engine<'a> {
        self.sites = sites;
        self
    }

    /// Fetches [`Unit::Url`]s with `fetch`.
    pub fn fetch(mut self, fetch: &'a dyn Fetch) -> Engine<'a> {
        self.fetch = Some(fetch);
        self
    }

    /// The worker threads.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// The job.
    pub fn job(&self) -> &Job {
        self.job
    }

    /// Runs every item of `source` through the job on the pool and hands
    /// the records to `sink` in source order, each as soon as it and
    /// every one before it are done (a slow page holds back only the
    /// records after it). At most 4 × threads items are in flight, so the
    /// reorder buffer stays bounded however long the source. Stops when
    /// the source runs out or the sink says [`Flow::Stop`] (the items
    /// already in flight are finished, not written).
    ///
    /// # Errors
    /// The sink fails (a write error).
    pub fn run<W: Work>(
        &self,
        source: impl IntoIterator<Item = W>,
        sink: &mut dyn Sink<W::Tag>,
    ) -> Result<Totals> {
        let started = Instant::now();
        let mut totals = Totals::default();
        let process = |k: usize, item: W| -> (Option<W::Tag>, Option<Record>) {
            let (tag, record) = self.process(item.unit(k, self.job));
            let record = record.map(|mut r| {
                W::finish(&tag, &mut r);
                r
            });
            (Some(tag), record)
        };
        let panicked = |_: usize, what: String| {
            let mut record = self.job.failed_record("(unknown input)", "");
            record.error = Some(format!("internal error, please report it: {what}"));
            record.failure = Some(Failure::Internal);
            record.unreadable = false;
            (None, Some(record))
        };
        self.for_each(source, process, panicked, |_, (tag, record)| {
            if let Some(record) = &record {
                totals.pages += 1;
                totals.bytes += record.bytes;
                if record.error.is_some() {
                    totals.failed += 1;
                    totals.unreadable += usize::from(record.unreadable);
                }
            }
            sink.write(tag, record)
        })?;
        totals.elapsed = started.elapsed();
        Ok(totals)
    }

    /// Runs `work` on every item of `source` on the engine's pool and
    /// hands each result to `each` in source order, with [`Engine::run`]'s
    /// bounded window; a panic in `work` is `panicked(position, message)`
    /// in its place. The loop under [`Engine::run`] and
    /// [`Engine::learn_sites`], for a front end whose work on an item is
    /// more than one record: `gleaner eval` parses each page once and
    /// scores every contender's [`Job::text_for_document`] on it.
    ///
    /// # Errors
    /// `each` fails; the batch stops with its error.
    pub fn for_each<T: Send, R: Send>(
        &self,
        source: impl IntoIterator<Item = T>,
        work: impl Fn(usize, T) -> R + Sync,
        panicked: impl Fn(usize, String) -> R + Sync,
        each: impl FnMut(usize, R) -> Result<Flow>,
    ) -> Result<()> {
        ordered(&self.pool, source, work, panicked, each)
    }

    /// One unit's record (on a worker).
    fn process<T>(&self, unit: Unit<T>) -> (T, Option<Record>) {
        let job = self.job;
        let site = |key: Option<&SiteKey>| self.sites.zip(key).and_then(|(s, k)| s.of(k));
        match unit {
            Unit::Input { input, site: key, tag } => {
                let record = match site(key.as_ref()) {
                    Some((site, index)) => job.record_in_site(&input, site, index),
                    None => job.record(&input),
                };
                (tag, Some(record))
            }
            Unit::Page { source, bytes, url, encoding, site: key, tag } => {
                let page = Page { source: &source, bytes: &bytes, url: url.as_deref(), encoding };
                (tag, Some(job.record_for_page(&page, site(key.as_ref()))))
            }
            Unit::Url { url, tag } => {
                let record = match self.fetch {
                    Some(fetch) => fetch.record(job, &url),
                    None => job.failed_record(&url, "URLs are not fetched in this batch"),
                };
                (tag, Some(record))
            }
            Unit::Ready { record, tag } => (tag, record),
        }
    }

    /// Reads and parses every page of `source` on the pool (a pre-pass:
    /// nothing is extracted), clusters each group's pages by template and
    /// learns one model per cluster ([`SiteTemplates::learn`]). Pages
    /// that cannot be read or parsed are clusters of their own; units
    /// without a [`SiteKey`] are left out.
    ///
    /// # Errors
    /// Never, today (the signature leaves room for a source that fails).
    pub fn learn_sites<W: Work>(
        &self,
        source: impl IntoIterator<Item = W>,
        options: &SiteOptions,
    ) -> Result<Sites> {
        let parse = self.job.parse();
        let summarize_unit = |k: usize, item: W| -> Option<(SiteKey, Option<PageSummary>)> {
            match item.unit(k, self.job) {
                Unit::Input { input, site: Some(key), .. } => {
                    Some((key, summarize(&input, parse, options)))
                }
                Unit::Page { bytes, url, encoding, site: Some(key), .. } => {
                    let page = Page { source: "", bytes: &bytes, url: url.as_deref(), encoding };
                    let parse = page.parse_options(parse);
                    let summary =
                        Document::parse(&bytes, &parse).ok().map(|d| PageSummary::of(&d, options));
                    Some((key, summary))
                }
                _ => None,
            }
        };
        let mut by_group: BTreeMap<String, (Vec<Option<PageSummary>>, Vec<String>)> =
            BTreeMap::new();
        let mut sites = Sites::default();
        self.for_each(
            source,
            summarize_unit,
            |_, _| None,
            |_, summary| {
                if let Some((key, summary)) = summary {
                    let (summaries, names) = by_group.entry(key.group.clone()).or_default();
                    sites.pages.insert(key.id, (key.group, summaries.len()));
                    summaries.push(summary);
                    names.push(key.name);
                }
                Ok(Flow::Continue)
            },
        )?;
        let learn = || -> Vec<(String, SiteTemplates)> {
            use rayon::prelude::*;
            by_group
                .into_par_iter()
                .map(|(group, (summaries, names))| {
                    (group, SiteTemplates::learn(&summaries, &names, options))
                })
                .collect()
        };
        sites.groups = self.pool.install(learn).into_iter().collect();
        Ok(sites)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use gleaner::extract::Extractor;
    use gleaner::{render, Document, Selection};

    use super::*;
    use crate::OutputFormat;

    /// An extractor that takes its time on pages that say "slow" and
    /// panics on pages that say "boom".
    #[derive(Debug)]
    struct Moody;

    impl Extractor for Moody {
        fn extract(&self, doc: &Document) -> Selection {
            let all = Selection::all(doc);
            let text = render::text(doc, &all);
            if text.contains("slow") {
                std::thread::sleep(Duration::from_millis(1500));
            }
            assert!(!text.contains("boom"), "a page that panics");
            all
        }
    }

    /// The records a sink got, with when.
    #[derive(Default)]
    struct Collect(Vec<(Option<String>, Option<Record>, Duration)>, Option<Instant>);

    impl Sink<Input> for Collect {
        fn write(&mut self, tag: Option<Input>, record: Option<Record>) -> Result<Flow> {
            let at = self.1.get_or_insert_with(Instant::now).elapsed();
            self.0.push((tag.map(|t| t.source), record, at));
            Ok(Flow::Continue)
        }
    }

    fn job() -> Job {
        Job::new(Box::new(Moody), "moody", OutputFormat::Jsonl)
    }

    fn page(name: &str, text: &str) -> Input {
        Input::from_bytes(name, format!("<p>{text}</p>").into_bytes())
    }

    // See: issue 13, defect 6.
    #[test]
    fn issue_13_records_stream_before_a_slow_page_ends() {
        let job = job();
        let mut inputs = vec![page("fast", "fast"), page("slow", "slow")];
        inputs.extend((0..10).map(|k| page(&format!("p{k}"), "x")));
        let mut sink = Collect(Vec::new(), Some(Instant::now()));
        let totals = Engine::new(&job, 2).expect("pool").run(inputs, &mut sink).expect("runs");
        assert_eq!(totals.pages, 12);
        let order: Vec<&str> = sink.0.iter().filter_map(|(s, _, _)| s.as_deref()).collect();
        assert_eq!(order.len(), 12);
        assert_eq!(order.get(..2), Some(&["fast", "slow"][..]), "input order");
        let first = sink.0.first().map(|(_, _, t)| *t).unwrap_or_default();
        let last = sink.0.last().map(|(_, _, t)| *t).unwrap_or_default();
        assert!(first < Duration::from_millis(1000), "the first record waited: {first:?}");
        assert!(last >= Duration::from_millis(1500), "the slow page was slow: {last:?}");
    }

    #[test]
    fn an_unreadable_input_is_an_error_record_and_a_panic_stops_nothing() {
        let job = job();
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("missing.html");
        let files = vec![missing.clone()];
        let mut inputs = crate::input::collect(&files, &[], &mut |_| {}).expect("inputs");
        inputs.insert(0, page("boom", "boom"));
        inputs.push(page("after", "after"));
        let mut sink = Collect::default();
        let totals = Engine::new(&job, 2).expect("pool").run(inputs, &mut sink).expect("runs");
        assert_eq!((totals.pages, totals.failed, totals.unreadable), (3, 2, 1));
        let records: Vec<&Record> = sink.0.iter().filter_map(|(_, r, _)| r.as_ref()).collect();
        let error = |k: usize| records.get(k).and_then(|r| r.error.clone()).unwrap_or_default();
        assert_eq!(error(0), "internal error, please report it: a page that panics");
        assert!(records.get(1).is_some_and(|r| r.unreadable), "{}", error(1));
        assert_eq!(records.get(2).map(|r| r.text.as_str()), Some("after"));
    }

    #[test]
    fn site_templates_are_learned_in_a_pre_pass_per_group() {
        let job = job();
        let nav = "<nav><a href=/a>Home</a> <a href=/b>News</a> <a href=/c>About us</a></nav>";
        let inputs: Vec<Input> = (0..4)
            .map(|k| {
                let html = format!("<body>{nav}<p>Article number {k} says its own thing.</p>");
                Input::from_bytes(format!("p{k}.html"), html.into_bytes())
            })
            .collect();
        let engine = Engine::new(&job, 2).expect("pool");
        let options = SiteOptions::default();
        let sites = engine.learn_sites(inputs.clone(), &options).expect("learned");
        assert_eq!(sites.groups(), 1);
        assert_eq!(sites.pages_with_model().0, 4);
        let mut sink = Collect::default();
        engine.sites(Some(&sites)).run(inputs, &mut sink).expect("runs");
        assert!(sink
            .0
            .iter()
            .all(|(_, r, _)| r.as_ref().is_some_and(|r| r.template_cluster_size.is_some())));
    }
}
