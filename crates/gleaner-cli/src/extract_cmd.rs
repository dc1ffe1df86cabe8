//! `gleaner extract`: a batch of pages through one extractor.
//!
//! Inputs are processed in parallel (rayon) in chunks, and written in input
//! order. A page that fails is one record with `error` set; the batch goes
//! on.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use gleaner::extract::{Extractor, Params};
use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use crate::flags::{ExtractArgs, OutputFormat};
use crate::inputs::{self, Input};
use crate::UsageError;

/// Inputs handed to the pool at once; output is written per chunk.
const CHUNK: usize = 64;

/// One output record; its JSON form is the `jsonl` contract.
#[derive(Debug, Serialize)]
pub struct Record {
    /// The input path as given, or `-`.
    pub source: String,
    /// The page title.
    pub title: Option<String>,
    /// The main content as plain text.
    pub text: String,
    /// The algorithm that produced it.
    pub algorithm: String,
    /// Why this input failed, or null.
    pub error: Option<String>,
    /// The character encoding the page was decoded with.
    pub encoding: Option<String>,
    /// Size of the input in bytes.
    pub bytes: usize,
    /// The body in the requested non-JSON format.
    #[serde(skip)]
    rendered: String,
    /// The input could not be read at all.
    #[serde(skip)]
    unreadable: bool,
}

struct Job<'a> {
    extractor: &'a dyn Extractor,
    algorithm: &'a str,
    parse: ParseOptions,
    format: OutputFormat,
    render: RenderOptions,
    max_bytes: usize,
}

impl Job<'_> {
    /// [`Job::process`], with a panic turned into that record's error so
    /// that one page cannot take the batch down.
    fn process_guarded(&self, input: &Input) -> Record {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.process(input)))
            .unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Record {
                    source: input.source.clone(),
                    title: None,
                    text: String::new(),
                    algorithm: self.algorithm.to_string(),
                    error: Some(format!("internal error, please report it: {what}")),
                    encoding: None,
                    bytes: 0,
                    rendered: String::new(),
                    unreadable: false,
                }
            })
    }

    fn process(&self, input: &Input) -> Record {
        let mut record = Record {
            source: input.source.clone(),
            title: None,
            text: String::new(),
            algorithm: self.algorithm.to_string(),
            error: None,
            encoding: None,
            bytes: 0,
            rendered: String::new(),
            unreadable: false,
        };
        let bytes = match inputs::read(input, self.max_bytes) {
            Ok(b) => b,
            Err(e) => {
                record.error = Some(format!("{e:#}"));
                record.unreadable = true;
                return record;
            }
        };
        record.bytes = bytes.len();
        let doc = match Document::parse(&bytes, &self.parse) {
            Ok(d) => d,
            Err(e) => {
                record.error = Some(e.to_string());
                return record;
            }
        };
        let selection = self.extractor.extract(&doc);
        if selection.count() == 0 {
            if let Some(frames) = frameset_sources(&doc) {
                record.error = Some(format!(
                    "frameset page: its content is in the frames ({frames}); extract those pages"
                ));
            }
        }
        record.title = gleaner::metadata::title(&doc);
        record.encoding = Some(doc.encoding().name().to_string());
        // The plain text is the body of txt and the `text` of JSON; the
        // other formats render only their own.
        if matches!(self.format, OutputFormat::Txt | OutputFormat::Json | OutputFormat::Jsonl) {
            record.text = render::text(&doc, &selection);
        }
        record.rendered = match self.format {
            OutputFormat::Markdown => {
                render::render(&doc, &selection, Format::Markdown, self.render)
            }
            OutputFormat::Html => render::render(&doc, &selection, Format::Html, self.render),
            _ => String::new(),
        };
        record
    }
}

/// Runs `extract`.
pub fn run(args: ExtractArgs) -> anyhow::Result<std::process::ExitCode> {
    let algorithm = gleaner::extract::algorithm(&args.algorithm).map_err(UsageError::from)?;
    let mut params = Params::new();
    for p in &args.params {
        params.push_assignment(p).map_err(UsageError::from)?;
    }
    if let Some(lines) = args.lines {
        params = crate::with_lines(algorithm, &params, lines).ok_or_else(|| {
            UsageError(format!("--lines: {} does not read source lines", algorithm.name))
        })?;
    }
    let extractor = algorithm.build(&params).map_err(UsageError::from)?;
    let encoding = match &args.encoding {
        None => None,
        Some(label) => Some(gleaner::document::encoding_for_label(label).ok_or_else(|| {
            UsageError::from(gleaner::Error::UnknownEncoding { label: label.clone() })
        })?),
    };
    let inputs = inputs::collect(&args.inputs, &args.input_dir)?;
    if inputs.is_empty() {
        return Err(UsageError("no inputs: give files, `-` or --input-dir DIR".into()).into());
    }
    let job = Job {
        extractor: extractor.as_ref(),
        algorithm: algorithm.name,
        parse: ParseOptions::default().max_bytes(args.max_bytes).encoding(encoding),
        format: args.output_format,
        render: RenderOptions::default().links(args.links).images(args.images),
        max_bytes: args.max_bytes,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.parallel.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let several = inputs.len() > 1;
    let progress = (several && !args.no_progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(inputs.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} ETA {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let mut sink = Sink::new(args.output.clone(), args.output_format, several);
    let started = Instant::now();
    let (mut pages, mut failed, mut unreadable, mut bytes) = (0usize, 0usize, 0usize, 0usize);
    for chunk in inputs.chunks(CHUNK) {
        let records: Vec<Record> =
            pool.install(|| chunk.par_iter().map(|i| job.process_guarded(i)).collect());
        for (input, record) in chunk.iter().zip(records) {
            pages += 1;
            bytes += record.bytes;
            if let Some(e) = &record.error {
                failed += 1;
                unreadable += usize::from(record.unreadable);
                let message = format!("gleaner: {}: {e}", record.source);
                match &progress {
                    Some(bar) => bar.println(message),
                    None => eprintln!("{message}"),
                }
            }
            if let Err(e) = sink.write(input, &record) {
                if is_broken_pipe(&e) {
                    return Ok(std::process::ExitCode::SUCCESS);
                }
                return Err(e);
            }
            if let Some(bar) = &progress {
                bar.inc(1);
            }
        }
    }
    if let Err(e) = sink.finish() {
        if !is_broken_pipe(&e) {
            return Err(e);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if several {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        eprintln!("{pages} pages, {failed} failed, {:.1} MB/s", bytes as f64 / 1e6 / secs);
    }
    Ok(if unreadable == pages {
        std::process::ExitCode::from(1)
    } else {
        std::process::ExitCode::SUCCESS
    })
}

/// The `src` of a frameset page's frames, if the page is a frameset.
fn frameset_sources(doc: &Document) -> Option<String> {
    use gleaner::document::NodeKind;
    let is = |id, name: &str| matches!(doc.kind(id), NodeKind::Element(e) if &*e.name == name);
    doc.ids().find(|&id| is(id, "frameset"))?;
    let srcs: Vec<&str> =
        doc.ids().filter(|&id| is(id, "frame")).filter_map(|id| doc.attr(id, "src")).collect();
    Some(if srcs.is_empty() { "no frame sources".to_string() } else { srcs.join(", ") })
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Where records go: standard output or one file per input.
struct Sink {
    dir: Option<PathBuf>,
    format: OutputFormat,
    several: bool,
    stdout: std::io::BufWriter<std::io::Stdout>,
    written: usize,
    /// Output files written so far: a second input that maps to the same
    /// name gets `-2`, `-3`, … rather than overwriting the first.
    taken: std::collections::HashSet<PathBuf>,
}

impl Sink {
    fn new(dir: Option<PathBuf>, format: OutputFormat, several: bool) -> Sink {
        Sink {
            dir,
            format,
            several,
            stdout: std::io::BufWriter::new(std::io::stdout()),
            written: 0,
            taken: Default::default(),
        }
    }

    fn body(&self, record: &Record) -> anyhow::Result<String> {
        Ok(match self.format {
            OutputFormat::Txt => record.text.clone(),
            OutputFormat::Markdown | OutputFormat::Html => record.rendered.clone(),
            OutputFormat::Json => serde_json::to_string_pretty(record)?,
            OutputFormat::Jsonl => serde_json::to_string(record)?,
        })
    }

    fn write(&mut self, input: &Input, record: &Record) -> anyhow::Result<()> {
        let body = self.body(record)?;
        if let Some(dir) = &self.dir {
            let first = inputs::output_path(dir, input, self.format.extension());
            let mut path = first.clone();
            let mut n = 1;
            while self.taken.contains(&path) {
                n += 1;
                let stem = first.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
                path.set_file_name(format!("{stem}-{n}.{}", self.format.extension()));
            }
            self.taken.insert(path.clone());
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            std::fs::write(&path, body + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(());
        }
        let out = &mut self.stdout;
        match self.format {
            OutputFormat::Jsonl => writeln!(out, "{body}")?,
            OutputFormat::Json if self.several => {
                let sep = if self.written == 0 { "[\n" } else { ",\n" };
                write!(out, "{sep}{body}")?;
            }
            OutputFormat::Json => writeln!(out, "{body}")?,
            _ if self.several => {
                let sep = if self.written == 0 { "" } else { "\n" };
                writeln!(out, "{sep}==> {} <==\n{body}", record.source)?;
            }
            _ => writeln!(out, "{body}")?,
        }
        self.written += 1;
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        if self.dir.is_none() && self.format == OutputFormat::Json && self.several {
            if self.written == 0 {
                write!(self.stdout, "[")?;
            }
            writeln!(self.stdout, "\n]")?;
        }
        self.stdout.flush()?;
        Ok(())
    }
}
