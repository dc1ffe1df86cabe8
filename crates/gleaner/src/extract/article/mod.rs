//! Article — gleaner's own extractor: the papers' signals combined
//! around a main-container search.
//!
//! Reads the **DOM** and the **source** (through TCCB's content-code
//! ratio). The idea of the container search is Readability's (Arc90,
//! 2009): text-rich paragraphs vote for the element that contains them,
//! so the article's container collects the most votes. The votes are
//! shaped by the papers' measures, and the container is cleaned with
//! their filters.
//!
//! # The passes
//!
//! [`Article::extract`] runs these passes, each a function in its own
//! module with its source and a test that fails without it:
//!
//! 1. **analyse** (`segments`): text segments (a block's own text as in
//!    the Link Quota Filter, Mantratzis et al. 2005, split at `<br><br>`
//!    and `<hr>`), their link quota, commas and content-code ratio from
//!    token-level Content Code Blurring (TCCB, Gottron 2008); the
//!    segments summed per block; what each class and id says
//!    (`vocabulary`); the widgets recognised by their structure
//!    (`widgets`: slideshows whose slides count themselves).
//!
//! Then, once per strictness (pass 12):
//!
//! 2. **mark boilerplate** (`marks`): `nav`, `aside`, `footer`, `form`,
//!    ARIA landmarks, comment sections, widgets and (strictest attempt only)
//!    Readability's unlikely class and id words are set aside, unless
//!    they hold most of the page's text.
//! 3. **vote** (`votes`): every text block with enough characters casts
//!    `1 + commas + min(chars / 100, 3)` (Readability), scaled by
//!    `1 − link quota` (LQF) and by its content-code ratio (TCCB), for its
//!    parent (full) and grandparent (half); candidates start from tag and
//!    class weights (Readability).
//! 4. **choose the container** (`container`): the highest vote total
//!    times `1 − link density` (Readability).
//! 5. **refine** (`container`): Readability's corrections — the common
//!    ancestor of several near-best sections, a higher-scoring parent, the
//!    parent of an only child; then the page's own pointer: the one
//!    element marked up as the article's body (`itemprop=articleBody`)
//!    when the votes chose a block inside it or elsewhere \[I\]; else the
//!    page's own title (`title_match`): the block headed by the page's
//!    `<title>`, `og:title` or JSON-LD `headline`, when the votes chose
//!    another and that block holds substantial text after its heading
//!    \[I\].
//! 6. **siblings** (`siblings`): Readability's sibling rule, by score
//!    share and for paragraph-like siblings.
//! 7. **secondary containers** (`siblings`): candidates elsewhere that
//!    score nearly as high as the container \[I\] (not when the page's
//!    own pointer or title chose it; after a title match, siblings with
//!    headlines of their own leave instead).
//! 8. **select** (`clean`): the chosen text outside boilerplate, less
//!    segments above LQF's link quota.
//! 9. **link lists** (`clean`): lists of short links, after Crunch's
//!    link-list remover (Gupta et al. 2003).
//! 10. **inner boilerplate** (`clean`): share bars, newsletter boxes,
//!     promotions and related teasers named as such \[I\], unless the
//!     block also says "article" and holds most of the selected text;
//!     **unrendered** text (`unrendered`): print-only blocks and
//!     `{{ template }}` placeholders \[I\]; **captions** (`captions`, off
//!     by default): figcaptions, caption and credit blocks, photo credits,
//!     repeated captions \[I\]; **end-of-article boilerplate** (`tail`):
//!     author bios, "About `<Company>`" footers, copyright and contact
//!     lines at the end \[I\].
//! 11. **headline** (`clean`): the `h1` before the container \[I\]; and
//!     the **lead** (`lead`): the lead paragraph in the article's
//!     `<header>` \[I\].
//! 12. **strictness retry**: an attempt with less than
//!     [`min_article_chars`](ArticleConfig::min_article_chars) is repeated
//!     with weaker marks (Readability), the longest result kept.
//! 13. **Crunch fallback**: when no attempt selects any text, the page
//!     goes to [`Crunch`] (Gupta et al. 2003).
//!
//! Every tuned number is an [`ArticleConfig`] field; every class and id
//! word is a row of `vocabulary::VOCABULARY`.
//!
//! # Where new signals plug in
//!
//! The passes exchange plain per-node arrays indexed by [`NodeId`](crate::document::NodeId): the
//! boilerplate marks (`Vec<bool>`), the votes (`votes::Votes`) and the
//! chosen roots. A new signal is another such array, combined in the pass
//! that decides what it informs:
//!
//! - **A template mask** (the nodes a site's template model marks as
//!   boilerplate, `docs/algorithms.md#template-detection`) is a boilerplate mark: OR it into the
//!   result of `marks::mark_boilerplate`, and the votes, the container
//!   and the selection all respect it. `docs/algorithms.md#article` suggests this
//!   combination.
//! - **Layout from a browser** (visual blocks with position and size, as
//!   VCE reads them, `docs/algorithms.md#vce`) informs the votes and the
//!   container: a block's area or position scales its vote in
//!   `votes::vote` as the content-code ratio does, and blocks outside
//!   the viewport's main column are marks.
//! - **Learned scores** (a classifier's content probability per block)
//!   replace or scale the hand-set vote formula in `votes::vote`; a
//!   per-node probability can also stand in for the link-quota filter in
//!   `clean::select_text`.
//!
//! ```
//! use gleaner::{extract::{Article, Extractor}, render, Document, ParseOptions};
//! let para = "A powerful storm reached the coast on Monday, bringing heavy rain, \
//!             strong winds and high tides to the towns along the shore.";
//! let html = format!("<nav><a href=/>Home</a></nav><div class=story><h1>Storm</h1>\
//!                     <p>{para}</p><p>{para}</p></div><footer>Copyright</footer>");
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let text = render::text(&doc, &Article::default().extract(&doc));
//! assert!(text.starts_with("Storm\n\nA powerful storm"));
//! assert!(!text.contains("Home") && !text.contains("Copyright"));
//! # Ok::<(), gleaner::Error>(())
//! ```

mod captions;
mod clean;
mod config;
mod container;
mod explain;
mod lead;
mod marks;
mod segments;
mod siblings;
mod tail;
mod title_match;
mod unrendered;
mod vocabulary;
mod votes;
mod widgets;

pub use self::config::ArticleConfig;
pub use self::explain::{AttemptKind, Explanation, Removal, RemovalRule};
pub use self::marks::MarkReason;

use self::captions::remove_captions;
use self::clean::{
    keep_headline, remove_inner_boilerplate, remove_link_lists, remove_teaser_lists, select_text,
};
use self::container::{article_body_elsewhere, choose_container, refine_container};
use self::explain::{removals, AttemptTrace};
use self::lead::keep_lead;
use self::marks::{mark_boilerplate, Strictness};
use self::segments::{analyse, Analysis};
use self::siblings::{add_secondary_containers, add_siblings};
use self::tail::remove_end_boilerplate;
use self::title_match::{drop_other_articles, titled_container};
use self::unrendered::remove_unrendered;
use self::votes::vote;
use super::extractor::{with_page_type, Extraction, Extractor};
use super::{learned, Crunch};
use crate::document::Document;
use crate::metadata::Metadata;
use crate::selection::Selection;

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

impl Extractor for Article {
    /// The passes, in order; see the [module docs](self).
    fn extract(&self, doc: &Document) -> Selection {
        let a = analyse(doc, &self.config);
        if doc.deadline().expired() {
            return Selection::none(doc);
        }
        let kept = retry_less_strictly(doc, &self.config, |strictness| {
            self.attempt(doc, &a, strictness, None)
        });
        // The fallback does not read the analysis (issue 13).
        drop(a);
        kept.map_or_else(|| crunch_fallback(doc), |(_, sel)| sel)
    }

    /// With the default configuration, the page is read once for the
    /// selection and for the classifier, whose page features are
    /// computed from this very decision ([`learned::classify_article`]).
    fn extract_classified_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        let once = self.config == ArticleConfig::default();
        match once.then(|| learned::classify_article(doc, metadata)).flatten() {
            Some(extraction) => extraction,
            None => with_page_type(self.extract_typed_with(doc, metadata), doc, metadata),
        }
    }
}

impl Article {
    /// The extraction with the reasons behind it: the attempt kept, the
    /// container, and every block left out with its rule (`gleaner
    /// inspect`). Its selection equals [`Extractor::extract`]'s.
    pub fn explain(&self, doc: &Document) -> Explanation {
        let cfg = &self.config;
        let a = analyse(doc, cfg);
        let mut traces: Vec<(Strictness, AttemptTrace)> = Vec::new();
        let kept = if doc.deadline().expired() {
            None
        } else {
            retry_less_strictly(doc, cfg, |strictness| {
                let mut trace = AttemptTrace::default();
                let sel = self.attempt(doc, &a, strictness, Some(&mut trace));
                traces.push((strictness, trace));
                sel
            })
        };
        let Some((strictness, selection)) = kept else {
            return Explanation {
                attempt: AttemptKind::CrunchFallback,
                voted: None,
                container: None,
                pointed_by_markup: false,
                titled: false,
                leads: Vec::new(),
                chosen: Vec::new(),
                removed: Vec::new(),
                selection: crunch_fallback(doc),
            };
        };
        let trace = traces.into_iter().find(|(s, _)| *s == strictness).map(|(_, t)| t);
        let trace = trace.unwrap_or_default();
        Explanation {
            attempt: AttemptKind::of(strictness),
            voted: trace.voted,
            container: trace.container,
            pointed_by_markup: trace.pointed,
            titled: trace.titled,
            leads: trace.leads.clone(),
            removed: removals(doc, &a, cfg, strictness, &trace),
            chosen: trace.chosen,
            selection,
        }
    }

    /// Passes 2 to 11 at one strictness; `None` when no paragraph votes.
    /// With a `trace`, what each pass decided is kept in it.
    fn attempt(
        &self,
        doc: &Document,
        a: &Analysis,
        strictness: Strictness,
        trace: Option<&mut AttemptTrace>,
    ) -> Option<Selection> {
        let cfg = &self.config;
        let marks = mark_boilerplate(doc, a, strictness, cfg);
        let votes = vote(doc, a, &marks, cfg);
        let voted = choose_container(doc, &votes, &marks)?;
        let top = refine_container(doc, &votes, voted, cfg);
        let pointed =
            article_body_elsewhere(doc, a, &marks, top, cfg).filter(|_| cfg.article_body_pointer);
        let top = pointed.unwrap_or(top);
        let titled = if pointed.is_none() && cfg.title_match {
            titled_container(doc, &a.headings, &votes, &marks, top, cfg)
        } else {
            None
        };
        let top = titled.unwrap_or(top);
        let mut chosen = add_siblings(doc, &votes, &marks, top, cfg);
        if titled.is_some() {
            drop_other_articles(doc, top, &mut chosen);
        } else if pointed.is_none() {
            add_secondary_containers(doc, &votes, &marks, top, &mut chosen, cfg);
        }
        let mut sel = select_text(doc, a, &marks, &chosen, cfg);
        let mut steps: Vec<(RemovalRule, Selection)> = Vec::new();
        let mut step = |rule: RemovalRule, sel: &Selection| {
            if trace.is_some() {
                steps.push((rule, sel.clone()));
            }
        };
        let selected = trace.is_some().then(|| sel.clone());
        remove_link_lists(doc, &chosen, &mut sel, cfg);
        step(RemovalRule::LinkList, &sel);
        if cfg.teaser_lists {
            remove_teaser_lists(doc, &chosen, &mut sel);
            step(RemovalRule::TeaserList, &sel);
        }
        remove_inner_boilerplate(doc, a, &chosen, &mut sel, cfg);
        step(RemovalRule::InnerBoilerplate, &sel);
        if cfg.unrendered {
            remove_unrendered(doc, &chosen, &mut sel);
            step(RemovalRule::Unrendered, &sel);
        }
        if cfg.captions {
            remove_captions(doc, a, &chosen, &mut sel);
            step(RemovalRule::Captions, &sel);
        }
        if cfg.end_boilerplate {
            remove_end_boilerplate(doc, a, &chosen, &mut sel);
            step(RemovalRule::EndBoilerplate, &sel);
        }
        keep_headline(doc, &marks, &chosen, &mut sel);
        let leads =
            if cfg.header_lead { keep_lead(doc, &marks, &chosen, &mut sel) } else { Vec::new() };
        if let Some(t) = trace {
            *t = AttemptTrace {
                voted: Some(voted),
                container: Some(top),
                pointed: pointed.is_some(),
                titled: titled.is_some(),
                leads,
                chosen,
                marks,
                steps,
                selected,
            };
        }
        Some(sel)
    }
}

/// Pass 12, **strictness retry** (Readability's retry with fewer flags):
/// runs `attempt` from the strictest marks to none and returns the first
/// selection with at least
/// [`min_article_chars`](ArticleConfig::min_article_chars) characters,
/// else the longest non-empty one.
fn retry_less_strictly(
    doc: &Document,
    cfg: &ArticleConfig,
    mut attempt: impl FnMut(Strictness) -> Option<Selection>,
) -> Option<(Strictness, Selection)> {
    let mut best: Option<(u32, Strictness, Selection)> = None;
    for strictness in Strictness::ALL {
        // Each attempt is a few linear passes; a page out of time stops
        // before the next (the caller reports it, see `Deadline::was_hit`).
        if doc.deadline().expired() {
            break;
        }
        let Some(sel) = attempt(strictness) else { continue };
        let chars: u32 = sel.iter().map(|id| doc.stats(id).chars).sum();
        if chars >= cfg.min_article_chars {
            return Some((strictness, sel));
        }
        if best.as_ref().is_none_or(|(c, _, _)| chars > *c) {
            best = Some((chars, strictness, sel));
        }
    }
    best.filter(|(chars, _, _)| *chars > 0).map(|(_, strictness, sel)| (strictness, sel))
}

/// Pass 13, **Crunch fallback**: a page on which no paragraph votes, or
/// whose every attempt selects nothing, is handed to [`Crunch`] (Gupta et
/// al. 2003).
fn crunch_fallback(doc: &Document) -> Selection {
    Crunch::default().extract(doc)
}

#[cfg(test)]
mod tests {
    //! Page-level tests of the whole pipeline, and the helpers the passes'
    //! tests share.
    use super::*;
    use crate::render;

    /// Parses a test page.
    pub(super) fn parse(html: &str) -> Document {
        Document::parse(html.as_bytes(), &Default::default()).expect("parse")
    }

    /// The text `article` extracts from a test page.
    pub(super) fn run(html: &str) -> String {
        run_config(html, ArticleConfig::default())
    }

    /// The text `Article` with `cfg` extracts from a test page.
    pub(super) fn run_config(html: &str, cfg: ArticleConfig) -> String {
        let doc = parse(html);
        render::text(&doc, &Article::new(cfg).extract(&doc))
    }

    /// A paragraph long enough to vote: 124 characters, 3 commas.
    pub(super) const PARA: &str = "A powerful storm reached the coast on Monday, bringing heavy rain, strong winds and high tides to the towns along the shore.";

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
    fn an_article_in_an_unlikely_container_is_found_at_a_weaker_strictness() {
        // At the strictest marks, `extra` sets the article aside (it holds
        // less than half the page's text, the menu being long) and only
        // the short note votes: too short, so the search is repeated.
        let menu: String = (0..40).map(|i| format!("<a href=/{i}>Section {i}</a> ")).collect();
        let html = format!(
            "<nav>{menu}</nav><div class=extra-story><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
             <div><p>Subscribe to our list for more news, every week.</p></div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
    }

    /// See: issue 11, "a JSON string containing `</script>` ends the
    /// script early and thousands of words of JSON become text".
    #[test]
    fn issue_11_json_after_an_early_script_end_never_wins() {
        let item = r#"{"@type":"ListItem","position":3,"name":"Storm, rain, wind","item":"https://example.org/a"},"#;
        let json: String = item.repeat(60);
        let html = format!(
            "<html><head><script type=application/ld+json>{{\"text\":\"a </script> b\",{json}}}</script>\
             </head><body><div class=story><p>{PARA}</p><p>{PARA}</p></div></body></html>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 2, "{out}");
        assert!(!out.contains("ListItem"), "{out}");
        // Prose with quotes, colons and a citation is not code.
        let prose = "\"We were ready,\" she said: \"the (old) sea wall held; the new one did not.\" (Smith, 2003; Jones, 2004)";
        let out = run(&format!("<div><p>{prose} {prose}</p><p>{PARA}</p></div>"));
        assert!(out.contains("We were ready"), "{out}");
    }

    #[test]
    fn short_pages_fall_back_to_crunch() {
        assert_eq!(run("<p>Hi.</p>"), "Hi.");
        assert_eq!(run(""), "");
    }
}
