//! `gleaner crawl`: a breadth-first crawl through `gleaner-crawl`, from
//! the web, a folder or a WARC file, written as WARC records. Page URLs go
//! to standard output, one a line; the summary goes to standard error.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use gleaner_crawl::{crawl, CrawlOptions, WarcRecorder};

use crate::flags::CrawlArgs;
use crate::UsageError;

/// Runs `crawl`.
pub fn run(args: CrawlArgs) -> anyhow::Result<ExitCode> {
    if args.max_pages == 0 {
        return Err(UsageError("--max-pages must be at least 1".into()).into());
    }
    let most = gleaner::document::MAX_SUPPORTED_BYTES;
    if args.max_bytes > most as u64 {
        return Err(UsageError(format!(
            "--max-bytes {}: more than the largest supported page, {most} bytes (1 GiB)",
            args.max_bytes
        ))
        .into());
    }
    let start = crate::fetch::parse_url(&args.url, args.source.as_deref())?;
    let http = crate::fetch::http_options(&args.network, &args.user_agent, args.timeout_secs)?
        .max_bytes(args.max_bytes)
        .delay(Duration::from_millis(args.delay_ms))
        .max_time(Some(Duration::from_secs(args.max_time_secs)))
        .stay_on_site(!args.all_hosts);
    // The sitemaps, read before the crawl with the same options.
    let seeds = if args.sitemap {
        let discovery = gleaner_crawl::discover::Discovery {
            sitemap: true,
            feed: false,
            max_urls: gleaner_crawl::CrawlOptions::default().max_known_urls,
        };
        let reader = gleaner_crawl::HttpSource::new(http.clone())?;
        let deadline = std::time::Instant::now() + Duration::from_secs(args.max_time_secs);
        let found = gleaner_crawl::discover::discover(&reader, &start, discovery, Some(deadline));
        for e in &found.errors {
            eprintln!("crawl: sitemap: {e}");
        }
        eprintln!("crawl: {} URLs from {} sitemap files", found.urls.len(), found.files);
        found.urls
    } else {
        Vec::new()
    };
    let source = crate::fetch::source_at(args.source.as_deref(), &start, http, args.max_bytes)?;
    let mut recorder = match &args.output {
        Some(path) => Some(
            WarcRecorder::create(path, &args.user_agent)
                .with_context(|| format!("{}", path.display()))?,
        ),
        None => None,
    };
    let options = CrawlOptions::default()
        .max_pages(args.max_pages)
        .max_time(Duration::from_secs(args.max_time_secs))
        .all_hosts(args.all_hosts)
        .concurrency(args.concurrency)
        .follow_nofollow(args.follow_nofollow);
    let mut run = crawl(&start, &*source, &options);
    run.seed(seeds);
    let mut bytes = 0u64;
    let mut first_error = None;
    let mut listing = String::new();
    for visit in run.by_ref() {
        match visit.result {
            Ok(page) => {
                bytes += page.body.len() as u64;
                listing.push_str(page.url.as_str());
                listing.push('\n');
                if let Some(recorder) = recorder.as_mut() {
                    recorder.write(&page).context("writing the WARC file")?;
                }
            }
            Err(e) => {
                if first_error.is_none() {
                    first_error = Some(format!("{}: {e}", visit.url));
                }
            }
        }
    }
    crate::print_stdout(&listing)?;
    let stats = run.stats().clone();
    let mut summary = format!("crawl: {} pages fetched ({bytes} bytes)", stats.pages);
    let skipped: usize = stats.skipped.values().sum();
    if skipped > 0 {
        let reasons: Vec<String> =
            stats.skipped.iter().map(|(reason, n)| format!("{n} {reason}")).collect();
        summary.push_str(&format!(", {skipped} skipped: {}", reasons.join(", ")));
    }
    if let Some(cap) = stats.stopped_by {
        summary.push_str(&format!("; stopped by {cap} with {} URLs unvisited", stats.unvisited));
    }
    if stats.dropped_links > 0 {
        summary.push_str(&format!("; {} links dropped (too many URLs)", stats.dropped_links));
    }
    if let (Some(recorder), Some(path)) = (recorder, &args.output) {
        let records = recorder.records();
        recorder.finish().context("writing the WARC file")?;
        summary.push_str(&format!("; wrote {} ({records} records)", path.display()));
    }
    eprintln!("{summary}");
    if stats.pages == 0 {
        let why = first_error
            .or_else(|| stats.stopped_by.map(|cap| format!("stopped by {cap}")))
            .unwrap_or_else(|| "nothing to fetch".into());
        anyhow::bail!("no page fetched: {why}");
    }
    Ok(ExitCode::SUCCESS)
}
