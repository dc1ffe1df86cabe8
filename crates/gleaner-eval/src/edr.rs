//! The TTR paper's character-level recall and edit distance ratio
//! (Weninger & Hsu, "Text extraction from the web via text-to-tag ratio",
//! DEXA'08 workshops, S-3 §4; `docs/algorithms.md#ttrs-character-measures`).
//!
//! Both texts are first normalised ([`edr_normalize`]); with o the output
//! and m the manual (gold) text as character sequences:
//!
//! ```text
//! recall = |LCS(m, o)| / len(m)
//! EDR    = 1 − editDistance(o, m) / max(len(o), len(m))
//! ```
//!
//! The paper calls the first "LCS" and uses it as recall, and the second
//! as precision ("we wish to maximize EDR"). Its Eq. 2 is garbled in the
//! seed; this reading follows the text: "the ratio of edits … to the total
//! length of the longest file". The edit distance is Levenshtein with unit
//! costs on characters \[I\].
//!
//! Both are bit-parallel (Hyyrö's LCS, Myers' Levenshtein), so two
//! 100 KB texts need O(n·m/64) time and O(n + m) memory.

use super::bitpar;
use super::Prf;
use gleaner::document::decode_entities;

/// Recall and EDR of one page (Weninger & Hsu 2008, S-3 §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdrScore {
    /// `|LCS_chars(gold, output)| / len(gold)`, the paper's "LCS".
    pub recall: f64,
    /// `1 − levenshtein(output, gold) / max(len(output), len(gold))`.
    pub edr: f64,
}

impl EdrScore {
    /// As a [`Prf`] for [`summarize`](super::summarize): the paper's
    /// reading of EDR as precision, LCS as recall, and their harmonic
    /// mean as F1 (the paper reports no F1; F1 = 1 iff the normalised
    /// texts are equal).
    pub fn to_prf(self) -> Prf {
        Prf::new(self.edr, self.recall)
    }
}

/// The paper's normalisation before comparison: "all line breaks, special
/// HTML characters, and extra white spaces are removed from both files".
///
/// Character references (`&amp;`, `&nbsp;`, `&#160;`) are decoded with the
/// WHATWG rules, then every run of Unicode whitespace (line breaks,
/// tabs, the decoded no-break spaces) becomes one space, and the ends are
/// trimmed.
///
/// Deviation: a line break becomes a space instead of vanishing, and a
/// reference becomes its character instead of vanishing, because the
/// gold and the output may differ in line layout and in escaping; deleting
/// would glue "end\nStart" into "endStart" and count "&amp;" ≠ "&" as an
/// error. On texts that differ only in those, the score is 1.
///
/// ```
/// use gleaner_eval::edr_normalize;
/// assert_eq!(edr_normalize(" Tom&nbsp;&amp;\r\n  Jerry&#160;\t"), "Tom & Jerry");
/// ```
pub fn edr_normalize(text: &str) -> String {
    let decoded = decode_entities(text);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Levenshtein distance of two symbol sequences with unit costs, by
/// Myers' bit-vector algorithm in Hyyrö's multi-block form: O(|a|·|b|/64)
/// time, O(|a| + |b|) memory.
///
/// ```
/// use gleaner_eval::levenshtein;
/// let chars = |s: &str| s.chars().map(u32::from).collect::<Vec<_>>();
/// assert_eq!(levenshtein(&chars("kitten"), &chars("sitting")), 3);
/// ```
pub fn levenshtein(a: &[u32], b: &[u32]) -> usize {
    bitpar::levenshtein(a, b)
}

/// The TTR paper's recall and EDR of `extracted` against `gold`, on the
/// characters of both after [`edr_normalize`]. `None` when the normalised
/// gold is empty (the page is skipped). An empty output scores 0 on both.
///
/// ```
/// use gleaner_eval::edr_scores;
/// // "abcd" vs gold "abxd": LCS 3 of 4, one substitution of max length 4.
/// let s = edr_scores("abcd", "abxd").unwrap();
/// assert_eq!((s.recall, s.edr), (0.75, 0.75));
/// ```
pub fn edr_scores(extracted: &str, gold: &str) -> Option<EdrScore> {
    let gold: Vec<u32> = edr_normalize(gold).chars().map(u32::from).collect();
    if gold.is_empty() {
        return None;
    }
    let output: Vec<u32> = edr_normalize(extracted).chars().map(u32::from).collect();
    let recall = bitpar::lcs_length(&gold, &output) as f64 / gold.len() as f64;
    let longest = gold.len().max(output.len());
    let edr = 1.0 - bitpar::levenshtein(&output, &gold) as f64 / longest as f64;
    Some(EdrScore { recall, edr })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitpar::tests::{naive_lcs, naive_levenshtein};
    use crate::bootstrap::SplitMix64;
    use proptest::prelude::*;

    fn chars(s: &str) -> Vec<u32> {
        s.chars().map(u32::from).collect()
    }

    #[test]
    fn hand_computed() {
        // Gold "the cat" (7 chars), output "the hat!" (8 chars).
        // LCS "the at" = 6 → recall 6/7. Edits: c→h, +! = 2 → EDR 1 − 2/8.
        let s = edr_scores("the hat!", "the cat").unwrap();
        assert!((s.recall - 6.0 / 7.0).abs() < 1e-12);
        assert!((s.edr - 0.75).abs() < 1e-12);

        // Output "menu gold" (9) holds the gold "gold" (4): recall 1; five
        // deletions ("menu ") → EDR 1 − 5/9.
        let s = edr_scores("menu gold", "gold").unwrap();
        assert_eq!(s.recall, 1.0);
        assert!((s.edr - (1.0 - 5.0 / 9.0)).abs() < 1e-12);

        // Only layout and escaping differ: a perfect score.
        let s = edr_scores("Tom &amp; Jerry\n\nare  friends", "Tom & Jerry are friends").unwrap();
        assert_eq!(s, EdrScore { recall: 1.0, edr: 1.0 });
        assert_eq!(s.to_prf(), Prf::new(1.0, 1.0));
    }

    #[test]
    fn empty_conventions() {
        assert_eq!(edr_scores("anything", ""), None);
        assert_eq!(edr_scores("anything", " \n&nbsp;\t"), None);
        assert_eq!(edr_scores("", "gold"), Some(EdrScore { recall: 0.0, edr: 0.0 }));
        assert_eq!(edr_scores("&#160;", "gold"), Some(EdrScore { recall: 0.0, edr: 0.0 }));
    }

    #[test]
    fn unicode_counts_chars_not_bytes() {
        // "naïve" vs "naive": one substitution in 5 chars; LCS 4.
        let s = edr_scores("naive", "naïve").unwrap();
        assert!((s.recall - 0.8).abs() < 1e-12);
        assert!((s.edr - 0.8).abs() < 1e-12);
    }

    #[test]
    fn random_strings_match_naive_dp() {
        let mut rng = SplitMix64::new(3);
        let alphabet: Vec<char> = "ab c\néß東🙂&;".chars().collect();
        for _ in 0..300 {
            let mut text = || -> String {
                let len = rng.below(150);
                (0..len).filter_map(|_| alphabet.get(rng.below(alphabet.len())).copied()).collect()
            };
            let (a, b) = (text(), text());
            let (na, nb) = (chars(&edr_normalize(&a)), chars(&edr_normalize(&b)));
            assert_eq!(levenshtein(&na, &nb), naive_levenshtein(&na, &nb));
            assert_eq!(bitpar::lcs_length(&nb, &na), naive_lcs(&nb, &na));
            if let Some(s) = edr_scores(&a, &b) {
                assert!((s.recall - naive_lcs(&nb, &na) as f64 / nb.len() as f64).abs() < 1e-12);
                let longest = na.len().max(nb.len()) as f64;
                assert!(
                    (s.edr - (1.0 - naive_levenshtein(&na, &nb) as f64 / longest)).abs() < 1e-12
                );
            }
        }
    }

    #[test]
    fn hundred_thousand_chars_finish() {
        // Two unrelated 100 000-char texts: no common prefix or suffix to
        // strip, so both full bit-parallel passes run.
        let mut rng = SplitMix64::new(8);
        let letters: Vec<char> = "abcdefghijklmnopqrstuvwxyz      ".chars().collect();
        let mut text = |len: usize| -> String {
            (0..len).filter_map(|_| letters.get(rng.below(letters.len())).copied()).collect()
        };
        let (a, b) = (format!("x{}", text(100_000)), format!("y{}", text(100_000)));
        let s = edr_scores(&a, &b).unwrap();
        assert!(s.recall > 0.0 && s.recall < 1.0);
        assert!(s.edr > 0.0 && s.edr < 1.0);
    }

    proptest! {
        #[test]
        fn levenshtein_agrees_with_dp(
            a in proptest::collection::vec(0u32..5, 0..200),
            b in proptest::collection::vec(0u32..5, 0..200),
        ) {
            prop_assert_eq!(levenshtein(&a, &b), naive_levenshtein(&a, &b));
        }

        #[test]
        fn scores_are_bounded(e in "\\PC{0,80}", g in "\\PC{0,80}") {
            if let Some(s) = edr_scores(&e, &g) {
                prop_assert!((0.0..=1.0).contains(&s.recall));
                prop_assert!((0.0..=1.0).contains(&s.edr));
            }
        }
    }
}
