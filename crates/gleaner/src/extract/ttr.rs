//! TTR — Text-to-Tag Ratio (Weninger & Hsu, DEXA 2008 workshops; S-3).
//!
//! Reads the **source as lines** (`docs/algorithms.md#ttr`). After removing
//! scripts, comments and empty lines, each line `k` gets
//!
//! ```text
//! TTR[k] = x            if y = 0
//! TTR[k] = x / y        otherwise
//! ```
//!
//! with `x` its text characters and `y` its tags (Alg. 1). The array is
//! smoothed by a moving mean of radius 2, `TTR'[k] = mean(TTR[k−2 ..= k+2])`
//! over the lines in range (§IV, Eq. 1), and then clustered into content
//! and non-content lines, by one of the paper's methods ([`TtrMethod`]):
//!
//! - **threshold** (§V-B, the best recall): line `k` is content iff
//!   `TTR'[k] ≥ λ·std(TTR')`, λ = 1 — one standard deviation above the
//!   baseline 0, *not* above the mean;
//! - **k-means**, **EM** (a 1-D Gaussian mixture) and **farthest-first**
//!   (§V-A): cluster `TTR'` with K = 1, 2, 3; the content clusters are
//!   those whose mean exceeds `λ·std(TTR')`; the K with the most content
//!   clusters wins, ties going to the smaller K;
//! - **prediction** (§V-C), on the *unsmoothed* array: enter content when
//!   `TTR[k]` jumps at least `λ·std(TTR)` above the mean of the previous 3
//!   lines, leave it after a line when the mean of the next 3 lines lies at
//!   least `λ·std(TTR)` below it.
//!
//! Lines map back to DOM text nodes by majority of their characters, so
//! every renderer and metric works unchanged. The `lines` option cuts
//! virtual lines at block-level tags instead ([`LineMode::Blocks`]), for
//! minified pages whose body is one physical line.
//!
//! ```
//! use gleaner::{extract::{Extractor, Ttr}, render, Document, ParseOptions};
//! let nav = "<li><a href=/a>Home</a></li><li><a href=/b>News</a></li>\n".repeat(6);
//! let html = format!("<ul>\n{nav}</ul>\n<p>\nA long line of running article text, \
//!     far more characters than tags.\nAnd another long line of article text \
//!     follows it here.\n</p>\n<ul>\n{nav}</ul>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let out = render::text(&doc, &Ttr::default().extract(&doc));
//! assert!(out.starts_with("A long line") && !out.contains("Home"));
//! # Ok::<(), gleaner::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::cluster::{em_1d, farthest_first_1d, kmeans_1d, Clustering};
use super::extractor::Extractor;
use super::lines::{LineMode, LineTable};
use super::params::{choice_param, config, Range};
use super::signal::{mean, moving_mean, std_dev};
use super::Curve;
use crate::document::Document;
use crate::error::{Error, Result};
use crate::selection::Selection;

/// How [`Ttr`] clusters the TTR array (Weninger & Hsu 2008, S-3 §V).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TtrMethod {
    /// Threshold at `λ·std(TTR')` [S-3 §V-B].
    #[default]
    Threshold,
    /// k-means with K = 1..3 [S-3 §V-A].
    KMeans,
    /// EM on a 1-D Gaussian mixture with K = 1..3 [S-3 §V-A].
    Em,
    /// Farthest-first traversal with K = 1..3 [S-3 §V-A].
    FarthestFirst,
    /// Jump prediction on the unsmoothed array [S-3 §V-C].
    Prediction,
}

impl TtrMethod {
    /// The registry name of the method's extractor.
    pub fn name(self) -> &'static str {
        match self {
            TtrMethod::Threshold => "ttr",
            TtrMethod::KMeans => "ttr-kmeans",
            TtrMethod::Em => "ttr-em",
            TtrMethod::FarthestFirst => "ttr-farthest-first",
            TtrMethod::Prediction => "ttr-prediction",
        }
    }
}

impl FromStr for TtrMethod {
    type Err = Error;

    fn from_str(s: &str) -> Result<TtrMethod> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "threshold" | "ttr" => TtrMethod::Threshold,
            "kmeans" | "k-means" | "ttr-kmeans" => TtrMethod::KMeans,
            "em" | "ttr-em" => TtrMethod::Em,
            "farthest-first" | "farthestfirst" | "ttr-farthest-first" => TtrMethod::FarthestFirst,
            "prediction" | "ttr-prediction" => TtrMethod::Prediction,
            _ => return Err(Error::InvalidConfig(format!("ttr: unknown method {s:?}"))),
        })
    }
}

impl fmt::Display for TtrMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

choice_param!(TtrMethod {
    TtrMethod::Threshold => "threshold",
    TtrMethod::KMeans => "kmeans",
    TtrMethod::Em => "em",
    TtrMethod::FarthestFirst => "farthest-first",
    TtrMethod::Prediction => "prediction",
});

config! {
    /// Parameters of [`Ttr`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct TtrConfig for "ttr" {
        /// The clustering method. Default threshold \[S-3\].
        method: TtrMethod = TtrMethod::Threshold, source "S-3 §V";
        /// Coefficient λ of the standard deviation: the threshold (threshold
        /// method), the bar a cluster mean must exceed (clusterings) or the
        /// jump size (prediction). Default 1.0 \[S-3\]; the paper's Figure 5
        /// sweeps it from 0 to 2.
        lambda: f64 = 1.0, range Range::at_least(0.0), source "S-3 §V-B";
        /// Smoothing radius in lines on each side (window `2r + 1`). Default 2
        /// [S-3 §IV]; the divisor is the number of lines in range \[I\].
        radius: usize = 2, source "S-3 §IV";
        /// Largest number of clusters tried by the clusterings (1..=max_k).
        /// Default 3 [S-3 §V-A].
        max_k: usize = 3, range Range::closed(1.0, 16.0), source "S-3 §V-A", alias "k";
        /// Prediction: lines averaged before a line to detect a jump in.
        /// Default 3 [S-3 §V-C].
        lookback: usize = 3, range Range::at_least(1.0), source "S-3 §V-C";
        /// Prediction: lines averaged after a line to detect a fall. Default 3
        /// [S-3 §V-C].
        lookahead: usize = 3, range Range::at_least(1.0), source "S-3 §V-C";
        /// How lines are cut. Default [`LineMode::Source`], the paper's
        /// physical lines \[S-3\]; `blocks` is ours \[I\].
        lines: LineMode = LineMode::Source, source "S-3";
        /// Iteration cap of k-means and EM. Default 100 \[I\].
        max_iterations: usize = 100, source "I";
    }
}

/// Text-to-Tag Ratio. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ttr {
    config: TtrConfig,
}

/// Everything one run computes, for the selection and the curve.
struct Analysis {
    table: LineTable,
    raw: Vec<f64>,
    smoothed: Vec<f64>,
    content: Vec<bool>,
    threshold: Option<f64>,
}

impl Ttr {
    /// TTR with this configuration.
    pub fn new(config: TtrConfig) -> Ttr {
        Ttr { config }
    }

    /// The configuration.
    pub fn config(&self) -> &TtrConfig {
        &self.config
    }

    /// The per-line data: raw and smoothed TTR, the threshold (or the
    /// cluster-mean bar of the clusterings) and the content lines.
    pub fn curve(&self, doc: &Document) -> Curve {
        let a = self.analyse(doc);
        Curve::new(self.config.lines.axis_label(), "text-to-tag ratio")
            .series("TTR", a.raw)
            .series(format!("smoothed TTR (radius {})", self.config.radius), a.smoothed)
            .threshold(a.threshold)
            .selected(a.content)
    }

    fn analyse(&self, doc: &Document) -> Analysis {
        let c = &self.config;
        let table = LineTable::build(doc.source(), c.lines);
        // Step 2 [S-3 Alg. 1]: TTR per line.
        let raw = table.ttr();
        // Step 3 [S-3 §IV]: moving mean, radius 2, in-range divisor [I].
        let smoothed = moving_mean(&raw, c.radius);
        let bar = c.lambda * std_dev(&smoothed);
        let (content, threshold) = match c.method {
            // Step 4 [S-3 §V-B]: content iff TTR'[k] ≥ λ·std(TTR'), not mean + σ.
            TtrMethod::Threshold => (smoothed.iter().map(|&v| v >= bar).collect(), Some(bar)),
            TtrMethod::KMeans => (
                select_clusters(&smoothed, c.max_k, bar, |v, k| {
                    kmeans_1d(v, k, c.max_iterations, doc.deadline())
                }),
                Some(bar),
            ),
            TtrMethod::Em => (
                select_clusters(&smoothed, c.max_k, bar, |v, k| {
                    em_1d(v, k, c.max_iterations, doc.deadline())
                }),
                Some(bar),
            ),
            TtrMethod::FarthestFirst => {
                (select_clusters(&smoothed, c.max_k, bar, farthest_first_1d), Some(bar))
            }
            // Step 6 [S-3 §V-C]: on the unsmoothed array.
            TtrMethod::Prediction => {
                (predict(&raw, c.lambda * std_dev(&raw), c.lookback, c.lookahead), None)
            }
        };
        Analysis { table, raw, smoothed, content, threshold }
    }
}

impl Extractor for Ttr {
    fn extract(&self, doc: &Document) -> Selection {
        let a = self.analyse(doc);
        a.table.select(doc, &a.content, &a.smoothed)
    }
}

/// Step 5 [S-3 §V-A]: clusters `values` with K = 1..=max_k. For each K
/// the content clusters are those whose mean exceeds `bar`; the K with the
/// most content clusters wins, the smaller K on ties [S-3: "the default
/// decision goes to the lower cluster number"]. No content cluster for any
/// K means no content.
fn select_clusters(
    values: &[f64],
    max_k: usize,
    bar: f64,
    cluster: impl Fn(&[f64], usize) -> Clustering,
) -> Vec<bool> {
    let mut best: Option<(usize, Clustering, Vec<bool>)> = None;
    for k in 1..=max_k {
        let c = cluster(values, k);
        let is_content: Vec<bool> =
            c.member_means(values).iter().map(|m| m.is_some_and(|m| m > bar)).collect();
        let hits = is_content.iter().filter(|&&b| b).count();
        if hits > best.as_ref().map_or(0, |b| b.0) {
            best = Some((hits, c, is_content));
        }
    }
    match best {
        Some((_, c, is_content)) => {
            c.labels.iter().map(|&l| is_content.get(l).copied().unwrap_or(false)).collect()
        }
        None => vec![false; values.len()],
    }
}

/// Step 6 [S-3 §V-C]: prediction clustering. Outside content, line `k`
/// starts content when `raw[k] − mean(previous lookback lines) ≥ jump`
/// (the mean of no lines is the baseline 0 \[I\]). Inside content, line `k`
/// is the last content line when `raw[k] − mean(next lookahead lines) ≥
/// jump` (in-range lines only; the last line ends content anyway).
fn predict(raw: &[f64], jump: f64, lookback: usize, lookahead: usize) -> Vec<bool> {
    let mut content = vec![false; raw.len()];
    let mut inside = false;
    for (k, &v) in raw.iter().enumerate() {
        if !inside {
            let before = raw.get(k.saturating_sub(lookback)..k).unwrap_or(&[]);
            inside = v - mean(before) >= jump;
        }
        if inside {
            content[k] = true;
            let after = raw.get(k + 1..(k + 1 + lookahead).min(raw.len())).unwrap_or(&[]);
            if !after.is_empty() && v - mean(after) >= jump {
                inside = false;
            }
        }
    }
    content
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Deadline;
    use crate::extract::Configure;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &Default::default()).expect("parse")
    }

    /// A page with link lines around a text block, one item per line.
    fn page() -> String {
        let nav: String =
            (0..12).map(|i| format!("<li><a href=/{i}>Link {i}</a></li>\n")).collect();
        let text: String = (0..8)
            .map(|i| format!("Paragraph line {i} with plenty of words and characters in it.\n"))
            .collect();
        format!("<html><body>\n<ul>\n{nav}</ul>\n<div><p>\n{text}</p></div>\n<ul>\n{nav}</ul>\n</body></html>")
    }

    #[test]
    fn ttr_of_known_lines() {
        let d = doc("<p>abcdef</p>\n<a>x</a><b>y</b>\ntext only\n\n<br><br><br>");
        let t = LineTable::build(d.source(), LineMode::Source);
        assert_eq!(t.ttr(), [3.0, 0.5, 8.0, 0.0]);
    }

    #[test]
    fn threshold_is_one_std_of_the_smoothed_array_not_mean_plus_std() {
        let ttr = Ttr::default();
        let curve = ttr.curve(&doc(&page()));
        let smoothed = &curve.series[1].1;
        let std = std_dev(smoothed);
        assert_eq!(curve.threshold, Some(std));
        for (v, &sel) in smoothed.iter().zip(&curve.selected) {
            assert_eq!(sel, *v >= std);
        }
        // Lines between the mean and mean + std are selected.
        let m = mean(smoothed);
        assert!(smoothed.iter().zip(&curve.selected).any(|(&v, &s)| s && v < m + std));
    }

    #[test]
    fn every_method_finds_the_text_block() {
        let d = doc(&page());
        for method in [
            TtrMethod::Threshold,
            TtrMethod::KMeans,
            TtrMethod::Em,
            TtrMethod::FarthestFirst,
            TtrMethod::Prediction,
        ] {
            let sel = Ttr::new(TtrConfig::default().method(method)).extract(&d);
            let text = crate::render::text(&d, &sel);
            assert!(text.contains("Paragraph line 3"), "{method}: {text:?}");
            assert!(!text.contains("Link 5"), "{method}: {text:?}");
        }
    }

    #[test]
    fn cluster_selection_prefers_most_content_clusters_then_smaller_k() {
        // Two well separated levels: K = 1 has no cluster above std (the
        // mean is below it), K = 2 and K = 3 each have one; K = 2 wins.
        let mut values = vec![0.0; 30];
        values.extend(vec![60.0; 6]);
        let bar = std_dev(&values);
        assert!(mean(&values) < bar);
        let content =
            select_clusters(&values, 3, bar, |v, k| kmeans_1d(v, k, 100, &Deadline::never()));
        assert_eq!(content.iter().filter(|&&c| c).count(), 6);
        assert!(content[30..].iter().all(|&c| c));
        // No content cluster at all.
        let none = select_clusters(&[1.0; 5], 3, 10.0, farthest_first_1d);
        assert!(none.iter().all(|&c| !c));
    }

    #[test]
    fn prediction_enters_on_a_jump_and_leaves_before_a_fall() {
        // Low, then a jump to a plateau, then low again.
        let mut raw = vec![1.0; 10];
        raw.extend(vec![40.0; 8]);
        raw.extend(vec![1.0; 10]);
        let jump = std_dev(&raw);
        let content = predict(&raw, jump, 3, 3);
        // The paper's exit rule fires one line early at a sharp fall: on
        // the plateau's second-to-last line the mean of the next 3 lines
        // already holds two low lines.
        let expected: Vec<bool> = (0..28).map(|k| (10..17).contains(&k)).collect();
        assert_eq!(content, expected);
    }

    #[test]
    fn prediction_keeps_short_lines_inside_content() {
        // A short line inside the plateau does not end content: the mean
        // of the next lines is not far below it.
        let raw = [1.0, 1.0, 1.0, 50.0, 45.0, 5.0, 48.0, 52.0, 50.0, 49.0, 1.0, 1.0, 1.0, 1.0];
        let content = predict(&raw, std_dev(&raw), 3, 3);
        let expected: Vec<bool> = (0..14).map(|k| (3..9).contains(&k)).collect();
        assert_eq!(content, expected);
    }

    #[test]
    fn no_text_and_no_lines_select_nothing() {
        for html in ["", "<html><body></body></html>", "<div>\n<img>\n</div>"] {
            let d = doc(html);
            for method in [TtrMethod::Threshold, TtrMethod::Em, TtrMethod::Prediction] {
                let sel = Ttr::new(TtrConfig::default().method(method)).extract(&d);
                assert_eq!(sel.count(), 0);
            }
        }
    }

    #[test]
    fn parameters_by_name() {
        let mut c = TtrConfig::default();
        c.set("lambda", "0.5").expect("lambda");
        c.set("lines", "blocks").expect("lines");
        c.set("k", "2").expect("k");
        assert_eq!(c, TtrConfig::default().lambda(0.5).lines(LineMode::Blocks).max_k(2));
        assert!(c.set("lines", "paragraphs").is_err());
        assert!(c.set("sigma", "1").is_err());
        assert!(TtrConfig::default().max_k(0).validate().is_err());
    }
}
