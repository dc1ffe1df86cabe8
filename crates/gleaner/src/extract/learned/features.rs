//! The feature rows of a page: one row per [block](super::blocks), the
//! block's own facts, its surroundings, what the seed algorithms decided
//! about it, and the page's facts. The learned model reads nothing else,
//! so this module is the whole of what it knows (issue 32).
//!
//! Feature families, in row order:
//!
//! - **text** — size, link density (LQF, Mantratzis et al. 2005), commas
//!   and sentence ends, digits, capitals, separators, prices, stock
//!   phrases (`text`);
//! - **markup** — the owner's tag, the distance up to every tag, role,
//!   microdata and class/id cue (`names`), the inline cues, depth;
//! - **structure** — the owner's and its parent's subtree counts, same-
//!   shaped siblings and blocks (teaser streams, cards, posts), position
//!   in the page, the neighbouring blocks;
//! - **place** — the block's shape against the page's other shapes: the
//!   largest shape's share of the text, the block's against it, its rank
//!   (`relative`);
//! - **article** — what `article` decided: selected, inside its container
//!   or a chosen sibling, removed and by which rule (its passes combine
//!   Readability, LQF, TCCB and Crunch);
//! - **headings** (between `article`'s container columns and its
//!   removal rules) — the block against the page's title heading (at or
//!   after it or not, the text between, how many levels up the element
//!   holding both is and its size) and the nearest heading above it
//!   (what it says: "related", "comments", "subscribe"…; how many blocks
//!   back);
//! - **seeds** (optional) — the share of the block each seed algorithm
//!   selects: BTE, LQF, Crunch, CCB, TCCB, DSC, TTR, CETR, K-FE, VCE;
//! - **page** — the page's facts (`page`): URL, declared types,
//!   structure.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use markup5ever::local_name;
use rustc_hash::{FxHashMap, FxHasher};

use super::blocks::{Block, Blocks, FAR};
use super::names::{cue, cue_names, Cue};
use super::page::{self, PageFacts, PageInputs, Repetition};
use super::relative;
use super::text::{
    text_facts, word_hashes, word_overlap, Phrase, Phrases, TextFacts, PHRASES, PHRASE_NAMES,
};
use crate::document::{Document, NodeId};
use crate::extract::article::{Article, Explanation, MarkReason, RemovalRule};
use crate::extract::{self, Extractor};
use crate::metadata::Metadata;
use crate::selection::Selection;

/// The seed algorithms whose decisions can be features, by registry name.
pub const SEED_SIGNALS: &[&str] =
    &["bte", "lqf", "crunch", "ccb", "tccb", "dsc", "ttr", "cetr", "kfe", "vce"];

/// Which feature families a row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureSet {
    /// The seed algorithms' decisions ([`SEED_SIGNALS`]).
    pub seeds: bool,
}

impl Default for FeatureSet {
    fn default() -> FeatureSet {
        FeatureSet { seeds: true }
    }
}

/// Owner tags, one column each (the last is "other").
const OWNER_TAGS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "li",
    "td",
    "dd",
    "pre",
    "blockquote",
    "figcaption",
    "div",
    "section",
    "landmark",
    "control",
    "other",
];

fn owner_tag(doc: &Document, owner: NodeId) -> usize {
    let i = |n: &str| OWNER_TAGS.iter().position(|&t| t == n).unwrap_or(OWNER_TAGS.len() - 1);
    let Some(name) = doc.name(owner) else { return i("other") };
    match *name {
        local_name!("p") => i("p"),
        local_name!("h1") => i("h1"),
        local_name!("h2") => i("h2"),
        local_name!("h3") => i("h3"),
        local_name!("h4") | local_name!("h5") | local_name!("h6") => i("h4"),
        local_name!("li") => i("li"),
        local_name!("td") | local_name!("th") | local_name!("caption") => i("td"),
        local_name!("dd") | local_name!("dt") | local_name!("dl") => i("dd"),
        local_name!("pre") | local_name!("listing") => i("pre"),
        local_name!("blockquote") => i("blockquote"),
        local_name!("figcaption") | local_name!("figure") => i("figcaption"),
        local_name!("div") | local_name!("center") => i("div"),
        local_name!("section")
        | local_name!("article")
        | local_name!("main")
        | local_name!("body")
        | local_name!("html") => i("section"),
        local_name!("header")
        | local_name!("footer")
        | local_name!("nav")
        | local_name!("aside")
        | local_name!("menu") => i("landmark"),
        local_name!("form")
        | local_name!("fieldset")
        | local_name!("legend")
        | local_name!("option")
        | local_name!("summary")
        | local_name!("details")
        | local_name!("dialog") => i("control"),
        _ => i("other"),
    }
}

fn heading_level(doc: &Document, owner: NodeId) -> u8 {
    match doc.name(owner).map(|n| &**n) {
        Some("h1") => 1,
        Some("h2") => 2,
        Some("h3") => 3,
        Some("h4") => 4,
        Some("h5") => 5,
        Some("h6") => 6,
        _ => 0,
    }
}

/// Inline cues with a column each.
const INLINE_CUES: &[&str] = &[
    "tag_a",
    "tag_strong",
    "tag_time",
    "tag_small",
    "tag_cite",
    "tag_code",
    "tag_button",
    "tag_label",
    "tag_heading",
    "name_meta",
    "name_tags",
    "name_share",
    "name_title",
    "prop_author",
    "prop_date",
];

/// Removal rules of `article`, one column each.
const REMOVALS: &[&str] = &[
    "rm_tag",
    "rm_role",
    "rm_comments",
    "rm_unlikely",
    "rm_widget",
    "rm_hidden",
    "rm_code",
    "rm_link_quota",
    "rm_link_list",
    "rm_teasers",
    "rm_inner",
    "rm_unrendered",
    "rm_captions",
    "rm_end",
];

fn removal_column(rule: RemovalRule) -> usize {
    match rule {
        RemovalRule::Boilerplate(MarkReason::Tag) => 0,
        RemovalRule::Boilerplate(MarkReason::Role) => 1,
        RemovalRule::Boilerplate(MarkReason::Comments) => 2,
        RemovalRule::Boilerplate(MarkReason::UnlikelyName) => 3,
        RemovalRule::Boilerplate(MarkReason::Widget) => 4,
        RemovalRule::Hidden => 5,
        RemovalRule::ReadsAsCode => 6,
        RemovalRule::LinkQuota => 7,
        RemovalRule::LinkList => 8,
        RemovalRule::TeaserList => 9,
        RemovalRule::InnerBoilerplate => 10,
        RemovalRule::Unrendered => 11,
        RemovalRule::Captions => 12,
        RemovalRule::EndBoilerplate => 13,
    }
}

/// Names of the per-block columns before the page's, for a feature set.
fn block_names(set: FeatureSet) -> Vec<String> {
    let mut n: Vec<String> = [
        "log_chars",
        "log_words",
        "link_density",
        "link_word_share",
        "text_nodes",
        "commas_per_word",
        "sentences",
        "ends_sentence",
        "digit_share",
        "capital_share",
        "letter_share",
        "symbol_share",
        "separators",
        "prices",
        "questions",
        "heading",
        "title_overlap",
    ]
    .map(String::from)
    .to_vec();
    n.extend(PHRASE_NAMES.iter().map(|s| s.to_string()));
    n.extend(OWNER_TAGS.iter().map(|t| format!("owner_{t}")));
    n.extend(cue_names().map(|c| format!("near_{c}")));
    n.extend(INLINE_CUES.iter().map(|c| format!("inline_{c}")));
    n.extend(
        [
            "depth",
            "relative_depth",
            "owner_log_chars",
            "owner_link_density",
            "owner_tags_per_char",
            "owner_links",
            "parent_log_chars",
            "parent_link_density",
            "siblings",
            "same_shape_siblings",
            "shape_blocks",
            "shape_char_share",
            "position",
            "chars_before",
            "prev_link_density",
            "prev_log_chars",
            "prev_ends_sentence",
            "next_link_density",
            "next_log_chars",
            "next_ends_sentence",
            "window_link_density",
            "window_log_chars",
            "window_sentences",
        ]
        .map(String::from),
    );
    n.extend(relative::NAMES.map(String::from));
    n.extend(
        [
            "article_selected",
            "article_prev_selected",
            "article_next_selected",
            "in_container",
            "container_levels",
            "in_chosen",
            "before_container",
            "after_container",
        ]
        .map(String::from),
    );
    n.extend(TITLE_ANCHOR_NAMES.map(String::from));
    n.extend(UNDER_HEADING.iter().map(|&(name, _)| name.to_string()));
    n.push("heading_blocks_since".to_string());
    n.extend(REMOVALS.iter().map(|r| r.to_string()));
    n.extend(
        ["attempt_strictest", "attempt_names_off", "attempt_unmarked", "attempt_crunch"]
            .map(String::from),
    );
    if set.seeds {
        n.extend(SEED_SIGNALS.iter().map(|s| format!("seed_{s}")));
    }
    n
}

/// How many per-block columns come before the page's: the length of
/// [`block_names`], counted once.
fn block_width(set: FeatureSet) -> usize {
    static WITHOUT_SEEDS: OnceLock<usize> = OnceLock::new();
    let base = *WITHOUT_SEEDS.get_or_init(|| block_names(FeatureSet { seeds: false }).len());
    if set.seeds {
        base + SEED_SIGNALS.len()
    } else {
        base
    }
}

/// Every column name of a row, in order.
pub fn feature_names(set: FeatureSet) -> Vec<String> {
    let mut n = block_names(set);
    n.extend(page::feature_names());
    n
}

/// A page's feature rows and the blocks they describe.
#[derive(Debug, Clone)]
pub struct PageRows {
    /// The blocks, one per row.
    pub blocks: Blocks,
    /// Columns per row.
    pub width: usize,
    /// The rows, row-major.
    pub values: Vec<f32>,
    /// `article`'s decision, which the rows read (the fallback when the
    /// model cannot be used).
    pub article: Selection,
    /// The page's features ([`page::feature_names`]), also the last
    /// columns of every row.
    pub page: Vec<f32>,
    /// `article`'s container and the siblings and secondary containers
    /// it added ([`Explanation::chosen`]).
    pub chosen: Vec<NodeId>,
}

impl PageRows {
    /// Row `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        self.values.get(i * self.width..(i + 1) * self.width).unwrap_or(&[])
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Is the page without blocks?
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Is block `i` code (`<pre>`, [`repeats::is_code`](super::repeats::is_code))
    /// in `article`'s container or a sibling it chose? The extractor keeps
    /// such a block whatever its score: a log or listing quoted in a post
    /// or a guide is the post's or the guide's, but its separators, symbols
    /// and missing sentences are what the forest learned boilerplate by.
    pub fn is_chosen_code(&self, doc: &Document, i: usize) -> bool {
        super::repeats::is_code(doc, &self.blocks, i)
            && in_chosen(doc, &self.blocks, &self.chosen, i)
    }
}

/// Is block `i` (its first text, or its owner when it has none) in one
/// of `chosen`, `article`'s container and the siblings it added?
fn in_chosen(doc: &Document, blocks: &Blocks, chosen: &[NodeId], i: usize) -> bool {
    let first = blocks.texts(i).first().copied().unwrap_or(blocks.blocks[i].owner);
    chosen.iter().any(|&c| doc.contains(c, first))
}

/// The share of a block's characters a selection holds.
fn selected_share(
    doc: &Document,
    blocks: &Blocks,
    i: usize,
    block: &Block,
    sel: &Selection,
) -> f32 {
    if block.chars == 0 {
        return 0.0;
    }
    let chars: u32 =
        blocks.texts(i).iter().filter(|&&t| sel.contains(t)).map(|&t| doc.stats(t).chars).sum();
    chars as f32 / block.chars as f32
}

/// A block's shape: its owner's tag and class and its parent's.
fn shape(doc: &Document, owner: NodeId) -> u64 {
    let mut h = FxHasher::default();
    let mut node = Some(owner);
    for _ in 0..2 {
        let Some(n) = node else { break };
        if let Some(e) = doc.element(n) {
            e.name().hash(&mut h);
            e.attr("class").unwrap_or("").hash(&mut h);
        }
        node = doc.parent(n);
    }
    h.finish()
}

/// How the blocks' shapes repeat: per block, its shape's blocks, share of
/// the page's characters and rank by characters.
fn repetition(blocks: &Blocks, shapes: &[u64]) -> Repetition {
    // Per shape, in order of first block: blocks, characters.
    let mut index: FxHashMap<u64, usize> = FxHashMap::default();
    let mut groups: Vec<(u32, u32)> = Vec::new();
    let of_block: Vec<usize> = blocks
        .blocks
        .iter()
        .zip(shapes)
        .map(|(b, &s)| {
            let g = *index.entry(s).or_insert_with(|| {
                groups.push((0, 0));
                groups.len() - 1
            });
            groups[g].0 += 1;
            groups[g].1 += b.chars;
            g
        })
        .collect();
    let total = groups.iter().map(|g| g.1).sum::<u32>().max(1) as f32;
    // Ranks by characters; a stable sort leaves ties in first-block order.
    let mut by_chars: Vec<usize> = (0..groups.len()).collect();
    by_chars.sort_by(|&a, &b| groups[b].1.cmp(&groups[a].1));
    let mut rank = vec![0u32; groups.len()];
    for (r, &g) in by_chars.iter().enumerate() {
        rank[g] = r as u32;
    }
    Repetition {
        counts: of_block.iter().map(|&g| groups[g].0).collect(),
        char_shares: of_block.iter().map(|&g| groups[g].1 as f32 / total).collect(),
        ranks: of_block.iter().map(|&g| rank[g]).collect(),
    }
}

/// Blocks longer than this are not compared with the title (a heading
/// is short; 0 overlap for the others).
const MAX_TITLE_CHARS: u32 = 400;

/// The per-block columns against the page's title heading
/// ([`title_anchor`]).
const TITLE_ANCHOR_NAMES: [&str; 4] =
    ["title_after", "title_log_chars_between", "title_common_levels", "title_common_log_chars"];

/// What the nearest heading above a block says, one column each: a
/// product's "Related products" cards, a "Comments" section, a
/// newsletter box are told by the heading they sit under more than by
/// their own words.
const UNDER_HEADING: [(&str, Phrase); 8] = [
    ("under_related", Phrase::Related),
    ("under_comment", Phrase::Comment),
    ("under_subscribe", Phrase::Subscribe),
    ("under_share", Phrase::Share),
    ("under_cart", Phrase::Cart),
    ("under_more", Phrase::More),
    ("under_navigation", Phrase::Navigation),
    ("under_helpful", Phrase::Helpful),
];

/// The nearest heading before a block.
#[derive(Debug, Clone, Copy)]
struct HeadingAbove {
    /// Its block.
    at: usize,
    /// What it says.
    phrases: Phrases,
}

/// Per block, the nearest heading before it (`None` when no heading
/// comes before). The title heading is one too: the blocks under it read
/// what it says.
fn headings_above(texts: &[TextFacts]) -> Vec<Option<HeadingAbove>> {
    let mut last: Option<HeadingAbove> = None;
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let above = last;
            if t.heading > 0 {
                last = Some(HeadingAbove { at: i, phrases: t.phrases });
            }
            above
        })
        .collect()
}

/// The least title overlap a heading needs to be the page's title
/// heading.
const MIN_ANCHOR_OVERLAP: f32 = 0.3;

/// The block that states the page's title: the heading (else the short
/// block) whose words overlap the title most, at least
/// [`MIN_ANCHOR_OVERLAP`]; the first of equals.
fn title_anchor(overlaps: &[f32], texts: &[TextFacts]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, (&o, t)) in overlaps.iter().zip(texts).enumerate() {
        if o < MIN_ANCHOR_OVERLAP {
            continue;
        }
        let score = o + if t.heading > 0 { 1.0 } else { 0.0 };
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

/// A block's place against the title heading `anchor`: at or after it
/// or not, the characters between them (signed log, negative before; 0
/// next to it on either side), the levels up from the block's owner to
/// the element holding both, and that element's size. A product's description and a listing's cards sit
/// under the heading in the column that holds it; reviews, related items
/// and the footer sit further out. Without an anchor: 0, 0, -1, -1.
fn title_columns(
    doc: &Document,
    blocks: &Blocks,
    starts: &[u32],
    anchor: Option<usize>,
    i: usize,
) -> [f32; 4] {
    let Some(a) = anchor else { return [0.0, 0.0, -1.0, -1.0] };
    let (b, at) = (&blocks.blocks[i], &blocks.blocks[a]);
    let between = if i >= a {
        log1p(starts[i].saturating_sub(starts[a].saturating_add(at.chars)) as f32)
    } else {
        -log1p(starts[a].saturating_sub(starts[i].saturating_add(b.chars)) as f32)
    };
    let common = std::iter::once(b.owner)
        .chain(doc.ancestors(b.owner))
        .enumerate()
        .find(|&(_, n)| doc.contains(n, at.owner));
    let (levels, size) = match common {
        Some((levels, n)) => (levels as f32, log1p(doc.stats(n).chars as f32)),
        None => (-1.0, -1.0),
    };
    [flag(i >= a), between, levels, size]
}

fn log1p(x: f32) -> f32 {
    x.ln_1p()
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// What every row of a page is computed from: the blocks, `article`'s
/// decision, the blocks' text facts and shapes, the page's facts. The
/// page's facts alone decide its type, and a type the model leaves to
/// `article` needs no rows: [`Analysis::rows`] builds them when wanted.
pub struct Analysis {
    blocks: Blocks,
    explanation: Explanation,
    texts: Vec<TextFacts>,
    rep: Repetition,
    page: PageFacts,
}

impl Analysis {
    /// The page's features ([`page::feature_names`]).
    pub fn page(&self) -> &[f32] {
        &self.page.values
    }

    /// `article`'s decision, which the rows read, with the page's blocks.
    pub fn into_article_and_blocks(self) -> (Selection, Blocks) {
        (self.explanation.selection, self.blocks)
    }

    /// The rows of the page for the feature set `set` (the seed
    /// algorithms run here when `set` asks for their signals).
    pub fn rows(self, doc: &Document, metadata: &Metadata, set: FeatureSet) -> PageRows {
        rows(doc, metadata, set, self)
    }
}

/// Reads the page for its type and rows. `None` when it has more than
/// `max_blocks` blocks.
pub fn analyse(doc: &Document, metadata: &Metadata, max_blocks: usize) -> Option<Analysis> {
    let blocks = Blocks::of(doc, max_blocks)?;
    let explanation: Explanation = Article::default().explain(doc);
    let texts: Vec<TextFacts> = (0..blocks.len())
        .map(|i| {
            let owner = blocks.blocks[i].owner;
            let pieces = blocks.texts(i).iter().map(|&t| doc.text(t));
            text_facts(pieces, heading_level(doc, owner))
        })
        .collect();
    let shapes: Vec<u64> = blocks.blocks.iter().map(|b| shape(doc, b.owner)).collect();
    let rep = repetition(&blocks, &shapes);
    let selected_chars: u32 = explanation.selection.iter().map(|t| doc.stats(t).chars).sum();
    let page = PageFacts::compute(
        doc,
        &PageInputs { metadata, blocks: &blocks, texts: &texts, repetition: &rep, selected_chars },
    );
    Some(Analysis { blocks, explanation, texts, rep, page })
}

/// The page's features alone ([`page::feature_names`]), for the page-type
/// classifier; `None` when the page has more than `max_blocks` blocks.
pub fn page_features(doc: &Document, metadata: &Metadata, max_blocks: usize) -> Option<Vec<f32>> {
    analyse(doc, metadata, max_blocks).map(|a| a.page.values)
}

/// The rows of a page. `None` when the page has more than `max_blocks`
/// blocks.
pub fn page_rows(
    doc: &Document,
    metadata: &Metadata,
    set: FeatureSet,
    max_blocks: usize,
) -> Option<PageRows> {
    Some(analyse(doc, metadata, max_blocks)?.rows(doc, metadata, set))
}

/// The seed algorithms' selections, the signals of [`SEED_SIGNALS`].
fn seed_selections(doc: &Document) -> Vec<Selection> {
    SEED_SIGNALS
        .iter()
        .map(|name| match extract::by_name(name) {
            Ok(e) => e.extract(doc),
            Err(_) => Selection::none(doc),
        })
        .collect()
}

/// [`Analysis::rows`].
fn rows(doc: &Document, metadata: &Metadata, set: FeatureSet, analysis: Analysis) -> PageRows {
    let Analysis { blocks, explanation, texts, rep, page } = analysis;
    let seeds = if set.seeds { seed_selections(doc) } else { Vec::new() };
    // The title the page states, not the lone `<h1>` the metadata may
    // show instead: the model reads the page's own claim.
    let title = metadata.stated_title_or_title();
    let title_words = word_hashes([title.unwrap_or("")]);
    let block_width = block_width(set);
    let width = block_width + page.values.len();
    let n = blocks.len();
    let mut values = Vec::with_capacity(n * width);
    let total_chars: u32 = blocks.blocks.iter().map(|b| b.chars).sum::<u32>().max(1);
    let max_depth = blocks.blocks.iter().map(|b| b.depth).max().unwrap_or(1).max(1);
    let article_share: Vec<f32> = (0..n)
        .map(|i| selected_share(doc, &blocks, i, &blocks.blocks[i], &explanation.selection))
        .collect();
    let container = explanation.container;
    let inline_cues: Vec<Cue> = INLINE_CUES.iter().filter_map(|c| cue(c)).collect();
    let mut chars_before = 0u32;
    // Blocks of one parent share its children's shapes: read once.
    let mut sibling_shapes: FxHashMap<NodeId, ChildShapes> = FxHashMap::default();
    let mut word_buf = Vec::new();
    let log_chars: Vec<f32> = blocks.blocks.iter().map(|b| log1p(b.chars as f32)).collect();
    let placed = relative::columns(&rep.char_shares, &rep.ranks);
    let title_overlaps: Vec<f32> = (0..n)
        .map(|i| {
            if blocks.blocks[i].chars > MAX_TITLE_CHARS {
                0.0
            } else {
                word_overlap(
                    blocks.texts(i).iter().map(|&t| doc.text(t)),
                    &title_words,
                    &mut word_buf,
                )
            }
        })
        .collect();
    let anchor = title_anchor(&title_overlaps, &texts);
    let above = headings_above(&texts);
    let starts: Vec<u32> = blocks
        .blocks
        .iter()
        .scan(0u32, |sum, b| {
            let start = *sum;
            *sum = sum.saturating_add(b.chars);
            Some(start)
        })
        .collect();
    for i in 0..n {
        let b = &blocks.blocks[i];
        let t = &texts[i];
        let start = values.len();
        // text
        let words = t.words.max(1) as f32;
        let nonspace = t.chars.max(1) as f32;
        values.extend([
            log1p(b.chars as f32),
            log1p(b.words as f32),
            b.link_density(),
            if b.words == 0 { 0.0 } else { b.link_words as f32 / b.words as f32 },
            (b.texts.end - b.texts.start) as f32,
            t.commas as f32 / words,
            t.sentences as f32,
            flag(t.ends_sentence),
            t.digits as f32 / nonspace,
            t.capitalised as f32 / words,
            t.letters as f32 / nonspace,
            t.symbols as f32 / nonspace,
            t.separators as f32,
            t.prices as f32,
            t.questions as f32,
            f32::from(t.heading),
            title_overlaps[i],
        ]);
        values.extend(PHRASES.iter().map(|&p| flag(t.phrases.contains(p))));
        // markup
        let tag = owner_tag(doc, b.owner);
        values.extend((0..OWNER_TAGS.len()).map(|k| flag(k == tag)));
        values.extend(b.near.iter().map(|&d| if d == FAR { 99.0 } else { f32::from(d) }));
        values.extend(inline_cues.iter().map(|&c| flag(b.inline.contains(c))));
        // structure
        let owner_stats = doc.stats(b.owner);
        let parent = doc.parent(b.owner);
        let parent_stats = parent.map(|p| doc.stats(p)).unwrap_or_default();
        let (siblings, same) = match parent {
            Some(p) => {
                let children = sibling_shapes.entry(p).or_insert_with(|| children_shapes(doc, p));
                let mine = shape_of_element(doc, b.owner);
                (children.elements, children.counts.get(&mine).copied().unwrap_or(0))
            }
            None => (0, 0),
        };
        let neighbour = |j: Option<usize>| -> (f32, f32, f32) {
            match j.and_then(|j| blocks.blocks.get(j).map(|b| (b, &texts[j]))) {
                Some((nb, nt)) => {
                    (nb.link_density(), log1p(nb.chars as f32), flag(nt.ends_sentence))
                }
                None => (-1.0, -1.0, -1.0),
            }
        };
        let prev = neighbour(i.checked_sub(1));
        let next = neighbour(Some(i + 1).filter(|&j| j < n));
        let lo = i.saturating_sub(3);
        let hi = (i + 4).min(n);
        let span = (hi - lo) as f32;
        let window_ld = blocks.blocks[lo..hi].iter().map(Block::link_density).sum::<f32>() / span;
        let window_chars = log_chars[lo..hi].iter().sum::<f32>() / span;
        let window_sentences = texts[lo..hi].iter().map(|t| t.sentences as f32).sum::<f32>() / span;
        values.extend([
            f32::from(b.depth),
            f32::from(b.depth) / f32::from(max_depth),
            log1p(owner_stats.chars as f32),
            owner_stats.link_density() as f32,
            owner_stats.tags as f32 / (owner_stats.chars.max(1) as f32),
            log1p(owner_stats.links as f32),
            log1p(parent_stats.chars as f32),
            parent_stats.link_density() as f32,
            siblings as f32,
            same as f32,
            log1p(rep.counts[i] as f32),
            rep.char_shares[i],
            i as f32 / n as f32,
            chars_before as f32 / total_chars as f32,
            prev.0,
            prev.1,
            prev.2,
            next.0,
            next.1,
            next.2,
            window_ld,
            window_chars,
            window_sentences,
        ]);
        values.extend(placed[i]);
        chars_before += b.chars;
        // article
        let first_text = blocks.texts(i).first().copied().unwrap_or(b.owner);
        let in_container = container.is_some_and(|c| doc.contains(c, first_text));
        let container_levels = match container {
            Some(c) if doc.contains(c, b.owner) => {
                doc.ancestors(b.owner).take_while(|&a| a != c).count() as f32 + 1.0
            }
            Some(c) if doc.contains(b.owner, c) => -1.0,
            _ => -2.0,
        };
        let in_chosen = in_chosen(doc, &blocks, &explanation.chosen, i);
        let (before, after) = match container {
            Some(c) => (first_text < c, first_text.0 >= doc.subtree_end(c).0),
            None => (false, false),
        };
        values.extend([
            article_share[i],
            if i > 0 { article_share[i - 1] } else { -1.0 },
            article_share.get(i + 1).copied().unwrap_or(-1.0),
            flag(in_container),
            container_levels,
            flag(in_chosen),
            flag(before),
            flag(after),
        ]);
        values.extend(title_columns(doc, &blocks, &starts, anchor, i));
        match above[i] {
            Some(h) => {
                values.extend(UNDER_HEADING.iter().map(|&(_, p)| flag(h.phrases.contains(p))));
                values.push(log1p((i - h.at) as f32));
            }
            None => {
                values.extend(UNDER_HEADING.iter().map(|_| 0.0));
                values.push(-1.0);
            }
        }
        let mut removed = [0.0f32; REMOVALS.len()];
        for r in &explanation.removed {
            if doc.contains(r.node, first_text) {
                removed[removal_column(r.rule)] = 1.0;
            }
        }
        values.extend(removed);
        let attempt = explanation.attempt as usize;
        values.extend((0..4).map(|k| flag(k == attempt)));
        for s in &seeds {
            values.push(selected_share(doc, &blocks, i, b, s));
        }
        debug_assert_eq!(values.len() - start, block_width);
        values.extend_from_slice(&page.values);
    }
    PageRows {
        blocks,
        width,
        values,
        article: explanation.selection,
        page: page.values,
        chosen: explanation.chosen,
    }
}

/// The element children of a parent: how many, and how many of each
/// shape ([`shape_of_element`]).
struct ChildShapes {
    elements: u32,
    counts: FxHashMap<u64, u32>,
}

fn children_shapes(doc: &Document, parent: NodeId) -> ChildShapes {
    let mut out = ChildShapes { elements: 0, counts: FxHashMap::default() };
    for c in doc.children(parent) {
        if doc.element(c).is_some() {
            out.elements += 1;
            *out.counts.entry(shape_of_element(doc, c)).or_default() += 1;
        }
    }
    out
}

/// An element's tag and class, for same-shaped siblings (and the parts
/// kept alike, [`super::alike`]).
pub(super) fn shape_of_element(doc: &Document, id: NodeId) -> u64 {
    let mut h = FxHasher::default();
    if let Some(e) = doc.element(id) {
        e.name().hash(&mut h);
        e.attr("class").unwrap_or("").hash(&mut h);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    #[test]
    fn every_row_has_every_column() {
        let html = "<html><head><title>Storm</title></head><body><nav><a href=/>Home</a></nav>\
                    <article><h1>Storm</h1><p>The storm reached the coast, with rain.</p></article></body></html>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let meta = Metadata::extract(&doc);
        for set in [FeatureSet { seeds: true }, FeatureSet { seeds: false }] {
            let rows = page_rows(&doc, &meta, set, 100).expect("rows");
            assert_eq!(rows.len(), 3);
            assert_eq!(rows.width, feature_names(set).len());
            assert_eq!(rows.values.len(), 3 * rows.width);
            assert!(rows.values.iter().all(|v| v.is_finite()));
        }
    }

    #[test]
    fn blocks_are_placed_against_the_title_and_the_heading_above() {
        let html = "<html><head><title>Storm over the coast | News</title></head><body>\
                    <nav><a href=/>Home</a></nav><main><h1>Storm over the coast</h1>\
                    <p>The storm reached the coast, with rain all day.</p>\
                    <h2>Related stories</h2><ul><li><a href=/a>Snow in the hills</a></li></ul>\
                    </main></body></html>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let meta = Metadata::extract(&doc);
        let set = FeatureSet { seeds: false };
        let rows = page_rows(&doc, &meta, set, 100).expect("rows");
        let names = feature_names(set);
        let col = |name: &str| names.iter().position(|n| n == name).expect(name);
        let text = |i: usize| -> String {
            rows.blocks.texts(i).iter().map(|&t| doc.text(t)).collect::<String>()
        };
        let at = |needle: &str| (0..rows.len()).find(|&i| text(i).contains(needle)).expect(needle);
        let value = |i: usize, name: &str| rows.row(i)[col(name)];
        let (nav, prose, card) = (at("Home"), at("The storm"), at("Snow"));
        assert_eq!(value(nav, "title_after"), 0.0);
        assert_eq!(value(prose, "title_after"), 1.0);
        assert_eq!(value(prose, "heading_blocks_since"), 1f32.ln_1p());
        assert_eq!(value(prose, "under_related"), 0.0);
        assert_eq!(value(card, "under_related"), 1.0);
        assert_eq!(value(card, "heading_blocks_since"), 1f32.ln_1p());
        assert_eq!(value(nav, "heading_blocks_since"), -1.0);
        // Right after the title nothing lies between; the cards lie past
        // the prose and its heading.
        assert_eq!(value(prose, "title_log_chars_between"), 0.0);
        assert!(value(card, "title_log_chars_between") > 3.0);
        // The prose and the title meet in `main`, one level up from the
        // paragraph; the menu only in `body`, which holds more.
        assert_eq!(value(prose, "title_common_levels"), 1.0);
        assert!(value(nav, "title_common_log_chars") > value(prose, "title_common_log_chars"));
    }

    #[test]
    fn a_page_without_a_title_heading_has_no_anchor() {
        let overlaps = [0.1, 0.2, 0.0];
        let texts = vec![TextFacts::default(); 3];
        assert_eq!(title_anchor(&overlaps, &texts), None);
        let html =
            "<html><body><p>The storm reached the coast.</p><p>Rain all day.</p></body></html>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let meta = Metadata::extract(&doc);
        let set = FeatureSet { seeds: false };
        let rows = page_rows(&doc, &meta, set, 100).expect("rows");
        let names = feature_names(set);
        let first = names.iter().position(|n| n == "title_after").expect("column");
        // No title, stated or shown: nothing to anchor to.
        for i in 0..rows.len() {
            assert_eq!(rows.row(i)[first..first + 4], [0.0, 0.0, -1.0, -1.0]);
        }
    }

    #[test]
    fn the_title_heading_is_the_heading_that_says_the_title() {
        let heading = TextFacts { heading: 2, ..TextFacts::default() };
        let texts = vec![TextFacts::default(), heading, TextFacts::default()];
        // A heading that says the title beats a longer overlap in prose.
        assert_eq!(title_anchor(&[0.9, 0.5, 0.0], &texts), Some(1));
    }
}
