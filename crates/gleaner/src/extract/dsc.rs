//! DSC — Document Slope Curve (Pinto et al. 2002), in Gottron's
//! multi-region adaptation (ITA'07; S-2 and S-0 §7).
//!
//! Reads the **source** token sequence. The curve
//! `d(i) = Σ_{n≤i} B[n]` (tag = 1, word = 0) rises steeply in markup and
//! stays flat over running text. The page is cut into half-overlapping
//! windows; a window whose slope `s_k = tags / tokens` is at most
//! `β · s̄` (the page's overall slope) is *low*. Runs of at least
//! `min_windows` consecutive low windows become regions, and regions with
//! at least `min_words` words are the main content. Unlike BTE, several
//! regions can be kept.
//!
//! The published parameters were not recovered (`docs/algorithms.md#dsc`).
//! The defaults follow a third-party reimplementation \[R\]:
//! β = 0.5, windows of 8 to 50 tokens growing with the page, three
//! consecutive low windows; `min_words` = 10 is ours \[I\].
//!
//! ```
//! use gleaner::{extract::{Dsc, Extractor}, render, Document, ParseOptions};
//! let nav = "<li><a href=#>x</a></li>".repeat(40);
//! let text = "word ".repeat(120);
//! let html = format!("<ul>{nav}</ul><p>{text}</p><ul>{nav}</ul>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let out = render::text(&doc, &Dsc::default().extract(&doc));
//! assert!(out.starts_with("word word") && !out.contains('x'));
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::extractor::Extractor;
use super::params::{config, Range};
use crate::document::Document;
use crate::selection::Selection;

config! {
    /// Parameters of [`Dsc`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct DscConfig for "dsc" {
        /// Window size in tokens; 0 picks it from the page length: 8 tokens up
        /// to 200, 50 from 5 000, linear in between \[R: third-party DSC\].
        window: usize = 0, source "R: third-party DSC";
        /// A window is low when its slope is at most `beta` times the page's
        /// slope. Default 0.5 \[R: third-party DSC\].
        beta: f64 = 0.5, range Range::above(0.0), source "R: third-party DSC";
        /// Consecutive low windows needed to start a region. Default 3
        /// \[R: third-party DSC\].
        min_windows: usize = 3, source "R: third-party DSC";
        /// Words a region needs to be kept. Default 10 \[I\].
        min_words: usize = 10, source "I";
    }
}

/// Document Slope Curve. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Dsc {
    config: DscConfig,
}

impl Dsc {
    /// DSC with this configuration.
    pub fn new(config: DscConfig) -> Dsc {
        Dsc { config }
    }
}

impl Extractor for Dsc {
    fn extract(&self, doc: &Document) -> Selection {
        let units = doc.source().units(|_| true);
        let is_tag: Vec<bool> = units.iter().map(|u| u.is_tag).collect();
        let keep = low_slope_regions(&is_tag, &self.config);
        Selection::from_units(doc, &units, &keep)
    }
}

/// The adaptive window size of the third-party DSC \[R\].
fn adaptive_window(tokens: usize) -> usize {
    match tokens {
        0..=200 => 8,
        5000.. => 50,
        n => 8 + (42 * (n - 200)) / 4800,
    }
}

/// Marks the tokens inside kept low-slope regions.
pub(crate) fn low_slope_regions(is_tag: &[bool], config: &DscConfig) -> Vec<bool> {
    let n = is_tag.len();
    let mut keep = vec![false; n];
    if n == 0 {
        return keep;
    }
    let window = if config.window == 0 { adaptive_window(n) } else { config.window }.max(2);
    let step = (window / 2).max(1);
    // Prefix sums of tags make every window O(1).
    let mut tags_before = Vec::with_capacity(n + 1);
    tags_before.push(0usize);
    for &t in is_tag {
        tags_before.push(tags_before.last().copied().unwrap_or(0) + usize::from(t));
    }
    let total_tags = tags_before[n];
    let page_slope = total_tags as f64 / n as f64;
    let starts: Vec<usize> = (0..n).step_by(step).take_while(|&s| s == 0 || s + step < n).collect();
    let low: Vec<bool> = starts
        .iter()
        .map(|&s| {
            let e = (s + window).min(n);
            let slope = (tags_before[e] - tags_before[s]) as f64 / (e - s) as f64;
            slope <= config.beta * page_slope
        })
        .collect();
    let mut k = 0;
    while k < low.len() {
        if !low[k] {
            k += 1;
            continue;
        }
        let run_start = k;
        while k < low.len() && low[k] {
            k += 1;
        }
        if k - run_start < config.min_windows.max(1) {
            continue;
        }
        let (s, e) = (starts[run_start], (starts[k - 1] + window).min(n));
        let words = (e - s) - (tags_before[e] - tags_before[s]);
        if words >= config.min_words {
            keep[s..e].iter_mut().for_each(|x| *x = true);
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_two_separate_plateaus() {
        // tags, words, tags, words, tags
        let mut seq = vec![true; 60];
        seq.extend(vec![false; 60]);
        seq.extend(vec![true; 60]);
        seq.extend(vec![false; 60]);
        seq.extend(vec![true; 60]);
        let config = DscConfig { window: 10, ..DscConfig::default() };
        let keep = low_slope_regions(&seq, &config);
        assert!(keep[70] && keep[190], "both plateaus kept");
        assert!(!keep[10] && !keep[150] && !keep[290], "markup dropped");
    }

    #[test]
    fn short_plateau_is_dropped() {
        let mut seq = vec![true; 100];
        seq.extend(vec![false; 6]);
        seq.extend(vec![true; 100]);
        let keep = low_slope_regions(&seq, &DscConfig { window: 4, ..DscConfig::default() });
        assert!(keep.iter().all(|k| !k));
    }

    #[test]
    fn adaptive_window_grows_with_the_page() {
        assert_eq!(adaptive_window(100), 8);
        assert_eq!(adaptive_window(2600), 29);
        assert_eq!(adaptive_window(10_000), 50);
    }
}
