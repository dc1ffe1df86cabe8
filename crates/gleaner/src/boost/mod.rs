//! Gradient-boosted regression trees: training, inference, explanations
//! and a checksummed binary file format, in pure Rust.
//!
//! This is the learning machinery of gleaner's learned block decision
//! (issue 32): a [`Forest`] scores a row of block features, and
//! [`train`] fits one from labelled rows, reproducibly.
//!
//! # What and why
//!
//! Gradient boosting (Friedman 2001, *Greedy function approximation: a
//! gradient boosting machine*) adds small regression trees one round at a
//! time, each fitted to the gradient of the loss at the current
//! prediction. This module uses the second-order form popularised by
//! XGBoost (Chen & Guestrin 2016): each row carries its gradient `g` and
//! hessian `h`, a split's gain is
//! `G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)` and a leaf's value is
//! `−G/(H+λ)` times the learning rate. As in LightGBM (Ke et al. 2017),
//! features are first cut into at most 255 quantile bins, so a node's
//! candidate splits are read from a histogram of `(G, H, count)` per bin;
//! only the smaller child of a split is histogrammed, the larger one is its
//! parent minus the smaller ("histogram subtraction"); trees grow leaf-wise
//! (always splitting the leaf of highest gain) up to a number of leaves.
//! A missing value (NaN) has a bin of its own and each split learns which
//! side it goes to (XGBoost's sparsity-aware default direction).
//!
//! Trees were chosen because block features are heterogeneous (densities,
//! counts, flags, positions, the seed algorithms' scores), need no
//! scaling, have missing values (no layout, no site model), and because a
//! forest of a few hundred small trees is evaluated in microseconds with
//! no allocation, and explained exactly ([`Forest::contributions`]).
//!
//! Objectives ([`Objective`]): binary logistic with soft labels in `[0, 1]`
//! (gradient `p − y`, hessian `p(1 − p)`), and multiclass softmax with one
//! tree per class per round.
//!
//! # Determinism
//!
//! Training is single-threaded and uses no hash-map iteration, no clock
//! and no global random state: bin cuts come from sorted values, row and
//! feature subsampling from a SplitMix64 generator seeded by
//! [`TrainConfig::seed`], sums are taken in a fixed order, and ties between
//! equal gains go to the lower feature and bin. Training twice on the same
//! input with the same configuration gives a bit-identical [`Forest`] and
//! file ([`Forest::to_bytes`]) on the same platform. The loss uses the
//! standard library's `exp` and `ln`, which call the platform's math
//! library; a different libm could round them differently in the last bit.
//!
//! # File format
//!
//! [`Forest::to_bytes`] writes, and [`Forest::from_bytes`] reads, this
//! layout (every integer and float little-endian, `u32` unless said; `str`
//! is a `u32` byte length then that many bytes of UTF-8):
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `GLEANGBM` |
//! | 4 | format version, [`FORMAT_VERSION`] |
//! | 4 | objective: 0 binary logistic, 1 multiclass softmax |
//! | 4 | outputs: 1 for binary, the number of classes for softmax |
//! | 4 | number of features `F` |
//! | 4 | number of trees `T` (a multiple of outputs; tree `t` adds to output `t mod outputs`) |
//! | `F` × str | feature names |
//! | str | metadata (free text, by convention JSON: data, configuration, date) |
//! | outputs × f32 | base score of each output (the raw score before any tree) |
//! | per tree | `u32` number of splits `S`; `S` split records; `S + 1` leaf records |
//! | split, 28 | `u32` feature (bit 31: missing values go left); `f32` threshold (`x <= threshold` goes left); `i32` left child, `i32` right child (`≥ 0`: a split of this tree, always after this one; `< 0`: leaf `!child`); `f32` gain; `f32` value (the node's value had it been a leaf); `f32` cover (sum of hessians) |
//! | leaf, 8 | `f32` value; `f32` cover |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Loading checks the magic, the version, the checksum, every count
//! against the bytes that remain before allocating for it, every index,
//! that each tree is a tree (every split and leaf reached exactly once,
//! children after parents) and that values are finite; anything else is an
//! [`Error::InvalidLearnedModel`] that
//! says what is wrong.
//!
//! # Example
//!
//! ```
//! use gleaner::boost::{train, Dataset, Forest, Target, TrainConfig};
//!
//! // y = 1 when x0 > 0.5, whatever x1 is.
//! let mut x = Vec::new();
//! let mut y = Vec::new();
//! for i in 0..400 {
//!     let (a, b) = ((i % 20) as f32 / 20.0, (i / 20) as f32);
//!     x.extend_from_slice(&[a, b]);
//!     y.push(if a > 0.5 { 1.0 } else { 0.0 });
//! }
//! let data = Dataset::new(&x, 2, Target::Binary(&y))?;
//! let config = TrainConfig { rounds: 20, min_data_in_leaf: 5, ..TrainConfig::default() };
//! let trained = train(&config, &["x0", "x1"], &data, None)?;
//! let forest = trained.forest.with_metadata(r#"{"data":"doc example"}"#);
//! assert!(forest.predict_proba(&[0.9, 3.0]) > 0.9);
//! assert!(forest.predict_proba(&[0.1, 3.0]) < 0.1);
//!
//! // What drove a decision: x0, not x1.
//! let why = forest.contributions(&[0.9, 3.0], 0);
//! assert_eq!(why.features[0].0, 0);
//!
//! // The file round-trips exactly and refuses another feature schema.
//! let bytes = forest.to_bytes();
//! let loaded = Forest::from_bytes(&bytes)?;
//! assert_eq!(loaded, forest);
//! assert!(loaded.check_features(&["x0", "x1"]).is_ok());
//! assert!(loaded.check_features(&["x0", "x2"]).is_err());
//! # Ok::<(), gleaner::Error>(())
//! ```

mod bins;
mod complete;
mod format;
mod packed;
mod rng;
mod train;

use crate::error::{Error, Result};
use complete::Complete;
use packed::Packed;

pub use complete::COMPLETE_MAX_DEPTH;
pub use format::{FORMAT_VERSION, MAGIC};
pub use train::{train, Dataset, RoundLoss, Target, TrainConfig, Trained};

/// The most classes a softmax forest may have.
pub const MAX_CLASSES: usize = 256;

/// What a forest's raw scores mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// One raw score, the log-odds of the positive class; trained with
    /// the logistic loss on labels in `[0, 1]`.
    BinaryLogistic,
    /// One raw score per class; probabilities are their softmax.
    Softmax {
        /// The number of classes, 2 to [`MAX_CLASSES`].
        n_classes: usize,
    },
}

impl Objective {
    /// The number of raw scores a row gets: 1, or the number of classes.
    pub fn n_outputs(self) -> usize {
        match self {
            Objective::BinaryLogistic => 1,
            Objective::Softmax { n_classes } => n_classes,
        }
    }
}

/// Bit of [`Node::feature`] set when missing values go left.
const DEFAULT_LEFT: u32 = 1 << 31;

/// One split of a tree (16 bytes), as the trainer makes it and the file
/// stores it; predictions walk the `packed` and `complete` layouts made
/// from these.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    /// The feature index; bit 31 set when missing values go left.
    pub(crate) feature: u32,
    /// A value `x <= threshold` goes left, a greater one right.
    pub(crate) threshold: f32,
    /// The left child: `≥ 0` a split of the same tree, `< 0` leaf `!left`.
    pub(crate) left: i32,
    /// The right child, encoded as `left`.
    pub(crate) right: i32,
}

impl Node {
    fn feature_index(&self) -> usize {
        (self.feature & !DEFAULT_LEFT) as usize
    }

    fn default_left(&self) -> bool {
        self.feature & DEFAULT_LEFT != 0
    }

    /// The child a value goes to.
    #[inline(always)]
    fn child(&self, x: f32) -> i32 {
        // Without branches: a NaN compares false, and goes left only by
        // default.
        let left = (x <= self.threshold) | (x.is_nan() & self.default_left());
        if left {
            self.left
        } else {
            self.right
        }
    }
}

/// One regression tree: splits in flat arrays, children after parents.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tree {
    /// The splits; the root is split 0 when there is any.
    pub(crate) nodes: Vec<Node>,
    /// Each split's gain in the training loss.
    pub(crate) gain: Vec<f32>,
    /// Each split's value had it been a leaf (for explanations).
    pub(crate) value: Vec<f32>,
    /// Each split's cover: the sum of the training rows' hessians.
    pub(crate) cover: Vec<f32>,
    /// Leaf values, added to the raw score.
    pub(crate) leaf_value: Vec<f32>,
    /// Leaf covers.
    pub(crate) leaf_cover: Vec<f32>,
}

impl Tree {
    /// The leaf value `row` reaches, walking the splits themselves: the
    /// path of forests [`Packed`] cannot hold.
    pub(crate) fn leaf(&self, row: &[f32]) -> f32 {
        let mut i = 0usize;
        while let Some(node) = self.nodes.get(i) {
            let child = node.child(row[node.feature_index()]);
            if child < 0 {
                return self.leaf_value[!child as usize];
            }
            i = child as usize;
        }
        self.leaf_value[0]
    }

    /// The value of the root, as if it were a leaf.
    fn root_value(&self) -> f32 {
        self.value.first().copied().unwrap_or(self.leaf_value[0])
    }
}

/// A trained forest of gradient-boosted trees, with the names of the
/// features it was trained on and free-form metadata.
///
/// Made by [`train`] or read by [`Forest::from_bytes`]. Predictions take a
/// row of exactly [`n_features`](Forest::n_features) values (NaN for a
/// missing one) and allocate nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    pub(crate) objective: Objective,
    pub(crate) feature_names: Vec<String>,
    pub(crate) metadata: String,
    pub(crate) base_score: Vec<f32>,
    /// Round-major: tree `t` adds to output `t % n_outputs`.
    pub(crate) trees: Vec<Tree>,
    /// The trees again, for walks of one row at a time: 8-byte nodes in
    /// one array (`None` for a forest too large for its codes, walked by
    /// `trees`).
    packed: Option<Packed>,
    /// The trees again as complete trees in heap layout, for
    /// [`predict_proba_batch`](Forest::predict_proba_batch): for a binary
    /// forest whose trees are at most [`COMPLETE_MAX_DEPTH`] deep.
    complete: Option<Complete>,
}

/// Why a row got its raw score: Saabas-style path attributions.
///
/// Walking a row's path down each tree, every split moves the running
/// value from the parent's value to the child's; that difference is
/// credited to the split's feature. `bias` plus every feature's
/// contribution is the raw score (up to float rounding).
#[derive(Clone, Debug, PartialEq)]
pub struct Contributions {
    /// The part of the score no feature moved: the base score plus every
    /// tree's root value.
    pub bias: f32,
    /// `(feature index, contribution)` for every feature that moved the
    /// score, largest magnitude first (ties by feature index).
    pub features: Vec<(usize, f32)>,
}

/// How much a feature was used: see [`Forest::importances`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Importance {
    /// The total gain of the feature's splits, over every tree.
    pub gain: f64,
    /// How many splits use the feature.
    pub splits: u64,
}

impl Forest {
    /// A forest of these trees (checked by the caller to be trees over
    /// these features), packed for prediction; a binary forest of shallow
    /// trees also gets its complete layout for batch scoring (derived here,
    /// never stored in the file).
    pub(crate) fn new(
        objective: Objective,
        feature_names: Vec<String>,
        metadata: String,
        base_score: Vec<f32>,
        trees: Vec<Tree>,
    ) -> Forest {
        let packed = Packed::new(&trees, feature_names.len());
        let complete = match objective {
            Objective::BinaryLogistic => Complete::new(&trees, feature_names.len()),
            Objective::Softmax { .. } => None,
        };
        Forest { objective, feature_names, metadata, base_score, trees, packed, complete }
    }

    /// What the raw scores mean.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The number of raw scores per row: 1 for binary, else the number of
    /// classes.
    pub fn n_outputs(&self) -> usize {
        self.objective.n_outputs()
    }

    /// The number of features a row must have.
    pub fn n_features(&self) -> usize {
        self.feature_names.len()
    }

    /// The features' names, in row order.
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    /// The number of trees (rounds × outputs).
    pub fn n_trees(&self) -> usize {
        self.trees.len()
    }

    /// The number of boosting rounds.
    pub fn n_rounds(&self) -> usize {
        self.trees.len() / self.n_outputs()
    }

    /// The raw score of each output before any tree.
    pub fn base_score(&self) -> &[f32] {
        &self.base_score
    }

    /// The free-form metadata stored with the forest (empty after
    /// training: the caller sets it).
    pub fn metadata(&self) -> &str {
        &self.metadata
    }

    /// Sets the metadata: by convention JSON saying what data, which
    /// configuration and when the forest was trained from.
    pub fn set_metadata(&mut self, metadata: impl Into<String>) {
        self.metadata = metadata.into();
    }

    /// The forest with this metadata, for chaining.
    pub fn with_metadata(mut self, metadata: impl Into<String>) -> Self {
        self.set_metadata(metadata);
        self
    }

    /// Refuses a forest trained for another feature schema: `Ok` only
    /// when `expected` names exactly this forest's features in order.
    ///
    /// ```
    /// # use gleaner::boost::{train, Dataset, Target, TrainConfig};
    /// # let x = [0.0f32, 1.0, 1.0, 0.0];
    /// # let data = Dataset::new(&x, 2, Target::Binary(&[0.0, 1.0]))?;
    /// # let forest = train(&TrainConfig::default(), &["words", "links"], &data, None)?.forest;
    /// let err = forest.check_features(&["words", "link_density"]).unwrap_err();
    /// assert!(err.to_string().contains("link_density"), "{err}");
    /// # Ok::<(), gleaner::Error>(())
    /// ```
    pub fn check_features<S: AsRef<str>>(&self, expected: &[S]) -> Result<()> {
        let mine = &self.feature_names;
        let first_difference =
            mine.iter().zip(expected).position(|(m, e)| m.as_str() != e.as_ref());
        if let Some(i) = first_difference {
            return Err(Error::InvalidLearnedModel(format!(
                "trained for another feature schema: feature {i} is {:?} in the model but {:?} \
                 here ({} features in the model, {} here); retrain it with this version",
                mine[i],
                expected[i].as_ref(),
                mine.len(),
                expected.len()
            )));
        }
        if mine.len() != expected.len() {
            let extra = if mine.len() > expected.len() {
                format!("the model also has {:?}", mine[expected.len()])
            } else {
                format!("this version also has {:?}", expected[mine.len()].as_ref())
            };
            return Err(Error::InvalidLearnedModel(format!(
                "trained for another feature schema: {} features in the model, {} here ({extra}); \
                 retrain it with this version",
                mine.len(),
                expected.len()
            )));
        }
        Ok(())
    }

    fn check_row(&self, row: &[f32]) {
        assert_eq!(
            row.len(),
            self.n_features(),
            "a row must have one value per feature of the forest"
        );
    }

    /// The raw score (log-odds) of a row for a binary forest.
    ///
    /// # Panics
    /// When the forest is not [`Objective::BinaryLogistic`] or the row's
    /// length is not [`n_features`](Forest::n_features).
    #[inline]
    pub fn predict_raw(&self, row: &[f32]) -> f32 {
        assert_eq!(self.n_outputs(), 1, "predict_raw is for binary forests: use predict_raw_multi");
        self.check_row(row);
        let mut sum = self.base_score[0];
        self.for_each_leaf(row, |_, value| sum += value);
        sum
    }

    /// The raw score of every output for a row, into `out`.
    ///
    /// # Panics
    /// When `out.len()` is not [`n_outputs`](Forest::n_outputs) or the row's
    /// length is not [`n_features`](Forest::n_features).
    pub fn predict_raw_multi(&self, row: &[f32], out: &mut [f32]) {
        let k = self.n_outputs();
        assert_eq!(out.len(), k, "out must have one value per output of the forest");
        self.check_row(row);
        out.copy_from_slice(&self.base_score);
        self.for_each_leaf(row, |t, value| out[t % k] += value);
    }

    /// Calls `add(tree index, leaf value)` for the leaf `row` reaches in
    /// each tree, in tree order.
    #[inline]
    fn for_each_leaf(&self, row: &[f32], mut add: impl FnMut(usize, f32)) {
        match &self.packed {
            Some(packed) => packed.for_each_leaf(row, add),
            None => {
                for (t, tree) in self.trees.iter().enumerate() {
                    add(t, tree.leaf(row));
                }
            }
        }
    }

    /// The probabilities of the positive class of many rows at once, for
    /// a binary forest: `rows` holds them row-major, `out` gets one
    /// probability per row. Bit-identical to
    /// [`predict_proba`](Forest::predict_proba) of each row (the same
    /// leaves added in the same order). Allocates a few scratch buffers
    /// per call, not per row.
    ///
    /// Tree by tree rather than row by row: a tree stays in cache while
    /// many rows walk it, several at a time so that their walks overlap. A
    /// forest whose trees are at most [`COMPLETE_MAX_DEPTH`] deep (trained
    /// with [`TrainConfig::max_depth`]) is walked as complete trees in heap
    /// layout, each walk a fixed number of branch-free steps (see the
    /// `complete` module); a deeper one walks its packed nodes. A page's
    /// blocks are scored this way.
    ///
    /// # Panics
    /// When the forest is not binary, `rows` is not a whole number of rows
    /// of [`n_features`](Forest::n_features) values, or `out` does not
    /// have one value per row.
    pub fn predict_proba_batch(&self, rows: &[f32], out: &mut [f32]) {
        assert_eq!(self.n_outputs(), 1, "predict_proba_batch is for binary forests");
        let width = self.n_features();
        assert!(width > 0 && rows.len() % width == 0, "rows must be whole rows");
        let n = rows.len() / width;
        assert_eq!(out.len(), n, "out must have one value per row");
        out.fill(self.base_score[0]);
        match &self.complete {
            Some(complete) => complete.add_leaves(rows, out),
            None => self.add_leaves_packed(rows, out),
        }
        for o in out.iter_mut() {
            *o = sigmoid(*o);
        }
    }

    /// Adds to `out[r]` the leaf each tree gives row `r` of `rows`, in
    /// tree order, walking the packed nodes (or the trees'): the batch
    /// path of forests of deep trees.
    fn add_leaves_packed(&self, rows: &[f32], out: &mut [f32]) {
        let width = self.n_features();
        match &self.packed {
            Some(packed) => packed.add_leaves(rows, width, out),
            None => {
                for tree in &self.trees {
                    for (o, row) in out.iter_mut().zip(rows.chunks_exact(width)) {
                        *o += tree.leaf(row);
                    }
                }
            }
        }
    }

    /// The probability of the positive class for a binary forest: the
    /// logistic function of [`predict_raw`](Forest::predict_raw).
    ///
    /// # Panics
    /// As [`predict_raw`](Forest::predict_raw).
    pub fn predict_proba(&self, row: &[f32]) -> f32 {
        sigmoid(self.predict_raw(row))
    }

    /// The probability of every class, into `out`: the softmax of the raw
    /// scores, or for a binary forest (`out` of length 1) the positive
    /// class's probability.
    ///
    /// # Panics
    /// As [`predict_raw_multi`](Forest::predict_raw_multi).
    pub fn predict_proba_multi(&self, row: &[f32], out: &mut [f32]) {
        self.predict_raw_multi(row, out);
        match self.objective {
            Objective::BinaryLogistic => out[0] = sigmoid(out[0]),
            Objective::Softmax { .. } => softmax(out),
        }
    }

    /// Why `row` got its raw score for `output` (0 for a binary forest,
    /// the class for softmax): the bias and each feature's contribution,
    /// largest first. See [`Contributions`]. Allocates its result (an
    /// explanation, not the hot path).
    ///
    /// # Panics
    /// When `output >= n_outputs()` or the row's length is not
    /// [`n_features`](Forest::n_features).
    pub fn contributions(&self, row: &[f32], output: usize) -> Contributions {
        let k = self.n_outputs();
        assert!(output < k, "output {output} of a forest of {k} outputs");
        self.check_row(row);
        let mut bias = f64::from(self.base_score[output]);
        let mut per_feature = vec![0f64; self.n_features()];
        for tree in self.trees.iter().skip(output).step_by(k) {
            let mut value = tree.root_value();
            bias += f64::from(value);
            if tree.nodes.is_empty() {
                continue;
            }
            let mut i = 0usize;
            loop {
                let node = &tree.nodes[i];
                let child = node.child(row[node.feature_index()]);
                let child_value = if child < 0 {
                    tree.leaf_value[!child as usize]
                } else {
                    tree.value[child as usize]
                };
                per_feature[node.feature_index()] += f64::from(child_value) - f64::from(value);
                value = child_value;
                if child < 0 {
                    break;
                }
                i = child as usize;
            }
        }
        let mut features: Vec<(usize, f32)> = per_feature
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0.0)
            .map(|(f, &c)| (f, c as f32))
            .collect();
        features.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        Contributions { bias: bias as f32, features }
    }

    /// Each feature's total gain and number of splits over the forest, in
    /// feature order (index as in [`feature_names`](Forest::feature_names)).
    pub fn importances(&self) -> Vec<Importance> {
        let mut out = vec![Importance::default(); self.n_features()];
        for tree in &self.trees {
            for (node, &gain) in tree.nodes.iter().zip(&tree.gain) {
                let imp = &mut out[node.feature_index()];
                imp.gain += f64::from(gain);
                imp.splits += 1;
            }
        }
        out
    }
}

/// The logistic function.
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Softmax in place, shifted by the maximum for stability.
fn softmax(v: &mut [f32]) {
    let max = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in v.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in v.iter_mut() {
        *x /= sum;
    }
}

#[cfg(test)]
mod tests;
