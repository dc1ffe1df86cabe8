//! **Learned** — gleaner's default extractor: a model decides, for every
//! text block of the page, whether it is main content (issues 30 and 32;
//! Gottron 2008, S-2 leaves the combination of extractors as future work).
//!
//! # How it decides
//!
//! 1. **Blocks** ([`blocks`]): a block-level element's own text, as the
//!    Link Quota Filter and Boilerpipe read pages.
//! 2. **Features** ([`features`]): each block's text, markup and
//!    structure, what `article` decided about it (its passes combine
//!    Readability's container search with LQF, TCCB and Crunch), the seed
//!    algorithms' decisions, and the page's facts ([`page`]: URL,
//!    declared types, structure).
//! 3. **Page type**: a softmax forest over the page's facts says which of
//!    [`PAGE_TYPES`] the page is — an article, a forum thread, a product,
//!    a collection, a listing, documentation or a service page — and the
//!    probabilities become features of every block, so the block model
//!    learns what each type keeps (all posts of a thread, every card of a
//!    listing, every section of a service page).
//! 4. **Blocks kept**: a binary forest scores each block; those at or
//!    above the page's threshold are the main content, with the code
//!    `article`'s container holds
//!    ([`features::PageRows::is_chosen_code`]): each type's threshold
//!    weighed by the type's probability, a type's drawn to the
//!    page's own when its policy says so ([`threshold`]: halfway to the
//!    cut that maximises the page's expected F1). For a page type on
//!    which the forest did not beat `article`'s rules out of fold, the
//!    model says so ([`TypePolicy`]) and the rules decide, at the cost of
//!    the page's features alone.
//! 5. **After the decision**: a short selection falls back to the rules
//!    ([`falls_back`]), the page's footer alone is no selection
//!    ([`footer`]), comment sections leave every page but one surely a
//!    forum thread ([`comment_sections`], [`SURE_THREAD`]), repeated runs of blocks go ([`repeats`]),
//!    and a product page keeps the block showing the price its JSON-LD
//!    declares ([`price`]).
//!
//! The forests are gradient-boosted trees ([`boost`](crate::boost)),
//! trained by `gleaner train` on labelled pages; the default model is
//! compiled into the library ([`LearnedModel::default_model`]) and any
//! other can be loaded ([`LearnedModel::from_bytes`]). A page with more
//! blocks than [`MAX_BLOCKS`] is left to `article`.
//!
//! ```
//! use gleaner::{extract::{learned::Learned, Extractor}, render, Document, ParseOptions};
//! let para = "A powerful storm reached the coast on Monday, bringing heavy rain, \
//!             strong winds and high tides to the towns along the shore.";
//! let html = format!("<nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>Storm</h1>\
//!                     <p>{para}</p><p>{para}</p></article><footer>Copyright 2024</footer>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let text = render::text(&doc, &Learned::new(Default::default())?.extract(&doc));
//! assert!(text.contains("A powerful storm"));
//! assert!(!text.contains("Home") && !text.contains("Copyright"));
//! # Ok::<(), gleaner::Error>(())
//! ```

pub mod alike;
pub mod blocks;
pub mod features;
pub mod feedback;
pub mod footer;
pub mod machine_text;
mod model;
pub mod names;
pub mod page;
pub mod posts;
pub mod price;
pub mod relative;
pub mod repeats;
pub mod text;
pub mod threshold;

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

pub use self::blocks::{Block, Blocks};
pub use self::features::{
    analyse, feature_names, page_features, page_rows, Analysis, FeatureSet, PageRows,
};
pub use self::footer::{footer_only, selected_blocks, selection_in_footer, PageFooter};
pub use self::model::{
    block_columns, type_columns, LearnedModel, TypePolicy, MAX_MODEL_BYTES, MODEL_MAGIC,
    MODEL_VERSION,
};

use super::extractor::Extractor;
use super::params::{config, Kind, ParamType, Range};
use super::structured;
use crate::document::Document;
use crate::error::{Error, Result};
use crate::metadata::Metadata;
use crate::selection::Selection;

/// The page types the classifier tells apart (WCXB's seven), in the
/// order of its outputs.
pub const PAGE_TYPES: [&str; 7] =
    ["article", "forum", "product", "collection", "listing", "documentation", "service"];

/// A forest's selection of fewer words than this is short: the rules'
/// decision replaces it when that keeps at least [`RULES_FALLBACK_WORDS`]
/// ([`falls_back`]).
pub const SHORT_SELECTION_WORDS: usize = 20;

/// Fewest words the rules must keep to replace a short selection.
pub const RULES_FALLBACK_WORDS: usize = 50;

/// Fewest words a short selection must reach at a lowered cut
/// ([`lowered_cuts`]) to be kept instead of the rules'.
pub const LOWERED_SELECTION_WORDS: usize = 50;

/// The cuts a short selection is tried at before the rules replace it,
/// highest first: the multiples of 0.05 below `threshold`, down to 0.05.
///
/// A page whose blocks all score under the cut is often a page whose
/// content the forest ranks right but scores low (a thread of short posts,
/// a list of links, an unfamiliar layout): the blocks it ranks highest
/// hold the content, and the rules, which had their own chance, are often
/// wrong there too. Measured on the held-out scores of `gleaner train …
/// --cv --report` (December 3): of the 56 held-out pages, over every set,
/// whose selection is short, 16 gain and 2 lose by the first of these
/// cuts that keeps [`LOWERED_SELECTION_WORDS`] words (WCXB-dev's 25 such
/// pages 0.364 → 0.438; CleanEval-final's 7 and Dragnet's 13 gain, no
/// set loses).
pub fn lowered_cuts(threshold: f32) -> impl Iterator<Item = f32> {
    let steps = (threshold / 0.05 - 1e-3).ceil() as i32 - 1;
    (1..=steps.clamp(0, 20)).rev().map(|k| k as f32 * 0.05)
}

/// A short selection taken at a lower cut: the first of
/// [`lowered_cuts`] below `threshold` at which `select` (the selection at
/// a cut and its words) keeps [`LOWERED_SELECTION_WORDS`] words, with the
/// cut. The extractor and the trainer's held-out texts both take it.
pub fn lowered_selection<T>(
    threshold: f32,
    mut select: impl FnMut(f32) -> (T, usize),
) -> Option<(f32, T, usize)> {
    lowered_cuts(threshold)
        .map(|cut| {
            let (selection, words) = select(cut);
            (cut, selection, words)
        })
        .find(|&(_, _, words)| words >= LOWERED_SELECTION_WORDS)
}

/// Does a forest's selection of `forest_words` words give way to the
/// rules' of `rules_words`? When the forest keeps next to nothing and the
/// rules keep a text: a page whose blocks all score low is a page the
/// model does not know, not a page without content. Out of fold (WCXB-dev
/// by domain, the WCEB sets whole) it lifted forums 0.760 → 0.768 and
/// products 0.598 → 0.604, and moved no other set by more than 0.001.
///
/// On a documentation page the rules' decision also replaces a forest's
/// that keeps fewer words than it ([`PageType::body_is_whole`]): there
/// the forest, held out, drops parts of the body that `article`'s
/// container holds (an in-page table of contents, a note, a footnote),
/// and the rules keep the whole body. Measured on the held-out scores of
/// `gleaner train … --cv --report` (December 3): of the pages predicted
/// documentation where the rules keep at least the forest's words, 34
/// gain and 12 lose (every WCXB-dev fold gains), WCXB-dev's labelled
/// documentation pages 0.931 → 0.939.
pub fn falls_back(page_type: PageType, forest_words: usize, rules_words: usize) -> bool {
    if forest_words < SHORT_SELECTION_WORDS {
        return rules_words >= RULES_FALLBACK_WORDS;
    }
    page_type.body_is_whole() && rules_words >= forest_words
}

/// The probability of its most probable type from which a page taken for
/// a forum thread is *surely* one: its comment sections are its content
/// ([`PageType::comments_are_content`]) and any one part (post, and
/// whatever else repeats: a signature, a profile line) keeping a block at
/// a place brings that place in the others ([`alike::Quorum::Any`]).
/// Blog posts whose readers' comments make them look like threads sit at
/// 0.5–0.6 (Dragnet's); most threads well above, but a thread below the
/// gate loses the replies in its comment sections. Measured in
/// `docs/learned.md` ("Comments apart unless surely a thread").
pub const SURE_THREAD: f32 = 0.65;

/// The comment sections a page of type `page_type` (at `probability`)
/// leaves out of the forest's selection: the page's comment regions
/// ([`comments::sections`](super::comments::sections)) that do not hold
/// most of `article`, the rules' selection; `None` on a page surely a
/// forum thread ([`PageType::comments_are_content`]).
///
/// Readers' comments under an article, a product or a service page are
/// not its main content (WCXB's and Dragnet's gold leave them out, as
/// trafilatura does; `--comments` gives them apart), but the forest,
/// trained on sets that disagree (CleanEval's gold keeps them), kept many
/// of them after the article on Dragnet's pages out of fold.
pub fn comment_sections(
    doc: &Document,
    page_type: PageType,
    probability: f32,
    article: &Selection,
) -> Option<Selection> {
    (!page_type.comments_are_content(probability)).then(|| super::comments::sections(doc, article))
}

/// The words (runs of letters and digits) of the text nodes `selection`
/// holds, counted up to `cap`.
fn selected_words(doc: &Document, selection: &Selection, cap: usize) -> usize {
    let mut n = 0;
    for id in selection.iter().filter(|&id| doc.is_text(id)) {
        n += words(doc.text(id));
        if n >= cap {
            return cap;
        }
    }
    n
}

/// The text of a selection's text nodes, a line each (for a short
/// selection: what its words are, not how it reads).
fn selection_text(doc: &Document, selection: &Selection) -> String {
    let mut text = String::new();
    for id in selection.iter().filter(|&id| doc.is_text(id)) {
        text.push_str(doc.text(id));
        text.push('\n');
    }
    text
}

/// The words of a text: its runs of letters and digits.
fn words(text: &str) -> usize {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).count()
}

/// Most blocks of a page the model decides on; a page with more is left
/// to `article` (a real page has a few thousand at most; a block's row is
/// a few hundred numbers).
pub const MAX_BLOCKS: usize = 20_000;

/// On a page of a type that shows its price, the headline naming the
/// product ([`price::keep_name`]) and the block showing the price its
/// structured data declares ([`price::keep`]) are added to `selection`,
/// whichever of the forest or the rules decided; true when either was
/// not there.
fn keep_declared_price(
    doc: &Document,
    meta: &Metadata,
    page_type: PageType,
    blocks: &Blocks,
    selection: &mut Selection,
) -> bool {
    if !page_type.shows_its_price() {
        return false;
    }
    let title = meta.stated_title_or_title();
    let name = title.is_some_and(|t| price::keep_name(doc, blocks, t, selection));
    let price =
        meta.product_price.as_deref().is_some_and(|p| price::keep(doc, blocks, p, selection));
    name || price
}

/// The blocks at the place of those of most of a page's kept posts, cards
/// or sections — of any one post on a page surely a forum thread —
/// ([`alike::keep_alike`], [`alike::Quorum`]) are added to `selection`,
/// whichever of the forest or the rules decided, but not the `repeated`
/// blocks left out before, a feedback prompt nor machine text
/// ([`machine_text::is_machine_block`]); returns how many were added.
fn keep_parts_alike(
    doc: &Document,
    blocks: &Blocks,
    selection: &mut Selection,
    repeated: &[repeats::Repeat],
    quorum: alike::Quorum,
) -> usize {
    let mut barred = vec![false; blocks.len()];
    for r in repeated {
        if let Some(slot) = barred.get_mut(r.block) {
            *slot = true;
        }
    }
    alike::keep_alike(doc, blocks, selection, quorum, |i| {
        barred.get(i).copied().unwrap_or(false)
            || feedback::is_prompt(&blocks.text(doc, i))
            || machine_text::is_machine_block(doc, blocks, i)
    })
}

/// On a forum thread, each kept post's author and date
/// ([`posts::keep_headers`]) are added to `selection`, whichever of the
/// forest or the rules decided; returns how many blocks were added.
fn keep_post_headers(
    doc: &Document,
    page_type: PageType,
    blocks: &Blocks,
    selection: &mut Selection,
) -> usize {
    match page_type.signs_its_posts() {
        true => posts::keep_headers(doc, blocks, selection),
        false => 0,
    }
}

/// A page type, one of [`PAGE_TYPES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageType(usize);

impl PageType {
    /// The type's name.
    pub fn name(self) -> &'static str {
        PAGE_TYPES.get(self.0).copied().unwrap_or("article")
    }

    /// Its index in [`PAGE_TYPES`].
    pub fn index(self) -> usize {
        self.0
    }

    /// Is a page whose most probable type is this one, at `probability`,
    /// surely a forum thread ([`SURE_THREAD`])?
    pub fn is_sure_thread(self, probability: f32) -> bool {
        self.name() == "forum" && probability >= SURE_THREAD
    }

    /// Are a page's comments its content, given the type's `probability`?
    /// Only on a page surely a forum thread, whose replies are the thread
    /// ([`comment_sections`]): a blog post whose readers' comments make it
    /// look like one keeps its comment sections out, as an article does.
    pub fn comments_are_content(self, probability: f32) -> bool {
        self.is_sure_thread(probability)
    }

    /// Does a paragraph written twice repeat earlier content? Only on a
    /// forum thread, whose replies quote earlier posts and whose members'
    /// signatures follow each post ([`repeats::drop_repeats`]).
    pub fn repeats_are_quotes(self) -> bool {
        self.name() == "forum"
    }

    /// Is the body `article`'s rules find whole the better text whenever
    /// it holds at least the forest's words ([`falls_back`])? Only on a
    /// documentation page.
    pub fn body_is_whole(self) -> bool {
        self.name() == "documentation"
    }

    /// How many of a page's repeated parts must keep a block before the
    /// others' are added ([`alike::to_add`]), given the type's
    /// `probability`: any one post of a page surely a forum thread.
    pub fn alike_quorum(self, probability: f32) -> alike::Quorum {
        match self.is_sure_thread(probability) {
            true => alike::Quorum::Any,
            false => alike::Quorum::Most,
        }
    }

    /// Are a post's author and date part of it? Only on a forum thread
    /// ([`posts::keep_headers`]).
    pub fn signs_its_posts(self) -> bool {
        self.name() == "forum"
    }

    /// Is the price the page's structured data declares part of its
    /// content? Only on a product page ([`price::keep`]).
    pub fn shows_its_price(self) -> bool {
        self.name() == "product"
    }

    /// The type at an index of [`PAGE_TYPES`].
    pub fn from_index(i: usize) -> Option<PageType> {
        (i < PAGE_TYPES.len()).then_some(PageType(i))
    }
}

/// An article, the type a page is taken for when nothing says otherwise.
impl Default for PageType {
    fn default() -> Self {
        PageType(0)
    }
}

impl fmt::Display for PageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PageType {
    type Err = Error;

    fn from_str(s: &str) -> Result<PageType> {
        let s = s.trim().to_ascii_lowercase();
        let s = if s == "category" { "collection" } else { s.as_str() };
        PAGE_TYPES.iter().position(|t| *t == s).map(PageType).ok_or_else(|| {
            Error::InvalidConfig(format!(
                "unknown page type {s:?}: one of {}",
                PAGE_TYPES.join(", ")
            ))
        })
    }
}

impl ParamType for PageType {
    const KIND: Kind = Kind::Choice(&PAGE_TYPES);

    fn parse(text: &str) -> std::result::Result<PageType, Option<Error>> {
        text.parse().map_err(Some)
    }

    fn show(&self) -> String {
        self.name().to_string()
    }
}

config! {
    /// The learned extractor's settings: `-p key=value` keys.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct LearnedConfig for "learned" {
        /// Keep blocks scoring at least this (default, when unset: the
        /// model's, each type's blended by the page's type probabilities,
        /// an adaptive type's drawn to the page's own cut).
        threshold: Option<f32> = None, range Range::closed(0.0, 1.0), source "the model";
        /// Decide as for this page type instead of the classifier's guess.
        page_type: Option<PageType> = None;
        /// Added to the page's threshold, the types' blend (clamped to
        /// [0, 1]): above 0 keeps fewer doubtful blocks (`--precision`),
        /// below 0 more (`--recall`). A `threshold` replaces the types'
        /// thresholds instead.
        shift: f32 = 0.0, range Range::closed(-1.0, 1.0), source "I";
    }
}

/// What the learned extractor decided about a page.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The main content.
    pub selection: Selection,
    /// The page's type (forced, or the classifier's most probable).
    pub page_type: PageType,
    /// The probability of that type (1 when forced).
    pub confidence: f32,
    /// Every type's probability, in [`PAGE_TYPES`] order.
    pub type_probabilities: [f32; 7],
    /// The blocks and their scores, when the model decided (`None` when
    /// the page went to the fallback).
    pub blocks: Option<(Blocks, Vec<f32>)>,
    /// `article`'s rules' selection was taken instead of the forest's: the
    /// forest kept too little, or, on a documentation page, fewer words
    /// than the rules ([`falls_back`]).
    pub fell_back: bool,
    /// The page's comment sections were taken out of the forest's
    /// selection ([`comment_sections`]).
    pub comments_apart: bool,
    /// The blocks left out after the decision as repeats of earlier ones
    /// ([`repeats::drop_repeats`]).
    pub repeated: Vec<repeats::Repeat>,
    /// How many blocks were left out as a reader's feedback prompt
    /// ([`feedback::drop_prompts`]).
    pub prompts_dropped: usize,
    /// How many blocks were left out as text written for machines, a
    /// serialized data object or a run of identifiers
    /// ([`machine_text::drop_machine_text`]).
    pub machine_text_dropped: usize,
    /// How many blocks were added after the decision at the place of those
    /// of most of the page's kept posts, cards or sections — of any one on
    /// a page surely a forum thread ([`alike::keep_alike`],
    /// [`alike::Quorum`]).
    pub alike_added: usize,
    /// How many blocks naming a post's author or its date were added after
    /// the decision, on a forum thread ([`posts::keep_headers`]).
    pub headers_kept: usize,
    /// The headline naming the product or the block showing the price
    /// the page's structured data declares for it was added after the
    /// forest's decision ([`price::keep_name`], [`price::keep`]).
    pub price_kept: bool,
    /// The score a block had to reach: the types' thresholds blended by
    /// their probability, each drawn to the page's own cut where the
    /// type's policy is adaptive, or the configured threshold
    /// ([`Learned::blended_threshold`]), or the lower cut a short
    /// selection was taken at ([`lowered_cuts`]); `None` when the rules
    /// decided.
    pub threshold: Option<f32>,
    /// The threshold the forest's selection fell short at, when it was
    /// taken at a lower cut ([`lowered_cuts`]).
    pub lowered_from: Option<f32>,
    /// The forest's selection was short, and kept as it is, without a
    /// lower cut or the rules' selection: the product description the
    /// page states completes it ([`structured::completes`]).
    pub described: bool,
    /// The forest kept only blocks of the page's footer, or the rules did
    /// when they replaced the forest's selection ([`falls_back`]), and
    /// that was taken as no selection ([`footer_only`]).
    pub footer_dropped: bool,
}

/// The learned extractor; see the [module docs](self).
#[derive(Clone)]
pub struct Learned {
    model: Arc<LearnedModel>,
    config: LearnedConfig,
}

impl fmt::Debug for Learned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Learned")
            .field("threshold", &self.config.threshold.unwrap_or(self.model.threshold))
            .field("page_type", &self.config.page_type.map(|t| t.name()))
            .finish()
    }
}

/// The model compiled into the library: trained by `gleaner train` on the
/// development data (see `docs/todays-web.md#training-your-own-model`).
static DEFAULT_MODEL: &[u8] = include_bytes!("../../../models/learned.model");

impl LearnedModel {
    /// The model compiled into the library, read once.
    ///
    /// # Errors
    /// [`Error::InvalidLearnedModel`] if the compiled-in bytes are not a
    /// model for this build (a broken build; a test reads the model).
    pub fn default_model() -> Result<Arc<LearnedModel>> {
        static MODEL: OnceLock<std::result::Result<Arc<LearnedModel>, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                LearnedModel::from_bytes(DEFAULT_MODEL).map(Arc::new).map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|e| Error::InvalidLearnedModel(format!("the compiled-in model: {e}")))
    }
}

impl Learned {
    /// The extractor with the compiled-in model.
    ///
    /// # Errors
    /// As [`LearnedModel::default_model`].
    pub fn new(config: LearnedConfig) -> Result<Learned> {
        Ok(Learned { model: LearnedModel::default_model()?, config })
    }

    /// The extractor with another model.
    pub fn with_model(model: Arc<LearnedModel>, config: LearnedConfig) -> Learned {
        Learned { model, config }
    }

    /// The model.
    pub fn model(&self) -> &LearnedModel {
        &self.model
    }

    /// The score a block of a page of type `t` must reach to be kept: the
    /// configured one, else the type's in the model, shifted (before a
    /// page's own cut moves it and the types are blended:
    /// [`Learned::blended_threshold`]).
    pub fn threshold(&self, t: PageType) -> f32 {
        let shifted =
            || (self.model.policies[t.index()].threshold + self.config.shift).clamp(0.0, 1.0);
        self.config.threshold.unwrap_or_else(shifted)
    }

    /// The score a block of a page surely of type `t`, with these blocks'
    /// `scores` and `words`, must reach: [`Learned::threshold`], drawn
    /// halfway to the page's expected-F1 cut when the type's policy is
    /// adaptive and no threshold is configured (the shift applies after).
    /// A page of uncertain type gets [`Learned::blended_threshold`].
    pub fn page_threshold(&self, t: PageType, scores: &[f32], words: &[u32]) -> f32 {
        let mut sure = [0f32; 7];
        sure[t.index()] = 1.0;
        self.blended_threshold(t, &sure, scores, words)
    }

    /// The score a block of a page with these type `probabilities` and
    /// these blocks' `scores` and `words` must reach: the configured
    /// threshold, else the types' thresholds blended by their probability
    /// ([`threshold::blended_threshold`]; `words` may be empty when the
    /// page does not [`Learned::reads_own_cut`]), then shifted; the most
    /// probable type's `best` when no type's policy is the forest's.
    pub fn blended_threshold(
        &self,
        best: PageType,
        probabilities: &[f32; 7],
        scores: &[f32],
        words: &[u32],
    ) -> f32 {
        if self.config.threshold.is_some() {
            return self.threshold(best);
        }
        match threshold::blended_threshold(&self.model.policies, probabilities, scores, words) {
            Some(t) => (t + self.config.shift).clamp(0.0, 1.0),
            None => self.threshold(best),
        }
    }

    /// The threshold configured for every page (`-p threshold=T`), if any.
    pub fn configured_threshold(&self) -> Option<f32> {
        self.config.threshold
    }

    /// Does a page with these type probabilities read its own cut (no
    /// threshold is configured and its adaptive types weigh enough,
    /// [`threshold::reads_own_cut`])? Only then are its blocks' words
    /// gathered.
    pub fn reads_own_cut(&self, probabilities: &[f32; 7]) -> bool {
        self.config.threshold.is_none()
            && threshold::reads_own_cut(&self.model.policies, probabilities)
    }

    /// The page's type probabilities from its page features.
    fn type_probabilities(&self, page: &[f32]) -> [f32; 7] {
        let forced = |t: PageType| {
            let mut p = [0f32; 7];
            p[t.index()] = 1.0;
            p
        };
        match self.config.page_type {
            Some(t) => forced(t),
            None => self.model.page_type_probabilities(page).unwrap_or_else(|| forced(PageType(0))),
        }
    }

    /// Decides the page: its type and its main content.
    pub fn decide(&self, doc: &Document) -> Decision {
        let meta = Metadata::extract(doc);
        self.decide_with(doc, &meta)
    }

    /// [`Learned::decide`] with the page's metadata already read.
    pub fn decide_with(&self, doc: &Document, meta: &Metadata) -> Decision {
        let Some(analysis) = features::analyse(doc, meta, MAX_BLOCKS) else {
            return self.fallback(doc);
        };
        let probs = self.type_probabilities(analysis.page());
        let (best, confidence) = most_probable(&probs, false);
        let policy = self.model.policies[best.index()];
        // A configured threshold asks for the forest on every type.
        if !policy.blocks && self.config.threshold.is_none() {
            let (mut selection, blocks) = analysis.into_article_and_blocks();
            // The rules' footer alone is none.
            let footer_dropped = selection_in_footer(doc, &blocks, &selection);
            if footer_dropped {
                selection = Selection::none(doc);
            }
            let prompts = feedback::drop_prompts(doc, &blocks, &mut selection);
            let machine_text = machine_text::drop_machine_text(doc, &blocks, &mut selection);
            let lone = best.repeats_are_quotes();
            let repeated = repeats::drop_repeats(doc, &blocks, &mut selection, lone);
            let quorum = best.alike_quorum(confidence);
            let alike_added = keep_parts_alike(doc, &blocks, &mut selection, &repeated, quorum);
            let headers_kept = keep_post_headers(doc, best, &blocks, &mut selection);
            let price_kept = keep_declared_price(doc, meta, best, &blocks, &mut selection);
            return Decision {
                selection,
                page_type: best,
                confidence,
                type_probabilities: probs,
                blocks: None,
                fell_back: false,
                comments_apart: false,
                repeated,
                prompts_dropped: prompts.len(),
                machine_text_dropped: machine_text.len(),
                alike_added,
                headers_kept,
                price_kept,
                threshold: None,
                lowered_from: None,
                described: false,
                footer_dropped,
            };
        }
        let rows = analysis.rows(doc, meta, self.model.features);
        // Every block's row with the type probabilities, scored at once.
        let width = rows.width + probs.len();
        let mut matrix = Vec::with_capacity(rows.len() * width);
        for i in 0..rows.len() {
            matrix.extend_from_slice(rows.row(i));
            matrix.extend_from_slice(&probs);
        }
        let mut scores = vec![0f32; rows.len()];
        self.model.blocks.predict_proba_batch(&matrix, &mut scores);
        drop(matrix);
        // The blocks' words are gathered only for a page that needs them.
        let words: Vec<u32> = match self.reads_own_cut(&probs) {
            true => rows.blocks.blocks.iter().map(|b| b.words).collect(),
            false => Vec::new(),
        };
        let threshold = self.blended_threshold(best, &probs, &scores, &words);
        let select = |cut: f32| {
            let mut selection = Selection::none(doc);
            for (i, &score) in scores.iter().enumerate() {
                if score >= cut || rows.is_chosen_code(doc, i) {
                    for &t in rows.blocks.texts(i) {
                        selection.set(t, true);
                    }
                }
            }
            selection
        };
        let mut selection = select(threshold);
        // Words are counted only as far as the decision needs them.
        let cap = match best.body_is_whole() {
            true => usize::MAX,
            false => SHORT_SELECTION_WORDS,
        };
        let mut forest_words = selected_words(doc, &selection, cap);
        let (mut cut, mut lowered_from) = (threshold, None);
        // A short selection that the product description the page states
        // completes stays as it is (`structured::completes`).
        let completed = forest_words < SHORT_SELECTION_WORDS
            && structured::completes(
                &selection_text(doc, &selection),
                best.name(),
                meta.product_description.as_deref(),
            );
        // A short selection: the first lower cut that keeps enough (a
        // configured threshold is the cut asked for, and stays).
        if forest_words < SHORT_SELECTION_WORDS && !completed && self.config.threshold.is_none() {
            let cap = cap.max(LOWERED_SELECTION_WORDS);
            let lowered = lowered_selection(threshold, |c| {
                let lowered = select(c);
                let words = selected_words(doc, &lowered, cap);
                (lowered, words)
            });
            if let Some((lowered_cut, lowered, words)) = lowered {
                (selection, forest_words) = (lowered, words);
                (cut, lowered_from) = (lowered_cut, Some(threshold));
            }
        }
        // A selection of the page's footer alone is none.
        let mut footer_dropped = !completed && selection_in_footer(doc, &rows.blocks, &selection);
        if footer_dropped {
            (selection, forest_words) = (Selection::none(doc), 0);
        }
        let features::PageRows { blocks, article, .. } = rows;
        let sections = comment_sections(doc, best, confidence, &article);
        let fell_back = !completed
            && (forest_words < SHORT_SELECTION_WORDS || best.body_is_whole())
            && falls_back(
                best,
                forest_words,
                selected_words(doc, &article, cap.max(RULES_FALLBACK_WORDS)),
            );
        if fell_back {
            // The rules' footer alone is none either.
            match selection_in_footer(doc, &blocks, &article) {
                true => (selection, footer_dropped) = (Selection::none(doc), true),
                false => selection = article,
            }
        }
        let comments_apart = sections
            .is_some_and(|sections| super::comments::set_apart(doc, &sections, &mut selection));
        let prompts = feedback::drop_prompts(doc, &blocks, &mut selection);
        let machine_text = machine_text::drop_machine_text(doc, &blocks, &mut selection);
        let lone = best.repeats_are_quotes();
        let repeated = repeats::drop_repeats(doc, &blocks, &mut selection, lone);
        let quorum = best.alike_quorum(confidence);
        let alike_added = keep_parts_alike(doc, &blocks, &mut selection, &repeated, quorum);
        let headers_kept = keep_post_headers(doc, best, &blocks, &mut selection);
        let price_kept = keep_declared_price(doc, meta, best, &blocks, &mut selection);
        Decision {
            selection,
            page_type: best,
            confidence,
            type_probabilities: probs,
            blocks: Some((blocks, scores)),
            fell_back,
            comments_apart,
            repeated,
            prompts_dropped: prompts.len(),
            machine_text_dropped: machine_text.len(),
            alike_added,
            headers_kept,
            price_kept,
            threshold: Some(cut),
            lowered_from,
            described: completed,
            footer_dropped,
        }
    }

    /// A page too big for the model: `article`'s decision, typed as the
    /// forced type or an article.
    fn fallback(&self, doc: &Document) -> Decision {
        let t = self.config.page_type.unwrap_or(PageType(0));
        let mut probs = [0f32; 7];
        probs[t.index()] = 1.0;
        Decision {
            selection: super::Article::default().extract(doc),
            page_type: t,
            confidence: 1.0,
            type_probabilities: probs,
            blocks: None,
            fell_back: false,
            comments_apart: false,
            repeated: Vec::new(),
            prompts_dropped: 0,
            machine_text_dropped: 0,
            alike_added: 0,
            headers_kept: 0,
            price_kept: false,
            threshold: None,
            lowered_from: None,
            described: false,
            footer_dropped: false,
        }
    }
}

impl Extractor for Learned {
    fn extract(&self, doc: &Document) -> Selection {
        self.decide(doc).selection
    }

    fn extract_typed(&self, doc: &Document) -> super::Extraction {
        self.extract_typed_with(doc, &Metadata::extract(doc))
    }

    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> super::Extraction {
        let d = self.decide_with(doc, metadata);
        super::Extraction {
            selection: d.selection,
            page_type: Some((d.page_type, d.confidence)),
            type_probabilities: self.config.page_type.is_none().then_some(d.type_probabilities),
        }
    }
}

/// Every page type's probability by the compiled-in model's classifier,
/// in [`PAGE_TYPES`] order, for extractors that do not tell types
/// themselves; `None` when the model has no classifier or the page has
/// more than [`MAX_BLOCKS`] blocks.
pub fn classify(doc: &Document, meta: &Metadata) -> Option<[f32; 7]> {
    let model = LearnedModel::default_model().ok().filter(|m| m.page_types.is_some())?;
    model.page_type_probabilities(&features::page_features(doc, meta, MAX_BLOCKS)?)
}

/// `article`'s selection (default configuration) with every page type's
/// probability by the compiled-in classifier, from one reading of the
/// page: the classifier's page features read `article`'s decision, so
/// [`classify`] beside [`Article`](super::Article) decides it twice.
/// `None` when the model has no classifier or the page has more than
/// [`MAX_BLOCKS`] blocks, as [`classify`] is then.
pub fn classify_article(doc: &Document, meta: &Metadata) -> Option<super::Extraction> {
    let model = LearnedModel::default_model().ok().filter(|m| m.page_types.is_some())?;
    let analysis = features::analyse(doc, meta, MAX_BLOCKS)?;
    let type_probabilities = model.page_type_probabilities(analysis.page());
    let (selection, _) = analysis.into_article_and_blocks();
    Some(super::Extraction { selection, page_type: None, type_probabilities })
}

/// The most probable type of `probabilities` and its probability,
/// passing over `article` when `not_article`: when `article`'s own rules
/// ([`page_kind::is_article`](super::page_kind::is_article)) saw a list,
/// index or search page, the classifier's next guess is taken, so that a
/// record's `page_type` and `is_article` never disagree.
pub fn most_probable(probabilities: &[f32; 7], not_article: bool) -> (PageType, f32) {
    let skip = |t: usize| not_article && t == 0;
    let best = (0..probabilities.len())
        .filter(|&t| !skip(t))
        .fold(None, |b: Option<usize>, t| match b {
            Some(b) if probabilities[b] >= probabilities[t] => Some(b),
            _ => Some(t),
        })
        .unwrap_or(0);
    (PageType(best), probabilities[best])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_sure_from_its_probability_and_then_keeps_comments_and_any_post() {
        let forum = PageType::from_index(1).expect("forum");
        assert_eq!(forum.name(), "forum");
        // A thread.
        assert!(forum.is_sure_thread(0.95) && forum.comments_are_content(0.95));
        assert_eq!(forum.alike_quorum(SURE_THREAD), alike::Quorum::Any);
        // A blog post with readers' comments, taken for a thread at 0.56.
        assert!(!forum.comments_are_content(0.56));
        assert_eq!(forum.alike_quorum(0.56), alike::Quorum::Most);
        // Any other type, however sure.
        let article = PageType::default();
        assert!(!article.comments_are_content(1.0));
        assert_eq!(article.alike_quorum(1.0), alike::Quorum::Most);
    }
}
