//! `gleaner.iter_warc`: the HTML pages of a WARC file, extracted, one
//! record at a time, streamed: the archive is read a batch of pages ahead
//! (never whole), and each batch is extracted on all cores with the GIL
//! released.

use std::collections::VecDeque;
use std::fs::File;
use std::io::BufReader;

use gleaner_batch::{Job, Record};
use gleaner_warc::{
    block_bytes_to_keep, damage_message, failed_record, page_record, select, Selected, WarcReader,
};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::Settings;

/// Pages read ahead and extracted together.
const BATCH: usize = 64;

/// A record the archive holds, judged but not yet extracted.
enum Item {
    /// A page or an unreadable response, named `FILE#OFFSET`.
    Selected { source: String, selected: Selected },
    /// A damaged stretch of the archive, skipped.
    Failed(Box<Record>),
}

/// The extracted records of a WARC file's HTML responses, as JSON (the
/// Python side decodes them): `url` and `date` from the WARC headers, the
/// keys of `gleaner warc` otherwise. Revisits, requests, metadata and
/// non-HTML responses are skipped; a record that cannot be read is a
/// record with `error`, and so is each damaged stretch of the archive,
/// after which reading goes on at the next intact record.
#[pyclass(module = "gleaner._gleaner")]
pub struct WarcRecords {
    path: String,
    reader: Option<WarcReader<BufReader<File>>>,
    settings: Settings,
    ready: VecDeque<String>,
}

#[pymethods]
impl WarcRecords {
    #[new]
    #[pyo3(signature = (path, spec="{}"))]
    fn new(path: String, spec: &str) -> PyResult<Self> {
        let settings = Settings::new(spec, None)?;
        let file = File::open(&path).map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
        let reader = WarcReader::new(BufReader::with_capacity(1 << 16, file))
            .map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
        Ok(WarcRecords { path, reader: Some(reader), settings, ready: VecDeque::new() })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<String> {
        if self.ready.is_empty() {
            let WarcRecords { path, reader, settings, ready } = self;
            py.detach(|| {
                let items = read_batch(path, reader, &settings.job);
                let records: Vec<String> = items
                    .into_par_iter()
                    .filter_map(|item| match item {
                        Item::Failed(record) => Some(*record),
                        Item::Selected { source, selected } => {
                            page_record(&settings.job, &source, selected, None).ok().map(|r| r.0)
                        }
                    })
                    .map(|record| settings.json(&crate::python_words(record)))
                    .collect();
                ready.extend(records);
            });
        }
        self.ready.pop_front()
    }
}

/// Up to [`BATCH`] pages (and failures) from the archive; at its end or
/// after an error the reader is dropped (an error becomes a record).
fn read_batch(
    path: &str,
    reader: &mut Option<WarcReader<BufReader<File>>>,
    job: &Job,
) -> Vec<Item> {
    let mut items = Vec::new();
    let max_bytes = job.parse().max_bytes;
    while items.len() < BATCH {
        let Some(r) = reader.as_mut() else { break };
        match r.next_record(|headers| block_bytes_to_keep(headers, max_bytes)) {
            None => {
                *reader = None;
            }
            Some(Err(e)) => {
                // The reader goes on after the damage (or ends, when the
                // file cannot be read at all: then the next call is None).
                let skip = r.last_skip();
                let source = match skip {
                    Some(skip) => format!("{path}#{}", skip.from),
                    None => path.to_string(),
                };
                let message = damage_message(&e, skip);
                items.push(Item::Failed(Box::new(failed_record(job, &source, &message))));
            }
            Some(Ok(record)) => {
                let source = format!("{path}#{}", record.offset);
                match select(record, max_bytes) {
                    Selected::Skipped(_) => {}
                    selected => items.push(Item::Selected { source, selected }),
                }
            }
        }
    }
    items
}
