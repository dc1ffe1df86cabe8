//! `gleaner extract`: a batch of pages through one extractor, by the
//! batch path of `gleaner-batch`; this module adds the terminal: the
//! progress bar, error lines on stderr and the closing summary.

use std::io::IsTerminal;
use std::process::ExitCode;

use gleaner::render::strip_controls;
use gleaner_batch::corpus::Verdict;
use gleaner_batch::{input, Flow, Job, Sink};
use indicatif::{ProgressBar, ProgressStyle};

use crate::flags::ExtractArgs;
use crate::UsageError;

/// Runs `extract`.
pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    let (algorithm, extractor) = args.extractor.build(args.content.preset)?;
    let mut corpus = args.corpus.filter()?;
    let text_only = match args.output_format {
        crate::flags::OutputFormat::Txt => !args.content.with_metadata && !args.content.comments,
        crate::flags::OutputFormat::Markdown
        | crate::flags::OutputFormat::Html
        | crate::flags::OutputFormat::Xml
        | crate::flags::OutputFormat::Xmltei => false,
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
    let mut left_out: std::collections::BTreeMap<&'static str, usize> = Default::default();
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
    // URLs given on the command line (a bad one is a usage error), then
    // the lists' lines (a bad one is a failed record).
    let mut urls: Vec<UrlLine> =
        urls.iter().map(|u| UrlLine::Given(u.to_string_lossy().into_owned())).collect();
    for list in &args.input_list {
        urls.extend(read_url_list(list)?);
    }
    if args.site_training.is_some() && urls.is_empty() {
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
    if inputs.is_empty() && urls.is_empty() {
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
    let mut job = Job::new(extractor, algorithm.name, args.output_format.into())
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
    let site = if args.templates.site_templates {
        let site = gleaner_batch::learn_site_templates(&inputs, &job, &site_options, threads)?;
        let with_model = site.models.iter().filter(|m| m.is_some()).count();
        let pages_with_model = (0..inputs.len()).filter(|&i| site.model_of(i).is_some()).count();
        eprintln!(
            "gleaner: {} template clusters ({} distance, threshold {}), {with_model} with a model \
             covering {pages_with_model} of {} pages",
            site.sizes.len(),
            site_options.distance,
            site_options.threshold,
            inputs.len()
        );
        Some(site)
    } else {
        None
    };
    let several = inputs.len() + urls.len() > 1;
    let progress = (several && !args.no_progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(inputs.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} ETA {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let stdout = std::io::BufWriter::new(std::io::stdout());
    let mut sink = Sink::new(stdout, args.output.clone(), job.format(), several);
    let ran = gleaner_batch::run(&inputs, &job, site.as_ref(), threads, |input, mut record| {
        if let Verdict::Drop(why) = corpus.admit(&mut record) {
            *left_out.entry(why).or_default() += 1;
            if let Some(bar) = &progress {
                bar.inc(1);
            }
            return Ok(Flow::Continue);
        }
        if let Some(e) = &record.error {
            let message =
                format!("gleaner: {}: {}", strip_controls(&record.source), strip_controls(e));
            match &progress {
                Some(bar) => bar.println(message),
                None => eprintln!("{message}"),
            }
        }
        match sink.write(input, &record) {
            Err(e) if e.is_broken_pipe() => return Ok(Flow::Stop),
            other => other?,
        }
        if let Some(bar) = &progress {
            bar.inc(1);
        }
        Ok(Flow::Continue)
    });
    let totals = match ran {
        Ok(totals) => totals,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    if totals.pages < inputs.len() {
        // The reader went away: nothing more to say to it.
        return Ok(ExitCode::SUCCESS);
    }
    // Pages given as URLs, after the files, one at a time (politely).
    let mut url_pages = 0usize;
    let mut url_failed = 0usize;
    if !urls.is_empty() {
        let url_job = crate::fetch::UrlJob {
            job: &job,
            training: args.site_training,
            max_links: args.max_links,
            menu_pages: args.menu_pages,
            site: site_options,
        };
        let mut source = None;
        for line in &urls {
            // A command-line URL that is not one is a usage error; a list's
            // line that is not one is a failed record.
            let parsed = match line {
                UrlLine::Given(text) => {
                    Ok(crate::fetch::parse_url(text, args.fetch.source.as_deref())?)
                }
                UrlLine::Listed(text) => {
                    crate::fetch::parse_url(text, args.fetch.source.as_deref()).map_err(|e| e.0)
                }
                UrlLine::Bad(text, why) => Err(format!("{text}: {why}")),
            };
            let url = match parsed {
                Ok(url) => url,
                Err(why) => {
                    let text = line.text();
                    let record = job.failed_record(text, &why);
                    url_pages += 1;
                    url_failed += 1;
                    eprintln!("gleaner: {}", strip_controls(&why));
                    let name = gleaner_batch::Input::from_bytes(text, Vec::new());
                    match sink.write(&name, &record) {
                        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
                        other => other?,
                    }
                    continue;
                }
            };
            if source.is_none() {
                source = Some(crate::fetch::page_source(&args.fetch, &url, max_bytes as u64)?);
            }
            let Some(from) = source.as_deref() else { continue };
            let mut record = url_job.record(&url, from);
            if let Verdict::Drop(why) = corpus.admit(&mut record) {
                *left_out.entry(why).or_default() += 1;
                continue;
            }
            url_pages += 1;
            if let Some(e) = &record.error {
                url_failed += 1;
                eprintln!("gleaner: {}: {}", strip_controls(&record.source), strip_controls(e));
            }
            // Under -o DIR: HOST[_PORT]/PATH, never `http:/…`.
            let mut name = gleaner_batch::Input::from_bytes(url.as_str(), Vec::new());
            name.relative = gleaner_crawl::output_name(&url);
            match sink.write(&name, &record) {
                Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
                other => other?,
            }
        }
    }
    match sink.finish() {
        Err(e) if !e.is_broken_pipe() => return Err(e.into()),
        _ => {}
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if several {
        eprintln!(
            "{} pages, {} failed, {:.1} MB/s",
            totals.pages + url_pages,
            totals.failed + url_failed,
            totals.megabytes_per_second()
        );
    }
    if !left_out.is_empty() {
        let reasons: Vec<String> = left_out.iter().map(|(why, n)| format!("{n} {why}")).collect();
        eprintln!("left out by the corpus filters: {}", reasons.join(", "));
    }
    // The exit status: 1 when no input was extracted (every one failed:
    // unreadable, over --max-bytes, not HTML, …), else 0; see `--help`.
    let pages = totals.pages + url_pages;
    let failed = totals.failed + url_failed;
    Ok(if pages > 0 && failed == pages { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A URL to fetch: typed on the command line, or a line of a `-i` list.
enum UrlLine {
    /// A command-line argument.
    Given(String),
    /// A list's line (trimmed).
    Listed(String),
    /// A list's line that cannot be a URL: its start, and why.
    Bad(String, String),
}

impl UrlLine {
    /// The line as given (its start, for a line too long to be a URL).
    fn text(&self) -> &str {
        match self {
            UrlLine::Given(t) | UrlLine::Listed(t) | UrlLine::Bad(t, _) => t,
        }
    }
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
