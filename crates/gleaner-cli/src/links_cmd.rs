//! `gleaner links`: a site's page URLs without a crawl — from its
//! sitemaps (`--sitemap`), its feeds (`--feed`), or, with neither, the
//! links of the page itself — one URL a line on standard output, to pipe
//! into `gleaner extract -i -` or a crawler. What could not be read goes
//! to standard error; the rest goes on (issue 36).

use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gleaner_crawl::discover::{discover, Discovery};
use gleaner_crawl::{page_links, HttpSource, PageSource, Url};

use crate::flags::LinksArgs;
use crate::UsageError;

/// Runs `links`.
pub fn run(args: LinksArgs) -> anyhow::Result<ExitCode> {
    let start = crate::fetch::parse_url(&args.url, None)?;
    let filter = match &args.url_filter {
        Some(re) => {
            Some(regex::Regex::new(re).map_err(|e| UsageError(format!("--url-filter {re}: {e}")))?)
        }
        None => None,
    };
    if args.max_bytes > gleaner::document::MAX_SUPPORTED_BYTES as u64 {
        return Err(UsageError(format!(
            "--max-bytes {}: more than {} bytes (1 GiB)",
            args.max_bytes,
            gleaner::document::MAX_SUPPORTED_BYTES
        ))
        .into());
    }
    let http = crate::fetch::http_options(&args.network, &args.user_agent, args.timeout_secs)?
        .max_bytes(args.max_bytes)
        .delay(Duration::from_millis(args.delay_ms))
        .stay_on_site(!args.all_hosts);
    let source = HttpSource::new(http)?;
    let deadline = Instant::now() + Duration::from_secs(args.max_time_secs.max(1));
    let (urls, errors, files): (Vec<Url>, Vec<String>, usize) = if args.sitemap || args.feed {
        let what = Discovery { sitemap: args.sitemap, feed: args.feed, max_urls: usize::MAX };
        let found = discover(&source, &start, what, Some(deadline));
        let errors = found.errors.iter().map(ToString::to_string).collect();
        (found.urls, errors, found.files)
    } else {
        match source.fetch_within(&start, Some(deadline)).and_then(|page| page_links(&page)) {
            Ok(links) => (links.links, Vec::new(), 1),
            Err(e) => (Vec::new(), vec![format!("{start}: {e}")], 1),
        }
    };
    for e in &errors {
        eprintln!("gleaner: {e}");
    }
    let found_any = !urls.is_empty();
    let host = start.host_str().map(str::to_ascii_lowercase);
    let mut seen = HashSet::new();
    let mut printed = 0usize;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for url in urls {
        if printed >= args.max_urls {
            break;
        }
        let same_host = url.host_str().map(str::to_ascii_lowercase) == host;
        if (!args.all_hosts && !same_host)
            || filter.as_ref().is_some_and(|re| !re.is_match(url.as_str()))
            || !seen.insert(url.to_string())
        {
            continue;
        }
        if writeln!(out, "{url}").is_err() {
            // The reader went away (`| head`): what it wanted is written.
            return Ok(ExitCode::SUCCESS);
        }
        printed += 1;
    }
    let _ = out.flush();
    eprintln!(
        "gleaner: {printed} URLs from {files} file{} ({} unreadable)",
        if files == 1 { "" } else { "s" },
        errors.len()
    );
    // Failing to read anything is a failure; some files failing is not.
    Ok(if !found_any && !errors.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
