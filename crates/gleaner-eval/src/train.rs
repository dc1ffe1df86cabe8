//! Training the learned extractor (issue 32): labelled pages in, a
//! [`LearnedModel`] out, reproducibly; and its honest validation, folds
//! by dataset and by domain.
//!
//! 1. **Samples** ([`sample_page`]): each page's block rows
//!    ([`page_rows`]), each block's label (the share of its words the
//!    page's alignment with the gold matches, [`labels::block_labels`])
//!    and weight (its share of the page's words, so every page weighs the
//!    same, as the per-page averaged metrics count them), the page's type
//!    label when the dataset has one.
//! 2. **Page types**: a softmax forest over the page features, trained on
//!    the pages with a type label. The block rows are given the types'
//!    probabilities *out of fold* ([`TrainOptions::folds`] folds by
//!    domain), so that the block model learns from probabilities as good
//!    as it will meet on new pages (stacking, Wolpert 1992).
//! 3. **Blocks**: a binary forest over the block rows and the type
//!    probabilities.
//! 4. **Policies** ([`choose_policies`]): with cross-validation, for each
//!    predicted page type, whether the forest or `article`'s rules decide
//!    and at which score, chosen on the held-out pages' word F1.
//!
//! Everything is deterministic: pages in dataset order, folds from a hash
//! of the domain, forests trained with fixed seeds ([`crate::train`]'s
//! trees are single-threaded and seeded).

use std::collections::BTreeMap;

use gleaner::boost::{self, Forest, Target, TrainConfig};
use gleaner::extract::learned::{
    alike, block_columns, falls_back, feedback, footer_only, lowered_selection, machine_text, page,
    page_rows, posts, repeats, selected_blocks, threshold, FeatureSet, LearnedModel, PageFooter,
    PageType, TypePolicy, PAGE_TYPES, SHORT_SELECTION_WORDS,
};
use gleaner::extract::{comments, structured};
use gleaner::metadata::Metadata;
use gleaner::Document;
use rayon::prelude::*;
use serde::Serialize;

use crate::dataset::{Dataset, Page};
use crate::labels;
use crate::{word_prf, word_tokens};
use crate::{Error, Result};

/// Most blocks of a page used in training (pages with more are left to
/// `article` by the extractor too).
pub const MAX_BLOCKS: usize = gleaner::extract::learned::MAX_BLOCKS;

/// One page's training rows.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The dataset's index among those given.
    pub dataset: usize,
    /// The page id.
    pub id: String,
    /// The page's domain (its URL's host without `www.`), for folds.
    pub domain: String,
    /// The labelled page type, as an index of [`PAGE_TYPES`].
    pub page_type: Option<u32>,
    /// The page features.
    pub page: Vec<f32>,
    /// Block rows, row-major, [`Sample::width`] columns each.
    pub rows: Vec<f32>,
    /// Columns of a row (without the type probabilities).
    pub width: usize,
    /// Each block's label: the share of its words in the gold.
    pub labels: Vec<f32>,
    /// Each block's weight: its share of the page's words.
    pub weights: Vec<f32>,
    /// Each block's text, for scoring a held-out page: white space
    /// collapsed and trimmed ([`gleaner::extract::learned::Blocks::text`]),
    /// as the extractor's repeats compare it.
    pub texts: Vec<String>,
    /// Each block's words as the extractor counts them, for a page's own
    /// threshold ([`gleaner::extract::learned::threshold`]).
    pub words: Vec<u32>,
    /// The gold text.
    pub gold: String,
    /// What `article` (the rules alone) extracts, for comparison.
    pub article: String,
    /// The page's JSON-LD product description, which the default adds to
    /// a product page's short text ([`structured::complete_with`]).
    pub product_description: Option<String>,
    /// Each block: is it in one of the page's comment sections, which
    /// the default sets apart on every page but one surely a forum thread
    /// ([`gleaner::extract::learned::comment_sections`])?
    pub in_comments: Vec<bool>,
    /// Each block: is it code, which the default never leaves out as a
    /// repeat ([`repeats::is_code`])?
    pub is_code: Vec<bool>,
    /// Each block: is it code in `article`'s container, which the default
    /// keeps whatever its score
    /// ([`gleaner::extract::learned::features::PageRows::is_chosen_code`])?
    pub chosen_code: Vec<bool>,
    /// The blocks that read as a post's author or date, which the default
    /// adds beside the kept posts of a thread ([`posts::candidates`]).
    pub post_headers: Vec<posts::Candidate>,
    /// The blocks at one place in the page's repeated posts, cards or
    /// sections, which the default keeps alike ([`alike::groups`]).
    pub alike: Vec<alike::Group>,
    /// Each block: does the default leave it out whatever its score, as
    /// a reader's feedback prompt ([`feedback::is_prompt`]) or as text
    /// written for machines, not code ([`machine_text::is_machine_block`])?
    pub left_out: Vec<bool>,
    /// Each block: is it in the page's footer, which the default does not
    /// keep alone ([`gleaner::extract::learned::footer_only`])?
    pub in_footer: Vec<bool>,
    /// Each block's parent element (an id of it), which a repeated
    /// paragraph must not share with what it repeats to be a thread's
    /// quote ([`repeats::repeats`]).
    pub parents: Vec<u32>,
    /// Is [`Sample::article`] the page's footer alone, which the default
    /// gives as no text ([`gleaner::extract::learned::selection_in_footer`])?
    pub article_in_footer: bool,
}

impl Sample {
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// The rules' text as the default gives it when they decide:
    /// [`Sample::article`], or none when that is the page's footer alone
    /// ([`gleaner::extract::learned::selection_in_footer`]).
    pub fn rules_text(&self) -> &str {
        match self.article_in_footer {
            true => "",
            false => &self.article,
        }
    }

    /// What the page's fold is drawn from: its domain, or its id when
    /// the dataset gives no URL (every page then a domain of its own).
    pub fn fold_key(&self) -> &str {
        if self.domain.is_empty() {
            &self.id
        } else {
            &self.domain
        }
    }

    /// Is the page without blocks?
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// The domain of a URL: its host, `www.` cut off.
pub fn domain_of(url: Option<&str>) -> String {
    url.and_then(|u| url::Url::parse(u.trim()).ok())
        .and_then(|u| u.host_str().map(|h| h.trim_start_matches("www.").to_ascii_lowercase()))
        .unwrap_or_default()
}

/// A page's sample; `None` when the page cannot be parsed or has too
/// many blocks (the extractor leaves it to `article` too).
pub fn sample_page(
    dataset: usize,
    page: &Page,
    parse: &gleaner::ParseOptions,
    set: FeatureSet,
) -> Option<Sample> {
    let options = parse.clone().url(page.url.clone());
    let doc = Document::parse(&page.html, &options).ok()?;
    let meta = Metadata::extract(&doc);
    let rows = page_rows(&doc, &meta, set, MAX_BLOCKS)?;
    let texts: Vec<String> = (0..rows.len()).map(|i| rows.blocks.text(&doc, i)).collect();
    let sections = comments::sections(&doc, &rows.article);
    let in_comments: Vec<bool> = (0..rows.len())
        .map(|i| {
            let t = rows.blocks.texts(i);
            !t.is_empty() && t.iter().all(|&id| sections.contains(id))
        })
        .collect();
    let is_code: Vec<bool> =
        (0..rows.len()).map(|i| repeats::is_code(&doc, &rows.blocks, i)).collect();
    let chosen_code: Vec<bool> = (0..rows.len()).map(|i| rows.is_chosen_code(&doc, i)).collect();
    let post_headers = posts::candidates(&doc, &rows.blocks);
    let alike = alike::groups(&doc, &rows.blocks);
    let left_out: Vec<bool> = (0..rows.len())
        .map(|i| {
            feedback::is_prompt(&texts[i]) || machine_text::is_machine_block(&doc, &rows.blocks, i)
        })
        .collect();
    let parents = repeats::parents(&doc, &rows.blocks);
    let mut footer = PageFooter::new(&doc);
    let in_footer: Vec<bool> = rows.blocks.blocks.iter().map(|b| footer.holds(b)).collect();
    let article_in_footer =
        footer_only(selected_blocks(&rows.blocks, &rows.article).map(|i| in_footer[i]));
    let tokens: Vec<Vec<String>> = texts.iter().map(|t| word_tokens(t)).collect();
    let labels = labels::block_labels(&tokens, &page.gold);
    let total: usize = tokens.iter().map(Vec::len).sum();
    let weights: Vec<f32> = tokens
        .iter()
        .map(|t| if total == 0 { 0.0 } else { t.len() as f32 / total as f32 })
        .collect();
    let page_type = page
        .labels
        .page_type
        .as_deref()
        .and_then(|t| PAGE_TYPES.iter().position(|p| *p == t))
        .map(|i| i as u32);
    Some(Sample {
        dataset,
        id: page.id.clone(),
        domain: domain_of(page.url.as_deref()),
        page_type,
        page: rows.page.clone(),
        width: rows.width,
        rows: rows.values,
        labels,
        weights,
        words: rows.blocks.blocks.iter().map(|b| b.words).collect(),
        texts,
        gold: page.gold.clone(),
        article: gleaner::render::text(&doc, &rows.article),
        product_description: meta.product_description.clone(),
        in_comments,
        is_code,
        chosen_code,
        post_headers,
        alike,
        left_out,
        parents,
        in_footer,
        article_in_footer,
    })
}

/// How to train.
#[derive(Debug, Clone, Serialize)]
pub struct TrainOptions {
    /// The feature families.
    #[serde(skip)]
    pub features: FeatureSet,
    /// Folds by domain for the page types' out-of-fold probabilities and
    /// for cross-validation.
    pub folds: u32,
    /// The block forest's configuration.
    pub blocks: TrainConfig,
    /// The page-type forest's configuration.
    pub page_types: TrainConfig,
    /// Blocks scoring at least this are kept.
    pub threshold: f32,
    /// Each dataset's weight, by index (1 when absent).
    pub dataset_weights: Vec<f32>,
    /// How far the block forest evens out page types within a dataset: a
    /// page of a labelled type weighs `(most / pages of its type)^
    /// type_balance`, `most` being the dataset's commonest type's pages
    /// among those trained on (pages without a type label count as
    /// articles), scaled so that each dataset weighs what it did. 0 weighs
    /// every page alike; 1 gives every type of a dataset the same weight.
    /// Written to a model's options only when not 0, so that models
    /// trained without it stay byte for byte what they were.
    #[serde(skip_serializing_if = "is_zero")]
    pub type_balance: f32,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            features: FeatureSet::default(),
            folds: 5,
            blocks: TrainConfig {
                rounds: 200,
                learning_rate: 0.1,
                max_leaves: 63,
                // Complete trees of depth 6 are scored branch-free
                // (`boost`'s batch path): a fraction of the cost.
                max_depth: Some(6),
                min_data_in_leaf: 50,
                feature_fraction: 0.5,
                bagging_fraction: 0.8,
                lambda_l2: 1.0,
                seed: 32,
                ..TrainConfig::default()
            },
            page_types: TrainConfig {
                rounds: 200,
                learning_rate: 0.05,
                max_leaves: 15,
                min_data_in_leaf: 5,
                feature_fraction: 0.7,
                bagging_fraction: 0.8,
                lambda_l2: 1.0,
                seed: 30,
                ..TrainConfig::default()
            },
            threshold: 0.5,
            dataset_weights: Vec::new(),
            type_balance: TYPE_BALANCE,
        }
    }
}

/// Is `x` zero? (For serde.)
fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

/// The default [`TrainOptions::type_balance`].
pub const TYPE_BALANCE: f32 = 0.0;

/// Each page type's weight within one dataset (see
/// [`TrainOptions::type_balance`]), in [`PAGE_TYPES`] order, from its
/// pages of each type trained on: `(most / pages)^balance`, scaled so
/// that the dataset's pages weigh what they did (types trade weight
/// within a dataset, datasets keep theirs).
fn type_weights(pages: &[usize; 7], balance: f32) -> [f32; 7] {
    let most = pages.iter().copied().max().unwrap_or(0) as f64;
    let raw = pages.map(|n| if n == 0 { 1.0 } else { (most / n as f64).powf(f64::from(balance)) });
    let total: usize = pages.iter().sum();
    let weighed: f64 = pages.iter().zip(raw).map(|(&n, w)| n as f64 * w).sum();
    let scale = if weighed > 0.0 { total as f64 / weighed } else { 1.0 };
    raw.map(|w| (w * scale) as f32)
}

/// The fold of a page: a hash of its domain (FNV-1a, stable across
/// builds and platforms), so every page of a domain is in one fold.
pub fn domain_fold(domain: &str, folds: u32) -> u32 {
    (gleaner::hash::fnv1a(domain.as_bytes()) % u64::from(folds.max(1))) as u32
}

/// Trains the page-type forest on the samples with a type label among
/// `use_page`; `None` when fewer than two types occur.
fn train_page_types(
    samples: &[Sample],
    use_page: &dyn Fn(usize) -> bool,
    config: &TrainConfig,
) -> Result<Option<Forest>> {
    let names = page::feature_names();
    let mut x = Vec::new();
    let mut classes = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if let (true, Some(t)) = (use_page(i), s.page_type) {
            x.extend_from_slice(&s.page);
            classes.push(t);
        }
    }
    let mut distinct = classes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 2 {
        return Ok(None);
    }
    let target = Target::Softmax { classes: &classes, n_classes: PAGE_TYPES.len() };
    let data = boost::Dataset::new(&x, names.len(), target)?;
    Ok(Some(boost::train(config, &names, &data, None)?.forest))
}

fn probabilities(forest: Option<&Forest>, page: &[f32]) -> [f32; 7] {
    let mut p = [0f32; 7];
    match forest {
        Some(f) => f.predict_proba_multi(page, &mut p),
        None => p[0] = 1.0,
    }
    p
}

/// The page-type probabilities of every sample among `use_page`, out of
/// fold for the labelled ones (a forest trained without their fold) and
/// from a forest of every labelled page of `use_page` for the others.
fn stacked_types(
    samples: &[Sample],
    use_page: &dyn Fn(usize) -> bool,
    options: &TrainOptions,
) -> Result<(Option<Forest>, Vec<[f32; 7]>)> {
    let all = train_page_types(samples, use_page, &options.page_types)?;
    let mut probs: Vec<[f32; 7]> =
        samples.iter().map(|s| probabilities(all.as_ref(), &s.page)).collect();
    if all.is_some() {
        for k in 0..options.folds {
            let fold = |i: usize| domain_fold(&samples[i].domain, options.folds) == k;
            let forest =
                train_page_types(samples, &|i| use_page(i) && !fold(i), &options.page_types)?;
            for (i, s) in samples.iter().enumerate() {
                if use_page(i) && s.page_type.is_some() && fold(i) {
                    probs[i] = probabilities(forest.as_ref(), &s.page);
                }
            }
        }
    }
    Ok((all, probs))
}

/// Trains the block forest on the samples among `use_page`, their rows
/// given the type probabilities `probs`.
fn train_blocks(
    samples: &[Sample],
    use_page: &dyn Fn(usize) -> bool,
    probs: &[[f32; 7]],
    options: &TrainOptions,
) -> Result<Forest> {
    let names = block_columns(options.features);
    let width = names.len();
    // The rows, and the pages of each type in each dataset, trained on.
    let type_of = |s: &Sample| s.page_type.map_or(0, |t| t as usize);
    let mut rows = 0;
    let mut pages = vec![[0usize; 7]; samples.iter().map(|s| s.dataset + 1).max().unwrap_or(0)];
    for (_, s) in samples.iter().enumerate().filter(|(i, _)| use_page(*i)) {
        rows += s.len();
        pages[s.dataset][type_of(s)] += 1;
    }
    let type_weight: Vec<[f32; 7]> =
        pages.iter().map(|p| type_weights(p, options.type_balance)).collect();
    let mut x = Vec::with_capacity(rows * width);
    let mut y = Vec::with_capacity(rows);
    let mut w = Vec::with_capacity(rows);
    for (i, s) in samples.iter().enumerate() {
        if !use_page(i) {
            continue;
        }
        let dw = options.dataset_weights.get(s.dataset).copied().unwrap_or(1.0)
            * type_weight[s.dataset][type_of(s)];
        for b in 0..s.len() {
            x.extend_from_slice(&s.rows[b * s.width..(b + 1) * s.width]);
            x.extend_from_slice(&probs[i]);
            y.push(s.labels[b]);
            w.push(s.weights[b] * dw);
        }
    }
    if y.is_empty() {
        return Err(Error::Dataset("no labelled blocks to train on".into()));
    }
    // Weights scaled to a mean of 1 per block: each page still weighs the
    // same, and the trees' L2 penalty and least leaf weight mean the same
    // for a user's three pages as for thousands.
    let total: f64 = w.iter().map(|&v| f64::from(v)).sum();
    if total > 0.0 {
        let scale = (y.len() as f64 / total) as f32;
        w.iter_mut().for_each(|v| *v *= scale);
    }
    let data = boost::Dataset::new(&x, width, Target::Binary(&y))?.with_weights(&w)?;
    // A leaf needs its blocks, but a user's few labelled pages have few
    // of them: at most one block in 200 (at least 2).
    let config = TrainConfig {
        min_data_in_leaf: options.blocks.min_data_in_leaf.min((y.len() / 200).max(2)),
        ..options.blocks.clone()
    };
    Ok(boost::train(&config, &names, &data, None)?.forest)
}

/// Trains the whole model on every sample.
///
/// # Errors
/// [`Error::Dataset`] without labelled blocks; the forests' training
/// errors.
pub fn train_model(samples: &[Sample], options: &TrainOptions) -> Result<LearnedModel> {
    let every = |_: usize| true;
    let (page_types, probs) = stacked_types(samples, &every, options)?;
    let blocks = train_blocks(samples, &every, &probs, options)?;
    Ok(LearnedModel {
        features: options.features,
        threshold: options.threshold,
        policies: [TypePolicy::blocks(options.threshold); 7],
        page_types,
        blocks,
    })
}

/// A held-out page's scores.
#[derive(Debug, Clone, Serialize)]
pub struct HeldOut {
    /// The sample's index.
    #[serde(skip)]
    pub sample: usize,
    /// The dataset's index.
    pub dataset: usize,
    /// The page id.
    pub id: String,
    /// The fold the page was held out in.
    pub fold: u32,
    /// Its labelled type.
    pub page_type: Option<String>,
    /// Its predicted type.
    pub predicted_type: String,
    /// Every type's probability, in [`PAGE_TYPES`] order (out of fold).
    pub type_probabilities: [f32; 7],
    /// Each block's score, in block order (`gleaner train --cv --report`
    /// writes them, so other decisions can be studied on them).
    pub scores: Vec<f32>,
    /// The text kept at the model's threshold.
    #[serde(skip)]
    pub text: String,
}

/// The fold a sample is held out in: its domain's fold for a dataset with
/// page types or when there is one dataset; a fold of its own for each
/// other dataset (folds by dataset).
pub fn fold_of(sample: &Sample, typed: &[bool], folds: u32) -> u32 {
    if typed.len() == 1 {
        // One dataset: by domain, or by page when it gives no URLs.
        domain_fold(sample.fold_key(), folds)
    } else if typed.get(sample.dataset).copied().unwrap_or(false) {
        domain_fold(&sample.domain, folds)
    } else {
        folds + sample.dataset as u32
    }
}

/// Cross-validation: for every fold, the whole model trained without it
/// and run on it. Folds are by domain within datasets with page types (or
/// a single dataset) and by dataset otherwise ([`fold_of`]).
///
/// # Errors
/// As [`train_model`].
pub fn cross_validate(
    samples: &[Sample],
    typed: &[bool],
    options: &TrainOptions,
    progress: impl Fn(u32, usize) + Sync,
) -> Result<Vec<HeldOut>> {
    let folds: Vec<u32> = samples.iter().map(|s| fold_of(s, typed, options.folds)).collect();
    let mut distinct: Vec<u32> = folds.clone();
    distinct.sort_unstable();
    distinct.dedup();
    // Folds are independent: trained in parallel, gathered in fold order.
    let per_fold: Vec<Result<Vec<HeldOut>>> = distinct
        .par_iter()
        .map(|&k| {
            let held = held_out_fold(samples, &folds, k, options)?;
            progress(k, held.len());
            Ok(held)
        })
        .collect();
    let mut out = Vec::new();
    for held in per_fold {
        out.extend(held?);
    }
    Ok(out)
}

/// The pages of fold `k`, scored by the model trained without it.
fn held_out_fold(
    samples: &[Sample],
    folds: &[u32],
    k: u32,
    options: &TrainOptions,
) -> Result<Vec<HeldOut>> {
    let train = |i: usize| folds[i] != k;
    let (types, probs) = stacked_types(samples, &train, options)?;
    let blocks = train_blocks(samples, &train, &probs, options)?;
    let mut out = Vec::new();
    let mut row = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if folds[i] != k {
            continue;
        }
        let p = probabilities(types.as_ref(), &s.page);
        let best = (0..7).fold(0, |b, t| if p[t] > p[b] { t } else { b });
        let mut scores = Vec::with_capacity(s.len());
        for b in 0..s.len() {
            row.clear();
            row.extend_from_slice(&s.rows[b * s.width..(b + 1) * s.width]);
            row.extend_from_slice(&p);
            scores.push(blocks.predict_proba(&row));
        }
        let text = signed_text(s, &scores, options.threshold, Predicted::of(&p, best));
        out.push(HeldOut {
            sample: i,
            dataset: s.dataset,
            id: s.id.clone(),
            fold: k,
            page_type: s.page_type.map(|t| PAGE_TYPES[t as usize].to_string()),
            predicted_type: PAGE_TYPES[best].to_string(),
            type_probabilities: p,
            scores,
            text,
        });
    }
    Ok(out)
}

/// The samples of every dataset, in order; pages that cannot be sampled
/// are counted, not kept.
pub fn samples_of(
    datasets: &[Dataset],
    set: FeatureSet,
    limit: Option<usize>,
    map: impl Fn(usize, &Dataset, &(dyn Fn(usize) -> Option<Sample> + Sync)) -> Vec<Option<Sample>>,
) -> (Vec<Sample>, BTreeMap<String, usize>) {
    let mut samples = Vec::new();
    let mut skipped = BTreeMap::new();
    for (d, dataset) in datasets.iter().enumerate() {
        let n = limit.map_or(dataset.len(), |l| l.min(dataset.len()));
        let one = |i: usize| -> Option<Sample> {
            let page = dataset.load(i).ok()?;
            sample_page(d, &page, dataset.parse_options(), set)
        };
        let got = map(n, dataset, &one);
        for s in got {
            match s {
                Some(s) => samples.push(s),
                None => *skipped.entry(dataset.name().to_string()).or_insert(0) += 1,
            }
        }
    }
    (samples, skipped)
}

/// The thresholds a page type's policy is chosen among.
pub const POLICY_THRESHOLDS: [f32; 16] =
    [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];

/// Fewest held-out pages of a dataset in a predicted type for the dataset
/// to count in the type's choice.
pub const MIN_POLICY_PAGES: usize = 5;

/// What the rules must gain over the forest on a type (mean word F1) for
/// the type to be given to them: a tie goes to the forest. (The other
/// way round — the forest had to gain 0.002 — a type went to the rules
/// on a thin margin in some folds and not in others; out of fold that
/// cost 0.012 on WCXB-dev, 0.019 on its articles.)
pub const POLICY_MARGIN: f64 = 0.01;

/// What another threshold must gain over the default on a type (mean word
/// F1) to be chosen instead. Thresholds a few thousandths apart trade
/// places from fold to fold; kept at the default unless one clearly wins,
/// the routed figure rose on three cross-validations of different models
/// (WCXB-dev +0.001 to +0.002 out of fold; no WCEB set lower by more
/// than 0.001).
pub const THRESHOLD_MARGIN: f64 = 0.005;

/// How the page types' policies are set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolicyRule {
    /// Chosen on the held-out pages' word F1 ([`choose_policies`]): for
    /// labels of one's own, whose convention the defaults may not fit.
    #[default]
    Chosen,
    /// [`fixed_policies`], the same whatever the held-out pages say.
    Fixed,
}

/// The threshold of the [`fixed_policies`] of page types made of many
/// items (products, collections, listings, service pages), adaptive.
pub const FIXED_ITEMS_THRESHOLD: f32 = 0.15;

/// Policies set without the held-out pages: the forest decides every
/// type; pages of one body (articles, forum threads, documentation) at
/// `threshold`, pages of many items (products, collections, listings,
/// service pages) at [`FIXED_ITEMS_THRESHOLD`], adaptive (their gold keeps
/// every card and section, which the forest scores lower than a body).
pub fn fixed_policies(threshold: f32) -> [TypePolicy; 7] {
    std::array::from_fn(|t| match PAGE_TYPES[t] {
        "article" | "forum" | "documentation" => TypePolicy::blocks(threshold),
        _ => TypePolicy { blocks: true, threshold: FIXED_ITEMS_THRESHOLD, adaptive: true },
    })
}

/// The threshold a page of a type with this policy threshold gets: the
/// threshold itself, or with `adaptive` the page's own
/// ([`threshold::page_threshold`], over the sample's blocks' scores and
/// words), as the extractor decides.
pub fn page_threshold(sample: &Sample, scores: &[f32], threshold: f32, adaptive: bool) -> f32 {
    match adaptive {
        true => threshold::page_threshold(threshold, scores, &sample.words),
        false => threshold,
    }
}

/// The type a page is predicted and the classifier's probability of it:
/// what the steps after the block decision read (comments apart, parts
/// kept alike, posts signed; [`PageType::is_sure_thread`]).
#[derive(Debug, Clone, Copy)]
pub struct Predicted {
    /// The type.
    pub page_type: PageType,
    /// Its probability.
    pub probability: f32,
}

impl Predicted {
    /// Type `index` of [`PAGE_TYPES`] (an article out of range) of a page
    /// whose type probabilities are `probabilities`.
    pub fn of(probabilities: &[f32; 7], index: usize) -> Predicted {
        Predicted {
            page_type: PageType::from_index(index).unwrap_or_default(),
            probability: probabilities.get(index).copied().unwrap_or(0.0),
        }
    }
}

/// The text of a sample's blocks scoring at least `threshold`, and of
/// the code in `article`'s container, as the extractor keeps them for a
/// page `predicted` of a type: less
/// the blocks in comment sections on every
/// page but one surely a forum thread, unless only they have text
/// ([`gleaner::extract::learned::comment_sections`]), less the blocks
/// that read as a reader's feedback prompt ([`feedback::is_prompt`]) or
/// as text written for machines, not code ([`machine_text::is_machine_block`]),
/// and less the blocks that repeat earlier ones ([`repeats::repeats`]).
/// The trainer counts words in this text to decide whether a selection is
/// short ([`SHORT_SELECTION_WORDS`]), where the extractor counts them
/// before the comments, prompts, machine text and repeats are taken out: on a selection
/// near the bound the two can differ. The text the extractor gives also
/// has what it adds after its decision ([`signed_text`]).
pub fn kept_text(sample: &Sample, scores: &[f32], threshold: f32, predicted: Predicted) -> String {
    blocks_text(sample, &kept_blocks(sample, scores, threshold, predicted))
}

/// [`kept_text`] with what the extractor adds after its decision: the
/// blocks of repeated parts kept alike and, on a page predicted to be a
/// forum thread, the author and date blocks of each kept post
/// ([`alike::to_add`], [`posts::signing`]), as the extractor gives the
/// page's text.
pub fn signed_text(
    sample: &Sample,
    scores: &[f32],
    threshold: f32,
    predicted: Predicted,
) -> String {
    let (mut kept, repeated) = kept_and_repeated(sample, scores, threshold, predicted);
    add_after_decision(sample, predicted, &mut kept, &repeated);
    blocks_text(sample, &kept)
}

/// Adds to `kept` the blocks at the place of those of most of the page's
/// kept posts, cards or sections (of any one post where the page is
/// predicted a forum thread with a probability of
/// [`SURE_THREAD`](gleaner::extract::learned::SURE_THREAD) or more) but for the `repeated` ones
/// ([`alike::to_add`]), feedback prompts or machine text, then, on a page predicted to be a forum thread,
/// the author and date blocks of each kept post ([`posts::signing`]);
/// true when it added one.
fn add_after_decision(
    sample: &Sample,
    predicted: Predicted,
    kept: &mut [bool],
    repeated: &[bool],
) -> bool {
    let barred = |b: usize| {
        repeated.get(b).copied().unwrap_or(false)
            || sample.left_out.get(b).copied().unwrap_or(false)
    };
    let quorum = predicted.page_type.alike_quorum(predicted.probability);
    let alike = alike::to_add(&sample.alike, kept, quorum, barred);
    for &b in &alike {
        kept[b] = true;
    }
    if !predicted.page_type.signs_its_posts() {
        return !alike.is_empty();
    }
    let signed = posts::signing(&sample.post_headers, kept);
    for &b in &signed {
        kept[b] = true;
    }
    !alike.is_empty() || !signed.is_empty()
}

/// Are the blocks with text scoring at least `cut` (and the code in
/// `article`'s container) all in the page's footer, which the extractor
/// then takes as no selection ([`footer_only`])?
fn kept_footer_only(sample: &Sample, scores: &[f32], cut: f32) -> bool {
    footer_only(
        at_cut(sample, scores, cut)
            .filter(|&b| !sample.texts[b].trim().is_empty())
            .map(|b| sample.in_footer.get(b).copied().unwrap_or(false)),
    )
}

/// The blocks scoring at least `cut`, and the code in `article`'s
/// container, as the extractor selects them before anything is taken out.
fn at_cut<'a>(sample: &'a Sample, scores: &'a [f32], cut: f32) -> impl Iterator<Item = usize> + 'a {
    let n = scores.len().min(sample.texts.len());
    let chosen_code = |b: usize| sample.chosen_code.get(b).copied().unwrap_or(false);
    (0..n).filter(move |&b| scores[b] >= cut || chosen_code(b))
}

/// The text of the blocks `kept` marks, a line each.
fn blocks_text(sample: &Sample, kept: &[bool]) -> String {
    let mut text = String::new();
    for (t, _) in sample.texts.iter().zip(kept).filter(|(_, &k)| k) {
        text.push_str(t);
        text.push('\n');
    }
    text
}

/// Which blocks [`kept_text`] keeps.
fn kept_blocks(sample: &Sample, scores: &[f32], threshold: f32, predicted: Predicted) -> Vec<bool> {
    kept_and_repeated(sample, scores, threshold, predicted).0
}

/// Which blocks [`kept_text`] keeps, and which it left out as repeats.
fn kept_and_repeated(
    sample: &Sample,
    scores: &[f32],
    threshold: f32,
    predicted: Predicted,
) -> (Vec<bool>, Vec<bool>) {
    let n = scores.len().min(sample.texts.len());
    let kept: Vec<usize> = at_cut(sample, scores, threshold).collect();
    let in_comments = |b: usize| sample.in_comments.get(b).copied().unwrap_or(false);
    let page_type = predicted.page_type;
    let apart = !page_type.comments_are_content(predicted.probability)
        && kept.iter().any(|&b| in_comments(b))
        && kept.iter().any(|&b| !in_comments(b) && !sample.texts[b].trim().is_empty());
    // Comments set apart, then the feedback prompts and machine text left
    // out, as the extractor does.
    let left_out = |b: usize| sample.left_out.get(b).copied().unwrap_or(false);
    let kept_blocks: Vec<usize> =
        kept.into_iter().filter(|&b| !(left_out(b) || apart && in_comments(b))).collect();
    // The kept blocks' texts (already white space collapsed and trimmed,
    // as the repeats compare them), empty for the rest and for code.
    let mut keys = vec![""; n];
    for &b in &kept_blocks {
        if !sample.is_code.get(b).copied().unwrap_or(false) {
            keys[b] = &sample.texts[b];
        }
    }
    let lone = page_type.repeats_are_quotes();
    let mut repeated = vec![false; n];
    for r in repeats::repeats(&keys, lone.then_some(&sample.parents[..])) {
        repeated[r.block] = true;
    }
    let mut kept: Vec<bool> = vec![false; n];
    for b in kept_blocks.into_iter().filter(|&b| !repeated[b]) {
        kept[b] = true;
    }
    (kept, repeated)
}

/// `text`, a sample's extraction for a page predicted of type
/// `predicted` (an index of [`PAGE_TYPES`]), as the default gives it:
/// with the product description its structured data adds
/// ([`structured::complete_with`]).
pub fn completed(sample: &Sample, predicted: usize, mut text: String) -> String {
    let page_type = PAGE_TYPES.get(predicted).copied().unwrap_or("article");
    structured::complete_with(&mut text, page_type, sample.product_description.as_deref());
    text
}

/// Whether `text`, a sample's short selection for a page predicted of
/// type `predicted`, is one the page's product description completes, as
/// the extractor keeps it then (no lower cut, no fallback to the rules;
/// [`structured::completes`]).
fn completes_short(sample: &Sample, predicted: usize, text: &str) -> bool {
    let page_type = PAGE_TYPES.get(predicted).copied().unwrap_or("article");
    word_tokens(text).len() < SHORT_SELECTION_WORDS
        && structured::completes(text, page_type, sample.product_description.as_deref())
}

/// A held-out page's word F1 by the rules and by the forest at every one
/// of [`POLICY_THRESHOLDS`], fixed and adaptive, what a policy is chosen
/// from (and, in `gleaner train --report`, what other ways of choosing
/// can be tried on).
#[derive(Debug, Clone, Serialize)]
pub struct PolicyScores {
    /// The held-out page ([`HeldOut::sample`]'s sample).
    pub sample: usize,
    /// Its dataset.
    pub dataset: usize,
    /// Its fold.
    pub fold: u32,
    /// Its predicted type's index.
    pub predicted: usize,
    /// `article`'s word F1.
    pub rules: f64,
    /// The forest's word F1 at each threshold.
    pub forest: [f64; POLICY_THRESHOLDS.len()],
    /// The words the rules keep.
    pub rules_words: usize,
    /// The words the forest keeps at each threshold.
    pub forest_words: [usize; POLICY_THRESHOLDS.len()],
    /// The forest's word F1 at each threshold made adaptive
    /// ([`page_threshold`]).
    pub adaptive: [f64; POLICY_THRESHOLDS.len()],
    /// The words the forest keeps at each adaptive threshold.
    pub adaptive_words: [usize; POLICY_THRESHOLDS.len()],
}

impl PolicyScores {
    /// Word F1 of the forest at candidate `k` of [`policy_candidates`].
    fn forest_at(&self, k: usize) -> f64 {
        let n = POLICY_THRESHOLDS.len();
        match k < n {
            true => self.forest[k],
            false => self.adaptive[k - n],
        }
    }
}

/// The policies the forest's side of a type is chosen among: each of
/// [`POLICY_THRESHOLDS`] fixed, then each adaptive, as
/// `(threshold, adaptive)`.
pub fn policy_candidates() -> impl Iterator<Item = (f32, bool)> {
    [false, true].into_iter().flat_map(|a| POLICY_THRESHOLDS.iter().map(move |&t| (t, a)))
}

/// Every held-out page's [`PolicyScores`].
pub fn policy_scores(samples: &[Sample], held: &[HeldOut]) -> Vec<PolicyScores> {
    held.iter()
        .filter_map(|h| {
            let s = samples.get(h.sample)?;
            let predicted = PAGE_TYPES.iter().position(|t| *t == h.predicted_type)?;
            let as_predicted = Predicted::of(&h.type_probabilities, predicted);
            // Word F1 and words kept at threshold k, fixed or adaptive.
            let at = |k: usize, adaptive: bool| {
                let t = page_threshold(s, &h.scores, POLICY_THRESHOLDS[k], adaptive);
                // Words counted as the extractor's fallback counts them,
                // before the structured data's supplement.
                let (mut kept, repeated) = kept_and_repeated(s, &h.scores, t, as_predicted);
                let text = blocks_text(s, &kept);
                let words = word_tokens(&text).len();
                // Scored as given: with a thread's posts alike and signed.
                let text = match add_after_decision(s, as_predicted, &mut kept, &repeated) {
                    true => blocks_text(s, &kept),
                    false => text,
                };
                (word_prf(&completed(s, predicted, text), &s.gold).f1, words)
            };
            let fixed: [(f64, usize); POLICY_THRESHOLDS.len()] =
                std::array::from_fn(|k| at(k, false));
            let adaptive: [(f64, usize); POLICY_THRESHOLDS.len()] =
                std::array::from_fn(|k| at(k, true));
            Some(PolicyScores {
                sample: h.sample,
                dataset: s.dataset,
                fold: h.fold,
                predicted,
                rules: word_prf(&completed(s, predicted, s.rules_text().to_owned()), &s.gold).f1,
                forest: fixed.map(|(f1, _)| f1),
                rules_words: word_tokens(s.rules_text()).len(),
                forest_words: fixed.map(|(_, words)| words),
                adaptive: adaptive.map(|(f1, _)| f1),
                adaptive_words: adaptive.map(|(_, words)| words),
            })
        })
        .collect()
}

/// How a page type's policy was chosen.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyChoice {
    /// The page type.
    pub page_type: String,
    /// Held-out pages predicted to be of it.
    pub pages: usize,
    /// Mean word F1 of the rules (the mean over datasets of their means).
    pub rules: f64,
    /// … of the forest at the default threshold.
    pub forest_default: f64,
    /// … of the forest at its best threshold.
    pub forest_best: f64,
    /// That threshold.
    pub threshold: f32,
    /// Whether each page's threshold is drawn halfway to its own cut.
    pub adaptive: bool,
    /// Whether the forest decides the type.
    pub blocks: bool,
}

/// For each predicted page type, the forest or the rules, and the
/// threshold, fixed or adaptive (the default fixed one unless another
/// gains [`THRESHOLD_MARGIN`]; of equals the first of
/// [`policy_candidates`]),
/// that give the held-out pages `scores` the higher mean word
/// F1 — a mean over the datasets (with at least [`MIN_POLICY_PAGES`]
/// pages of the type) of their means, so that one large dataset does not
/// decide for the others. A type without held-out pages keeps the forest
/// at `default`.
pub fn choose_policies(
    scores: &[&PolicyScores],
    default: f32,
) -> ([TypePolicy; 7], Vec<PolicyChoice>) {
    let mut policies = [TypePolicy::blocks(default); 7];
    let mut choices = Vec::new();
    // The grid point nearest the default threshold.
    let default_at = (0..POLICY_THRESHOLDS.len()).fold(0, |b, k| {
        match (POLICY_THRESHOLDS[k] - default).abs() < (POLICY_THRESHOLDS[b] - default).abs() {
            true => k,
            false => b,
        }
    });
    for (t, policy) in policies.iter_mut().enumerate() {
        let of_type: Vec<&&PolicyScores> = scores.iter().filter(|s| s.predicted == t).collect();
        if of_type.is_empty() {
            continue;
        }
        let mut by_dataset: BTreeMap<usize, Vec<&PolicyScores>> = BTreeMap::new();
        for s in &of_type {
            by_dataset.entry(s.dataset).or_default().push(s);
        }
        let mut groups: Vec<&Vec<&PolicyScores>> =
            by_dataset.values().filter(|g| g.len() >= MIN_POLICY_PAGES).collect();
        if groups.is_empty() {
            groups = by_dataset.values().collect();
        }
        let macro_mean = |f: &dyn Fn(&PolicyScores) -> f64| -> f64 {
            groups.iter().map(|g| g.iter().map(|s| f(s)).sum::<f64>() / g.len() as f64).sum::<f64>()
                / groups.len() as f64
        };
        let rules = macro_mean(&|s| s.rules);
        // Each candidate policy with its held-out mean, in candidate order.
        let forest: Vec<((f32, bool), f64)> = policy_candidates()
            .enumerate()
            .map(|(k, c)| (c, macro_mean(&|s| s.forest_at(k))))
            .collect();
        let at_default = forest[default_at];
        let top = forest.iter().fold(at_default, |b, &c| if c.1 > b.1 { c } else { b });
        let ((threshold, adaptive), best) = match top.1 >= at_default.1 + THRESHOLD_MARGIN {
            true => top,
            false => at_default,
        };
        *policy = TypePolicy { blocks: rules <= best + POLICY_MARGIN, threshold, adaptive };
        choices.push(PolicyChoice {
            page_type: PAGE_TYPES[t].to_string(),
            pages: of_type.len(),
            rules,
            forest_default: at_default.1,
            forest_best: best,
            threshold: policy.threshold,
            adaptive: policy.adaptive,
            blocks: policy.blocks,
        });
    }
    (policies, choices)
}

/// The page types' policies by `rule`: [`choose_policies`] on the held-out
/// `scores`, or the [`fixed_policies`]. The choices report the held-out
/// means either way, with the policy each type was given.
pub fn set_policies(
    rule: PolicyRule,
    scores: &[&PolicyScores],
    default: f32,
) -> ([TypePolicy; 7], Vec<PolicyChoice>) {
    let (chosen, mut choices) = choose_policies(scores, default);
    match rule {
        PolicyRule::Chosen => (chosen, choices),
        PolicyRule::Fixed => {
            let fixed = fixed_policies(default);
            for c in &mut choices {
                if let Some(t) = PAGE_TYPES.iter().position(|t| *t == c.page_type) {
                    c.threshold = fixed[t].threshold;
                    c.adaptive = fixed[t].adaptive;
                    c.blocks = fixed[t].blocks;
                }
            }
            (fixed, choices)
        }
    }
}

/// Each held-out page's text under policies set without its fold's
/// pages ([`set_policies`] on the other folds' held-out scores), the
/// types' thresholds blended by the page's type probabilities as the
/// extractor blends them ([`threshold::blended_threshold`]): the
/// out-of-fold figure of the whole decision, policies included.
pub fn routed_texts(
    samples: &[Sample],
    held: &[HeldOut],
    scores: &[PolicyScores],
    default: f32,
    rule: PolicyRule,
) -> Vec<String> {
    let mut folds: Vec<u32> = held.iter().map(|h| h.fold).collect();
    folds.sort_unstable();
    folds.dedup();
    let mut policies_of: BTreeMap<u32, [TypePolicy; 7]> = BTreeMap::new();
    for k in folds {
        let others: Vec<&PolicyScores> = scores.iter().filter(|s| s.fold != k).collect();
        policies_of.insert(k, set_policies(rule, &others, default).0);
    }
    let rules_words: BTreeMap<usize, usize> =
        scores.iter().map(|p| (p.sample, p.rules_words)).collect();
    held.iter()
        .map(|h| {
            let Some(s) = samples.get(h.sample) else { return String::new() };
            let t = PAGE_TYPES.iter().position(|t| *t == h.predicted_type).unwrap_or(0);
            let policies =
                policies_of.get(&h.fold).copied().unwrap_or([TypePolicy::blocks(default); 7]);
            // The types' thresholds blended as the extractor blends them.
            let p = &h.type_probabilities;
            let words: &[u32] = match threshold::reads_own_cut(&policies, p) {
                true => &s.words,
                false => &[],
            };
            let kept = policies[t].blocks.then(|| {
                let cut = threshold::blended_threshold(&policies, p, &h.scores, words)
                    .unwrap_or(policies[t].threshold);
                let text = kept_text(s, &h.scores, cut, Predicted::of(p, t));
                // Whether the product description completes it, as the
                // extractor's `Decision::described`.
                if completes_short(s, t, &text) {
                    return (text, Some(cut), true);
                }
                // As the extractor lowers a short selection's cut.
                let lowered = match word_tokens(&text).len() < SHORT_SELECTION_WORDS {
                    true => lowered_selection(cut, |c| {
                        let lowered = kept_text(s, &h.scores, c, Predicted::of(p, t));
                        let words = word_tokens(&lowered).len();
                        (lowered, words)
                    }),
                    false => None,
                };
                let (text, cut) = lowered.map_or((text, cut), |(c, lowered, _)| (lowered, c));
                // As the extractor takes the footer alone as none: no cut.
                match kept_footer_only(s, &h.scores, cut) {
                    true => (String::new(), None, false),
                    false => (text, Some(cut), false),
                }
            });
            // As the extractor falls back (`learned::falls_back`).
            let rules = rules_words.get(&h.sample).copied().unwrap_or(0);
            // The text given: the kept blocks at the cut taken, with the
            // headers of a thread's kept posts (the rules' text as it is).
            let signed = |cut: Option<f32>| {
                cut.map_or_else(String::new, |c| signed_text(s, &h.scores, c, Predicted::of(p, t)))
            };
            let text = match kept {
                Some((_, cut, true)) => signed(cut),
                Some((text, cut, false))
                    if !falls_back(
                        PageType::from_index(t).unwrap_or_default(),
                        word_tokens(&text).len(),
                        rules,
                    ) =>
                {
                    signed(cut)
                }
                _ => s.rules_text().to_owned(),
            };
            completed(s, t, text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Type `index` of [`PAGE_TYPES`] predicted at `probability`.
    fn at(index: usize, probability: f32) -> Predicted {
        Predicted { page_type: PageType::from_index(index).expect("a type"), probability }
    }

    /// The sample of a page of `html` whose gold is `gold`.
    fn sample_of(html: &str, gold: &str) -> Sample {
        let page = Page {
            id: "t".into(),
            html: html.as_bytes().to_vec(),
            gold: gold.into(),
            url: None,
            labels: Default::default(),
        };
        let parse = gleaner::ParseOptions::default();
        sample_page(0, &page, &parse, FeatureSet::default()).expect("a sample")
    }

    #[test]
    fn type_weights_even_out_page_types_by_the_balance() {
        let pages = [400, 100, 25, 0, 0, 0, 0];
        assert_eq!(type_weights(&pages, 0.0), [1.0; 7]);
        let total = |w: [f32; 7]| pages.iter().zip(w).map(|(&n, w)| n as f32 * w).sum::<f32>();
        let half = type_weights(&pages, 0.5);
        // Square roots of the ratios (1 : 2 : 4), the dataset's weight kept.
        assert!((half[1] / half[0] - 2.0).abs() < 1e-5 && (half[2] / half[0] - 4.0).abs() < 1e-5);
        assert!((total(half) - 525.0).abs() < 1e-3, "{half:?}");
        let even = type_weights(&pages, 1.0);
        // Every type present then weighs the same in all.
        for (t, n) in pages.iter().enumerate().filter(|(_, &n)| n > 0) {
            assert!((even[t] * *n as f32 - 175.0).abs() < 1e-3, "type {t}: {even:?}");
        }
        assert_eq!(type_weights(&[0; 7], 0.5), [1.0; 7]);
        assert_eq!(type_weights(&[7, 0, 0, 0, 0, 0, 0], 1.0)[0], 1.0);
    }

    /// Held-out scores of `n` pages of dataset `dataset`, predicted of
    /// type 0, with the rules at `rules` and the forest at `forest` at
    /// every candidate threshold, fixed or adaptive, but `peak` (an index
    /// of [`policy_candidates`]), where it scores `best`.
    fn pages(
        dataset: usize,
        n: usize,
        rules: f64,
        forest: f64,
        peak: usize,
        best: f64,
    ) -> Vec<PolicyScores> {
        (0..n)
            .map(|i| {
                let n = POLICY_THRESHOLDS.len();
                let (mut f, mut a) =
                    ([forest; POLICY_THRESHOLDS.len()], [forest; POLICY_THRESHOLDS.len()]);
                match peak < n {
                    true => f[peak] = best,
                    false => a[peak - n] = best,
                }
                PolicyScores {
                    sample: i,
                    dataset,
                    fold: 0,
                    predicted: 0,
                    rules,
                    forest: f,
                    rules_words: 100,
                    forest_words: [100; POLICY_THRESHOLDS.len()],
                    adaptive: a,
                    adaptive_words: [100; POLICY_THRESHOLDS.len()],
                }
            })
            .collect()
    }

    #[test]
    fn fixed_policies_stand_whatever_the_held_out_pages_prefer() {
        // Pages predicted products (type 2) that score best at 0.8 fixed.
        let mut products = pages(0, 10, 0.5, 0.60, 14, 0.90);
        products.iter_mut().for_each(|p| p.predicted = 2);
        let scores: Vec<&PolicyScores> = products.iter().collect();
        let (chosen, _) = set_policies(PolicyRule::Chosen, &scores, 0.5);
        assert_eq!((chosen[2].threshold, chosen[2].adaptive), (POLICY_THRESHOLDS[14], false));
        let (fixed, choices) = set_policies(PolicyRule::Fixed, &scores, 0.5);
        assert_eq!(fixed, fixed_policies(0.5));
        assert_eq!((fixed[2].threshold, fixed[2].adaptive), (FIXED_ITEMS_THRESHOLD, true));
        assert_eq!((fixed[0].threshold, fixed[0].adaptive), (0.5, false));
        // The report says what was given, beside what the pages preferred.
        assert_eq!(choices[0].page_type, "product");
        assert_eq!((choices[0].threshold, choices[0].adaptive), (FIXED_ITEMS_THRESHOLD, true));
        assert!(choices[0].forest_best > choices[0].forest_default);
        // Articles, threads and documentation keep the model's threshold.
        for t in ["article", "forum", "documentation"] {
            let i = PAGE_TYPES.iter().position(|p| *p == t).expect("a type");
            assert_eq!(fixed_policies(0.4)[i], TypePolicy::blocks(0.4));
        }
    }

    #[test]
    fn a_tie_goes_to_the_forest_and_the_rules_need_a_clear_margin() {
        let tie = pages(0, 10, 0.80, 0.80, 6, 0.80);
        let (p, _) = choose_policies(&tie.iter().collect::<Vec<_>>(), 0.5);
        assert!(p[0].blocks);
        let slightly = pages(0, 10, 0.805, 0.80, 6, 0.80);
        assert!(choose_policies(&slightly.iter().collect::<Vec<_>>(), 0.5).0[0].blocks);
        let clearly = pages(0, 10, 0.85, 0.80, 6, 0.80);
        assert!(!choose_policies(&clearly.iter().collect::<Vec<_>>(), 0.5).0[0].blocks);
    }

    #[test]
    fn the_threshold_is_the_best_over_the_datasets_means() {
        // One big dataset peaks at index 2, a small one at index 10 by
        // more: the mean of the means decides, not the pages.
        let mut all = pages(0, 100, 0.5, 0.70, 2, 0.72);
        all.extend(pages(1, 5, 0.5, 0.70, 10, 0.80));
        let (p, choices) = choose_policies(&all.iter().collect::<Vec<_>>(), 0.5);
        assert_eq!(p[0].threshold, POLICY_THRESHOLDS[10]);
        assert_eq!(choices[0].pages, 105);
    }

    #[test]
    fn another_threshold_must_beat_the_default_clearly() {
        let default_at = POLICY_THRESHOLDS.iter().position(|&t| t == 0.5).expect("0.5 on the grid");
        let thin = pages(0, 10, 0.5, 0.80, 3, 0.80 + THRESHOLD_MARGIN / 2.0);
        let (p, choices) = choose_policies(&thin.iter().collect::<Vec<_>>(), 0.5);
        assert_eq!(p[0].threshold, POLICY_THRESHOLDS[default_at]);
        assert_eq!(choices[0].forest_best, choices[0].forest_default);
        let clear = pages(0, 10, 0.5, 0.80, 3, 0.80 + 2.0 * THRESHOLD_MARGIN);
        assert_eq!(
            choose_policies(&clear.iter().collect::<Vec<_>>(), 0.5).0[0].threshold,
            POLICY_THRESHOLDS[3]
        );
    }

    #[test]
    fn an_adaptive_threshold_is_chosen_when_it_wins_clearly() {
        let n = POLICY_THRESHOLDS.len();
        let clear = pages(0, 10, 0.5, 0.80, n + 4, 0.80 + 2.0 * THRESHOLD_MARGIN);
        let (p, choices) = choose_policies(&clear.iter().collect::<Vec<_>>(), 0.5);
        assert!(p[0].adaptive && choices[0].adaptive);
        assert_eq!(p[0].threshold, POLICY_THRESHOLDS[4]);
        // Level with the fixed thresholds, it is not.
        let level = pages(0, 10, 0.5, 0.80, n + 4, 0.80);
        assert!(!choose_policies(&level.iter().collect::<Vec<_>>(), 0.5).0[0].adaptive);
        assert_eq!(policy_candidates().count(), 2 * n);
        assert_eq!(policy_candidates().nth(n + 4), Some((POLICY_THRESHOLDS[4], true)));
    }

    #[test]
    fn held_out_texts_get_the_product_description_as_the_default_adds_it() {
        let html = r#"<html><head><script type="application/ld+json">
            {"@type": "Product", "name": "Dark Roast", "description":
             "A bold and smooth dark roast, fair trade and organic, for the whole long day."}
            </script></head><body><h1>Dark Roast</h1><p>$19.99</p></body></html>"#;
        let sample = sample_of(html, "Dark Roast. A bold and smooth dark roast.");
        assert!(sample.product_description.as_deref().is_some_and(|d| d.contains("fair trade")));
        let product = PAGE_TYPES.iter().position(|t| *t == "product").expect("a type");
        let text = completed(&sample, product, "Dark Roast\n$19.99".into());
        assert!(text.starts_with("Dark Roast\n$19.99\n\nA bold"), "{text}");
        // Only a page predicted a product gets it.
        assert_eq!(completed(&sample, 0, "Dark Roast".into()), "Dark Roast");
        // A short selection it completes is kept as it is, as the
        // extractor keeps it (no lower cut, no fallback to the rules).
        assert!(completes_short(&sample, product, "Dark Roast\n$19.99"));
        assert!(!completes_short(&sample, 0, "Dark Roast\n$19.99"));
        let long = "Dark Roast ".repeat(SHORT_SELECTION_WORDS);
        assert!(!completes_short(&sample, product, &long));
    }

    #[test]
    fn held_out_texts_leave_out_repeats_as_the_default_does() {
        let post = "I replaced the fuse and the lights still flicker when the engine starts.";
        let html = format!(
            "<html><body><div><p>{post}</p><p>Thanks in advance.</p></div>\
             <div><blockquote><p>{post}</p></blockquote><p>Check the ground strap.</p></div>\
             </body></html>"
        );
        let sample = sample_of(&html, post);
        let every = vec![1.0; sample.len()];
        let forum = PAGE_TYPES.iter().position(|t| *t == "forum").expect("a type");
        // A thread's reply quoting the first post: left out, as the
        // extractor leaves it out (`repeats::drop_repeats`).
        let thread = kept_text(&sample, &every, 0.5, at(forum, 1.0));
        assert_eq!(thread.matches("replaced the fuse").count(), 1, "{thread}");
        assert!(thread.contains("Check the ground strap."), "{thread}");
        // On an article, a lone repeat is what the page shows.
        assert_eq!(
            kept_text(&sample, &every, 0.5, at(0, 1.0)).matches("replaced the fuse").count(),
            2
        );
    }

    #[test]
    fn held_out_texts_set_comments_apart_unless_the_page_is_surely_a_thread() {
        let html = "<html><body><article><h1>Nine steps</h1>\
             <p>A river never passes the same place twice, says a philosopher.</p></article>\
             <section id=comments><ol class=commentlist><li><p>Lovely words, thank you.</p></li>\
             <li><p>I read this every morning.</p></li></ol></section></body></html>";
        let sample = sample_of(html, "");
        let every = vec![1.0; sample.len()];
        let forum = PAGE_TYPES.iter().position(|t| *t == "forum").expect("a type");
        // An article, and a blog post taken for a thread at 0.56: the
        // comments are set apart.
        for (predicted, probability) in [(0, 1.0), (forum, 0.56)] {
            let text = kept_text(&sample, &every, 0.5, at(predicted, probability));
            assert!(text.contains("A river") && !text.contains("Lovely"), "{text}");
        }
        // Surely a thread: its comments are its replies.
        let text = kept_text(&sample, &every, 0.5, at(forum, 0.9));
        assert!(text.contains("A river") && text.contains("Lovely"), "{text}");
    }

    #[test]
    fn held_out_texts_keep_parts_alike_and_leave_out_prompts_as_the_default_does() {
        let post = |who: &str, body: &str| {
            format!(
                "<div class=post><div class=meta><a href='/u/{who}'>{who}</a></div>\
                 <div class=body><p>{body}</p></div></div>"
            )
        };
        let html = format!(
            "<html><body><div class=posts>{}{}{}</div><p>Was this page helpful?</p></body></html>",
            post("ann", "The pump stops after a minute."),
            post("bob", "Check the pressure switch first."),
            post("ann", "That was it, thanks!")
        );
        let sample = sample_of(&html, "");
        // The forest keeps the first two posts' bodies and the prompt.
        let scores: Vec<f32> = sample
            .texts
            .iter()
            .map(|t| match t.contains("pump") || t.contains("pressure") || t.contains("helpful") {
                true => 1.0,
                false => 0.0,
            })
            .collect();
        let text = signed_text(&sample, &scores, 0.5, at(0, 1.0));
        assert!(text.contains("That was it"), "{text}");
        assert!(!text.contains("helpful"), "{text}");
        assert!(!text.contains("ann"), "an article's posts are not signed: {text}");
        // The opening post alone: one part of three is no pattern, but on a
        // page surely a thread it brings the replies, signed.
        let opening: Vec<f32> =
            sample.texts.iter().map(|t| if t.contains("pump") { 1.0 } else { 0.0 }).collect();
        let forum = PAGE_TYPES.iter().position(|&t| t == "forum").expect("forum");
        let text = signed_text(&sample, &opening, 0.5, at(0, 1.0));
        assert!(!text.contains("That was it"), "{text}");
        let text = signed_text(&sample, &opening, 0.5, at(forum, 0.56));
        assert!(!text.contains("That was it"), "not surely a thread: {text}");
        let text = signed_text(&sample, &opening, 0.5, at(forum, 0.9));
        assert!(text.contains("That was it") && text.contains("bob"), "{text}");
    }

    #[test]
    fn held_out_texts_leave_out_machine_text_but_not_code() {
        let html = "<html><body><article><p>The kettle boils in four minutes.</p>\
            <div class=offer-data>{\"displayPrice\":\"£89.00\",\"priceAmount\":89.0,\"sku\":\"CK-17\"}</div>\
            <pre>{\"bindings\": [{\"type\": \"httpTrigger\", \"name\": \"req\", \"authLevel\": \"function\"}]}</pre>\
            </article></body></html>";
        let sample = sample_of(html, "");
        assert_eq!(sample.left_out.iter().filter(|&&l| l).count(), 1, "{:?}", sample.texts);
        // The forest keeps every block.
        let scores = vec![1.0; sample.texts.len()];
        let text = kept_text(&sample, &scores, 0.5, at(0, 1.0));
        assert!(text.contains("four minutes") && text.contains("httpTrigger"), "{text}");
        assert!(!text.contains("displayPrice"), "{text}");
    }

    #[test]
    fn a_short_forest_selection_gives_way_to_a_longer_rules_one() {
        use gleaner::extract::learned::RULES_FALLBACK_WORDS;
        let article = PageType::default();
        assert!(falls_back(article, 0, RULES_FALLBACK_WORDS));
        assert!(falls_back(article, SHORT_SELECTION_WORDS - 1, 500));
        assert!(!falls_back(article, SHORT_SELECTION_WORDS, 500));
        assert!(!falls_back(article, 0, RULES_FALLBACK_WORDS - 1));
    }

    #[test]
    fn a_short_selection_is_tried_at_lower_cuts_highest_first() {
        use gleaner::extract::learned::lowered_cuts;
        let cuts = |t: f32| lowered_cuts(t).map(|c| (c * 100.0).round() as u32).collect::<Vec<_>>();
        assert_eq!(cuts(0.5), [45, 40, 35, 30, 25, 20, 15, 10, 5]);
        assert_eq!(cuts(0.2), [15, 10, 5]);
        assert_eq!(cuts(0.23), [20, 15, 10, 5]);
        assert!(cuts(0.05).is_empty() && cuts(0.0).is_empty() && cuts(f32::NAN).is_empty());
        assert_eq!(cuts(7.0).len(), 20);
    }

    #[test]
    fn on_documentation_the_rules_body_replaces_a_forest_selection_of_fewer_words() {
        use gleaner::extract::learned::RULES_FALLBACK_WORDS;
        let docs = PageType::from_index(5).expect("documentation");
        assert_eq!(docs.name(), "documentation");
        assert!(falls_back(docs, 300, 300));
        assert!(falls_back(docs, 300, 900));
        assert!(!falls_back(docs, 300, 299));
        // A short selection is judged as on every type: an empty page
        // whose rules keep a few words stays empty.
        assert!(!falls_back(docs, 0, RULES_FALLBACK_WORDS - 1));
        assert!(falls_back(docs, SHORT_SELECTION_WORDS - 1, RULES_FALLBACK_WORDS));
        for t in (0..7).filter(|&t| t != 5) {
            let other = PageType::from_index(t).expect("a type");
            assert!(!falls_back(other, 300, 900), "{other}");
        }
    }
}
