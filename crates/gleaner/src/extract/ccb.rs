//! CCB, ACCB and TCCB — Content Code Blurring (Gottron, DEXA 2008
//! workshops, TIR'08; S-2, `docs/algorithms.md#ccb`).
//!
//! Reads the **source** as a *content code vector* (CCV): one entry per
//! character (CCB, ACCB) or per token (TCCB), 1 for content and 0 for
//! code. Every tag is code, everything else content, after the
//! normalisation of the slides: no comments, no `<script>`/`<style>`
//! elements, character references decoded (`&amp;` is one character),
//! whitespace runs collapsed to one character, and whitespace between two
//! tags dropped. The *content code ratio* is the CCV blurred with a
//! Gaussian, like a 1-D grey-scale image:
//!
//! ```text
//! CCR = G_σ ∗ CCV          G_σ(j) ∝ exp(−j²/2σ²), renormalised at the ends
//! content = { i : CCV[i] = 1 and CCR[i] ≥ t }
//! ```
//!
//! The slides repeat the blur until convergence; `k` passes of `G_σ` are
//! one pass of `G_{σ√k}`, so the repetition is an effective σ, applied
//! once here in O(n) with running-sum box filters.
//!
//! Fine-tuning \[S-2\]: *text-block maintenance* keeps a whole text block
//! (a maximal run of content entries between code entries) when any of its
//! entries passes the threshold; *anchors are ignored* in ACCB and TCCB:
//! `<a …>` and `</a>` contribute no entries (the link text stays content),
//! which keeps in-text links from cutting paragraphs. TCCB uses the word
//! and tag tokens of DSC instead of characters.
//!
//! Characters map back to DOM text nodes by majority of each node's
//! characters (tokens: words); a node's score is its mean CCR.
//!
//! ```
//! use gleaner::{extract::{Ccb, Extractor}, render, Document, ParseOptions};
//! let nav = "<li class=\"menu-item\"><a href=\"/section\">Sec</a></li>".repeat(30);
//! let text = "Plain words of the article go on and on here. ".repeat(30);
//! let html = format!("<ul>{nav}</ul><p>{text}</p><ul>{nav}</ul>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let out = render::text(&doc, &Ccb::default().extract(&doc));
//! assert!(out.starts_with("Plain words") && !out.contains("Sec"));
//! # Ok::<(), gleaner::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use markup5ever::local_name;

use super::extractor::Extractor;
use super::grouped_votes::GroupedVotes;
use super::params::{config, Range};
use super::signal::{for_each_blurred_binary, gaussian_blur_binary};
use super::Curve;
use crate::document::{for_each_decoded_char, Document, NodeId, Source, SourceToken};
use crate::error::{Error, Result};
use crate::selection::{NodeVotes, Selection};

/// The three versions of the algorithm [S-2 "Versions of the Algorithm"].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CcbVariant {
    /// Character-based CCV, anchors are code (the basic version).
    #[default]
    Ccb,
    /// Character-based CCV, anchor tags ignored.
    Accb,
    /// Token-based CCV, anchor tags ignored.
    Tccb,
}

impl CcbVariant {
    /// The registry name.
    pub fn name(self) -> &'static str {
        match self {
            CcbVariant::Ccb => "ccb",
            CcbVariant::Accb => "accb",
            CcbVariant::Tccb => "tccb",
        }
    }

    fn ignores_anchors(self) -> bool {
        self != CcbVariant::Ccb
    }
}

impl FromStr for CcbVariant {
    type Err = Error;

    fn from_str(s: &str) -> Result<CcbVariant> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "ccb" => CcbVariant::Ccb,
            "accb" => CcbVariant::Accb,
            "tccb" => CcbVariant::Tccb,
            _ => return Err(Error::InvalidConfig(format!("ccb: unknown variant {s:?}"))),
        })
    }
}

impl fmt::Display for CcbVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

config! {
    /// Parameters of [`Ccb`]. The slides name a threshold and a neighbourhood
    /// size but not their values (`docs/algorithms.md#ccb`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct CcbConfig for "ccb" {
        /// Effective standard deviation of the Gaussian blur, in CCV entries
        /// (characters, or tokens for TCCB). Default 40 characters [I, a weak
        /// recollection of "ACCB-40"], 30 tokens for TCCB [R: third-party
        /// Python CCB, `gaussian_filter1d(ccv, sigma=30)`].
        sigma: f64 = 40.0, range Range::closed(0.0, 1e6),
            source "I (characters); R: third-party Python CCB (tokens)";
        /// Content entries with a CCR at or above this are kept. Default 0.7
        /// for characters \[I\], 0.75 for tokens \[R: third-party Python CCB\].
        threshold: f64 = 0.7, range Range::closed(0.0, 1.0),
            source "I (characters); R: third-party Python CCB (tokens)";
        /// Keep a whole text block when any of its entries passes the
        /// threshold [S-2 "maintain text blocks"]. Default on.
        keep_blocks: bool = true, source "S-2";
        /// Box-filter passes approximating the Gaussian (3 is within a few per
        /// cent of it). Default 3 \[I\].
        box_passes: usize = 3, range Range::closed(1.0, 8.0), source "I";
    }
    fixed {
        /// Which CCV: characters with anchors (CCB), characters without
        /// anchors (ACCB) or tokens without anchors (TCCB) \[S-2\]; the
        /// registry's `ccb`, `accb` and `tccb`.
        variant: CcbVariant = CcbVariant::Ccb;
    }
}

impl CcbConfig {
    /// The defaults of one variant (σ and threshold differ for TCCB).
    pub fn for_variant(variant: CcbVariant) -> CcbConfig {
        let (sigma, threshold) = match variant {
            CcbVariant::Ccb | CcbVariant::Accb => (40.0, 0.7),
            CcbVariant::Tccb => (30.0, 0.75),
        };
        CcbConfig { variant, sigma, threshold, ..CcbConfig::default() }
    }
}

/// Content Code Blurring (CCB, ACCB or TCCB). See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ccb {
    config: CcbConfig,
}

/// A run of content entries from one source text token: its characters
/// (CCB, ACCB) or its words (TCCB).
///
/// 12 bytes: the node is a `u32` with [`NO_NODE`] for none, and the
/// weight of a character span is in [`Ccv::weights`] (a word span's
/// entries vote alone), as a page of `<p>x</p>` has a span for every
/// other node (issue 13).
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
    /// The text node the token made, or [`NO_NODE`].
    node: u32,
}

/// [`Span::node`] of a token that made no node.
const NO_NODE: u32 = u32::MAX;

impl Span {
    fn new(start: u32, end: u32, node: Option<NodeId>) -> Span {
        Span { start, end, node: node.map_or(NO_NODE, |n| n.0) }
    }

    /// The text node the span votes for.
    fn node(&self) -> Option<NodeId> {
        (self.node != NO_NODE).then_some(NodeId(self.node))
    }
}

/// The content code vector and its content spans, in source order.
#[derive(Debug, Default)]
struct Ccv {
    /// 1 for content, 0 for code: a byte an entry, as the blur reads
    /// them ([`gaussian_blur_binary`]).
    values: Vec<u8>,
    spans: Vec<Span>,
    /// Votes of each span when it votes as a whole: its non-whitespace
    /// characters (empty when [`Ccv::entries_vote`]).
    weights: Vec<u32>,
    /// Each entry of a span votes alone with its own CCR (TCCB: an entry
    /// is a word, the unit of the token-based vector), instead of the
    /// span voting as a whole with its mean CCR (characters).
    entries_vote: bool,
}

/// Characters of a tag, whitespace runs counted once (`docs/algorithms.md#source-normalisation`
/// step 3 applies to the whole vector \[I\]). Counts bytes that start a
/// UTF-8 character; whitespace inside tags is ASCII.
fn collapsed_len(s: &str) -> usize {
    let mut n = 0;
    let mut space = false;
    for &b in s.as_bytes() {
        let ws = b.is_ascii_whitespace();
        if (b & 0xC0) != 0x80 && !(ws && space) {
            n += 1;
        }
        space = ws;
    }
    n
}

/// The character-based CCV (CCB, ACCB).
fn char_ccv(source: &Source, ignore_anchors: bool) -> Ccv {
    let mut ccv = Ccv {
        values: Vec::with_capacity(source.text().len()),
        spans: Vec::new(),
        weights: Vec::new(),
        entries_vote: false,
    };
    // Was the last entry a collapsed whitespace content character?
    let mut space = false;
    for (_, token) in source.content_tokens() {
        match source.tag_name(token) {
            Some(name) => {
                // Step 2 [S-2]: anchors are ignored in ACCB, like whitespace:
                // they contribute no entries [I: nothing rather than a space].
                if ignore_anchors && *name == local_name!("a") {
                    continue;
                }
                // Step 2 [S-2]: all tags are code, one 0 per character.
                let len = collapsed_len(source.token_text(token));
                ccv.values.resize(ccv.values.len() + len, 0);
                space = false;
            }
            _ => {
                let raw = source.token_text(token);
                // Deviation: whitespace alone between two tags is dropped
                // ("superfluous white space" [S-2]) because it is not text
                // and would make markup look like content.
                if raw.chars().all(char::is_whitespace) {
                    continue;
                }
                let start = ccv.values.len() as u32;
                let mut weight = 0u32;
                // Step 1 [S-2]: entities are decoded before counting and
                // whitespace runs collapse to one content character.
                for_each_decoded_char(raw, |c| {
                    if c.is_whitespace() {
                        if !space {
                            ccv.values.push(1);
                            space = true;
                        }
                    } else {
                        ccv.values.push(1);
                        weight = weight.saturating_add(1);
                        space = false;
                    }
                });
                let end = ccv.values.len() as u32;
                if end > start {
                    ccv.spans.push(Span::new(start, end, token.node()));
                    ccv.weights.push(weight);
                }
            }
        }
    }
    ccv
}

/// The token-based CCV (TCCB): the word/tag units of DSC without `<a>`
/// ([`Source::units`]), read straight from the source tokens: one span
/// per text token, one entry per word.
fn token_ccv(doc: &Document) -> Ccv {
    let source = doc.source();
    // Room for an entry per token (one per tag; a text token's words,
    // none for the whitespace between tags): the vector grows only on
    // pages with more words than tokens (issue 12).
    let mut ccv = Ccv {
        values: Vec::with_capacity(source.tokens().len()),
        entries_vote: true,
        ..Ccv::default()
    };
    source.for_each_content_token(|token, name| match name {
        Some(name) => {
            if *name != local_name!("a") {
                ccv.values.push(0);
            }
        }
        None => {
            // Most text tokens are the whitespace between two tags: no
            // entry, no span.
            let words = token_words(doc, token);
            if words > 0 {
                let start = ccv.values.len();
                ccv.values.resize(start + words, 1);
                let (start, end) = (start as u32, ccv.values.len() as u32);
                ccv.spans.push(Span::new(start, end, token.node()));
            }
        }
    });
    ccv
}

/// The words of a text token. Most text tokens made a visible text node
/// of exactly their text (no character reference, nothing merged), whose
/// words the statistics counted already: those are read, not counted
/// again; most others are the whitespace between two tags, which has
/// none (issue 12). Inlined (`#[inline(always)]`) into the loops of its
/// two callers, [`token_ccv`] and [`tccb_node_ratios`], which call it
/// for every text token.
///
/// The token's bytes are compared and tested as bytes, without the
/// character-boundary tests of cutting the text (issue 12); only a text
/// that needs counting is cut as text.
#[inline(always)]
fn token_words(doc: &Document, token: SourceToken) -> usize {
    let source = doc.source();
    let bytes =
        source.text().as_bytes().get(token.start as usize..token.end as usize).unwrap_or_default();
    match token.node() {
        Some(node) if doc.is_visible_text(node) && doc.text(node).as_bytes() == bytes => {
            doc.stats(node).words as usize
        }
        None if crate::document::is_ascii_blank(bytes) => 0,
        _ => count_words(source.token_text(token)),
    }
}

/// The number of words of `text`, as [`split_words`] splits it, counted
/// without splitting (the statistics' counter).
///
/// [`split_words`]: crate::document::split_words
fn count_words(text: &str) -> usize {
    crate::document::count_text(text).1 as usize
}

/// Everything one run computes. The CCV's values are consumed by the
/// blur (only its spans are kept), and each run keeps only the per-span
/// decision it uses (issue 13: a page of `<p>x</p>` has a span for every
/// other node).
struct Analysis {
    ccv: Ccv,
    ccr: Vec<f32>,
    /// Per span, with text-block maintenance: kept as content (empty
    /// without).
    keep: Vec<bool>,
    /// Per span, without it: entries at or above the threshold (empty
    /// with).
    passing: Vec<u32>,
    blocks: bool,
    threshold: f32,
}

impl Ccb {
    /// CCB with this configuration.
    pub fn new(config: CcbConfig) -> Ccb {
        Ccb { config }
    }

    /// The configuration.
    pub fn config(&self) -> &CcbConfig {
        &self.config
    }

    /// The content code ratio along the normalised source, with the
    /// threshold and the kept content entries.
    pub fn curve(&self, doc: &Document) -> Curve {
        let a = self.analyse(doc, true);
        let mut selected = vec![false; a.ccr.len()];
        for (i, span) in a.ccv.spans.iter().enumerate() {
            let k = a.keep.get(i).copied().unwrap_or(false);
            let range = span.start as usize..span.end as usize;
            if let (Some(s), Some(ccr)) = (selected.get_mut(range.clone()), a.ccr.get(range)) {
                for (x, &v) in s.iter_mut().zip(ccr) {
                    *x = if a.blocks { k } else { v >= a.threshold };
                }
            }
        }
        let x_label = match self.config.variant {
            CcbVariant::Tccb => "token (anchors ignored)",
            CcbVariant::Accb => "character (anchors ignored)",
            CcbVariant::Ccb => "character",
        };
        Curve::new(x_label, "content code ratio")
            .series(
                format!("CCR (σ = {})", self.config.sigma),
                a.ccr.iter().map(|&v| f64::from(v)).collect(),
            )
            .threshold(Some(self.config.threshold))
            .selected(selected)
    }

    /// Steps 1–4 of the slides. Without `decide`, the spans are not
    /// decided (no text-block maintenance): their CCRs are all that
    /// [`Ccb::node_ratios`] reads, and a vote's weight and CCR do not
    /// depend on the decision.
    fn analyse(&self, doc: &Document, decide: bool) -> Analysis {
        let c = &self.config;
        // Steps 1–2 [S-2]: normalise and build the CCV.
        let mut ccv = match c.variant {
            CcbVariant::Tccb => token_ccv(doc),
            v => char_ccv(doc.source(), v.ignores_anchors()),
        };
        ccv.spans.shrink_to_fit();
        // Step 3 [S-2]: blur "until convergence" = one blur with the
        // effective σ [I], in O(n).
        let values = std::mem::take(&mut ccv.values);
        let ccr = gaussian_blur_binary(&values, c.sigma, c.box_passes);
        drop(values);
        // Step 4 [S-2]: content with CCR ≥ t; text-block maintenance keeps
        // a block when any entry passes.
        let t = c.threshold as f32;
        let entries = |s: &Span| ccr.get(s.start as usize..s.end as usize).unwrap_or(&[]);
        let mut keep = Vec::new();
        let mut passing = Vec::new();
        if c.keep_blocks && decide {
            keep = vec![false; ccv.spans.len()];
            let span_max = |s: &Span| entries(s).iter().copied().fold(f32::MIN, f32::max);
            let mut i = 0;
            while i < ccv.spans.len() {
                // A text block: spans with no code entry between them.
                let mut j = i + 1;
                while j < ccv.spans.len() && ccv.spans[j].start == ccv.spans[j - 1].end {
                    j += 1;
                }
                let pass = ccv.spans[i..j].iter().any(|s| span_max(s) >= t);
                keep[i..j].iter_mut().for_each(|k| *k = pass);
                i = j;
            }
        } else if !c.keep_blocks {
            // Without block maintenance every entry is decided alone
            // (the counts weigh a character span's votes).
            passing = ccv
                .spans
                .iter()
                .map(|s| entries(s).iter().filter(|&&v| v >= t).count() as u32)
                .collect();
        }
        Analysis { ccv, ccr, keep, passing, blocks: c.keep_blocks, threshold: t }
    }
}

impl Analysis {
    /// Every vote of the run, in source order: `(node, weight, content,
    /// CCR)`.
    fn for_each_vote(&self, mut vote: impl FnMut(NodeId, u32, bool, f64)) {
        for (i, s) in self.ccv.spans.iter().enumerate() {
            let Some(node) = s.node() else { continue };
            self.span_votes(i, |weight, yes, ccr| vote(node, weight, yes, ccr));
        }
    }

    /// The votes of span `i`: `(weight, content, CCR)`. A character span
    /// votes as a whole with its mean CCR; with [`Ccv::entries_vote`]
    /// each entry votes alone. Without text-block maintenance the entries
    /// at or above the threshold vote content, the others code.
    fn span_votes(&self, i: usize, mut vote: impl FnMut(u32, bool, f64)) {
        let Some(s) = self.ccv.spans.get(i) else { return };
        let k = self.keep.get(i).copied().unwrap_or(false);
        let pass = self.passing.get(i).copied().unwrap_or(0);
        let entries = self.ccr.get(s.start as usize..s.end as usize).unwrap_or(&[]);
        if self.ccv.entries_vote {
            for &v in entries {
                // One entry: its mean is its CCR.
                let v = f64::from(v);
                if self.blocks {
                    vote(1, k, v);
                } else {
                    let pass = u32::from(v >= f64::from(self.threshold));
                    vote(pass, true, v);
                    vote(1 - pass, false, v);
                }
            }
            return;
        }
        let mean = if entries.is_empty() {
            0.0
        } else {
            entries.iter().map(|&v| f64::from(v)).sum::<f64>() / entries.len() as f64
        };
        if self.blocks {
            vote(self.ccv.weights.get(i).copied().unwrap_or(0).max(1), k, mean);
        } else {
            // One vote per entry, as the entries were decided alone.
            let all = entries.len() as u32;
            vote(pass, true, mean);
            vote(all.saturating_sub(pass), false, mean);
        }
    }
}

impl Ccb {
    /// The mean CCR of each node's votes, by node index (0 for nodes
    /// without any): the scores of [`Ccb::extract`]'s selection, without
    /// deciding the selection. `article` reads TCCB this way (issue 12).
    ///
    /// The votes are summed node by node, each node's in source order
    /// (the order [`NodeVotes`] adds them in, so the means are the same
    /// to the bit), without a sum per node of the document: the spans
    /// are visited sorted by node, which they already are unless the
    /// tree builder moved text (issue 13).
    ///
    /// TCCB's are computed in a compact form ([`tccb_node_ratios`]) unless
    /// the text was moved.
    pub(crate) fn node_ratios(&self, doc: &Document) -> Vec<f32> {
        if self.config.variant == CcbVariant::Tccb {
            if let Some(ratios) = tccb_node_ratios(doc, &self.config) {
                return ratios;
            }
        }
        self.node_ratios_by_spans(doc)
    }

    /// [`Ccb::node_ratios`] from the spans of [`Ccb::analyse`].
    fn node_ratios_by_spans(&self, doc: &Document) -> Vec<f32> {
        let a = self.analyse(doc, false);
        let mut ratios = vec![0f32; doc.len()];
        let spans = &a.ccv.spans;
        let voting = || spans.iter().enumerate().filter(|(_, s)| s.node != NO_NODE);
        if voting().map(|(_, s)| s.node).is_sorted() {
            mean_by_node(&a, voting().map(|(i, _)| i), &mut ratios);
        } else {
            let mut order: Vec<u32> = voting().map(|(i, _)| i as u32).collect();
            // Stable: a node's spans stay in source order.
            order.sort_by_key(|&i| spans.get(i as usize).map_or(NO_NODE, |s| s.node));
            mean_by_node(&a, order.iter().map(|&i| i as usize), &mut ratios);
        }
        ratios
    }
}

/// [`Ccb::node_ratios`] of TCCB, without [`Span`]s (issue 13: on a page
/// of `<p>x</p>`, they took 12 bytes a text node). `None` when the voting
/// text nodes do not come in document order (the tree builder moved
/// text), whose votes [`Ccb::node_ratios_by_spans`] sorts.
///
/// The vector is [`token_ccv`]'s; each text token's span is known by the
/// node it made and by a bit set on its first entry, and ends at the next
/// span's start or code entry. A TCCB entry votes alone with weight 1
/// (its CCR counted once, whether it passes the threshold or not), so a
/// node's ratio is the mean of its entries' CCRs, summed in source order
/// as [`mean_by_node`] sums them: the same bits. The blurred vector is
/// read as it comes ([`for_each_blurred_binary`]), never held whole, and
/// each node's mean is kept as its last entry is read.
fn tccb_node_ratios(doc: &Document, c: &CcbConfig) -> Option<Vec<f32>> {
    let source = doc.source();
    let mut values: Vec<u8> = Vec::with_capacity(source.tokens().len());
    // The node of each span, in source order.
    let mut nodes: Vec<u32> = Vec::new();
    // Bit `i % 64` of word `i / 64`: entry `i` starts a span.
    let mut starts: Vec<u64> = Vec::new();
    let mut last_voting = 0u32;
    let mut sorted = true;
    source.for_each_content_token(|token, name| match name {
        Some(name) => {
            if *name != local_name!("a") {
                values.push(0);
            }
        }
        None => {
            let words = token_words(doc, token);
            if words > 0 {
                let start = values.len();
                values.resize(start + words, 1);
                if starts.len() <= start / 64 {
                    starts.resize(start / 64 + 1, 0);
                }
                if let Some(word) = starts.get_mut(start / 64) {
                    *word |= 1 << (start % 64);
                }
                let node = token.node().map_or(NO_NODE, |n| n.0);
                if node != NO_NODE {
                    sorted &= node >= last_voting;
                    last_voting = node;
                }
                nodes.push(node);
            }
        }
    });
    if !sorted {
        return None;
    }
    // Each voting node's mean goes to `means` and the node to
    // `nodes[g]`, `g` counting the nodes done: never past a span still to
    // read, as each node has one at least. Room for a mean per span from
    // the start: no copy as it grows.
    let mut means: Vec<f32> = Vec::with_capacity(nodes.len());
    // The node being summed: (node, CCR sum, entries).
    let mut current: Option<(u32, f64, u64)> = None;
    // The node of the span being read, and the spans started.
    let (mut node, mut span) = (NO_NODE, 0);
    let mut entry = 0;
    let mut next_start = first_set_from(&starts, 0);
    // The blurred vector as it comes: no array of it (issue 13).
    for_each_blurred_binary(&values, c.sigma, c.box_passes, |chunk| {
        let kinds = values.get(entry..entry + chunk.len()).unwrap_or_default();
        for (i, (&kind, &v)) in (entry..).zip(kinds.iter().zip(chunk)) {
            if kind != 1 {
                continue;
            }
            if i == next_start {
                next_start = first_set_from(&starts, i + 1);
                node = nodes.get(span).copied().unwrap_or(NO_NODE);
                span += 1;
                if node != NO_NODE && current.is_none_or(|(n, _, _)| n != node) {
                    if let Some((n, sum, all)) = current.replace((node, 0.0, 0)) {
                        if let Some(slot) = nodes.get_mut(means.len()) {
                            *slot = n;
                            means.push(if all > 0 { (sum / all as f64) as f32 } else { 0.0 });
                        }
                    }
                }
            }
            if node != NO_NODE {
                if let Some((_, sum, all)) = current.as_mut() {
                    *sum += f64::from(v);
                    *all += 1;
                }
            }
        }
        entry += chunk.len();
    });
    if let Some((n, sum, all)) = current {
        if let Some(slot) = nodes.get_mut(means.len()) {
            *slot = n;
            means.push(if all > 0 { (sum / all as f64) as f32 } else { 0.0 });
        }
    }
    drop(values);
    drop(starts);
    nodes.truncate(means.len());
    nodes.shrink_to_fit();
    means.shrink_to_fit();
    let mut ratios = vec![0f32; doc.len()];
    for (&node, &mean) in nodes.iter().zip(&means) {
        if let Some(r) = ratios.get_mut(node as usize) {
            *r = mean;
        }
    }
    Some(ratios)
}

/// The first bit set in `bits` at `from` or after (`usize::MAX` for none).
fn first_set_from(bits: &[u64], from: usize) -> usize {
    let Some(&word) = bits.get(from / 64) else { return usize::MAX };
    let here = word & (u64::MAX << (from % 64));
    if here != 0 {
        return from / 64 * 64 + here.trailing_zeros() as usize;
    }
    let later = bits.get(from / 64 + 1..).unwrap_or_default();
    later.iter().position(|&w| w != 0).map_or(usize::MAX, |p| {
        let w = later.get(p).copied().unwrap_or(0);
        (from / 64 + 1 + p) * 64 + w.trailing_zeros() as usize
    })
}

/// Sets `ratios[node]` to the mean CCR of the votes of the spans at
/// `indices`, which come grouped by node.
fn mean_by_node(a: &Analysis, indices: impl Iterator<Item = usize>, ratios: &mut [f32]) {
    let mut set = |node: u32, sum: f64, all: u64| {
        if let Some(r) = ratios.get_mut(node as usize) {
            *r = if all > 0 { (sum / all as f64) as f32 } else { 0.0 };
        }
    };
    // The node being summed: (node, weighted CCR sum, weight).
    let mut current: Option<(u32, f64, u64)> = None;
    for i in indices {
        let Some(node) = a.ccv.spans.get(i).map(|s| s.node) else { continue };
        let (_, sum, all) = match &mut current {
            Some(c) if c.0 == node => c,
            slot => {
                if let Some((n, sum, all)) = *slot {
                    set(n, sum, all);
                }
                slot.insert((node, 0.0, 0))
            }
        };
        a.span_votes(i, |weight, _, ccr| {
            *all += u64::from(weight);
            *sum += f64::from(weight) * ccr;
        });
    }
    if let Some((n, sum, all)) = current {
        set(n, sum, all);
    }
}

impl Extractor for Ccb {
    /// The majority of each text node's votes, with their mean CCR as its
    /// score: tallied node by node (`GroupedVotes`) when the spans come
    /// sorted by node, as they do unless the tree builder moved text.
    fn extract(&self, doc: &Document) -> Selection {
        let a = self.analyse(doc, true);
        let voting = a.ccv.spans.iter().filter_map(Span::node);
        if GroupedVotes::accepts(voting) {
            let mut votes = GroupedVotes::new(doc);
            a.for_each_vote(|node, weight, yes, ccr| votes.add(doc, node, weight, yes, ccr));
            return votes.into_selection(doc);
        }
        let mut votes = NodeVotes::new(doc);
        a.for_each_vote(|node, weight, yes, ccr| votes.add(node, weight, yes, ccr));
        votes.into_selection(doc, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Configure;
    use crate::render;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &Default::default()).expect("parse")
    }

    fn ccv_string(ccv: &Ccv) -> String {
        ccv.values.iter().map(|&v| if v > 0 { '1' } else { '0' }).collect()
    }

    #[test]
    fn character_ccv_normalises_entities_whitespace_and_noise() {
        let d = doc("<p>a &amp;  b</p>\n  <!-- c --><script>x</script><i>d</i>");
        let ccv = char_ccv(d.source(), false);
        // <p> = 3 zeros, "a & b" = 5 ones, </p> = 4 zeros, whitespace-only
        // text dropped, comment and script gone, <i> d </i>.
        assert_eq!(ccv_string(&ccv), "00011111000000010000");
        assert_eq!(ccv.spans.len(), 2);
        assert_eq!(ccv.weights[0], 3);
    }

    #[test]
    fn accb_ignores_anchor_markup_but_keeps_link_text() {
        let html = "<p>see <a href=\"/x\">this</a> now</p>";
        let d = doc(html);
        let ccb = char_ccv(d.source(), false);
        let accb = char_ccv(d.source(), true);
        let anchor = "0".repeat(r#"<a href="/x">"#.len());
        assert_eq!(ccv_string(&ccb), format!("0001111{anchor}11110000") + "11110000");
        assert_eq!(ccv_string(&accb), "0001111111111110000");
        // The three text tokens form one block in ACCB, three in CCB.
        assert!(accb.spans.windows(2).all(|w| w[0].end == w[1].start));
        assert!(ccb.spans.windows(2).all(|w| w[0].end != w[1].start));
        // And the anchor's text is extracted while its markup is not (the
        // page is tiny: its mean CCR is 12/19, below the default 0.7).
        let accb = CcbConfig::for_variant(CcbVariant::Accb).threshold(0.5);
        let out = render::text(&d, &Ccb::new(accb).extract(&d));
        assert_eq!(out, "see this now");
    }

    #[test]
    fn words_are_counted_as_split_words_splits_them() {
        use crate::document::split_words;
        let texts = [
            "",
            "  ",
            "one",
            " two  words ",
            "exactly8",
            "eight by\ttabs\n\x0b\x0c\rand more words here, 1234567",
            "a\u{A0}b\u{3000}c\u{2003}d\u{85}e\u{1F}f\x08g",
            "résumé  naïve\tüber\n",
        ];
        for text in texts {
            assert_eq!(count_words(text), split_words(text).count(), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_has_as_many_words_as_split_words_finds(
            text in "[a-z \\t\\n\\x0b\\x0c\\r\\x08\\x0e\\x1f,é\u{A0}\u{3000}\u{85}]{0,40}"
        ) {
            proptest::prop_assert_eq!(count_words(&text), crate::document::split_words(&text).count());
        }
    }

    #[test]
    fn token_ccv_drops_anchors() {
        let d = doc("<p>one two <a href=/>three</a></p>");
        assert_eq!(ccv_string(&token_ccv(&d)), "01110");
    }

    #[test]
    fn text_block_is_kept_whole_when_one_entry_passes() {
        // A long paragraph whose start sits next to heavy markup: its first
        // characters have a low CCR, but the block is kept whole.
        let markup = "<span class=\"x\"></span>".repeat(20);
        let text = "word ".repeat(80);
        let html = format!("<div>{markup}<p>{text}</p></div>");
        let d = doc(&html);
        let ccb = Ccb::default();
        let curve = ccb.curve(&d);
        let ccr = &curve.series[0].1;
        let first_text = ccr.len() - text.len() - "</p></div>".len();
        assert!(ccr[first_text] < 0.7, "{}", ccr[first_text]);
        assert!(curve.selected[first_text]);
        // Without block maintenance each character stands alone.
        let without = Ccb::new(CcbConfig::default().keep_blocks(false)).curve(&d);
        assert!(!without.selected[first_text]);
        assert!(without.selected[ccr.len() - 20]);
        let sel = ccb.extract(&d);
        assert_eq!(sel.count(), 1);
        assert!(sel.score(d.text_nodes().next().expect("node")).is_some_and(|s| s > 0.5));
    }

    #[test]
    fn link_list_is_code_for_ccb_and_in_text_links_are_content_for_accb() {
        let nav: String = (0..30)
            .map(|i| format!("<li class=\"nav\"><a href=\"/s/{i}\">S{i}</a></li>"))
            .collect();
        let para = "Text with <a href=\"/a\">a</a> link, <a href=\"/b\">b</a> and \
                    <a href=\"/c\">c</a> in it, words words words words. "
            .repeat(8);
        let html = format!("<ul>{nav}</ul><p>{para}</p><ul>{nav}</ul>");
        let d = doc(&html);
        let run =
            |variant| render::text(&d, &Ccb::new(CcbConfig::for_variant(variant)).extract(&d));
        for variant in [CcbVariant::Accb, CcbVariant::Tccb] {
            let out = run(variant);
            assert!(!out.contains("S1"), "{variant}: {out}");
            assert!(out.contains("words words"), "{variant}: {out}");
        }
        // CCB counts the anchors as code: the link-rich paragraph loses
        // at least as much as with ACCB [S-2 "resolve problems with in-text
        // links"].
        let ccb = run(CcbVariant::Ccb);
        assert!(!ccb.contains("S1"));
        assert!(ccb.len() <= run(CcbVariant::Accb).len());
    }

    #[test]
    fn node_ratios_are_the_scores_of_the_selection() {
        let nav = "<li><a href=/s>Section</a></li>".repeat(12);
        let para = "Words of the story, <a href=/l>a link</a> and more words. ".repeat(12);
        let d = doc(&format!("<ul>{nav}</ul><p>{para}</p><div>x &amp; y</div><ul>{nav}</ul>"));
        for v in [CcbVariant::Ccb, CcbVariant::Accb, CcbVariant::Tccb] {
            for blocks in [true, false] {
                let ccb = Ccb::new(CcbConfig::for_variant(v).keep_blocks(blocks));
                let sel = ccb.extract(&d);
                let ratios = ccb.node_ratios(&d);
                let scores: Vec<f32> = d.ids().filter_map(|id| sel.score(id)).collect();
                assert_eq!(ratios, scores, "{v} blocks={blocks}");
                assert!(ratios.iter().any(|&r| r > 0.0), "{v}");
            }
        }
    }

    /// TCCB's compact node ratios are those of the spans, to the bit; a
    /// page whose text the tree builder moved (a table's stray text goes
    /// before the table) is left to the spans.
    #[test]
    fn tccb_ratios_without_spans_are_the_ratios_of_the_spans() {
        let nav = "<li><a href=/s>Section</a></li>".repeat(40);
        let para = "Words of the story, <a href=/l>a link</a> and more words. ".repeat(30);
        let pages = [
            format!("<ul>{nav}</ul><p>{para}</p><div>x &amp; y</div><ul>{nav}</ul>"),
            "<p>one two <a href=/>three</a></p>\n <p>four</p><script>no</script>".to_string(),
            format!("<table><tr><td>{para}</td></tr>stray text</table><p>{para}</p>"),
            String::new(),
        ];
        let bits = |r: &[f32]| r.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        for (i, html) in pages.iter().enumerate() {
            let d = doc(html);
            for blocks in [true, false] {
                let ccb = Ccb::new(CcbConfig::for_variant(CcbVariant::Tccb).keep_blocks(blocks));
                let by_spans = ccb.node_ratios_by_spans(&d);
                let compact = tccb_node_ratios(&d, ccb.config());
                assert_eq!(compact.is_none(), i == 2, "page {i}");
                if let Some(compact) = compact {
                    assert_eq!(bits(&compact), bits(&by_spans), "page {i}");
                }
                assert_eq!(bits(&ccb.node_ratios(&d)), bits(&by_spans), "page {i}");
            }
        }
    }

    #[test]
    fn no_text_selects_nothing() {
        for html in ["", "<div><img></div>", "<p>   </p>"] {
            let d = doc(html);
            for v in [CcbVariant::Ccb, CcbVariant::Accb, CcbVariant::Tccb] {
                assert_eq!(Ccb::new(CcbConfig::for_variant(v)).extract(&d).count(), 0);
            }
        }
    }

    #[test]
    fn parameters_by_name() {
        let mut c = CcbConfig::for_variant(CcbVariant::Tccb);
        assert_eq!((c.sigma, c.threshold), (30.0, 0.75));
        c.set("sigma", "12.5").expect("sigma");
        c.set("threshold", "0.5").expect("threshold");
        assert_eq!(c, CcbConfig::for_variant(CcbVariant::Tccb).sigma(12.5).threshold(0.5));
        assert!(c.set("threshold", "2").is_ok() && c.validate().is_err());
        assert!(c.set("lambda", "1").is_err());
    }
}
