//! Crunch — the DOM content filters of Gupta, Kaiser, Neistadt & Grimm
//! (WWW 2003, "DOM-based content extraction of HTML documents"; Gottron 2008, S-0
//! §2 and `docs/algorithms.md#crunch` \[S-0, K\]), the remaining baseline of
//! Gottron's CCB comparison (S-2).
//!
//! Reads the **DOM**. Crunch is a chain of filters, not a score; starting
//! from all visible text, this implements the subset that changes the
//! text of a page:
//!
//! 1. scripts, styles, embedded objects (`iframe`, `object`, `embed`,
//!    `applet`) are invisible already; **forms** are removed;
//! 2. the **link-list remover**: bottom-up, a container (`td`, `ul`, `ol`,
//!    `div`, …) is removed when, over its remaining
//!    text,
//!
//!    ```text
//!    linked words / non-linked words > θ            θ = 0.35
//!    ```
//!
//!    (a container with only linked words is removed too); a removed
//!    container no longer counts in its ancestors' ratios;
//! 3. the **text-list remover**: a list (`ul`, `ol`, `dl`) none of whose
//!    items reaches sentence length (`list_item_words` words) is removed.
//!
//! Left out, because they never change the extracted text: image and
//! advertisement-image removal (images have no text) and the removal of
//! empty tables and cells.
//!
//! ```
//! use gleaner::{extract::{Crunch, Extractor}, render, Document, ParseOptions};
//! let html = b"<div><a href=/>Home</a> <a href=/n>News</a></div>\
//!   <p>Body text with <a href=/x>a link</a> inside, as in any article.</p>\
//!   <ul><li>Red</li><li>Green</li></ul>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! assert_eq!(render::text(&doc, &Crunch::default().extract(&doc)),
//!            "Body text with a link inside, as in any article.");
//! # Ok::<(), gleaner::Error>(())
//! ```

use markup5ever::{local_name, LocalName};

use super::extractor::Extractor;
use super::params::{config, Range};
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

config! {
    /// Parameters of [`Crunch`].
    #[derive(Debug, Clone, Copy, PartialEq)]
    #[non_exhaustive]
    pub struct CrunchConfig for "crunch" {
        /// A container whose linked-to-non-linked word ratio exceeds this is a
        /// link list. Default 0.35 \[K, unverified\].
        link_ratio: f64 = 0.35, range Range::at_least(0.0), source "K, unverified",
            alias "threshold";
        /// A list is a text list, and removed, when none of its items has this
        /// many words ("sentence length"). Default 6 \[I\]; 0 turns the filter
        /// off.
        list_item_words: u32 = 6, source "I";
        /// Remove forms. Default on \[K\].
        remove_forms: bool = true, source "K";
        /// A form holding more than this share of the body's words wraps the
        /// whole page (ASP.NET pages do) and is kept. Default 0.5 \[I\].
        max_form_share: f64 = 0.5, range Range::closed(0.0, 1.0), source "I";
    }
}

/// Crunch's filters. See the [module docs](self).
#[derive(Debug, Clone, Copy, Default)]
pub struct Crunch {
    config: CrunchConfig,
}

impl Crunch {
    /// Crunch with this configuration.
    pub fn new(config: CrunchConfig) -> Crunch {
        Crunch { config }
    }
}

/// Elements the link-list remover judges: Crunch's table cells, lists and
/// divisions \[K\] plus their HTML5 counterparts and table parts \[I\].
pub(crate) fn is_container(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("td")
            | local_name!("th")
            | local_name!("tr")
            | local_name!("table")
            | local_name!("ul")
            | local_name!("ol")
            | local_name!("dl")
            | local_name!("div")
            | local_name!("nav")
            | local_name!("menu")
            | local_name!("aside")
            | local_name!("header")
            | local_name!("footer")
            | local_name!("section")
    )
}

/// A subtree open in Crunch's link-list remover: its node, the end of
/// its ids, and the linked and unlinked words summed so far.
#[derive(Debug, Clone, Copy)]
struct OpenSums {
    id: NodeId,
    end: NodeId,
    linked: u32,
    unlinked: u32,
}

impl Extractor for Crunch {
    fn extract(&self, doc: &Document) -> Selection {
        let c = &self.config;
        let mut removed = vec![false; doc.len()];
        // Step 1 [K]: forms (scripts, styles and objects are invisible).
        if c.remove_forms {
            let body_words = f64::from(doc.stats(doc.body()).words);
            for id in doc.ids() {
                if doc.is(id, local_name!("form"))
                    && f64::from(doc.stats(id).words) <= c.max_form_share * body_words
                {
                    removed[id.index()] = true;
                }
            }
        }
        // Step 3 [K]: the link-list remover, bottom-up over the words that
        // remain. The nodes come in document order, each subtree's linked
        // and unlinked words summed on a stack of the open ancestors, and
        // a node is decided when its subtree ends, after its descendants:
        // the bottom-up order, without two sums for every node of the
        // page (issue 13).
        let mut open: Vec<OpenSums> = Vec::new();
        let close = |node: OpenSums, removed: &mut [bool], open: &mut Vec<OpenSums>| {
            let OpenSums { id, mut linked, mut unlinked, .. } = node;
            let i = id.index();
            if removed.get(i).copied().unwrap_or(false) {
                linked = 0;
                unlinked = 0;
            } else {
                let s = doc.stats(id);
                if s.flags.contains(NodeFlags::TEXT) {
                    linked = s.link_words;
                    unlinked = s.words - s.link_words.min(s.words);
                } else if doc.name(id).is_some_and(is_container) && linked > 0 {
                    let ratio = f64::from(linked) / f64::from(unlinked);
                    if unlinked == 0 || ratio > c.link_ratio {
                        if let Some(r) = removed.get_mut(i) {
                            *r = true;
                        }
                        linked = 0;
                        unlinked = 0;
                    }
                }
            }
            // The parent is the innermost subtree still open.
            if let Some(parent) = open.last_mut() {
                parent.linked += linked;
                parent.unlinked += unlinked;
            }
        };
        for id in doc.ids() {
            while let Some(&top) = open.last() {
                if id < top.end {
                    break;
                }
                open.pop();
                close(top, &mut removed, &mut open);
            }
            open.push(OpenSums { id, end: doc.subtree_end(id), linked: 0, unlinked: 0 });
        }
        while let Some(top) = open.pop() {
            close(top, &mut removed, &mut open);
        }
        // Step 5 [K]: text lists, whose items are all shorter than a
        // sentence.
        if c.list_item_words > 0 {
            for id in doc.ids() {
                let list = doc.is(id, local_name!("ul"))
                    || doc.is(id, local_name!("ol"))
                    || doc.is(id, local_name!("dl"));
                if !list || removed[id.index()] {
                    continue;
                }
                let mut items = doc.children(id).filter(|&ch| {
                    doc.is(ch, local_name!("li"))
                        || doc.is(ch, local_name!("dt"))
                        || doc.is(ch, local_name!("dd"))
                });
                let mut any = false;
                let mut sentence = false;
                for item in items.by_ref() {
                    any = true;
                    if doc.stats(item).words >= c.list_item_words {
                        sentence = true;
                        break;
                    }
                }
                if any && !sentence {
                    removed[id.index()] = true;
                }
            }
        }
        let mut sel = Selection::all(doc);
        let mut skip_until = NodeId(0);
        for id in doc.ids() {
            if id < skip_until {
                sel.set(id, false);
            } else if removed[id.index()] {
                skip_until = doc.subtree_end(id);
                sel.set(id, false);
            }
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render;

    fn run(html: &str, config: CrunchConfig) -> String {
        let doc = Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        render::text(&doc, &Crunch::new(config).extract(&doc))
    }

    #[test]
    fn link_list_ratio_is_linked_over_non_linked_words() {
        // 2 linked words, 5 non-linked: 0.4 > 0.35 → removed; with θ = 0.5
        // it stays.
        let html = "<div><a href=#>one two</a> three four five six seven</div>";
        assert_eq!(run(html, CrunchConfig::default()), "");
        assert_eq!(
            run(html, CrunchConfig::default().link_ratio(0.5)),
            "one two three four five six seven"
        );
    }

    #[test]
    fn removed_link_lists_do_not_count_for_their_ancestors() {
        let nav: String = (0..20).map(|i| format!("<li><a href=/{i}>Item {i}</a></li>")).collect();
        let html = format!(
            "<div><ul>{nav}</ul><p>An article paragraph long enough to be a sentence of text.</p></div>"
        );
        assert_eq!(
            run(&html, CrunchConfig::default()),
            "An article paragraph long enough to be a sentence of text."
        );
    }

    #[test]
    fn text_lists_and_forms_are_removed_page_wrapping_forms_kept() {
        let html = "<p>Intro sentence of the page, with several words.</p>\
                    <ul><li>short</li><li>also short</li></ul>\
                    <ul><li>This item is a full sentence with many words in it.</li><li>x</li></ul>\
                    <form><label>Search the site</label><input></form>";
        assert_eq!(
            run(html, CrunchConfig::default()),
            "Intro sentence of the page, with several words.\n\n\
             This item is a full sentence with many words in it.\nx"
        );
        let wrapped = "<form><p>All of the page sits inside one form element here.</p></form>";
        assert_eq!(
            run(wrapped, CrunchConfig::default()),
            "All of the page sits inside one form element here."
        );
    }

    #[test]
    fn no_text_selects_nothing() {
        assert_eq!(run("", CrunchConfig::default()), "");
        assert_eq!(run("<table><tr><td></td></tr></table>", CrunchConfig::default()), "");
    }
}
