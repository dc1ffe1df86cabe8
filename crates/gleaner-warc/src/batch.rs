//! WARC archives through a [`Job`]: every HTML `response` record of a list
//! of archives (shards) extracted in parallel, in archive order, into JSON
//! Lines or a WARC of `conversion` records — streamed, resumable.
//!
//! The batch is the engine's (`gleaner_batch::Engine::run`): an
//! [`ArchiveSource`] (the archives read one after the other on a thread
//! of their own, each record judged on the engine's workers) into the
//! WARC sink of this module, whose writer gets the records back in
//! archive order; the engine's window of 4 × threads records in flight
//! spans the end of one archive and the start of the next.
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

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gleaner::template::SiteOptions;
use gleaner_batch::{Engine, Flow, Job, OutputFormat, Record, Sink, Sites};
use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

use crate::source::{failed_record, ArchiveSource, ArchiveTag};
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
/// goes: [`run_archives`] on an engine of `options.threads` workers.
/// With `site`, each page is extracted with its host's template model
/// ([`learn_host_templates`]).
///
/// # Errors
/// As [`run_archives`], and the worker pool cannot start.
pub fn run_warc(
    files: &[PathBuf],
    job: &Job,
    site: Option<&Sites>,
    options: &WarcOptions,
    events: impl FnMut(WarcEvent<'_>),
) -> Result<WarcTotals, WarcBatchError> {
    let engine = Engine::new(job, options.threads)?.sites(site);
    run_archives(files, &engine, options, events)
}

/// Reads every archive once and learns the template models of each host
/// (Gottron's clusters per host, as `extract --site-templates` does for
/// a folder): [`Engine::learn_sites`] over an [`ArchiveSource`], whose
/// pages are grouped by the host of their `WARC-Target-URI`.
///
/// # Errors
/// The reader thread cannot start.
pub fn learn_host_templates(
    files: &[PathBuf],
    engine: &Engine<'_>,
    options: &SiteOptions,
) -> Result<Sites, WarcBatchError> {
    let max_bytes = engine.job().parse().max_bytes;
    let source = ArchiveSource::new(files, max_bytes).read_ahead(engine.threads() * 4);
    let items = source.items().map_err(gleaner_batch::Error::Io)?;
    Ok(engine.learn_sites(items, options)?)
}

/// Extracts every HTML record of the archives `files` with the engine's
/// job into the output of `options` (see the module docs), telling
/// `events` how it goes: `Engine::run(ArchiveSource, WarcSink)`. A record
/// that fails is a record with `error`; an archive that cannot be opened
/// is one record with `error`, and so is each damaged stretch of an
/// archive (source `FILE#OFFSET` of the stretch, [`damage_message`](crate::damage_message)),
/// after which the archive is read on at its next intact record; the
/// batch goes on.
///
/// # Errors
/// The output or manifest cannot be written, the manifest to resume from
/// does not fit, or the reader thread cannot start.
pub fn run_archives(
    files: &[PathBuf],
    engine: &Engine<'_>,
    options: &WarcOptions,
    events: impl FnMut(WarcEvent<'_>),
) -> Result<WarcTotals, WarcBatchError> {
    let started = Instant::now();
    let job = engine.job();
    let algorithm = job.algorithm().to_string();
    let (writer, done) = open_output(options, &algorithm)?;
    let mut sink = WarcSink::new(writer, files, job, events);
    let mut todo: Vec<(usize, PathBuf)> = Vec::new();
    for (k, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let Some(shard) = done.iter().find(|s| s.input == name) else {
            todo.push((k, path.clone()));
            continue;
        };
        let size = sink.sizes.get(k).copied().unwrap_or(0);
        if shard.input_bytes != size {
            return Err(WarcBatchError::Manifest {
                path: options.output.as_deref().map(manifest_path).unwrap_or_default(),
                reason: format!(
                    "{name} was {} bytes when it was extracted and is {size} bytes now",
                    shard.input_bytes
                ),
            });
        }
        sink.totals.files_resumed += 1;
    }
    if sink.writer.format == WarcOutputFormat::Warc && done.is_empty() {
        sink.writer.write(&warcinfo(&sink.run_date))?;
        sink.writer.end_member()?;
    }
    let source = ArchiveSource::indexed(todo, options.max_bytes).read_ahead(engine.threads() * 4);
    let items = source.items().map_err(gleaner_batch::Error::Io)?;
    let ran = engine.run(items, &mut sink);
    if let Some(e) = sink.failure.take() {
        return Err(e);
    }
    ran?;
    let mut totals = sink.totals;
    totals.elapsed = started.elapsed();
    Ok(totals)
}

/// The sink of a WARC batch: JSON Lines or `conversion` records, in
/// shards that end with the manifest (see the module docs), with the
/// counts of each shard and the front end told as it goes.
struct WarcSink<'a, E: FnMut(WarcEvent<'_>)> {
    writer: Writer,
    files: &'a [PathBuf],
    sizes: Vec<u64>,
    job: &'a Job,
    events: E,
    run_date: String,
    totals: WarcTotals,
    shard: Shard,
    /// Archive bytes of the shards finished this run.
    before: u64,
    /// Markdown or HTML: the record's `text` is the rendered text.
    text_in_rendered: bool,
    /// Txt renders only with a metadata header or comments found
    /// (`gleaner warc -f warc --with-metadata`); otherwise `text` is the
    /// plain text.
    txt_rendered: bool,
    /// The write error that stopped the batch.
    failure: Option<WarcBatchError>,
}

impl<'a, E: FnMut(WarcEvent<'_>)> WarcSink<'a, E> {
    fn new(writer: Writer, files: &'a [PathBuf], job: &'a Job, events: E) -> Self {
        WarcSink {
            writer,
            files,
            sizes: files.iter().map(|p| std::fs::metadata(p).map_or(0, |m| m.len())).collect(),
            job,
            events,
            run_date: warc_date(std::time::SystemTime::now()),
            totals: WarcTotals::default(),
            shard: Shard::default(),
            before: 0,
            text_in_rendered: matches!(job.format(), OutputFormat::Markdown | OutputFormat::Html),
            txt_rendered: job.format() == OutputFormat::Txt,
            failure: None,
        }
    }

    fn failed(&mut self, record: &Record) {
        (self.events)(WarcEvent::Failed(&record.source, record.error.as_deref().unwrap_or("")));
    }

    fn step(
        &mut self,
        tag: Option<ArchiveTag>,
        record: Option<Record>,
    ) -> Result<(), WarcBatchError> {
        let run_date = self.run_date.clone();
        match (tag, record) {
            (Some(ArchiveTag::Skipped { kind, position }), _) => {
                self.shard.records += 1;
                self.shard.skipped += 1;
                *self.totals.skipped.entry(kind).or_default() += 1;
                (self.events)(WarcEvent::Progress(self.before + position));
            }
            (Some(ArchiveTag::Page { record_id, position, .. }), Some(mut record)) => {
                self.shard.records += 1;
                if record.error.is_some() {
                    self.shard.failed += 1;
                    self.failed(&record);
                } else {
                    self.shard.extracted += 1;
                    self.totals.page_bytes += record.bytes as u64;
                    if self.text_in_rendered || (self.txt_rendered && !record.rendered.is_empty()) {
                        record.text = std::mem::take(&mut record.rendered);
                    }
                }
                write_record(&mut self.writer, &record, record_id.as_deref(), &run_date)?;
                (self.events)(WarcEvent::Progress(self.before + position));
            }
            (Some(ArchiveTag::Damaged { skipped, position }), Some(record)) => {
                self.shard.failed += 1;
                self.shard.damaged += 1;
                self.shard.skipped_bytes += skipped;
                self.failed(&record);
                write_record(&mut self.writer, &record, None, &run_date)?;
                (self.events)(WarcEvent::Progress(self.before + position));
            }
            (Some(ArchiveTag::End { file, bytes }), error) => {
                self.totals.files += 1;
                if self.shard.damaged > 0 {
                    self.totals.files_failed += 1;
                }
                self.totals.skipped_bytes += self.shard.skipped_bytes;
                if let Some(record) = error {
                    self.totals.files_failed += 1;
                    self.shard.failed += 1;
                    self.failed(&record);
                    write_record(&mut self.writer, &record, None, &run_date)?;
                }
                let size = self.sizes.get(file).copied().unwrap_or(bytes).max(bytes);
                self.before += size;
                self.totals.input_bytes += size;
                self.totals.records += self.shard.records;
                self.totals.extracted += self.shard.extracted;
                self.totals.failed += self.shard.failed;
                let path = self.files.get(file).map_or(Path::new(""), PathBuf::as_path);
                let size = self.sizes.get(file).copied().unwrap_or(bytes);
                let entry = self.shard.entry(path, size);
                self.shard = Shard::default();
                self.writer.end_shard(entry)?;
                (self.events)(WarcEvent::Progress(self.before));
            }
            (tag, record) => {
                // A panic outside the job's guard (no tag), or a tag
                // without its record: a failed record, never a lost one.
                let record = record.unwrap_or_else(|| {
                    failed_record(self.job, "(unknown record)", &format!("no record for {tag:?}"))
                });
                self.shard.failed += 1;
                self.failed(&record);
                write_record(&mut self.writer, &record, None, &run_date)?;
            }
        }
        Ok(())
    }
}

impl<E: FnMut(WarcEvent<'_>)> Sink<ArchiveTag> for WarcSink<'_, E> {
    fn write(
        &mut self,
        tag: Option<ArchiveTag>,
        record: Option<Record>,
    ) -> gleaner_batch::Result<Flow> {
        match self.step(tag, record) {
            Ok(()) => Ok(Flow::Continue),
            Err(e) => {
                self.failure = Some(e);
                Ok(Flow::Stop)
            }
        }
    }
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
    let fnv = |basis: u64| gleaner::hash::fnv1a_from(basis, seed.as_bytes());
    let (hi, lo) = (fnv(gleaner::hash::FNV_OFFSET), fnv(0x6c62_272e_07bb_0142));
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
