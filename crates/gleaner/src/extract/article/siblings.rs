//! Passes 6 and 7, **siblings** and **secondary containers**: what joins
//! the container.

use markup5ever::local_name;

use super::votes::Votes;
use super::ArticleConfig;
use crate::document::{Document, NodeFlags, NodeId};

/// Pass 6, **siblings** (Readability's sibling rule): the container and
/// those of its siblings, in document order, that are not boilerplate and
///
/// - score at least [`sibling_share`](ArticleConfig::sibling_share) of the
///   container's score, and at least
///   [`sibling_min_score`](ArticleConfig::sibling_min_score), counting a
///   bonus of [`sibling_class_bonus`](ArticleConfig::sibling_class_bonus)
///   times the container's score for the container's class; or
/// - are paragraph-like (a `p`, or a block with at most
///   [`sibling_paragraph_tags`](ArticleConfig::sibling_paragraph_tags)
///   elements \[I\]) with more than
///   [`sibling_paragraph_chars`](ArticleConfig::sibling_paragraph_chars)
///   characters and a link density below
///   [`sibling_paragraph_link_density`](ArticleConfig::sibling_paragraph_link_density),
///   or with no links at all ending a sentence; or
/// - are, like the container, `<section>`s that open with a heading
///   ([`sibling_sections`](ArticleConfig::sibling_sections) \[I\]).
pub(super) fn add_siblings(
    doc: &Document,
    votes: &Votes,
    marks: &[bool],
    top: NodeId,
    cfg: &ArticleConfig,
) -> Vec<NodeId> {
    let Some(parent) = doc.parent(top).filter(|&p| doc.element(p).is_some()) else {
        return vec![top];
    };
    let top_score = votes.scored(doc, top);
    let threshold = (top_score * cfg.sibling_share).max(cfg.sibling_min_score);
    let top_class = doc.attr(top, "class").unwrap_or("").trim();
    let joins = |sib: NodeId| {
        if doc.element(sib).is_none() || marks[sib.index()] {
            return false;
        }
        let bonus =
            if !top_class.is_empty() && doc.attr(sib, "class").map(str::trim) == Some(top_class) {
                top_score * cfg.sibling_class_bonus
            } else {
                0.0
            };
        if votes.is_candidate(sib) && votes.scored(doc, sib) + bonus >= threshold {
            return true;
        }
        let s = doc.stats(sib);
        let ld = s.link_density();
        if cfg.sibling_sections
            && is_headed_section(doc, top)
            && is_headed_section(doc, sib)
            && ld < cfg.sibling_paragraph_link_density
        {
            return true;
        }
        let paragraph_like = doc.is(sib, local_name!("p"))
            || (s.flags.contains(NodeFlags::BLOCK) && s.tags <= cfg.sibling_paragraph_tags);
        if !paragraph_like || s.chars == 0 {
            return false;
        }
        let text = doc.text_content(sib);
        (s.chars > cfg.sibling_paragraph_chars && ld < cfg.sibling_paragraph_link_density)
            || (ld == 0.0 && (text.ends_with('.') || text.ends_with('。')))
    };
    doc.children(parent).filter(|&sib| sib == top || joins(sib)).collect()
}

/// A `<section>` whose first element child is a heading.
fn is_headed_section(doc: &Document, id: NodeId) -> bool {
    doc.is(id, local_name!("section"))
        && doc
            .children(id)
            .find(|&c| doc.element(c).is_some())
            .and_then(|c| doc.name(c))
            .is_some_and(|n| crate::document::tags::heading_level(n).is_some())
}

/// Pass 7, **secondary containers** \[I\]: other candidates outside
/// boilerplate, anywhere on the page, that score at least
/// [`secondary_share`](ArticleConfig::secondary_share) of the container's
/// score join too, best first, when they neither contain nor sit inside
/// a chosen element. The result is in document order.
///
/// Deviation from Readability, which keeps one container: CleanEval-style
/// pages spread their text over several table cells or sections.
pub(super) fn add_secondary_containers(
    doc: &Document,
    votes: &Votes,
    marks: &[bool],
    top: NodeId,
    chosen: &mut Vec<NodeId>,
    cfg: &ArticleConfig,
) {
    if cfg.secondary_share >= 1.0 {
        return;
    }
    let top_score = votes.scored(doc, top);
    // Scored once each (a stable sort: ties stay in document order).
    let mut others: Vec<(NodeId, f64)> = votes
        .scores(doc)
        .filter(|&(id, score)| !marks[id.index()] && score >= cfg.secondary_share * top_score)
        .collect();
    others.sort_by(|x, y| y.1.total_cmp(&x.1));
    for (id, _) in others {
        let overlaps = chosen.iter().any(|&c| doc.contains(c, id) || doc.contains(id, c));
        if !overlaps {
            chosen.push(id);
        }
    }
    chosen.sort();
}

#[cfg(test)]
mod tests {
    use crate::extract::article::tests::{run, PARA};

    #[test]
    fn siblings_with_a_share_of_the_score_join() {
        // The second box scores well below the first (four paragraphs
        // against ten: too little for a secondary container) but above
        // the share; it holds too many elements to count as a paragraph.
        let html = format!(
            "<div><div>{}</div><div><p>{PARA} Second box.</p>{}</div></div>\
             <div><p>Elsewhere on the page, some text of its own, unrelated.</p></div>",
            format!("<p>{PARA}</p>").repeat(10),
            format!("<p>{PARA}</p>").repeat(3),
        );
        let out = run(&html);
        assert!(out.contains("Second box"), "{out}");
        assert!(!out.contains("Elsewhere"), "{out}");
    }

    #[test]
    fn siblings_with_the_containers_class_get_a_bonus() {
        // The second part's three short paragraphs score below the
        // threshold of 10; the container's class adds a fifth of its score.
        let short = "<p>The second part starts with this line.</p>";
        let html = format!(
            "<div><div class=part>{}</div><div class=part>{short}{short}{short}<span>More.</span></div>\
             <div class=other>{short}{short}{short}<span>Other.</span></div></div>",
            format!("<p>{PARA}</p>").repeat(10),
        );
        let out = run(&html);
        assert!(out.contains("second part") && out.contains("More."), "{out}");
        assert!(!out.contains("Other."), "{out}");
    }

    #[test]
    fn paragraph_like_siblings_join() {
        // Short paragraphs that vote for nothing (under 25 characters, or
        // link-free sentences) join as the container's siblings.
        let html = format!(
            "<div><div><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
             <p>It ends here.</p><span>Not a block.</span><p><a href=/m>More</a></p></div>"
        );
        let out = run(&html);
        assert!(out.contains("It ends here."), "{out}");
        assert!(!out.contains("More"), "{out}");
    }

    #[test]
    fn sections_of_one_document_join() {
        // The container is the first section; the second is mostly code
        // (few votes) yet part of the document; the third is a link list.
        let code = "<pre>for f in *; do echo $f; done</pre>";
        let html = format!(
            "<section><section><h2>Arithmetic</h2>{}</section>             <section><h2>Loops</h2>{code}{code}<p>Short note.</p></section>             <section><h2>See also</h2><ul><li><a href=/a>A page</a></li><li><a href=/b>B page</a></li></ul></section></section>",
            format!("<p>{PARA}</p>").repeat(4),
        );
        let out = run(&html);
        assert!(out.contains("Loops") && out.contains("for f in"), "{out}");
        assert!(!out.contains("B page"), "{out}");
    }

    #[test]
    fn secondary_containers_elsewhere_join() {
        // Two table cells of equal text, in different rows: the second is
        // not the first's sibling but scores as high.
        let html = format!(
            "<table><tr><td><p>{PARA}</p><p>{PARA}</p></td></tr><tr><td><ul><li><a href=/>Home</a></li></ul></td></tr>\
             <tr><td><p>{PARA} Again.</p><p>{PARA} Again.</p></td></tr></table>"
        );
        let out = run(&html);
        assert_eq!(out.matches("Again").count(), 2, "{out}");
        assert_eq!(out.matches("A powerful storm").count(), 4, "{out}");
    }
}
