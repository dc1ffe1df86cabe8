//! `gleaner train`: the learned extractor's models from labelled pages.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use gleaner::extract::learned::{self, FeatureSet};
use gleaner::metadata::Metadata;
use gleaner::Document;
use gleaner_eval::dataset::Dataset;
use gleaner_eval::labels::GoldIndex;
use rayon::prelude::*;

use crate::flags::TrainArgs;

/// Most blocks of a page the model decides on.
const MAX_BLOCKS: usize = 20_000;

/// One page's rows, labels and what the study of them needs.
struct PageDump {
    labels: Vec<f32>,
    values: Vec<f32>,
    line: serde_json::Value,
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    let set = FeatureSet { seeds: !args.no_seeds };
    let datasets: Vec<Dataset> = args
        .data
        .iter()
        .map(|d| Dataset::open(d).with_context(|| format!("cannot open dataset {}", d.display())))
        .collect::<anyhow::Result<_>>()?;
    let threads = crate::worker_threads(args.parallel);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let Some(prefix) = &args.dump_features else {
        anyhow::bail!("training is not available yet: give --dump-features PREFIX");
    };
    let names = learned::feature_names(set);
    let mut rows = std::io::BufWriter::new(std::fs::File::create(with_ext(prefix, "rows.f32"))?);
    let mut pages =
        std::io::BufWriter::new(std::fs::File::create(with_ext(prefix, "pages.jsonl"))?);
    std::fs::write(with_ext(prefix, "names.json"), serde_json::to_string(&names)?)?;
    let mut next_row = 0usize;
    for dataset in &datasets {
        let n = args.limit.map_or(dataset.len(), |l| l.min(dataset.len()));
        let dumps: Vec<Option<PageDump>> =
            pool.install(|| (0..n).into_par_iter().map(|i| dump_page(dataset, i, set)).collect());
        for d in dumps.into_iter().flatten() {
            let count = d.labels.len();
            let width = names.len();
            for (k, label) in d.labels.iter().enumerate() {
                rows.write_all(&label.to_le_bytes())?;
                for v in &d.values[k * width..(k + 1) * width] {
                    rows.write_all(&v.to_le_bytes())?;
                }
            }
            let mut line = d.line;
            line["rows"] = serde_json::json!([next_row, next_row + count]);
            next_row += count;
            writeln!(pages, "{line}")?;
        }
        eprintln!("gleaner: {}: {n} pages, {next_row} rows so far", dataset.name());
    }
    rows.flush()?;
    pages.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn with_ext(prefix: &Path, ext: &str) -> std::path::PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    s.into()
}

fn dump_page(dataset: &Dataset, index: usize, set: FeatureSet) -> Option<PageDump> {
    let page = match dataset.load(index) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gleaner: {}: page {index}: {e}", dataset.name());
            return None;
        }
    };
    let options = dataset.parse_options().clone().url(page.url.clone());
    let doc = match Document::parse(&page.html, &options) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("gleaner: {}: {}: {e}", dataset.name(), page.id);
            return None;
        }
    };
    let meta = Metadata::extract(&doc);
    let rows = learned::page_rows(&doc, &meta, set, MAX_BLOCKS)?;
    let gold = GoldIndex::new(&page.gold);
    let texts: Vec<String> = (0..rows.len()).map(|i| rows.blocks.text(&doc, i)).collect();
    let labels: Vec<f32> = texts.iter().map(|t| gold.coverage(t)).collect();
    let domain = page
        .url
        .as_deref()
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(|h| h.trim_start_matches("www.").to_string()))
        .unwrap_or_default();
    let article = gleaner::render::text(&doc, &rows.article);
    let line = serde_json::json!({
        "dataset": dataset.name(),
        "id": page.id,
        "domain": domain,
        "page_type": page.labels.page_type,
        "texts": texts,
        "gold": page.gold,
        "article": article,
    });
    Some(PageDump { labels, values: rows.values, line })
}
