//! The worker pool of a batch and its ordered stream (`ordered`); the
//! engine ([`crate::Engine`]) runs every batch on it.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Duration;

use rayon::prelude::*;

use gleaner::template::{PageSummary, SiteOptions};
use gleaner::{Document, ParseOptions};

use crate::error::Result;
use crate::input::Input;
use crate::job::isolate;

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

/// Runs `process` over `items` on `pool` and hands each result to `each` on the calling thread, in the
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
pub(crate) fn ordered<T, R, F, P>(
    pool: &WorkerPool,
    items: impl IntoIterator<Item = T>,
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
    let window = pool.threads().max(1) * WINDOW_PER_THREAD;
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
    Ok(WorkerPool::new(threads)?
        .install(|| inputs.par_iter().map(|i| summarize(i, parse, options)).collect()))
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

/// The worker pool of a batch: its own, of `threads` workers (0: one
/// per core) capped by [`worker_threads`], or rayon's global pool. The
/// one place a batch's threads are started (`gleaner train` reads its
/// pages on one too).
#[derive(Debug)]
pub enum WorkerPool {
    /// A pool of the batch's own.
    Own(rayon::ThreadPool),
    /// rayon's global pool.
    Global,
}

impl WorkerPool {
    /// A pool of `threads` workers (0: one per core), capped by
    /// [`worker_threads`].
    ///
    /// # Errors
    /// The threads cannot start.
    pub fn new(threads: usize) -> Result<WorkerPool> {
        let pool =
            rayon::ThreadPoolBuilder::new()
                .num_threads(worker_threads(threads).0)
                .build()
                .map_err(|e| std::io::Error::other(format!("cannot start worker threads: {e}")))?;
        Ok(WorkerPool::Own(pool))
    }

    /// Its worker threads.
    pub fn threads(&self) -> usize {
        match self {
            WorkerPool::Own(pool) => pool.current_num_threads(),
            WorkerPool::Global => rayon::current_num_threads(),
        }
    }

    /// Runs `op` with the pool's parallel iterators.
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        match self {
            WorkerPool::Own(pool) => pool.install(op),
            WorkerPool::Global => op(),
        }
    }

    /// Runs `op` on the calling thread with a scope on the pool.
    fn in_place_scope<'scope, R>(&self, op: impl FnOnce(&rayon::Scope<'scope>) -> R) -> R {
        match self {
            WorkerPool::Own(pool) => pool.in_place_scope(op),
            WorkerPool::Global => rayon::in_place_scope(op),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    // See: issue 13, defect 6.
    #[test]
    fn issue_13_the_reorder_window_is_bounded_and_keeps_input_order() {
        let started = AtomicUsize::new(0);
        let threads = 3;
        let process = |k: usize, item: usize| {
            started.fetch_add(1, Ordering::SeqCst);
            // Early items are the slow ones, so later ones pile up.
            std::thread::sleep(Duration::from_millis(if k % 50 == 0 { 60 } else { 1 }));
            item
        };
        let mut written = Vec::new();
        let mut most_in_flight = 0;
        let pool = WorkerPool::new(threads).expect("pool");
        ordered(
            &pool,
            0..200,
            process,
            |k, _| k,
            |_, item| {
                written.push(item);
                let in_flight = started.load(Ordering::SeqCst) - (written.len() - 1);
                most_in_flight = most_in_flight.max(in_flight);
                Ok(Flow::Continue)
            },
        )
        .expect("batch runs");
        assert_eq!(written, (0..200).collect::<Vec<_>>());
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
