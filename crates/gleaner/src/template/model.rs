//! The template model of a cluster of pages: which text is the site's
//! and not the page's (Gottron 2008, S-0 §6–7; `docs/algorithms.md#the-template-model`
//! step D).
//!
//! A *segment* is a visible DOM text node (the paper's), and also the
//! text a block-level element holds itself (its inline descendants
//! included, nested blocks not) \[I\], both trimmed and
//! whitespace-collapsed. Text-node segments catch template text that
//! shares a block with page text (a menu in a table cell with the date);
//! block segments catch template text that the markup splits into
//! pieces. Text-node segments also mark fragments of articles ("The",
//! ", " between two links): [`Templated`](super::Templated) puts those
//! back when the rest of their paragraph is content. The document frequency `DF(s)` of a segment
//! is the number of the cluster's pages that contain it. A segment is
//! template text when `DF(s) > share · pages`, with `share` = 1/3 (Gottron 2008, S-0
//! §7): navigation labels, footers, column headings, copyright lines, the
//! site's slogans. A model marks those segments in any page of its site,
//! including pages it was not learned from.
//!
//! A model is learned once and saved ([`TemplateModel::to_json`]); it
//! keeps every segment that occurs on two or more pages with its DF, so
//! the cut can be moved later without relearning.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::document::{Document, NodeFlags, NodeId};
use crate::error::{Error, Result};
use crate::extract::lqf::BlockOwnText;

use crate::hash::hash_bytes;

/// The file format's name, the first thing a model file says.
pub const MODEL_FORMAT: &str = "gleaner-template-model";
/// The version of the model file format this library reads and writes.
pub const MODEL_VERSION: u32 = 1;
/// The largest model file read, in bytes: 256 MiB. A model holds the
/// segments on two or more of its pages, a few kilobytes for a site's
/// template and a few megabytes for thousands of pages of a large one;
/// its parse needs a few times its size in memory, so anything larger is
/// not a model worth that memory (`/dev/zero`, a disk image).
pub const MAX_MODEL_BYTES: usize = 256 << 20;
/// The default share of a cluster's pages a segment must exceed to be
/// template text: one third (Gottron 2008, S-0 §7).
pub const DEFAULT_SHARE: f64 = 1.0 / 3.0;

/// A segment of the template, with its document frequency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemplateSegment {
    /// The normalised text.
    pub text: String,
    /// On how many of the model's pages it occurs.
    pub df: u32,
}

/// What a cluster's pages have in common. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemplateModel {
    format: String,
    version: u32,
    /// Pages the model was learned from.
    pub pages: u32,
    /// The DF cut as a share of `pages`.
    pub share: f64,
    /// Names of the pages it was learned from (file names, URLs), if
    /// known.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Every segment on two or more pages, most frequent first.
    pub segments: Vec<TemplateSegment>,
    #[serde(skip)]
    index: HashMap<u64, u32>,
}

/// Learns a [`TemplateModel`] one page at a time (pages need not stay in
/// memory).
#[derive(Debug, Clone, Default)]
pub struct ModelBuilder {
    pages: u32,
    sources: Vec<String>,
    counts: HashMap<u64, (String, u32)>,
}

impl ModelBuilder {
    /// An empty builder.
    pub fn new() -> ModelBuilder {
        ModelBuilder::default()
    }

    /// Counts the segments of one page (each once per page).
    pub fn add(&mut self, doc: &Document, source: Option<&str>) {
        let texts = segment_texts(doc);
        self.add_segments(texts.iter().map(String::as_str), source);
    }

    /// Counts one page given by its normalised segments (each once per
    /// page, repeats ignored).
    pub fn add_segments<'a>(
        &mut self,
        texts: impl IntoIterator<Item = &'a str>,
        source: Option<&str>,
    ) {
        self.pages += 1;
        if let Some(s) = source {
            self.sources.push(s.to_string());
        }
        let mut seen: std::collections::HashSet<u64> = Default::default();
        for text in texts {
            let key = hash_bytes(text.as_bytes());
            if seen.insert(key) {
                self.counts.entry(key).or_insert_with(|| (text.to_string(), 0)).1 += 1;
            }
        }
    }

    /// Pages counted so far.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// The model, with the DF cut at `share` of the pages.
    pub fn finish(self, share: f64) -> TemplateModel {
        let mut segments: Vec<TemplateSegment> = self
            .counts
            .into_values()
            .filter(|(_, df)| *df >= 2)
            .map(|(text, df)| TemplateSegment { text, df })
            .collect();
        segments.sort_by(|a, b| b.df.cmp(&a.df).then_with(|| a.text.cmp(&b.text)));
        TemplateModel::new(self.pages, share, self.sources, segments)
    }
}

impl TemplateModel {
    fn new(
        pages: u32,
        share: f64,
        sources: Vec<String>,
        segments: Vec<TemplateSegment>,
    ) -> TemplateModel {
        let mut model = TemplateModel {
            format: MODEL_FORMAT.to_string(),
            version: MODEL_VERSION,
            pages,
            share,
            sources,
            segments,
            index: HashMap::new(),
        };
        model.reindex();
        model
    }

    /// Learns a model from the pages of one cluster, with the paper's
    /// one-third cut.
    pub fn learn<'a>(pages: impl IntoIterator<Item = &'a Document>) -> TemplateModel {
        let mut builder = ModelBuilder::new();
        for doc in pages {
            builder.add(doc, None);
        }
        builder.finish(DEFAULT_SHARE)
    }

    fn reindex(&mut self) {
        self.index = self.segments.iter().map(|s| (hash_bytes(s.text.as_bytes()), s.df)).collect();
    }

    /// The smallest DF that makes a segment template text.
    pub fn min_df(&self) -> u32 {
        // DF > share · pages, and a segment on one page is never template.
        ((f64::from(self.pages) * self.share).floor() as u32 + 1).max(2)
    }

    /// The template segments: those at or above [`min_df`](Self::min_df).
    pub fn template_segments(&self) -> impl Iterator<Item = &TemplateSegment> {
        let min = self.min_df();
        self.segments.iter().filter(move |s| s.df >= min)
    }

    /// The document frequency of a (normalised) text in the model.
    pub fn df(&self, text: &str) -> u32 {
        self.index.get(&hash_bytes(text.as_bytes())).copied().unwrap_or(0)
    }

    /// The text nodes of `doc` that are template text, as a mask indexed
    /// by node id. Text in `<pre>` (code) is never template text, nor the
    /// page's headline (an `<h1>` whose text is the page's title).
    pub fn mark(&self, doc: &Document) -> Vec<bool> {
        let min = self.min_df();
        let mut marks = vec![false; doc.len()];
        let own = BlockOwnText::compute(doc);
        let mut template_block = vec![false; doc.len()];
        for (block, text) in block_segments(doc, &own) {
            if self.df(&text) >= min {
                template_block[block.index()] = true;
            }
        }
        for id in doc.text_nodes() {
            if template_block[own.owner[id.index()].index()] {
                marks[id.index()] = true;
            }
        }
        for (id, text) in node_segments(doc) {
            if self.df(&text) >= min {
                marks[id.index()] = true;
            }
        }
        // Code is content, however often a line recurs (`$ pwd`).
        for id in doc.text_nodes() {
            if doc.flags(id).contains(NodeFlags::IN_PRE) {
                marks[id.index()] = false;
            }
        }
        // The page's own headline is its own, even when its menu entry
        // repeats it on every page: an `<h1>` whose text is the title.
        if let Some(title) = crate::metadata::title(doc) {
            for h1 in doc.ids().filter(|&id| doc.is(id, markup5ever::local_name!("h1"))) {
                if crate::metadata::same_heading(&title, &doc.text_content(h1)) {
                    for id in doc.subtree(h1) {
                        marks[id.index()] = false;
                    }
                }
            }
        }
        marks
    }

    /// The model as JSON.
    ///
    /// # Errors
    /// Never in practice (the model is plain data); kept a `Result` for
    /// the serialiser's sake.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::InvalidModel(e.to_string()))
    }

    /// Reads a model written by [`to_json`](Self::to_json).
    ///
    /// # Errors
    /// [`Error::InvalidModel`] for anything else: another file, another
    /// format version, damaged JSON, impossible values, more than
    /// [`MAX_MODEL_BYTES`].
    pub fn from_json(bytes: &[u8]) -> Result<TemplateModel> {
        if bytes.len() > MAX_MODEL_BYTES {
            return Err(Error::InvalidModel(format!(
                "{} bytes, more than the {} MiB a model may be",
                bytes.len(),
                MAX_MODEL_BYTES >> 20
            )));
        }
        #[derive(Deserialize)]
        struct Header {
            format: Option<String>,
            version: Option<u32>,
        }
        let header: Header = serde_json::from_slice(bytes).map_err(|e| {
            Error::InvalidModel(format!("not a gleaner template model (no JSON: {e})"))
        })?;
        if header.format.as_deref() != Some(MODEL_FORMAT) {
            return Err(Error::InvalidModel(format!(
                "not a gleaner template model (format {:?})",
                header.format.unwrap_or_default()
            )));
        }
        if header.version != Some(MODEL_VERSION) {
            let version = header.version.map_or("none".to_string(), |v| v.to_string());
            return Err(Error::InvalidModel(format!(
                "model format version {version}, this gleaner reads version {MODEL_VERSION}"
            )));
        }
        let mut model: TemplateModel = serde_json::from_slice(bytes)
            .map_err(|e| Error::InvalidModel(format!("damaged model: {e}")))?;
        if model.pages == 0 || !(0.0..1.0).contains(&model.share) {
            return Err(Error::InvalidModel(format!(
                "impossible values: {} pages, share {}",
                model.pages, model.share
            )));
        }
        if let Some(s) = model.segments.iter().find(|s| s.df > model.pages) {
            return Err(Error::InvalidModel(format!(
                "segment {:?} is on {} of {} pages",
                s.text, s.df, model.pages
            )));
        }
        model.reindex();
        Ok(model)
    }
}

/// The segments of `doc`: each block with visible text of its own, and
/// that text normalised, in document order.
pub fn segments(doc: &Document) -> Vec<(NodeId, String)> {
    block_segments(doc, &BlockOwnText::compute(doc))
}

/// Every segment text of `doc`, block and text-node segments alike (what
/// a model counts).
pub fn segment_texts(doc: &Document) -> Vec<String> {
    let mut texts: Vec<String> = segments(doc).into_iter().map(|(_, t)| t).collect();
    texts.extend(node_segments(doc).map(|(_, t)| t));
    texts.sort_unstable();
    texts.dedup();
    texts
}

/// The visible, non-blank text nodes of `doc` with their normalised text.
fn node_segments(doc: &Document) -> impl Iterator<Item = (NodeId, String)> + '_ {
    doc.text_nodes().filter_map(|id| {
        let stats = doc.stats(id);
        if !stats.flags.contains(NodeFlags::VISIBLE) || stats.chars == 0 {
            return None;
        }
        let mut text = String::new();
        crate::document::push_collapsed(&mut text, doc.text(id));
        let end = text.trim_end().len();
        text.truncate(end);
        Some((id, text))
    })
}

fn block_segments(doc: &Document, own: &BlockOwnText) -> Vec<(NodeId, String)> {
    let mut text: std::collections::BTreeMap<NodeId, String> = Default::default();
    // Blank text nodes count too: they are the space between two links.
    for id in doc.ids().filter(|&id| doc.is_text(id)) {
        if doc.flags(id).contains(NodeFlags::VISIBLE) {
            crate::document::push_collapsed(
                text.entry(own.owner[id.index()]).or_default(),
                doc.text(id),
            );
        }
    }
    text.into_iter()
        .filter_map(|(block, mut t)| {
            let end = t.trim_end().len();
            t.truncate(end);
            (!t.is_empty()).then_some((block, t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn page(body: &str) -> Document {
        let html = format!(
            "<body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>{body}\
             <footer>© 2024 Example   Corp</footer></body>"
        );
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    fn marked_text(model: &TemplateModel, doc: &Document) -> Vec<String> {
        let marks = model.mark(doc);
        segments(doc)
            .into_iter()
            .filter(|(block, _)| doc.subtree(*block).any(|id| doc.is_text(id) && marks[id.index()]))
            .map(|(_, t)| t)
            .collect()
    }

    #[test]
    fn text_on_more_than_a_third_of_the_pages_is_template() {
        let pages: Vec<Document> = (0..6)
            .map(|i| {
                // "Breaking" on 2 of 6 pages (= a third: not template),
                // "Opinion" on 3 of 6 (more than a third: template).
                let extra = match i {
                    0 | 1 => "<p>Breaking</p><p>Opinion</p>",
                    2 => "<p>Opinion</p>",
                    _ => "",
                };
                page(&format!("<p>Story number {i} has its own words.</p>{extra}"))
            })
            .collect();
        let model = TemplateModel::learn(&pages);
        assert_eq!((model.pages, model.min_df()), (6, 3));
        let fresh = page("<p>A new story.</p><p>Breaking</p><p>Opinion</p>");
        assert_eq!(marked_text(&model, &fresh), ["Home", "News", "Opinion", "© 2024 Example Corp"]);
    }

    #[test]
    fn an_unrelated_page_has_nothing_important_marked() {
        let pages: Vec<Document> =
            (0..5).map(|i| page(&format!("<p>Story {i} is about something else.</p>"))).collect();
        let model = TemplateModel::learn(&pages);
        let other = Document::parse(
            b"<h1>Recipes</h1><p>Mix the flour and the water, then wait an hour.</p><a href=/>Home</a>",
            &ParseOptions::default(),
        )
        .expect("parse");
        assert_eq!(marked_text(&model, &other), ["Home"]);
    }

    #[test]
    fn models_round_trip_through_json() {
        let pages: Vec<Document> = (0..4).map(|i| page(&format!("<p>Story {i}</p>"))).collect();
        let model = TemplateModel::learn(&pages);
        let json = model.to_json().expect("serialises");
        let back = TemplateModel::from_json(json.as_bytes()).expect("loads");
        assert_eq!(back, model);
        let doc = page("<p>Another</p>");
        assert_eq!(back.mark(&doc), model.mark(&doc));
    }

    #[test]
    fn corrupt_or_foreign_models_are_clear_errors() {
        let model = TemplateModel::learn(&[page("<p>a</p>"), page("<p>b</p>")]);
        let json = model.to_json().expect("serialises");
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"\x89PNG\r\n".to_vec(), "not a gleaner template model"),
            (b"{\"clusters\": []}".to_vec(), "not a gleaner template model"),
            (json.replace("\"version\":1", "\"version\":99").into_bytes(), "version"),
            (json.as_bytes()[..json.len() / 2].to_vec(), "not a gleaner template model"),
            (json.replace("\"pages\":2", "\"pages\":0").into_bytes(), "impossible"),
            (json.replace("\"df\":2", "\"df\":7").into_bytes(), "is on 7 of 2 pages"),
        ];
        for (bytes, expected) in cases {
            match TemplateModel::from_json(&bytes) {
                Err(Error::InvalidModel(m)) => assert!(m.contains(expected), "{m}"),
                other => panic!("{other:?} for {}", String::from_utf8_lossy(&bytes)),
            }
        }
    }
}
