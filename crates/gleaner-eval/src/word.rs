//! WCXB's metrics (Foley 2026, the benchmark's `evaluate.py`): the
//! bag-of-words precision, recall and F1 over lower-cased `\w+` tokens,
//! and the share of "with" snippets a correct extraction contains and of
//! "without" snippets (boilerplate) it should not.
//!
//! Both are averaged over pages by the caller, as `evaluate.py` does.
//! The tokens are [`shingle_tokens`](crate::shingle_tokens)' word
//! characters, taken after lower-casing the whole text, as the script
//! lower-cases first; the bag overlap is the multiset intersection
//! (`Counter & Counter`).

use std::collections::HashMap;

use crate::Prf;

/// The benchmark's tokens: the text lower-cased, then its maximal runs
/// of word characters (alphanumeric or `_`).
///
/// ```
/// use gleaner_eval::word_tokens;
/// assert_eq!(word_tokens("The CAT's 3.14"), ["the", "cat", "s", "3", "14"]);
/// ```
pub fn word_tokens(text: &str) -> Vec<String> {
    crate::shingle_tokens(&text.to_lowercase())
}

/// Bag-of-words precision, recall and F1 of `predicted` against
/// `reference`, with the benchmark's conventions: an empty reference
/// scores 1 when nothing was extracted and 0 otherwise; an empty
/// extraction of a non-empty reference scores 0.
///
/// ```
/// use gleaner_eval::word_prf;
/// let s = word_prf("the cat sat on the mat", "the cat sat");
/// assert_eq!((s.precision, s.recall), (0.5, 1.0));
/// ```
pub fn word_prf(predicted: &str, reference: &str) -> Prf {
    let pred = word_tokens(predicted);
    let gold = word_tokens(reference);
    if gold.is_empty() {
        let one = if pred.is_empty() { 1.0 } else { 0.0 };
        return Prf { precision: one, recall: one, f1: one };
    }
    if pred.is_empty() {
        return Prf { precision: 0.0, recall: 0.0, f1: 0.0 };
    }
    let mut counts: HashMap<&str, (u32, u32)> = HashMap::with_capacity(gold.len());
    for t in &pred {
        counts.entry(t).or_default().0 += 1;
    }
    for t in &gold {
        counts.entry(t).or_default().1 += 1;
    }
    let overlap: u32 = counts.values().map(|&(p, g)| p.min(g)).sum();
    let precision = f64::from(overlap) / pred.len() as f64;
    let recall = f64::from(overlap) / gold.len() as f64;
    Prf::new(precision, recall)
}

/// The share of `snippets` that `text` contains, case-insensitively (1
/// when there are none): the benchmark's `with` rate (higher is better)
/// and `without` rate (lower is better).
///
/// ```
/// use gleaner_eval::snippet_rate;
/// assert_eq!(snippet_rate("Hello World", &["hello".into(), "bye".into()]), 0.5);
/// ```
pub fn snippet_rate(text: &str, snippets: &[String]) -> f64 {
    if snippets.is_empty() {
        return 1.0;
    }
    let text = text.to_lowercase();
    let found = snippets.iter().filter(|s| text.contains(&s.to_lowercase())).count();
    found as f64 / snippets.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bags_count_repeats_once_each() {
        let s = word_prf("a a a b", "a b b");
        // overlap: min(3,1) + min(1,2) = 2
        assert_eq!(s.precision, 0.5);
        assert!((s.recall - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn empty_sides_follow_the_benchmark() {
        assert_eq!(word_prf("", "").f1, 1.0);
        assert_eq!(word_prf("x", "").f1, 0.0);
        assert_eq!(word_prf("", "x").f1, 0.0);
        assert_eq!(snippet_rate("anything", &[]), 1.0);
    }
}
