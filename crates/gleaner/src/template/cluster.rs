//! Single-linkage clustering with a threshold (Gottron 2008, S-0 §5,
//! `docs/algorithms.md#structural-distances-and-clustering`).
//!
//! Merging the two closest clusters while their distance is at most `t`
//! ends in the connected components of the graph whose edges are the
//! pairs at distance ≤ `t`. So no dendrogram is built: a union-find over
//! the pairs gives the same partition \[I, exact\].
//!
//! For large collections the all-pairs loop is replaced by candidate
//! pairs from MinHash banding ([`candidate_pairs`]): only pages that share
//! a band of their signature are compared exactly. This can miss an edge
//! between two pages that are within the threshold but share no band; a
//! cluster still forms as long as its pages are linked by some chain of
//! found edges, which within one template (many near-identical pages) is
//! almost always the case.

use std::collections::HashMap;

use crate::hash::{combine, mix};

/// Disjoint sets with path halving and union by size.
#[derive(Debug, Clone)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons.
    pub fn new(n: usize) -> UnionFind {
        UnionFind { parent: (0..n as u32).collect(), size: vec![1; n] }
    }

    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    /// Joins the sets of `a` and `b`; true if they were apart.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a as u32;
        self.size[a] += self.size[b];
        true
    }

    /// A label per element, numbered by first appearance (0, 1, …).
    pub fn labels(&mut self) -> Vec<usize> {
        let mut number: HashMap<usize, usize> = HashMap::new();
        (0..self.parent.len())
            .map(|x| {
                let root = self.find(x);
                let next = number.len();
                *number.entry(root).or_insert(next)
            })
            .collect()
    }
}

/// Single-linkage clusters of `n` items: a label per item (numbered by
/// first appearance), items `i` and `j` being linked when
/// `distance(i, j) ≤ threshold`. Compares every pair once, skipping pairs
/// already in one cluster.
pub fn single_linkage(
    n: usize,
    threshold: f64,
    mut distance: impl FnMut(usize, usize) -> f64,
) -> Vec<usize> {
    let mut sets = UnionFind::new(n);
    for i in 0..n {
        for j in i + 1..n {
            if sets.find(i) != sets.find(j) && distance(i, j) <= threshold {
                sets.union(i, j);
            }
        }
    }
    sets.labels()
}

/// Single-linkage clusters over the given candidate pairs only (see the
/// [module docs](self)).
pub fn single_linkage_over(
    n: usize,
    pairs: impl IntoIterator<Item = (usize, usize)>,
    threshold: f64,
    mut distance: impl FnMut(usize, usize) -> f64,
) -> Vec<usize> {
    let mut sets = UnionFind::new(n);
    for (i, j) in pairs {
        if i < n && j < n && sets.find(i) != sets.find(j) && distance(i, j) <= threshold {
            sets.union(i, j);
        }
    }
    sets.labels()
}

/// Groups of item indices, one per label, in label order.
pub fn groups(labels: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, &l) in labels.iter().enumerate() {
        if out.len() <= l {
            out.resize_with(l + 1, Vec::new);
        }
        out[l].push(i);
    }
    out
}

/// Hash functions in a MinHash signature.
pub const SIGNATURE_LEN: usize = 64;
/// Rows per band: two pages become candidates when all rows of one band
/// agree. With 32 bands of 2 rows, two sets of Jaccard similarity `J`
/// become candidates with probability `1 − (1 − J²)³²`: 0.63 at
/// `J = 0.18` (the lowest Jaccard a CP pair within 0.7 can have), 0.998 at
/// `J = 0.4`.
pub const BAND_ROWS: usize = 2;

/// The MinHash signature of a set of hashes: for each of
/// [`SIGNATURE_LEN`] hash functions, the smallest value over the set.
/// Equal positions estimate the sets' Jaccard similarity. Each element is
/// mixed once and the functions are `a·h + b` with fixed odd `a` (a
/// multiply-add each, not a full mix).
pub fn minhash(set: &[u64]) -> [u64; SIGNATURE_LEN] {
    let mut multipliers = [0u64; SIGNATURE_LEN];
    let mut offsets = [0u64; SIGNATURE_LEN];
    for s in 0..SIGNATURE_LEN {
        multipliers[s] = mix(s as u64 + 1) | 1;
        offsets[s] = mix((s as u64) << 32);
    }
    let mut sig = [u64::MAX; SIGNATURE_LEN];
    for &x in set {
        let h = mix(x);
        for s in 0..SIGNATURE_LEN {
            let v = h.wrapping_mul(multipliers[s]).wrapping_add(offsets[s]);
            if v < sig[s] {
                sig[s] = v;
            }
        }
    }
    sig
}

/// Pairs of items that share a band of their MinHash signatures (each
/// pair once, `i < j`). A band shared by more than `max_bucket` items
/// (thousands of pages of one template) links each item to the next one
/// in the bucket instead of to all of them: single linkage needs a chain,
/// not a clique, and this keeps the work linear.
pub fn candidate_pairs(
    signatures: &[[u64; SIGNATURE_LEN]],
    max_bucket: usize,
) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for_each_candidate(signatures, max_bucket, |i, j| pairs.push((i, j)));
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// [`candidate_pairs`] handed over one at a time, band by band, without
/// collecting them (a pair may come once per band it shares).
pub fn for_each_candidate(
    signatures: &[[u64; SIGNATURE_LEN]],
    max_bucket: usize,
    mut each: impl FnMut(usize, usize),
) {
    for band in 0..SIGNATURE_LEN / BAND_ROWS {
        let mut buckets: HashMap<u64, Vec<u32>> = HashMap::new();
        for (i, sig) in signatures.iter().enumerate() {
            let rows = &sig[band * BAND_ROWS..(band + 1) * BAND_ROWS];
            let key = rows.iter().fold(band as u64, |h, &r| combine(h, r));
            buckets.entry(key).or_default().push(i as u32);
        }
        for members in buckets.values() {
            if members.len() > max_bucket {
                for w in members.windows(2) {
                    each(w[0] as usize, w[1] as usize);
                }
            } else {
                for (a, &i) in members.iter().enumerate() {
                    for &j in &members[a + 1..] {
                        each(i as usize, j as usize);
                    }
                }
            }
        }
    }
}

/// Single-linkage clusters of sorted hash sets under
/// `1 − |A∩B| / max(|A|,|B|) ≤ threshold`, exactly, from an inverted
/// index: each set's overlaps with all later sets are counted in one pass
/// over the pages that share its hashes, so the cost is the sum over
/// hashes of the squared number of sets holding them, not the number of
/// pairs times the set size. Hashes held by almost every set (`html/body`)
/// still cost a pass each; site-specific hashes cost little. Sets that
/// share nothing are never compared. Returns a label per set, as
/// [`single_linkage`].
pub fn single_linkage_sets(sets: &[&[u64]], threshold: f64) -> Vec<usize> {
    let n = sets.len();
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, set) in sets.iter().enumerate() {
        for &h in set.iter() {
            postings.entry(h).or_default().push(i as u32);
        }
    }
    let mut unions = UnionFind::new(n);
    let mut counts = vec![0u32; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut empty: Option<usize> = None;
    for (i, set) in sets.iter().enumerate() {
        if set.is_empty() {
            // Two empty sets are at distance 0.
            match empty {
                Some(first) => {
                    unions.union(first, i);
                }
                None => empty = Some(i),
            }
            continue;
        }
        for h in set.iter() {
            let Some(list) = postings.get(h) else { continue };
            let later = list.partition_point(|&j| j as usize <= i);
            for &j in &list[later..] {
                if counts[j as usize] == 0 {
                    touched.push(j);
                }
                counts[j as usize] += 1;
            }
        }
        for &j in &touched {
            let j = j as usize;
            let larger = set.len().max(sets[j].len());
            let distance = 1.0 - f64::from(counts[j]) / larger as f64;
            if distance <= threshold {
                unions.union(i, j);
            }
            counts[j] = 0;
        }
        touched.clear();
    }
    if threshold >= 1.0 {
        // Everything is within a distance of 1, even sets sharing nothing.
        for i in 1..n {
            unions.union(0, i);
        }
    }
    unions.labels()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook algorithm: start with singletons, merge the two
    /// closest clusters (single linkage: closest members) while that
    /// distance is at most the threshold.
    fn naive(d: &[Vec<f64>], threshold: f64) -> Vec<usize> {
        let n = d.len();
        let mut clusters: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        loop {
            let mut best: Option<(f64, usize, usize)> = None;
            for a in 0..clusters.len() {
                for b in a + 1..clusters.len() {
                    let link = clusters[a]
                        .iter()
                        .flat_map(|&i| clusters[b].iter().map(move |&j| d[i][j]))
                        .fold(f64::INFINITY, f64::min);
                    if best.is_none_or(|(l, _, _)| link < l) {
                        best = Some((link, a, b));
                    }
                }
            }
            match best {
                Some((link, a, b)) if link <= threshold => {
                    let merged = clusters.remove(b);
                    clusters[a].extend(merged);
                }
                _ => break,
            }
        }
        let mut labels = vec![0; n];
        for (l, c) in clusters.iter().enumerate() {
            for &i in c {
                labels[i] = l;
            }
        }
        labels
    }

    /// Same partition, whatever the label numbers.
    fn same_partition(a: &[usize], b: &[usize]) -> bool {
        (0..a.len()).all(|i| (0..a.len()).all(|j| (a[i] == a[j]) == (b[i] == b[j])))
    }

    proptest! {
        #[test]
        fn union_find_equals_naive_single_linkage(
            n in 1usize..14,
            seed in proptest::collection::vec(0.0f64..1.0, 14 * 14),
            threshold in 0.0f64..1.0,
        ) {
            let mut d = vec![vec![0.0; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    d[i][j] = seed[i * 14 + j];
                    d[j][i] = d[i][j];
                }
            }
            let fast = single_linkage(n, threshold, |i, j| d[i][j]);
            let slow = naive(&d, threshold);
            prop_assert!(same_partition(&fast, &slow), "{fast:?} vs {slow:?}");
            let all_pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            let over = single_linkage_over(n, all_pairs, threshold, |i, j| d[i][j]);
            prop_assert!(same_partition(&over, &slow));
        }
    }

    proptest! {
        #[test]
        fn inverted_index_clusters_equal_all_pairs(
            raw in proptest::collection::vec(proptest::collection::vec(0u64..40, 0..25), 1..16),
            threshold in 0.0f64..1.0,
        ) {
            let sets: Vec<Vec<u64>> = raw
                .into_iter()
                .map(|mut v| { v.sort_unstable(); v.dedup(); v })
                .collect();
            let refs: Vec<&[u64]> = sets.iter().map(Vec::as_slice).collect();
            let fast = single_linkage_sets(&refs, threshold);
            let slow = single_linkage(sets.len(), threshold, |i, j| {
                crate::template::set_distance(&sets[i], &sets[j])
            });
            prop_assert!(same_partition(&fast, &slow), "{fast:?} vs {slow:?}");
        }
    }

    #[test]
    fn labels_number_clusters_by_first_appearance() {
        let points = [0.0f64, 10.0, 0.1, 10.2, 50.0];
        let labels = single_linkage(5, 0.5, |i, j| (points[i] - points[j]).abs());
        assert_eq!(labels, vec![0, 1, 0, 1, 2]);
        assert_eq!(groups(&labels), vec![vec![0, 2], vec![1, 3], vec![4]]);
    }

    #[test]
    fn minhash_bands_find_near_duplicates_and_skip_strangers() {
        let base: Vec<u64> = (0..200).collect();
        let near: Vec<u64> = (5..205).collect(); // Jaccard 0.95
        let far: Vec<u64> = (10_000..10_200).collect(); // Jaccard 0
        let sigs = [minhash(&base), minhash(&near), minhash(&far)];
        let pairs = candidate_pairs(&sigs, 100);
        assert!(pairs.contains(&(0, 1)), "{pairs:?}");
        assert!(!pairs.iter().any(|&(i, j)| i == 2 || j == 2), "{pairs:?}");
    }

    #[test]
    fn huge_buckets_become_chains() {
        let same = minhash(&[1, 2, 3]);
        let sigs = vec![same; 1000];
        let pairs = candidate_pairs(&sigs, 50);
        assert_eq!(pairs.len(), 999);
        let labels = single_linkage_over(1000, pairs, 0.0, |_, _| 0.0);
        assert!(labels.iter().all(|&l| l == 0));
    }
}
