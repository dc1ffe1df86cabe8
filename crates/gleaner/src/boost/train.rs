//! Training: histogram gradient boosting of leaf-wise regression trees.

use serde::{Deserialize, Serialize};

use super::bins::{self, BinMapper};
use super::rng::SplitMix64;
use super::{Forest, Node, Objective, Tree, DEFAULT_LEFT, MAX_CLASSES};
use crate::error::{Error, Result};

/// How to train a forest. The defaults suit a few thousand to millions of
/// rows of block features.
///
/// Serialisable, so a trainer can store the configuration in the forest's
/// metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainConfig {
    /// Boosting rounds (trees per output). Default 300.
    pub rounds: usize,
    /// Shrinkage: each leaf value is multiplied by it. Default 0.1.
    pub learning_rate: f64,
    /// Leaves per tree at most; trees grow leaf-wise, always splitting the
    /// leaf whose best split gains most. 2 to 65 536; default 31.
    pub max_leaves: usize,
    /// Depth at most (the root at depth 0), or no limit. Default `None`.
    pub max_depth: Option<usize>,
    /// A child's sum of hessians at least (weighted). Default 1e-3.
    pub min_child_weight: f64,
    /// A child's rows at least (in the round's sample). Default 20.
    pub min_data_in_leaf: usize,
    /// L2 regularisation `λ` of leaf values. Default 1.
    pub lambda_l2: f64,
    /// A split must gain more than this. Default 0.
    pub min_split_gain: f64,
    /// The share of features each tree may split on, drawn per tree.
    /// `(0, 1]`; default 1.
    pub feature_fraction: f64,
    /// The share of rows each round is fitted to, drawn per round (each
    /// row with this probability). `(0, 1]`; default 1.
    pub bagging_fraction: f64,
    /// Value bins per feature at most, 2 to 255. Default 255.
    pub max_bins: usize,
    /// Bin cuts are computed from this many rows drawn at random (0: every
    /// row). Default 200 000.
    pub bin_sample: usize,
    /// Whether bin quantiles weigh rows by their weight. Default true.
    pub weighted_bins: bool,
    /// Seed of every random draw (bin sample, bagging, features).
    /// Default 0.
    pub seed: u64,
    /// With a validation set: stop when its loss has not improved for this
    /// many rounds. `None` trains every round. Either way the forest is
    /// cut back to the round of lowest validation loss. Default `None`.
    pub early_stopping_rounds: Option<usize>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            rounds: 300,
            learning_rate: 0.1,
            max_leaves: 31,
            max_depth: None,
            min_child_weight: 1e-3,
            min_data_in_leaf: 20,
            lambda_l2: 1.0,
            min_split_gain: 0.0,
            feature_fraction: 1.0,
            bagging_fraction: 1.0,
            max_bins: 255,
            bin_sample: 200_000,
            weighted_bins: true,
            seed: 0,
            early_stopping_rounds: None,
        }
    }
}

impl TrainConfig {
    /// [`Error::InvalidConfig`] naming the first value out of its range.
    pub fn validate(&self) -> Result<()> {
        let bad = |what: &str| Err(Error::InvalidConfig(format!("boosting: {what}")));
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        let fraction = |x: f64| x > 0.0 && x <= 1.0;
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return bad("learning_rate must be positive");
        }
        if !(2..=1 << 16).contains(&self.max_leaves) {
            return bad("max_leaves must be 2 to 65536");
        }
        if self.max_depth == Some(0) {
            return bad("max_depth must be at least 1");
        }
        if !non_negative(self.min_child_weight) {
            return bad("min_child_weight must be finite and not negative");
        }
        if !non_negative(self.lambda_l2) {
            return bad("lambda_l2 must be finite and not negative");
        }
        if !non_negative(self.min_split_gain) {
            return bad("min_split_gain must be finite and not negative");
        }
        if !fraction(self.feature_fraction) {
            return bad("feature_fraction must be in (0, 1]");
        }
        if !fraction(self.bagging_fraction) {
            return bad("bagging_fraction must be in (0, 1]");
        }
        if !(2..=255).contains(&self.max_bins) {
            return bad("max_bins must be 2 to 255");
        }
        if self.early_stopping_rounds == Some(0) {
            return bad("early_stopping_rounds must be at least 1");
        }
        Ok(())
    }
}

/// What each training row should score.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// Binary logistic: one label per row in `[0, 1]` (soft labels
    /// allowed: the share of a block that is main content, say).
    Binary(&'a [f32]),
    /// Multiclass softmax: one class index per row, below `n_classes`.
    Softmax {
        /// The class of each row.
        classes: &'a [u32],
        /// The number of classes, 2 to [`MAX_CLASSES`].
        n_classes: usize,
    },
}

impl Target<'_> {
    fn len(&self) -> usize {
        match self {
            Target::Binary(y) => y.len(),
            Target::Softmax { classes, .. } => classes.len(),
        }
    }

    fn objective(&self) -> Objective {
        match *self {
            Target::Binary(_) => Objective::BinaryLogistic,
            Target::Softmax { n_classes, .. } => Objective::Softmax { n_classes },
        }
    }
}

/// Rows to train or validate on: a row-major feature matrix (NaN for a
/// missing value), the target, and optional row weights.
///
/// ```
/// use gleaner::boost::{Dataset, Target};
///
/// let x = [0.1f32, f32::NAN, 0.7, 3.0]; // two rows of two features
/// let data = Dataset::new(&x, 2, Target::Softmax { classes: &[0, 2], n_classes: 3 })?
///     .with_weights(&[1.0, 0.5])?;
/// assert_eq!(data.n_rows(), 2);
/// assert!(Dataset::new(&x, 3, Target::Binary(&[0.0])).is_err()); // 4 values are not rows of 3
/// # Ok::<(), gleaner::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dataset<'a> {
    features: &'a [f32],
    n_features: usize,
    target: Target<'a>,
    weights: Option<&'a [f32]>,
}

impl<'a> Dataset<'a> {
    /// Rows of `n_features` values each, and their target.
    ///
    /// [`Error::InvalidTrainingData`] when the lengths disagree, there is
    /// no row, a label is outside `[0, 1]`, or a class is out of range.
    pub fn new(features: &'a [f32], n_features: usize, target: Target<'a>) -> Result<Self> {
        let bad = |what: String| Err(Error::InvalidTrainingData(what));
        if n_features == 0 || n_features > (DEFAULT_LEFT - 1) as usize {
            return bad(format!("{n_features} features per row"));
        }
        if features.len() % n_features != 0 {
            return bad(format!("{} values are not rows of {n_features} features", features.len()));
        }
        let n_rows = features.len() / n_features;
        if n_rows == 0 || n_rows > u32::MAX as usize {
            return bad(format!("{n_rows} rows (1 to 2^32 - 1)"));
        }
        if target.len() != n_rows {
            return bad(format!("{} targets for {n_rows} rows", target.len()));
        }
        match target {
            Target::Binary(y) => {
                if let Some(i) = y.iter().position(|y| !(0.0..=1.0).contains(y)) {
                    return bad(format!("label {} of row {i} is not in [0, 1]", y[i]));
                }
            }
            Target::Softmax { classes, n_classes } => {
                if !(2..=MAX_CLASSES).contains(&n_classes) {
                    return bad(format!("{n_classes} classes (2 to {MAX_CLASSES})"));
                }
                if let Some(i) = classes.iter().position(|&c| c as usize >= n_classes) {
                    return bad(format!("class {} of row {i} of {n_classes} classes", classes[i]));
                }
            }
        }
        Ok(Dataset { features, n_features, target, weights: None })
    }

    /// The same rows, each weighing its weight in the loss (and in the
    /// bins' quantiles, see [`TrainConfig::weighted_bins`]).
    ///
    /// [`Error::InvalidTrainingData`] unless there is one finite,
    /// non-negative weight per row and their sum is positive.
    pub fn with_weights(self, weights: &'a [f32]) -> Result<Self> {
        let bad = |what: String| Err(Error::InvalidTrainingData(what));
        if weights.len() != self.n_rows() {
            return bad(format!("{} weights for {} rows", weights.len(), self.n_rows()));
        }
        if let Some(i) = weights.iter().position(|w| !(w.is_finite() && *w >= 0.0)) {
            return bad(format!("weight {} of row {i} is not finite and non-negative", weights[i]));
        }
        if weights.iter().map(|&w| f64::from(w)).sum::<f64>() <= 0.0 {
            return bad("the weights sum to 0".into());
        }
        Ok(Dataset { weights: Some(weights), ..self })
    }

    /// The number of rows.
    pub fn n_rows(&self) -> usize {
        self.features.len() / self.n_features
    }

    /// The number of features per row.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// The objective the target calls for.
    pub fn objective(&self) -> Objective {
        self.target.objective()
    }

    fn weight(&self, r: usize) -> f64 {
        self.weights.map_or(1.0, |w| f64::from(w[r]))
    }
}

/// The losses after one boosting round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundLoss {
    /// Weighted mean log-loss on the training rows.
    pub train: f64,
    /// Weighted mean log-loss on the validation rows, when given.
    pub valid: Option<f64>,
}

/// What [`train`] returns.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The forest, cut back to [`best_iteration`](Trained::best_iteration)
    /// rounds. Its metadata is empty: set it with
    /// [`Forest::set_metadata`].
    pub forest: Forest,
    /// The number of rounds kept: with a validation set, the round of
    /// lowest validation loss (counted from 1); else every round.
    pub best_iteration: usize,
    /// The losses after each round trained (also those past the best).
    pub history: Vec<RoundLoss>,
}

/// Trains a forest on `data`, with `feature_names` naming its columns;
/// `valid`, when given, is scored after every round for early stopping.
///
/// Deterministic: the same arguments give a bit-identical forest (see the
/// [module documentation](super#determinism)).
///
/// ```
/// use gleaner::boost::{train, Dataset, Target, TrainConfig};
///
/// // Three classes by the value of one feature; the second feature is noise.
/// let x: Vec<f32> = (0..300).flat_map(|i| [(i % 30) as f32, (i * 7 % 11) as f32]).collect();
/// let classes: Vec<u32> = (0..300).map(|i| ((i % 30) / 10) as u32).collect();
/// let target = Target::Softmax { classes: &classes, n_classes: 3 };
/// let data = Dataset::new(&x, 2, target)?;
/// let config = TrainConfig { rounds: 30, min_data_in_leaf: 5, ..TrainConfig::default() };
/// let forest = train(&config, &["position", "noise"], &data, None)?.forest;
/// let mut proba = [0f32; 3];
/// forest.predict_proba_multi(&[25.0, 1.0], &mut proba);
/// assert!(proba[2] > 0.9);
/// assert_eq!(forest.importances()[1].splits, 0);
/// # Ok::<(), gleaner::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidConfig`] for a configuration out of range,
/// [`Error::InvalidTrainingData`] when the names or the validation set do
/// not match the data.
pub fn train<S: AsRef<str>>(
    config: &TrainConfig,
    feature_names: &[S],
    data: &Dataset,
    valid: Option<&Dataset>,
) -> Result<Trained> {
    config.validate()?;
    let n_features = data.n_features;
    if feature_names.len() != n_features {
        return Err(Error::InvalidTrainingData(format!(
            "{} feature names for {n_features} features",
            feature_names.len()
        )));
    }
    if let Some(v) = valid {
        if v.n_features != n_features || v.objective() != data.objective() {
            return Err(Error::InvalidTrainingData(format!(
                "the validation set has {} features and objective {:?}; the training set {} and \
                 {:?}",
                v.n_features,
                v.objective(),
                n_features,
                data.objective()
            )));
        }
    }
    let objective = data.objective();
    let k = objective.n_outputs();
    let n = data.n_rows();
    let mut rng = SplitMix64::new(config.seed);

    // Bins, from a sample of rows; the matrices binned once.
    let sample = if config.bin_sample == 0 || n <= config.bin_sample {
        (0..n).collect()
    } else {
        rng.choose(&mut (0..n).collect::<Vec<_>>(), config.bin_sample)
    };
    let bin_weights = if config.weighted_bins { data.weights } else { None };
    let mapper = BinMapper::fit(data.features, n_features, bin_weights, &sample, config.max_bins);
    drop(sample);
    let by_row = mapper.bin_rows(data.features, n_features);
    let by_column = bins::transpose(&by_row, n_features);
    let valid_rows = valid.map(|v| mapper.bin_rows(v.features, n_features));
    let usable: Vec<usize> = (0..n_features)
        .filter(|&f| {
            let column = &by_column[f * n..(f + 1) * n];
            let missing = column.contains(&0);
            mapper.n_value_bins(f) >= 2 || (missing && column.iter().any(|&b| b != 0))
        })
        .collect();

    let base_score = base_score(data);
    let mut scores: Vec<f64> =
        base_score.iter().map(|&b| f64::from(b)).cycle().take(n * k).collect();
    let mut valid_scores: Option<Vec<f64>> = valid
        .map(|v| base_score.iter().map(|&b| f64::from(b)).cycle().take(v.n_rows() * k).collect());

    let n_value_bins: Vec<usize> = (0..n_features).map(|f| mapper.n_value_bins(f)).collect();
    let mut grower = Grower::new(config, &by_column, &by_row, n_value_bins);
    let mut probs = vec![0f32; n * k];
    let mut grad = vec![0f32; n];
    let mut hess = vec![0f32; n];
    let mut in_bag = vec![true; n];
    let mut trees: Vec<Tree> = Vec::with_capacity(config.rounds.min(10_000) * k);
    let mut history: Vec<RoundLoss> = Vec::with_capacity(config.rounds.min(10_000));
    let mut best: Option<(usize, f64)> = None;
    probabilities(&scores, data, &mut probs);

    for round in 0..config.rounds {
        let bag: Vec<u32> = if config.bagging_fraction < 1.0 {
            let mut bag = Vec::with_capacity((n as f64 * config.bagging_fraction) as usize + 1);
            for (r, slot) in in_bag.iter_mut().enumerate() {
                *slot = rng.next_f64() < config.bagging_fraction;
                if *slot {
                    bag.push(r as u32);
                }
            }
            if bag.is_empty() {
                in_bag.fill(true);
                bag.extend(0..n as u32);
            }
            bag
        } else {
            (0..n as u32).collect()
        };
        for class in 0..k {
            gradients(data, &probs, class, &mut grad, &mut hess);
            let features = if config.feature_fraction < 1.0 && !usable.is_empty() {
                let want =
                    ((config.feature_fraction * usable.len() as f64).round() as usize).max(1);
                rng.choose(&mut usable.clone(), want)
            } else {
                usable.clone()
            };
            let grown = grower.grow(&bag, &grad, &hess, &features);
            let tree = grown.tree(&mapper, config);
            // Rows in the bag sit in their leaf's range of the partition;
            // others, and the validation rows, walk the tree on their bins.
            for (leaf, &(start, len)) in grown.leaf_rows.iter().enumerate() {
                let value = f64::from(tree.leaf_value[leaf]);
                for &r in &grower.rows[start..start + len] {
                    scores[r as usize * k + class] += value;
                }
            }
            if bag.len() < n {
                for r in (0..n).filter(|&r| !in_bag[r]) {
                    let row = &by_row[r * n_features..(r + 1) * n_features];
                    scores[r * k + class] += f64::from(tree.leaf_value[grown.leaf(row)]);
                }
            }
            if let (Some(vs), Some(vb)) = (valid_scores.as_mut(), valid_rows.as_ref()) {
                for (s, row) in vs.chunks_exact_mut(k).zip(vb.chunks_exact(n_features)) {
                    s[class] += f64::from(tree.leaf_value[grown.leaf(row)]);
                }
            }
            trees.push(tree);
        }
        let loss = probabilities(&scores, data, &mut probs);
        let valid_loss = valid.zip(valid_scores.as_ref()).map(|(v, vs)| {
            let mut valid_probs = vec![0f32; vs.len()];
            probabilities(vs, v, &mut valid_probs)
        });
        history.push(RoundLoss { train: loss, valid: valid_loss });
        if let Some(vl) = valid_loss {
            if best.is_none_or(|(_, b)| vl < b) {
                best = Some((round, vl));
            } else if let (Some(patience), Some((best_round, _))) =
                (config.early_stopping_rounds, best)
            {
                if round - best_round >= patience {
                    break;
                }
            }
        }
    }
    let best_iteration = match best {
        Some((round, _)) => round + 1,
        None => history.len(),
    };
    trees.truncate(best_iteration * k);
    let names = feature_names.iter().map(|s| s.as_ref().to_owned()).collect();
    let forest = Forest::new(objective, names, String::new(), base_score, trees);
    Ok(Trained { forest, best_iteration, history })
}

/// The raw score before any tree: the log-odds of the weighted mean label,
/// or the log of each class's weighted share.
fn base_score(data: &Dataset) -> Vec<f32> {
    let n = data.n_rows();
    let total: f64 = (0..n).map(|r| data.weight(r)).sum();
    match data.target {
        Target::Binary(y) => {
            let mean = (0..n).map(|r| data.weight(r) * f64::from(y[r])).sum::<f64>() / total;
            let mean = mean.clamp(1e-6, 1.0 - 1e-6);
            vec![(mean / (1.0 - mean)).ln() as f32]
        }
        Target::Softmax { classes, n_classes } => {
            let mut share = vec![0f64; n_classes];
            for (r, &c) in classes.iter().enumerate() {
                share[c as usize] += data.weight(r);
            }
            share.iter().map(|&s| (s / total).max(1e-6).ln() as f32).collect()
        }
    }
}

/// Fills `probs` (rows × outputs) from raw scores and returns the weighted
/// mean log-loss.
fn probabilities(scores: &[f64], data: &Dataset, probs: &mut [f32]) -> f64 {
    const EPS: f64 = 1e-15;
    let mut loss = 0.0;
    let mut total = 0.0;
    match data.target {
        Target::Binary(y) => {
            for (r, (&s, p)) in scores.iter().zip(probs.iter_mut()).enumerate() {
                let prob = 1.0 / (1.0 + (-s).exp());
                *p = prob as f32;
                let prob = prob.clamp(EPS, 1.0 - EPS);
                let (w, y) = (data.weight(r), f64::from(y[r]));
                loss -= w * (y * prob.ln() + (1.0 - y) * (1.0 - prob).ln());
                total += w;
            }
        }
        Target::Softmax { classes, n_classes } => {
            for (r, (s, p)) in
                scores.chunks_exact(n_classes).zip(probs.chunks_exact_mut(n_classes)).enumerate()
            {
                let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = s.iter().map(|&x| (x - max).exp()).sum();
                for (p, &x) in p.iter_mut().zip(s) {
                    *p = ((x - max).exp() / sum) as f32;
                }
                let w = data.weight(r);
                let log_p = s[classes[r] as usize] - max - sum.ln();
                loss -= w * log_p.max(EPS.ln());
                total += w;
            }
        }
    }
    loss / total
}

/// Each row's weighted gradient and hessian of the loss for output `class`.
fn gradients(data: &Dataset, probs: &[f32], class: usize, grad: &mut [f32], hess: &mut [f32]) {
    let k = data.objective().n_outputs();
    for r in 0..grad.len() {
        let p = f64::from(probs[r * k + class]);
        let y = match data.target {
            Target::Binary(y) => f64::from(y[r]),
            Target::Softmax { classes, .. } => f64::from(u8::from(classes[r] as usize == class)),
        };
        let w = data.weight(r);
        grad[r] = ((p - y) * w) as f32;
        hess[r] = ((p * (1.0 - p)).max(1e-16) * w) as f32;
    }
}

/// Sums of gradients, hessians and rows: a histogram bin, a node.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    g: f64,
    h: f64,
    n: u64,
}

impl std::ops::Add for Sums {
    type Output = Sums;
    fn add(self, o: Sums) -> Sums {
        Sums { g: self.g + o.g, h: self.h + o.h, n: self.n + o.n }
    }
}

impl std::ops::Sub for Sums {
    type Output = Sums;
    fn sub(self, o: Sums) -> Sums {
        Sums { g: self.g - o.g, h: self.h - o.h, n: self.n - o.n }
    }
}

/// A leaf of at least `LANES_FROM` rows is histogrammed in `LANES`
/// interleaved copies summed at the end, so that consecutive rows in one
/// bin (a flag, a small count) update different memory instead of
/// waiting on each other.
const LANES: usize = 4;
const LANES_FROM: usize = 2048;

/// Rows histogrammed together before moving to the next feature, so their
/// gradients stay in the cache across features.
const CHUNK: usize = 4096;

/// A leaf holding less than one row in `SPARSE` is histogrammed from the
/// row-major bins (a row's bins in one or two cache lines), a denser one
/// from the column-major bins (each column read as a stream).
const SPARSE: usize = 32;

/// The best split of a leaf.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    feature: usize,
    /// Value bins `1..=bin` go left.
    bin: u8,
    default_left: bool,
    gain: f64,
    left: Sums,
    right: Sums,
}

/// A leaf of the tree being grown.
struct Leaf {
    /// Its rows: `rows[start..start + len]` of the grower.
    start: usize,
    len: usize,
    sums: Sums,
    depth: usize,
    hist: Option<Vec<Sums>>,
    best: Option<Candidate>,
    /// The split it hangs from, and whether on the left.
    parent: Option<(usize, bool)>,
}

/// A split of the tree being grown, in bins.
#[derive(Clone, Copy, Debug)]
struct GrowNode {
    feature: usize,
    bin: u8,
    default_left: bool,
    left: i32,
    right: i32,
    gain: f64,
    sums: Sums,
}

/// A grown tree, in bins, with each leaf's rows in the grower's partition.
struct Grown {
    nodes: Vec<GrowNode>,
    leaf_sums: Vec<Sums>,
    leaf_rows: Vec<(usize, usize)>,
}

impl Grown {
    /// The leaf of a row given its bins.
    fn leaf(&self, row: &[u8]) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut i = 0;
        loop {
            let node = &self.nodes[i];
            let b = row[node.feature];
            let left = if b == 0 { node.default_left } else { b <= node.bin };
            let child = if left { node.left } else { node.right };
            if child < 0 {
                return !child as usize;
            }
            i = child as usize;
        }
    }

    /// The tree in values: thresholds from the bins' cuts, values shrunk.
    fn tree(&self, mapper: &BinMapper, config: &TrainConfig) -> Tree {
        let value = |s: &Sums| {
            let d = s.h + config.lambda_l2;
            if d > 0.0 {
                (-s.g / d * config.learning_rate) as f32
            } else {
                0.0
            }
        };
        Tree {
            nodes: self
                .nodes
                .iter()
                .map(|n| Node {
                    feature: n.feature as u32 | if n.default_left { DEFAULT_LEFT } else { 0 },
                    threshold: mapper.threshold(n.feature, n.bin),
                    left: n.left,
                    right: n.right,
                })
                .collect(),
            gain: self.nodes.iter().map(|n| n.gain as f32).collect(),
            value: self.nodes.iter().map(|n| value(&n.sums)).collect(),
            cover: self.nodes.iter().map(|n| n.sums.h as f32).collect(),
            leaf_value: self.leaf_sums.iter().map(value).collect(),
            leaf_cover: self.leaf_sums.iter().map(|s| s.h as f32).collect(),
        }
    }
}

/// Grows trees on a binned matrix, reusing its buffers from tree to tree.
///
/// A leaf's histogram holds, for each feature `f`, its missing bin and
/// value bins at `offsets[f]..offsets[f + 1]`.
struct Grower<'a> {
    config: &'a TrainConfig,
    /// The bins column-major (`f * n_rows + r`) and row-major
    /// (`r * n_features + f`).
    by_column: &'a [u8],
    by_row: &'a [u8],
    n_rows: usize,
    n_value_bins: Vec<usize>,
    offsets: Vec<usize>,
    /// The round's rows, partitioned leaf by leaf.
    rows: Vec<u32>,
    scratch: Vec<u32>,
    /// The gradients and hessians of a leaf's rows, in its row order.
    ordered_g: Vec<f32>,
    ordered_h: Vec<f32>,
    /// Histogram buffers not in use.
    pool: Vec<Vec<Sums>>,
    /// The histogram being built, in `LANES` copies.
    lanes: Vec<[Sums; LANES]>,
}

impl<'a> Grower<'a> {
    fn new(
        config: &'a TrainConfig,
        by_column: &'a [u8],
        by_row: &'a [u8],
        n_value_bins: Vec<usize>,
    ) -> Self {
        let mut offsets = vec![0];
        for &nb in &n_value_bins {
            offsets.push(offsets.last().copied().unwrap_or(0) + nb + 1);
        }
        Grower {
            config,
            by_column,
            by_row,
            n_rows: by_row.len() / n_value_bins.len(),
            n_value_bins,
            offsets,
            rows: Vec::new(),
            scratch: Vec::new(),
            ordered_g: Vec::new(),
            ordered_h: Vec::new(),
            pool: Vec::new(),
            lanes: Vec::new(),
        }
    }

    fn take_hist(&mut self) -> Vec<Sums> {
        let size = self.offsets[self.offsets.len() - 1];
        self.pool.pop().unwrap_or_else(|| vec![Sums::default(); size])
    }

    fn can_split(&self, leaf: &Leaf) -> bool {
        let c = self.config;
        c.max_depth.is_none_or(|d| leaf.depth < d)
            && leaf.len >= 2 * c.min_data_in_leaf.max(1)
            && leaf.sums.h >= 2.0 * c.min_child_weight
    }

    /// Grows one tree on the rows `bag` with these gradients, splitting
    /// only on `features`.
    fn grow(&mut self, bag: &[u32], grad: &[f32], hess: &[f32], features: &[usize]) -> Grown {
        self.rows.clear();
        self.rows.extend_from_slice(bag);
        let mut sums = Sums::default();
        for &r in bag {
            sums = sums
                + Sums { g: f64::from(grad[r as usize]), h: f64::from(hess[r as usize]), n: 1 };
        }
        let mut leaves = vec![Leaf {
            start: 0,
            len: bag.len(),
            sums,
            depth: 0,
            hist: None,
            best: None,
            parent: None,
        }];
        if self.can_split(&leaves[0]) {
            let mut hist = self.take_hist();
            self.build_hist(&mut hist, 0, bag.len(), grad, hess, features);
            leaves[0].best = self.best_split(&hist, sums, features);
            leaves[0].hist = Some(hist);
        }
        let mut nodes: Vec<GrowNode> = Vec::new();
        while leaves.len() < self.config.max_leaves {
            // The leaf whose split gains most; the first on ties.
            let mut chosen: Option<(usize, f64)> = None;
            for (i, leaf) in leaves.iter().enumerate() {
                if let Some(c) = &leaf.best {
                    if chosen.is_none_or(|(_, g)| c.gain > g) {
                        chosen = Some((i, c.gain));
                    }
                }
            }
            let Some((li, _)) = chosen else { break };
            let split = leaves[li].best.take().expect("chosen for its split");
            let parent_hist = leaves[li].hist.take();
            let node = nodes.len();
            let right_leaf = leaves.len();
            nodes.push(GrowNode {
                feature: split.feature,
                bin: split.bin,
                default_left: split.default_left,
                left: !(li as i32),
                right: !(right_leaf as i32),
                gain: split.gain,
                sums: leaves[li].sums,
            });
            if let Some((p, on_left)) = leaves[li].parent {
                if on_left {
                    nodes[p].left = node as i32;
                } else {
                    nodes[p].right = node as i32;
                }
            }
            let (start, len, depth) = (leaves[li].start, leaves[li].len, leaves[li].depth + 1);
            let n_left = self.partition(start, len, &split);
            debug_assert_eq!(n_left as u64, split.left.n);
            leaves[li] = Leaf {
                start,
                len: n_left,
                sums: split.left,
                depth,
                hist: None,
                best: None,
                parent: Some((node, true)),
            };
            leaves.push(Leaf {
                start: start + n_left,
                len: len - n_left,
                sums: split.right,
                depth,
                hist: None,
                best: None,
                parent: Some((node, false)),
            });
            let parent_hist = parent_hist.expect("a leaf with a split has its histogram");
            if leaves.len() == self.config.max_leaves {
                self.pool.push(parent_hist);
                break;
            }
            // Histogram the smaller child; the larger is the parent minus it.
            let (small, large) =
                if n_left <= len - n_left { (li, right_leaf) } else { (right_leaf, li) };
            let (small_ok, large_ok) =
                (self.can_split(&leaves[small]), self.can_split(&leaves[large]));
            if !small_ok && !large_ok {
                self.pool.push(parent_hist);
                continue;
            }
            let mut small_hist = self.take_hist();
            self.build_hist(
                &mut small_hist,
                leaves[small].start,
                leaves[small].len,
                grad,
                hess,
                features,
            );
            if large_ok {
                let mut large_hist = parent_hist;
                for &f in features {
                    for b in self.offsets[f]..self.offsets[f + 1] {
                        large_hist[b] = large_hist[b] - small_hist[b];
                    }
                }
                leaves[large].best = self.best_split(&large_hist, leaves[large].sums, features);
                leaves[large].hist = Some(large_hist);
            } else {
                self.pool.push(parent_hist);
            }
            if small_ok {
                leaves[small].best = self.best_split(&small_hist, leaves[small].sums, features);
                leaves[small].hist = Some(small_hist);
            } else {
                self.pool.push(small_hist);
            }
            for leaf in [small, large] {
                if leaves[leaf].best.is_none() {
                    if let Some(h) = leaves[leaf].hist.take() {
                        self.pool.push(h);
                    }
                }
            }
        }
        for leaf in &mut leaves {
            if let Some(h) = leaf.hist.take() {
                self.pool.push(h);
            }
        }
        Grown {
            nodes,
            leaf_sums: leaves.iter().map(|l| l.sums).collect(),
            leaf_rows: leaves.iter().map(|l| (l.start, l.len)).collect(),
        }
    }

    /// Moves the rows of `rows[start..start + len]` going left by `split`
    /// to the front, keeping both sides in order; returns how many.
    fn partition(&mut self, start: usize, len: usize, split: &Candidate) -> usize {
        let column =
            &self.by_column[split.feature * self.n_rows..(split.feature + 1) * self.n_rows];
        let rows = &mut self.rows[start..start + len];
        self.scratch.clear();
        let mut n_left = 0;
        for i in 0..len {
            let r = rows[i];
            let b = column[r as usize];
            if if b == 0 { split.default_left } else { b <= split.bin } {
                rows[n_left] = r;
                n_left += 1;
            } else {
                self.scratch.push(r);
            }
        }
        rows[n_left..].copy_from_slice(&self.scratch);
        n_left
    }

    /// The histograms of `features` over `rows[start..start + len]`.
    fn build_hist(
        &mut self,
        hist: &mut [Sums],
        start: usize,
        len: usize,
        grad: &[f32],
        hess: &[f32],
        features: &[usize],
    ) {
        let rows = &self.rows[start..start + len];
        self.ordered_g.clear();
        self.ordered_g.extend(rows.iter().map(|&r| grad[r as usize]));
        self.ordered_h.clear();
        self.ordered_h.extend(rows.iter().map(|&r| hess[r as usize]));
        let (n_rows, offsets) = (self.n_rows, &self.offsets);
        let n_features = offsets.len() - 1;
        if len * SPARSE < n_rows {
            for &f in features {
                hist[offsets[f]..offsets[f + 1]].fill(Sums::default());
            }
            let at: Vec<(usize, usize)> = features.iter().map(|&f| (f, offsets[f])).collect();
            for ((&r, &g), &h) in rows.iter().zip(&self.ordered_g).zip(&self.ordered_h) {
                let row = &self.by_row[r as usize * n_features..(r as usize + 1) * n_features];
                let (g, h) = (f64::from(g), f64::from(h));
                for &(f, o) in &at {
                    let e = &mut hist[o + usize::from(row[f])];
                    e.g += g;
                    e.h += h;
                    e.n += 1;
                }
            }
            return;
        }
        let column = |f: usize| &self.by_column[f * n_rows..(f + 1) * n_rows];
        if len < LANES_FROM {
            for &f in features {
                let fh = &mut hist[offsets[f]..offsets[f + 1]];
                fh.fill(Sums::default());
                let column = column(f);
                for ((&r, &g), &h) in rows.iter().zip(&self.ordered_g).zip(&self.ordered_h) {
                    let e = &mut fh[usize::from(column[r as usize])];
                    e.g += f64::from(g);
                    e.h += f64::from(h);
                    e.n += 1;
                }
            }
            return;
        }
        let lanes = &mut self.lanes;
        if lanes.is_empty() {
            lanes.resize(offsets[n_features], [Sums::default(); LANES]);
        }
        for &f in features {
            lanes[offsets[f]..offsets[f + 1]].fill([Sums::default(); LANES]);
        }
        for at in (0..len).step_by(CHUNK) {
            let end = (at + CHUNK).min(len);
            let (rows, g, h) = (&rows[at..end], &self.ordered_g[at..end], &self.ordered_h[at..end]);
            let whole = rows.len() / LANES * LANES;
            for &f in features {
                let column = column(f);
                let fl = &mut lanes[offsets[f]..offsets[f + 1]];
                let quads = rows[..whole]
                    .chunks_exact(LANES)
                    .zip(g[..whole].chunks_exact(LANES))
                    .zip(h[..whole].chunks_exact(LANES));
                for ((r, g), h) in quads {
                    for l in 0..LANES {
                        let e = &mut fl[usize::from(column[r[l] as usize])][l];
                        e.g += f64::from(g[l]);
                        e.h += f64::from(h[l]);
                        e.n += 1;
                    }
                }
                for ((&r, &g), &h) in rows[whole..].iter().zip(&g[whole..]).zip(&h[whole..]) {
                    let e = &mut fl[usize::from(column[r as usize])][0];
                    e.g += f64::from(g);
                    e.h += f64::from(h);
                    e.n += 1;
                }
            }
        }
        for &f in features {
            for b in offsets[f]..offsets[f + 1] {
                hist[b] = lanes[b].iter().fold(Sums::default(), |a, &x| a + x);
            }
        }
    }

    /// The split of highest gain above `min_split_gain` of a leaf with
    /// these histograms and sums, if any: for each feature, each threshold
    /// bin with missing values right, then left.
    fn best_split(&self, hist: &[Sums], sums: Sums, features: &[usize]) -> Option<Candidate> {
        let c = self.config;
        let lambda = c.lambda_l2;
        let min_n = c.min_data_in_leaf.max(1) as u64;
        let score = |s: &Sums| s.g * s.g / (s.h + lambda);
        let parent = score(&sums);
        let mut best: Option<Candidate> = None;
        let mut best_gain = c.min_split_gain;
        let mut consider = |f: usize, b: usize, default_left: bool, left: Sums, right: Sums| {
            if left.n < min_n
                || right.n < min_n
                || left.h < c.min_child_weight
                || right.h < c.min_child_weight
            {
                return;
            }
            let gain = score(&left) + score(&right) - parent;
            if gain > best_gain {
                best_gain = gain;
                best =
                    Some(Candidate { feature: f, bin: b as u8, default_left, gain, left, right });
            }
        };
        for &f in features {
            let fh = &hist[self.offsets[f]..self.offsets[f + 1]];
            let nb = self.n_value_bins[f];
            let missing = fh[0];
            let mut left = Sums::default();
            for (b, &bin) in fh.iter().enumerate().take(nb + 1).skip(1) {
                left = left + bin;
                consider(f, b, false, left, sums - left);
                if missing.n > 0 && b < nb {
                    let with_missing = left + missing;
                    consider(f, b, true, with_missing, sums - with_missing);
                }
            }
        }
        // With no missing value in the leaf, unseen ones follow the bulk.
        best.map(|mut s| {
            if hist[self.offsets[s.feature]].n == 0 {
                s.default_left = s.left.h >= s.right.h;
            }
            s
        })
    }
}
