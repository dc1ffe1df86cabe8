//! Batch scoring by complete trees in implicit (heap) layout: the fast
//! path of [`Forest::predict_proba_batch`](super::Forest::predict_proba_batch)
//! for forests of shallow trees.
//!
//! # The idea
//!
//! A tree of depth at most `D` is padded into the *complete* binary tree
//! of depth `D`, stored as an implicit heap (Williams' binary-heap
//! numbering): split `i` has children `2i` and `2i + 1`, the root is
//! split 1, the `2^D` leaves are heap slots `2^D .. 2^(D+1)`. A leaf of the
//! original tree at depth `d < D` becomes a subtree of splits that always
//! go left (threshold `+∞`) over `2^(D−d)` copies of its value, so a row
//! reaches a copy of the same value and the sum is unchanged. A walk is
//! then exactly `D` steps of `i = 2i + !(x[feature] <= threshold)`: no leaf
//! test, no child pointers, no exit that depends on the data, so walks of
//! several rows interleave perfectly and the compiler unrolls them. This
//! is the layout of complete ("oblivious-depth") trees used by array-based
//! GPU and SIMD tree predictors (e.g. XGBoost's and LightGBM's GPU
//! predictors pad trees this way; Asadi, Lin & de Vries 2014, *Runtime
//! optimizations for tree-based machine learning models*, compare it with
//! pointer-chasing and predication; QuickScorer, Lucchese et al. 2015,
//! is the bit-vector alternative for larger trees). It pays `2^D` slots
//! per tree, so it is kept for `D ≤` [`COMPLETE_MAX_DEPTH`]: trees trained
//! with `TrainConfig::max_depth = Some(d)`, `d ≤ 8`.
//!
//! # Missing values without a branch
//!
//! A split sends `x <= threshold` left, any other number right, and a NaN
//! to its learned side. Every step here goes right when
//! `!(x <= threshold)`, which is exactly that for a number and sends a
//! NaN right. So that a split whose missing values go left needs no test
//! of its own, every row is first rewritten into *columns*, two sections
//! of `F` values:
//!
//! - section 0, for splits whose missing values go left: the row with NaN
//!   replaced by `−∞`, which goes left whatever the threshold;
//! - section 1, for splits whose missing values go right: the row as it
//!   is, NaN included.
//!
//! A split reads column `feature` or `F + feature`; the padding splits
//! read column 0 (never NaN) with threshold `+∞`. Infinite thresholds need
//! no special case.

//! # Bounds without checks
//!
//! The crate forbids `unsafe`, so the inner loop is made free of bounds
//! checks by types and masks: a tree's splits and leaves are `&[_; 2^D]`
//! with `2^D` a constant, indexed by the heap index `& (2^D − 1)` (a no-op:
//! the index is below `2^D` before the last step and in `2^D .. 2^(D+1)`,
//! leaf `index − 2^D`, after it; with eight walks at once the compiler no
//! longer tracks that by itself, and checked it every step); a row of
//! columns is `&[f32; W]`, `W` a power of two above the number of columns,
//! indexed by `column & (W − 1)`. Both constants are picked at run time
//! among a few monomorphised versions.
//!
//! # Order of work
//!
//! Rows go in blocks small enough that their columns stay in the L1
//! cache; within a block, tree by tree (a tree's `2^D` splits stay in
//! cache while every row of the block walks it), [`LANES`] rows at once so
//! that their independent walks overlap. Every row still adds its leaves
//! in tree order from the base score, so the result is bit-identical to
//! [`Forest::predict_proba`](super::Forest::predict_proba).

use super::Tree;

/// The deepest trees [`Forest::predict_proba_batch`](super::Forest::predict_proba_batch)
/// walks as complete trees in heap layout (`2^8 = 256` split slots and
/// leaves per tree at most); a forest with a deeper tree takes the general
/// path. Train with `TrainConfig::max_depth` at most this to get the fast
/// path.
pub const COMPLETE_MAX_DEPTH: u32 = 8;

/// Rows walked at once: eight independent walks keep the core busy while
/// each waits on its loads (a quarter less time than four on the
/// `predict_batch` benchmark and in `gleaner extract`; sixteen were
/// slower).
const LANES: usize = 8;

/// The bytes of a block of rows' columns (`rows × W × 4`) at most: with a
/// tree's splits and leaves, well inside a 32 KB L1 data cache.
const BLOCK_BYTES: usize = 24 * 1024;

/// The widths `W` of a row of columns; a forest needing more columns than
/// the last keeps the general path.
const WIDTHS: [usize; 4] = [256, 512, 1024, 4096];

/// A split of a complete tree (8 bytes): `!(column <= threshold)` goes
/// right.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Split {
    /// The column: `feature`, or `F + feature` when NaN goes right (see
    /// the module docs).
    column: u32,
    threshold: f32,
}

/// A split that sends every value left: the padding under a shallow leaf.
const ALWAYS_LEFT: Split = Split { column: 0, threshold: f32::INFINITY };

/// A forest's trees as complete trees of one depth (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Complete {
    /// The depth `D` of every tree.
    depth: u32,
    /// The number of features `F` of a row.
    features: usize,
    /// `2^D` per tree, tree after tree: slot 0 unused, split `i` at slot `i`.
    splits: Vec<Split>,
    /// `2^D` per tree, tree after tree: the leaves left to right.
    leaves: Vec<f32>,
}

/// The depth of a tree: 0 for a single leaf.
fn depth(tree: &Tree) -> u32 {
    // Children come after their parents: one pass down.
    let mut depth = vec![0u32; tree.nodes.len()];
    let mut deepest = 0;
    for (i, node) in tree.nodes.iter().enumerate() {
        let below = depth[i] + 1;
        for child in [node.left, node.right] {
            if child >= 0 {
                depth[child as usize] = below;
            }
        }
        deepest = deepest.max(below);
    }
    deepest
}

impl Complete {
    /// The complete layout of these trees over rows of `features` values,
    /// or `None` when a tree is deeper than [`COMPLETE_MAX_DEPTH`] or the
    /// rows would need too many columns.
    pub(crate) fn new(trees: &[Tree], features: usize) -> Option<Complete> {
        let depth = trees.iter().map(depth).max().unwrap_or(0);
        if depth > COMPLETE_MAX_DEPTH {
            return None;
        }
        if 2 * features > WIDTHS[WIDTHS.len() - 1] {
            return None;
        }
        let width = 1usize << depth;
        let mut splits = vec![ALWAYS_LEFT; trees.len() * width];
        let mut leaves = vec![0f32; trees.len() * width];
        // (child code as in `Node::left`, heap slot, depth of the slot)
        let mut stack: Vec<(i32, usize, u32)> = Vec::new();
        for (t, tree) in trees.iter().enumerate() {
            let (splits, leaves) =
                (&mut splits[t * width..][..width], &mut leaves[t * width..][..width]);
            stack.push((if tree.nodes.is_empty() { -1 } else { 0 }, 1, 0));
            while let Some((code, slot, d)) = stack.pop() {
                if code < 0 {
                    // A leaf at depth d covers 2^(D−d) leaves of the
                    // complete tree; the splits above them stay
                    // `ALWAYS_LEFT`.
                    let shift = depth - d;
                    let first = (slot << shift) - width;
                    leaves[first..first + (1 << shift)].fill(tree.leaf_value[!code as usize]);
                    continue;
                }
                let node = tree.nodes[code as usize];
                let feature = node.feature_index();
                let column = if node.default_left() { feature } else { features + feature };
                splits[slot] = Split { column: column as u32, threshold: node.threshold };
                stack.push((node.right, 2 * slot + 1, d + 1));
                stack.push((node.left, 2 * slot, d + 1));
            }
        }
        Some(Complete { depth, features, splits, leaves })
    }

    /// Adds to `out[r]` the leaf each tree gives row `r` of `rows`
    /// (row-major, [`Complete::features`] values a row), in tree order.
    pub(crate) fn add_leaves(&self, rows: &[f32], out: &mut [f32]) {
        match WIDTHS.iter().position(|&w| 2 * self.features <= w) {
            Some(0) => self.by_depth::<{ WIDTHS[0] }>(rows, out),
            Some(1) => self.by_depth::<{ WIDTHS[1] }>(rows, out),
            Some(2) => self.by_depth::<{ WIDTHS[2] }>(rows, out),
            _ => self.by_depth::<{ WIDTHS[3] }>(rows, out),
        }
    }

    /// [`Complete::add_leaves`] with rows of `W` columns.
    fn by_depth<const W: usize>(&self, rows: &[f32], out: &mut [f32]) {
        match self.depth {
            0 => self.walk::<1, W>(rows, out),
            1 => self.walk::<2, W>(rows, out),
            2 => self.walk::<4, W>(rows, out),
            3 => self.walk::<8, W>(rows, out),
            4 => self.walk::<16, W>(rows, out),
            5 => self.walk::<32, W>(rows, out),
            6 => self.walk::<64, W>(rows, out),
            7 => self.walk::<128, W>(rows, out),
            _ => self.walk::<256, W>(rows, out),
        }
    }

    /// [`Complete::add_leaves`] with trees of `N = 2^D` slots and rows of
    /// `W` columns.
    fn walk<const N: usize, const W: usize>(&self, rows: &[f32], out: &mut [f32]) {
        let f = self.features;
        let block = (BLOCK_BYTES / (W * 4) / LANES).max(1) * LANES;
        let mut columns = vec![[0f32; W]; block];
        let mut sums = vec![0f32; block];
        for (rows, out) in rows.chunks(block * f).zip(out.chunks_mut(block)) {
            for (to, row) in columns.iter_mut().zip(rows.chunks_exact(f)) {
                self.fill(row, to);
            }
            // Rows past the block's end are walked too and ignored: the
            // last lanes need no loop of their own.
            let walked = out.len().next_multiple_of(LANES);
            let (columns, sums) = (&columns[..walked], &mut sums[..walked]);
            sums[..out.len()].copy_from_slice(out);
            self.add_block::<N, W>(columns, sums);
            out.copy_from_slice(&sums[..out.len()]);
        }
    }

    /// Adds to `sums[r]` the leaf of every tree for row `r` of `columns`
    /// (a multiple of [`LANES`] rows), tree by tree.
    ///
    /// Plain index loops over arrays of constant length: the compiler
    /// unrolls the `D × LANES` steps and proves every index in bounds.
    /// (Iterator adapters here were left as calls in builds of many
    /// codegen units.) Out of line, so the unrolling is done in a
    /// function of its own.
    #[inline(never)]
    fn add_block<const N: usize, const W: usize>(&self, columns: &[[f32; W]], sums: &mut [f32]) {
        // Every `expect` below converts a slice cut to exactly N (or
        // LANES) elements by `[..N]` into an array of that length: the
        // conversion cannot fail (the cut itself is in bounds because the
        // loops stop at `len / N` and `len / LANES`). No input reaches it.
        for t in 0..self.splits.len() / N {
            let splits: &[Split; N] = self.splits[t * N..][..N].try_into().expect("N splits");
            let leaves: &[f32; N] = self.leaves[t * N..][..N].try_into().expect("N leaves");
            for q in 0..columns.len() / LANES {
                let rows: &[[f32; W]; LANES] =
                    columns[q * LANES..][..LANES].try_into().expect("LANES rows");
                let mut at = [1usize; LANES];
                for _ in 0..N.trailing_zeros() {
                    for k in 0..LANES {
                        let split = splits[at[k] & (N - 1)];
                        let x = rows[k][split.column as usize & (W - 1)];
                        // `!(x <= t)`, not `x > t`: a NaN goes right
                        // (see "Missing values without a branch").
                        #[allow(clippy::neg_cmp_op_on_partial_ord)]
                        let right = !(x <= split.threshold);
                        at[k] = (at[k] << 1) | usize::from(right);
                    }
                }
                let sums: &mut [f32; LANES] =
                    (&mut sums[q * LANES..][..LANES]).try_into().expect("LANES sums");
                for k in 0..LANES {
                    sums[k] += leaves[at[k] & (N - 1)];
                }
            }
        }
    }

    /// A row's columns (see the module docs): NaN as `−∞`, then as is.
    fn fill(&self, row: &[f32], to: &mut [f32]) {
        let (low, rest) = to.split_at_mut(self.features);
        for (low, &x) in low.iter_mut().zip(row) {
            *low = if x.is_nan() { f32::NEG_INFINITY } else { x };
        }
        rest[..self.features].copy_from_slice(row);
    }
}
