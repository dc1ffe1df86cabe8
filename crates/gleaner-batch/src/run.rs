//! A batch of inputs through a [`Job`] on a thread pool.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use gleaner::template::{PageSummary, SiteOptions, SiteTemplates};
use gleaner::{Document, ParseOptions};

use crate::error::Result;
use crate::input::Input;
use crate::job::{isolate, Job, Record};

/// Records in flight per worker thread: inputs handed to the pool but not
/// yet written. A slow page holds back at most this many × threads
/// records behind it, which bounds the reorder buffer's memory.
const WINDOW_PER_THREAD: usize = 4;

/// Worker threads per available core at most: more only costs memory
/// (each thread holds a page and its tree) and never speeds extraction up.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The most worker threads any batch starts, whatever is asked.
pub const MAX_THREADS: usize = 256;

/// The worker threads a batch runs for a request of `requested` (0: one
/// per core): at most [`MAX_THREADS_PER_CORE`] per available core and
/// never more than [`MAX_THREADS`]. Returns the count and whether the
/// request was cut down (front ends warn then).
pub fn worker_threads(requested: usize) -> (usize, bool) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores.saturating_mul(MAX_THREADS_PER_CORE).clamp(1, MAX_THREADS);
    match requested {
        0 => (cores.min(cap), false),
        n if n > cap => (cap, true),
        n => (n, false),
    }
}

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
/// core; see [`worker_threads`] for the cap), handing each record to
/// `each` in input order as soon as it and every record before it are
/// done: output streams, and a slow page holds back only the records
/// after it. At most 4 × threads inputs are in flight at once, so the
/// reorder buffer stays bounded however long the batch. One failed or
/// panicking page is one record with its error; the batch goes on until
/// the inputs run out or `each` says [`Flow::Stop`] (the inputs already
/// in flight are finished, not written). With `site`, each page is
/// extracted with its cluster's template model.
///
/// # Errors
/// The worker pool cannot start, or `each` fails (a write error).
pub fn run(
    inputs: &[Input],
    job: &Job,
    site: Option<&SiteTemplates>,
    threads: usize,
    each: impl FnMut(&Input, Record) -> Result<Flow>,
) -> Result<Totals> {
    let process = |k: usize, input: &Input| match site {
        Some(site) => job.record_in_site(input, site, k),
        None => job.record(input),
    };
    let panicked = |input: &Input, what: String| {
        let mut record = job.failed_record(&input.source, "");
        record.error = Some(format!("internal error, please report it: {what}"));
        record.failure = Some(crate::job::Failure::Internal);
        record.unreadable = false;
        record
    };
    stream(inputs, threads, process, panicked, each)
}

/// The streaming core of [`run`] over a slice of inputs: each record is
/// counted into the [`Totals`] and handed to `each` with its input.
fn stream<F, P>(
    inputs: &[Input],
    threads: usize,
    process: F,
    panicked: P,
    mut each: impl FnMut(&Input, Record) -> Result<Flow>,
) -> Result<Totals>
where
    F: Fn(usize, &Input) -> Record + Sync,
    P: Fn(&Input, String) -> Record + Sync,
{
    let started = Instant::now();
    let mut totals = Totals::default();
    let missing = |k: usize, what: String| match inputs.get(k) {
        Some(input) => panicked(input, what),
        None => Record::new("", ""),
    };
    ordered(inputs.iter(), threads, process, missing, |k, record| {
        let Some(input) = inputs.get(k) else { return Ok(Flow::Stop) };
        totals.pages += 1;
        totals.bytes += record.bytes;
        if record.error.is_some() {
            totals.failed += 1;
            totals.unreadable += usize::from(record.unreadable);
        }
        each(input, record)
    })?;
    totals.elapsed = started.elapsed();
    Ok(totals)
}

/// Runs `process` over `items` on a pool of `threads` workers (0: one per
/// core) and hands each result to `each` on the calling thread, in the
/// items' order, as soon as it and every result before it are done.
/// Items are pulled from the iterator (on the calling thread) only while
/// fewer than 4 × threads are in flight, so a reorder buffer of at most
/// that many results — and a stream of any length — fits in bounded
/// memory: the items may come from a reader that never holds its input
/// whole (a WARC archive). A panic in `process` becomes the result
/// `panicked` makes from the item's position and the panic message, so
/// that the slot is filled and the stream never waits for it. Stops when
/// the items run out or `each` says [`Flow::Stop`] (results already in
/// flight are then dropped).
///
/// # Errors
/// The worker pool cannot start, or `each` fails (a write error).
pub fn ordered<T, R, F, P>(
    items: impl IntoIterator<Item = T>,
    threads: usize,
    process: F,
    panicked: P,
    mut each: impl FnMut(usize, R) -> Result<Flow>,
) -> Result<()>
where
    T: Send,
    R: Send,
    F: Fn(usize, T) -> R + Sync,
    P: Fn(usize, String) -> R + Sync,
{
    let pool = pool(threads)?;
    let window = pool.current_num_threads().max(1) * WINDOW_PER_THREAD;
    let (done, finished) = mpsc::channel::<(usize, R)>();
    let (process, panicked) = (&process, &panicked);
    let mut items = items.into_iter();
    // `in_place_scope` runs this closure on the calling thread (so `each`
    // and the iterator need not be `Send`) and waits for every spawned
    // item at its end.
    pool.in_place_scope(|scope| -> Result<()> {
        let mut early: BTreeMap<usize, R> = BTreeMap::new();
        let (mut submitted, mut written) = (0, 0);
        let mut exhausted = false;
        loop {
            while !exhausted && submitted - written < window {
                let Some(item) = items.next() else {
                    exhausted = true;
                    break;
                };
                let (k, done) = (submitted, done.clone());
                scope.spawn(move |_| {
                    let result =
                        isolate(|| process(k, item)).unwrap_or_else(|what| panicked(k, what));
                    // The receiver is gone only when the stream stopped.
                    let _ = done.send((k, result));
                });
                submitted += 1;
            }
            if written == submitted {
                return Ok(());
            }
            // `done` is held here, so this waits for an item, never fails.
            let Ok((k, result)) = finished.recv() else { return Ok(()) };
            early.insert(k, result);
            while let Some(result) = early.remove(&written) {
                written += 1;
                if each(written - 1, result)? == Flow::Stop {
                    return Ok(());
                }
            }
        }
    })
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

/// A pool of `threads` workers (0: one per core), capped by
/// [`worker_threads`].
fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(threads).0)
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start worker threads: {e}")))?)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use gleaner::extract::Extractor;
    use gleaner::{render, Document, Selection};

    use super::*;
    use crate::OutputFormat;

    /// An extractor that takes its time on pages that say "slow".
    #[derive(Debug)]
    struct Slow;

    impl Extractor for Slow {
        fn extract(&self, doc: &Document) -> Selection {
            let all = Selection::all(doc);
            if render::text(doc, &all).contains("slow") {
                std::thread::sleep(Duration::from_millis(1500));
            }
            all
        }
    }

    // See: issue 13, defect 6.
    #[test]
    fn issue_13_records_stream_before_a_slow_page_ends() {
        let job = Job::new(Box::new(Slow), "slow", OutputFormat::Jsonl);
        let mut inputs = vec![Input::from_bytes("fast", b"<p>fast</p>".to_vec())];
        inputs.push(Input::from_bytes("slow", b"<p>slow</p>".to_vec()));
        inputs.extend((0..10).map(|k| Input::from_bytes(format!("p{k}"), b"<p>x</p>".to_vec())));
        let started = Instant::now();
        let mut seen = Vec::new();
        run(&inputs, &job, None, 2, |_, record| {
            seen.push((record.source, started.elapsed()));
            Ok(Flow::Continue)
        })
        .expect("batch runs");
        let order: Vec<&str> = seen.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(order.len(), 12);
        assert_eq!(order.get(..2), Some(&["fast", "slow"][..]), "input order");
        let first = seen.first().map(|(_, t)| *t).unwrap_or_default();
        let last = seen.last().map(|(_, t)| *t).unwrap_or_default();
        assert!(first < Duration::from_millis(1000), "the first record waited: {first:?}");
        assert!(last >= Duration::from_millis(1500), "the slow page was slow: {last:?}");
    }

    // See: issue 13, defect 6.
    #[test]
    fn issue_13_the_reorder_window_is_bounded_and_keeps_input_order() {
        let inputs: Vec<Input> =
            (0..200).map(|k| Input::from_bytes(format!("{k}"), Vec::new())).collect();
        let started = AtomicUsize::new(0);
        let threads = 3;
        let process = |k: usize, input: &Input| {
            started.fetch_add(1, Ordering::SeqCst);
            // Early pages are the slow ones, so later ones pile up.
            std::thread::sleep(Duration::from_millis(if k % 50 == 0 { 60 } else { 1 }));
            let job = Job::new(Box::new(Slow), "fake", OutputFormat::Jsonl);
            job.failed_record(&input.source, "fake")
        };
        let panicked = |input: &Input, _: String| Record::new(&input.source, "fake");
        let mut written = Vec::new();
        let mut most_in_flight = 0;
        stream(&inputs, threads, process, panicked, |_, record| {
            written.push(record.source);
            let in_flight = started.load(Ordering::SeqCst) - (written.len() - 1);
            most_in_flight = most_in_flight.max(in_flight);
            Ok(Flow::Continue)
        })
        .expect("batch runs");
        let expected: Vec<String> = (0..200).map(|k| k.to_string()).collect();
        assert_eq!(written, expected);
        assert!(most_in_flight <= threads * WINDOW_PER_THREAD, "{most_in_flight} in flight");
    }

    // See: issue 13, defect 7.
    #[test]
    fn issue_13_worker_threads_are_capped() {
        let (n, capped) = worker_threads(100_000);
        assert!(capped && (1..=MAX_THREADS).contains(&n), "{n}");
        assert_eq!(worker_threads(1), (1, false));
        assert!(!worker_threads(0).1);
    }
}
