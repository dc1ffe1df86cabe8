//! Passes 8 to 11, **select and clean**: the text of the chosen elements,
//! less what is not the article.

use markup5ever::local_name;

use super::segments::Analysis;
use super::vocabulary::Role;
use super::ArticleConfig;
use crate::document::tags::heading_level;
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Pass 8, **select** with the link-quota filter: the visible text of the
/// chosen elements outside boilerplate, except text segments whose own
/// link quota exceeds [`link_quota`](ArticleConfig::link_quota) (LQF's
/// filter, Mantratzis et al. 2005, applied per segment, so that a link
/// line in a cell goes and the cell's story stays); headings are kept
/// whatever their quota.
pub(super) fn select_text(
    doc: &Document,
    a: &Analysis,
    marks: &[bool],
    chosen: &[NodeId],
    cfg: &ArticleConfig,
) -> Selection {
    let mut sel = Selection::none(doc);
    for &root in chosen {
        for id in doc.subtree(root) {
            if !doc.is_text(id) || !is_content_text(doc, id) || marks[id.index()] {
                continue;
            }
            if let Some(seg) = a.segment(id) {
                if seg.link_quota() > cfg.link_quota && !is_heading(doc, seg.owner) {
                    continue;
                }
            }
            sel.set(id, true);
        }
    }
    sel
}

/// Pass 9, **link lists**: inside the chosen elements, a list, table or
/// `div` with at least [`link_list_links`](ArticleConfig::link_list_links)
/// links whose linked words outnumber its unlinked words more than
/// [`link_list_ratio`](ArticleConfig::link_list_ratio) times (or that has
/// only linked words) is removed: related articles, tag lists, share bars.
/// After Crunch's link-list remover (Gupta et al. 2003), which compares
/// the same ratio with 0.35 \[K\]; 1 \[I\] spares lists of annotated links.
pub(super) fn remove_link_lists(
    doc: &Document,
    chosen: &[NodeId],
    sel: &mut Selection,
    cfg: &ArticleConfig,
) {
    remove_inside(doc, chosen, sel, |id| {
        let list_like = matches!(
            doc.name(id),
            Some(
                &local_name!("ul")
                    | &local_name!("ol")
                    | &local_name!("dl")
                    | &local_name!("table")
                    | &local_name!("div")
            )
        );
        let s = doc.stats(id);
        let linked = f64::from(s.link_words);
        let unlinked = f64::from(s.words.saturating_sub(s.link_words));
        list_like
            && s.links >= cfg.link_list_links
            && linked > 0.0
            && (unlinked == 0.0 || linked / unlinked > cfg.link_list_ratio)
    });
}

/// Pass 10, **inner boilerplate** \[I\]: inside the chosen elements,
/// blocks named as share bars, newsletter boxes, promotions, related
/// teasers or advertisements ([`Role::InnerBoilerplate`], whole name
/// parts, so `shared-content` or `adult` do not match) are removed, unless
/// they are headings.
pub(super) fn remove_inner_boilerplate(
    doc: &Document,
    a: &Analysis,
    chosen: &[NodeId],
    sel: &mut Selection,
) {
    remove_inside(doc, chosen, sel, |id| {
        doc.element(id).is_some() && a.names(id).has(Role::InnerBoilerplate) && !is_heading(doc, id)
    });
}

/// Deselects, below each chosen root, the outermost subtrees whose root
/// satisfies `remove`.
fn remove_inside(
    doc: &Document,
    chosen: &[NodeId],
    sel: &mut Selection,
    remove: impl Fn(NodeId) -> bool,
) {
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            if remove(id) {
                sel.deselect_subtree(doc, id);
                id = doc.subtree_end(id);
            } else {
                id = NodeId(id.0 + 1);
            }
        }
    }
}

/// Pass 11, **headline** \[I\]: when the first chosen element holds no
/// selected `h1` text, the last `h1` outside boilerplate before it, within
/// its grandparent, is added.
pub(super) fn keep_headline(
    doc: &Document,
    marks: &[bool],
    chosen: &[NodeId],
    sel: &mut Selection,
) {
    let Some(&first) = chosen.first() else { return };
    if doc
        .subtree(first)
        .any(|id| sel.contains(id) && doc.ancestors(id).any(|p| doc.is(p, local_name!("h1"))))
    {
        return;
    }
    let scope = doc.ancestors(first).nth(1).unwrap_or(first);
    let headline = doc
        .subtree(scope)
        .take_while(|&id| id < first)
        .filter(|&id| doc.is(id, local_name!("h1")) && !marks[id.index()])
        .last();
    if let Some(h) = headline {
        sel.select_subtree(doc, h);
    }
}

fn is_content_text(doc: &Document, id: NodeId) -> bool {
    let s = doc.stats(id);
    s.flags.contains(NodeFlags::TEXT | NodeFlags::VISIBLE) && s.chars > 0
}

fn is_heading(doc: &Document, id: NodeId) -> bool {
    doc.name(id).is_some_and(|n| heading_level(n).is_some())
}

#[cfg(test)]
mod tests {
    use crate::extract::article::tests::{run, PARA};

    #[test]
    fn link_lines_inside_the_container_go_but_headings_stay() {
        let html = format!(
            "<div><h2><a href=/s>Storm news</a></h2><p>{PARA}</p><p>{PARA}</p>\
             <p><a href=/a>Read the full weather report</a> and more</p><p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert!(out.contains("Storm news"), "{out}");
        assert!(!out.contains("weather report"), "{out}");
    }

    #[test]
    fn boilerplate_inside_the_container_is_left_out() {
        let html = format!(
            "<div><p>{PARA}</p><p>{PARA}</p><nav>Back to the top of this page.</nav><p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("Back to the top"), "{out}");
    }

    #[test]
    fn link_lists_inside_the_container_go() {
        // Each item's link has a word of its own, so no item's link quota
        // is above one half; the list as a whole is mostly links.
        let html = format!(
            "<div><p>{PARA}</p><p>{PARA}</p><ul><li><a href=/a>See the map</a> (floodwaters)</li>\
             <li><a href=/b>Go to it</a> (photographs)</li><li><a href=/c>Read it all</a> (transcript)</li></ul><p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert!(!out.contains("See the map"), "{out}");
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
    }

    #[test]
    fn the_headline_before_the_container_is_kept() {
        let html = format!(
            "<div><h1>Storm hits the coast</h1><p class=byline>By a reporter</p>\
             <div class=body><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div></div>"
        );
        let out = run(&html);
        assert!(out.starts_with("Storm hits the coast\n\n"), "{out}");
        assert!(!out.contains("By a reporter"), "{out}");
    }
}
