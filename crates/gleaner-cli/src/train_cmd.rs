//! `gleaner train`: the learned extractor's models from labelled pages,
//! their cross-validation, or their feature rows for study.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use gleaner::extract::learned::{self, FeatureSet, LearnedModel, PAGE_TYPES};
use gleaner_eval::dataset::Dataset;
use gleaner_eval::train::{self as training, HeldOut, Sample, TrainOptions};
use gleaner_eval::{shingle_page, word_prf};
use rayon::prelude::*;
use serde::Serialize;

use crate::flags::TrainArgs;
use crate::UsageError;

/// Runs `train`.
pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    if args.output.is_none() && !args.cv && args.dump_features.is_none() {
        return Err(UsageError(
            "say what to do: -o MODEL to train, --cv to cross-validate, or --dump-features PREFIX"
                .into(),
        )
        .into());
    }
    let set = FeatureSet { seeds: !args.no_seeds };
    let datasets: Vec<Dataset> = args
        .data
        .iter()
        .map(|d| Dataset::open(d).with_context(|| format!("cannot open dataset {}", d.display())))
        .collect::<anyhow::Result<_>>()?;
    let mut options = TrainOptions {
        features: set,
        folds: args.folds.max(2),
        threshold: args.threshold,
        ..TrainOptions::default()
    };
    if let Some(r) = args.rounds {
        options.blocks.rounds = r;
    }
    if let Some(seed) = args.random_seed {
        options.blocks.seed = seed;
    }
    if !(0.0..=4.0).contains(&args.type_balance) {
        return Err(UsageError(format!(
            "--type-balance {}: give a number from 0 to 4",
            args.type_balance
        ))
        .into());
    }
    options.type_balance = args.type_balance;
    options.dataset_weights = vec![1.0; datasets.len()];
    for spec in &args.dataset_weight {
        let (name, w) = spec
            .split_once('=')
            .ok_or_else(|| UsageError(format!("--dataset-weight {spec:?} is not NAME=W")))?;
        let w: f32 = w
            .parse()
            .ok()
            .filter(|w: &f32| w.is_finite() && *w >= 0.0)
            .ok_or_else(|| UsageError(format!("--dataset-weight {spec:?}: not a weight")))?;
        let i = datasets
            .iter()
            .position(|d| d.name() == name)
            .ok_or_else(|| UsageError(format!("--dataset-weight: no dataset named {name:?}")))?;
        options.dataset_weights[i] = w;
    }
    let threads = crate::worker_threads(args.parallel);
    let pool = gleaner_batch::WorkerPool::new(threads)?;
    let started = Instant::now();
    let (samples, skipped) = training::samples_of(&datasets, set, args.limit, |n, _, one| {
        pool.install(|| (0..n).into_par_iter().map(one).collect())
    });
    let rows: usize = samples.iter().map(Sample::len).sum();
    if !args.no_progress {
        eprintln!(
            "gleaner: {} pages, {rows} blocks read in {:.0} s{}",
            samples.len(),
            started.elapsed().as_secs_f64(),
            if skipped.is_empty() { String::new() } else { format!("; not read: {skipped:?}") }
        );
    }
    if let Some(prefix) = &args.dump_features {
        dump(prefix, &datasets, &samples, set)?;
    }
    let mut report =
        serde_json::json!({ "options": &options, "pages": samples.len(), "blocks": rows });
    // Fixed policies need no held-out pages; chosen ones come from --cv
    // (without it, the model's threshold on every type).
    let rule = args.policies.rule();
    // How the model's policies were set, for its metadata.
    let policy_source = match (rule, args.cv) {
        (training::PolicyRule::Fixed, _) => "fixed",
        (training::PolicyRule::Chosen, true) => "chosen",
        (training::PolicyRule::Chosen, false) => "threshold",
    };
    report["policies_set"] = serde_json::json!(policy_source);
    let mut policies =
        (rule == training::PolicyRule::Fixed).then(|| training::fixed_policies(options.threshold));
    if args.cv {
        let typed: Vec<bool> = datasets.iter().map(Dataset::has_page_types).collect();
        let held = training::cross_validate(&samples, &typed, &options, |k, n| {
            if !args.no_progress {
                eprintln!(
                    "gleaner: fold {k} held out ({n} pages scored, {:.0} s)",
                    started.elapsed().as_secs_f64()
                );
            }
        })?;
        let scores = training::policy_scores(&samples, &held);
        let routed = training::routed_texts(&samples, &held, &scores, options.threshold, rule);
        let (chosen, choices) =
            training::set_policies(rule, &scores.iter().collect::<Vec<_>>(), options.threshold);
        let scored = score_held_out(&samples, &held, &routed);
        crate::print_stdout(&cv_table(&datasets, &held, &scored))?;
        crate::print_stdout(&policy_table(&choices))?;
        report["held_out"] = held_out_report(&held, &routed, &scored)?;
        report["policies"] = serde_json::to_value(&choices)?;
        report["policy_scores"] = serde_json::to_value(&scores)?;
        policies = Some(chosen);
    }
    if let Some(out) = &args.output {
        let mut model = training::train_model(&samples, &options)?;
        if let Some(p) = policies {
            model.policies = p;
        }
        let model = with_metadata(model, &datasets, &samples, &options, policy_source);
        std::fs::write(out, model.to_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
        let importances = importances(&model);
        if !args.no_progress {
            eprintln!(
                "gleaner: model written to {} ({:.0} s); top features:",
                out.display(),
                started.elapsed().as_secs_f64()
            );
            for (name, gain, splits) in importances.iter().take(15) {
                eprintln!("  {name:32} gain {gain:10.1}  splits {splits}");
            }
        }
        report["importances"] = serde_json::to_value(&importances)?;
    }
    if let Some(path) = &args.report {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The report's held-out pages: each one's scores ([`HeldOut`]) with the
/// text its policies kept (`routed`) and that text's word precision,
/// recall and F1 against the gold (`routed_word`), so the pages a model
/// gets wrong out of fold can be read one by one.
fn held_out_report(
    held: &[HeldOut],
    routed: &[String],
    scored: &[PageScores],
) -> anyhow::Result<serde_json::Value> {
    let mut pages = Vec::with_capacity(held.len());
    for ((h, text), s) in held.iter().zip(routed).zip(scored) {
        let mut page = serde_json::to_value(h)?;
        page["routed_word"] = serde_json::json!(&s.routed[..3]);
        page["routed"] = serde_json::Value::String(text.clone());
        pages.push(page);
    }
    Ok(serde_json::Value::Array(pages))
}

/// The model with what it was trained on in its forests' metadata: the
/// datasets' pages, the options, and how its policies were set (`fixed`,
/// `chosen` on the held-out pages of `--cv`, or `threshold`: the model's
/// threshold on every type).
fn with_metadata(
    mut model: LearnedModel,
    datasets: &[Dataset],
    samples: &[Sample],
    options: &TrainOptions,
    policies: &str,
) -> LearnedModel {
    let pages: BTreeMap<&str, usize> = datasets
        .iter()
        .enumerate()
        .map(|(i, d)| (d.name(), samples.iter().filter(|s| s.dataset == i).count()))
        .collect();
    let meta = serde_json::json!({
        "gleaner": env!("CARGO_PKG_VERSION"),
        "datasets": pages,
        "options": options,
        "policies": policies,
    })
    .to_string();
    model.blocks.set_metadata(meta.clone());
    if let Some(t) = model.page_types.as_mut() {
        t.set_metadata(meta);
    }
    model
}

/// Every block feature with its total gain and splits, most gain first.
fn importances(model: &LearnedModel) -> Vec<(String, f64, u64)> {
    let mut out: Vec<(String, f64, u64)> = model
        .blocks
        .feature_names()
        .iter()
        .zip(model.blocks.importances())
        .map(|(n, i)| (n.clone(), i.gain, i.splits))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Mean word P/R/F1 and shingle F1 of a group of held-out pages: the
/// rules' (`article`), the forest's on every page, and the decision with
/// the page types' policies (forest or rules).
#[derive(Default, Serialize)]
struct Cell {
    pages: usize,
    /// Sums of word P, R, F1 and shingle P, R.
    article: [f64; 5],
    model: [f64; 5],
    routed: [f64; 5],
}

/// One held-out page's word P, R, F1 and shingle P, R: of the rules'
/// text (`article`), the forest's and the routed decision's.
struct PageScores {
    article: [f64; 5],
    model: [f64; 5],
    routed: [f64; 5],
}

/// A text's word P, R, F1 and shingle P, R against a gold text.
fn text_scores(text: &str, gold: &str) -> [f64; 5] {
    let w = word_prf(text, gold);
    let s = shingle_page(text, gold);
    [w.precision, w.recall, w.f1, s.precision(), s.recall()]
}

/// Every held-out page's [`PageScores`], in `held` order.
fn score_held_out(samples: &[Sample], held: &[HeldOut], routed: &[String]) -> Vec<PageScores> {
    held.iter()
        .zip(routed)
        .map(|(h, routed)| {
            let s = &samples[h.sample];
            PageScores {
                article: text_scores(&s.article, &s.gold),
                model: text_scores(&h.text, &s.gold),
                routed: text_scores(routed, &s.gold),
            }
        })
        .collect()
}

impl Cell {
    fn add(&mut self, page: &PageScores) {
        self.pages += 1;
        for (acc, scores) in [
            (&mut self.article, page.article),
            (&mut self.model, page.model),
            (&mut self.routed, page.routed),
        ] {
            acc.iter_mut().zip(scores).for_each(|(a, v)| *a += v);
        }
    }

    fn mean(&self, m: &[f64; 5], i: usize) -> f64 {
        if self.pages == 0 {
            return 0.0;
        }
        if i == 3 {
            // Shingle F1 of the mean precision and recall, as the
            // benchmark's corpus figure.
            let (p, r) = (m[3] / self.pages as f64, m[4] / self.pages as f64);
            return if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
        }
        m[i] / self.pages as f64
    }

    /// `F1 (P / R)` of word and the shingle F1 of one accumulator.
    fn cells(&self, m: &[f64; 5]) -> String {
        format!(
            "{:.3} ({:.3} / {:.3}) | {:.3}",
            self.mean(m, 2),
            self.mean(m, 0),
            self.mean(m, 1),
            self.mean(m, 3)
        )
    }
}

/// The policies chosen per predicted page type.
fn policy_table(choices: &[training::PolicyChoice]) -> String {
    let mut out = String::from(
        "\nPolicies by predicted page type (held-out word F1, mean over datasets):\n\n\
         | predicted type | pages | rules | forest at default | forest at best | threshold | decides |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    for c in choices {
        out.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {:.3} | {:.2}{} | {} |\n",
            c.page_type,
            c.pages,
            c.rules,
            c.forest_default,
            c.forest_best,
            c.threshold,
            if c.adaptive { ", adaptive" } else { "" },
            if c.blocks { "forest" } else { "rules" }
        ));
    }
    out
}

/// The cross-validation table: per dataset (and page type), the rules
/// alone, the forest on every page and the forest with the page types'
/// policies (`routed`, one text per held-out page), word F1 (P, R) and
/// shingle F1; then the page types' confusion matrix.
fn cv_table(datasets: &[Dataset], held: &[HeldOut], scored: &[PageScores]) -> String {
    let mut cells: BTreeMap<(usize, usize), Cell> = BTreeMap::new();
    let type_rank = |t: Option<&str>| {
        t.and_then(|t| PAGE_TYPES.iter().position(|p| *p == t)).map_or(0, |i| i + 1)
    };
    for (h, page) in held.iter().zip(scored) {
        cells.entry((h.dataset, 0)).or_default().add(page);
        if h.page_type.is_some() {
            cells.entry((h.dataset, type_rank(h.page_type.as_deref()))).or_default().add(page);
        }
    }
    let mut out = String::from(
        "| dataset | pages | rules word F1 (P / R) | rules shingle F1 | forest word F1 (P / R) | forest shingle F1 | routed word F1 (P / R) | routed shingle F1 |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((d, t), c) in &cells {
        let name = match t {
            0 => datasets[*d].name().to_string(),
            t => format!("{}/{}", datasets[*d].name(), PAGE_TYPES[t - 1]),
        };
        out.push_str(&format!(
            "| {name} | {} | {} | {} | {} |\n",
            c.pages,
            c.cells(&c.article),
            c.cells(&c.model),
            c.cells(&c.routed)
        ));
    }
    let typed: Vec<&HeldOut> = held.iter().filter(|h| h.page_type.is_some()).collect();
    if !typed.is_empty() {
        let correct = typed
            .iter()
            .filter(|h| h.page_type.as_deref() == Some(h.predicted_type.as_str()))
            .count();
        out.push_str(&format!(
            "\nPage types, held out: {correct} of {} right ({:.1} %). Rows: labelled; columns: predicted.\n\n| | {} |\n|---|{}\n",
            typed.len(),
            100.0 * correct as f64 / typed.len() as f64,
            PAGE_TYPES.join(" | "),
            "---:|".repeat(PAGE_TYPES.len())
        ));
        for t in PAGE_TYPES {
            out.push_str(&format!("| {t} |"));
            for p in PAGE_TYPES {
                let n = typed
                    .iter()
                    .filter(|h| h.page_type.as_deref() == Some(t) && h.predicted_type == p)
                    .count();
                out.push_str(&format!(" {n} |"));
            }
            out.push('\n');
        }
    }
    out
}

fn with_ext(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    s.into()
}

/// `--dump-features`: the rows, the pages and the column names.
fn dump(
    prefix: &Path,
    datasets: &[Dataset],
    samples: &[Sample],
    set: FeatureSet,
) -> anyhow::Result<()> {
    let names = learned::feature_names(set);
    let create = |ext: &str| -> anyhow::Result<std::io::BufWriter<std::fs::File>> {
        let path = with_ext(prefix, ext);
        Ok(std::io::BufWriter::new(
            std::fs::File::create(&path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        ))
    };
    let mut rows = create("rows.f32")?;
    let mut pages = create("pages.jsonl")?;
    std::fs::write(with_ext(prefix, "names.json"), serde_json::to_string(&names)?)?;
    let mut next = 0usize;
    for s in samples {
        for b in 0..s.len() {
            rows.write_all(&s.labels[b].to_le_bytes())?;
            for v in &s.rows[b * s.width..(b + 1) * s.width] {
                rows.write_all(&v.to_le_bytes())?;
            }
        }
        let line = serde_json::json!({
            "dataset": datasets[s.dataset].name(),
            "id": s.id,
            "domain": s.domain,
            "page_type": s.page_type.map(|t| PAGE_TYPES[t as usize]),
            "rows": [next, next + s.len()],
            "texts": s.texts,
            "gold": s.gold,
            "article": s.article,
            "words": s.words,
            "in_comments": s.in_comments,
            "is_code": s.is_code,
            "chosen_code": s.chosen_code,
            "product_description": s.product_description,
        });
        next += s.len();
        writeln!(pages, "{line}")?;
    }
    rows.flush()?;
    pages.flush()?;
    Ok(())
}
