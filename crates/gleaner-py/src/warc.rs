//! `gleaner.iter_warc`: the HTML pages of a WARC file, extracted, one
//! record at a time, streamed: `Engine::run(ArchiveSource, channel)` on
//! a thread of its own, every core extracting, and the records handed
//! to Python through a bounded channel (the archive is read a window of
//! records ahead, never whole; the GIL is released while Python waits).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};

use gleaner_batch::{Engine, Flow, Record, Sink};
use gleaner_warc::{ArchiveSource, ArchiveTag, WarcReader};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::Settings;

/// Records extracted ahead of Python at most.
const AHEAD: usize = 64;

/// The extracted records of a WARC file's HTML responses, as JSON (the
/// Python side decodes them): `url` and `date` from the WARC headers, the
/// keys of `gleaner warc` otherwise. Revisits, requests, metadata and
/// non-HTML responses are skipped; a record that cannot be read is a
/// record with `error`, and so is each damaged stretch of the archive,
/// after which reading goes on at the next intact record.
#[pyclass(module = "gleaner._gleaner")]
pub struct WarcRecords {
    /// The engine's records as JSON; `None` once they are all read. (A
    /// `Mutex` makes the receiver `Sync`, as a Python object must be;
    /// `__next__` holds `&mut self` and never locks it.)
    records: Option<Mutex<mpsc::Receiver<String>>>,
}

#[pymethods]
impl WarcRecords {
    #[new]
    #[pyo3(signature = (path, spec="{}"))]
    fn new(path: String, spec: &str) -> PyResult<Self> {
        let settings = Settings::new(spec, None)?;
        // An archive that cannot be opened is an OSError now, not a
        // record later.
        let file = File::open(&path).map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
        WarcReader::new(BufReader::with_capacity(1 << 16, file))
            .map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
        let (send, records) = mpsc::sync_channel(AHEAD);
        let files = [PathBuf::from(&path)];
        std::thread::Builder::new()
            .name("gleaner-iter-warc".into())
            .spawn(move || {
                let engine = Engine::on_global_pool(&settings.job);
                let source = ArchiveSource::new(&files, settings.job.parse().max_bytes);
                let mut sink = Channel { settings: &settings, send };
                match source.items() {
                    Ok(items) => {
                        // Errors are records; a sink that stops is Python
                        // dropping the iterator.
                        let _ = engine.run(items, &mut sink);
                    }
                    Err(e) => {
                        let failed = gleaner_warc::failed_record(
                            &settings.job,
                            &path,
                            &format!("cannot read: {e}"),
                        );
                        let _ = sink.send.send(settings.json(&failed));
                    }
                }
            })
            .map_err(|e| PyOSError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(WarcRecords { records: Some(Mutex::new(records)) })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<String> {
        let records = self.records.as_mut()?.get_mut().ok()?;
        let next = py.detach(move || records.recv().ok());
        if next.is_none() {
            self.records = None;
        }
        next
    }
}

/// The engine's sink for Python: each record as JSON into the channel,
/// in archive order.
struct Channel<'a> {
    settings: &'a Settings,
    send: mpsc::SyncSender<String>,
}

impl Sink<ArchiveTag> for Channel<'_> {
    fn write(
        &mut self,
        _: Option<ArchiveTag>,
        record: Option<Record>,
    ) -> gleaner_batch::Result<Flow> {
        let Some(record) = record else { return Ok(Flow::Continue) };
        let json = self.settings.json(&crate::python_words(record));
        Ok(if self.send.send(json).is_ok() { Flow::Continue } else { Flow::Stop })
    }
}
