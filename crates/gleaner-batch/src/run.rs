//! A batch of inputs through a [`Job`] on a thread pool.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use gleaner::template::{PageSummary, SiteOptions, SiteTemplates};
use gleaner::{Document, ParseOptions};

use crate::error::Result;
use crate::input::Input;
use crate::job::{isolate, Job, Record};

/// Inputs handed to the pool at once; results are handed back per chunk,
/// so memory stays bounded however long the batch.
const CHUNK: usize = 64;

/// Whether a batch goes on after a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Process the next input.
    Continue,
    /// Stop here (the reader went away: `gleaner … | head`).
    Stop,
}

/// What a batch did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    /// Records handed back.
    pub pages: usize,
    /// Records with an error.
    pub failed: usize,
    /// Records whose input could not be read at all.
    pub unreadable: usize,
    /// Input bytes processed.
    pub bytes: usize,
    /// Wall-clock time of the batch.
    pub elapsed: Duration,
}

impl Totals {
    /// Throughput in megabytes (10⁶ bytes) per second.
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs every input through `job` on `threads` worker threads (0: one per
/// core), handing each record to `each` in input order. One failed or
/// panicking page is one record with its error; the batch goes on until
/// the inputs run out or `each` says [`Flow::Stop`]. With `site`, each
/// page is extracted with its cluster's template model.
///
/// # Errors
/// The worker pool cannot start, or `each` fails (a write error).
pub fn run(
    inputs: &[Input],
    job: &Job,
    site: Option<&SiteTemplates>,
    threads: usize,
    mut each: impl FnMut(&Input, Record) -> Result<Flow>,
) -> Result<Totals> {
    let pool = pool(threads)?;
    let started = Instant::now();
    let mut totals = Totals::default();
    let mut offset = 0;
    'chunks: for chunk in inputs.chunks(CHUNK) {
        let process = |(k, input): (usize, &Input)| match site {
            Some(site) => job.record_in_site(input, site, offset + k),
            None => job.record(input),
        };
        let records: Vec<Record> =
            pool.install(|| chunk.par_iter().enumerate().map(process).collect());
        offset += chunk.len();
        for (input, record) in chunk.iter().zip(records) {
            totals.pages += 1;
            totals.bytes += record.bytes;
            if record.error.is_some() {
                totals.failed += 1;
                totals.unreadable += usize::from(record.unreadable);
            }
            if each(input, record)? == Flow::Stop {
                break 'chunks;
            }
        }
    }
    totals.elapsed = started.elapsed();
    Ok(totals)
}

/// Reads and parses every input on `threads` workers, clusters the pages
/// by template and learns one model per cluster (see
/// [`SiteTemplates::learn`]). Inputs that cannot be read or parsed are
/// clusters of their own.
///
/// # Errors
/// The worker pool cannot start.
pub fn learn_site_templates(
    inputs: &[Input],
    job: &Job,
    options: &SiteOptions,
    threads: usize,
) -> Result<SiteTemplates> {
    let summaries = summarize_all(inputs, job.parse(), options, threads)?;
    let names: Vec<String> = inputs.iter().map(|i| i.source.clone()).collect();
    Ok(SiteTemplates::learn(&summaries, &names, options))
}

/// The [`PageSummary`] of every input (read and parsed with `parse`, on
/// `threads` workers); `None` for inputs that cannot be read or parsed.
///
/// # Errors
/// The worker pool cannot start.
pub fn summarize_all(
    inputs: &[Input],
    parse: &ParseOptions,
    options: &SiteOptions,
    threads: usize,
) -> Result<Vec<Option<PageSummary>>> {
    Ok(pool(threads)?.install(|| inputs.par_iter().map(|i| summarize(i, parse, options)).collect()))
}

/// What clustering and template learning need of one input; `None` when
/// it cannot be read or parsed (its record will say why). Never panics.
pub fn summarize(
    input: &Input,
    parse: &ParseOptions,
    options: &SiteOptions,
) -> Option<PageSummary> {
    isolate(|| {
        let bytes = crate::input::read(input, parse.max_bytes).ok()?;
        let doc = Document::parse(&bytes, parse).ok()?;
        Some(PageSummary::of(&doc, options))
    })
    .ok()
    .flatten()
}

fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start worker threads: {e}")))?)
}
