//! A folder of pages from one or many sites → one template model per
//! cluster of same-template pages (Gottron 2008, S-0 §4–7, run on a whole
//! collection rather than one page's link neighbourhood).
//!
//! Pages are summarised one at a time ([`PageSummary::of`], a pure
//! function, so callers can run it in parallel and drop each `Document`
//! at once), then clustered and learned from together
//! ([`SiteTemplates::learn`]). A page whose cluster is smaller than
//! [`SiteOptions::min_cluster`] gets no model: too few pages to tell the
//! template's text from a coincidence.

use std::sync::Arc;

use crate::document::Document;

use super::model::{segment_texts, ModelBuilder, TemplateModel, DEFAULT_SHARE};
use super::{cluster, groups, Distance, PageShape, DEFAULT_SHINGLE};

/// How a collection is clustered and its models learned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiteOptions {
    /// The structural distance. Default CP, the paper's recommendation
    /// (the three set distances separate sites equally well, CP is the
    /// cheapest; Gottron 2008, S-0 §5).
    pub distance: Distance,
    /// The single-linkage threshold. Default: the distance's
    /// [`Distance::default_threshold`].
    pub threshold: f64,
    /// Shingle length for CPS and CTSS. Default [`DEFAULT_SHINGLE`] (10),
    /// calibrated on the dev sites \[I, `docs/site-templates.md`\].
    pub shingle: usize,
    /// Smallest cluster that gets a model. Default 3 \[I\]: with two
    /// pages, "more than a third" means "on both", and a shared related
    /// link becomes template.
    pub min_cluster: usize,
    /// The DF cut as a share of the cluster. Default 1/3 (Gottron 2008, S-0 §7).
    pub share: f64,
}

impl Default for SiteOptions {
    fn default() -> SiteOptions {
        SiteOptions {
            distance: Distance::Cp,
            threshold: Distance::Cp.default_threshold(),
            shingle: DEFAULT_SHINGLE,
            min_cluster: 3,
            share: DEFAULT_SHARE,
        }
    }
}

impl SiteOptions {
    /// These options with `distance` and its default threshold.
    pub fn with_distance(mut self, distance: Distance) -> SiteOptions {
        self.distance = distance;
        self.threshold = distance.default_threshold();
        self
    }
}

/// What clustering and learning need of one page.
#[derive(Debug, Clone, Default)]
pub struct PageSummary {
    /// Its structure.
    pub shape: PageShape,
    /// Its distinct text segments, normalised.
    pub segments: Vec<String>,
}

impl PageSummary {
    /// The summary of `doc`.
    pub fn of(doc: &Document, options: &SiteOptions) -> PageSummary {
        PageSummary {
            shape: PageShape::of(doc, options.distance, options.shingle),
            segments: segment_texts(doc),
        }
    }

    /// Is `other` a copy of this page rather than another page built on
    /// the same template? Two pages of one template share the template's
    /// text and differ in their content; a mirror (the same lesson under
    /// `instructor/`, a print view, a page under two URLs) shares nearly
    /// all of it. A mirror in a training set doubles the document
    /// frequency of the page's own content, which then passes the DF cut
    /// as template text in a small cluster. Measured as the Jaccard
    /// similarity of the two pages' segment sets, each segment weighted by
    /// its words (so a long content paragraph outweighs a menu entry), at
    /// least [`MIRROR_SIMILARITY`].
    pub fn is_mirror_of(&self, other: &PageSummary) -> bool {
        weighted_jaccard(&self.segments, &other.segments) >= MIRROR_SIMILARITY
    }
}

/// Word-weighted segment overlap above which two pages are one page's
/// copies (\[I\]: lesson pages and their instructor copies on the dev sites
/// score above 0.95, pages of one template with a short page between them
/// below 0.6).
pub const MIRROR_SIMILARITY: f64 = 0.9;

/// Jaccard similarity of two sets of distinct segments, each weighted by
/// its word count.
fn weighted_jaccard(a: &[String], b: &[String]) -> f64 {
    let weight = |s: &str| s.split_whitespace().count().max(1);
    let b_set: std::collections::HashSet<&str> = b.iter().map(String::as_str).collect();
    let a_total: usize = a.iter().map(|s| weight(s)).sum();
    let b_total: usize = b.iter().map(|s| weight(s)).sum();
    let shared: usize = a.iter().filter(|s| b_set.contains(s.as_str())).map(|s| weight(s)).sum();
    let union = a_total + b_total - shared;
    if union == 0 {
        return 0.0;
    }
    shared as f64 / union as f64
}

/// The clusters of a collection and the model of each.
#[derive(Debug, Clone, Default)]
pub struct SiteTemplates {
    /// The cluster of each page.
    pub labels: Vec<usize>,
    /// Pages per cluster.
    pub sizes: Vec<usize>,
    /// The model of each cluster (`None` below the minimum size).
    pub models: Vec<Option<Arc<TemplateModel>>>,
}

impl SiteTemplates {
    /// Clusters the pages and learns a model per large enough cluster.
    /// `summaries[i]` is `None` for a page that could not be read or
    /// parsed: it is a cluster of its own. `names` name the pages in the
    /// models' `sources` (may be empty).
    pub fn learn(
        summaries: &[Option<PageSummary>],
        names: &[String],
        options: &SiteOptions,
    ) -> SiteTemplates {
        // Cluster the pages that parsed; the others stay alone.
        let present: Vec<usize> =
            (0..summaries.len()).filter(|&i| summaries[i].is_some()).collect();
        let shapes: Vec<PageShape> = present
            .iter()
            .filter_map(|&i| summaries[i].as_ref().map(|s| s.shape.clone()))
            .collect();
        let inner = cluster(&shapes, options.distance, options.threshold);
        let mut labels = vec![usize::MAX; summaries.len()];
        for (k, &i) in present.iter().enumerate() {
            labels[i] = inner[k];
        }
        let first_alone = inner.iter().max().map_or(0, |m| m + 1);
        for (next, l) in (first_alone..).zip(labels.iter_mut().filter(|l| **l == usize::MAX)) {
            *l = next;
        }
        let clusters = groups(&labels);
        let sizes: Vec<usize> = clusters.iter().map(Vec::len).collect();
        let models = clusters
            .iter()
            .map(|members| {
                if members.len() < options.min_cluster.max(2) {
                    return None;
                }
                let mut builder = ModelBuilder::new();
                for &i in members {
                    let Some(summary) = &summaries[i] else { continue };
                    builder.add_segments(
                        summary.segments.iter().map(String::as_str),
                        names.get(i).map(String::as_str),
                    );
                }
                Some(Arc::new(builder.finish(options.share)))
            })
            .collect();
        SiteTemplates { labels, sizes, models }
    }

    /// The model for page `i`, if its cluster has one.
    pub fn model_of(&self, i: usize) -> Option<&Arc<TemplateModel>> {
        self.labels.get(i).and_then(|&l| self.models.get(l)).and_then(Option::as_ref)
    }

    /// The size of page `i`'s cluster.
    pub fn cluster_size(&self, i: usize) -> usize {
        self.labels.get(i).and_then(|&l| self.sizes.get(l)).copied().unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    #[test]
    fn a_copy_is_a_mirror_and_a_sibling_page_is_not() {
        let options = SiteOptions::default();
        let menu =
            "<ul><li><a href=/a>Home</a><li><a href=/b>Lessons</a><li><a href=/c>About us</a></ul>";
        let page = |body: &str| PageSummary::of(&doc(&format!("{menu}{body}")), &options);
        let text = "<h1>Not found</h1><p>We cannot find the page you are looking for today; \
                    go back to the previous page or use the menu to find another lesson.</p>";
        let key = page(text);
        let copy = page(&format!("{text}<p>Instructor view</p>"));
        let sibling =
            page("<h1>Loops</h1><p>A loop runs the same commands for each file in a list.</p>");
        assert!(key.is_mirror_of(&copy));
        assert!(copy.is_mirror_of(&key));
        assert!(!key.is_mirror_of(&sibling));
        assert!(!PageSummary::default().is_mirror_of(&PageSummary::default()));
    }

    #[test]
    fn two_sites_two_models_and_a_stray_page_without_one() {
        let news = |i: usize| {
            doc(&format!(
                "<div id=top><ul><li><a href=/>Home</a></li><li><a href=/w>World</a></li></ul></div>\
                 <div class=story><h1>Story {i}</h1><p>Text of story {i}.</p></div>\
                 <div class=foot><p>News Corp</p></div>"
            ))
        };
        let blog = |i: usize| {
            doc(&format!(
                "<header><h2>My blog</h2></header><article><section><p>Post {i}</p>\
                 <p>More of post {i}</p></section></article><aside><ol><li>Archive</li></ol></aside>"
            ))
        };
        let mut docs: Vec<Document> = Vec::new();
        for i in 0..4 {
            docs.push(news(i));
            docs.push(blog(i));
        }
        docs.push(doc("<table><tr><td><font>Old page</font></td></tr></table>"));
        let options = SiteOptions::default();
        let mut summaries: Vec<Option<PageSummary>> =
            docs.iter().map(|d| Some(PageSummary::of(d, &options))).collect();
        summaries.push(None); // an unreadable page
        let site = SiteTemplates::learn(&summaries, &[], &options);
        assert_eq!(site.labels, vec![0, 1, 0, 1, 0, 1, 0, 1, 2, 3]);
        assert_eq!(site.sizes, vec![4, 4, 1, 1]);
        let news_model = site.model_of(0).expect("news model");
        assert!(news_model.df("Home") == 4 && news_model.df("My blog") == 0);
        assert!(site.model_of(1).is_some_and(|m| m.df("Archive") == 4));
        assert!(site.model_of(8).is_none() && site.model_of(9).is_none());
        assert_eq!(site.cluster_size(9), 1);
    }
}
