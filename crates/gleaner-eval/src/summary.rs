//! Corpus summary of per-page [`Prf`] scores (LCS, EDR, blocks).
//!
//! Gottron's tables are means of per-document scores (S-0 Table 3, S-2;
//! `docs/algorithms.md#word-sequence-lcs-precision-recall-and-f1`), and the
//! TTR paper reports mean LCS recall and mean EDR (S-3 §4):
//!
//! ```text
//! P = mean(P_page)   R = mean(R_page)   F1 = mean(F1_page)
//! accuracy = share of pages with F1_page = 1
//! f1_std = std of mean(F1) over bootstrap resamples of the pages
//! ```
//!
//! Note F1 here is the mean of the page F1s, not the harmonic mean of the
//! mean P and R as in [`shingle_summary`](super::shingle_summary).

use super::bootstrap::{bootstrap_std, mean};
use super::Prf;

/// Scores of a corpus: what [`summarize`] and
/// [`shingle_summary`](super::shingle_summary) return. F1 is the mean page
/// F1 for the former and the harmonic mean of the mean P and R for the
/// latter; the other fields mean the same in both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Mean page precision.
    pub precision: f64,
    /// Mean page recall.
    pub recall: f64,
    /// Mean page F1.
    pub f1: f64,
    /// Sample standard deviation of the mean F1 over bootstrap resamples.
    pub f1_std: f64,
    /// Share of pages with F1 = 1 (exact extractions).
    pub accuracy: f64,
    /// Number of pages.
    pub pages: usize,
}

/// Averages `pages` and estimates the spread of the mean F1 from
/// `resamples` bootstrap resamples drawn with SplitMix64 from `seed`.
///
/// Skipped pages (no gold) must be left out by the caller; an empty
/// corpus gives all zeros.
///
/// ```
/// use gleaner_eval::{summarize, Prf};
/// let pages = [Prf::new(1.0, 1.0), Prf::new(0.5, 0.25)];
/// let s = summarize(&pages, 1000, 0);
/// assert_eq!((s.precision, s.recall, s.accuracy), (0.75, 0.625, 0.5));
/// ```
pub fn summarize(pages: &[Prf], resamples: usize, seed: u64) -> Summary {
    let f1_at = |i: &usize| pages.get(*i).map(|p| p.f1);
    Summary {
        precision: mean(pages.iter().map(|p| p.precision)),
        recall: mean(pages.iter().map(|p| p.recall)),
        f1: mean(pages.iter().map(|p| p.f1)),
        f1_std: bootstrap_std(pages.len(), resamples, seed, |idx| {
            mean(idx.iter().filter_map(f1_at))
        }),
        accuracy: mean(pages.iter().map(|p| if p.f1 == 1.0 { 1.0 } else { 0.0 })),
        pages: pages.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_summary() {
        // Page F1s: 1, 0.6 (P .75, R .5), 0 (P 0, R 0).
        let pages = [Prf::new(1.0, 1.0), Prf::new(0.75, 0.5), Prf::new(0.0, 0.0)];
        let s = summarize(&pages, 1000, 3);
        assert!((s.precision - 1.75 / 3.0).abs() < 1e-12);
        assert!((s.recall - 0.5).abs() < 1e-12);
        assert!((s.f1 - 1.6 / 3.0).abs() < 1e-12);
        assert!((s.accuracy - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.pages, 3);
        // Population std of the F1s is ≈ 0.411; the std of a mean of 3 is
        // about 0.411/√3 ≈ 0.24.
        assert!(s.f1_std > 0.15 && s.f1_std < 0.33, "{}", s.f1_std);
        assert_eq!(summarize(&pages, 1000, 3), s);
        assert_ne!(summarize(&pages, 1000, 4).f1_std, s.f1_std);
    }

    #[test]
    fn degenerate_corpora() {
        let s = summarize(&[], 1000, 0);
        assert_eq!((s.precision, s.f1, s.f1_std, s.accuracy, s.pages), (0.0, 0.0, 0.0, 0.0, 0));
        // Identical pages: no spread.
        let s = summarize(&[Prf::new(0.5, 0.5); 5], 1000, 0);
        assert_eq!((s.f1, s.f1_std, s.accuracy), (0.5, 0.0, 0.0));
        // No resampling asked for.
        assert_eq!(summarize(&[Prf::new(1.0, 1.0), Prf::new(0.0, 0.0)], 0, 0).f1_std, 0.0);
    }
}
