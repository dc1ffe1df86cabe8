//! The parameters of [`Article`](super::Article), grouped by the pass that
//! reads them.
//!
//! Every tuned number of the extractor is a field here, with its source:
//! Readability (Arc90 2009, Readability.js), readability-lxml, LQF
//! (Mantratzis et al. 2005), Crunch (Gupta et al. 2003), TCCB (Gottron
//! 2008), or \[I\] for gleaner's own choices (`docs/algorithms.md#provenance-tags`). The
//! class and id words are not numbers and live in
//! [`vocabulary`](super::vocabulary).

use super::super::{parse_param, unknown_param, Configure};
use crate::error::{Error, Result};

/// Parameters of [`Article`](super::Article).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ArticleConfig {
    // Mark boilerplate.
    /// A marked subtree holding more than this share of the body's
    /// characters is the page itself and is not marked (comment sections
    /// excepted). 1 turns this rescue off. Default 0.5 \[I\].
    pub rescue_share: f64,

    // Vote.
    /// Characters a text block needs to vote. Default 25 (Readability).
    pub min_paragraph_chars: u32,
    /// A block's vote grows by one point per this many characters …
    /// Default 100 (Readability).
    pub chars_per_point: f64,
    /// … up to this many points. Default 3 (Readability).
    pub max_length_points: f64,
    /// Weight of the content-code ratio (TCCB, Gottron 2008) in the votes:
    /// 0 ignores it, 1 makes the vote proportional to it. Default 0.5
    /// \[I\].
    pub ccr_weight: f64,
    /// How many ancestors a paragraph votes for. Default 2, as in
    /// readability-lxml (Readability.js uses 5); 2 to 5 differ by less
    /// than 0.003 macro F1 on the dev sets, 2 is best on four of six.
    pub levels: usize,
    /// The grandparent receives the vote divided by this. Default 2
    /// (Readability).
    pub grandparent_divider: f64,
    /// Ancestors at level `l` ≥ 2 (the parent being level 0) receive the
    /// vote divided by `l` times this. Default 3 (Readability).
    pub ancestor_divider: f64,
    /// Votes added to, or taken from, an element whose class or id holds an
    /// article word or a boilerplate word. Default 25 (Readability); 0
    /// turns class weights off.
    pub class_weight: f64,
    /// Initial votes of `div`, `article`, `main`, `section`. Default 5
    /// (Readability).
    pub tag_weight_container: f64,
    /// Initial votes of `pre`, `td`, `blockquote`. Default 3
    /// (Readability).
    pub tag_weight_cell: f64,
    /// Initial votes of lists, list items, `address` and `form`. Default −3
    /// (Readability).
    pub tag_weight_list: f64,
    /// Initial votes of headings and `th`. Default −5 (Readability).
    pub tag_weight_heading: f64,

    // Refine the container.
    /// Candidates scoring at least this share of the winner's count as
    /// alternatives to it. Default 0.75 (Readability).
    pub alternative_share: f64,
    /// How many of the best other candidates are looked at. Default 4
    /// (Readability: the five best, the winner included).
    pub alternatives: usize,
    /// When this many alternatives sit under one ancestor of the winner,
    /// that ancestor is the container. Default 3 (Readability).
    pub min_alternatives: usize,
    /// While climbing from the winner, an ancestor scoring below the
    /// winner's score divided by this stops the climb. Default 3
    /// (Readability).
    pub climb_divisor: f64,

    // Siblings.
    /// A sibling joins the container when its votes reach this share of
    /// the container's. Default 0.2 (Readability).
    pub sibling_share: f64,
    /// … or at least this many votes, whichever is more. Default 10
    /// (Readability).
    pub sibling_min_score: f64,
    /// A sibling with the container's class gets this share of the
    /// container's score as a bonus. Default 0.2 (Readability).
    pub sibling_class_bonus: f64,
    /// A paragraph-like sibling (a `p`, or a block with at most
    /// [`sibling_paragraph_tags`](Self::sibling_paragraph_tags) elements)
    /// joins with more than this many characters … Default 80
    /// (Readability).
    pub sibling_paragraph_chars: u32,
    /// … and a link density below this (or none, ending a sentence).
    /// Default 0.25 (Readability).
    pub sibling_paragraph_link_density: f64,
    /// Elements a block sibling may hold and still count as a paragraph.
    /// Default 3 \[I\] (Readability looks at `p` only).
    pub sibling_paragraph_tags: u32,
    /// When the container is a `<section>` that opens with a heading, its
    /// sibling `<section>`s that open with a heading are the other parts
    /// of one document (documentation pages, long reads) and join, unless
    /// their link density reaches
    /// [`sibling_paragraph_link_density`](Self::sibling_paragraph_link_density).
    /// Default on \[I\]: a part that is mostly code or a table casts few
    /// votes yet belongs to the text.
    pub sibling_sections: bool,
    /// Other containers elsewhere on the page join when their score
    /// reaches this share of the winner's (pages whose content sits in
    /// several table cells or sections). 1 turns this off. Default 0.7
    /// \[I\]: 0.6 to 0.9 score alike on the dev sets (+0.002 macro F1 over
    /// off, +0.016 on CleanEval, −0.005 on L3S-GN1).
    pub secondary_share: f64,

    // Select and clean.
    /// Inside the container, a text segment whose own link quota exceeds
    /// this is a link list and left out. Default 0.5 (LQF's θ, \[I\]).
    pub link_quota: f64,
    /// Inside the container, a list, table or `div` with more linked than
    /// this times its unlinked words is a link list and removed. Default
    /// 1 \[I\] (Crunch's link-list remover uses 0.35 over whole lists).
    pub link_list_ratio: f64,
    /// … when it holds at least this many links. Default 3 \[I\].
    pub link_list_links: u32,

    /// Pass 5: the one element marked up as the article's body
    /// (`itemprop=articleBody`) is the container when the votes chose a
    /// block inside it or elsewhere. Default on \[I\] (issue 11).
    pub article_body_pointer: bool,
    /// Pass 2: slideshows recognised by their slide counters are set
    /// aside. Default on \[I\] (issue 11).
    pub slideshows: bool,
    /// Pass 2: embedded posts of social networks (a `blockquote` linking
    /// to one post) are set aside. Default on \[I\] (issue 11).
    pub embedded_posts: bool,
    /// Pass 10: a block named as inner boilerplate that also says
    /// "article" (or is the marked article body) and holds most of the
    /// selected text stays. Default on \[I\] (issue 11).
    pub inner_guard: bool,
    /// Pass 9: lists of teasers (same-shaped items, each a linked title
    /// block and a short blurb) are removed. Default off \[I\] (issue 11):
    /// the dev sets hardly hold the pattern in this form (two pages change,
    /// ±0.0002 macro F1) and leave-one-dataset-out leaves it off on five
    /// folds of six.
    pub teaser_lists: bool,
    /// Pass 5: when the page's own headline (`<title>`, `og:title`,
    /// JSON-LD `headline`) heads another block with substantial text, that
    /// block is the container (`title_match`). Default on \[I\] (issue 11).
    pub title_match: bool,
    /// Pass 11: the lead paragraph in the article's `<header>` is kept
    /// (`lead`). Default on \[I\] (issue 11).
    pub header_lead: bool,
    /// Pass 10: author bios, "About `<Company>`" footers, copyright and
    /// contact lines at the end of the selection are removed (`tail`).
    /// Default on \[I\] (issue 11).
    pub end_boilerplate: bool,
    /// Pass 10: print-only blocks and unrendered `{{ template }}` text
    /// are removed (`unrendered`). Default on \[I\] (issue 11).
    pub unrendered: bool,
    /// Pass 10: `figcaption`s, caption and credit blocks, photo credits
    /// and repeated captions are removed (`captions`). Default off \[I\]
    /// (issue 11): leave-one-dataset-out does not choose it; on in the
    /// `--precision` preset.
    pub captions: bool,

    // Strictness retry.
    /// Below this many characters an attempt is retried with weaker
    /// boilerplate marks. Default 250 \[I\] (Readability uses 500).
    pub min_article_chars: u32,
}

impl Default for ArticleConfig {
    fn default() -> ArticleConfig {
        ArticleConfig {
            rescue_share: 0.5,
            min_paragraph_chars: 25,
            chars_per_point: 100.0,
            max_length_points: 3.0,
            ccr_weight: 0.5,
            levels: 2,
            grandparent_divider: 2.0,
            ancestor_divider: 3.0,
            class_weight: 25.0,
            tag_weight_container: 5.0,
            tag_weight_cell: 3.0,
            tag_weight_list: -3.0,
            tag_weight_heading: -5.0,
            alternative_share: 0.75,
            alternatives: 4,
            min_alternatives: 3,
            climb_divisor: 3.0,
            sibling_share: 0.2,
            sibling_min_score: 10.0,
            sibling_class_bonus: 0.2,
            sibling_paragraph_chars: 80,
            sibling_paragraph_link_density: 0.25,
            sibling_paragraph_tags: 3,
            sibling_sections: true,
            secondary_share: 0.7,
            link_quota: 0.5,
            link_list_ratio: 1.0,
            link_list_links: 3,
            min_article_chars: 250,
            article_body_pointer: true,
            slideshows: true,
            embedded_posts: true,
            inner_guard: true,
            teaser_lists: false,
            title_match: true,
            header_lead: true,
            end_boilerplate: true,
            unrendered: true,
            captions: false,
        }
    }
}

impl Configure for ArticleConfig {
    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let v = value;
        match key {
            "rescue_share" => self.rescue_share = parse_param(key, v)?,
            "min_paragraph_chars" => self.min_paragraph_chars = parse_param(key, v)?,
            "chars_per_point" => self.chars_per_point = parse_param(key, v)?,
            "max_length_points" => self.max_length_points = parse_param(key, v)?,
            "ccr_weight" => self.ccr_weight = parse_param(key, v)?,
            "levels" => self.levels = parse_param(key, v)?,
            "grandparent_divider" => self.grandparent_divider = parse_param(key, v)?,
            "ancestor_divider" => self.ancestor_divider = parse_param(key, v)?,
            "class_weight" => self.class_weight = parse_param(key, v)?,
            "tag_weight_container" => self.tag_weight_container = parse_param(key, v)?,
            "tag_weight_cell" => self.tag_weight_cell = parse_param(key, v)?,
            "tag_weight_list" => self.tag_weight_list = parse_param(key, v)?,
            "tag_weight_heading" => self.tag_weight_heading = parse_param(key, v)?,
            "alternative_share" => self.alternative_share = parse_param(key, v)?,
            "alternatives" => self.alternatives = parse_param(key, v)?,
            "min_alternatives" => self.min_alternatives = parse_param(key, v)?,
            "climb_divisor" => self.climb_divisor = parse_param(key, v)?,
            "sibling_share" => self.sibling_share = parse_param(key, v)?,
            "sibling_min_score" => self.sibling_min_score = parse_param(key, v)?,
            "sibling_class_bonus" => self.sibling_class_bonus = parse_param(key, v)?,
            "sibling_paragraph_chars" => self.sibling_paragraph_chars = parse_param(key, v)?,
            "sibling_paragraph_link_density" => {
                self.sibling_paragraph_link_density = parse_param(key, v)?
            }
            "sibling_paragraph_tags" => self.sibling_paragraph_tags = parse_param(key, v)?,
            "sibling_sections" => self.sibling_sections = parse_param(key, v)?,
            "secondary_share" => self.secondary_share = parse_param(key, v)?,
            "link_quota" => self.link_quota = parse_param(key, v)?,
            "link_list_ratio" => self.link_list_ratio = parse_param(key, v)?,
            "link_list_links" => self.link_list_links = parse_param(key, v)?,
            "min_article_chars" => self.min_article_chars = parse_param(key, v)?,
            "article_body_pointer" => self.article_body_pointer = parse_param(key, v)?,
            "slideshows" => self.slideshows = parse_param(key, v)?,
            "embedded_posts" => self.embedded_posts = parse_param(key, v)?,
            "inner_guard" => self.inner_guard = parse_param(key, v)?,
            "teaser_lists" => self.teaser_lists = parse_param(key, v)?,
            "title_match" => self.title_match = parse_param(key, v)?,
            "header_lead" => self.header_lead = parse_param(key, v)?,
            "end_boilerplate" => self.end_boilerplate = parse_param(key, v)?,
            "unrendered" => self.unrendered = parse_param(key, v)?,
            "captions" => self.captions = parse_param(key, v)?,
            _ => return Err(unknown_param("article", key)),
        }
        Ok(())
    }

    fn validate(&self) -> Result<()> {
        // Shares and densities.
        for (key, v) in [
            ("rescue_share", self.rescue_share),
            ("ccr_weight", self.ccr_weight),
            ("alternative_share", self.alternative_share),
            ("sibling_share", self.sibling_share),
            ("sibling_class_bonus", self.sibling_class_bonus),
            ("sibling_paragraph_link_density", self.sibling_paragraph_link_density),
            ("secondary_share", self.secondary_share),
            ("link_quota", self.link_quota),
        ] {
            check(key, v, (0.0..=1.0).contains(&v), "in [0, 1]")?;
        }
        // Divisors.
        for (key, v) in [
            ("chars_per_point", self.chars_per_point),
            ("grandparent_divider", self.grandparent_divider),
            ("ancestor_divider", self.ancestor_divider),
            ("climb_divisor", self.climb_divisor),
        ] {
            check(key, v, v.is_finite() && v > 0.0, "positive")?;
        }
        // Amounts.
        for (key, v) in [
            ("max_length_points", self.max_length_points),
            ("class_weight", self.class_weight),
            ("sibling_min_score", self.sibling_min_score),
            ("link_list_ratio", self.link_list_ratio),
        ] {
            check(key, v, v.is_finite() && v >= 0.0, "finite and ≥ 0")?;
        }
        for (key, v) in [
            ("tag_weight_container", self.tag_weight_container),
            ("tag_weight_cell", self.tag_weight_cell),
            ("tag_weight_list", self.tag_weight_list),
            ("tag_weight_heading", self.tag_weight_heading),
        ] {
            check(key, v, v.is_finite(), "finite")?;
        }
        // Counts: `min_article_chars`, `sibling_paragraph_chars`,
        // `sibling_paragraph_tags` and `link_list_links` take any value.
        let paragraph = self.min_paragraph_chars;
        check("min_paragraph_chars", paragraph, paragraph >= 1, "at least 1")?;
        check("levels", self.levels, (1..=8).contains(&self.levels), "in 1..=8")?;
        check("alternatives", self.alternatives, self.alternatives >= 1, "at least 1")?;
        let min = self.min_alternatives;
        check(
            "min_alternatives",
            min,
            (1..=self.alternatives).contains(&min),
            "in 1..=alternatives",
        )
    }
}

/// `Ok` when `ok`, else the error naming `key`, its value and `what` it
/// must be.
fn check(key: &str, value: impl std::fmt::Display, ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidConfig(format!("article {key} must be {what}, not {value}")))
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
