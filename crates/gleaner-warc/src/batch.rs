//! WARC archives through a [`Job`]: every HTML `response` record of a list
//! of archives (shards) extracted in parallel, in archive order, into JSON
//! Lines or a WARC of `conversion` records — streamed, resumable.
//!
//! A reader thread streams the archives one after the other
//! ([`WarcReader`]); records are selected ([`select`]) and extracted on a
//! worker pool through [`gleaner_batch::ordered`], whose window of
//! 4 × threads records in flight spans the end of one archive and the
//! start of the next; the writer gets them back in order. With the
//! reader's queue of another 4 × threads records, at most 8 × threads
//! records are in memory at once, each at most the page limit (plus
//! 64 KiB of HTTP header); records that are not responses are never read
//! into memory.
//!
//! # Resume
//! With an output file, each finished shard ends a compression member
//! (gzip) or frame (zstd) of the output, the output is synced to disk,
//! and the manifest `OUT.manifest.json` — every finished shard with the
//! output length after it — is replaced atomically (written beside it,
//! synced, renamed). A run killed at any point leaves a manifest that
//! describes a prefix of the output; `resume` truncates the output to the
//! manifest's length, which drops the unfinished shard's records, and
//! skips the shards it lists. So no record is lost or written twice.
//! Before that, the output's first bytes are checked against the length
//! and SHA-1 the manifest lists for them, and the options the manifest
//! was written with against this run's: a resume over an output that is
//! missing, shorter or changed, or with other options, is refused
//! ([`WarcBatchError::Manifest`]), and the output is never made longer.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use gleaner::template::{PageSummary, SiteOptions, SiteTemplates};
use gleaner::Document;
use gleaner_batch::{Flow, Job, OutputFormat, Page, Record};
use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use crate::page::{block_bytes_to_keep, select, Selected, WarcPage};
use crate::read::{RecordOffset, Skip, WarcError, WarcReader, WarcRecord};
use crate::write::{self, warc_date, Head};

/// What a WARC batch writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarcOutputFormat {
    /// One JSON object per record per line (the `extract` record keys
    /// plus `url` and `date`).
    Jsonl,
    /// A WARC of `conversion` records holding the extracted text.
    Warc,
}

/// How the output is compressed, by its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    fn of(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("gz") => Compression::Gzip,
            Some("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }
}

/// What went wrong around a WARC batch (not with one record: that is the
/// record's `error`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarcBatchError {
    /// Writing the output or the manifest failed.
    #[error("cannot write {}: {cause}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: io::Error,
    },
    /// Writing to standard output failed (a reader that went away:
    /// [`WarcBatchError::is_broken_pipe`]).
    #[error(transparent)]
    Stdout(io::Error),
    /// The manifest to resume from does not match this run.
    #[error("cannot resume from {}: {reason}", path.display())]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The batch machinery failed (the worker pool cannot start).
    #[error(transparent)]
    Batch(#[from] gleaner_batch::Error),
}

impl WarcBatchError {
    /// Is this a write to a closed pipe (`gleaner warc … | head`)?
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            WarcBatchError::Stdout(e) => e.kind() == io::ErrorKind::BrokenPipe,
            WarcBatchError::Batch(e) => e.is_broken_pipe(),
            _ => false,
        }
    }
}

/// The options of a WARC batch.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WarcOptions {
    /// Output format.
    pub format: WarcOutputFormat,
    /// The output file (`.gz` or `.zst` compresses); `None` writes to
    /// standard output, uncompressed, without a manifest.
    pub output: Option<PathBuf>,
    /// Skip the shards the output's manifest lists as finished.
    pub resume: bool,
    /// Largest page, in bytes, after decoding.
    pub max_bytes: usize,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Every option that changes the output, by name (`--text-format` →
    /// `markdown`): written to the manifest, and a resumed run with other
    /// values is refused, so that one output never mixes two settings.
    pub settings: BTreeMap<String, String>,
}

impl WarcOptions {
    /// JSON Lines to standard output, 64 MiB pages, one thread per core.
    pub fn new(format: WarcOutputFormat) -> WarcOptions {
        WarcOptions {
            format,
            output: None,
            resume: false,
            max_bytes: 64 << 20,
            threads: 0,
            settings: BTreeMap::new(),
        }
    }

    /// Writes to `path` (with a manifest) instead of standard output.
    pub fn output(mut self, path: Option<PathBuf>) -> WarcOptions {
        self.output = path;
        self
    }

    /// Resumes from the output's manifest.
    pub fn resume(mut self, yes: bool) -> WarcOptions {
        self.resume = yes;
        self
    }

    /// The page size limit.
    pub fn max_bytes(mut self, bytes: usize) -> WarcOptions {
        self.max_bytes = bytes;
        self
    }

    /// Worker threads.
    pub fn threads(mut self, threads: usize) -> WarcOptions {
        self.threads = threads;
        self
    }

    /// The options that change the output (see [`WarcOptions::settings`]).
    pub fn settings(mut self, settings: BTreeMap<String, String>) -> WarcOptions {
        self.settings = settings;
        self
    }
}

/// What a WARC batch did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WarcTotals {
    /// Archives read in this run.
    pub files: usize,
    /// Archives skipped because the manifest lists them as finished.
    pub files_resumed: usize,
    /// Archives that could not be opened, or had damaged stretches
    /// (skipped: see [`WarcTotals::skipped_bytes`]).
    pub files_failed: usize,
    /// WARC records read.
    pub records: usize,
    /// HTML records extracted without error.
    pub extracted: usize,
    /// Records written with an `error` (pages that failed, archives that
    /// failed).
    pub failed: usize,
    /// Records skipped, by kind (`revisit`, `request`, `non-html`, …).
    pub skipped: BTreeMap<String, usize>,
    /// Bytes of damaged archive skipped to find the next record (see
    /// [`crate::Skip`]).
    pub skipped_bytes: u64,
    /// Archive bytes read (compressed, as on disk).
    pub input_bytes: u64,
    /// Page bytes extracted (decoded HTML).
    pub page_bytes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl WarcTotals {
    /// Archive throughput in megabytes (10⁶ bytes) per second.
    pub fn megabytes_per_second(&self) -> f64 {
        self.input_bytes as f64 / 1e6 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// HTML throughput (decoded pages extracted) in megabytes per second.
    pub fn html_megabytes_per_second(&self) -> f64 {
        self.page_bytes as f64 / 1e6 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// What the batch tells its front end as it goes.
#[derive(Debug)]
#[non_exhaustive]
pub enum WarcEvent<'a> {
    /// Archive bytes read so far, over every archive of this run.
    Progress(u64),
    /// A record (or an archive) failed: its source and why.
    Failed(&'a str, &'a str),
}

/// One shard finished, as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ShardEntry {
    input: String,
    input_bytes: u64,
    records: usize,
    extracted: usize,
    failed: usize,
    skipped: usize,
    /// Bytes of damaged archive skipped.
    #[serde(default)]
    skipped_bytes: u64,
    /// The output's length after this shard.
    output_end: u64,
    /// SHA-1 (hex) of the output's first `output_end` bytes: a resumed run
    /// reads them back and goes on only when they are what was written.
    #[serde(default)]
    output_sha1: String,
}

/// The manifest of an output: the options it was written with and the
/// shards finished, in output order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Manifest {
    format: WarcOutputFormat,
    algorithm: String,
    /// Every option that changes the output ([`WarcOptions::settings`]).
    #[serde(default)]
    options: BTreeMap<String, String>,
    shards: Vec<ShardEntry>,
}

/// The manifest's path for an output: `OUT.manifest.json`.
pub fn manifest_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".manifest.json");
    PathBuf::from(name)
}

/// The template models of a collection, one set per host (of
/// `WARC-Target-URI`), and which page of its host each page is.
#[derive(Debug, Default)]
pub struct HostTemplates {
    hosts: HashMap<String, SiteTemplates>,
    /// (archive, record offset) → (host, index among its host's pages).
    pages: HashMap<(usize, u64, u64), (String, usize)>,
}

impl HostTemplates {
    /// Hosts with at least one page.
    pub fn hosts(&self) -> usize {
        self.hosts.len()
    }

    /// Template clusters over every host, and how many have a model.
    pub fn clusters(&self) -> (usize, usize) {
        self.hosts.values().fold((0, 0), |(all, with), site| {
            (all + site.sizes.len(), with + site.models.iter().filter(|m| m.is_some()).count())
        })
    }

    fn of(&self, file: usize, offset: RecordOffset) -> Option<(&SiteTemplates, usize)> {
        let (host, index) = self.pages.get(&(file, offset.file, offset.within))?;
        Some((self.hosts.get(host)?, *index))
    }
}

/// The host of a page's URL, the key of its template set.
fn host_of(url: Option<&str>) -> String {
    url.and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .unwrap_or_default()
}

/// What the reader thread hands on.
enum Item {
    /// A record of archive `file`; `position`: archive bytes read so far.
    Record { file: usize, record: WarcRecord, position: u64 },
    /// A damaged stretch of archive `file`, skipped: where it starts, why,
    /// and how many bytes it was.
    Damaged { file: usize, from: RecordOffset, error: String, skipped: u64, position: u64 },
    /// Archive `file` ended (`error`: it could not be opened).
    End { file: usize, error: Option<String>, bytes: u64 },
}

/// The message of a damaged stretch of an archive: what is wrong and
/// what was skipped (`WarcReader::last_skip`). Shared by [`run_warc`] and
/// the Python package's `iter_warc`.
pub fn damage_message(error: &WarcError, skip: Option<Skip>) -> String {
    match skip {
        Some(skip) => format!("corrupt or truncated WARC: {error}; {skip}"),
        None => format!("corrupt or truncated WARC: {error}; the rest of the file is not read"),
    }
}

/// Streams the records of `files` into `items` (stops when it is gone).
fn read_archives(files: &[(usize, PathBuf)], max_bytes: usize, items: &mpsc::SyncSender<Item>) {
    for (file, path) in files {
        let file = *file;
        let opened = File::open(path)
            .map_err(WarcError::from)
            .and_then(|f| WarcReader::new(BufReader::with_capacity(1 << 16, f)));
        let mut reader = match opened {
            Ok(r) => r,
            Err(e) => {
                let error = Some(format!("cannot open: {e}"));
                if items.send(Item::End { file, error, bytes: 0 }).is_err() {
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
                    Item::Damaged { file, from, error, skipped, position }
                }
            };
            if items.send(item).is_err() {
                return;
            }
        }
        let bytes = reader.file_position();
        if items.send(Item::End { file, error: None, bytes }).is_err() {
            return;
        }
    }
}

/// Runs `process` over the records of `files` (archive index, path) on
/// `threads` workers and hands the results to `each` in archive order.
fn stream_archives<R: Send>(
    files: &[(usize, PathBuf)],
    max_bytes: usize,
    threads: usize,
    process: impl Fn(Item) -> R + Sync,
    panicked: impl Fn(String) -> R + Sync,
    each: impl FnMut(R) -> gleaner_batch::Result<Flow>,
) -> gleaner_batch::Result<()> {
    let mut each = each;
    let threads = gleaner_batch::worker_threads(threads).0;
    let (send, receive) = mpsc::sync_channel(threads * 4);
    std::thread::scope(|scope| {
        scope.spawn(move || read_archives(files, max_bytes, &send));
        let outcome = gleaner_batch::ordered(
            receive.iter(),
            threads,
            |_, item| process(item),
            |_, what| panicked(what),
            |_, result| each(result),
        );
        // Dropping the receiver stops the reader if the batch stopped early.
        drop(receive);
        outcome
    })
}

/// The path of archive `file`.
fn path_of(files: &[PathBuf], file: usize) -> &Path {
    files.get(file).map_or(Path::new(""), PathBuf::as_path)
}

/// The `source` of a record: `FILE#OFFSET`.
fn source_of(path: &Path, offset: RecordOffset) -> String {
    format!("{}#{offset}", path.display())
}

/// Reads every archive once and learns the template models of each host
/// (Gottron's clusters per host, as `extract --site-templates` does for
/// a folder). Keeps one [`PageSummary`] per page in memory until the
/// models are learned.
///
/// # Errors
/// The worker pool cannot start.
pub fn learn_host_templates(
    files: &[PathBuf],
    job: &Job,
    options: &SiteOptions,
    max_bytes: usize,
    threads: usize,
) -> Result<HostTemplates, WarcBatchError> {
    let indexed: Vec<(usize, PathBuf)> = files.iter().cloned().enumerate().collect();
    type Summary = Option<(usize, RecordOffset, String, Option<PageSummary>)>;
    let summarize = |item: Item| -> Summary {
        let Item::Record { file, record, .. } = item else { return None };
        let offset = record.offset;
        let Selected::Page(page) = select(record, max_bytes) else { return None };
        let host = host_of(page.url.as_deref());
        let parse = batch_page(&page, "").parse_options(job.parse());
        let summary =
            Document::parse(page.body(), &parse).ok().map(|d| PageSummary::of(&d, options));
        Some((file, offset, host, summary))
    };
    let mut by_host: HashMap<String, (Vec<Option<PageSummary>>, Vec<String>)> = HashMap::new();
    let mut templates = HostTemplates::default();
    stream_archives(
        &indexed,
        max_bytes,
        threads,
        summarize,
        |_| None,
        |summary| {
            if let Some((file, offset, host, summary)) = summary {
                let (summaries, names) = by_host.entry(host.clone()).or_default();
                templates.pages.insert((file, offset.file, offset.within), (host, summaries.len()));
                summaries.push(summary);
                names.push(format!("{file}#{offset}"));
            }
            Ok(Flow::Continue)
        },
    )?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(gleaner_batch::worker_threads(threads).0)
        .build()
        .map_err(|e| gleaner_batch::Error::Io(io::Error::other(e.to_string())))?;
    let learned: Vec<(String, SiteTemplates)> = pool.install(|| {
        use rayon::prelude::*;
        by_host
            .into_par_iter()
            .map(|(host, (summaries, names))| {
                let site = SiteTemplates::learn(&summaries, &names, options);
                (host, site)
            })
            .collect()
    });
    templates.hosts = learned.into_iter().collect();
    Ok(templates)
}

/// The batch's view of a page.
fn batch_page<'a>(page: &'a WarcPage, source: &'a str) -> Page<'a> {
    Page { source, bytes: page.body(), url: page.url.as_deref(), encoding: page.encoding }
}

/// A failed record of `gleaner warc` (a damaged stretch, an unreadable
/// response, an archive that ends early): [`Job::failed_record`] with
/// `published_date` null, the key every WARC record has.
pub fn failed_record(job: &Job, source: &str, error: &str) -> Record {
    let mut record = job.failed_record(source, error);
    record.published_date = Some(None);
    record
}

/// The record of a WARC record that [`select`] judged, named `source`
/// (`FILE#OFFSET`), and the source record's id: a page extracted with
/// `templates` (`url` from `WARC-Target-URI`; `date` the capture date,
/// `WARC-Date`, and the page's own date in `published_date`, null when it
/// gives none), or a response that could not be read as a failed record.
/// `Err` with the kind for a record that is not a page. Shared by [`run_warc`] and the
/// Python package's `iter_warc`.
pub fn page_record(
    job: &Job,
    source: &str,
    selected: Selected,
    templates: Option<(&SiteTemplates, usize)>,
) -> Result<(Record, Option<String>), String> {
    match selected {
        Selected::Skipped(kind) => Err(kind),
        Selected::Failed { url, date, error } => {
            let mut failed = failed_record(job, source, &error);
            failed.unreadable = false;
            failed.url = url;
            failed.date = date;
            Ok((failed, None))
        }
        Selected::Page(page) => {
            let mut out = job.record_for_page(&batch_page(&page, source), templates);
            out.published_date = Some(std::mem::replace(&mut out.date, page.date));
            Ok((out, page.record_id))
        }
    }
}

/// What became of one item.
enum Outcome {
    /// A page's record, with the source record's id.
    Page { record: Box<Record>, record_id: Option<String>, position: u64 },
    /// A record that is not a page.
    Skipped { kind: String, position: u64 },
    /// A damaged stretch of an archive (its error as a record), and the
    /// bytes skipped.
    Damaged { record: Box<Record>, skipped: u64, position: u64 },
    /// An archive ended (the error of one that could not be opened as a
    /// record).
    End { file: usize, error: Option<Box<Record>>, bytes: u64 },
    /// The worker panicked outside the job's own guard.
    Panicked(String),
}

/// The output stream: one compression member (gzip) or frame (zstd) at
/// a time over a counted writer.
enum Member<W: Write> {
    Idle(W),
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
    Zstd(zstd::stream::write::Encoder<'static, W>),
    Broken,
}

impl<W: Write> Member<W> {
    fn write(&mut self, compression: Compression, bytes: &[u8]) -> io::Result<()> {
        if let Member::Idle(_) = self {
            let Member::Idle(w) = std::mem::replace(self, Member::Broken) else {
                return Err(io::Error::other("output in a bad state"));
            };
            *self = match compression {
                Compression::None => Member::Plain(w),
                Compression::Gzip => {
                    Member::Gzip(flate2::write::GzEncoder::new(w, flate2::Compression::default()))
                }
                Compression::Zstd => Member::Zstd(zstd::stream::write::Encoder::new(w, 3)?),
            };
        }
        match self {
            Member::Plain(w) => w.write_all(bytes),
            Member::Gzip(w) => w.write_all(bytes),
            Member::Zstd(w) => w.write_all(bytes),
            Member::Idle(_) | Member::Broken => Err(io::Error::other("output in a bad state")),
        }
    }

    /// Ends the member and flushes; the writer is idle after.
    fn end(&mut self) -> io::Result<&mut W> {
        let w = match std::mem::replace(self, Member::Broken) {
            Member::Idle(w) | Member::Plain(w) => w,
            Member::Gzip(e) => e.finish()?,
            Member::Zstd(e) => e.finish()?,
            Member::Broken => return Err(io::Error::other("output in a bad state")),
        };
        *self = Member::Idle(w);
        match self {
            Member::Idle(w) => {
                w.flush()?;
                Ok(w)
            }
            _ => Err(io::Error::other("output in a bad state")),
        }
    }
}

/// Where records go.
enum Destination {
    Stdout(Member<BufWriter<io::Stdout>>),
    File { path: PathBuf, member: Box<Member<BufWriter<Hashed>>>, manifest: Manifest },
}

struct Writer {
    to: Destination,
    format: WarcOutputFormat,
    compression: Compression,
}

impl Writer {
    fn write(&mut self, bytes: &[u8]) -> Result<(), WarcBatchError> {
        let compression = self.compression;
        match &mut self.to {
            Destination::Stdout(m) => {
                m.write(compression, bytes).map_err(WarcBatchError::Stdout)?;
                // A reader downstream sees whole records as they come.
                if compression == Compression::None {
                    m.end().map_err(WarcBatchError::Stdout)?;
                }
                Ok(())
            }
            Destination::File { path, member, .. } => member
                .write(compression, bytes)
                .map_err(|cause| WarcBatchError::Write { path: path.clone(), cause }),
        }
    }

    /// Ends a compression member (a WARC record in `.warc.gz`).
    fn end_member(&mut self) -> Result<(), WarcBatchError> {
        match &mut self.to {
            Destination::Stdout(m) => m.end().map(|_| ()).map_err(WarcBatchError::Stdout),
            Destination::File { path, member, .. } => member
                .end()
                .map(|_| ())
                .map_err(|cause| WarcBatchError::Write { path: path.clone(), cause }),
        }
    }

    /// Ends a shard: the member ends, the output is synced, and the
    /// manifest that lists it replaces the old one.
    fn end_shard(&mut self, mut shard: ShardEntry) -> Result<(), WarcBatchError> {
        match &mut self.to {
            Destination::Stdout(m) => m.end().map(|_| ()).map_err(WarcBatchError::Stdout),
            Destination::File { path, member, manifest } => {
                let failed = |cause| WarcBatchError::Write { path: path.clone(), cause };
                let out = member.end().map_err(failed)?.get_mut();
                shard.output_end = out.written;
                shard.output_sha1 = out.digest();
                out.file.sync_data().map_err(failed)?;
                manifest.shards.push(shard);
                write_manifest(path, manifest)
            }
        }
    }
}

/// Replaces the manifest atomically: a synced temporary file renamed over it.
fn write_manifest(output: &Path, manifest: &Manifest) -> Result<(), WarcBatchError> {
    let path = manifest_path(output);
    let failed = |cause| WarcBatchError::Write { path: path.clone(), cause };
    let mut temp = path.clone().into_os_string();
    temp.push(format!(".{}.tmp", std::process::id()));
    let temp = PathBuf::from(temp);
    let json = serde_json::to_vec_pretty(manifest).map_err(|e| failed(io::Error::other(e)))?;
    let written = File::create(&temp)
        .and_then(|mut f| f.write_all(&json).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&temp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map_err(failed)
}

/// The output file, with the SHA-1 and length of everything written to it.
struct Hashed {
    file: File,
    sha: Sha1,
    written: u64,
}

impl Hashed {
    /// The SHA-1 of the bytes written so far, in hex.
    fn digest(&self) -> String {
        data_encoding::HEXLOWER.encode(&self.sha.clone().finalize())
    }
}

impl Write for Hashed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.sha.update(buf.get(..n).unwrap_or_default());
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// The name of an output format in messages.
fn format_name(format: WarcOutputFormat) -> &'static str {
    match format {
        WarcOutputFormat::Jsonl => "jsonl",
        WarcOutputFormat::Warc => "warc",
    }
}

/// The manifest to resume from, checked against this run's options.
fn read_manifest(
    manifest_file: &Path,
    options: &WarcOptions,
    algorithm: &str,
) -> Result<Manifest, WarcBatchError> {
    let bad =
        |reason: String| WarcBatchError::Manifest { path: manifest_file.to_path_buf(), reason };
    let text = std::fs::read(manifest_file).map_err(|e| bad(e.to_string()))?;
    let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
    if manifest.format != options.format || manifest.algorithm != algorithm {
        return Err(bad(format!(
            "it was written for {} output by {}; remove it (and the output) or run with the \
             same --output-format and --algorithm",
            format_name(manifest.format),
            manifest.algorithm
        )));
    }
    if manifest.options.is_empty() && !options.settings.is_empty() {
        return Err(bad("an older gleaner wrote it, without the options and checksums a resume \
             checks; remove it and the output to start afresh"
            .into()));
    }
    let names: std::collections::BTreeSet<&String> =
        manifest.options.keys().chain(options.settings.keys()).collect();
    for name in names {
        let (then, now) = (manifest.options.get(name), options.settings.get(name));
        if then != now {
            let shown = |v: Option<&String>| v.map_or("(not set)".to_string(), |v| v.clone());
            return Err(bad(format!(
                "it was started with {name} {}, and this run has {name} {}: one output must not \
                 mix the two; run with the same options, or remove the output and its manifest \
                 to start afresh",
                shown(then),
                shown(now)
            )));
        }
    }
    Ok(manifest)
}

/// Opens the output of a resumed run: checks that its first bytes are
/// those the manifest vouches for (the length and the SHA-1 of the last
/// finished shard), then cuts off what an interrupted run wrote after
/// them. Never makes the file longer.
fn reopen_output(path: &Path, manifest: &Manifest) -> Result<Hashed, WarcBatchError> {
    let failed = |cause| WarcBatchError::Write { path: path.to_path_buf(), cause };
    let refuse = |reason: String| WarcBatchError::Manifest { path: manifest_path(path), reason };
    let (end, digest) = manifest
        .shards
        .last()
        .map_or((0, String::new()), |s| (s.output_end, s.output_sha1.clone()));
    let finished = manifest.shards.len();
    let open = std::fs::OpenOptions::new().read(true).write(true).create(finished == 0).open(path);
    let mut file = match open {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(refuse(format!(
                "{} is missing, but the manifest lists {finished} finished archives in it; remove \
                 the manifest to start afresh",
                path.display()
            )))
        }
        Err(e) => return Err(failed(e)),
    };
    let len = file.metadata().map_err(failed)?.len();
    if len < end {
        return Err(refuse(format!(
            "{} is {len} bytes, shorter than the {end} bytes the manifest lists as written: it was \
             cut or replaced since; remove it and the manifest to start afresh",
            path.display()
        )));
    }
    if finished > 0 && digest.is_empty() {
        return Err(refuse(
            "it has no checksum of the output (an older gleaner wrote it), so the output cannot \
             be checked; remove it and the output to start afresh"
                .into(),
        ));
    }
    let mut sha = Sha1::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut left = end;
    while left > 0 {
        let want = usize::try_from(left.min(buf.len() as u64)).unwrap_or(buf.len());
        let chunk = buf.get_mut(..want).unwrap_or_default();
        file.read_exact(chunk).map_err(failed)?;
        sha.update(&*chunk);
        left -= want as u64;
    }
    let hashed = Hashed { file, sha, written: end };
    if finished > 0 && hashed.digest() != digest {
        return Err(refuse(format!(
            "the first {end} bytes of {} are not those the manifest lists as written (their \
             SHA-1 differs): the output was changed since; remove it and the manifest to start \
             afresh",
            path.display()
        )));
    }
    let Hashed { file, sha, written } = hashed;
    // Step: drop whatever an interrupted run wrote after the last
    // finished shard (only ever shorter: `end` <= `len`), then append.
    file.set_len(end).map_err(failed)?;
    let mut file = file;
    file.seek(io::SeekFrom::Start(end)).map_err(failed)?;
    Ok(Hashed { file, sha, written })
}

/// Opens the output: fresh, or after the shards of its manifest.
fn open_output(
    options: &WarcOptions,
    algorithm: &str,
) -> Result<(Writer, Vec<ShardEntry>), WarcBatchError> {
    let Some(path) = &options.output else {
        let to = Destination::Stdout(Member::Idle(BufWriter::new(io::stdout())));
        return Ok((Writer { to, format: options.format, compression: Compression::None }, vec![]));
    };
    let compression = Compression::of(path);
    let manifest_file = manifest_path(path);
    let failed = |cause| WarcBatchError::Write { path: path.clone(), cause };
    let (manifest, file) = if options.resume && manifest_file.exists() {
        let manifest = read_manifest(&manifest_file, options, algorithm)?;
        let file = reopen_output(path, &manifest)?;
        (manifest, file)
    } else {
        let manifest = Manifest {
            format: options.format,
            algorithm: algorithm.to_string(),
            options: options.settings.clone(),
            shards: vec![],
        };
        let file = File::create(path).map_err(failed)?;
        (manifest, Hashed { file, sha: Sha1::new(), written: 0 })
    };
    let file = BufWriter::with_capacity(1 << 16, file);
    let done = manifest.shards.clone();
    write_manifest(path, &manifest)?;
    let member = Box::new(Member::Idle(file));
    let to = Destination::File { path: path.clone(), member, manifest };
    Ok((Writer { to, format: options.format, compression }, done))
}

/// Extracts every HTML record of the archives `files` with `job` into the
/// output of `options` (see the module docs), telling `events` how it
/// goes. With `site`, each page is extracted with its host's template
/// model ([`learn_host_templates`]). A record that fails is a record
/// with `error`; an archive that cannot be opened is one record with
/// `error`, and so is each damaged stretch of an archive (source
/// `FILE#OFFSET` of the stretch, [`damage_message`]), after which the
/// archive is read on at its next intact record; the batch goes on.
///
/// # Errors
/// The output or manifest cannot be written, the manifest to resume from
/// does not fit, or the worker pool cannot start.
pub fn run_warc(
    files: &[PathBuf],
    job: &Job,
    site: Option<&HostTemplates>,
    options: &WarcOptions,
    mut events: impl FnMut(WarcEvent<'_>),
) -> Result<WarcTotals, WarcBatchError> {
    let started = Instant::now();
    let run_date = warc_date(std::time::SystemTime::now());
    let algorithm = job.algorithm().to_string();
    let (mut writer, done) = open_output(options, &algorithm)?;
    let mut totals = WarcTotals::default();
    let sizes: Vec<u64> =
        files.iter().map(|p| std::fs::metadata(p).map_or(0, |m| m.len())).collect();
    let mut todo: Vec<(usize, PathBuf)> = Vec::new();
    for (k, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let Some(shard) = done.iter().find(|s| s.input == name) else {
            todo.push((k, path.clone()));
            continue;
        };
        let size = sizes.get(k).copied().unwrap_or(0);
        if shard.input_bytes != size {
            return Err(WarcBatchError::Manifest {
                path: options.output.as_deref().map(manifest_path).unwrap_or_default(),
                reason: format!(
                    "{name} was {} bytes when it was extracted and is {size} bytes now",
                    shard.input_bytes
                ),
            });
        }
        totals.files_resumed += 1;
    }
    let max_bytes = options.max_bytes;
    let text_in_rendered = matches!(job.format(), OutputFormat::Markdown | OutputFormat::Html);
    // Txt renders only with a metadata header or comments found (`gleaner
    // warc -f warc --with-metadata`); otherwise `text` is the plain text.
    let txt_rendered = job.format() == OutputFormat::Txt;
    let process = |item: Item| match item {
        Item::End { file, error, bytes } => {
            let error = error.map(|e| {
                let source = path_of(files, file).display().to_string();
                Box::new(failed_record(job, &source, &e))
            });
            Outcome::End { file, error, bytes }
        }
        Item::Damaged { file, from, error, skipped, position } => {
            let source = source_of(path_of(files, file), from);
            let record = Box::new(failed_record(job, &source, &error));
            Outcome::Damaged { record, skipped, position }
        }
        Item::Record { file, record, position } => {
            let source = source_of(path_of(files, file), record.offset);
            let templates = site.and_then(|s| s.of(file, record.offset));
            match page_record(job, &source, select(record, max_bytes), templates) {
                Err(kind) => Outcome::Skipped { kind, position },
                Ok((mut out, record_id)) => {
                    if text_in_rendered || (txt_rendered && !out.rendered.is_empty()) {
                        out.text = std::mem::take(&mut out.rendered);
                    }
                    Outcome::Page { record: Box::new(out), record_id, position }
                }
            }
        }
    };
    let mut before = 0u64; // archive bytes of the shards finished this run
    let mut shard = Shard::default();
    let mut failure: Option<WarcBatchError> = None;
    if writer.format == WarcOutputFormat::Warc && done.is_empty() {
        writer.write(&warcinfo(&run_date))?;
        writer.end_member()?;
    }
    let ran = stream_archives(&todo, max_bytes, options.threads, process, Outcome::Panicked, |o| {
        let step = (|| -> Result<(), WarcBatchError> {
            match o {
                Outcome::Skipped { kind, position } => {
                    shard.records += 1;
                    shard.skipped += 1;
                    *totals.skipped.entry(kind).or_default() += 1;
                    events(WarcEvent::Progress(before + position));
                }
                Outcome::Page { record, record_id, position } => {
                    shard.records += 1;
                    if let Some(e) = &record.error {
                        shard.failed += 1;
                        events(WarcEvent::Failed(&record.source, e));
                    } else {
                        shard.extracted += 1;
                        totals.page_bytes += record.bytes as u64;
                    }
                    write_record(&mut writer, &record, record_id.as_deref(), &run_date)?;
                    events(WarcEvent::Progress(before + position));
                }
                Outcome::Damaged { record, skipped, position } => {
                    shard.failed += 1;
                    shard.damaged += 1;
                    shard.skipped_bytes += skipped;
                    events(WarcEvent::Failed(
                        &record.source,
                        record.error.as_deref().unwrap_or(""),
                    ));
                    write_record(&mut writer, &record, None, &run_date)?;
                    events(WarcEvent::Progress(before + position));
                }
                Outcome::End { file, error, bytes } => {
                    totals.files += 1;
                    if shard.damaged > 0 {
                        totals.files_failed += 1;
                    }
                    totals.skipped_bytes += shard.skipped_bytes;
                    if let Some(record) = error {
                        totals.files_failed += 1;
                        shard.failed += 1;
                        events(WarcEvent::Failed(
                            &record.source,
                            record.error.as_deref().unwrap_or(""),
                        ));
                        write_record(&mut writer, &record, None, &run_date)?;
                    }
                    let size = sizes.get(file).copied().unwrap_or(bytes);
                    before += size.max(bytes);
                    totals.input_bytes += size.max(bytes);
                    totals.records += shard.records;
                    totals.extracted += shard.extracted;
                    totals.failed += shard.failed;
                    let entry = shard.entry(path_of(files, file), size);
                    shard = Shard::default();
                    writer.end_shard(entry)?;
                    events(WarcEvent::Progress(before));
                }
                Outcome::Panicked(what) => {
                    let source = "(unknown record)";
                    let error = format!("internal error, please report it: {what}");
                    events(WarcEvent::Failed(source, &error));
                    shard.failed += 1;
                    let failed = failed_record(job, source, &error);
                    write_record(&mut writer, &failed, None, &run_date)?;
                }
            }
            Ok(())
        })();
        match step {
            Ok(()) => Ok(Flow::Continue),
            Err(e) => {
                failure = Some(e);
                Ok(Flow::Stop)
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    ran?;
    totals.elapsed = started.elapsed();
    Ok(totals)
}

/// Counts of the shard being written.
#[derive(Debug, Default)]
struct Shard {
    records: usize,
    extracted: usize,
    failed: usize,
    skipped: usize,
    /// Damaged stretches of the archive, and their bytes.
    damaged: usize,
    skipped_bytes: u64,
}

impl Shard {
    fn entry(&self, path: &Path, input_bytes: u64) -> ShardEntry {
        ShardEntry {
            input: path.display().to_string(),
            input_bytes,
            records: self.records,
            extracted: self.extracted,
            failed: self.failed,
            skipped: self.skipped,
            skipped_bytes: self.skipped_bytes,
            output_end: 0,
            output_sha1: String::new(),
        }
    }
}

/// Writes one record in the output format: a JSON line, or (for a page
/// extracted without error) a `conversion` record, its own gzip member in
/// a `.warc.gz`.
fn write_record(
    writer: &mut Writer,
    record: &Record,
    record_id: Option<&str>,
    run_date: &str,
) -> Result<(), WarcBatchError> {
    match writer.format {
        WarcOutputFormat::Jsonl => {
            let mut line = serde_json::to_vec(record)
                .map_err(|e| WarcBatchError::Stdout(io::Error::other(e)))?;
            line.push(b'\n');
            writer.write(&line)
        }
        WarcOutputFormat::Warc => {
            if record.error.is_some() {
                return Ok(());
            }
            writer.write(&conversion(record, record_id, run_date))?;
            if writer.compression == Compression::Gzip {
                writer.end_member()?;
            }
            Ok(())
        }
    }
}

/// A `conversion` record (WARC 1.1 §6.8) holding a page's extracted text:
/// `WARC-Refers-To` the response it came from, its `WARC-Target-URI` and
/// `WARC-Date` (the capture's: the text is of that capture; the run's
/// date, `run_date`, when the response had none), digests, and a
/// `WARC-Record-ID` derived from the source's id and the algorithm, so
/// that a rerun writes the same record.
fn conversion(record: &Record, refers_to: Option<&str>, run_date: &str) -> Vec<u8> {
    let seed =
        format!("{}\n{}\n{}", refers_to.unwrap_or(&record.source), record.algorithm, record.source);
    let id = format!("<urn:uuid:{}>", uuid_from(&seed));
    let date = record.date.as_deref().unwrap_or(run_date);
    let head = Head { version: "WARC/1.1", kind: "conversion", id: &id, date };
    let mut fields = Vec::with_capacity(3);
    if let Some(url) = record.url.as_deref() {
        fields.push(("WARC-Target-URI", url));
    }
    if let Some(refers_to) = refers_to {
        fields.push(("WARC-Refers-To", refers_to));
    }
    if let Some(title) = record.title.as_deref() {
        fields.push(("WARC-Title", title));
    }
    let text = record.text.as_bytes();
    write::record(&head, &fields, "text/plain; charset=utf-8", text, Some(text))
}

/// The `warcinfo` record that opens a WARC output (WARC 1.1 §6.2), dated
/// `run_date`.
fn warcinfo(run_date: &str) -> Vec<u8> {
    let body = format!(
        "software: gleaner/{}\r\nformat: WARC File Format 1.1\r\ndescription: main content extracted from HTML responses\r\n",
        env!("CARGO_PKG_VERSION")
    );
    let id = format!("<urn:uuid:{}>", uuid_from(&format!("{body}{run_date}")));
    let head = Head { version: "WARC/1.1", kind: "warcinfo", id: &id, date: run_date };
    write::record(&head, &[], "application/warc-fields", body.as_bytes(), None)
}

/// A name-based UUID (RFC 9562 §5.8, version 8) from two 64-bit FNV-1a
/// hashes of `seed`: the same seed, the same id.
fn uuid_from(seed: &str) -> String {
    let fnv = |basis: u64| {
        seed.bytes().fold(basis, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
    };
    let (hi, lo) = (fnv(0xcbf2_9ce4_8422_2325), fnv(0x6c62_272e_07bb_0142));
    let hi = (hi & !0xf000) | 0x8000; // version 8
    let lo = (lo & !(0b11 << 62)) | (0b10 << 62); // variant 10
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xffff,
        hi & 0xffff,
        lo >> 48,
        lo & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_stable_and_well_formed() {
        let id = uuid_from("x");
        assert_eq!(id, uuid_from("x"));
        assert_ne!(id, uuid_from("y"));
        assert_eq!(id.len(), 36);
        assert_eq!(id.as_bytes()[14], b'8', "{id}");
        assert!(matches!(id.as_bytes()[19], b'8' | b'9' | b'a' | b'b'), "{id}");
    }

    #[test]
    fn compression_by_name() {
        assert_eq!(Compression::of(Path::new("a.jsonl.gz")), Compression::Gzip);
        assert_eq!(Compression::of(Path::new("a.jsonl.ZST")), Compression::Zstd);
        assert_eq!(Compression::of(Path::new("a.warc")), Compression::None);
    }
}
