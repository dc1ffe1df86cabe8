//! Lays out dev-set pages with `BrowserLayout`, one browser (or a pool),
//! and reports per-page time, failures and the browsers' memory.
//!
//! ```sh
//! cargo run --release -p gleaner-browser --example layout_pages -- [PAGES] [DATA_DIR] [POOL]
//! ```
//! PAGES (default 50) pages are taken in turn from every
//! `DATA_DIR/*/input/*.html` (default `../shared/data/wceb`), reused when
//! there are fewer. Every 100 pages the resident memory of the browsers and
//! their helper processes is printed. Without the data it says so and
//! exits 0.

use std::path::PathBuf;
use std::time::Instant;

use gleaner::layout::LayoutProvider;
use gleaner::{Document, ParseOptions};
use gleaner_browser::{BrowserConfig, BrowserLayout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let pages: usize = args.next().map_or(Ok(50), |a| a.parse())?;
    let data = args.next().map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wceb"),
        PathBuf::from,
    );
    let pool: usize = args.next().map_or(Ok(1), |a| a.parse())?;
    let mut files = Vec::new();
    if let Ok(sets) = std::fs::read_dir(&data) {
        for set in sets.flatten() {
            if let Ok(inputs) = std::fs::read_dir(set.path().join("input")) {
                let mut here: Vec<PathBuf> = inputs
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "html"))
                    .collect();
                here.sort();
                files.extend(here);
            }
        }
    }
    if files.is_empty() {
        println!("no pages under {}: nothing to measure", data.display());
        return Ok(());
    }
    // Interleave the datasets: page i of each set in turn.
    files.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
    let provider = BrowserLayout::new(BrowserConfig::default().pool_size(pool))?;
    let options = ParseOptions::default().keep_all_attributes(true);
    let mut times = Vec::with_capacity(pages);
    let mut failures = 0;
    let started = Instant::now();
    for i in 0..pages {
        let Some(path) = files.get(i % files.len()) else { break };
        let bytes = std::fs::read(path)?;
        let Ok(doc) = Document::parse(&bytes, &options) else { continue };
        let t = Instant::now();
        match provider.layout(&doc) {
            Ok(layout) => {
                let boxes = doc.ids().filter(|&id| layout.get(id).is_some()).count();
                assert!(boxes > 0 || doc.len() < 10, "{} has no boxes", path.display());
            }
            Err(e) => {
                failures += 1;
                eprintln!("{}: {e}", path.display());
            }
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if (i + 1) % 100 == 0 {
            let rss: u64 = provider.browser_pids().iter().map(|&p| tree_rss_kib(p)).sum();
            println!("after {:5} pages: browsers' RSS {:6.1} MiB", i + 1, rss as f64 / 1024.0);
        }
    }
    let wall = started.elapsed().as_secs_f64();
    if times.is_empty() {
        println!("no page parsed");
        return Ok(());
    }
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{} pages ({} distinct), {failures} failed, {wall:.1} s: per page mean {mean:.1} ms, \
         median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        times.len(),
        files.len().min(pages),
        pct(0.5),
        pct(0.95),
        pct(1.0)
    );
    Ok(())
}

/// Resident memory of `pid` and every process below it, in KiB.
fn tree_rss_kib(pid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let stats: Vec<(u32, u32, u64)> = entries
        .flatten()
        .filter_map(|e| {
            let p = e.file_name().to_str()?.parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            let status = std::fs::read_to_string(format!("/proc/{p}/status")).ok()?;
            let rss = status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0);
            Some((p, parent, rss))
        })
        .collect();
    let mut tree = vec![pid];
    let mut i = 0;
    while let Some(&p) = tree.get(i) {
        tree.extend(stats.iter().filter(|s| s.1 == p).map(|s| s.0));
        i += 1;
    }
    stats.iter().filter(|s| tree.contains(&s.0)).map(|s| s.2).sum()
}
