//! Part of pass 5, **title match** \[I\]: when the votes chose a block
//! that does not carry the page's own headline and another block does,
//! the page says which of its article-like blocks is the article.
//!
//! Issue 11, "the article lost entirely": a long gallery outvoting a
//! short article, or a page of several full articles where a longer
//! sponsored one wins; "prefer the article that the page's own metadata
//! points at (its `<title>`, `og:title`, JSON-LD `headline`)". The
//! headline strings come from [`metadata::headlines`]; the heading that
//! states one of them is found among the page's `h1`–`h3`, and the block
//! it heads takes over only when it holds substantial text of its own
//! (the guards below), so a title heading over a teaser or a caption
//! never moves the container.

use markup5ever::local_name;

use super::votes::Votes;
use super::ArticleConfig;
use crate::document::{Document, NodeFlags, NodeId};
use crate::metadata;

/// Share of the voted container's score the titled block's best
/// candidate must reach to take over \[I\]: a short article beside a long
/// gallery still scores a fifth of it; a caption or a teaser does not.
const TITLED_SCORE_SHARE: f64 = 0.2;

/// Most words of a heading compared with the headlines \[I\].
const MAX_HEADING_WORDS: u32 = 40;

/// Pass 5, **title match**: the block headed by the page's own headline
/// when the container `top` neither holds nor follows such a heading and
/// that block
///
/// - does not contain `top` (the heading over the whole page),
/// - is the nearest ancestor of the heading, below the body and outside
///   boilerplate, with at least
///   [`min_article_chars`](ArticleConfig::min_article_chars) characters
///   besides the heading's, and
/// - holds, after the heading, at least
///   [`min_article_chars`](ArticleConfig::min_article_chars) characters
///   and a vote candidate scoring at least [`TITLED_SCORE_SHARE`] of
///   `top`'s score (the article follows its headline).
///
/// Linked headings are not the page's headline but teasers of it.
///
/// `None` leaves the votes' choice. `headings` are the page's `h1`–`h3`
/// in document order ([`Analysis::headings`](super::segments::Analysis)).
pub(super) fn titled_container(
    doc: &Document,
    headings: &[NodeId],
    votes: &Votes,
    marks: &[bool],
    top: NodeId,
    cfg: &ArticleConfig,
) -> Option<NodeId> {
    // Structure first, the page's metadata (a JSON-LD parse) only for
    // the headings that could move the container.
    let scope = doc.ancestors(top).nth(1).unwrap_or(top);
    let top_score = votes.scored(doc, top);
    let mut movers: Vec<(NodeId, NodeId)> = Vec::new();
    let mut before_or_in_top: Vec<NodeId> = Vec::new();
    // A block without the article after its first heading has none after
    // a later one: the headings of a sidebar share one block, read once.
    let mut blocks_failed: Vec<NodeId> = Vec::new();
    for &h in headings.iter().filter(|&&id| is_title_heading_shape(doc, id) && !marks[id.index()]) {
        if doc.contains(top, h) || (doc.contains(scope, h) && h < top) {
            before_or_in_top.push(h);
        } else if let Some(block) = heading_block(doc, marks, h, top, cfg) {
            if blocks_failed.contains(&block) {
                continue;
            }
            if holds_the_article(doc, votes, marks, h, block, top_score, cfg) {
                movers.push((h, block));
            } else {
                blocks_failed.push(block);
            }
        }
    }
    if movers.is_empty() {
        return None;
    }
    let headlines: Vec<String> = metadata::headlines(doc).iter().map(|h| normalise(h)).collect();
    let is_titled = |h: NodeId| {
        let text = normalise(&doc.text_content(h));
        !text.is_empty() && headlines.contains(&text)
    };
    // The container carries the title already, in it or just before it
    // (the headline `keep_headline` adds).
    if before_or_in_top.iter().any(|&h| is_titled(h)) {
        return None;
    }
    movers.into_iter().find(|&(h, _)| is_titled(h)).map(|(_, block)| block)
}

/// Does `block` hold the article after its `heading`: at least
/// [`min_article_chars`](ArticleConfig::min_article_chars) characters and
/// a vote candidate scoring [`TITLED_SCORE_SHARE`] of the container's
/// `top_score` (the article follows its headline)?
fn holds_the_article(
    doc: &Document,
    votes: &Votes,
    marks: &[bool],
    heading: NodeId,
    block: NodeId,
    top_score: f64,
    cfg: &ArticleConfig,
) -> bool {
    // The block's characters are its text nodes' (the statistics sum
    // them): those after the heading are all but the ones up to its end.
    let after = doc.subtree_end(heading);
    let chars_up_to: u32 = (block.0..after.0)
        .map(NodeId)
        .filter(|&t| doc.is_text(t))
        .map(|t| doc.stats(t).chars)
        .sum();
    let chars_after = doc.stats(block).chars.saturating_sub(chars_up_to);
    if chars_after < cfg.min_article_chars {
        return false;
    }
    let best = votes
        .candidates_in(doc, block)
        .filter(|&c| c >= after || doc.contains(c, heading))
        .filter(|&c| !marks[c.index()])
        .map(|c| votes.scored(doc, c))
        .fold(0.0, f64::max);
    best > 0.0 && best >= TITLED_SCORE_SHARE * top_score
}

/// After a title match, the siblings the sibling rule added back that
/// carry a headline of their own (an `h1`–`h3`) are other articles — the
/// piece that outvoted the titled one — and leave the chosen elements.
pub(super) fn drop_other_articles(doc: &Document, top: NodeId, chosen: &mut Vec<NodeId>) {
    chosen.retain(|&c| {
        c == top
            || !doc.subtree(c).any(|id| {
                matches!(
                    doc.name(id),
                    Some(&local_name!("h1") | &local_name!("h2") | &local_name!("h3"))
                )
            })
    });
}

/// An `h1`, `h2` or `h3` that is visible, short enough to be a headline
/// and not a link (a linked heading is a teaser of the story, in a list
/// of "most popular" stories, not the story).
/// The name first: the loop over every node reads the statistics of
/// the headings only.
fn is_title_heading_shape(doc: &Document, id: NodeId) -> bool {
    if !matches!(doc.name(id), Some(&local_name!("h1") | &local_name!("h2") | &local_name!("h3"))) {
        return false;
    }
    let s = doc.stats(id);
    s.flags.contains(NodeFlags::VISIBLE)
        && (1..=MAX_HEADING_WORDS).contains(&s.words)
        && s.link_chars == 0
        && !s.flags.contains(NodeFlags::IN_LINK)
}

/// The nearest ancestor of `heading` below the body with
/// [`min_article_chars`](ArticleConfig::min_article_chars) characters
/// besides the heading's; `None` when that ancestor, or one on the way,
/// contains `top` or is boilerplate, or when it is a table part (layout).
fn heading_block(
    doc: &Document,
    marks: &[bool],
    heading: NodeId,
    top: NodeId,
    cfg: &ArticleConfig,
) -> Option<NodeId> {
    let body = doc.body();
    let own = doc.stats(heading).chars;
    for a in doc.ancestors(heading) {
        if a == body || doc.element(a).is_none() || doc.contains(a, top) || marks[a.index()] {
            return None;
        }
        if doc.stats(a).chars.saturating_sub(own) >= cfg.min_article_chars {
            return (!is_table_part(doc, a)).then_some(a);
        }
    }
    None
}

/// A table, or a part of one: the layout of an old page, whose cells
/// hold the title and the text in separate places, is no article block.
fn is_table_part(doc: &Document, id: NodeId) -> bool {
    matches!(
        doc.name(id),
        Some(
            &local_name!("table")
                | &local_name!("tbody")
                | &local_name!("thead")
                | &local_name!("tr")
                | &local_name!("td")
                | &local_name!("th")
        )
    )
}

/// Lower-case words of letters and digits, one space between: headings
/// and titles compared without case, punctuation and quotes.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{run_config, PARA};

    fn run_with(html: &str, title_match: bool) -> String {
        run_config(html, ArticleConfig { title_match, ..Default::default() })
    }

    /// A page of two articles: a long sponsored one that wins the votes
    /// and the short one the page's `<title>` names.
    fn two_articles(title: &str) -> String {
        let long: String =
            (0..20).map(|i| format!("<p>Sponsored paragraph {i}, about a product, a price, and a deal of the week.</p>")).collect();
        format!(
            "<html><head><title>{title}</title></head><body>\
             <div class=feature><h2>Buy the best boats</h2>{long}</div>\
             <div class=story><h2>Storm hits the coast</h2><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
             </body></html>"
        )
    }

    /// See: issue 11, "a page of several full articles where a longer
    /// sponsored one wins" and "prefer the article that the page's own
    /// metadata points at (its `<title>`, `og:title`, JSON-LD
    /// `headline`)".
    #[test]
    fn issue_11_the_article_the_title_names_wins_over_a_longer_one() {
        let html = two_articles("Storm hits the coast | Daily Planet");
        let out = run_with(&html, true);
        assert!(out.starts_with("Storm hits the coast\n\nA powerful storm"), "{out}");
        assert!(!out.contains("Sponsored"), "{out}");
        // Without the pass, the sponsored piece wins.
        let out = run_with(&html, false);
        assert!(out.starts_with("Buy the best boats"), "{out}");
        // A title that names neither leaves the votes' choice.
        let out = run_with(&two_articles("Daily Planet"), true);
        assert!(out.contains("Sponsored"), "{out}");
    }

    #[test]
    fn issue_11_og_title_and_json_ld_headline_name_the_article_too() {
        let html = two_articles("Daily Planet")
            .replace("<title>", "<meta property=og:title content='Storm hits the coast'><title>");
        assert!(run_with(&html, true).starts_with("Storm hits the coast"));
        let ld = r#"<script type=application/ld+json>{"@type":"NewsArticle","headline":"Storm hits the coast"}</script>"#;
        let html = two_articles("Daily Planet").replace("<title>", &format!("{ld}<title>"));
        assert!(run_with(&html, true).starts_with("Storm hits the coast"));
    }

    #[test]
    fn a_titled_block_without_substantial_text_does_not_take_over() {
        let long: String =
            (0..8).map(|i| format!("<p>Sponsored paragraph {i}, about a product, a price, and a deal of the week.</p>")).collect();
        let html = format!(
            "<html><head><title>Storm hits the coast</title></head><body>\
             <div class=feature>{long}</div>\
             <div class=teaser><h2>Storm hits the coast</h2><p>A short teaser line, see the story.</p></div></body></html>"
        );
        let out = run_with(&html, true);
        assert!(out.starts_with("Sponsored paragraph 0"), "{out}");
    }

    #[test]
    fn normalised_headings_compare_without_case_and_punctuation() {
        assert_eq!(normalise("  Storm “hits” the COAST! "), "storm hits the coast");
        assert_eq!(normalise("—"), "");
    }
}
