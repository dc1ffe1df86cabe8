//! Small, deterministic clusterings for the curve algorithms: k-means
//! (optionally with one centroid pinned at the origin, as CETR needs), a
//! one-dimensional Gaussian mixture fitted by EM, and farthest-first
//! traversal. The TTR paper used Weka's SimpleKMeans, EM and FarthestFirst
//! (S-3 §V); these follow the same models.
//!
//! Determinism \[I\]: no random numbers. k-means is seeded by k-means++
//! with every uniform draw fixed at 0.5 (the first centroid is the
//! coordinate-wise median, each next one the point where the cumulative
//! squared distance to the chosen centroids, in input order, reaches half
//! its total). Farthest-first starts at the lowest point. EM starts from
//! the k-means solution.

use crate::document::Deadline;

/// The result of a clustering: a cluster label per point.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clustering {
    /// Cluster of each point, `0..k`.
    pub labels: Vec<usize>,
    /// Number of clusters (some may be empty).
    pub k: usize,
}

impl Clustering {
    /// The mean of each cluster's members (`None` for an empty cluster).
    pub fn member_means(&self, values: &[f64]) -> Vec<Option<f64>> {
        let mut sums = vec![(0.0, 0usize); self.k];
        for (&label, &v) in self.labels.iter().zip(values) {
            if let Some(s) = sums.get_mut(label) {
                s.0 += v;
                s.1 += 1;
            }
        }
        sums.into_iter().map(|(s, c)| (c > 0).then(|| s / c as f64)).collect()
    }
}

fn dist2<const D: usize>(a: &[f64; D], b: &[f64; D]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

fn nearest<const D: usize>(p: &[f64; D], centroids: &[[f64; D]]) -> (usize, f64) {
    let mut best = (0, f64::INFINITY);
    for (j, c) in centroids.iter().enumerate() {
        let d = dist2(p, c);
        if d < best.1 {
            best = (j, d);
        }
    }
    best
}

/// The coordinate-wise median.
fn median<const D: usize>(points: &[[f64; D]]) -> [f64; D] {
    let mut out = [0.0; D];
    let mut column: Vec<f64> = Vec::with_capacity(points.len());
    for (d, slot) in out.iter_mut().enumerate() {
        column.clear();
        column.extend(points.iter().map(|p| p[d]));
        column.sort_by(f64::total_cmp);
        *slot = column.get(column.len() / 2).copied().unwrap_or(0.0);
    }
    out
}

/// k-means++ seeding with the draws fixed at 0.5. Stops early when every
/// point coincides with a chosen centroid.
fn seed<const D: usize>(points: &[[f64; D]], k: usize, pin_origin: bool) -> Vec<[f64; D]> {
    let mut centroids = vec![if pin_origin { [0.0; D] } else { median(points) }];
    let mut d2: Vec<f64> = points.iter().map(|p| dist2(p, &centroids[0])).collect();
    while centroids.len() < k {
        let total: f64 = d2.iter().sum();
        if total.is_nan() || total <= 0.0 {
            break;
        }
        let target = 0.5 * total;
        let mut acc = 0.0;
        let mut pick = None;
        for (i, &d) in d2.iter().enumerate() {
            acc += d;
            if d > 0.0 && acc >= target {
                pick = Some(i);
                break;
            }
        }
        let Some(c) = pick.and_then(|i| points.get(i)).copied() else { break };
        centroids.push(c);
        for (slot, p) in d2.iter_mut().zip(points) {
            *slot = slot.min(dist2(p, &c));
        }
    }
    centroids
}

/// Lloyd's k-means with `k` clusters. With `pin_origin`, centroid 0 stays
/// at the origin on every update (Weninger et al.'s CETR model; dragnet's
/// `KMeansFixedOrigin` \[R\]). Returns the labels and the centroids.
pub(crate) fn kmeans<const D: usize>(
    points: &[[f64; D]],
    k: usize,
    pin_origin: bool,
    max_iterations: usize,
    deadline: &Deadline,
) -> (Clustering, Vec<[f64; D]>) {
    let k = k.max(1);
    if points.is_empty() {
        return (Clustering { labels: Vec::new(), k }, vec![[0.0; D]; k]);
    }
    let mut centroids = seed(points, k, pin_origin);
    let mut labels: Vec<usize> = points.iter().map(|p| nearest(p, &centroids).0).collect();
    for _ in 0..max_iterations {
        if deadline.expired() {
            break;
        }
        let mut sums = vec![([0.0; D], 0usize); centroids.len()];
        for (p, &l) in points.iter().zip(&labels) {
            if let Some((s, c)) = sums.get_mut(l) {
                for (acc, x) in s.iter_mut().zip(p) {
                    *acc += x;
                }
                *c += 1;
            }
        }
        for (j, (c, (s, count))) in centroids.iter_mut().zip(sums).enumerate() {
            if (pin_origin && j == 0) || count == 0 {
                continue;
            }
            for (slot, acc) in c.iter_mut().zip(s) {
                *slot = acc / count as f64;
            }
        }
        let mut changed = false;
        for (p, l) in points.iter().zip(labels.iter_mut()) {
            let (j, _) = nearest(p, &centroids);
            if j != *l {
                *l = j;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    centroids.resize(k, [f64::NAN; D]);
    (Clustering { labels, k }, centroids)
}

/// One-dimensional k-means (no pinned centroid).
pub(crate) fn kmeans_1d(
    values: &[f64],
    k: usize,
    max_iterations: usize,
    deadline: &Deadline,
) -> Clustering {
    let points: Vec<[f64; 1]> = values.iter().map(|&v| [v]).collect();
    kmeans(&points, k, false, max_iterations, deadline).0
}

/// Farthest-first traversal (Hochbaum & Shmoys; Weka's FarthestFirst):
/// the first centre is the lowest value, each next centre the value
/// farthest from the chosen ones; every value joins its nearest centre.
pub(crate) fn farthest_first_1d(values: &[f64], k: usize) -> Clustering {
    let k = k.max(1);
    let Some(first) = values.iter().copied().min_by(f64::total_cmp) else {
        return Clustering { labels: Vec::new(), k };
    };
    let mut centres = vec![first];
    let mut d: Vec<f64> = values.iter().map(|v| (v - first).abs()).collect();
    while centres.len() < k {
        let (i, far) =
            d.iter()
                .copied()
                .enumerate()
                .fold((0, 0.0), |best, (i, x)| if x > best.1 { (i, x) } else { best });
        if far.is_nan() || far <= 0.0 {
            break;
        }
        let c = values.get(i).copied().unwrap_or(first);
        centres.push(c);
        for (slot, v) in d.iter_mut().zip(values) {
            *slot = slot.min((v - c).abs());
        }
    }
    let labels = values
        .iter()
        .map(|v| {
            let mut best = (0, f64::INFINITY);
            for (j, c) in centres.iter().enumerate() {
                let dist = (v - c).abs();
                if dist < best.1 {
                    best = (j, dist);
                }
            }
            best.0
        })
        .collect();
    Clustering { labels, k }
}

/// A one-dimensional Gaussian mixture with `k` components fitted by EM
/// (Dempster, Laird & Rubin 1977), started from the k-means solution;
/// each value goes to its most probable component.
///
/// Standard deviations are floored at `1e-3 × std(values)` (and 1e-9) so
/// that a component on many equal values (the TTR of markup lines is
/// often exactly 0) cannot collapse to a spike \[I; Weka floors at 1e-6\].
pub(crate) fn em_1d(
    values: &[f64],
    k: usize,
    max_iterations: usize,
    deadline: &Deadline,
) -> Clustering {
    let k = k.max(1);
    let n = values.len();
    let start = kmeans_1d(values, k, max_iterations, deadline);
    if n == 0 || k == 1 {
        // One component: every value belongs to it.
        return start;
    }
    let min_var = {
        let s = (1e-3 * super::signal::std_dev(values)).max(1e-9);
        s * s
    };
    // Initial parameters from the k-means clusters.
    let mut weight = vec![0.0; k];
    let mut mu = vec![0.0; k];
    let mut var = vec![0.0; k];
    for (&l, &v) in start.labels.iter().zip(values) {
        weight[l] += 1.0;
        mu[l] += v;
    }
    for j in 0..k {
        if weight[j] > 0.0 {
            mu[j] /= weight[j];
        }
    }
    for (&l, &v) in start.labels.iter().zip(values) {
        var[l] += (v - mu[l]) * (v - mu[l]);
    }
    for j in 0..k {
        var[j] = if weight[j] > 0.0 { (var[j] / weight[j]).max(min_var) } else { min_var };
        weight[j] /= n as f64;
    }
    // EM only needs each distinct value once, with its multiplicity: the
    // TTR arrays repeat values (0 above all) many times.
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut distinct: Vec<(f64, f64)> = Vec::new();
    for v in sorted {
        match distinct.last_mut() {
            Some((last, count)) if *last == v => *count += 1.0,
            _ => distinct.push((v, 1.0)),
        }
    }
    let mut model = Mixture::new(&weight, &mu, &var);
    let mut logp = vec![0.0; k];
    let mut previous = f64::NEG_INFINITY;
    for _ in 0..max_iterations {
        if deadline.expired() {
            break;
        }
        let mut nk = vec![0.0; k];
        let mut sx = vec![0.0; k];
        let mut sxx = vec![0.0; k];
        let mut loglik = 0.0;
        for &(v, count) in &distinct {
            // E step: responsibilities, in log space for stability.
            model.log_densities(v, &mut logp);
            let m = logp.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if !m.is_finite() {
                continue;
            }
            let mut z = 0.0;
            for l in logp.iter_mut() {
                // exp(0) for the most likely component; components more
                // than e^40 less likely contribute nothing measurable.
                let d = *l - m;
                *l = if d == 0.0 {
                    1.0
                } else if d < -40.0 {
                    0.0
                } else {
                    d.exp()
                };
                z += *l;
            }
            loglik += count * (m + z.ln());
            let scale = count / z;
            for j in 0..k {
                let r = scale * logp[j];
                nk[j] += r;
                sx[j] += r * v;
                sxx[j] += r * v * v;
            }
        }
        // M step.
        for j in 0..k {
            if nk[j] > 1e-12 {
                weight[j] = nk[j] / n as f64;
                mu[j] = sx[j] / nk[j];
                var[j] = (sxx[j] / nk[j] - mu[j] * mu[j]).max(min_var);
            } else {
                weight[j] = 0.0;
            }
        }
        model = Mixture::new(&weight, &mu, &var);
        // Converged when the log-likelihood gains less than a millionth
        // [I; Weka stops at an absolute gain of 1e-6].
        if (loglik - previous).abs() <= 1e-6 * loglik.abs().max(1.0) {
            break;
        }
        previous = loglik;
    }
    let labels = values
        .iter()
        .map(|&v| {
            model.log_densities(v, &mut logp);
            logp.iter()
                .enumerate()
                .fold((0, f64::NEG_INFINITY), |b, (j, &l)| if l > b.1 { (j, l) } else { b })
                .0
        })
        .collect();
    Clustering { labels, k }
}

/// A 1-D Gaussian mixture with the per-component constants precomputed:
/// `log(w_j · N(v | μ_j, σ_j²)) = c_j − (v − μ_j)² / 2σ_j²`.
struct Mixture {
    /// `ln w_j − ½ ln(2π σ_j²)`, −∞ for an empty component.
    log_norm: Vec<f64>,
    mu: Vec<f64>,
    /// `1 / 2σ_j²`.
    inv_two_var: Vec<f64>,
}

impl Mixture {
    fn new(weight: &[f64], mu: &[f64], var: &[f64]) -> Mixture {
        let log_norm = weight
            .iter()
            .zip(var)
            .map(|(&w, &v)| {
                if w > 0.0 {
                    w.ln() - 0.5 * (2.0 * std::f64::consts::PI * v).ln()
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        let inv_two_var = var.iter().map(|&v| 1.0 / (2.0 * v)).collect();
        Mixture { log_norm, mu: mu.to_vec(), inv_two_var }
    }

    fn log_densities(&self, v: f64, out: &mut [f64]) {
        for (j, slot) in out.iter_mut().enumerate() {
            let d = v - self.mu[j];
            *slot = self.log_norm[j] - d * d * self.inv_two_var[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three well separated groups, interleaved in input order.
    fn three_groups() -> Vec<f64> {
        (0..90)
            .map(|i| match i % 3 {
                0 => 1.0 + (i % 5) as f64 * 0.1,
                1 => 50.0 + (i % 7) as f64 * 0.2,
                _ => 200.0 + (i % 4) as f64 * 0.3,
            })
            .collect()
    }

    /// The partition as sets of input positions, independent of label
    /// numbering.
    fn same_partition(c: &Clustering, values: &[f64]) -> bool {
        let group = |v: f64| {
            if v < 10.0 {
                0
            } else if v < 100.0 {
                1
            } else {
                2
            }
        };
        let mut map = [None; 3];
        for (&l, &v) in c.labels.iter().zip(values) {
            match map[group(v)] {
                None => map[group(v)] = Some(l),
                Some(m) if m != l => return false,
                _ => {}
            }
        }
        map[0] != map[1] && map[1] != map[2] && map[0] != map[2]
    }

    #[test]
    fn kmeans_separates_three_groups() {
        let v = three_groups();
        let c = kmeans_1d(&v, 3, 100, &Deadline::never());
        assert!(same_partition(&c, &v), "{:?}", c.labels);
        let means = c.member_means(&v);
        let mut m: Vec<f64> = means.into_iter().flatten().collect();
        m.sort_by(f64::total_cmp);
        assert!((m[0] - 1.2).abs() < 0.3 && (m[1] - 50.6).abs() < 1.0 && m[2] > 200.0);
    }

    #[test]
    fn em_separates_three_groups() {
        let v = three_groups();
        assert!(same_partition(&em_1d(&v, 3, 100, &Deadline::never()), &v));
    }

    #[test]
    fn farthest_first_separates_three_groups() {
        let v = three_groups();
        assert!(same_partition(&farthest_first_1d(&v, 3), &v));
    }

    #[test]
    fn k_of_one_is_one_cluster_and_degenerate_inputs_do_not_fail() {
        let v = three_groups();
        for c in [
            kmeans_1d(&v, 1, 100, &Deadline::never()),
            em_1d(&v, 1, 100, &Deadline::never()),
            farthest_first_1d(&v, 1),
        ] {
            assert!(c.labels.iter().all(|&l| l == 0));
        }
        for c in [
            kmeans_1d(&[], 3, 100, &Deadline::never()),
            em_1d(&[], 3, 100, &Deadline::never()),
            farthest_first_1d(&[], 3),
        ] {
            assert!(c.labels.is_empty());
        }
        let flat = [4.0; 20];
        for c in [
            kmeans_1d(&flat, 3, 100, &Deadline::never()),
            em_1d(&flat, 3, 100, &Deadline::never()),
            farthest_first_1d(&flat, 3),
        ] {
            assert_eq!(c.labels.len(), 20);
            assert!(c.labels.iter().all(|&l| l == c.labels[0]));
        }
    }

    #[test]
    fn fixed_origin_kmeans_keeps_centroid_zero_at_the_origin() {
        // Markup near the origin, two content groups away from it.
        let mut points = Vec::new();
        for i in 0..40 {
            points.push([0.1 * (i % 3) as f64, 0.05 * (i % 2) as f64]);
        }
        for i in 0..15 {
            points.push([30.0 + (i % 3) as f64, 2.0]);
            points.push([10.0, 25.0 + (i % 4) as f64]);
        }
        let (c, centroids) = kmeans(&points, 3, true, 100, &Deadline::never());
        assert_eq!(centroids[0], [0.0, 0.0]);
        assert!(c.labels[..40].iter().all(|&l| l == 0), "markup in the origin cluster");
        let a = c.labels[40];
        let b = c.labels[41];
        assert!(a != 0 && b != 0 && a != b);
        assert!(c.labels[40..].chunks(2).all(|p| p[0] == a && p[1] == b));
        // All-zero input: everything stays in the origin cluster.
        let (c, _) = kmeans(&[[0.0, 0.0]; 5], 3, true, 100, &Deadline::never());
        assert!(c.labels.iter().all(|&l| l == 0));
    }
}
