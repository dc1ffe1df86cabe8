//! K-FE — K-Feature Extractor (Debnath, Mitra, Pal & Giles, "Automatic
//! Identification of Informative Sections of Web Pages", IEEE TKDE 17(9),
//! 2005); the baseline of the VCE paper (S-4 §3; `docs/algorithms.md#k-fe`).
//!
//! Reads the **DOM** in blocks cut at block-level tags (each block's own
//! content, nested blocks apart). Each block gets a feature vector —
//! words of plain text, links, images, form controls — and the
//! probability of the desired feature, text \[K\]:
//!
//! ```text
//! P(text | block) = text words / (text words + links + images + controls)
//! ```
//!
//! FE returns the one block with the highest probability; K-FE sorts the
//! blocks by it, splits them into two clusters by k-means with k = 2 \[K\]
//! and returns every block of the high cluster \[S-4 §1\]. Our k-means is
//! the exact one-dimensional optimum (the split of the sorted values with
//! the least within-cluster squared error), so no seeding is needed \[I\].
//!
//! ```
//! use gleaner::{extract::{Extractor, Kfe}, render, Document, ParseOptions};
//! let html = b"<ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
//!   <p>The storm reached the coast on Monday, bringing heavy rain.</p>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! let text = render::text(&doc, &Kfe::default().extract(&doc));
//! assert_eq!(text, "The storm reached the coast on Monday, bringing heavy rain.");
//! # Ok::<(), gleaner::Error>(())
//! ```

use markup5ever::local_name;

use super::extractor::Extractor;
use super::lqf::BlockOwnText;
use super::params::{config, Range};
use crate::document::{Document, NodeFlags};
use crate::selection::Selection;

config! {
    /// Parameters of [`Kfe`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct KfeConfig for "kfe" {
        /// A block takes part when it has at least this many words of its own
        /// text (links included). Default 1 \[I\]: a block of images or
        /// controls alone has no text to extract.
        min_words: u32 = 1, range Range::at_most(1_000_000.0), source "I";
        /// Return only the single most probable block (FE) instead of the high
        /// cluster (K-FE). Default false.
        single: bool = false, source "S-4 §3";
    }
}

/// The K-Feature Extractor. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Kfe {
    config: KfeConfig,
}

/// A block's features.
#[derive(Debug, Clone, Copy, Default)]
struct Features {
    words: u32,
    link_words: u32,
    links: u32,
    images: u32,
    controls: u32,
}

impl Features {
    /// P(text | block).
    fn text_probability(&self) -> f64 {
        let text = f64::from(self.words.saturating_sub(self.link_words));
        let total = text + f64::from(self.links + self.images + self.controls);
        if total > 0.0 {
            text / total
        } else {
            0.0
        }
    }
}

impl Kfe {
    /// K-FE with this configuration.
    pub fn new(config: KfeConfig) -> Kfe {
        Kfe { config }
    }
}

/// The smallest value of the high cluster of the exact two-means split of
/// `values` (sorted ascending); the lowest value when they are all equal.
fn high_cluster_floor(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    let first = *sorted.first()?;
    let total: f64 = sorted.iter().sum();
    let total_sq: f64 = sorted.iter().map(|v| v * v).sum();
    let (mut sum, mut sq) = (0.0, 0.0);
    let mut best: Option<(f64, usize)> = None;
    for split in 1..n {
        let v = sorted[split - 1];
        sum += v;
        sq += v * v;
        if sorted[split] <= v {
            continue; // only split between distinct values
        }
        let (l, r) = (split as f64, (n - split) as f64);
        let sse = (sq - sum * sum / l) + ((total_sq - sq) - (total - sum).powi(2) / r);
        if best.is_none_or(|(b, _)| sse < b) {
            best = Some((sse, split));
        }
    }
    Some(best.and_then(|(_, s)| sorted.get(s).copied()).unwrap_or(first))
}

impl Extractor for Kfe {
    fn extract(&self, doc: &Document) -> Selection {
        let own = BlockOwnText::compute(doc);
        let mut features = vec![Features::default(); doc.len()];
        for id in doc.ids().skip(1) {
            let stats = doc.stats(id);
            if !stats.flags.contains(NodeFlags::VISIBLE) {
                continue;
            }
            let Some(f) = features.get_mut(own.owner[id.index()].index()) else { continue };
            if stats.flags.contains(NodeFlags::TEXT) {
                f.words += stats.words;
                f.link_words += stats.link_words;
            }
            match doc.name(id) {
                Some(&local_name!("a")) if doc.attr(id, "href").is_some() => f.links += 1,
                Some(&local_name!("img")) => f.images += 1,
                Some(
                    &local_name!("input")
                    | &local_name!("select")
                    | &local_name!("textarea")
                    | &local_name!("button"),
                ) => f.controls += 1,
                _ => {}
            }
        }
        let blocks: Vec<(usize, f64)> = features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.words >= self.config.min_words.max(1))
            .map(|(i, f)| (i, f.text_probability()))
            .collect();
        let mut sorted: Vec<f64> = blocks.iter().map(|&(_, p)| p).collect();
        sorted.sort_by(f64::total_cmp);
        let floor =
            if self.config.single { sorted.last().copied() } else { high_cluster_floor(&sorted) };
        let mut keep = vec![false; doc.len()];
        if let Some(floor) = floor {
            // FE: the first block with the top probability only.
            let mut taken = false;
            for &(i, p) in &blocks {
                if p >= floor && !(self.config.single && taken) {
                    keep[i] = true;
                    taken = true;
                }
            }
        }
        let mut sel = Selection::none(doc);
        for id in doc.text_nodes() {
            if keep[own.owner[id.index()].index()] {
                sel.set(id, true);
            }
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{render, ParseOptions};

    #[test]
    fn two_means_split_sorted_values() {
        assert_eq!(high_cluster_floor(&[0.0, 0.1, 0.2, 0.9, 1.0]), Some(0.9));
        assert_eq!(high_cluster_floor(&[0.5, 0.5]), Some(0.5));
        assert_eq!(high_cluster_floor(&[]), None);
    }

    #[test]
    fn returns_text_blocks_not_link_blocks() {
        let html = "<div><a href=/a>Home</a> <a href=/b>News</a> more</div>\
                    <p>First paragraph of the story text.</p><p>Second <a href=/c>one</a> here.</p>\
                    <div><img src=a.png><img src=b.png> caption</div>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let text = render::text(&doc, &Kfe::default().extract(&doc));
        assert!(text.contains("First paragraph") && text.contains("Second"), "{text}");
        assert!(!text.contains("Home") && !text.contains("caption"), "{text}");
        let fe = Kfe::new(KfeConfig { single: true, ..KfeConfig::default() });
        assert_eq!(render::text(&doc, &fe.extract(&doc)), "First paragraph of the story text.");
    }
}
