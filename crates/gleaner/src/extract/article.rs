//! Article — gleaner's own extractor: the papers' signals combined
//! around a main-container search.
//!
//! Reads the **DOM** and the **source**. The idea of the container search
//! is Readability's (Arc90, 2009): text-rich paragraphs vote for the
//! element that contains them, so the article's container collects the
//! most votes. The votes here are shaped by the papers' measures:
//!
//! 1. **Boilerplate marks.** Subtrees that are navigation by their role or
//!    name (`nav`, `aside`, `footer`, `form`, ARIA landmarks, class and id
//!    words like `sidebar`, `comment`, `share`) are set aside, unless they
//!    hold most of the page's text.
//! 2. **Paragraph votes.** Every text block (a block-level element's own
//!    text, as in the Link Quota Filter, Mantratzis et al. 2005) with
//!    enough characters casts
//!    `1 + commas + min(chars / 100, 3)`, scaled by `1 − link quota` and
//!    by the block's content-code ratio from token-level Content Code
//!    Blurring (Gottron 2008): text standing in a long run of text counts
//!    fully, text amid markup counts less. The vote goes to the parent
//!    (full), grandparent (half) and great-grandparent (a sixth).
//! 3. **The container** is the element with the highest vote total times
//!    `1 − its link density`, adjusted by class words (`article`,
//!    `content` up; `comment`, `sidebar` down).
//! 4. **Siblings** of the container join when their own votes reach a
//!    share of the winner's, or when they are text paragraphs with few
//!    links (Readability's sibling rule); containers elsewhere on the page
//!    that score nearly as high as the winner join too (content split over
//!    table cells or sections).
//! 5. **Cleaning** inside: boilerplate subtrees, link lists (LQF quota
//!    above θ), Crunch's lists of short link items, and blocks named as
//!    share bars, newsletter boxes, promotions or related teasers are
//!    removed; the headline before the container is kept.
//!
//! When no container wins clearly (no paragraph reaches the minimum
//! length), the page is handed to [`Crunch`].

use markup5ever::{local_name, LocalName};

use super::ccb::{Ccb, CcbConfig, CcbVariant};
use super::lqf::BlockOwnText;
use super::{parse_param, unknown_param, Configure, Crunch, Extractor};
use crate::document::tags::heading_level;
use crate::document::{Document, NodeFlags, NodeId};
use crate::error::{Error, Result};
use crate::selection::Selection;

/// Parameters of [`Article`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ArticleConfig {
    /// Characters a text block needs to vote. Default 25 (Readability).
    pub min_paragraph_chars: u32,
    /// A sibling joins the container when its votes reach this share of
    /// the container's. Default 0.2 (Readability).
    pub sibling_share: f64,
    /// Inside the container, a block whose own link quota exceeds this is
    /// a link list and removed. Default 0.5 (LQF's θ).
    pub link_quota: f64,
    /// Weight of the content-code ratio in the votes: 0 ignores it, 1 makes
    /// the vote proportional to it. Default 0.5 \[I\].
    pub ccr_weight: f64,
    /// How many ancestors a paragraph votes for. Default 2, as in
    /// readability-lxml (Readability.js uses 5); 2 to 5 differ by less
    /// than 0.003 macro F1 on the dev sets, 2 is best on four of six.
    pub levels: usize,
    /// Other containers elsewhere on the page join when their score
    /// reaches this share of the winner's (pages whose content sits in
    /// several table cells or sections). 1 turns this off. Default 0.7
    /// \[I\]: 0.6 to 0.9 score alike on the dev sets (+0.002 macro F1 over
    /// off, +0.016 on CleanEval, −0.005 on L3S-GN1).
    pub secondary_share: f64,
}

impl Default for ArticleConfig {
    fn default() -> ArticleConfig {
        ArticleConfig {
            min_paragraph_chars: 25,
            sibling_share: 0.2,
            link_quota: 0.5,
            ccr_weight: 0.5,
            levels: 2,
            secondary_share: 0.7,
        }
    }
}

impl Configure for ArticleConfig {
    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match key {
            "min_paragraph_chars" => self.min_paragraph_chars = parse_param(key, value)?,
            "sibling_share" => self.sibling_share = parse_param(key, value)?,
            "link_quota" => self.link_quota = parse_param(key, value)?,
            "ccr_weight" => self.ccr_weight = parse_param(key, value)?,
            "levels" => self.levels = parse_param(key, value)?,
            "secondary_share" => self.secondary_share = parse_param(key, value)?,
            _ => return Err(unknown_param("article", key)),
        }
        Ok(())
    }

    fn validate(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.sibling_share)
            || !(0.0..=1.0).contains(&self.link_quota)
            || !(0.0..=1.0).contains(&self.ccr_weight)
        {
            return Err(Error::InvalidConfig(
                "article sibling_share, link_quota and ccr_weight must be in [0, 1]".into(),
            ));
        }
        Ok(())
    }
}

/// The combined extractor. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Article {
    config: ArticleConfig,
}

impl Article {
    /// The extractor with this configuration.
    pub fn new(config: ArticleConfig) -> Article {
        Article { config }
    }
}

/// Class and id words of article containers (Readability's list).
const POSITIVE: &[&str] = &[
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text",
    "blog", "story", "prose",
];

/// Class and id words of boilerplate (Readability's list and common CMS
/// names).
const NEGATIVE: &[&str] = &[
    "hidden",
    "banner",
    "combx",
    "comment",
    "com-",
    "contact",
    "foot",
    "footer",
    "footnote",
    "gdpr",
    "masthead",
    "media",
    "meta",
    "outbrain",
    "promo",
    "related",
    "scroll",
    "share",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "sponsor",
    "shopping",
    "tags",
    "tool",
    "widget",
    "nav",
    "menu",
    "social",
    "breadcrumb",
    "cookie",
    "newsletter",
    "subscribe",
    "popup",
    "modal",
    "advert",
    "disqus",
    "pagination",
    "pager",
    "rss",
    "login",
    "signup",
    "teaser",
    "recommend",
];

/// Words in a class or id that mark a subtree as boilerplate outright
/// (Readability's "unlikely candidates").
const UNLIKELY: &[&str] = &[
    "-ad-",
    "banner",
    "breadcrumbs",
    "combx",
    "comment",
    "community",
    "cover-wrap",
    "disqus",
    "extra",
    "footer",
    "gdpr",
    "header",
    "legends",
    "menu",
    "related",
    "remark",
    "replies",
    "rss",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "social",
    "sponsor",
    "supplemental",
    "ad-break",
    "agegate",
    "pagination",
    "pager",
    "popup",
    "yom-remote",
];

/// Words that rescue an unlikely-looking class (`article-footer` no,
/// `main-column` yes).
const MAYBE: &[&str] = &["and", "article", "body", "column", "content", "main", "shadow"];

fn contains_any(haystack: &str, words: &[&str]) -> bool {
    words.iter().any(|w| haystack.contains(w))
}

/// Class-name weight: +25 for article words, −25 for boilerplate words.
fn class_weight(doc: &Document, id: NodeId) -> f64 {
    let Some(e) = doc.element(id) else { return 0.0 };
    let names = e.id_and_class();
    if names.is_empty() {
        return 0.0;
    }
    let mut w = 0.0;
    if contains_any(&names, NEGATIVE) {
        w -= 25.0;
    }
    if contains_any(&names, POSITIVE) {
        w += 25.0;
    }
    w
}

/// How eagerly subtrees are set aside as boilerplate. A page whose
/// article hides in a `<div class="widget-blog">` or a `<form>` yields
/// (almost) nothing at [`Strictness::Names`]; the search is then repeated
/// with weaker marks, as Readability does. User comments stay out until
/// nothing else is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strictness {
    /// Tags, ARIA roles and class/id words.
    Names,
    /// Tags, ARIA roles and comment sections.
    Roles,
    /// Nothing is set aside.
    Off,
}

/// Is this element boilerplate by its tag, ARIA role or class and id?
fn is_boilerplate(
    doc: &Document,
    id: NodeId,
    strictness: Strictness,
    in_table_or_code: bool,
) -> bool {
    let Some(e) = doc.element(id) else { return false };
    if strictness == Strictness::Off {
        return false;
    }
    if matches!(
        e.name,
        local_name!("nav")
            | local_name!("aside")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("menu")
            | local_name!("select")
            | local_name!("button")
    ) {
        return true;
    }
    if let Some(role) = e.attr("role") {
        let role = role.trim().to_ascii_lowercase();
        if matches!(
            role.as_str(),
            "navigation"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "menu"
                | "menubar"
                | "search"
                | "dialog"
                | "alert"
                | "toolbar"
        ) {
            return true;
        }
    }
    let names = e.id_and_class();
    if is_comment_section(&names) {
        return true;
    }
    if strictness == Strictness::Roles {
        return false;
    }
    // Readability.js spares links, anything in a table or code block; we
    // spare headings and definition terms too (`<dt class="subheaders">`).
    let spared = matches!(e.name, local_name!("a") | local_name!("dt"))
        || heading_level(&e.name).is_some()
        || in_table_or_code;
    !spared && !names.is_empty() && contains_any(&names, UNLIKELY) && !contains_any(&names, MAYBE)
}

/// User comments, by class or id: a name part that starts with `comment`
/// (but not `commentary`, an opinion piece), or `disqus`, `respond`,
/// `replies`. No article word rescues these (`comment-body` is a comment).
fn is_comment_section(names: &str) -> bool {
    names.split(|c: char| !c.is_ascii_alphanumeric()).any(|part| {
        (part.starts_with("comment") && !part.starts_with("commentary"))
            || part.starts_with("disqus")
            || part == "respond"
            || part == "replies"
    })
}

/// The initial vote total of a candidate, by its tag (Readability).
fn tag_weight(name: &LocalName) -> f64 {
    match *name {
        local_name!("div")
        | local_name!("article")
        | local_name!("main")
        | local_name!("section") => 5.0,
        local_name!("pre") | local_name!("td") | local_name!("blockquote") => 3.0,
        local_name!("address")
        | local_name!("ol")
        | local_name!("ul")
        | local_name!("dl")
        | local_name!("dd")
        | local_name!("dt")
        | local_name!("li")
        | local_name!("form") => -3.0,
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("th") => -5.0,
        _ => 0.0,
    }
}

/// A text segment: a run of text in one block that no `<br><br>`, `<hr>`
/// or block boundary interrupts (the paragraphs of boilerpipe and
/// jusText, ALGORITHMS.md §1.2). Text set directly in a `<td>` or `<div>`
/// with line breaks is several paragraphs, not one.
#[derive(Debug, Clone)]
struct Segment {
    /// The block the text belongs to.
    owner: NodeId,
    chars: u32,
    link_chars: u32,
    commas: u32,
    /// Mean content-code ratio of the text (TCCB), weighted by characters.
    ccr: f32,
}

impl Segment {
    fn link_quota(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }
}

/// Per-node facts the steps share.
struct Analysis {
    segments: Vec<Segment>,
    /// The segment of each visible text node (`usize::MAX` for others).
    segment_of: Vec<usize>,
    /// Every block with text, its segments summed, in document order:
    /// the voters, the same in every attempt.
    blocks: Vec<(NodeId, Segment)>,
}

impl Analysis {
    fn new(doc: &Document) -> Analysis {
        let own = BlockOwnText::compute(doc);
        let n = doc.len();
        let scores = Ccb::new(CcbConfig::for_variant(CcbVariant::Tccb)).extract(doc);
        let mut segments: Vec<Segment> = Vec::new();
        let mut segment_of = vec![usize::MAX; n];
        let mut previous: Option<NodeId> = None;
        let mut ccr_weight = 0f32;
        for id in doc.text_nodes() {
            let owner = own.owner[id.index()];
            let new_segment = match previous {
                None => true,
                Some(prev) => own.owner[prev.index()] != owner || breaks_between(doc, prev, id),
            };
            if new_segment {
                if let Some(last) = segments.last_mut() {
                    last.ccr = if ccr_weight > 0.0 { last.ccr / ccr_weight } else { 1.0 };
                }
                segments.push(Segment { owner, chars: 0, link_chars: 0, commas: 0, ccr: 0.0 });
                ccr_weight = 0.0;
            }
            let stats = doc.stats(id);
            if let Some(seg) = segments.last_mut() {
                seg.chars += stats.chars;
                seg.link_chars += stats.link_chars;
                seg.commas +=
                    doc.text(id).chars().filter(|c| matches!(c, ',' | '，' | '、' | '،')).count()
                        as u32;
                let w = stats.chars as f32;
                seg.ccr += w * scores.score(id).unwrap_or(1.0).clamp(0.0, 1.0);
                ccr_weight += w;
            }
            segment_of[id.index()] = segments.len() - 1;
            previous = Some(id);
        }
        if let Some(last) = segments.last_mut() {
            last.ccr = if ccr_weight > 0.0 { last.ccr / ccr_weight } else { 1.0 };
        }
        let blocks = sum_by_block(&segments);
        Analysis { segments, segment_of, blocks }
    }

    fn segment(&self, text: NodeId) -> Option<&Segment> {
        self.segments.get(*self.segment_of.get(text.index())?)
    }
}

/// The segments summed per block, in document order.
fn sum_by_block(segments: &[Segment]) -> Vec<(NodeId, Segment)> {
    let mut by_owner: std::collections::BTreeMap<NodeId, Segment> = Default::default();
    for seg in segments {
        let e = by_owner.entry(seg.owner).or_insert(Segment {
            owner: seg.owner,
            chars: 0,
            link_chars: 0,
            commas: 0,
            ccr: 0.0,
        });
        let total = e.chars + seg.chars;
        if total > 0 {
            e.ccr = (e.ccr * e.chars as f32 + seg.ccr * seg.chars as f32) / total as f32;
        }
        e.chars = total;
        e.link_chars += seg.link_chars;
        e.commas += seg.commas;
    }
    by_owner.into_iter().collect()
}

/// Two `<br>`s or an `<hr>` between two text nodes of the same block.
fn breaks_between(doc: &Document, prev: NodeId, next: NodeId) -> bool {
    let mut brs = 0;
    for id in (prev.0 + 1..next.0).map(NodeId) {
        match doc.name(id) {
            Some(&local_name!("br")) => {
                brs += 1;
                if brs >= 2 {
                    return true;
                }
            }
            Some(&local_name!("hr")) => return true,
            _ => {}
        }
    }
    false
}

/// Boilerplate subtrees (marks are inherited from ancestors). A marked
/// subtree holding most of the body's text is the page itself (ASP.NET
/// forms, `<div id=main-menu-and-content>`) and is not marked.
fn boilerplate_marks(doc: &Document, strictness: Strictness) -> Vec<bool> {
    let mut boilerplate = vec![false; doc.len()];
    let mut comments = vec![false; doc.len()];
    let mut in_table_or_code = vec![false; doc.len()];
    for id in doc.ids().skip(1) {
        let parent = doc.parent(id);
        let inherited = parent.is_some_and(|p| boilerplate[p.index()]);
        let in_table = parent.is_some_and(|p| {
            in_table_or_code[p.index()]
                || matches!(doc.name(p), Some(&local_name!("table")) | Some(&local_name!("code")))
        });
        in_table_or_code[id.index()] = in_table;
        boilerplate[id.index()] = inherited || is_boilerplate(doc, id, strictness, in_table);
        comments[id.index()] = parent.is_some_and(|p| comments[p.index()])
            || (strictness != Strictness::Off
                && doc.element(id).is_some_and(|e| is_comment_section(&e.id_and_class())));
    }
    let body_chars = f64::from(doc.stats(doc.body()).chars.max(1));
    for id in doc.ids() {
        if boilerplate[id.index()]
            && !comments[id.index()]
            && !doc.parent(id).is_some_and(|p| boilerplate[p.index()])
            && f64::from(doc.stats(id).chars) > 0.5 * body_chars
        {
            for d in doc.subtree(id) {
                boilerplate[d.index()] = comments[d.index()];
            }
        }
    }
    boilerplate
}

/// Below this many characters an attempt is retried less strictly
/// (Readability uses 500).
const MIN_ARTICLE_CHARS: u32 = 250;

impl Extractor for Article {
    fn extract(&self, doc: &Document) -> Selection {
        let a = Analysis::new(doc);
        let mut best: Option<(u32, Selection)> = None;
        for strictness in [Strictness::Names, Strictness::Roles, Strictness::Off] {
            let boilerplate = boilerplate_marks(doc, strictness);
            let Some(sel) = self.attempt(doc, &a, &boilerplate) else { continue };
            let chars: u32 = sel.iter().map(|id| doc.stats(id).chars).sum();
            if chars >= MIN_ARTICLE_CHARS {
                return sel;
            }
            if best.as_ref().is_none_or(|(c, _)| chars > *c) {
                best = Some((chars, sel));
            }
        }
        match best {
            Some((chars, sel)) if chars > 0 => sel,
            _ => Crunch::default().extract(doc),
        }
    }
}

impl Article {
    /// One container search; `None` when no paragraph votes.
    fn attempt(&self, doc: &Document, a: &Analysis, boilerplate: &[bool]) -> Option<Selection> {
        let cfg = &self.config;
        let n = doc.len();
        let mut votes = vec![0f64; n];
        let mut is_candidate = vec![false; n];
        // Step 2: paragraph votes, one per block (its segments summed).
        for (owner, seg) in &a.blocks {
            let owner = *owner;
            if seg.chars < cfg.min_paragraph_chars || boilerplate[owner.index()] {
                continue;
            }
            let vote = (1.0 + f64::from(seg.commas) + (f64::from(seg.chars) / 100.0).min(3.0))
                * (1.0 - seg.link_quota())
                * (1.0 - cfg.ccr_weight + cfg.ccr_weight * f64::from(seg.ccr));
            for (level, anc) in doc.ancestors(owner).take(cfg.levels.max(1)).enumerate() {
                if doc.element(anc).is_none() {
                    break;
                }
                if !is_candidate[anc.index()] {
                    is_candidate[anc.index()] = true;
                    votes[anc.index()] =
                        doc.name(anc).map_or(0.0, tag_weight) + class_weight(doc, anc);
                }
                let divider = match level {
                    0 => 1.0,
                    1 => 2.0,
                    l => l as f64 * 3.0,
                };
                votes[anc.index()] += vote / divider;
            }
        }
        // Step 3: the container.
        let scored = |id: NodeId| votes[id.index()] * (1.0 - doc.stats(id).link_density());
        let best = doc
            .ids()
            .filter(|&id| is_candidate[id.index()] && !boilerplate[id.index()])
            .max_by(|&x, &y| scored(x).total_cmp(&scored(y)));
        let top = refine_top(doc, best?, &is_candidate, &scored);
        let top_score = scored(top);
        // Step 4: the container and its siblings.
        let mut chosen: Vec<NodeId> = Vec::new();
        match doc.parent(top).filter(|&p| doc.element(p).is_some()) {
            None => chosen.push(top),
            Some(parent) => {
                let threshold = (top_score * cfg.sibling_share).max(10.0);
                let top_class = doc.attr(top, "class").unwrap_or("").trim();
                for sib in doc.children(parent) {
                    if sib == top {
                        chosen.push(sib);
                        continue;
                    }
                    if doc.element(sib).is_none() || boilerplate[sib.index()] {
                        continue;
                    }
                    let bonus = if !top_class.is_empty()
                        && doc.attr(sib, "class").map(str::trim) == Some(top_class)
                    {
                        top_score * 0.2
                    } else {
                        0.0
                    };
                    if is_candidate[sib.index()] && scored(sib) + bonus >= threshold {
                        chosen.push(sib);
                        continue;
                    }
                    let s = doc.stats(sib);
                    let ld = s.link_density();
                    let paragraph_like = doc.is(sib, local_name!("p"))
                        || (s.flags.contains(NodeFlags::BLOCK) && s.tags <= 3);
                    if paragraph_like && s.chars > 0 {
                        let text = doc.text_content(sib);
                        if (s.chars > 80 && ld < 0.25)
                            || (ld == 0.0 && (text.ends_with('.') || text.ends_with('。')))
                        {
                            chosen.push(sib);
                        }
                    }
                }
            }
        }
        // Step 4b: secondary containers elsewhere on the page.
        if cfg.secondary_share < 1.0 {
            // Deviation from Readability, which keeps one container:
            // CleanEval-style pages spread their text over several cells.
            let mut others: Vec<NodeId> = doc
                .ids()
                .filter(|&id| {
                    is_candidate[id.index()]
                        && !boilerplate[id.index()]
                        && scored(id) >= cfg.secondary_share * top_score
                })
                .collect();
            others.sort_by(|&x, &y| scored(y).total_cmp(&scored(x)));
            for id in others {
                let overlaps = chosen.iter().any(|&c| doc.contains(c, id) || doc.contains(id, c));
                if !overlaps {
                    chosen.push(id);
                }
            }
            chosen.sort();
        }
        // Step 5: cleaning.
        let mut sel = Selection::none(doc);
        for &root in &chosen {
            for id in doc.subtree(root) {
                if !doc.is_text(id) || !is_content_text(doc, id) || boilerplate[id.index()] {
                    continue;
                }
                if let Some(seg) = a.segment(id) {
                    if seg.link_quota() > cfg.link_quota && !is_heading(doc, seg.owner) {
                        continue;
                    }
                }
                sel.set(id, true);
            }
        }
        remove_link_lists(doc, &chosen, &mut sel);
        remove_inner_boilerplate(doc, &chosen, &mut sel);
        keep_headline(doc, boilerplate, &chosen, &mut sel);
        Some(sel)
    }
}

/// Name parts of blocks that sit inside articles but are not the article:
/// share bars, newsletter boxes, promotions, "related" and "recommended"
/// teasers, advertisements.
const INNER_BOILERPLATE: &[&str] = &[
    "share",
    "sharing",
    "social",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "promo",
    "related",
    "recommended",
    "recommendations",
    "advert",
    "advertisement",
    "ad",
    "ads",
    "sponsor",
    "sponsored",
    "outbrain",
    "taboola",
    "popup",
    "modal",
    "cookie",
    "print",
    "toolbar",
    "rating",
];

/// Inside the chosen containers, blocks named like [`INNER_BOILERPLATE`]
/// (whole name parts, so `shared-content` or `adult` do not match) are
/// dropped with their text.
fn remove_inner_boilerplate(doc: &Document, chosen: &[NodeId], sel: &mut Selection) {
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            let named = doc.element(id).is_some_and(|e| {
                e.id_and_class()
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|part| INNER_BOILERPLATE.contains(&part))
            });
            if named && !is_heading(doc, id) {
                sel.deselect_subtree(doc, id);
                id = doc.subtree_end(id);
            } else {
                id = NodeId(id.0 + 1);
            }
        }
    }
}

/// Readability's corrections of the winner:
/// - when at least three of the five best candidates with three quarters of
///   the winner's score sit under one of its ancestors, the content is
///   split into sections and that ancestor is the container;
/// - an ancestor whose score rises above the winner's takes over (scores
///   that fall below a third of the winner's stop the climb);
/// - a container that is its parent's only element child is replaced by
///   the parent.
fn refine_top(
    doc: &Document,
    top: NodeId,
    is_candidate: &[bool],
    scored: &dyn Fn(NodeId) -> f64,
) -> NodeId {
    let body = doc.body();
    let top_score = scored(top);
    let mut others: Vec<NodeId> =
        doc.ids().filter(|&id| is_candidate[id.index()] && id != top).collect();
    others.sort_by(|&x, &y| scored(y).total_cmp(&scored(x)));
    others.truncate(4);
    others.retain(|&id| scored(id) >= 0.75 * top_score);
    let mut top = top;
    if others.len() >= 3 {
        if let Some(common) = doc
            .ancestors(top)
            .take_while(|&a| a != body && doc.element(a).is_some())
            .find(|&a| others.iter().filter(|&&o| doc.contains(a, o)).count() >= 3)
        {
            top = common;
        }
    }
    let mut last = scored(top);
    let threshold = last / 3.0;
    for parent in doc.ancestors(top).take_while(|&a| a != body && doc.element(a).is_some()) {
        if !is_candidate[parent.index()] {
            continue;
        }
        let score = scored(parent);
        if score < threshold {
            break;
        }
        if score > last {
            top = parent;
            break;
        }
        last = score;
    }
    while let Some(parent) = doc.parent(top).filter(|&p| p != body && doc.element(p).is_some()) {
        if doc.children(parent).filter(|&c| doc.element(c).is_some()).count() != 1 {
            break;
        }
        top = parent;
    }
    top
}

fn is_content_text(doc: &Document, id: NodeId) -> bool {
    let s = doc.stats(id);
    s.flags.contains(NodeFlags::TEXT | NodeFlags::VISIBLE) && s.chars > 0
}

fn is_heading(doc: &Document, id: NodeId) -> bool {
    doc.name(id).is_some_and(|n| heading_level(n).is_some())
}

/// Lists and containers inside the article whose items are short links
/// (related articles, tag lists, share bars) go, as Crunch's link-list
/// remover would have it (linked / non-linked words above 0.35 over the
/// whole list).
fn remove_link_lists(doc: &Document, chosen: &[NodeId], sel: &mut Selection) {
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            let Some(name) = doc.name(id) else {
                id = NodeId(id.0 + 1);
                continue;
            };
            let list_like = matches!(
                *name,
                local_name!("ul")
                    | local_name!("ol")
                    | local_name!("dl")
                    | local_name!("table")
                    | local_name!("div")
            );
            let s = doc.stats(id);
            let linked = f64::from(s.link_words);
            let unlinked = f64::from(s.words.saturating_sub(s.link_words));
            if list_like
                && s.links >= 3
                && linked > 0.0
                && (unlinked == 0.0 || linked / unlinked > 1.0)
            {
                sel.deselect_subtree(doc, id);
                id = doc.subtree_end(id);
                continue;
            }
            id = NodeId(id.0 + 1);
        }
    }
}

/// The article's headline: the last `h1` (or `h2`) before the container
/// within the container's parent or grandparent, when it is not selected.
fn keep_headline(doc: &Document, boilerplate: &[bool], chosen: &[NodeId], sel: &mut Selection) {
    let Some(&first) = chosen.first() else { return };
    if doc
        .subtree(first)
        .any(|id| sel.contains(id) && doc.ancestors(id).any(|p| doc.is(p, local_name!("h1"))))
    {
        return;
    }
    let scope = doc.ancestors(first).nth(1).unwrap_or(first);
    let headline = doc
        .subtree(scope)
        .take_while(|&id| id < first)
        .filter(|&id| doc.is(id, local_name!("h1")) && !boilerplate[id.index()])
        .last();
    if let Some(h) = headline {
        sel.select_subtree(doc, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render;

    fn run(html: &str) -> String {
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        render::text(&doc, &Article::default().extract(&doc))
    }

    const PARA: &str = "A powerful storm reached the coast on Monday, bringing heavy rain, strong winds and high tides to the towns along the shore.";

    #[test]
    fn finds_the_article_among_boilerplate() {
        let html = format!(
            "<body><nav><ul><li><a href=/>Home</a></li><li><a href=/w>World</a></li></ul></nav>\
             <div class=main><h1>Storm hits the coast</h1><div class=article-body><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>\
             <ul class=related><li><a href=/a>Other story one</a></li><li><a href=/b>Other story two</a></li><li><a href=/c>Three</a></li></ul></div></div>\
             <div class=sidebar><p>{PARA}</p></div><footer><p>Copyright, all rights reserved, Example Corp.</p></footer></body>"
        );
        let out = run(&html);
        assert!(out.starts_with("Storm hits the coast\n\nA powerful storm"), "{out}");
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        for junk in ["Home", "Other story", "Copyright"] {
            assert!(!out.contains(junk), "{junk} in {out}");
        }
    }

    #[test]
    fn share_bars_and_newsletter_boxes_inside_the_article_go() {
        let html = format!(
            "<article><p>{PARA}</p><div class='share-bar'>Share this story on every network you know</div>\
             <p>{PARA}</p><aside class=newsletter>Sign up for our daily newsletter today</aside>\
             <div class=shared-content><p>{PARA} Shared.</p></div></article>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("Share this") && !out.contains("Sign up"), "{out}");
    }

    #[test]
    fn short_pages_fall_back_to_crunch() {
        assert_eq!(run("<p>Hi.</p>"), "Hi.");
        assert_eq!(run(""), "");
    }
}
