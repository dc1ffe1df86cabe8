//! `gleaner extract`: a batch of pages through one extractor, by the
//! batch path of `gleaner-batch`; this module adds the terminal: the
//! progress bar, error lines on stderr and the closing summary.

use std::io::IsTerminal;
use std::process::ExitCode;

use gleaner::render::strip_controls;
use gleaner_batch::{input, Flow, Job, Sink};
use indicatif::{ProgressBar, ProgressStyle};

use crate::flags::ExtractArgs;
use crate::UsageError;

/// Runs `extract`.
pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    let (algorithm, extractor) = args.extractor.build(args.content.preset)?;
    let encoding = match &args.encoding {
        None => None,
        Some(label) => Some(gleaner::document::encoding_for_label(label).ok_or_else(|| {
            UsageError::from(gleaner::Error::UnknownEncoding { label: label.clone() })
        })?),
    };
    let (urls, files): (Vec<_>, Vec<_>) =
        args.inputs.iter().cloned().partition(|p| crate::fetch::is_url(p));
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
    let ran = gleaner_batch::run(&inputs, &job, site.as_ref(), threads, |input, record| {
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
        for raw in &urls {
            let text = raw.to_string_lossy();
            let url = crate::fetch::parse_url(&text, args.fetch.source.as_deref())?;
            if source.is_none() {
                source = Some(crate::fetch::page_source(&args.fetch, &url, max_bytes as u64)?);
            }
            let Some(from) = source.as_deref() else { continue };
            let record = url_job.record(&url, from);
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
    // The exit status: 1 when no input was extracted (every one failed:
    // unreadable, over --max-bytes, not HTML, …), else 0; see `--help`.
    let pages = totals.pages + url_pages;
    let failed = totals.failed + url_failed;
    Ok(if pages > 0 && failed == pages { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
