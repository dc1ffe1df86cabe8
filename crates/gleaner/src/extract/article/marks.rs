//! Pass 2, **mark boilerplate**: the subtrees no paragraph may vote from
//! and no text is selected in.

use markup5ever::local_name;

use super::segments::Analysis;
use super::vocabulary::{NameRoles, Role};
use super::ArticleConfig;
use crate::document::tags::heading_level;
use crate::document::{Document, ElementRef, NodeId};

/// How eagerly subtrees are set aside as boilerplate. A page whose
/// article hides in a `<div class="widget-blog">` or a `<form>` yields
/// (almost) nothing at [`Strictness::Names`]; the search is then repeated
/// with weaker marks, as Readability does (its `FLAG_STRIP_UNLIKELYS`
/// retry). User comments stay out until nothing else is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Strictness {
    /// Tags, ARIA roles, comment sections and unlikely class/id words.
    Names,
    /// Tags, ARIA roles and comment sections.
    Roles,
    /// Nothing is set aside.
    Off,
}

impl Strictness {
    /// From strictest to none: the order of attempts.
    pub(super) const ALL: [Strictness; 3] = [Strictness::Names, Strictness::Roles, Strictness::Off];
}

/// Pass 2, **mark boilerplate**: every node whose element or an ancestor
/// is boilerplate by [`boilerplate_reason`] at this strictness.
///
/// Rescue \[I\]: a marked subtree holding more than
/// [`rescue_share`](ArticleConfig::rescue_share) of the body's characters
/// is the page itself (ASP.NET forms, `<div id=main-menu-and-content>`)
/// and is not marked; comment sections inside it stay marked. Widgets
/// (slideshows, embedded posts: `widgets`) are marked at every strictness
/// but [`Strictness::Off`], whatever their size.
pub(super) fn mark_boilerplate(
    doc: &Document,
    a: &Analysis,
    strictness: Strictness,
    cfg: &ArticleConfig,
) -> Vec<bool> {
    // Nothing is set aside at the last strictness (no reason, no
    // comment section, no widget): no pass over the nodes.
    if strictness == Strictness::Off {
        return vec![false; doc.len()];
    }
    // One forward pass, each node's marks from its parent's: what the
    // node inherits is one byte of [`Inherited`] bits per node. Below an
    // element marked for a reason of its own, everything is marked and
    // nothing is looked at: its subtree is filled and passed over, unless
    // it is rescued, when only the comment sections in it are followed
    // (issue 12: no node of a boilerplate subtree is visited, and no
    // second pass looks for the subtrees to rescue).
    let body_chars = f64::from(doc.stats(doc.body()).chars.max(1));
    let mut boilerplate = vec![false; doc.len()];
    let mut inherited = vec![Inherited(0); doc.len()];
    let mut id = NodeId(1);
    while id.index() < doc.len() {
        let from_parent = doc.parent(id).map_or(Inherited(0), |p| inherited[p.index()]);
        let Some(e) = doc.element(id) else {
            // Text (and other nodes) have no reason, name or comment
            // role of their own: they take their parent's bits as they
            // are (a marked parent's subtree was passed over).
            inherited[id.index()] = from_parent;
            id = NodeId(id.0 + 1);
            continue;
        };
        // The element and its names read once, for the reason and the
        // bits alike (issue 12).
        let names = a.names(id);
        let in_table = from_parent.has(Inherited::TABLE_OR_CODE);
        if element_reason(&e, names, strictness, in_table).is_some() {
            let end = doc.subtree_end(id);
            // A comment section itself is never rescued (an element
            // inside one is never reached: its marked subtree is passed
            // over).
            let comments = names.has(Role::Comment);
            if !comments && f64::from(doc.stats(id).chars) > cfg.rescue_share * body_chars {
                // Rescued: only the comments inside stay marked, and
                // nothing inside is rescued again.
                mark_comment_sections(doc, a, id, &mut boilerplate);
            } else if let Some(subtree) = boilerplate.get_mut(id.index()..end.index()) {
                subtree.fill(true);
            }
            id = end;
            continue;
        }
        let mut own = Inherited(0);
        if in_table || matches!(e.name, local_name!("table") | local_name!("code")) {
            own.0 |= Inherited::TABLE_OR_CODE;
        }
        inherited[id.index()] = own;
        id = NodeId(id.0 + 1);
    }
    // Widgets are not the article however much text they hold; a page
    // that is nothing but one yields it at the last attempt.
    if strictness != Strictness::Off {
        for &w in &a.widgets {
            boilerplate[w.index()..doc.subtree_end(w).index()].fill(true);
        }
    }
    boilerplate
}

/// Marks the comment sections in the subtree of `top` (itself none):
/// each node is in one when its parent is, or its own class or id names
/// one ([`Role::Comment`]), as [`mark_boilerplate`] reads them.
fn mark_comment_sections(doc: &Document, a: &Analysis, top: NodeId, boilerplate: &mut [bool]) {
    let end = doc.subtree_end(top);
    if let Some(top) = boilerplate.get_mut(top.index()) {
        *top = false;
    }
    for d in (top.0 + 1..end.0).map(NodeId) {
        // (A node that is no element has no names.)
        let in_comments = doc.parent(d).is_some_and(|p| boilerplate.get(p.index()) == Some(&true))
            || a.names(d).has(Role::Comment);
        if let Some(slot) = boilerplate.get_mut(d.index()) {
            *slot = in_comments;
        }
    }
}

/// What [`mark_boilerplate`] passes from a node to its children (a
/// marked node passes nothing: its subtree is not visited).
#[derive(Debug, Clone, Copy)]
struct Inherited(u8);

impl Inherited {
    /// Its children are inside a `<table>` or `<code>`.
    const TABLE_OR_CODE: u8 = 1 << 2;

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// Why pass 2 set a subtree aside (reported by
/// [`Article::explain`](super::Article::explain)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkReason {
    /// Its tag: `nav`, `aside`, `footer`, `form`, `menu`, `select`, `button`.
    Tag,
    /// Its ARIA role (`navigation`, `banner`, `complementary`, …).
    Role,
    /// Its class or id names a comment section.
    Comments,
    /// Its class or id holds one of Readability's unlikely words
    /// (strictest attempt only).
    UnlikelyName,
    /// A widget recognised by its structure (a slideshow, an embedded post).
    Widget,
}

impl MarkReason {
    /// A short description for people.
    pub fn describe(self) -> &'static str {
        match self {
            MarkReason::Tag => "boilerplate tag",
            MarkReason::Role => "boilerplate ARIA role",
            MarkReason::Comments => "comment section",
            MarkReason::UnlikelyName => "unlikely class or id",
            MarkReason::Widget => "widget (slideshow or embedded post)",
        }
    }
}

/// Why this element is boilerplate by its tag, ARIA role, or class and
/// id; `None` when it is not.
///
/// - Tags \[I\]: `nav`, `aside`, `footer`, `form`, `menu`, `select`,
///   `button` (the elements Readability's cleaner drops, plus HTML5's
///   sectioning elements for navigation).
/// - ARIA roles: Readability's unlikely roles (`navigation`,
///   `complementary`, `menu`, `menubar`, `dialog`, `alert`) and the
///   landmarks `banner`, `contentinfo`, `search`, `toolbar` \[I\].
/// - Comment sections ([`Role::Comment`]) at every strictness but
///   [`Strictness::Off`].
/// - At [`Strictness::Names`] only, Readability's unlikely candidates:
///   a [`Role::Unlikely`] word and no [`Role::Rescue`] word. Readability.js
///   spares links and anything in a table or code block; we spare
///   headings and definition terms too (`<dt class="subheaders">`).
pub(super) fn boilerplate_reason(
    doc: &Document,
    a: &Analysis,
    id: NodeId,
    strictness: Strictness,
    in_table_or_code: bool,
) -> Option<MarkReason> {
    element_reason(&doc.element(id)?, a.names(id), strictness, in_table_or_code)
}

/// [`boilerplate_reason`] of element `e`, whose id and class play the
/// roles `names`.
fn element_reason(
    e: &ElementRef<'_>,
    names: NameRoles,
    strictness: Strictness,
    in_table_or_code: bool,
) -> Option<MarkReason> {
    if strictness == Strictness::Off {
        return None;
    }
    if matches!(
        e.name,
        local_name!("nav")
            | local_name!("aside")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("menu")
            | local_name!("select")
            | local_name!("button")
    ) {
        return Some(MarkReason::Tag);
    }
    if let Some(role) = e.attr_named(&local_name!("role")) {
        let role = role.trim();
        if BOILERPLATE_ROLES.iter().any(|r| role.eq_ignore_ascii_case(r)) {
            return Some(MarkReason::Role);
        }
    }
    if names.has(Role::Comment) {
        return Some(MarkReason::Comments);
    }
    if strictness == Strictness::Roles {
        return None;
    }
    let spared = matches!(e.name, local_name!("a") | local_name!("dt"))
        || heading_level(&e.name).is_some()
        || in_table_or_code;
    (!spared && names.has(Role::Unlikely) && !names.has(Role::Rescue))
        .then_some(MarkReason::UnlikelyName)
}

/// The ARIA roles of boilerplate (see [`boilerplate_reason`]), matched
/// trimmed and ASCII case-insensitively.
const BOILERPLATE_ROLES: [&str; 10] = [
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "menu",
    "menubar",
    "search",
    "dialog",
    "alert",
    "toolbar",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::segments::analyse;
    use crate::extract::article::tests::{parse, run, PARA};

    /// The marks of the first element named `tag`, at each strictness.
    fn marked(html: &str, tag: &str) -> [bool; 3] {
        let doc = parse(html);
        let a = analyse(&doc, &ArticleConfig::default());
        let id = doc.ids().find(|&id| doc.name(id).is_some_and(|n| &**n == tag)).expect("tag");
        Strictness::ALL
            .map(|s| mark_boilerplate(&doc, &a, s, &ArticleConfig::default())[id.index()])
    }

    #[test]
    fn tags_roles_names_and_comments_by_strictness() {
        let page = |inner: &str| format!("<div>{PARA}{PARA}{PARA}</div>{inner}");
        assert_eq!(marked(&page("<nav><i>x</i></nav>"), "i"), [true, true, false]);
        assert_eq!(marked(&page("<div role=search><i>x</i></div>"), "i"), [true, true, false]);
        assert_eq!(marked(&page("<div class=sidebar><i>x</i></div>"), "i"), [true, false, false]);
        assert_eq!(marked(&page("<div class=sidebar-content><i>x</i></div>"), "i"), [false; 3]);
        assert_eq!(marked(&page("<table><tr><td class=sidebar><i>x</i>"), "i"), [false; 3]);
        assert_eq!(marked(&page("<div id=comments><i>x</i></div>"), "i"), [true, true, false]);
        assert_eq!(marked(&page("<div class=no-sidebar><i>x</i></div>"), "i"), [false; 3]);
    }

    #[test]
    fn a_marked_subtree_holding_most_text_is_the_page_but_its_comments_are_not() {
        // The rescue: an ASP.NET form around the whole page.
        let html = format!(
            "<form><div><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div><div id=comments><p>{PARA} Great post.</p></div></form>"
        );
        assert_eq!(marked(&html, "p"), [false; 3]);
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("Great post"), "{out}");
        // Below the share, the form stays marked.
        let small = format!("<div><p>{PARA}</p><p>{PARA}</p></div><form><p>{PARA}</p></form>");
        assert_eq!(marked(&small, "form"), [true, true, false]);
    }

    #[test]
    fn comments_stay_out_until_nothing_else_is_left() {
        // The article is long enough: comments stay out at every attempt
        // that finds it.
        let html = format!(
            "<div class=story><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
             <div class=comment-list><p>{PARA} Reader.</p><p>{PARA} Reader.</p><p>{PARA} Reader.</p></div>"
        );
        let out = run(&html);
        assert!(!out.contains("Reader"), "{out}");
        // A page of comments only yields them, at the last attempt.
        let only = format!("<div class=comment-list><p>{PARA}</p><p>{PARA}</p></div>");
        assert_eq!(run(&only).matches("A powerful storm").count(), 2);
    }
}
