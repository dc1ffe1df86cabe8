//! Shingle precision, recall and F1: the metric of the ScrapingHub
//! article-extraction-benchmark (2020), as its `evaluate.py` computes it
//! and as later extraction benchmarks report it.
//!
//! Per page, each text is tokenised by [`shingle_tokens`] (`\w+`, case
//! kept) and turned into a **multiset** of word 4-grams ("shingles"); a
//! text of 1–3 tokens is one shingle, the whole token tuple, and a text
//! without tokens has none. With the multiset overlap TP, the unmatched
//! extracted shingles FP and the unmatched gold shingles FN, all three are
//! divided by TP + FP + FN so that long pages weigh no more than short
//! ones. Then
//!
//! ```text
//! P_page = 1 if FP = FN = 0, else TP / (TP + FP)   (0 when TP + FP = 0)
//! R_page = 1 if FP = FN = 0, else TP / (TP + FN)   (0 when TP + FN = 0)
//! P = mean of P_page over pages with a non-empty prediction
//! R = mean of R_page over pages with a non-empty gold text
//! F1 = 2PR / (P + R)
//! accuracy = share of pages whose token lists are equal
//! ```
//!
//! and the ± of F1 is the standard deviation of F1 over 1000 seeded
//! bootstrap resamples of the pages.

use std::collections::HashMap;

use super::bootstrap::{bootstrap_std, mean};
use super::harmonic_mean;
use super::summary::Summary;
use super::tokens::{shingle_tokens, Interner};

/// Shingle length of the benchmark (`ngram_n = 4`).
const SHINGLE: usize = 4;

/// The shingle counts of one page, normalised to sum to 1 (all 0 when
/// neither text has a token).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShinglePage {
    /// Share of shingles in both texts (multiset intersection).
    pub tp: f64,
    /// Share of extracted shingles without a gold partner.
    pub fp: f64,
    /// Share of gold shingles without an extracted partner.
    pub fn_: f64,
    /// Whether the two token lists are equal (the benchmark's accuracy).
    pub exact: bool,
    /// Whether the extracted text has no token.
    pub pred_empty: bool,
    /// Whether the gold text has no token.
    pub gold_empty: bool,
}

impl ShinglePage {
    /// The page's precision: 1 when FP = FN = 0, else TP / (TP + FP), and
    /// 0 when that is 0/0.
    pub fn precision(&self) -> f64 {
        ratio_or_perfect(self.tp, self.fp, self)
    }

    /// The page's recall: 1 when FP = FN = 0, else TP / (TP + FN), and 0
    /// when that is 0/0.
    pub fn recall(&self) -> f64 {
        ratio_or_perfect(self.tp, self.fn_, self)
    }
}

fn ratio_or_perfect(tp: f64, miss: f64, page: &ShinglePage) -> f64 {
    if page.fp == 0.0 && page.fn_ == 0.0 {
        1.0
    } else if tp + miss > 0.0 {
        tp / (tp + miss)
    } else {
        0.0
    }
}

/// Scores one page: `extracted` against `gold`.
///
/// ```
/// use gleaner_eval::shingle_page;
/// // Gold shingles: abcd, bcde. Extracted: abcd, bcdx. TP 1, FP 1, FN 1.
/// let page = shingle_page("a b c d x", "a b c d e");
/// assert_eq!((page.tp, page.fp, page.fn_), (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0));
/// assert_eq!((page.precision(), page.recall()), (0.5, 0.5));
/// ```
pub fn shingle_page(extracted: &str, gold: &str) -> ShinglePage {
    let mut interner = Interner::new();
    let pred = interner.intern_all(&shingle_tokens(extracted));
    let gold = interner.intern_all(&shingle_tokens(gold));
    // (gold count, extracted count) per distinct shingle.
    let mut counts: HashMap<&[u32], (usize, usize)> = HashMap::new();
    for shingle in shingles(&gold) {
        counts.entry(shingle).or_default().0 += 1;
    }
    let mut pred_total = 0usize;
    for shingle in shingles(&pred) {
        counts.entry(shingle).or_default().1 += 1;
        pred_total += 1;
    }
    let gold_total: usize = counts.values().map(|&(g, _)| g).sum();
    let tp: usize = counts.values().map(|&(g, p)| g.min(p)).sum();
    let (fp, fn_) = (pred_total.saturating_sub(tp), gold_total.saturating_sub(tp));
    // Normalise so that longer texts do not weigh more.
    let sum = (tp + fp + fn_) as f64;
    let norm = |x: usize| if sum > 0.0 { x as f64 / sum } else { 0.0 };
    ShinglePage {
        tp: norm(tp),
        fp: norm(fp),
        fn_: norm(fn_),
        exact: pred == gold,
        pred_empty: pred.is_empty(),
        gold_empty: gold.is_empty(),
    }
}

/// The 4-gram windows of `tokens`; a shorter non-empty list is one
/// shingle, an empty one has none.
fn shingles(tokens: &[u32]) -> impl Iterator<Item = &[u32]> {
    let short = (!tokens.is_empty() && tokens.len() < SHINGLE).then_some(tokens);
    short.into_iter().chain(tokens.windows(SHINGLE))
}

/// Corpus precision, recall, F1 (with bootstrap std) and accuracy over
/// `pages`, as the benchmark reports them.
///
/// `resamples` is the number of bootstrap resamples (the benchmark uses
/// 1000) and `seed` seeds the SplitMix64 generator, so the ± is
/// reproducible.
///
/// Deviation: where the benchmark would divide by zero (no page with a
/// prediction, no page with gold, or P + R = 0), the value is 0.
///
/// ```
/// use gleaner_eval::{shingle_page, shingle_summary};
/// let pages = [shingle_page("a b c d", "a b c d"), shingle_page("", "e f g h")];
/// let s = shingle_summary(&pages, 1000, 0);
/// assert_eq!((s.precision, s.recall, s.accuracy), (1.0, 0.5, 0.5));
/// ```
pub fn shingle_summary(pages: &[ShinglePage], resamples: usize, seed: u64) -> Summary {
    let all: Vec<usize> = (0..pages.len()).collect();
    let (precision, recall, f1) = corpus_prf(pages, &all);
    let f1_std = bootstrap_std(pages.len(), resamples, seed, |idx| corpus_prf(pages, idx).2);
    Summary {
        precision,
        recall,
        f1,
        f1_std,
        accuracy: mean(pages.iter().map(|p| if p.exact { 1.0 } else { 0.0 })),
        pages: pages.len(),
    }
}

/// (P, R, F1) over the pages at `indices`.
fn corpus_prf(pages: &[ShinglePage], indices: &[usize]) -> (f64, f64, f64) {
    let picked = || indices.iter().filter_map(|&i| pages.get(i));
    let precision = mean(picked().filter(|p| !p.pred_empty).map(ShinglePage::precision));
    let recall = mean(picked().filter(|p| !p.gold_empty).map(ShinglePage::recall));
    (precision, recall, harmonic_mean(precision, recall))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn crafted_corpus() {
        let pages = [
            // 1. Exact: gold shingles abcd, bcde, both extracted.
            //    TP 2 → normalised TP 1, FP = FN = 0: P = R = 1.
            shingle_page("a b c d e", "a b, c d e."),
            // 2. Gold abcdef → abcd, bcde, cdef (3). Extracted "x a b c d"
            //    → xabc, abcd (2). TP 1 (abcd), FP 1, FN 2, sum 4:
            //    0.25, 0.25, 0.5. P = .25/.5 = 1/2, R = .25/.75 = 1/3.
            shingle_page("x a b c d", "a b c d e f"),
            // 3. Empty prediction, gold "one two" is one shingle:
            //    FN = 1. Not in P's mean; R = 0/(0+1) = 0.
            shingle_page("", "one two"),
            // 4. No gold, extracted "Menu Home" is one shingle: FP = 1.
            //    Not in R's mean; P = 0/(0+1) = 0.
            shingle_page("Menu Home", " ... "),
        ];
        assert!(pages[0].exact && !pages[1].exact);
        assert!(close(pages[0].tp, 1.0));
        assert_eq!((pages[1].tp, pages[1].fp, pages[1].fn_), (0.25, 0.25, 0.5));
        assert!(close(pages[1].recall(), 1.0 / 3.0));
        assert!(pages[2].pred_empty && !pages[2].gold_empty && pages[2].fn_ == 1.0);
        assert!(pages[3].gold_empty && pages[3].fp == 1.0);

        let s = shingle_summary(&pages, 1000, 17);
        // P over pages 1, 2, 4: (1 + 1/2 + 0)/3 = 1/2.
        assert!(close(s.precision, 0.5));
        // R over pages 1, 2, 3: (1 + 1/3 + 0)/3 = 4/9.
        assert!(close(s.recall, 4.0 / 9.0));
        // F1 = 2·(1/2)·(4/9) / (1/2 + 4/9) = (4/9)/(17/18) = 8/17.
        assert!(close(s.f1, 8.0 / 17.0));
        // Only page 1 is an exact match.
        assert!(close(s.accuracy, 0.25));
        assert_eq!(s.pages, 4);
        // Resampling 4 unequal pages moves F1; the same seed repeats.
        assert!(s.f1_std > 0.0 && s.f1_std < 0.5);
        assert_eq!(s.f1_std, shingle_summary(&pages, 1000, 17).f1_std);
    }

    #[test]
    fn shingles_are_a_multiset() {
        // Gold "a b c d a b c d": abcd ×2, bcda, cdab, dabc (5).
        // Extracted "a b c d": abcd ×1. TP 1, FP 0, FN 4 → 0.2, 0, 0.8.
        // FN ≠ 0 so P = 0.2/0.2 = 1, R = 0.2.
        let page = shingle_page("a b c d", "a b c d a b c d");
        assert!(close(page.tp, 0.2) && page.fp == 0.0 && close(page.fn_, 0.8));
        assert_eq!(page.precision(), 1.0);
        assert!(close(page.recall(), 0.2));
        // Extracted "a b c d a b c d x": the 5 gold shingles plus bcdx.
        // TP 5, FP 1, FN 0, sum 6 → P = 5/6, R = 1.
        let page = shingle_page("a b c d a b c d x", "a b c d a b c d");
        assert!(close(page.precision(), 5.0 / 6.0) && close(page.recall(), 1.0));
    }

    #[test]
    fn short_texts_are_one_shingle_and_case_counts() {
        // "a b c" is one shingle (a,b,c); "a b c d" is (a,b,c,d): no match.
        let page = shingle_page("a b c d", "a b c");
        assert_eq!((page.tp, page.fp, page.fn_), (0.0, 0.5, 0.5));
        // Tokens keep their case: "The" ≠ "the".
        let page = shingle_page("the end of it", "The end of it");
        assert_eq!((page.tp, page.exact), (0.0, false));
        // Punctuation and spacing do not matter, only the \w+ tokens.
        assert!(shingle_page("The end—of it!", "The  end of\nit").exact);
    }

    #[test]
    fn empty_cases() {
        // Both empty: exact, all counts 0, in neither mean.
        let both = shingle_page("", "!!!");
        assert!(both.exact && both.pred_empty && both.gold_empty);
        assert_eq!((both.tp, both.fp, both.fn_), (0.0, 0.0, 0.0));
        let s = shingle_summary(&[both], 1000, 1);
        assert_eq!((s.precision, s.recall, s.f1, s.accuracy, s.f1_std), (0.0, 0.0, 0.0, 1.0, 0.0));
        let s = shingle_summary(&[], 1000, 1);
        assert_eq!((s.f1, s.accuracy, s.pages), (0.0, 0.0, 0));
    }
}
