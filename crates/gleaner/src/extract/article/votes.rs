//! Pass 3, **vote**: text blocks vote for the elements that contain them
//! (Readability, Arc90 2009).

use std::collections::HashMap;

use markup5ever::{local_name, LocalName};

use super::segments::Analysis;
use super::vocabulary::Role;
use super::ArticleConfig;
use crate::document::{Document, NodeId};

/// The votes of one attempt: who is a candidate, with how many votes.
/// Only the candidates are kept, in document order: a handful of
/// elements on most pages, not a slot for every node (issue 13).
pub(super) struct Votes {
    candidates: Vec<(NodeId, f64)>,
}

impl Votes {
    /// The votes of `id`, if a paragraph voted for it.
    fn of(&self, id: NodeId) -> Option<f64> {
        let i = self.candidates.binary_search_by_key(&id, |&(c, _)| c).ok()?;
        self.candidates.get(i).map(|&(_, v)| v)
    }

    /// Did any paragraph vote for `id`?
    pub(super) fn is_candidate(&self, id: NodeId) -> bool {
        self.of(id).is_some()
    }

    /// The candidates in `root`'s subtree (`root` included), in document
    /// order: found in the sorted candidates, not by asking each node of
    /// the subtree (issue 12).
    pub(super) fn candidates_in(
        &self,
        doc: &Document,
        root: NodeId,
    ) -> impl Iterator<Item = NodeId> + '_ {
        let end = doc.subtree_end(root);
        let from = self.candidates.partition_point(|&(c, _)| c < root);
        let inside = self.candidates.get(from..).unwrap_or_default();
        inside.iter().map(|&(c, _)| c).take_while(move |&c| c < end)
    }

    /// The score of a candidate: its votes times `1 − its link density`
    /// (Readability).
    pub(super) fn scored(&self, doc: &Document, id: NodeId) -> f64 {
        score(doc, id, self.of(id).unwrap_or(0.0))
    }

    /// Every candidate with its [score](Votes::scored), in document
    /// order: each score worked out once, not found again at every
    /// comparison of a sort (issue 12).
    pub(super) fn scores<'a>(
        &'a self,
        doc: &'a Document,
    ) -> impl Iterator<Item = (NodeId, f64)> + 'a {
        self.candidates.iter().map(|&(c, v)| (c, score(doc, c, v)))
    }
}

/// [`Votes::scored`] of node `id` with `votes`.
fn score(doc: &Document, id: NodeId, votes: f64) -> f64 {
    votes * (1.0 - doc.stats(id).link_density())
}

/// Pass 3, **vote**. Every text block outside boilerplate with at least
/// [`min_paragraph_chars`](ArticleConfig::min_paragraph_chars) casts
///
/// ```text
/// (1 + commas + min(chars / 100, 3))           Readability
///   × (1 − link quota)                         LQF (Mantratzis et al. 2005)
///   × (1 − w + w · content-code ratio)         TCCB (Gottron 2008), w = ccr_weight [I]
/// ```
///
/// for its parent (in full), grandparent (half) and the ancestors above
/// (divided by three times their level), up to
/// [`levels`](ArticleConfig::levels) ancestors (readability-lxml). A
/// candidate starts from its tag's weight and its class weight
/// (Readability).
pub(super) fn vote(doc: &Document, a: &Analysis, marks: &[bool], cfg: &ArticleConfig) -> Votes {
    let mut votes: HashMap<NodeId, f64> = HashMap::new();
    // The analysis kept only blocks long enough to vote whose text does
    // not read as code or data (issue 11).
    for seg in &a.blocks {
        let owner = seg.owner;
        if marks[owner.index()] {
            continue;
        }
        let length = (f64::from(seg.chars) / cfg.chars_per_point).min(cfg.max_length_points);
        let vote = (1.0 + f64::from(seg.commas) + length)
            * (1.0 - seg.link_quota())
            * (1.0 - cfg.ccr_weight + cfg.ccr_weight * f64::from(seg.ccr));
        for (level, anc) in doc.ancestors(owner).take(cfg.levels.max(1)).enumerate() {
            if doc.element(anc).is_none() {
                break;
            }
            let total = votes.entry(anc).or_insert_with(|| {
                doc.name(anc).map_or(0.0, |name| tag_weight(name, cfg)) + class_weight(a, anc, cfg)
            });
            let divider = match level {
                0 => 1.0,
                1 => cfg.grandparent_divider,
                l => l as f64 * cfg.ancestor_divider,
            };
            *total += vote / divider;
        }
    }
    let mut candidates: Vec<(NodeId, f64)> = votes.into_iter().collect();
    candidates.sort_unstable_by_key(|&(c, _)| c);
    Votes { candidates }
}

/// Class-name weight (Readability): `+class_weight` for article words,
/// `−class_weight` for boilerplate words, both when both occur.
fn class_weight(a: &Analysis, id: NodeId, cfg: &ArticleConfig) -> f64 {
    let names = a.names(id);
    let mut w = 0.0;
    if names.has(Role::Boilerplate) {
        w -= cfg.class_weight;
    }
    if names.has(Role::ArticleHint) {
        w += cfg.class_weight;
    }
    w
}

/// The initial vote total of a candidate, by its tag (Readability).
fn tag_weight(name: &LocalName, cfg: &ArticleConfig) -> f64 {
    match *name {
        local_name!("div")
        | local_name!("article")
        | local_name!("main")
        | local_name!("section") => cfg.tag_weight_container,
        local_name!("pre") | local_name!("td") | local_name!("blockquote") => cfg.tag_weight_cell,
        local_name!("address")
        | local_name!("ol")
        | local_name!("ul")
        | local_name!("dl")
        | local_name!("dd")
        | local_name!("dt")
        | local_name!("li")
        | local_name!("form") => cfg.tag_weight_list,
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("th") => cfg.tag_weight_heading,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::segments::analyse;
    use crate::extract::article::tests::{parse, PARA};

    /// The scores of the `div`s of `html`, in document order.
    fn div_scores(html: &str) -> Vec<f64> {
        let doc = parse(html);
        let a = analyse(&doc, &ArticleConfig::default());
        let v = vote(&doc, &a, &vec![false; doc.len()], &ArticleConfig::default());
        doc.ids()
            .filter(|&id| doc.is(id, local_name!("div")))
            .map(|id| v.scored(&doc, id))
            .collect()
    }

    #[test]
    fn paragraphs_vote_for_parent_and_grandparent() {
        // One paragraph of 124 characters and 3 commas: 1 + 3 + 1.24
        // votes, times its content-code factor, in full for the inner div
        // and halved for the outer (both start at 5 for their tag).
        let s = div_scores(&format!("<div><div><p>{PARA}</p></div></div>"));
        assert_eq!(s.len(), 2);
        let vote = s[1] - 5.0;
        assert!(vote > 3.0 && vote <= 5.24, "{s:?}");
        assert!((s[0] - 5.0 - vote / 2.0).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn class_words_weigh_candidates() {
        let s: Vec<f64> = ["story", "x", "promo", "story-promo"]
            .iter()
            .map(|class| div_scores(&format!("<div class={class}><p>{PARA}</p></div>"))[0])
            .collect();
        assert!((s[0] - s[1] - 25.0).abs() < 1e-9 && (s[1] - s[2] - 25.0).abs() < 1e-9, "{s:?}");
        assert!((s[3] - s[1]).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn text_amid_markup_votes_less() {
        // The same words, once as running text and once each in its own
        // markup: the content-code ratio (TCCB) halves the difference.
        let words: Vec<&str> = PARA.split(' ').collect();
        let tagged: String = words.iter().map(|w| format!("<b><i><u>{w}</u></i></b> ")).collect();
        let plain = div_scores(&format!("<div><p>{PARA}</p></div>"))[0];
        let marked_up = div_scores(&format!("<div><p>{tagged}</p></div>"))[0];
        assert!(plain > marked_up + 1.0, "{plain} {marked_up}");
    }
}
