//! Passes 4 and 5, **choose the container** and **refine** it
//! (Readability, Arc90 2009), and the page's own pointer at its article
//! (schema.org's `articleBody`).

use super::segments::Analysis;
use super::votes::Votes;
use super::ArticleConfig;
use crate::document::{Document, NodeId};

/// Pass 4, **choose the container**: the candidate outside boilerplate
/// with the highest [score](Votes::scored) (Readability's top candidate);
/// `None` when no paragraph voted.
pub(super) fn choose_container(doc: &Document, votes: &Votes, marks: &[bool]) -> Option<NodeId> {
    votes
        .scores(doc)
        .filter(|&(id, _)| !marks[id.index()])
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(id, _)| id)
}

/// Pass 5, **refine** the container: Readability's three corrections of
/// the top candidate (Readability.js, "find a better top candidate").
pub(super) fn refine_container(
    doc: &Document,
    votes: &Votes,
    top: NodeId,
    cfg: &ArticleConfig,
) -> NodeId {
    let top = common_ancestor_of_alternatives(doc, votes, top, cfg).unwrap_or(top);
    let top = climb_to_higher_score(doc, votes, top, cfg);
    only_child_to_parent(doc, top)
}

/// Pass 5, **the page's own pointer** \[I\]: when exactly one element
/// of the page is marked up as the article's body (schema.org microdata,
/// `itemprop="articleBody"`, <https://schema.org/articleBody>), it is
/// outside boilerplate, holds at least
/// [`min_article_chars`](ArticleConfig::min_article_chars) characters and
/// shares nothing with the container the votes chose, the page says the
/// votes went to the wrong place: a long slideshow or a second article
/// outvoted a short one (issue 11, "prefer the article that the page's own
/// metadata points at"). The marked element is the container then.
///
/// `None` leaves the votes' choice: no such element, several (a list of
/// posts), or one that overlaps the container (the votes agree, or chose
/// a wider block with the headline).
pub(super) fn article_body_elsewhere(
    doc: &Document,
    a: &Analysis,
    marks: &[bool],
    top: NodeId,
    cfg: &ArticleConfig,
) -> Option<NodeId> {
    let body = a.article_body?;
    if marks[body.index()] {
        return None;
    }
    let wider = body != top && !doc.contains(top, body);
    (wider && doc.stats(body).chars >= cfg.min_article_chars).then_some(body)
}

/// The content is split into sections when at least
/// [`min_alternatives`](ArticleConfig::min_alternatives) of the
/// [`alternatives`](ArticleConfig::alternatives) best other candidates
/// score [`alternative_share`](ArticleConfig::alternative_share) of the
/// winner's: their nearest common ancestor with the winner (below the
/// body) that holds that many is the container.
fn common_ancestor_of_alternatives(
    doc: &Document,
    votes: &Votes,
    top: NodeId,
    cfg: &ArticleConfig,
) -> Option<NodeId> {
    let top_score = votes.scored(doc, top);
    // Scored once each (a stable sort: ties stay in document order).
    let mut others: Vec<(NodeId, f64)> = votes.scores(doc).filter(|&(id, _)| id != top).collect();
    others.sort_by(|x, y| y.1.total_cmp(&x.1));
    others.truncate(cfg.alternatives);
    others.retain(|&(_, score)| score >= cfg.alternative_share * top_score);
    if others.len() < cfg.min_alternatives {
        return None;
    }
    below_body(doc, top).find(|&a| {
        others.iter().filter(|&&(o, _)| doc.contains(a, o)).count() >= cfg.min_alternatives
    })
}

/// Climbing from the container, the first candidate ancestor scoring
/// higher than the one below it takes over; one scoring below the
/// container's score divided by
/// [`climb_divisor`](ArticleConfig::climb_divisor) stops the climb.
fn climb_to_higher_score(
    doc: &Document,
    votes: &Votes,
    top: NodeId,
    cfg: &ArticleConfig,
) -> NodeId {
    let mut last = votes.scored(doc, top);
    let threshold = last / cfg.climb_divisor;
    for parent in below_body(doc, top) {
        if !votes.is_candidate(parent) {
            continue;
        }
        let score = votes.scored(doc, parent);
        if score < threshold {
            break;
        }
        if score > last {
            return parent;
        }
        last = score;
    }
    top
}

/// A container that is its parent's only element child is replaced by
/// the parent, repeatedly, up to the body.
fn only_child_to_parent(doc: &Document, mut top: NodeId) -> NodeId {
    while let Some(parent) = below_body(doc, top).next() {
        if doc.children(parent).filter(|&c| doc.element(c).is_some()).count() != 1 {
            break;
        }
        top = parent;
    }
    top
}

/// The element ancestors of `id` below the body, nearest first.
fn below_body(doc: &Document, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let body = doc.body();
    doc.ancestors(id).take_while(move |&a| a != body && doc.element(a).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::segments::analyse;
    use crate::extract::article::tests::{parse, run, PARA};
    use crate::extract::article::votes::vote;

    #[test]
    fn the_best_scored_candidate_wins_and_links_lower_its_score() {
        // The first box has more paragraphs, but most of its text is a
        // list of short links (too short to vote): its link density
        // lowers its score below the second box's.
        let links: String =
            (0..30).map(|i| format!("<li><a href=/{i}>Another headline {i}</a></li>")).collect();
        let html = format!(
            "<div><p>{PARA} Box A.</p><p>{PARA} Box A.</p><p>{PARA} Box A.</p><ul>{links}</ul></div>\
             <div><p>{PARA}</p><p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 2, "{out}");
        assert!(!out.contains("Box A"), "{out}");
    }

    #[test]
    fn sections_under_one_ancestor_make_it_the_container() {
        // Four equal sections, each wrapped, with headings between the
        // wrappers: the winner is one section; the headings are neither
        // candidates nor its siblings, so only the common ancestor of
        // the sections brings them in.
        let section =
            |n: u32| format!("<h2>Part {n}</h2><div><div><p>{PARA}</p><p>{PARA}</p></div></div>");
        let html =
            format!("<div id=story>{}{}{}{}</div>", section(1), section(2), section(3), section(4));
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 8, "{out}");
        assert!(out.contains("Part 2") && out.contains("Part 4"), "{out}");
    }

    /// The container [`refine_container`] makes of the `div` with id
    /// `from`, and the id of the result.
    fn refined(html: &str, from: &str) -> String {
        let doc = parse(html);
        let a = analyse(&doc, &ArticleConfig::default());
        let cfg = ArticleConfig::default();
        let votes = vote(&doc, &a, &vec![false; doc.len()], &cfg);
        let top = doc.ids().find(|&id| doc.attr(id, "id") == Some(from)).expect("from");
        let top = refine_container(&doc, &votes, top, &cfg);
        doc.attr(top, "id").unwrap_or("").to_string()
    }

    #[test]
    fn a_parent_scoring_higher_takes_over() {
        // The outer box holds two paragraphs of its own and the inner box:
        // it scores higher, so it takes over from the inner box.
        let html = format!(
            "<div id=outer><p>{PARA}</p><p>{PARA}</p><div id=inner><p>{PARA}</p></div></div>"
        );
        assert_eq!(refined(&html, "inner"), "outer");
        // A parent scoring lower keeps the container where it is.
        let html = format!(
            "<div id=outer><p>Short.</p><div id=inner><p>{PARA}</p><p>{PARA}</p></div></div>"
        );
        assert_eq!(refined(&html, "inner"), "inner");
    }

    #[test]
    fn an_only_child_container_is_replaced_by_its_parent() {
        // The wrapper's own text votes for nothing (it is short), and the
        // wrapper scores lower than the story: only the only-child rule
        // brings it, and its text, in.
        let html = format!(
            "<div id=wrap>A short intro.<div id=story><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div></div>"
        );
        assert_eq!(refined(&html, "story"), "wrap");
        assert!(run(&html).starts_with("A short intro."), "{}", run(&html));
    }

    /// See: issue 11, "a long gallery outvoting a short article" and
    /// "prefer the article that the page's own metadata points at".
    #[test]
    fn issue_11_the_marked_article_body_wins_over_a_longer_block_inside_it() {
        let captions: String = (0..80)
            .map(|i| format!("<div><p>Picture {i}: the sea wall, the harbour, the boats, and the crowd on the pier.</p></div>"))
            .collect();
        let html = format!(
            "<div class=wrap><div itemprop=articleBody><div class=lead><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
             <div class=pictures>{captions}</div></div></div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 4, "{out}");
        // Without the marking, the pictures' block wins alone.
        let plain = run(&html.replace(" itemprop=articleBody", ""));
        assert!(!plain.contains("A powerful storm"), "{plain}");
        // Two marked bodies (a list of posts) point nowhere.
        let two = format!("{html}<div itemprop=articleBody><p>Another post.</p></div>");
        let out = run(&two);
        assert!(!out.contains("A powerful storm"), "{out}");
    }
}
