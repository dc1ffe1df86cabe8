//! `gleaner eval`: every algorithm (and peer outputs) on every dataset,
//! scored by one implementation of the papers' metrics.
//!
//! Pages run through the batch engine ([`Engine::for_each`], site
//! templates by [`Engine::learn_sites`]), each loaded and parsed once;
//! every algorithm is a [`Job`] scored on the same `Document` by the text
//! `gleaner extract` writes ([`Job::text_for_document`]: the time budget,
//! the page type and the structured data's supplement as there). Timing
//! is per page on the thread that processed it, so `ms_per_page` is
//! single-threaded time even when pages run in parallel: the parse (and
//! with `--layout browser` the page's layout) plus the algorithm plus
//! rendering the text (and, for the first contender that reads it, the
//! page's metadata).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context};
use gleaner::extract::{self, Extractor, Params};
use gleaner::layout::LayoutProvider;
use gleaner::metadata::Metadata;
use gleaner::template::TemplateModel;
use gleaner::Document;
use gleaner_batch::{Engine, Flow, Job, OutputFormat, SiteKey, Sites, Unit, Work};
use gleaner_eval::dataset::{Dataset, Page};
use gleaner_eval::{self as eval, Prf, ShinglePage};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::flags::{EvalArgs, EvalFormat};
use crate::UsageError;

/// Bootstrap resamples for the ± columns.
const RESAMPLES: usize = 1000;
/// Seed of the bootstrap, fixed so that reruns print the same table.
const SEED: u64 = 0x5EED_2023;

/// The metrics `--metric` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Gottron's word-sequence LCS P/R/F1.
    Lcs,
    /// The TTR paper's LCS-char recall and edit-distance-ratio precision.
    Edr,
    /// The ScrapingHub shingle P/R/F1.
    Shingle,
    /// WCXB's bag-of-words P/R/F1 over lower-cased `\w+` tokens, with
    /// its `with`/`without` snippet rates where the dataset has snippets.
    Word,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Lcs => "lcs",
            Metric::Edr => "edr",
            Metric::Shingle => "shingle",
            Metric::Word => "word",
        }
    }

    fn parse_list(s: &str) -> Result<Vec<Metric>, UsageError> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "all" => out.extend([Metric::Lcs, Metric::Edr, Metric::Shingle, Metric::Word]),
                "lcs" => out.push(Metric::Lcs),
                "edr" => out.push(Metric::Edr),
                "shingle" => out.push(Metric::Shingle),
                "word" => out.push(Metric::Word),
                other => {
                    return Err(UsageError(format!(
                        "unknown metric {other:?}: use lcs, edr, shingle, word or all"
                    )))
                }
            }
        }
        out.dedup();
        if out.is_empty() {
            return Err(UsageError("no metric given".into()));
        }
        Ok(out)
    }
}

/// One row of the result table; its JSON form is the `--format json`
/// contract.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Dataset name, or `macro-avg`.
    pub dataset: String,
    /// Algorithm or peer name (with `[key=value]` in sweeps).
    pub algorithm: String,
    /// `lcs`, `edr`, `shingle` or `word`.
    pub metric: String,
    /// Mean precision.
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// F1 (see the metric's definition).
    pub f1: f64,
    /// Standard deviation of F1 over bootstrap resamples of pages.
    pub f1_std: f64,
    /// Share of pages extracted exactly.
    pub accuracy: f64,
    /// Pages scored.
    pub pages: usize,
    /// Pages that failed to load or extract.
    pub failed: usize,
    /// Single-threaded milliseconds per page (parse + extract + render);
    /// null for peers without timing.
    pub ms_per_page: Option<f64>,
    /// `word` on a dataset with snippets (WCXB): the mean share of the
    /// "with" snippets found (higher is better).
    #[serde(rename = "with", skip_serializing_if = "Option::is_none")]
    pub with_rate: Option<f64>,
    /// … and of the "without" (boilerplate) snippets found (lower is
    /// better).
    #[serde(rename = "without", skip_serializing_if = "Option::is_none")]
    pub without_rate: Option<f64>,
    /// With `--by page-type`, the page type the row is restricted to
    /// (its `dataset` is then `DATASET/TYPE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
}

/// One contender: a gleaner algorithm's job or a peer's outputs.
enum Contender {
    /// `templated`: run with the page's site template set aside.
    Algorithm {
        label: String,
        job: Job,
        templated: bool,
    },
    Peer {
        label: String,
        outputs: PeerOutputs,
    },
}

impl Contender {
    fn label(&self) -> &str {
        match self {
            Contender::Algorithm { label, .. } | Contender::Peer { label, .. } => label,
        }
    }
}

/// A peer's texts by page id, and its own timing if it recorded one.
struct PeerOutputs {
    texts: HashMap<String, String>,
    ms_per_page: Option<f64>,
}

/// Scores of one contender on one page.
#[derive(Debug, Clone, Default)]
struct PageScore {
    /// The page id.
    id: String,
    failed: bool,
    /// The gold is empty or unreadable: no metric scores the page.
    no_gold: bool,
    ms: Option<f64>,
    lcs: Option<Prf>,
    edr: Option<Prf>,
    shingle: Option<ShinglePage>,
    word: Option<Prf>,
    /// The snippet rates, when the page has snippets.
    snippets: Option<(f64, f64)>,
    /// The page's labelled type, if any.
    page_type: Option<String>,
}

/// A sweep: one parameter over a range of values.
struct Sweep {
    key: String,
    values: Vec<f64>,
}

impl Sweep {
    fn parse(spec: &str) -> Result<Sweep, UsageError> {
        let err = || UsageError(format!("--sweep {spec:?} is not key=start:end:step"));
        let (key, range) = spec.split_once('=').ok_or_else(err)?;
        let parts: Vec<f64> = range
            .split(':')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| err())?;
        let [start, end, step] = parts[..] else { return Err(err()) };
        if step.is_nan() || step <= 0.0 || end < start || (end - start) / step > 10_000.0 {
            return Err(err());
        }
        let count = ((end - start) / step + 1e-9).floor() as usize + 1;
        let values = (0..count).map(|i| round(start + i as f64 * step)).collect();
        Ok(Sweep { key: key.trim().to_string(), values })
    }
}

fn round(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

/// Runs `eval`.
pub fn run(args: EvalArgs) -> anyhow::Result<std::process::ExitCode> {
    let metrics = Metric::parse_list(&args.metric)?;
    let mut base = Params::new();
    for p in &args.params {
        base.push_assignment(p).map_err(UsageError::from)?;
    }
    let sweep = args.sweep.as_deref().map(Sweep::parse).transpose()?;
    let names = algorithm_names(&args.algorithms, args.site_templates)?;
    let needs_template =
        |name: &str| extract::algorithm(name).is_ok_and(|a| a.capabilities.needs_template);
    if let Some(name) = names.iter().find(|n| needs_template(n) && !args.site_templates) {
        return Err(UsageError(format!("{name} needs a template: add --site-templates")).into());
    }
    if let Some(p) = args.preset.preset() {
        if !names.iter().any(|n| n == extract::DEFAULT_ALGORITHM) {
            return Err(UsageError(format!(
                "--{} tunes the default extractor: include {} in --algorithms",
                p.name(),
                extract::DEFAULT_ALGORITHM
            ))
            .into());
        }
    }
    let site_options = args.clustering.options()?;
    let parse = args.limits.parse_options()?;
    let threads = crate::worker_threads(args.parallel);
    let layout = crate::layout::provider(&args.layout, Some(threads))?;
    // Rows of one algorithm with both layouts can share a table.
    let layout_suffix = if layout.is_some() { "+browser" } else { "" };
    let mut contenders = Vec::new();
    for name in &names {
        // --lines applies to the line-based algorithms only.
        let algorithm = extract::algorithm(name).map_err(UsageError::from)?;
        let base = match args.lines {
            Some(lines) => {
                crate::with_lines(algorithm, &base, lines).unwrap_or_else(|| base.clone())
            }
            None => base.clone(),
        };
        // A preset tunes the default extractor and is named in its rows.
        let (base, preset_suffix) = match args.preset.preset() {
            Some(p) if algorithm.name == extract::DEFAULT_ALGORITHM => {
                (args.preset.apply(algorithm.name, base)?, format!("+{}", p.name()))
            }
            _ => (base, String::new()),
        };
        // Without --site-templates, every algorithm alone; with it, also
        // each with its pages' templates (`NAME+templates`), and the
        // template-only ones (entropy) that way alone, under their name.
        let needs = algorithm.capabilities.needs_template;
        let variants: &[bool] = match (args.site_templates, needs) {
            (false, _) => &[false],
            (true, false) => &[false, true],
            (true, true) => &[true],
        };
        for &templated in variants {
            let suffix = if templated && !needs { "+templates" } else { "" };
            let suffix = format!("{preset_suffix}{suffix}");
            match &sweep {
                None => {
                    let (extractor, label) = match (&args.model, name.as_str()) {
                        (Some(path), "learned") => {
                            let stem = path.file_stem().map_or_else(
                                || "model".into(),
                                |s| s.to_string_lossy().into_owned(),
                            );
                            (crate::learned_with_model(path, &base)?, format!("learned@{stem}"))
                        }
                        _ => (build(name, &base)?, name.clone()),
                    };
                    let label = format!("{label}{suffix}{layout_suffix}");
                    let job = Job::new(extractor, name.as_str(), OutputFormat::Txt);
                    contenders.push(Contender::Algorithm { label, job, templated });
                }
                Some(s) => {
                    for v in &s.values {
                        let params = base.clone().with(&s.key, v);
                        let job = Job::new(build(name, &params)?, name.as_str(), OutputFormat::Txt);
                        let label = format!("{name}{suffix}{layout_suffix}[{}={v}]", s.key);
                        contenders.push(Contender::Algorithm { label, job, templated });
                    }
                }
            }
        }
    }
    if !args.peer_output.is_empty() && args.data.len() != 1 {
        return Err(
            UsageError("--peer-output scores one dataset: give exactly one --data".into()).into()
        );
    }
    for (i, path) in args.peer_output.iter().enumerate() {
        let label = args.peer_name.get(i).cloned().unwrap_or_else(|| peer_name_from_path(path));
        contenders.push(Contender::Peer { label, outputs: read_peer_output(path)? });
    }
    let datasets: Vec<Dataset> = if args.data.is_empty() {
        default_datasets()?
    } else {
        args.data
            .iter()
            .map(|d| {
                Dataset::open(d).with_context(|| format!("cannot open dataset {}", d.display()))
            })
            .collect::<anyhow::Result<_>>()?
    };
    let datasets: Vec<Dataset> =
        datasets.into_iter().map(|d| d.with_parse_options(parse.clone())).collect();
    let total: usize = datasets.iter().map(|d| limit(d.len(), args.limit)).sum();
    let progress = (!args.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .then(|| {
            let bar = ProgressBar::new(total as u64);
            if let Ok(style) =
                ProgressStyle::with_template("{msg:16} {bar:40} {pos}/{len} pages ETA {eta}")
            {
                bar.set_style(style);
            }
            bar
        });
    let mut per_page = match &args.per_page {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => None,
    };
    let mut rows = Vec::new();
    for dataset in &datasets {
        let mut all = contenders.iter().collect::<Vec<_>>();
        let peers_here = match &args.peers_dir {
            Some(dir) => peers_for(dir, dataset.name())?,
            None => Vec::new(),
        };
        all.extend(peers_here.iter());
        if let Some(bar) = &progress {
            bar.set_message(dataset.name().to_string());
        }
        // The engine's job only reads the pages for the site-template
        // pre-pass (with the dataset's parse options; its extractor never
        // runs); the contenders' jobs score.
        let reader = Job::new(build("plain", &Params::new())?, "plain", OutputFormat::Txt)
            .parse_options(dataset.parse_options().clone());
        let engine = Engine::new(&reader, threads)?;
        let pages =
            || (0..limit(dataset.len(), args.limit)).map(|index| DatasetPage { dataset, index });
        let sites = match args.site_templates {
            true => Some(engine.learn_sites(pages(), &site_options)?),
            false => None,
        };
        let scoring = Scoring {
            dataset,
            contenders: &all,
            sites: sites.as_ref(),
            layout: layout.as_deref(),
            metrics: &metrics,
        };
        let scores = score_dataset(&engine, &scoring, pages(), progress.as_ref())?;
        warn_unscored(dataset, scores.first().map_or(&[][..], Vec::as_slice));
        let mut by_type = Vec::new();
        for (c, page_scores) in all.iter().zip(scores) {
            for &m in &metrics {
                rows.push(summarize(dataset.name(), c, m, &page_scores));
            }
            if args.by == Some(crate::flags::EvalBy::PageType) {
                by_type.extend(rows_by_page_type(dataset.name(), c, &metrics, &page_scores));
            }
            if let Some(out) = per_page.as_mut() {
                write_per_page(out, dataset.name(), c.label(), &page_scores)?;
            }
        }
        rows.extend(by_type);
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if datasets.len() > 1 {
        rows.extend(macro_average(&rows));
    }
    if let (Some(plot), Some(s)) = (&args.plot, &sweep) {
        write_sweep_plot(plot, s, &names, &metrics, &rows)?;
    }
    match args.format {
        EvalFormat::Json => crate::print_stdout(&(serde_json::to_string_pretty(&rows)? + "\n"))?,
        EvalFormat::Md => crate::print_stdout(&markdown_table(&rows))?,
        EvalFormat::Pivot => crate::print_stdout(&pivot_tables(&rows, &metrics))?,
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// One warning line for a dataset's files and pages that are not scored:
/// page files without gold, gold without a page file, and pages whose
/// gold is empty (skipped by every metric).
fn warn_unscored(dataset: &Dataset, pages: &[PageScore]) {
    let unpaired = dataset.unpaired();
    let empty = pages.iter().filter(|p| p.no_gold).count();
    if unpaired.pages_without_gold + unpaired.gold_without_pages + empty > 0 {
        eprintln!(
            "gleaner: warning: {}: not scored: {} page files without gold, {} gold without a \
             page file, {empty} pages with empty gold (scored by `word` only: 1 when nothing \
             is extracted, as WCXB scores them)",
            dataset.name(),
            unpaired.pages_without_gold,
            unpaired.gold_without_pages,
        );
    }
    if unpaired.names_not_utf8 > 0 {
        eprintln!(
            "gleaner: warning: {}: not scored: {} files whose names are not UTF-8 (rename them)",
            dataset.name(),
            unpaired.names_not_utf8,
        );
    }
}

/// Every dataset folder in `$GLEANER_DATA`, else in `../shared/data/wceb`.
fn default_datasets() -> anyhow::Result<Vec<Dataset>> {
    let root = std::env::var_os("GLEANER_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data/wceb"));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|e| {
            UsageError(format!(
                "no --data given and {} cannot be read ({e}); give --data DIR or set GLEANER_DATA",
                root.display()
            ))
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let datasets: Vec<Dataset> = dirs.iter().filter_map(|d| Dataset::open(d).ok()).collect();
    if datasets.is_empty() {
        return Err(
            UsageError(format!("no datasets in {}; give --data DIR", root.display())).into()
        );
    }
    Ok(datasets)
}

fn limit(n: usize, limit: Option<usize>) -> usize {
    limit.map_or(n, |l| n.min(l))
}

fn build(name: &str, params: &Params) -> anyhow::Result<Box<dyn Extractor>> {
    let algorithm = extract::algorithm(name).map_err(UsageError::from)?;
    Ok(algorithm.build(params).map_err(UsageError::from)?)
}

/// Page `index` of a dataset, as an item of the engine's source: its
/// site key names it for [`Engine::learn_sites`] (one group: the
/// dataset).
struct DatasetPage<'d> {
    dataset: &'d Dataset,
    index: usize,
}

impl DatasetPage<'_> {
    fn site_key(&self) -> SiteKey {
        let name = self.dataset.ids().get(self.index).cloned().unwrap_or_default();
        SiteKey { group: String::new(), id: self.index.to_string(), name }
    }
}

/// For the site-template pre-pass: the page's bytes and URL (a page that
/// cannot be loaded has no model, as one that does not parse).
impl Work for DatasetPage<'_> {
    type Tag = ();

    fn unit(self, _position: usize, _job: &Job) -> Unit<()> {
        let site = Some(self.site_key());
        match self.dataset.load(self.index) {
            Ok(page) => Unit::Page {
                source: page.id,
                bytes: page.html,
                url: page.url,
                encoding: None,
                site,
                tag: (),
            },
            Err(_) => Unit::Ready { record: None, tag: () },
        }
    }
}

/// `all`, or a comma-separated list of registered names. `all` leaves out
/// the algorithms that need a site template unless `templates` is on.
fn algorithm_names(spec: &str, templates: bool) -> Result<Vec<String>, UsageError> {
    let mut names = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part == "all" {
            names.extend(
                extract::algorithms()
                    .iter()
                    .filter(|a| templates || !a.capabilities.needs_template)
                    .map(|a| a.name.to_string()),
            );
        } else if part == "none" {
            continue;
        } else {
            let a = extract::algorithm(part)?;
            names.push(a.name.to_string());
        }
    }
    names.dedup();
    Ok(names)
}

fn peer_name_from_path(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("peer");
    stem.to_string()
}

/// Reads `{id: {"articleBody": text}}` and, if present beside it,
/// `<name>.timing.json` with `{"ms_per_page": x}`.
fn read_peer_output(path: &Path) -> anyhow::Result<PeerOutputs> {
    let raw = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_slice(&raw).with_context(|| format!("{} is not JSON", path.display()))?;
    let Some(map) = value.as_object() else {
        bail!("{}: expected an object {{id: {{\"articleBody\": text}}}}", path.display());
    };
    let mut texts = HashMap::new();
    for (id, entry) in map {
        let text = entry.get("articleBody").and_then(|b| b.as_str()).unwrap_or("");
        texts.insert(id.clone(), text.to_string());
    }
    let timing = path.with_extension("timing.json");
    let ms_per_page = std::fs::read(&timing)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("ms_per_page").and_then(|m| m.as_f64()));
    Ok(PeerOutputs { texts, ms_per_page })
}

/// Every `<dir>/<dataset>/<peer>.json` (not `*.timing.json`).
fn peers_for(dir: &Path, dataset: &str) -> anyhow::Result<Vec<Contender>> {
    let sub = dir.join(dataset);
    let Ok(entries) = std::fs::read_dir(&sub) else { return Ok(Vec::new()) };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.ends_with(".timing.json")
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            Ok(Contender::Peer { label: peer_name_from_path(p), outputs: read_peer_output(p)? })
        })
        .collect()
}

/// What scoring a page needs besides the page.
struct Scoring<'a> {
    dataset: &'a Dataset,
    contenders: &'a [&'a Contender],
    sites: Option<&'a Sites>,
    layout: Option<&'a dyn LayoutProvider>,
    metrics: &'a [Metric],
}

/// Scores every contender on every page of `pages` on the engine's
/// workers; the outer vector is per contender, the inner per page.
fn score_dataset<'d>(
    engine: &Engine<'_>,
    scoring: &Scoring<'_>,
    pages: impl Iterator<Item = DatasetPage<'d>>,
    progress: Option<&ProgressBar>,
) -> anyhow::Result<Vec<Vec<PageScore>>> {
    let mut per_contender = vec![Vec::new(); scoring.contenders.len()];
    let score = |_: usize, page: DatasetPage<'d>| {
        let model = scoring
            .sites
            .and_then(|s| s.of(&page.site_key()))
            .and_then(|(site, i)| site.model_of(i));
        Some(score_page(scoring, page.index, model))
    };
    engine.for_each(
        pages,
        score,
        // score_page guards every contender itself; a panic outside them
        // (loading, parsing) costs the page, reported as unscored.
        |k, what| {
            eprintln!(
                "gleaner: {}: page {k}: internal error, please report it: {what}",
                scoring.dataset.name()
            );
            None
        },
        |_, scores| {
            if let Some(bar) = progress {
                bar.inc(1);
            }
            for (c, s) in scores.into_iter().flatten().enumerate() {
                if let Some(v) = per_contender.get_mut(c) {
                    v.push(s);
                }
            }
            Ok(Flow::Continue)
        },
    )?;
    Ok(per_contender)
}

/// Every contender's scores on page `index`: the page parsed once (and
/// laid out), its metadata read once, each algorithm's job run on it
/// with `model` (the page's site template) where the contender is
/// templated.
fn score_page(
    scoring: &Scoring<'_>,
    index: usize,
    model: Option<&Arc<TemplateModel>>,
) -> Vec<PageScore> {
    let Scoring { dataset, contenders, layout, metrics, .. } = *scoring;
    let id = dataset.ids().get(index).cloned().unwrap_or_default();
    let page = match dataset.load(index) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gleaner: {}: {id}: {e}", dataset.name());
            // The page cannot be read but its gold may be: then it is
            // scored as an empty extraction, as a page that does not
            // parse is, and peers' outputs are scored as usual.
            let gold = dataset.gold(index).map(|(gold, _)| gold).unwrap_or_default();
            let labels = dataset.labels(index);
            let page = Page { id, html: Vec::new(), gold, url: None, labels };
            return contenders
                .iter()
                .map(|c| {
                    let (text, failed) = match c {
                        Contender::Peer { outputs, .. } => match outputs.texts.get(&page.id) {
                            Some(t) => (t.as_str(), false),
                            None => ("", true),
                        },
                        Contender::Algorithm { .. } => ("", true),
                    };
                    page_score(&page, text, failed, None, metrics)
                })
                .collect();
        }
    };
    if page.gold.trim().is_empty()
        && !(metrics.contains(&Metric::Word) && page.labels.page_type.is_some())
    {
        eprintln!("gleaner: {}: {}: no gold text, the page is not scored", dataset.name(), page.id);
    }
    let started = Instant::now();
    // A layout engine needs every attribute (`style`, `width`, …); the
    // page's layout time counts as parse time.
    let options =
        dataset.parse_options().clone().url(page.url.clone()).keep_all_attributes(layout.is_some());
    let doc = Document::parse(&page.html, &options).and_then(|doc| match layout {
        Some(provider) => {
            let laid_out = provider.layout(&doc)?;
            Ok(doc.with_layout(laid_out))
        }
        None => Ok(doc),
    });
    if let Err(e) = &doc {
        eprintln!("gleaner: {}: {}: {e}", dataset.name(), page.id);
    }
    let parse_ms = started.elapsed().as_secs_f64() * 1e3;
    // The page's metadata, read once for the contenders that read it.
    let (meta, unread) = (std::cell::OnceCell::new(), Metadata::default());
    contenders
        .iter()
        .map(|c| {
            let (text, failed, ms) = match c {
                Contender::Algorithm { job, templated, .. } => match &doc {
                    Ok(doc) => {
                        let t = Instant::now();
                        let model = model.filter(|_| *templated);
                        let ran = gleaner_batch::isolate(|| {
                            let meta = match job.reads_metadata() {
                                true => meta.get_or_init(|| Metadata::extract(doc)),
                                false => &unread,
                            };
                            job.text_for_document(doc, meta, model)
                        });
                        let ms = Some(parse_ms + t.elapsed().as_secs_f64() * 1e3);
                        match ran {
                            Ok(Ok(text)) => (text, false, ms),
                            // Out of the page's time budget (shared by
                            // every contender): an early stop, not its text.
                            Ok(Err(e)) => {
                                eprintln!("gleaner: {}: {}: {e}", dataset.name(), page.id);
                                (String::new(), true, ms)
                            }
                            Err(what) => {
                                eprintln!(
                                    "gleaner: {}: {}: internal error, please report it: {what}",
                                    dataset.name(),
                                    page.id
                                );
                                (String::new(), true, ms)
                            }
                        }
                    }
                    Err(_) => (String::new(), true, Some(parse_ms)),
                },
                Contender::Peer { outputs, .. } => match outputs.texts.get(&page.id) {
                    Some(t) => (t.clone(), false, None),
                    None => (String::new(), true, None),
                },
            };
            page_score(&page, &text, failed, ms, metrics)
        })
        .collect()
}

/// The scores of `text` extracted from `page`. A page whose gold is empty
/// is scored by no metric (every metric skips it alike), except on a
/// WCXB-style dataset (pages labelled with a type), where an empty gold
/// says "this page has no main content" and `word` scores it as the
/// benchmark's scorer does.
fn page_score(
    page: &Page,
    text: &str,
    failed: bool,
    ms: Option<f64>,
    metrics: &[Metric],
) -> PageScore {
    let no_gold = page.gold.trim().is_empty();
    let wants = |m: Metric| !no_gold && metrics.contains(&m);
    PageScore {
        id: page.id.clone(),
        failed,
        no_gold,
        ms,
        lcs: if wants(Metric::Lcs) { eval::lcs_prf(text, &page.gold) } else { None },
        edr: if wants(Metric::Edr) {
            eval::edr_scores(text, &page.gold).map(|e| e.to_prf())
        } else {
            None
        },
        shingle: wants(Metric::Shingle).then(|| eval::shingle_page(text, &page.gold)),
        // WCXB's scorer scores a page with empty gold too (1 when nothing
        // was extracted, else 0), so `word` does.
        word: (metrics.contains(&Metric::Word) && (!no_gold || page.labels.page_type.is_some()))
            .then(|| eval::word_prf(text, &page.gold)),
        // Rates for every page of a dataset with snippets, a page
        // without any scoring 1 for both, as WCXB's scorer counts them.
        snippets: (metrics.contains(&Metric::Word)
            && (page.labels.page_type.is_some()
                || !(page.labels.with.is_empty() && page.labels.without.is_empty())))
        .then(|| {
            (
                eval::snippet_rate(text, &page.labels.with),
                eval::snippet_rate(text, &page.labels.without),
            )
        }),
        page_type: page.labels.page_type.clone(),
    }
}

/// One JSON line per page and contender: the per-page scores behind the
/// table, for finding the pages an algorithm gets wrong.
fn write_per_page(
    out: &mut impl std::io::Write,
    dataset: &str,
    contender: &str,
    pages: &[PageScore],
) -> anyhow::Result<()> {
    for p in pages {
        let prf = |x: Option<Prf>| x.map(|x| serde_json::json!([x.precision, x.recall, x.f1]));
        let shingle = p.shingle.as_ref().map(|s| serde_json::json!([s.precision(), s.recall()]));
        let mut line = serde_json::json!({
            "dataset": dataset,
            "algorithm": contender,
            "id": p.id,
            "failed": p.failed,
            "lcs": prf(p.lcs),
            "edr": prf(p.edr),
            "shingle": shingle,
        });
        // The word metric's keys appear when it was asked for; the
        // snippet rates and page type where the dataset labels them.
        let extra = [
            ("word", prf(p.word)),
            ("with", p.snippets.map(|s| s.0.into())),
            ("without", p.snippets.map(|s| s.1.into())),
            ("page_type", p.page_type.clone().map(Into::into)),
        ];
        for (key, value) in extra {
            if let Some(value) = value {
                line[key] = value;
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn summarize(dataset: &str, contender: &Contender, metric: Metric, pages: &[PageScore]) -> Row {
    let failed = pages.iter().filter(|p| p.failed).count();
    let ms: Vec<f64> = pages.iter().filter_map(|p| p.ms).collect();
    let ms_per_page = match contender {
        Contender::Peer { outputs, .. } => outputs.ms_per_page,
        Contender::Algorithm { .. } if ms.is_empty() => None,
        Contender::Algorithm { .. } => Some(ms.iter().sum::<f64>() / ms.len() as f64),
    };
    let summary = match metric {
        Metric::Shingle => {
            let s: Vec<ShinglePage> = pages.iter().filter_map(|p| p.shingle).collect();
            eval::shingle_summary(&s, RESAMPLES, SEED)
        }
        Metric::Lcs | Metric::Edr | Metric::Word => {
            let prfs: Vec<Prf> = pages
                .iter()
                .filter_map(|p| match metric {
                    Metric::Lcs => p.lcs,
                    Metric::Edr => p.edr,
                    _ => p.word,
                })
                .collect();
            eval::summarize(&prfs, RESAMPLES, SEED)
        }
    };
    let snippets: Vec<(f64, f64)> = pages.iter().filter_map(|p| p.snippets).collect();
    let (with_rate, without_rate) = if metric == Metric::Word && !snippets.is_empty() {
        let n = snippets.len() as f64;
        (
            Some(snippets.iter().map(|s| s.0).sum::<f64>() / n),
            Some(snippets.iter().map(|s| s.1).sum::<f64>() / n),
        )
    } else {
        (None, None)
    };
    Row {
        dataset: dataset.to_string(),
        algorithm: contender.label().to_string(),
        metric: metric.name().to_string(),
        precision: summary.precision,
        recall: summary.recall,
        f1: summary.f1,
        f1_std: summary.f1_std,
        accuracy: summary.accuracy,
        pages: summary.pages,
        failed,
        ms_per_page,
        with_rate,
        without_rate,
        page_type: None,
    }
}

/// The mean over datasets of each (algorithm, metric), for contenders
/// present on every dataset.
fn macro_average(rows: &[Row]) -> Vec<Row> {
    // Over whole datasets: the `--by page-type` rows are parts of them.
    let rows: Vec<Row> = rows.iter().filter(|r| r.page_type.is_none()).cloned().collect();
    let rows = rows.as_slice();
    let datasets: Vec<&str> = unique(rows.iter().map(|r| r.dataset.as_str()));
    let mut out = Vec::new();
    for algorithm in unique(rows.iter().map(|r| r.algorithm.as_str())) {
        for metric in unique(rows.iter().map(|r| r.metric.as_str())) {
            let group: Vec<&Row> =
                rows.iter().filter(|r| r.algorithm == algorithm && r.metric == metric).collect();
            if group.len() != datasets.len() || group.is_empty() {
                continue;
            }
            let k = group.len() as f64;
            let mean = |f: fn(&Row) -> f64| group.iter().map(|r| f(r)).sum::<f64>() / k;
            let pages: usize = group.iter().map(|r| r.pages).sum();
            let ms = if group.iter().all(|r| r.ms_per_page.is_some()) && pages > 0 {
                let weighted: f64 =
                    group.iter().map(|r| r.ms_per_page.unwrap_or(0.0) * r.pages as f64).sum();
                Some(weighted / pages as f64)
            } else {
                None
            };
            out.push(Row {
                dataset: "macro-avg".into(),
                algorithm: algorithm.to_string(),
                metric: metric.to_string(),
                precision: mean(|r| r.precision),
                recall: mean(|r| r.recall),
                f1: mean(|r| r.f1),
                // The standard deviation of a mean of independent estimates.
                f1_std: group.iter().map(|r| r.f1_std * r.f1_std).sum::<f64>().sqrt() / k,
                accuracy: mean(|r| r.accuracy),
                pages,
                failed: group.iter().map(|r| r.failed).sum(),
                ms_per_page: ms,
                with_rate: mean_of(&group, |r| r.with_rate),
                without_rate: mean_of(&group, |r| r.without_rate),
                page_type: None,
            });
        }
    }
    out
}

/// The mean of an optional column over rows that all have it.
fn mean_of(group: &[&Row], f: fn(&Row) -> Option<f64>) -> Option<f64> {
    let values: Option<Vec<f64>> = group.iter().map(|r| f(r)).collect();
    values.filter(|v| !v.is_empty()).map(|v| v.iter().sum::<f64>() / v.len() as f64)
}

/// With `--by page-type`: the rows of each labelled page type of a
/// dataset, `DATASET/TYPE`, types in WCXB's order and then any others.
fn rows_by_page_type(
    dataset: &str,
    contender: &Contender,
    metrics: &[Metric],
    pages: &[PageScore],
) -> Vec<Row> {
    let mut types: Vec<&str> = gleaner_eval::dataset::PAGE_TYPES
        .iter()
        .copied()
        .filter(|t| pages.iter().any(|p| p.page_type.as_deref() == Some(*t)))
        .collect();
    for p in pages {
        if let Some(t) = p.page_type.as_deref() {
            if !types.contains(&t) {
                types.push(t);
            }
        }
    }
    let mut out = Vec::new();
    for t in types {
        let subset: Vec<PageScore> =
            pages.iter().filter(|p| p.page_type.as_deref() == Some(t)).cloned().collect();
        for &m in metrics {
            let mut row = summarize(&format!("{dataset}/{t}"), contender, m, &subset);
            row.page_type = Some(t.to_string());
            out.push(row);
        }
    }
    out
}

fn unique<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for i in items {
        if !seen.contains(&i) {
            seen.push(i);
        }
    }
    seen
}

fn fmt_ms(ms: Option<f64>) -> String {
    ms.map_or_else(|| "–".to_string(), |m| format!("{m:.2}"))
}

/// One row per (dataset, algorithm, metric); the `with` / `without`
/// snippet columns when some row has them (a WCXB-style dataset).
fn markdown_table(rows: &[Row]) -> String {
    let snippets = rows.iter().any(|r| r.with_rate.is_some() || r.without_rate.is_some());
    let mut s =
        String::from("| dataset | algorithm | metric | precision | recall | F1 | ± | accuracy |");
    if snippets {
        s.push_str(" with | without |");
    }
    s.push_str(" pages | failed | ms/page |\n|---|---|---|");
    s.push_str(&"---:|".repeat(if snippets { 10 } else { 8 }));
    s.push('\n');
    let rate = |x: Option<f64>| x.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"));
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            r.dataset, r.algorithm, r.metric, r.precision, r.recall, r.f1, r.f1_std, r.accuracy,
        ));
        if snippets {
            s.push_str(&format!(" {} | {} |", rate(r.with_rate), rate(r.without_rate)));
        }
        s.push_str(&format!(" {} | {} | {} |\n", r.pages, r.failed, fmt_ms(r.ms_per_page)));
    }
    s
}

/// Per metric: algorithms as rows (best macro F1 first), datasets as
/// columns, F1 in the cells; the tables of `docs/evaluation.md`.
fn pivot_tables(rows: &[Row], metrics: &[Metric]) -> String {
    let mut s = String::new();
    for m in metrics {
        let these: Vec<&Row> = rows.iter().filter(|r| r.metric == m.name()).collect();
        let datasets = unique(these.iter().map(|r| r.dataset.as_str()));
        let mut algorithms = unique(these.iter().map(|r| r.algorithm.as_str()));
        let key = |a: &str| {
            these
                .iter()
                .filter(|r| r.algorithm == a)
                .find(|r| r.dataset == "macro-avg")
                .or_else(|| these.iter().find(|r| r.algorithm == a))
                .map_or(0.0, |r| r.f1)
        };
        algorithms.sort_by(|a, b| key(b).total_cmp(&key(a)));
        s.push_str(&format!(
            "\n**{}** F1\n\n| algorithm | {} | ms/page |\n|---|",
            m.name(),
            datasets.join(" | ")
        ));
        s.push_str(&"---:|".repeat(datasets.len() + 1));
        s.push('\n');
        for &a in &algorithms {
            s.push_str(&format!("| {a} |"));
            let mut ms = None;
            for d in &datasets {
                match these.iter().find(|r| r.algorithm == a && r.dataset == *d) {
                    Some(r) => {
                        s.push_str(&format!(" {:.3} |", r.f1));
                        ms = r.ms_per_page;
                    }
                    None => s.push_str(" |"),
                }
            }
            s.push_str(&format!(" {} |\n", fmt_ms(ms)));
        }
        if these.iter().any(|r| r.with_rate.is_some()) {
            for (what, get) in [
                (
                    "with snippets found (higher is better)",
                    (|r: &Row| r.with_rate) as fn(&Row) -> Option<f64>,
                ),
                ("without snippets found (lower is better)", |r: &Row| r.without_rate),
            ] {
                let cols: Vec<&str> = datasets
                    .iter()
                    .copied()
                    .filter(|d| these.iter().any(|r| r.dataset == *d && get(r).is_some()))
                    .collect();
                s.push_str(&format!(
                    "\n**{}**, {what}\n\n| algorithm | {} |\n|---|",
                    m.name(),
                    cols.join(" | ")
                ));
                s.push_str(&"---:|".repeat(cols.len()));
                s.push('\n');
                for a in &algorithms {
                    s.push_str(&format!("| {a} |"));
                    for d in &cols {
                        match these
                            .iter()
                            .find(|r| r.algorithm == *a && r.dataset == *d)
                            .and_then(|r| get(r))
                        {
                            Some(v) => s.push_str(&format!(" {v:.3} |")),
                            None => s.push_str(" |"),
                        }
                    }
                    s.push('\n');
                }
            }
        }
    }
    s
}

/// The sweep's curves: precision and recall (macro over datasets) against
/// the parameter, one pair of series per algorithm and metric.
fn write_sweep_plot(
    path: &Path,
    sweep: &Sweep,
    names: &[String],
    metrics: &[Metric],
    rows: &[Row],
) -> anyhow::Result<()> {
    let dataset = if rows.iter().any(|r| r.dataset == "macro-avg") {
        "macro-avg".to_string()
    } else {
        rows.first().map(|r| r.dataset.clone()).unwrap_or_default()
    };
    let mut series = Vec::new();
    for name in names {
        for m in metrics {
            let at = |v: f64| {
                let label = format!("{name}[{}={v}]", sweep.key);
                rows.iter()
                    .find(|r| r.algorithm == label && r.metric == m.name() && r.dataset == dataset)
            };
            let (p_name, r_name) = match m {
                Metric::Edr => ("EDR precision", "LCS recall"),
                Metric::Lcs => ("LCS precision", "LCS recall"),
                Metric::Shingle => ("shingle precision", "shingle recall"),
                Metric::Word => ("word precision", "word recall"),
            };
            let prefix = if names.len() > 1 { format!("{name} ") } else { String::new() };
            series.push((
                format!("{prefix}{p_name}"),
                sweep.values.iter().map(|&v| at(v).map_or(f64::NAN, |r| r.precision)).collect(),
            ));
            series.push((
                format!("{prefix}{r_name}"),
                sweep.values.iter().map(|&v| at(v).map_or(f64::NAN, |r| r.recall)).collect(),
            ));
        }
    }
    let mut chart =
        gleaner_eval::plot::LineChart::new(format!("{} sweep ({dataset})", names.join(", ")))
            .x_label(sweep.key.clone())
            .y_label("score")
            .x(sweep.values.clone());
    for (name, ys) in series {
        chart = chart.series(name, ys);
    }
    std::fs::write(path, chart.to_svg())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
