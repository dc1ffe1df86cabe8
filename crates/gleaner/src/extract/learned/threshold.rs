//! A page's own threshold: the score cut that maximises the page's
//! expected word F1 under the forest's scores, blended with its type's
//! fixed threshold.
//!
//! The block forest is trained with a cross-entropy loss on each block's
//! gold share, so a block's score estimates the share of its words the
//! gold holds. Read that way, keeping the blocks `S` of a page is
//! expected to give word F1 of about
//!
//! ```text
//!          2 · Σ_{i∈S} p_i·w_i
//! F1(S) ≈ ─────────────────────────
//!          Σ_{i∈S} w_i + Σ_i p_i·w_i
//! ```
//!
//! (`p_i` the score, `w_i` the words; the ratio of the expectations of
//! overlap and of the two lengths). The `S` maximising it is a prefix of
//! the blocks sorted by score — the plug-in rule for F-measures (Jansche
//! 2007; Ye, Chai, Lee & Chieu 2012, "Optimizing F-measures: a tale of two
//! approaches"; Lipton, Elkan & Naryanaswamy 2014: the optimal cut of
//! calibrated scores is about half the F1 it reaches). Where a fixed
//! threshold keeps next to nothing of a page whose scores are all low —
//! a page unlike those trained on — the prefix still takes its best
//! blocks; where the scores are high, it asks more of them.
//!
//! The scores are calibrated on the pages trained on, less so on others,
//! so the page's cut is blended half and half with the type's threshold
//! ([`page_threshold`]). `gleaner train --cv` gives a type this rule only
//! where it beat every fixed threshold out of fold (listings, collections
//! and products, on the development data).

use super::TypePolicy;

/// The score of the last block of the prefix (blocks by falling score)
/// that maximises the expected word F1; `None` for a page without words.
///
/// `scores` and `words` are the blocks' scores and word counts, in any
/// order; scores outside `[0, 1]` are clamped, and a NaN counts as 0. Ties in the maximum go to
/// the shorter prefix.
///
/// ```
/// use gleaner::extract::learned::threshold::expected_f1_cut;
/// // Two sure blocks of 100 words and a doubtful one of 50.
/// assert_eq!(expected_f1_cut(&[0.9, 0.2, 0.95], &[100, 50, 100]), Some(0.9));
/// // All low: the best of them are still taken.
/// assert_eq!(expected_f1_cut(&[0.1, 0.2, 0.05], &[100, 100, 100]), Some(0.2));
/// assert_eq!(expected_f1_cut(&[0.5], &[0]), None);
/// ```
pub fn expected_f1_cut(scores: &[f32], words: &[u32]) -> Option<f32> {
    let n = scores.len().min(words.len());
    let score = |i: usize| if scores[i].is_nan() { 0.0 } else { scores[i].clamp(0.0, 1.0) };
    let p = |i: usize| f64::from(score(i));
    let expected_gold: f64 = (0..n).map(|i| p(i) * f64::from(words[i])).sum();
    if expected_gold <= 0.0 {
        return None;
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| words[i] > 0).collect();
    // Falling score; equal scores in block order, so the cut is stable.
    order.sort_by(|&a, &b| p(b).total_cmp(&p(a)).then(a.cmp(&b)));
    let (mut overlap, mut kept) = (0.0, 0.0);
    let mut best: Option<(f64, f32)> = None;
    for &i in &order {
        overlap += p(i) * f64::from(words[i]);
        kept += f64::from(words[i]);
        let f1 = 2.0 * overlap / (kept + expected_gold);
        if best.is_none_or(|(b, _)| f1 > b) {
            best = Some((f1, score(i)));
        }
    }
    best.map(|(_, cut)| cut)
}

/// The threshold of a page whose type's policy is adaptive: halfway
/// between the type's `threshold` and the page's [`expected_f1_cut`]
/// (the type's threshold alone for a page without words).
///
/// ```
/// use gleaner::extract::learned::threshold::page_threshold;
/// assert_eq!(page_threshold(0.5, &[0.1, 0.3, 0.05], &[100, 100, 100]), 0.4);
/// ```
pub fn page_threshold(threshold: f32, scores: &[f32], words: &[u32]) -> f32 {
    toward_cut(threshold, expected_f1_cut(scores, words))
}

/// A type's `threshold` drawn halfway to the page's `cut`, if it has one.
fn toward_cut(threshold: f32, cut: Option<f32>) -> f32 {
    match cut {
        Some(cut) => 0.5 * (threshold + cut),
        None => threshold,
    }
}

/// Least probability a page's adaptive types must have together for the
/// page's own cut to be read ([`blended_threshold`]); below it they count
/// at their fixed thresholds and the blocks' words are not gathered.
pub const MIN_ADAPTIVE_WEIGHT: f32 = 0.01;

/// Does a page with these type `probabilities` read its own cut: do the
/// types whose policy is adaptive weigh at least [`MIN_ADAPTIVE_WEIGHT`]?
pub fn reads_own_cut(policies: &[TypePolicy; 7], probabilities: &[f32; 7]) -> bool {
    let weight: f32 = (0..7)
        .filter(|&t| policies[t].blocks && policies[t].adaptive)
        .map(|t| weight_of(probabilities[t]))
        .sum();
    weight >= MIN_ADAPTIVE_WEIGHT
}

/// A type probability as a weight: 0 for one that is not a finite
/// positive number.
fn weight_of(p: f32) -> f32 {
    if p.is_finite() && p > 0.0 {
        p
    } else {
        0.0
    }
}

/// The threshold of a page whose type is uncertain: each type's
/// threshold, weighed by the type's probability — the type's fixed
/// threshold, or [`page_threshold`] where its policy is adaptive and the
/// page [`reads_own_cut`] — over the types the forest decides. A page
/// that is surely of one type gets that type's threshold; one between a
/// listing (0.15) and an article (0.5) gets a threshold between them,
/// not the one of a coin toss. Out of fold on the development data the
/// blend kept what the most probable type's threshold alone kept on
/// sure pages and did better on the unsure ones (docs/learned.md).
///
/// `scores` and `words` are the page's blocks'; `None` when no type's
/// policy is a block forest's.
///
/// ```
/// use gleaner::extract::learned::{threshold::blended_threshold, TypePolicy};
/// let mut policies = [TypePolicy::blocks(0.5); 7];
/// policies[4] = TypePolicy::blocks(0.1);
/// let mut p = [0.0; 7];
/// (p[0], p[4]) = (0.75, 0.25);
/// let t = blended_threshold(&policies, &p, &[0.9], &[10]).unwrap();
/// assert!((t - 0.4).abs() < 1e-6);
/// ```
pub fn blended_threshold(
    policies: &[TypePolicy; 7],
    probabilities: &[f32; 7],
    scores: &[f32],
    words: &[u32],
) -> Option<f32> {
    let own = reads_own_cut(policies, probabilities);
    let cut = if own { expected_f1_cut(scores, words) } else { None };
    let (mut sum, mut weight) = (0.0f64, 0.0f64);
    for (policy, &p) in policies.iter().zip(probabilities) {
        let p = weight_of(p);
        if !policy.blocks || p == 0.0 {
            continue;
        }
        let t = match policy.adaptive {
            true => toward_cut(policy.threshold, cut),
            false => policy.threshold,
        };
        sum += f64::from(p) * f64::from(t);
        weight += f64::from(p);
    }
    (weight > 0.0).then(|| (sum / weight) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_takes_a_prefix_by_score() {
        // The doubtful block adds more words than expected overlap.
        assert_eq!(expected_f1_cut(&[0.9, 0.3, 0.9], &[100, 400, 100]), Some(0.9));
        // A likely one of many words is taken.
        assert_eq!(expected_f1_cut(&[0.9, 0.6, 0.9], &[100, 400, 100]), Some(0.6));
    }

    #[test]
    fn blocks_without_words_do_not_set_the_cut() {
        assert_eq!(expected_f1_cut(&[0.9, 0.01], &[100, 0]), Some(0.9));
        assert_eq!(expected_f1_cut(&[], &[]), None);
        assert_eq!(expected_f1_cut(&[0.0, 0.0], &[10, 10]), None);
    }

    #[test]
    fn out_of_range_scores_are_clamped() {
        assert_eq!(expected_f1_cut(&[1.5, -1.0], &[10, 10]), Some(1.0));
        assert_eq!(expected_f1_cut(&[f32::NAN, 0.8, f32::INFINITY], &[10, 10, 10]), Some(0.8));
        assert_eq!(page_threshold(0.5, &[0.5], &[0]), 0.5);
    }

    #[test]
    fn a_sure_type_gets_its_own_threshold_and_an_unsure_one_a_blend() {
        let mut policies = [TypePolicy::blocks(0.5); 7];
        policies[3] = TypePolicy { blocks: true, threshold: 0.1, adaptive: true };
        policies[6] = TypePolicy { blocks: false, threshold: 0.9, adaptive: false };
        let (scores, words) = ([0.9, 0.3, 0.05], [100, 100, 100]);
        let cut = expected_f1_cut(&scores, &words).unwrap();
        let mut sure = [0.0; 7];
        sure[3] = 1.0;
        let t = blended_threshold(&policies, &sure, &scores, &words).unwrap();
        assert!((t - page_threshold(0.1, &scores, &words)).abs() < 1e-6);
        // An adaptive type too unlikely to matter is read at its fixed
        // threshold; a type the rules decide has no say.
        let mut unsure = [0.0; 7];
        (unsure[0], unsure[3], unsure[6]) = (0.5, 0.005, 0.495);
        assert!(!reads_own_cut(&policies, &unsure));
        let t = blended_threshold(&policies, &unsure, &scores, &words).unwrap();
        assert!((t - (0.5 * 0.5 + 0.005 * 0.1) / 0.505).abs() < 1e-6, "{t} {cut}");
        let mut rules = [0.0; 7];
        rules[6] = 1.0;
        assert_eq!(blended_threshold(&policies, &rules, &scores, &words), None);
    }
}
