/*!
The papers' evaluation for gleaner (`docs/algorithms.md#evaluation-metrics`): metrics, the
dataset readers, parameter-sweep plots and the inspect report.

The core crate `gleaner` turns bytes into a `Document` and a `Selection`
and does no I/O; this crate reads evaluation corpora from disk, scores
extractions against gold text, and draws what it measured.

Every metric is a pure function of texts, ids or labels, and nothing
panics on any input, however empty, huge or odd its Unicode. The
[`dataset`] module reads the evaluation corpora (CleanEval, Dragnet,
L3S-GN1, Readability, ScrapingHub layouts) into pages and gold text;
[`plot`] draws curves and sweeps as SVG; [`inspect`] writes the
self-contained HTML report of one page and one algorithm.

# Metrics

| Metric | Paper | Functions |
|---|---|---|
| Word-sequence LCS precision/recall/F1 | Gottron 2008 (S-0 §7, S-2) | [`lcs_prf`], [`lcs_length`] |
| LCS recall on characters and EDR | Weninger & Hsu 2008 (TTR, S-3) | [`edr_scores`], [`levenshtein`] |
| Shingle P/R/F1 with bootstrap ± | ScrapingHub article-extraction-benchmark | [`shingle_page`], [`shingle_summary`] |
| Block-level P/R/F | Debnath et al. 2005, used by VCE (S-4) | [`block_prf`] |
| Rand and Dunn indices | Gottron 2008 (S-0 §5) | [`rand_index`], [`dunn_index`] |
| Space savings, plain and gzip | Weninger & Hsu 2008 (S-3 §4) | [`savings`] |

S-0 … S-4 are the five papers of `docs/algorithms.md#references`, which
also describes each metric.

Per-page [`Prf`] scores are averaged over a corpus by [`summarize`],
which also gives a bootstrap standard deviation of the mean F1.

Word tokenisation is shared: [`lcs_words`] (Gottron's words) and
[`shingle_tokens`] (the benchmark's `\w+` runs); [`Interner`] maps
words to `u32` ids for the bit-parallel algorithms.

```
use gleaner_eval::lcs_prf;
let prf = lcs_prf("the quick fox", "The quick brown fox.");
assert_eq!(prf.map(|p| (p.precision, p.recall)), Some((1.0, 0.75)));
```
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitpar;
mod block;
mod bootstrap;
mod cluster;
pub mod dataset;
mod edr;
mod error;
pub mod inspect;
pub mod labels;
mod lcs;
pub mod plot;
mod savings;
mod shingle;
mod summary;
mod tokens;
pub mod train;
mod word;

pub use self::block::block_prf;
pub use self::cluster::{dunn_index, rand_index};
pub use self::edr::{edr_normalize, edr_scores, levenshtein, EdrScore};
pub use self::error::{Error, Result};
pub use self::lcs::{lcs_length, lcs_prf};
pub use self::savings::{savings, Savings};
pub use self::shingle::{shingle_page, shingle_summary, ShinglePage};
pub use self::summary::{summarize, Summary};
pub use self::tokens::{lcs_words, shingle_tokens, Interner};
pub use self::word::{snippet_rate, word_prf, word_tokens};

/// Precision, recall and their harmonic mean F1 for one page.
///
/// All three lie in `[0, 1]` when built by the functions of this module.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prf {
    /// Share of the extracted units that are correct.
    pub precision: f64,
    /// Share of the gold units that were extracted.
    pub recall: f64,
    /// Harmonic mean `2PR / (P + R)`, and 0 when `P + R = 0`.
    pub f1: f64,
}

impl Prf {
    /// Builds P, R and F1 from precision and recall; F1 is their harmonic
    /// mean, 0 when both are 0 (`docs/algorithms.md#word-sequence-lcs-precision-recall-and-f1`).
    pub fn new(precision: f64, recall: f64) -> Prf {
        Prf { precision, recall, f1: harmonic_mean(precision, recall) }
    }

    /// P = `overlap / retrieved`, R = `overlap / relevant`.
    ///
    /// Conventions (`docs/algorithms.md#word-sequence-lcs-precision-recall-and-f1`
    /// \[I\]): `relevant = 0` → `None`, the page has no gold and is skipped;
    /// `retrieved = 0` → P = R = F1 = 0.
    /// `overlap` must not exceed either count for the result to be a
    /// proper score; this is not checked.
    pub fn from_counts(overlap: usize, retrieved: usize, relevant: usize) -> Option<Prf> {
        if relevant == 0 {
            return None;
        }
        if retrieved == 0 {
            return Some(Prf { precision: 0.0, recall: 0.0, f1: 0.0 });
        }
        let overlap = overlap as f64;
        Some(Prf::new(overlap / retrieved as f64, overlap / relevant as f64))
    }
}

/// `2ab / (a + b)`, 0 when `a + b` is not positive.
fn harmonic_mean(a: f64, b: f64) -> f64 {
    let sum = a + b;
    if sum > 0.0 {
        2.0 * a * b / sum
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prf_from_counts() {
        // 3 of 4 retrieved are right, 3 of 6 gold were found:
        // P = 0.75, R = 0.5, F1 = 2·0.375/1.25 = 0.6.
        let prf = Prf::from_counts(3, 4, 6).unwrap();
        assert_eq!(prf.precision, 0.75);
        assert_eq!(prf.recall, 0.5);
        assert!((prf.f1 - 0.6).abs() < 1e-12);
        assert_eq!(Prf::from_counts(0, 0, 6), Some(Prf::new(0.0, 0.0)));
        assert_eq!(Prf::from_counts(0, 3, 0), None);
        assert_eq!(Prf::from_counts(0, 3, 5).unwrap().f1, 0.0);
    }
}
