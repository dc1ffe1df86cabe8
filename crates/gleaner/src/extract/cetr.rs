//! CETR — Content Extraction via Tag Ratios (Weninger, Hsu & Han,
//! WWW 2010), the 2-D model (`docs/algorithms.md#cetr` [K + R]).
//!
//! Reads the **source as lines**, like [TTR](super::ttr). With `T` the
//! per-line tag ratio (`x` text characters over `y` tags, `x` when there is
//! no tag):
//!
//! ```text
//! T'  = T ∗ k                       k_j ∝ exp(−j²/2σ²), |j| ≤ ⌈3σ⌉, Σk = 1
//! G_i = | (1/α) Σ_{j=1..α} T'_{i+j} − T'_i |          α = 3
//! G'  = G ∗ k
//! ```
//!
//! Each line becomes the point `(T'_i, G'_i)`. k-means with k = 3 and one
//! centroid pinned at the origin `(0, 0)` clusters the points; lines in the
//! origin cluster are non-content, all others content. A content line has a
//! high tag ratio, or sits where the ratio changes (the edges of a content
//! block), which rescues short lines next to long ones.
//!
//! The derivative looks ahead, so a line just before a content block can
//! join it, as the last menu item does here:
//!
//! ```
//! use gleaner::{extract::{Cetr, Extractor}, render, Document, ParseOptions};
//! let nav: String = (0..8).map(|i| format!("<li><a href=/{i}>Item{i}</a></li>\n")).collect();
//! let text = "A long line of running article text, far more characters than tags.\n".repeat(6);
//! let html = format!("<ul>\n{nav}</ul>\n<p>\n{text}</p>\n<ul>\n{nav}</ul>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let out = render::text(&doc, &Cetr::default().extract(&doc));
//! assert!(out.contains("A long line") && !out.contains("Item0") && out.contains("Item7"));
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::cluster::kmeans;
use super::extractor::Extractor;
use super::lines::{LineMode, LineTable};
use super::params::{config, Range};
use super::signal::gaussian_kernel_smooth;
use super::Curve;
use crate::document::Document;
use crate::selection::Selection;

config! {
    /// Parameters of [`Cetr`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct CetrConfig for "cetr" {
        /// Standard deviation of the Gaussian smoothing kernel, in lines.
        /// Default 1.0 \[R: dragnet `weninger.py`; third-party `CETR(sigma=1)`\].
        sigma: f64 = 1.0, range Range::closed(0.0, 1000.0), source "R: dragnet weninger.py";
        /// Kernel half-width in standard deviations: `r = ⌈truncate·σ⌉`.
        /// Default 3 \[I\]; the kernel is renormalised over the lines in range at
        /// the ends \[I\] (dragnet reflected at the borders).
        truncate: f64 = 3.0, range Range::closed(0.0, 10.0), source "I";
        /// Lines after line `i` averaged by the derivative feature. Default 3
        /// [K + R dragnet].
        alpha: usize = 3, range Range::at_least(1.0), source "K + R: dragnet";
        /// Clusters, the origin cluster included. Default 3 [R: dragnet
        /// `WeningerKMeanModel(clusters=3)`].
        k: usize = 3, range Range::closed(2.0, 16.0), source "R: dragnet";
        /// Rescale `G'` so that `‖G'‖ = ‖T'‖` before clustering. Default off
        /// \[R: dragnet does not; a third-party CETR does\].
        rescale: bool = false, source "R: dragnet";
        /// How lines are cut. Default [`LineMode::Source`] \[K\]; `blocks` is
        /// ours \[I\].
        lines: LineMode = LineMode::Source, source "K";
        /// Iteration cap of k-means. Default 100 \[I\].
        max_iterations: usize = 100, source "I";
    }
}

/// Content Extraction via Tag Ratios. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cetr {
    config: CetrConfig,
}

struct Analysis {
    table: LineTable,
    raw: Vec<f64>,
    smoothed: Vec<f64>,
    derivative: Vec<f64>,
    content: Vec<bool>,
}

impl Cetr {
    /// CETR with this configuration.
    pub fn new(config: CetrConfig) -> Cetr {
        Cetr { config }
    }

    /// The configuration.
    pub fn config(&self) -> &CetrConfig {
        &self.config
    }

    /// The per-line features: the tag ratio `T`, its smoothed form `T'`
    /// and the smoothed absolute derivative `G'`, with the content lines.
    pub fn curve(&self, doc: &Document) -> Curve {
        let a = self.analyse(doc);
        Curve::new(self.config.lines.axis_label(), "tag ratio")
            .series("tag ratio T", a.raw)
            .series("smoothed T′", a.smoothed)
            .series("smoothed |derivative| G′", a.derivative)
            .selected(a.content)
    }

    fn analyse(&self, doc: &Document) -> Analysis {
        let c = &self.config;
        let table = LineTable::build(doc.source(), c.lines);
        // Step 1 [K]: the tag-ratio array of TTR.
        let raw = table.ttr();
        // Step 2 [K, R dragnet]: Gaussian smoothing, σ = 1.
        let radius = (c.truncate * c.sigma).ceil() as usize;
        let smoothed = gaussian_kernel_smooth(&raw, c.sigma, radius);
        // Step 5 [K]: absolute derivative over the next α lines, smoothed.
        let mut derivative =
            gaussian_kernel_smooth(&derivative(&smoothed, c.alpha), c.sigma, radius);
        if c.rescale {
            let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
            let (nt, ng) = (norm(&smoothed), norm(&derivative));
            if ng > 0.0 {
                derivative.iter_mut().for_each(|g| *g *= nt / ng);
            }
        }
        // Step 5 [R dragnet KMeansFixedOrigin]: k-means with centroid 0
        // pinned at the origin; the origin cluster is non-content.
        let points: Vec<[f64; 2]> =
            smoothed.iter().zip(&derivative).map(|(&t, &g)| [t, g]).collect();
        let (clustering, _) = kmeans(&points, c.k, true, c.max_iterations, doc.deadline());
        let content = clustering.labels.iter().map(|&l| l != 0).collect();
        Analysis { table, raw, smoothed, derivative, content }
    }
}

impl Extractor for Cetr {
    fn extract(&self, doc: &Document) -> Selection {
        let a = self.analyse(doc);
        a.table.select(doc, &a.content, &a.smoothed)
    }
}

/// `G_i = |mean(T'_{i+1 ..= i+α}) − T'_i|`, the paper's form (the next α
/// lines, excluding `i`) \[K\]. Near the end only the lines in range are
/// averaged, and the last line, which has no next line, gets 0 \[I\].
pub(crate) fn derivative(smoothed: &[f64], alpha: usize) -> Vec<f64> {
    let n = smoothed.len();
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    let mut sum = 0.0;
    for &v in smoothed {
        sum += v;
        prefix.push(sum);
    }
    smoothed
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (lo, hi) = (i + 1, (i + 1 + alpha).min(n));
            if hi <= lo {
                0.0
            } else {
                ((prefix[hi] - prefix[lo]) / (hi - lo) as f64 - t).abs()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Configure;

    #[test]
    fn derivative_uses_the_next_alpha_lines_and_pins_the_end() {
        let g = derivative(&[0.0, 0.0, 3.0, 6.0, 9.0], 3);
        assert_eq!(g, [3.0, 6.0, 4.5, 3.0, 0.0]);
        assert!(derivative(&[], 3).is_empty());
        assert_eq!(derivative(&[5.0], 3), [0.0]);
    }

    #[test]
    fn origin_cluster_is_non_content() {
        let nav = "<li><a href=/a>Home</a></li><li><a href=/b>News</a></li>\n".repeat(10);
        let text = "Running article text, with many more characters than tags.\n".repeat(8);
        let html = format!("<ul>\n{nav}</ul>\n<p>\n{text}</p>\n<ul>\n{nav}</ul>");
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        let cetr = Cetr::default();
        let curve = cetr.curve(&doc);
        assert_eq!(curve.series.len(), 3);
        // Markup lines (TTR near 0, flat) are not content; the text block is.
        assert!(!curve.selected[2] && !curve.selected[curve.selected.len() - 3]);
        let text_lines: Vec<bool> = curve.series[0]
            .1
            .iter()
            .zip(&curve.selected)
            .filter(|(t, _)| **t > 20.0)
            .map(|(_, &s)| s)
            .collect();
        assert_eq!(text_lines.len(), 8);
        assert!(text_lines.iter().all(|&s| s));
    }

    #[test]
    fn no_text_selects_nothing() {
        for html in ["", "<div>\n<img>\n</div>", "<br>\n<br>"] {
            let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
            assert_eq!(Cetr::default().extract(&doc).count(), 0);
        }
    }

    #[test]
    fn parameters_by_name() {
        let mut c = CetrConfig::default();
        c.set("alpha", "5").expect("alpha");
        c.set("sigma", "2").expect("sigma");
        c.set("lines", "blocks").expect("lines");
        assert_eq!(c, CetrConfig::default().alpha(5).sigma(2.0).lines(LineMode::Blocks));
        assert!(CetrConfig::default().k(1).validate().is_err());
        assert!(c.set("lambda", "1").is_err());
    }
}
