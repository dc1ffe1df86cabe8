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
    match expected_f1_cut(scores, words) {
        Some(cut) => 0.5 * (threshold + cut),
        None => threshold,
    }
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
}
