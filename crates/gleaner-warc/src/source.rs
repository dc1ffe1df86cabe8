//! Archives as a source of the batch engine ([`gleaner_batch::Engine`]):
//! the records of a list of WARC files, read one file after the other on
//! a thread of their own and judged ([`select`]) on the engine's workers.
//!
//! The reader hands on at most 4 × threads records ahead of the engine
//! (a bounded channel), and the engine keeps at most 4 × threads in
//! flight, so at most 8 × threads records are in memory at once, each at
//! most the page limit (plus 64 KiB of HTTP header); records that are
//! not responses are never read into memory.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};

use gleaner_batch::{Job, Record, SiteKey, Unit, Work};

use crate::page::{block_bytes_to_keep, select, Selected};
use crate::read::{RecordOffset, Skip, WarcError, WarcReader, WarcRecord};

/// The records of WARC archives, for [`gleaner_batch::Engine::run`] and
/// [`gleaner_batch::Engine::learn_sites`] (pages grouped by host).
#[derive(Debug, Clone)]
pub struct ArchiveSource {
    /// (index among the batch's archives, path), in reading order.
    files: Vec<(usize, PathBuf)>,
    max_bytes: usize,
    ahead: usize,
}

impl ArchiveSource {
    /// Every archive of `files`, pages of at most `max_bytes`.
    pub fn new(files: &[PathBuf], max_bytes: usize) -> ArchiveSource {
        ArchiveSource::indexed(files.iter().cloned().enumerate().collect(), max_bytes)
    }

    /// Some archives of a batch, each with its index among the batch's
    /// (a resumed run reads the unfinished ones).
    pub fn indexed(files: Vec<(usize, PathBuf)>, max_bytes: usize) -> ArchiveSource {
        ArchiveSource { files, max_bytes, ahead: 64 }
    }

    /// Records read ahead of the engine at most (default 64; the engine's
    /// window, 4 × threads, is a good value).
    pub fn read_ahead(mut self, records: usize) -> ArchiveSource {
        self.ahead = records.max(1);
        self
    }

    /// Starts reading on a thread of its own; the items come as they are
    /// read. Dropping the iterator stops the reader.
    ///
    /// # Errors
    /// The reader thread cannot start.
    pub fn items(self) -> std::io::Result<ArchiveItems> {
        let (send, receive) = mpsc::sync_channel(self.ahead);
        let ArchiveSource { files, max_bytes, .. } = self;
        std::thread::Builder::new()
            .name("gleaner-warc-reader".into())
            .spawn(move || read_archives(&files, max_bytes, &send))?;
        Ok(ArchiveItems { receive })
    }
}

/// The items of an [`ArchiveSource`], in archive order.
#[derive(Debug)]
pub struct ArchiveItems {
    receive: mpsc::Receiver<ArchiveItem>,
}

impl Iterator for ArchiveItems {
    type Item = ArchiveItem;

    fn next(&mut self) -> Option<ArchiveItem> {
        self.receive.recv().ok()
    }
}

/// One thing the reader found: a record, a damaged stretch, an archive's
/// end.
#[derive(Debug)]
pub struct ArchiveItem {
    path: Arc<Path>,
    item: Item,
}

/// What the reader thread hands on.
#[derive(Debug)]
enum Item {
    /// A record of archive `file`; `position`: archive bytes read so far.
    Record { file: usize, record: WarcRecord, position: u64 },
    /// A damaged stretch, skipped: where it starts, why, and how many
    /// bytes it was.
    Damaged { from: RecordOffset, error: String, skipped: u64, position: u64 },
    /// Archive `file` ended (`error`: it could not be opened).
    End { file: usize, error: Option<String>, bytes: u64 },
}

/// What the sink learns of an item besides its record.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ArchiveTag {
    /// An HTML response (extracted, or unreadable when `extracted` is
    /// false); `position`: archive bytes read so far.
    Page {
        /// The response's `WARC-Record-ID`.
        record_id: Option<String>,
        /// Its `WARC-Date`, the capture date.
        capture: Option<String>,
        /// Archive bytes read so far.
        position: u64,
        /// Whether the job extracted it (else the record is its error).
        extracted: bool,
    },
    /// A record that is not a page, of this kind (no record).
    Skipped {
        /// `revisit`, `request`, `non-html`, …
        kind: String,
        /// Archive bytes read so far.
        position: u64,
    },
    /// A damaged stretch of archive (its error is the record).
    Damaged {
        /// Bytes skipped.
        skipped: u64,
        /// Archive bytes read so far.
        position: u64,
    },
    /// Archive `file` ended after `bytes` (the record, if any: it could
    /// not be opened).
    End {
        /// The archive's index in the batch.
        file: usize,
        /// Archive bytes read.
        bytes: u64,
    },
}

impl Work for ArchiveItem {
    type Tag = ArchiveTag;

    fn unit(self, _position: usize, job: &Job) -> Unit<ArchiveTag> {
        let ArchiveItem { path, item } = self;
        match item {
            Item::End { file, error, bytes } => {
                let source = path.display().to_string();
                let record = error.map(|e| failed_record(job, &source, &e));
                Unit::Ready { record, tag: ArchiveTag::End { file, bytes } }
            }
            Item::Damaged { from, error, skipped, position } => {
                let record = failed_record(job, &source_of(&path, from), &error);
                Unit::Ready { record: Some(record), tag: ArchiveTag::Damaged { skipped, position } }
            }
            Item::Record { file, record, position } => {
                let offset = record.offset;
                let source = source_of(&path, offset);
                match select(record, job.parse().max_bytes) {
                    Selected::Skipped(kind) => {
                        Unit::Ready { record: None, tag: ArchiveTag::Skipped { kind, position } }
                    }
                    Selected::Failed { url, date, error } => {
                        let mut failed = failed_record(job, &source, &error);
                        failed.unreadable = false;
                        failed.url = url;
                        failed.date = date;
                        let tag = ArchiveTag::Page {
                            record_id: None,
                            capture: None,
                            position,
                            extracted: false,
                        };
                        Unit::Ready { record: Some(failed), tag }
                    }
                    Selected::Page(page) => {
                        let site = SiteKey {
                            group: host_of(page.url.as_deref()),
                            id: source.clone(),
                            name: format!("{file}#{offset}"),
                        };
                        let tag = ArchiveTag::Page {
                            record_id: page.record_id.clone(),
                            capture: page.date.clone(),
                            position,
                            extracted: true,
                        };
                        let (url, encoding) = (page.url.clone(), page.encoding);
                        let bytes = page.into_body();
                        Unit::Page { source, bytes, url, encoding, site: Some(site), tag }
                    }
                }
            }
        }
    }

    /// A page's `date` is its capture date (`WARC-Date`), and the date the
    /// page gives itself is its `published_date` (null when it gives none).
    fn finish(tag: &ArchiveTag, record: &mut Record) {
        if let ArchiveTag::Page { capture, extracted: true, .. } = tag {
            record.published_date = Some(std::mem::replace(&mut record.date, capture.clone()));
        }
    }
}

/// The host of a page's URL, the group its templates are learned in.
fn host_of(url: Option<&str>) -> String {
    url.and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}

/// The `source` of a record: `FILE#OFFSET`.
fn source_of(path: &Path, offset: RecordOffset) -> String {
    format!("{}#{offset}", path.display())
}

/// A failed record of an archive (a damaged stretch, an unreadable
/// response, an archive that cannot be opened): [`Job::failed_record`]
/// with `published_date` null, the key every WARC record has.
pub fn failed_record(job: &Job, source: &str, error: &str) -> Record {
    let mut record = job.failed_record(source, error);
    record.published_date = Some(None);
    record
}

/// The message of a damaged stretch of an archive: what is wrong and
/// what was skipped (`WarcReader::last_skip`).
pub fn damage_message(error: &WarcError, skip: Option<Skip>) -> String {
    match skip {
        Some(skip) => format!("corrupt or truncated WARC: {error}; {skip}"),
        None => format!("corrupt or truncated WARC: {error}; the rest of the file is not read"),
    }
}

/// Streams the records of `files` into `items` (stops when it is gone).
fn read_archives(
    files: &[(usize, PathBuf)],
    max_bytes: usize,
    items: &mpsc::SyncSender<ArchiveItem>,
) {
    for (file, path) in files {
        let file = *file;
        let shared: Arc<Path> = Arc::from(path.as_path());
        let send = |item: Item| items.send(ArchiveItem { path: Arc::clone(&shared), item }).is_ok();
        let opened = File::open(path)
            .map_err(WarcError::from)
            .and_then(|f| WarcReader::new(BufReader::with_capacity(1 << 16, f)));
        let mut reader = match opened {
            Ok(r) => r,
            Err(e) => {
                let error = Some(format!("cannot open: {e}"));
                if !send(Item::End { file, error, bytes: 0 }) {
                    return;
                }
                continue;
            }
        };
        while let Some(read) = reader.next_record(|h| block_bytes_to_keep(h, max_bytes)) {
            let position = reader.file_position();
            let item = match read {
                Ok(record) => Item::Record { file, record, position },
                Err(e) => {
                    let skip = reader.last_skip();
                    let from = skip.map_or(RecordOffset { file: position, within: 0 }, |s| s.from);
                    let skipped = skip.map_or(0, |s| s.bytes);
                    let error = damage_message(&e, skip);
                    Item::Damaged { from, error, skipped, position }
                }
            };
            if !send(item) {
                return;
            }
        }
        let bytes = reader.file_position();
        if !send(Item::End { file, error: None, bytes }) {
            return;
        }
    }
}
