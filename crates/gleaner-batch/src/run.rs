//! A batch of inputs through a [`Job`] on a thread pool.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Result;
use crate::input::Input;
use crate::job::{Job, Record};

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
/// the inputs run out or `each` says [`Flow::Stop`].
///
/// # Errors
/// The worker pool cannot start, or `each` fails (a write error).
pub fn run(
    inputs: &[Input],
    job: &Job,
    threads: usize,
    mut each: impl FnMut(&Input, Record) -> Result<Flow>,
) -> Result<Totals> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| std::io::Error::other(format!("cannot start worker threads: {e}")))?;
    let started = Instant::now();
    let mut totals = Totals::default();
    'chunks: for chunk in inputs.chunks(CHUNK) {
        let records: Vec<Record> =
            pool.install(|| chunk.par_iter().map(|i| job.record(i)).collect());
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
