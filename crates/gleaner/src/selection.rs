//! [`Selection`]: which text nodes of a [`Document`] are main content.
//!
//! Every extractor returns one, whatever view of the page it reasons on;
//! every renderer and metric reads one. Source-level algorithms select
//! words or characters and convert with [`Selection::from_units`].

use crate::document::{Document, NodeFlags, NodeId, Unit};

/// A set of text nodes chosen as main content, with optional scores.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    selected: Vec<bool>,
    scores: Option<Vec<f32>>,
}

impl Selection {
    /// Nothing selected.
    pub fn none(doc: &Document) -> Selection {
        Selection { selected: vec![false; doc.len()], scores: None }
    }

    /// Every visible text node of the page.
    pub fn all(doc: &Document) -> Selection {
        let mut s = Selection::none(doc);
        for id in doc.text_nodes() {
            s.selected[id.index()] = true;
        }
        s
    }

    /// The visible text nodes in the subtree of `root`.
    pub fn subtree(doc: &Document, root: NodeId) -> Selection {
        let mut s = Selection::none(doc);
        s.select_subtree(doc, root);
        s
    }

    /// Selects the visible text nodes in the subtree of `root`.
    pub fn select_subtree(&mut self, doc: &Document, root: NodeId) {
        for id in doc.subtree(root) {
            if is_content_text(doc, id) {
                self.set(id, true);
            }
        }
    }

    /// Deselects every node in the subtree of `root`.
    pub fn deselect_subtree(&mut self, doc: &Document, root: NodeId) {
        for id in doc.subtree(root) {
            self.set(id, false);
        }
    }

    /// Selects or deselects one node.
    pub fn set(&mut self, id: NodeId, yes: bool) {
        if let Some(s) = self.selected.get_mut(id.index()) {
            *s = yes;
        }
    }

    /// Is this node selected?
    pub fn contains(&self, id: NodeId) -> bool {
        self.selected.get(id.index()).copied().unwrap_or(false)
    }

    /// The selected nodes in document order.
    pub fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.selected.iter().enumerate().filter(|(_, s)| **s).map(|(i, _)| NodeId(i as u32))
    }

    /// Number of selected nodes.
    pub fn count(&self) -> usize {
        self.selected.iter().filter(|s| **s).count()
    }

    /// Attaches per-node scores (indexed by node id; the extractor's own
    /// measure, e.g. a content code ratio).
    pub fn with_scores(mut self, scores: Vec<f32>) -> Selection {
        self.scores = Some(scores);
        self
    }

    /// The score of a node, if the extractor gave scores.
    pub fn score(&self, id: NodeId) -> Option<f32> {
        self.scores.as_ref()?.get(id.index()).copied()
    }

    /// Converts a per-unit decision of a source-level algorithm into a
    /// node selection: a text node is selected when at least half of its
    /// words are.
    ///
    /// `keep[i]` says whether `units[i]` is content; tags are ignored.
    pub fn from_units(doc: &Document, units: &[Unit], keep: &[bool]) -> Selection {
        let mut votes = vec![(0u32, 0u32); doc.len()];
        for (unit, &k) in units.iter().zip(keep) {
            if let (false, Some(node)) = (unit.is_tag, unit.node) {
                if let Some(v) = votes.get_mut(node.index()) {
                    v.1 += 1;
                    v.0 += u32::from(k);
                }
            }
        }
        let mut s = Selection::none(doc);
        for (i, (yes, all)) in votes.into_iter().enumerate() {
            let id = NodeId(i as u32);
            if all > 0 && yes * 2 >= all && is_content_text(doc, id) {
                s.set(id, true);
            }
        }
        s
    }

    /// Converts weighted per-position decisions (characters, lines) into a
    /// node selection: a text node is selected when the selected weight is
    /// at least half of its total weight. Each vote is
    /// `(node, weight, selected)`.
    pub fn from_votes(
        doc: &Document,
        votes: impl IntoIterator<Item = (NodeId, u32, bool)>,
    ) -> Selection {
        let mut tally = NodeVotes::new(doc);
        for (node, weight, yes) in votes {
            tally.add(node, weight, yes, 0.0);
        }
        tally.into_selection(doc, false)
    }

    /// Number of selected text nodes with id below each id: a prefix sum
    /// with `len + 1` entries, so a subtree `a..end` holds
    /// `prefix[end] - prefix[a]` selected nodes.
    pub fn prefix_counts(&self) -> Vec<u32> {
        let mut prefix = Vec::with_capacity(self.selected.len() + 1);
        let mut n = 0;
        prefix.push(0);
        for &s in &self.selected {
            n += u32::from(s);
            prefix.push(n);
        }
        prefix
    }
}

/// A visible text node with some non-whitespace text.
pub(crate) fn is_content_text(doc: &Document, id: NodeId) -> bool {
    let s = doc.stats(id);
    s.flags.contains(NodeFlags::TEXT) && s.flags.contains(NodeFlags::VISIBLE) && s.chars > 0
}

/// Per-node tallies of weighted votes and scores, for source-level
/// algorithms that decide per character, token or line.
pub(crate) struct NodeVotes {
    yes: Vec<u64>,
    all: Vec<u64>,
    score: Vec<f64>,
}

impl NodeVotes {
    /// Empty tallies for every node of `doc`.
    pub fn new(doc: &Document) -> NodeVotes {
        NodeVotes { yes: vec![0; doc.len()], all: vec![0; doc.len()], score: vec![0.0; doc.len()] }
    }

    /// Adds `weight` votes for `node`, all selected or all not, each with
    /// score `score`.
    pub fn add(&mut self, node: NodeId, weight: u32, yes: bool, score: f64) {
        let i = node.index();
        if let (Some(a), Some(y), Some(s)) =
            (self.all.get_mut(i), self.yes.get_mut(i), self.score.get_mut(i))
        {
            *a += u64::from(weight);
            if yes {
                *y += u64::from(weight);
            }
            *s += f64::from(weight) * score;
        }
    }

    /// The majority decision per visible text node; with `scores`, the
    /// weighted mean score of each node is attached (0 for nodes without
    /// votes).
    pub fn into_selection(self, doc: &Document, scores: bool) -> Selection {
        let mut s = Selection::none(doc);
        for (i, (&yes, &all)) in self.yes.iter().zip(&self.all).enumerate() {
            let id = NodeId(i as u32);
            if all > 0 && yes * 2 >= all && is_content_text(doc, id) {
                s.set(id, true);
            }
        }
        if scores {
            let means = self
                .score
                .iter()
                .zip(&self.all)
                .map(|(&sum, &all)| if all > 0 { (sum / all as f64) as f32 } else { 0.0 })
                .collect();
            s = s.with_scores(means);
        }
        s
    }
}
