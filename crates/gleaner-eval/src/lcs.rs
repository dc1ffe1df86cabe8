//! Word-sequence LCS precision, recall and F1 (Gottron, "Content Code
//! Blurring", DEXA'08 workshops, S-2; and S-0 §7;
//! `docs/algorithms.md#word-sequence-lcs-precision-recall-and-f1`).
//!
//! With E the extracted and G the gold text as word sequences
//! ([`lcs_words`]) and L the length of their longest common subsequence:
//!
//! ```text
//! P = L / |E|    R = L / |G|    F1 = 2PR / (P + R)   (0 when P + R = 0)
//! ```
//!
//! Conventions \[I\]: |E| = 0 → P = R = F1 = 0; |G| = 0 → no score, the page
//! is skipped.

use super::bitpar;
use super::tokens::{lcs_words, Interner};
use super::Prf;

/// Length of a longest common subsequence of `a` and `b`, by the
/// bit-parallel algorithm of Allison & Dix (1986) and Hyyrö (2004).
///
/// Runs in O(|a|·|b|/64) time and O(|a| + |b| + alphabet) memory, so two
/// 20 000-word texts take milliseconds. Symbols are arbitrary `u32`s,
/// e.g. [`Interner`] ids or `char` code points.
///
/// ```
/// use gleaner_eval::lcs_length;
/// assert_eq!(lcs_length(&[1, 2, 3, 4, 1], &[3, 4, 1, 2, 1]), 3);
/// ```
pub fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    bitpar::lcs_length(a, b)
}

/// Gottron's word-sequence LCS precision, recall and F1 of `extracted`
/// against `gold`; `None` when `gold` has no words (the page is skipped).
///
/// ```
/// use gleaner_eval::lcs_prf;
/// // L = 3 ("a b d"): P = 3/4, R = 3/3.
/// let prf = lcs_prf("a b x d", "A b, d.").unwrap();
/// assert_eq!((prf.precision, prf.recall), (0.75, 1.0));
/// assert_eq!(lcs_prf("anything", " ... "), None);
/// ```
pub fn lcs_prf(extracted: &str, gold: &str) -> Option<Prf> {
    let mut interner = Interner::new();
    let gold = interner.intern_all(&lcs_words(gold));
    if gold.is_empty() {
        return None;
    }
    let extracted = interner.intern_all(&lcs_words(extracted));
    let common = lcs_length(&extracted, &gold);
    Prf::from_counts(common, extracted.len(), gold.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitpar::tests::{naive_lcs, random_seq};
    use crate::bootstrap::SplitMix64;
    use proptest::prelude::*;

    #[test]
    fn hand_computed_pages() {
        // E = the cat sat on the mat (6), G = the cat is on the mat (6).
        // LCS = the cat on the mat = 5: P = R = F1 = 5/6.
        let prf = lcs_prf("The cat sat on the mat.", "the cat is on the mat").unwrap();
        assert!((prf.precision - 5.0 / 6.0).abs() < 1e-12);
        assert!((prf.recall - 5.0 / 6.0).abs() < 1e-12);
        assert!((prf.f1 - 5.0 / 6.0).abs() < 1e-12);

        // Order matters: E = c b a, G = a b c → L = 1, P = R = 1/3.
        let prf = lcs_prf("c b a", "a b c").unwrap();
        assert!((prf.f1 - 1.0 / 3.0).abs() < 1e-12);

        // Menu noise around the full article: R = 1, P = 4/10,
        // F1 = 2·0.4·1/1.4 = 4/7.
        let prf = lcs_prf(
            "Home | News | Sport Main text of story Share Tweet Print",
            "main text of story",
        )
        .unwrap();
        assert_eq!(prf.recall, 1.0);
        assert!((prf.precision - 0.4).abs() < 1e-12);
        assert!((prf.f1 - 4.0 / 7.0).abs() < 1e-12);

        // Exact match after tokenisation.
        assert_eq!(lcs_prf("Hello,   WORLD!", "hello world"), Some(Prf::new(1.0, 1.0)));
    }

    #[test]
    fn empty_conventions() {
        // |E| = 0 → all zero; |G| = 0 → skipped.
        assert_eq!(lcs_prf("", "gold words"), Some(Prf::new(0.0, 0.0)));
        assert_eq!(lcs_prf("!!! ---", "gold words"), Some(Prf::new(0.0, 0.0)));
        assert_eq!(lcs_prf("some words", ""), None);
        assert_eq!(lcs_prf("", ""), None);
        // No common word: P = R = 0, F1 = 0 (not NaN).
        assert_eq!(lcs_prf("x y", "a b").map(|p| p.f1), Some(0.0));
    }

    #[test]
    fn long_texts_have_the_lcs_their_construction_gives() {
        // 20 000 words from a 5 000-word vocabulary, and a copy with one
        // word in ten dropped and foreign words (ids no text of `a` uses)
        // put in: the longest common subsequence is exactly the words
        // kept, across the 64-bit blocks of the bit-parallel algorithm.
        let mut rng = SplitMix64::new(11);
        let a = random_seq(&mut rng, 20_000, 5_000);
        let mut b = Vec::with_capacity(a.len() + a.len() / 5);
        let mut kept = 0;
        for &word in &a {
            if rng.below(10) == 0 {
                b.push(5_000 + rng.below(1_000) as u32);
            }
            if rng.below(10) != 0 {
                b.push(word);
                kept += 1;
            }
        }
        assert!((17_000..19_000).contains(&kept), "{kept}");
        assert_eq!(lcs_length(&a, &b), kept);
        assert_eq!(lcs_length(&b, &a), kept);
        // Identical long texts are found by the prefix strip alone.
        assert_eq!(lcs_length(&a, &a), 20_000);
        // Unrelated long texts: the dynamic programme's answer.
        let c = random_seq(&mut rng, 3_000, 50);
        let d = random_seq(&mut rng, 2_500, 50);
        assert_eq!(lcs_length(&c, &d), naive_lcs(&c, &d));
    }

    proptest! {
        #[test]
        fn lcs_agrees_with_dp(
            a in proptest::collection::vec(0u32..6, 0..300),
            b in proptest::collection::vec(0u32..6, 0..300),
        ) {
            prop_assert_eq!(lcs_length(&a, &b), naive_lcs(&a, &b));
        }

        #[test]
        fn lcs_prf_never_panics_and_is_bounded(e in "\\PC{0,60}", g in "\\PC{0,60}") {
            if let Some(prf) = lcs_prf(&e, &g) {
                for v in [prf.precision, prf.recall, prf.f1] {
                    prop_assert!((0.0..=1.0).contains(&v));
                }
            }
        }
    }
}
