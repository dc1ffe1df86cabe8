//! BTE — Body Text Extraction (Finn, Kushmerick & Smyth, 2001).
//!
//! Reads the **source** as a sequence of tokens, `B[n] = 1` for a tag and
//! `0` for a word, and chooses the window `i..=j` that maximises
//!
//! ```text
//! T(i, j) = Σ_{n<i} B[n] + Σ_{i≤n≤j} (1 − B[n]) + Σ_{n>j} B[n]
//! ```
//!
//! (tags outside the window plus words inside it). Since
//! `T(i, j) = const + Σ_{n=i..j} (1 − 2·B[n])`, this is a maximum-subarray
//! problem over `+1` (word) / `−1` (tag), solved in O(n) by Kadane's
//! algorithm instead of the paper's O(n²) search (`docs/algorithms.md#bte`).
//! BTE returns exactly one region, which is its known weakness on pages
//! whose content is interrupted by markup.
//!
//! ```
//! use gleaner::{extract::{Bte, Extractor}, render, Document, ParseOptions};
//! let html = b"<ul><li><a>Home</a><li><a>News</a></ul><p>One two three four five six.</p><ul><li><a>Imprint</a></ul>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! assert_eq!(render::text(&doc, &Bte::default().extract(&doc)), "One two three four five six.");
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::extractor::Extractor;
use super::params::{config, Range};
use crate::document::Document;
use crate::selection::Selection;

config! {
    /// Parameters of [`Bte`]. The algorithm as published has none; the tag
    /// weight generalises it.
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct BteConfig for "bte" {
        /// Cost of a tag inside the window relative to the gain of a word.
        /// Default 1.0, the paper's objective [S-2 via K]. Larger values make
        /// the window tighter.
        tag_weight: f64 = 1.0, range Range::above(0.0), source "S-2 via K";
    }
}

/// Body Text Extraction. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Bte {
    config: BteConfig,
}

impl Bte {
    /// BTE with this configuration.
    pub fn new(config: BteConfig) -> Bte {
        Bte { config }
    }
}

impl Extractor for Bte {
    fn extract(&self, doc: &Document) -> Selection {
        let units = doc.source().units(|_| true);
        let weights: Vec<f64> =
            units.iter().map(|u| if u.is_tag { -self.config.tag_weight } else { 1.0 }).collect();
        let mut keep = vec![false; units.len()];
        if let Some(window) = max_subarray(&weights) {
            keep[window].iter_mut().for_each(|k| *k = true);
        }
        Selection::from_units(doc, &units, &keep)
    }
}

/// Kadane's algorithm: the non-empty index range with the largest sum, the
/// earliest on ties. `None` for an empty input or when every sum is ≤ 0.
pub(crate) fn max_subarray(values: &[f64]) -> Option<std::ops::Range<usize>> {
    let (mut best, mut best_range) = (0.0, None);
    let (mut sum, mut start) = (0.0, 0);
    for (i, &v) in values.iter().enumerate() {
        if sum <= 0.0 {
            sum = 0.0;
            start = i;
        }
        sum += v;
        if sum > best {
            best = sum;
            best_range = Some(start..i + 1);
        }
    }
    best_range
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kadane_finds_the_best_window() {
        assert_eq!(max_subarray(&[-1.0, 1.0, 1.0, -1.0, 1.0, 1.0, -1.0]), Some(1..6));
        assert_eq!(max_subarray(&[1.0, -1.0, 1.0]), Some(0..1), "earliest on ties");
        assert_eq!(max_subarray(&[-1.0, -1.0]), None);
        assert_eq!(max_subarray(&[]), None);
    }

    #[test]
    fn window_spans_a_few_inline_tags() {
        let html = "<div><a>x</a><a>y</a><a>z</a></div>\
                    <p>alpha beta <b>gamma</b> delta epsilon zeta</p>\
                    <div><a>u</a><a>v</a></div>";
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        let sel = Bte::default().extract(&doc);
        let text = crate::render::text(&doc, &sel);
        assert_eq!(text, "alpha beta gamma delta epsilon zeta");
    }
}
