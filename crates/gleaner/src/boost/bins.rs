//! Quantile bins: each feature's values cut into at most 255 intervals,
//! so training reads one byte per value and a node's splits come from a
//! histogram.

/// The cuts of every feature. Bin 0 holds missing values (NaN); value
/// bins are `1..=cuts.len() + 1`, a value `x` in bin `1 + #{c : c < x}`,
/// so `bin(x) <= b` exactly when `x <= cuts[b - 1]`: a split on bins is
/// the same split on values with that threshold.
#[derive(Clone, Debug)]
pub(crate) struct BinMapper {
    cuts: Vec<Vec<f32>>,
}

impl BinMapper {
    /// Cuts from the rows `sample` of the row-major `features`: for each
    /// feature, its distinct values one bin each when there are at most
    /// `max_bins`, else weighted quantiles (equal weight per bin, a value
    /// heavier than a bin's share alone in its bin). Cuts are midpoints
    /// between consecutive distinct values.
    pub(crate) fn fit(
        features: &[f32],
        n_features: usize,
        weights: Option<&[f32]>,
        sample: &[usize],
        max_bins: usize,
    ) -> Self {
        // Features are gathered a block at a time: one pass over the
        // sampled rows reads a block's values from one cache line per row.
        const BLOCK: usize = 16;
        let mut cuts = Vec::with_capacity(n_features);
        let mut values: Vec<Vec<(f32, f64)>> =
            (0..BLOCK).map(|_| Vec::with_capacity(sample.len())).collect();
        for first in (0..n_features).step_by(BLOCK) {
            let block = first..(first + BLOCK).min(n_features);
            values.iter_mut().for_each(Vec::clear);
            for &r in sample {
                let w = weights.map_or(1.0, |w| f64::from(w[r]));
                let row = &features[r * n_features..(r + 1) * n_features];
                for (v, &x) in values.iter_mut().zip(&row[block.clone()]) {
                    if !x.is_nan() {
                        v.push((x, w));
                    }
                }
            }
            cuts.extend(values.iter_mut().take(block.len()).map(|v| cuts_of(v, max_bins)));
        }
        BinMapper { cuts }
    }

    /// The number of value bins of feature `f` (bin 0, missing, apart).
    pub(crate) fn n_value_bins(&self, f: usize) -> usize {
        self.cuts[f].len() + 1
    }

    /// The bin of value `x` of feature `f`.
    #[inline]
    pub(crate) fn bin(&self, f: usize, x: f32) -> u8 {
        if x.is_nan() {
            0
        } else {
            (1 + self.cuts[f].partition_point(|&c| c < x)) as u8
        }
    }

    /// The value threshold of a split sending bins `1..=b` left.
    pub(crate) fn threshold(&self, f: usize, b: u8) -> f32 {
        self.cuts[f].get(usize::from(b) - 1).copied().unwrap_or(f32::INFINITY)
    }

    /// The bins of a row-major matrix, row-major.
    pub(crate) fn bin_rows(&self, features: &[f32], n_features: usize) -> Vec<u8> {
        let mut out = vec![0u8; features.len()];
        for (bins, row) in out.chunks_exact_mut(n_features).zip(features.chunks_exact(n_features)) {
            for (f, (bin, &x)) in bins.iter_mut().zip(row).enumerate() {
                *bin = self.bin(f, x);
            }
        }
        out
    }
}

/// A row-major matrix of `n_features` columns, column-major: feature `f` of
/// row `r` at `f * n_rows + r`.
pub(crate) fn transpose(by_row: &[u8], n_features: usize) -> Vec<u8> {
    let n_rows = by_row.len() / n_features;
    let mut out = vec![0u8; by_row.len()];
    // Blocks of rows keep the strided reads within the cache.
    const BLOCK: usize = 512;
    for start in (0..n_rows).step_by(BLOCK) {
        let end = (start + BLOCK).min(n_rows);
        for f in 0..n_features {
            let column = &mut out[f * n_rows + start..f * n_rows + end];
            for (r, bin) in (start..end).zip(column) {
                *bin = by_row[r * n_features + f];
            }
        }
    }
    out
}

/// The cuts of one feature's `(value, weight)` pairs (NaN excluded).
fn cuts_of(values: &mut [(f32, f64)], max_bins: usize) -> Vec<f32> {
    values.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut distinct: Vec<(f32, f64)> = Vec::new();
    for &(v, w) in values.iter() {
        match distinct.last_mut() {
            Some(last) if last.0 == v => last.1 += w,
            _ => distinct.push((v, w)),
        }
    }
    if distinct.len() <= max_bins {
        return distinct.windows(2).map(|p| midpoint(p[0].0, p[1].0)).collect();
    }
    let mut total: f64 = distinct.iter().map(|d| d.1).sum();
    if total <= 0.0 {
        // Only zero weights among the sample: count values instead.
        distinct.iter_mut().for_each(|d| d.1 = 1.0);
        total = distinct.len() as f64;
    }
    let mut cuts = Vec::with_capacity(max_bins - 1);
    let (mut rest, mut bins_left, mut acc) = (total, max_bins, 0.0);
    for i in 0..distinct.len() - 1 {
        acc += distinct[i].1;
        let share = rest / bins_left as f64;
        if acc >= share || distinct[i + 1].1 >= share {
            cuts.push(midpoint(distinct[i].0, distinct[i + 1].0));
            rest = (rest - acc).max(0.0);
            acc = 0.0;
            bins_left -= 1;
            if bins_left == 1 {
                break;
            }
        }
    }
    cuts
}

/// A cut between consecutive distinct values `a < b`: their midpoint,
/// or `a` when the midpoint rounds up to `b`.
fn midpoint(a: f32, b: f32) -> f32 {
    let m = ((f64::from(a) + f64::from(b)) / 2.0) as f32;
    if m >= b {
        a
    } else {
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_distinct_values_get_one_bin_each_and_splits_match_thresholds() {
        let x = [3.0f32, 1.0, 2.0, f32::NAN, 2.0, 1.0];
        let all: Vec<usize> = (0..x.len()).collect();
        let m = BinMapper::fit(&x, 1, None, &all, 255);
        assert_eq!(m.cuts[0], vec![1.5, 2.5]);
        let bins: Vec<u8> = x.iter().map(|&v| m.bin(0, v)).collect();
        assert_eq!(bins, [3, 1, 2, 0, 2, 1]);
        for b in 1..=3u8 {
            let t = m.threshold(0, b);
            for &v in &x[..3] {
                assert_eq!(m.bin(0, v) <= b, v <= t);
            }
        }
        assert_eq!(m.bin(0, f32::INFINITY), 3);
        assert_eq!(m.bin(0, f32::NEG_INFINITY), 1);
    }

    #[test]
    fn many_values_get_at_most_max_bins_quantiles_and_heavy_values_stand_alone() {
        // 1000 rows: half of them 0.0, the rest spread.
        let x: Vec<f32> = (0..1000).map(|i| if i % 2 == 0 { 0.0 } else { i as f32 }).collect();
        let all: Vec<usize> = (0..x.len()).collect();
        let m = BinMapper::fit(&x, 1, None, &all, 16);
        assert!(m.n_value_bins(0) <= 16);
        assert!(m.n_value_bins(0) >= 8, "{:?}", m.cuts[0]);
        assert_eq!(m.bin(0, 0.0), 1);
        assert_eq!(m.bin(0, 1.0), 2, "0.0 alone in its bin: {:?}", m.cuts[0]);
        // Weights move the quantiles: weigh the top rows heavily.
        let w: Vec<f32> = (0..1000).map(|i| if i > 900 { 100.0 } else { 1.0 }).collect();
        let weighted = BinMapper::fit(&x, 1, Some(&w), &all, 16);
        let above = |m: &BinMapper| m.cuts[0].iter().filter(|&&c| c > 900.0).count();
        assert!(above(&weighted) > above(&m));
    }

    #[test]
    fn column_major_matrix() {
        let x = [1.0f32, 10.0, 2.0, 20.0, 3.0, f32::NAN];
        let all = [0, 1, 2];
        let m = BinMapper::fit(&x, 2, None, &all, 255);
        let by_row = m.bin_rows(&x, 2);
        assert_eq!(by_row, vec![1, 1, 2, 2, 3, 0]);
        assert_eq!(transpose(&by_row, 2), vec![1, 2, 3, 1, 2, 0]);
    }
}
