//! [`GroupedVotes`]: [`NodeVotes`] for votes that come grouped by node.

use crate::document::{Document, NodeId};
#[cfg(doc)]
use crate::selection::NodeVotes;
use crate::selection::{is_content_text, Selection};

/// The votes of one node, as [`NodeVotes`] tallies them.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    /// Weight of the votes for content.
    yes: u64,
    /// Weight of all votes.
    all: u64,
    /// The votes' weighted score sum.
    sum: f64,
}

/// [`NodeVotes`] for votes that come grouped by node (a source-level
/// algorithm's, in source order, unless the tree builder moved text):
/// each node is decided when its last vote is in, and only the selection
/// and the scores are kept, not three numbers for every node of the
/// document (issue 13). The votes are added in the same order, so the
/// selection and the scores are [`NodeVotes::into_selection`]'s, to the
/// bit.
pub(crate) struct GroupedVotes {
    sel: Selection,
    scores: Vec<f32>,
    /// The node being tallied, with its tally.
    current: Option<(NodeId, Tally)>,
}

impl GroupedVotes {
    /// No votes yet, for the nodes of `doc`.
    pub(crate) fn new(doc: &Document) -> GroupedVotes {
        GroupedVotes { sel: Selection::none(doc), scores: vec![0.0; doc.len()], current: None }
    }

    /// Can votes for these nodes, in this order, be tallied here: are
    /// the nodes sorted (a node's votes then come together)?
    pub(crate) fn accepts(nodes: impl Iterator<Item = NodeId>) -> bool {
        nodes.is_sorted()
    }

    /// Adds `weight` votes for `node`, all selected or all not, each with
    /// score `score` ([`NodeVotes::add`]); a node's votes come together,
    /// the nodes in increasing order ([`GroupedVotes::accepts`]). Votes
    /// for a node not in the document are ignored, as
    /// [`NodeVotes::add`] ignores them.
    pub(crate) fn add(&mut self, doc: &Document, node: NodeId, weight: u32, yes: bool, score: f64) {
        if node.index() >= self.scores.len() {
            return;
        }
        let tally = match &mut self.current {
            Some((n, tally)) if *n == node => tally,
            slot => {
                // A node voted for again after another would be decided
                // twice, its second tally overwriting the first.
                debug_assert!(
                    slot.as_ref().is_none_or(|(n, _)| *n < node),
                    "votes not grouped by node"
                );
                if let Some((n, tally)) = slot.take() {
                    decide(doc, &mut self.sel, &mut self.scores, n, tally);
                }
                &mut slot.insert((node, Tally::default())).1
            }
        };
        tally.all += u64::from(weight);
        if yes {
            tally.yes += u64::from(weight);
        }
        tally.sum += f64::from(weight) * score;
    }

    /// The majority decision per visible text node, with the weighted
    /// mean score of each node (0 for nodes without votes).
    pub(crate) fn into_selection(mut self, doc: &Document) -> Selection {
        if let Some((n, tally)) = self.current.take() {
            decide(doc, &mut self.sel, &mut self.scores, n, tally);
        }
        self.sel.with_scores(self.scores)
    }
}

/// A node's decision and score from its tally, as
/// [`NodeVotes::into_selection`] gives them.
fn decide(doc: &Document, sel: &mut Selection, scores: &mut [f32], id: NodeId, tally: Tally) {
    if tally.all > 0 && tally.yes * 2 >= tally.all && is_content_text(doc, id) {
        sel.set(id, true);
    }
    if let Some(score) = scores.get_mut(id.index()) {
        *score = if tally.all > 0 { (tally.sum / tally.all as f64) as f32 } else { 0.0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selection::NodeVotes;

    #[test]
    fn grouped_votes_select_and_score_as_node_votes() {
        let doc = Document::parse(
            b"<p>one</p><p>two</p><p>three</p><p> </p><p>four</p>",
            &Default::default(),
        )
        .expect("parse");
        let texts: Vec<NodeId> = doc.ids().filter(|&id| doc.is_text(id)).collect();
        let mut votes = Vec::new();
        for (k, &id) in texts.iter().enumerate() {
            for j in 0..k + 1 {
                votes.push((id, (j * 7 % 5) as u32, (j + k) % 3 != 0, 0.1 * (j as f64) + 0.37));
            }
        }
        assert!(GroupedVotes::accepts(votes.iter().map(|v| v.0)));
        let mut node_votes = NodeVotes::new(&doc);
        let mut grouped = GroupedVotes::new(&doc);
        for &(id, weight, yes, score) in &votes {
            node_votes.add(id, weight, yes, score);
            grouped.add(&doc, id, weight, yes, score);
        }
        let (expected, got) = (node_votes.into_selection(&doc, true), grouped.into_selection(&doc));
        assert_eq!(got.iter().collect::<Vec<_>>(), expected.iter().collect::<Vec<_>>());
        assert!(got.count() > 0);
        let bits =
            |s: &Selection| doc.ids().map(|id| s.score(id).map(f32::to_bits)).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&expected));
        assert!(!GroupedVotes::accepts([NodeId(3), NodeId(2)].into_iter()));
    }

    /// Votes for a node past the document's end count for nothing, as in
    /// [`NodeVotes`].
    #[test]
    fn grouped_votes_ignore_nodes_not_in_the_document() {
        let doc = Document::parse(b"<p>one</p><p>two</p>", &Default::default()).expect("parse");
        let texts: Vec<NodeId> = doc.ids().filter(|&id| doc.is_text(id)).collect();
        let past = NodeId(doc.len() as u32);
        let votes =
            texts.iter().map(|&id| (id, true)).chain([(past, true), (NodeId(u32::MAX), true)]);
        let mut node_votes = NodeVotes::new(&doc);
        let mut grouped = GroupedVotes::new(&doc);
        for (id, yes) in votes {
            node_votes.add(id, 2, yes, 0.5);
            grouped.add(&doc, id, 2, yes, 0.5);
        }
        let (expected, got) = (node_votes.into_selection(&doc, true), grouped.into_selection(&doc));
        assert_eq!(got.iter().collect::<Vec<_>>(), expected.iter().collect::<Vec<_>>());
        assert_eq!(got.count(), texts.len());
        assert_eq!(got.score(past), None);
    }
}
