//! `gleaner warc`: the HTML pages of WARC archives through one extractor,
//! by `gleaner_crawl::warc`; this module adds the terminal: the progress
//! bar in bytes, error lines on stderr and the closing summary.

use std::io::IsTerminal;
use std::process::ExitCode;

use gleaner_batch::{Engine, Job, OutputFormat};
use gleaner_crawl::warc::{self, WarcEvent, WarcOptions, WarcOutputFormat};
use indicatif::{ProgressBar, ProgressStyle};

use crate::flags::{TextFormat, WarcArgs, WarcContainer, WarcFormat};
use crate::UsageError;

/// The container and the text format `warc`'s flags ask for: `-f` names
/// either — the text format, as `extract -f` does, or the container, as
/// `-f jsonl|warc` always has — and `--container`, `--text-format` name
/// each on its own; two flags that disagree are a usage error.
///
/// # Errors
/// `-f` and `--container` or `--text-format` disagree.
fn formats(args: &WarcArgs) -> Result<(WarcContainer, TextFormat), UsageError> {
    let (container, text) = match args.output_format {
        None => (None, None),
        Some(WarcFormat::Jsonl) => (Some(WarcContainer::Jsonl), None),
        Some(WarcFormat::Warc) => (Some(WarcContainer::Warc), None),
        Some(WarcFormat::Txt) => (None, Some(TextFormat::Txt)),
        Some(WarcFormat::Markdown) => (None, Some(TextFormat::Markdown)),
        Some(WarcFormat::Html) => (None, Some(TextFormat::Html)),
    };
    let disagree = |what: &str| {
        UsageError(format!("-f and --{what} disagree: give the {what} once (-f names either)"))
    };
    let container = match (container, args.container) {
        (Some(a), Some(b)) if a != b => return Err(disagree("container")),
        (a, b) => a.or(b).unwrap_or(WarcContainer::Jsonl),
    };
    let text = match (text, args.text_format) {
        (Some(a), Some(b)) if a != b => return Err(disagree("text-format")),
        (a, b) => a.or(b).unwrap_or(TextFormat::Txt),
    };
    Ok((container, text))
}

/// Runs `warc`.
pub fn run(args: WarcArgs) -> anyhow::Result<ExitCode> {
    let (algorithm, extractor) = args.extractor.build(args.content.preset)?;
    crate::check_template(algorithm, args.templates.given())?;
    let site_options = args.templates.clustering.options()?;
    let parse = args.limits.parse_options()?;
    let max_bytes = parse.max_bytes;
    let threads = crate::worker_threads(args.parallel);
    let (container, text_format) = formats(&args)?;
    // JSON Lines keep the main text in `text` (and the comments in their
    // key); a conversion record's body is the whole rendered text, with
    // the header and the comments when asked for.
    let whole_txt =
        container == WarcContainer::Warc && (args.content.with_metadata || args.content.comments);
    let format = match text_format {
        TextFormat::Txt if whole_txt => OutputFormat::Txt,
        TextFormat::Txt => OutputFormat::Jsonl,
        TextFormat::Markdown => OutputFormat::Markdown,
        TextFormat::Html => OutputFormat::Html,
    };
    let mut job = Job::new(extractor, algorithm.name, format)
        .parse_options(parse)
        .render_options(args.render.options())
        .with_metadata(args.content.with_metadata)
        .comments(args.content.comments);
    if let Some(path) = &args.templates.template {
        job = job.template(std::sync::Arc::new(crate::template_cmd::load_model(path)?));
    }
    let options = WarcOptions::new(match container {
        WarcContainer::Jsonl => WarcOutputFormat::Jsonl,
        WarcContainer::Warc => WarcOutputFormat::Warc,
    })
    .output(args.output.clone())
    .resume(args.resume)
    .max_bytes(max_bytes)
    .threads(threads)
    .settings(output_settings(&args, text_format));
    if args.resume {
        if let Some(out) = &args.output {
            if !warc::manifest_path(out).exists() {
                eprintln!(
                    "gleaner: no manifest beside {}: starting from the beginning",
                    out.display()
                );
            }
        }
    }
    let engine = Engine::new(&job, threads)?;
    let site = if args.templates.site_templates {
        let site = warc::learn_host_templates(&args.inputs, &engine, &site_options)?;
        let (clusters, with_model) = site.clusters();
        eprintln!(
            "gleaner: {} hosts, {clusters} template clusters ({} distance, threshold {}), \
             {with_model} with a model",
            site.groups(),
            site_options.distance,
            site_options.threshold,
        );
        Some(site)
    } else {
        None
    };
    let total: u64 = args.inputs.iter().map(|p| std::fs::metadata(p).map_or(0, |m| m.len())).sum();
    let progress = (!args.no_progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let engine = engine.sites(site.as_ref());
    let ran = warc::run_archives(&args.inputs, &engine, &options, |event| match event {
        WarcEvent::Progress(bytes) => {
            if let Some(bar) = &progress {
                bar.set_position(bytes);
            }
        }
        WarcEvent::Failed(source, error) => {
            let message = format!("gleaner: {source}: {error}");
            match &progress {
                Some(bar) => bar.println(message),
                None => eprintln!("{message}"),
            }
        }
        _ => {}
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let totals = match ran {
        Ok(totals) => totals,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    let skipped: usize = totals.skipped.values().sum();
    let kinds: Vec<String> = totals.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let resumed = if totals.files_resumed > 0 {
        format!(" ({} already done, skipped)", totals.files_resumed)
    } else {
        String::new()
    };
    let damaged = if totals.skipped_bytes > 0 {
        format!("; {} bytes of damaged archive skipped", totals.skipped_bytes)
    } else {
        String::new()
    };
    eprintln!(
        "{} archives{resumed}, {} records read: {} extracted, {} failed, {skipped} skipped{}{}\
         {damaged}; {:.1} MB/s of archive, {:.1} MB/s of HTML",
        totals.files,
        totals.records,
        totals.extracted,
        totals.failed,
        if kinds.is_empty() { "" } else { " (" },
        if kinds.is_empty() { String::new() } else { kinds.join(", ") + ")" },
        totals.megabytes_per_second(),
        totals.html_megabytes_per_second()
    );
    Ok(if totals.files_failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Every option that changes what `warc` writes, by flag, for the
/// manifest: a run resumed with other values is refused (issue 31), so
/// that one output never mixes, say, txt and Markdown text. The flag
/// groups are shown as the parser holds them (`--links`, `--images`, …
/// in `render`); `--parallel`, `--no-progress` and the inputs change
/// nothing in the output and are left out.
fn output_settings(
    args: &WarcArgs,
    text_format: TextFormat,
) -> std::collections::BTreeMap<String, String> {
    let text_format = match text_format {
        TextFormat::Txt => "txt",
        TextFormat::Markdown => "markdown",
        TextFormat::Html => "html",
    };
    [
        ("--text-format", text_format.to_string()),
        ("algorithm and parameters", format!("{:?}", args.extractor)),
        ("limits", format!("{:?}", args.limits)),
        ("templates", format!("{:?}", args.templates)),
        ("render", format!("{:?}", args.render)),
        ("content", format!("{:?}", args.content)),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect()
}
