//! Cluster-quality indices against known groups (Gottron, "Clustering
//! template based web documents", ECIR 2008, S-0 §5; `docs/algorithms.md#cluster-indices`).
//!
//! ```text
//! Rand: I = A / (A + D) over all unordered pairs of documents, where A
//!       counts the pairs on which clustering and truth agree (same/same
//!       or different/different) and D the rest.
//! Dunn: I = d_min / d_max, d_min the smallest distance between documents
//!       of different groups, d_max the largest within one group
//!       (the simple form of the paper, over all document pairs).
//! ```

use std::collections::HashMap;
use std::hash::Hash;

use crate::error::{Error, Result};

/// Rand index of a clustering `predicted` against the true groups
/// `truth`; `predicted[i]` and `truth[i]` label document `i`. Labels are
/// compared for equality only.
///
/// With fewer than two documents there is no pair and the index is 1.
///
/// Computed in O(n) from the contingency table instead of over the
/// n(n−1)/2 pairs: with `same_pred`, `same_truth` and `same_both` the
/// numbers of pairs sharing a predicted cluster, a true group or both,
/// `A = pairs − same_pred − same_truth + 2·same_both`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the two label lists differ in length.
///
/// ```
/// use gleaner_eval::rand_index;
/// // Pairs: (0,1) same/same ✓, (0,2) diff/same ✗, (1,2) diff/same ✗.
/// assert_eq!(rand_index(&[0, 0, 1], &[7, 7, 7])?, 1.0 / 3.0);
/// # Ok::<(), gleaner_eval::Error>(())
/// ```
pub fn rand_index(predicted: &[usize], truth: &[usize]) -> Result<f64> {
    if predicted.len() != truth.len() {
        return Err(Error::InvalidInput(format!(
            "rand_index needs one predicted label per document: {} predicted, {} true",
            predicted.len(),
            truth.len()
        )));
    }
    let n = predicted.len() as u128;
    let pairs = n * n.saturating_sub(1) / 2;
    if pairs == 0 {
        return Ok(1.0);
    }
    let same_pred = same_pairs(predicted.iter());
    let same_truth = same_pairs(truth.iter());
    let same_both = same_pairs(predicted.iter().zip(truth));
    let agreements = pairs + 2 * same_both - same_pred - same_truth;
    Ok(agreements as f64 / pairs as f64)
}

/// Σ over label classes of C(size, 2): the pairs that share a label.
fn same_pairs<T: Eq + Hash>(labels: impl Iterator<Item = T>) -> u128 {
    let mut sizes: HashMap<T, u128> = HashMap::new();
    labels.for_each(|label| *sizes.entry(label).or_default() += 1);
    sizes.values().map(|&k| k * k.saturating_sub(1) / 2).sum()
}

/// Dunn index `d_min / d_max` of documents `0..labels.len()` in the true
/// groups `labels`, where `distance(i, j)` (called once per pair `i < j`)
/// is their distance. Higher is better.
///
/// Returns
/// - `None` when the index is undefined: fewer than two groups (no
///   inter-group pair), a NaN distance, or `d_min = d_max = 0`;
/// - `Some(f64::INFINITY)` when every group is tight (`d_max = 0`, also
///   when every group is a single document) and the groups are apart
///   (`d_min > 0`): a perfect separation.
///
/// Deviation: the brief's signature also took the number of documents;
/// it is `labels.len()` here so the two cannot disagree.
///
/// ```
/// use gleaner_eval::dunn_index;
/// let points = [0.0f64, 1.0, 10.0, 12.0];
/// let d = |i: usize, j: usize| (points[i] - points[j]).abs();
/// // Groups {0, 1} and {10, 12}: d_min = 9, d_max = 2.
/// assert_eq!(dunn_index(&[0, 0, 1, 1], d), Some(4.5));
/// ```
pub fn dunn_index(labels: &[usize], mut distance: impl FnMut(usize, usize) -> f64) -> Option<f64> {
    let mut d_min = f64::INFINITY;
    let mut d_max = 0.0f64;
    let mut inter_pairs = false;
    for (i, a) in labels.iter().enumerate() {
        for (j, b) in labels.iter().enumerate().skip(i + 1) {
            let d = distance(i, j);
            if d.is_nan() {
                return None;
            }
            if a == b {
                d_max = d_max.max(d);
            } else {
                inter_pairs = true;
                d_min = d_min.min(d);
            }
        }
    }
    if !inter_pairs {
        return None;
    }
    if d_max > 0.0 {
        Some(d_min / d_max)
    } else if d_min > 0.0 {
        Some(f64::INFINITY)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bootstrap::SplitMix64;

    fn naive_rand(p: &[usize], t: &[usize]) -> f64 {
        let (mut agree, mut total) = (0, 0);
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                total += 1;
                if (p[i] == p[j]) == (t[i] == t[j]) {
                    agree += 1;
                }
            }
        }
        if total == 0 {
            1.0
        } else {
            f64::from(agree) / f64::from(total)
        }
    }

    #[test]
    fn rand_hand_computed() {
        // Perfect up to renaming of the clusters.
        assert_eq!(rand_index(&[5, 5, 2, 2], &[0, 0, 1, 1]).unwrap(), 1.0);
        // truth {0,1,2}{3}, predicted {0,1}{2,3}. Six pairs:
        // 01 ss ✓, 02 ds ✗, 03 dd ✓, 12 ds ✗, 13 dd ✓, 23 sd ✗ → 3/6.
        assert_eq!(rand_index(&[0, 0, 1, 1], &[0, 0, 0, 1]).unwrap(), 0.5);
        // All in one cluster vs all apart: every pair disagrees.
        assert_eq!(rand_index(&[0, 0, 0], &[0, 1, 2]).unwrap(), 0.0);
        assert_eq!(rand_index(&[], &[]).unwrap(), 1.0);
        assert_eq!(rand_index(&[3], &[4]).unwrap(), 1.0);
        assert!(rand_index(&[0, 1], &[0]).is_err());
    }

    #[test]
    fn rand_matches_pair_count() {
        let mut rng = SplitMix64::new(12);
        for _ in 0..200 {
            let n = rng.below(40);
            let k = 1 + rng.below(5);
            let p: Vec<usize> = (0..n).map(|_| rng.below(k)).collect();
            let t: Vec<usize> = (0..n).map(|_| rng.below(k)).collect();
            assert!((rand_index(&p, &t).unwrap() - naive_rand(&p, &t)).abs() < 1e-12);
        }
    }

    #[test]
    fn dunn_conventions() {
        let points = [0.0f64, 1.0, 10.0, 12.0, 30.0];
        let d = |i: usize, j: usize| (points[i] - points[j]).abs();
        // Groups {0,1,10} and {12,30}: d_max = max(10, 18) = 18,
        // d_min = min(12, 30, 11, 29, 2, 20) = 2 → 1/9.
        assert_eq!(dunn_index(&[0, 0, 0, 1, 1], d), Some(2.0 / 18.0));
        // One group: undefined.
        assert_eq!(dunn_index(&[0, 0, 0], d), None);
        // Singletons: nothing within a group, groups apart → ∞.
        assert_eq!(dunn_index(&[0, 1, 2], d), Some(f64::INFINITY));
        // Zero distances everywhere: 0/0.
        assert_eq!(dunn_index(&[0, 0, 1], |_, _| 0.0), None);
        // Tight groups but touching: 0 / d_max = 0.
        assert_eq!(
            dunn_index(&[0, 0, 1], |i, j| if (i, j) == (0, 1) { 1.0 } else { 0.0 }),
            Some(0.0)
        );
        assert_eq!(dunn_index(&[0, 1], |_, _| f64::NAN), None);
        assert_eq!(dunn_index(&[], d), None);
    }
}
