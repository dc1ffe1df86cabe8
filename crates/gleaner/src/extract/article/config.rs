//! The parameters of [`Article`](super::Article), grouped by the pass that
//! reads them.
//!
//! Every tuned number of the extractor is a field here, with its source:
//! Readability (Arc90 2009, Readability.js), readability-lxml, LQF
//! (Mantratzis et al. 2005), Crunch (Gupta et al. 2003), TCCB (Gottron
//! 2008), or \[I\] for gleaner's own choices (`docs/algorithms.md#provenance-tags`). The
//! class and id words are not numbers and live in
//! [`vocabulary`](super::vocabulary).

use super::super::params::{config, Range};
use crate::error::{Error, Result};

config! {
    /// Parameters of [`Article`](super::Article).
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct ArticleConfig for "article" {
        // Mark boilerplate.
        /// A marked subtree holding more than this share of the body's
        /// characters is the page itself and is not marked (comment sections
        /// excepted). 1 turns this rescue off. Default 0.5 \[I\].
        rescue_share: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";

        // Vote.
        /// Characters a text block needs to vote. Default 25 (Readability).
        min_paragraph_chars: u32 = 25, range Range::at_least(1.0), source "Readability";
        /// A block's vote grows by one point per this many characters …
        /// Default 100 (Readability).
        chars_per_point: f64 = 100.0, range Range::above(0.0), source "Readability";
        /// … up to this many points. Default 3 (Readability).
        max_length_points: f64 = 3.0, range Range::at_least(0.0), source "Readability";
        /// Weight of the content-code ratio (TCCB, Gottron 2008) in the votes:
        /// 0 ignores it, 1 makes the vote proportional to it. Default 0.5
        /// \[I\].
        ccr_weight: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
        /// How many ancestors a paragraph votes for. Default 2, as in
        /// readability-lxml (Readability.js uses 5); 2 to 5 differ by less
        /// than 0.003 macro F1 on the dev sets, 2 is best on four of six.
        levels: usize = 2, range Range::closed(1.0, 8.0), source "readability-lxml";
        /// The grandparent receives the vote divided by this. Default 2
        /// (Readability).
        grandparent_divider: f64 = 2.0, range Range::above(0.0), source "Readability";
        /// Ancestors at level `l` ≥ 2 (the parent being level 0) receive the
        /// vote divided by `l` times this. Default 3 (Readability).
        ancestor_divider: f64 = 3.0, range Range::above(0.0), source "Readability";
        /// Votes added to, or taken from, an element whose class or id holds an
        /// article word or a boilerplate word. Default 25 (Readability); 0
        /// turns class weights off.
        class_weight: f64 = 25.0, range Range::at_least(0.0), source "Readability";
        /// Initial votes of `div`, `article`, `main`, `section`. Default 5
        /// (Readability).
        tag_weight_container: f64 = 5.0, range Range::FINITE, source "Readability";
        /// Initial votes of `pre`, `td`, `blockquote`. Default 3
        /// (Readability).
        tag_weight_cell: f64 = 3.0, range Range::FINITE, source "Readability";
        /// Initial votes of lists, list items, `address` and `form`. Default −3
        /// (Readability).
        tag_weight_list: f64 = -3.0, range Range::FINITE, source "Readability";
        /// Initial votes of headings and `th`. Default −5 (Readability).
        tag_weight_heading: f64 = -5.0, range Range::FINITE, source "Readability";

        // Refine the container.
        /// Candidates scoring at least this share of the winner's count as
        /// alternatives to it. Default 0.75 (Readability).
        alternative_share: f64 = 0.75, range Range::closed(0.0, 1.0), source "Readability";
        /// How many of the best other candidates are looked at. Default 4
        /// (Readability: the five best, the winner included).
        alternatives: usize = 4, range Range::at_least(1.0), source "Readability";
        /// When this many alternatives sit under one ancestor of the winner,
        /// that ancestor is the container. Default 3 (Readability).
        min_alternatives: usize = 3, range Range::at_least(1.0), source "Readability";
        /// While climbing from the winner, an ancestor scoring below the
        /// winner's score divided by this stops the climb. Default 3
        /// (Readability).
        climb_divisor: f64 = 3.0, range Range::above(0.0), source "Readability";

        // Siblings.
        /// A sibling joins the container when its votes reach this share of
        /// the container's. Default 0.2 (Readability).
        sibling_share: f64 = 0.2, range Range::closed(0.0, 1.0), source "Readability";
        /// … or at least this many votes, whichever is more. Default 10
        /// (Readability).
        sibling_min_score: f64 = 10.0, range Range::at_least(0.0), source "Readability";
        /// A sibling with the container's class gets this share of the
        /// container's score as a bonus. Default 0.2 (Readability).
        sibling_class_bonus: f64 = 0.2, range Range::closed(0.0, 1.0), source "Readability";
        /// A paragraph-like sibling (a `p`, or a block with at most
        /// [`sibling_paragraph_tags`](Self::sibling_paragraph_tags) elements)
        /// joins with more than this many characters … Default 80
        /// (Readability).
        sibling_paragraph_chars: u32 = 80, source "Readability";
        /// … and a link density below this (or none, ending a sentence).
        /// Default 0.25 (Readability).
        sibling_paragraph_link_density: f64 = 0.25, range Range::closed(0.0, 1.0), source "Readability";
        /// Elements a block sibling may hold and still count as a paragraph.
        /// Default 3 \[I\] (Readability looks at `p` only).
        sibling_paragraph_tags: u32 = 3, source "I";
        /// When the container is a `<section>` that opens with a heading, its
        /// sibling `<section>`s that open with a heading are the other parts
        /// of one document (documentation pages, long reads) and join, unless
        /// their link density reaches
        /// [`sibling_paragraph_link_density`](Self::sibling_paragraph_link_density).
        /// Default on \[I\]: a part that is mostly code or a table casts few
        /// votes yet belongs to the text.
        sibling_sections: bool = true, source "I";
        /// Other containers elsewhere on the page join when their score
        /// reaches this share of the winner's (pages whose content sits in
        /// several table cells or sections). 1 turns this off. Default 0.7
        /// \[I\]: 0.6 to 0.9 score alike on the dev sets (+0.002 macro F1 over
        /// off, +0.016 on CleanEval, −0.005 on L3S-GN1).
        secondary_share: f64 = 0.7, range Range::closed(0.0, 1.0), source "I";

        // Select and clean.
        /// Inside the container, a text segment whose own link quota exceeds
        /// this is a link list and left out. Default 0.5 (LQF's θ, \[I\]).
        link_quota: f64 = 0.5, range Range::closed(0.0, 1.0), source "LQF θ; I";
        /// Inside the container, a list, table or `div` with more linked than
        /// this times its unlinked words is a link list and removed. Default
        /// 1 \[I\] (Crunch's link-list remover uses 0.35 over whole lists).
        link_list_ratio: f64 = 1.0, range Range::at_least(0.0), source "I";
        /// … when it holds at least this many links. Default 3 \[I\].
        link_list_links: u32 = 3, source "I";

        /// Pass 5: the one element marked up as the article's body
        /// (`itemprop=articleBody`) is the container when the votes chose a
        /// block inside it or elsewhere. Default on \[I\] (issue 11).
        article_body_pointer: bool = true, source "I";
        /// Pass 2: slideshows recognised by their slide counters are set
        /// aside. Default on \[I\] (issue 11).
        slideshows: bool = true, source "I";
        /// Pass 2: embedded posts of social networks (a `blockquote` linking
        /// to one post) are set aside. Default on \[I\] (issue 11).
        embedded_posts: bool = true, source "I";
        /// Pass 10: a block named as inner boilerplate that also says
        /// "article" (or is the marked article body) and holds most of the
        /// selected text stays. Default on \[I\] (issue 11).
        inner_guard: bool = true, source "I";
        /// Pass 9: lists of teasers (same-shaped items, each a linked title
        /// block and a short blurb) are removed. Default off \[I\] (issue 11):
        /// the dev sets hardly hold the pattern in this form (two pages change,
        /// ±0.0002 macro F1) and leave-one-dataset-out leaves it off on five
        /// folds of six.
        teaser_lists: bool = false, source "I";
        /// Pass 5: when the page's own headline (`<title>`, `og:title`,
        /// JSON-LD `headline`) heads another block with substantial text, that
        /// block is the container (`title_match`). Default on \[I\] (issue 11).
        title_match: bool = true, source "I";
        /// Pass 11: the lead paragraph in the article's `<header>` is kept
        /// (`lead`). Default on \[I\] (issue 11).
        header_lead: bool = true, source "I";
        /// Pass 10: author bios, "About `<Company>`" footers, copyright and
        /// contact lines at the end of the selection are removed (`tail`).
        /// Default on \[I\] (issue 11).
        end_boilerplate: bool = true, source "I";
        /// Pass 10: print-only blocks and unrendered `{{ template }}` text
        /// are removed (`unrendered`). Default on \[I\] (issue 11).
        unrendered: bool = true, source "I";
        /// Pass 10: `figcaption`s, caption and credit blocks, photo credits
        /// and repeated captions are removed (`captions`). Default off \[I\]
        /// (issue 11): leave-one-dataset-out does not choose it; on in the
        /// `--precision` preset.
        captions: bool = false, source "I";

        // Strictness retry.
        /// Below this many characters an attempt is retried with weaker
        /// boilerplate marks. Default 250 \[I\] (Readability uses 500).
        min_article_chars: u32 = 250, source "I";
    }
    check ArticleConfig::check;
}

impl ArticleConfig {
    /// The check the ranges cannot make: `min_alternatives` is at most
    /// `alternatives`.
    fn check(&self) -> Result<()> {
        let (min, most) = (self.min_alternatives, self.alternatives);
        if min > most {
            return Err(Error::InvalidConfig(format!(
                "article min_alternatives must be in 1..=alternatives ({most}), not {min}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Params;

    #[test]
    fn every_field_is_settable_and_validated() {
        let cfg: ArticleConfig = Params::new()
            .with("rescue_share", 1)
            .with("levels", 3)
            .with("climb_divisor", 2.5)
            .with("link_list_links", 4)
            .build()
            .expect("valid");
        assert_eq!((cfg.rescue_share, cfg.levels, cfg.climb_divisor), (1.0, 3, 2.5));
        assert_eq!(cfg.link_list_links, 4);
        for (key, bad) in [
            ("min_paragraph_chars", "0"),
            ("levels", "0"),
            ("secondary_share", "1.5"),
            ("rescue_share", "-0.1"),
            ("chars_per_point", "0"),
            ("class_weight", "NaN"),
            ("tag_weight_list", "inf"),
            ("min_alternatives", "5"),
        ] {
            let err = Params::new().with(key, bad).build::<ArticleConfig>();
            let msg = format!("{}", err.expect_err(key));
            assert!(msg.contains(key), "{msg}");
        }
        assert!(Params::new().with("no_such_field", 1).build::<ArticleConfig>().is_err());
    }
}
