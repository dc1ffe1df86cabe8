//! `gleaner extract`: a batch of pages through one extractor, by the
//! batch path of `gleaner-batch`; this module adds the terminal: the
//! progress bar, error lines on stderr and the closing summary.

use std::io::IsTerminal;
use std::process::ExitCode;

use gleaner::render::strip_controls;
use gleaner_batch::corpus::{CorpusFilter, Verdict};
use gleaner_batch::{
    input, Engine, Flow, Input, Job, OutputFormat, OutputSink, Record, Sink, Unit, Work,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::flags::ExtractArgs;
use crate::UsageError;

/// Runs `extract`: `Engine::run` over the files (and folders, and `-`)
/// then the URLs, into the output sink (standard output or `-o DIR`),
/// the URLs fetched on the engine's workers by [`crate::fetch::UrlFetch`].
pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    let (algorithm, extractor) = args.extractor.build(args.content.preset)?;
    let mut corpus = args.corpus.filter()?;
    let text_only = match args.output_format {
        OutputFormat::Txt => !args.content.with_metadata && !args.content.comments,
        OutputFormat::Markdown | OutputFormat::Html | OutputFormat::Xml | OutputFormat::XmlTei => {
            false
        }
        _ => true,
    };
    if args.corpus.deduplicate && !text_only {
        return Err(UsageError(
            "--deduplicate edits the plain text: give -f txt (without --with-metadata or \
             --comments), json, jsonl or csv"
                .into(),
        )
        .into());
    }
    let encoding = match &args.encoding {
        None => None,
        Some(label) => Some(gleaner::document::encoding_for_label(label).ok_or_else(|| {
            UsageError::from(gleaner::Error::UnknownEncoding { label: label.clone() })
        })?),
    };
    let (urls, files): (Vec<_>, Vec<_>) =
        args.inputs.iter().cloned().partition(|p| crate::fetch::is_url(p));
    if args.input_list.iter().any(|l| l.as_os_str() == "-")
        && files.iter().any(|f| f.as_os_str() == "-")
    {
        return Err(UsageError(
            "standard input is read once: give it to -i or as an input, not both".into(),
        )
        .into());
    }
    // URLs given on the command line (a bad one is a usage error, before
    // anything is written), then the lists' lines (a bad one is a failed
    // record in its place).
    let from = args.fetch.source.as_deref();
    let mut url_items = Vec::new();
    for u in &urls {
        url_items.push(Item::Url(crate::fetch::parse_url(&u.to_string_lossy(), from)?));
    }
    for list in &args.input_list {
        for line in read_url_list(list)? {
            url_items.push(match line {
                UrlLine::Listed(text) => match crate::fetch::parse_url(&text, from) {
                    Ok(url) => Item::Url(url),
                    Err(why) => Item::BadUrl { text, why: why.0 },
                },
                UrlLine::Bad(text, why) => Item::BadUrl { why: format!("{text}: {why}"), text },
            });
        }
    }
    if args.site_training.is_some() && url_items.is_empty() {
        return Err(
            UsageError("--site-training learns from a page's links: give a URL".into()).into()
        );
    }
    let inputs = input::collect(&files, &args.input_dir, &mut |skipped| {
        eprintln!("gleaner: skipping {skipped}");
    })
    .map_err(|e| match e {
        gleaner_batch::Error::StdinTwice => anyhow::Error::from(UsageError(e.to_string())),
        other => other.into(),
    })?;
    if inputs.is_empty() && url_items.is_empty() {
        return Err(UsageError("no inputs: give files, URLs, `-` or --input-dir DIR".into()).into());
    }
    crate::check_template(algorithm, args.templates.given())?;
    if let Some(u) = &args.url {
        match gleaner_crawl::Url::parse(u) {
            Ok(parsed) if parsed.has_host() => {}
            _ => return Err(UsageError(format!("--url {u}: not an absolute URL")).into()),
        }
    }
    let site_options = args.templates.clustering.options()?;
    let parse = args.limits.parse_options()?;
    let max_bytes = parse.max_bytes;
    let threads = crate::worker_threads(args.parallel);
    let mut job = Job::new(extractor, algorithm.name, args.output_format)
        .parse_options(parse.encoding(encoding).url(args.url.clone()))
        .render_options(args.render.options())
        .with_metadata(args.content.with_metadata)
        .comments(args.content.comments);
    if let Some(provider) = crate::layout::provider(&args.layout, Some(threads))? {
        job = job.layout(provider);
    }
    if let Some(path) = &args.templates.template {
        job = job.template(std::sync::Arc::new(crate::template_cmd::load_model(path)?));
    }
    let fetch = match url_items.iter().find_map(Item::url) {
        Some(first) => Some(crate::fetch::UrlFetch {
            training: args.site_training,
            max_links: args.max_links,
            menu_pages: args.menu_pages,
            site: site_options,
            source: crate::fetch::page_source(&args.fetch, first, max_bytes as u64)?,
        }),
        None => None,
    };
    let engine = Engine::new(&job, threads)?;
    let site = if args.templates.site_templates {
        let site = engine.learn_sites(inputs.iter().cloned().map(Item::Input), &site_options)?;
        let (clusters, with_model) = site.clusters();
        let pages_with_model = site.pages_with_model().1;
        eprintln!(
            "gleaner: {clusters} template clusters ({} distance, threshold {}), {with_model} \
             with a model covering {pages_with_model} of {} pages",
            site_options.distance,
            site_options.threshold,
            inputs.len()
        );
        Some(site)
    } else {
        None
    };
    let mut engine = engine.sites(site.as_ref());
    if let Some(fetch) = &fetch {
        engine = engine.fetch(fetch);
    }
    // The shape of the output depends on the command line alone: several
    // records (a JSON array, text headers) when it can name several pages.
    let several =
        args.inputs.len() > 1 || !args.input_dir.is_empty() || !args.input_list.is_empty();
    let count = inputs.len() + url_items.len();
    let progress = (count > 1 && !args.no_progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(count as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} ETA {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let stdout = std::io::BufWriter::new(std::io::stdout());
    let mut sink = ExtractSink {
        out: OutputSink::new(stdout, args.output.clone(), job.format(), several),
        corpus: &mut corpus,
        left_out: Default::default(),
        progress: progress.as_ref(),
        stopped: false,
    };
    let items = inputs.into_iter().map(Item::Input).chain(url_items);
    let totals = match engine.run(items, &mut sink) {
        Ok(totals) => totals,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    if sink.stopped {
        // The reader went away: nothing more to say to it.
        return Ok(ExitCode::SUCCESS);
    }
    match sink.out.finish() {
        Err(e) if !e.is_broken_pipe() => return Err(e.into()),
        _ => {}
    }
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let (pages, failed) = (totals.pages, totals.failed);
    if count > 1 {
        eprintln!("{pages} pages, {failed} failed, {:.1} MB/s", totals.megabytes_per_second());
    }
    if !sink.left_out.is_empty() {
        let reasons: Vec<String> =
            sink.left_out.iter().map(|(why, n)| format!("{n} {why}")).collect();
        eprintln!("left out by the corpus filters: {}", reasons.join(", "));
    }
    // The exit status: 1 when no input was extracted (every one failed:
    // unreadable, over --max-bytes, not HTML, …), else 0; see `--help`.
    Ok(if pages > 0 && failed == pages { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// An input of `extract`: a file (or `-`, or a folder's file), a URL, or
/// a line of a URL list that is no URL.
enum Item {
    /// A file or standard input.
    Input(Input),
    /// A URL to fetch.
    Url(gleaner_crawl::Url),
    /// A list's line that cannot be fetched: the line, and why.
    BadUrl { text: String, why: String },
}

impl Item {
    fn url(&self) -> Option<&gleaner_crawl::Url> {
        match self {
            Item::Url(url) => Some(url),
            _ => None,
        }
    }
}

impl Work for Item {
    type Tag = Input;

    fn unit(self, position: usize, job: &Job) -> Unit<Input> {
        match self {
            Item::Input(input) => input.unit(position, job),
            Item::Url(url) => {
                // Under -o DIR: HOST[_PORT]/PATH, never `http:/…`.
                let mut name = Input::from_bytes(url.as_str(), Vec::new());
                name.relative = gleaner_crawl::output_name(&url);
                Unit::Url { url: url.to_string(), tag: name }
            }
            Item::BadUrl { text, why } => {
                let record = job.failed_record(&text, &why);
                Unit::Ready { record: Some(record), tag: Input::from_bytes(text, Vec::new()) }
            }
        }
    }
}

/// `extract`'s sink: the corpus filters, error lines on stderr (above
/// the progress bar), then the output.
struct ExtractSink<'a, W: std::io::Write> {
    out: OutputSink<W>,
    corpus: &'a mut CorpusFilter,
    left_out: std::collections::BTreeMap<&'static str, usize>,
    progress: Option<&'a ProgressBar>,
    /// The reader went away.
    stopped: bool,
}

impl<W: std::io::Write> Sink<Input> for ExtractSink<'_, W> {
    fn write(&mut self, tag: Option<Input>, record: Option<Record>) -> gleaner_batch::Result<Flow> {
        let Some(mut record) = record else { return Ok(Flow::Continue) };
        if let Some(bar) = self.progress {
            bar.inc(1);
        }
        if let Verdict::Drop(why) = self.corpus.admit(&mut record) {
            *self.left_out.entry(why).or_default() += 1;
            return Ok(Flow::Continue);
        }
        if let Some(e) = &record.error {
            let message =
                format!("gleaner: {}: {}", strip_controls(&record.source), strip_controls(e));
            match self.progress {
                Some(bar) => bar.println(message),
                None => eprintln!("{message}"),
            }
        }
        let input = tag.unwrap_or_else(|| Input::from_bytes(record.source.clone(), Vec::new()));
        match self.out.write(&input, &record) {
            Err(e) if e.is_broken_pipe() => {
                self.stopped = true;
                Ok(Flow::Stop)
            }
            other => other.map(|()| Flow::Continue),
        }
    }
}

/// A line of a `-i` list.
enum UrlLine {
    /// A list's line (trimmed).
    Listed(String),
    /// A list's line that cannot be a URL: its start, and why.
    Bad(String, String),
}

/// The longest line of a URL list read whole; a longer one is a failed
/// record (it is no URL a server takes).
const MAX_LIST_LINE: usize = gleaner_crawl::DEFAULT_MAX_URL_LEN + 2;

/// The URL lines of a `-i` list (`-`: standard input): blank lines and
/// `#` comments skipped, each line read within [`MAX_LIST_LINE`] bytes.
///
/// # Errors
/// The list cannot be opened or read.
fn read_url_list(path: &std::path::Path) -> anyhow::Result<Vec<UrlLine>> {
    use std::io::{BufRead, Read};
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| UsageError(format!("-i {}: {e}", path.display())))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut reader = reader;
    let mut out = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader
            .by_ref()
            .take(MAX_LIST_LINE as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| anyhow::anyhow!("-i {}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        if line.len() >= MAX_LIST_LINE && line.last() != Some(&b'\n') {
            // Skip the rest of the long line, a bounded piece at a time.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let m = reader
                    .by_ref()
                    .take(64 * 1024)
                    .read_until(b'\n', &mut rest)
                    .map_err(|e| anyhow::anyhow!("-i {}: {e}", path.display()))?;
                if m == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
            let head: String = String::from_utf8_lossy(&line).chars().take(60).collect();
            let why = format!("URL too long: more than {} bytes", MAX_LIST_LINE - 2);
            out.push(UrlLine::Bad(format!("{}…", head.trim()), why));
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        out.push(UrlLine::Listed(text.to_string()));
    }
    Ok(out)
}
