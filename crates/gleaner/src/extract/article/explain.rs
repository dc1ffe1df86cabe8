//! Why `article` chose what it chose (issue 11: `gleaner inspect` for the
//! default extractor): the attempt that succeeded, the container the
//! votes chose and where it moved, the elements selected beside it, and
//! every block of those elements left out, with the pass and rule that
//! left it out.
//!
//! The passes run exactly as in [`Article::extract`](super::Article) —
//! the explanation's selection is the extraction's — with a trace that
//! keeps the selection after each cleaning pass. A removed *block* is the
//! outermost element whose selected text one pass removed whole, so a
//! link list is reported once, not once per link.

use markup5ever::local_name;

use super::clean::{rejection, DataTables, Rejection};
use super::marks::{boilerplate_reason, MarkReason, Strictness};
use super::segments::Analysis;
use super::ArticleConfig;
use crate::document::{Document, NodeId};
use crate::selection::Selection;

/// What `article` decided on one page; the module documentation in
/// `extract/article/explain.rs` describes the report.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The attempt whose selection was kept.
    pub attempt: AttemptKind,
    /// The element the votes chose (pass 4), before refinement.
    pub voted: Option<NodeId>,
    /// The container after refinement and the page's own pointer (pass 5).
    pub container: Option<NodeId>,
    /// Whether the page's `itemprop=articleBody` pointer chose it.
    pub pointed_by_markup: bool,
    /// Whether the block headed by the page's own title replaced the
    /// votes' choice (pass 5, title match).
    pub titled: bool,
    /// The `<header>`s whose lead paragraphs were added (pass 11).
    pub leads: Vec<NodeId>,
    /// The container and the siblings and secondary containers added to
    /// it (passes 6 and 7), in document order.
    pub chosen: Vec<NodeId>,
    /// Every block left out inside the chosen elements, in document order.
    pub removed: Vec<Removal>,
    /// The extraction: equal to `Article::extract`'s.
    pub selection: Selection,
}

/// Which attempt of the strictness retry (pass 12) was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptKind {
    /// Tags, roles, comment sections and unlikely names set aside.
    Strictest,
    /// Tags, roles and comment sections set aside.
    WithoutNames,
    /// Nothing set aside.
    Unmarked,
    /// No attempt selected text: Crunch's output (pass 13).
    CrunchFallback,
}

impl AttemptKind {
    /// A short description for people.
    pub fn describe(self) -> &'static str {
        match self {
            AttemptKind::Strictest => {
                "strictest (tags, roles, comments and unlikely names set aside)"
            }
            AttemptKind::WithoutNames => {
                "second (tags, roles and comments set aside; class and id words ignored)"
            }
            AttemptKind::Unmarked => "last (nothing set aside)",
            AttemptKind::CrunchFallback => "none selected text: Crunch fallback",
        }
    }

    pub(super) fn of(strictness: Strictness) -> AttemptKind {
        match strictness {
            Strictness::Names => AttemptKind::Strictest,
            Strictness::Roles => AttemptKind::WithoutNames,
            Strictness::Off => AttemptKind::Unmarked,
        }
    }
}

/// One block left out, and why.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Removal {
    /// The block (the outermost element the rule removed whole).
    pub node: NodeId,
    /// The rule.
    pub rule: RemovalRule,
    /// Words of text the rule removed in it.
    pub words: u32,
}

/// The pass and rule that left a block out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RemovalRule {
    /// Pass 2: set aside as boilerplate, for this reason.
    Boilerplate(MarkReason),
    /// Pass 8: hidden (`hidden`, `aria-hidden`, `display:none`).
    Hidden,
    /// Pass 8: the text reads as code or data.
    ReadsAsCode,
    /// Pass 8: the segment's link quota is above the limit (LQF).
    LinkQuota,
    /// Pass 9: a list of short links.
    LinkList,
    /// Pass 9: a list of teasers of other pages.
    TeaserList,
    /// Pass 10: a share bar, newsletter box, promotion or the like.
    InnerBoilerplate,
    /// Pass 10: never rendered for a reader (print-only, an unrendered
    /// template placeholder).
    Unrendered,
    /// Pass 10: a caption, photo credit or repeated caption.
    Captions,
    /// Pass 10: an author bio, press-release footer, copyright or
    /// contact line at the end of the article.
    EndBoilerplate,
}

impl RemovalRule {
    /// A short description for people, naming the pass.
    pub fn describe(self) -> String {
        match self {
            RemovalRule::Boilerplate(reason) => format!("pass 2, {}", reason.describe()),
            RemovalRule::Hidden => "pass 8, hidden".into(),
            RemovalRule::ReadsAsCode => "pass 8, reads as code or data".into(),
            RemovalRule::LinkQuota => "pass 8, link quota above the limit".into(),
            RemovalRule::LinkList => "pass 9, link list".into(),
            RemovalRule::TeaserList => "pass 9, teaser list".into(),
            RemovalRule::InnerBoilerplate => "pass 10, inner boilerplate name".into(),
            RemovalRule::Unrendered => "pass 10, not rendered (print-only or template)".into(),
            RemovalRule::Captions => "pass 10, caption or photo credit".into(),
            RemovalRule::EndBoilerplate => {
                "pass 10, end of article (bio, about the company, copyright, contact)".into()
            }
        }
    }
}

/// What one attempt did, kept when [`Article::explain`](super::Article)
/// asks for it.
#[derive(Debug, Default)]
pub(super) struct AttemptTrace {
    pub voted: Option<NodeId>,
    pub container: Option<NodeId>,
    pub pointed: bool,
    pub titled: bool,
    pub leads: Vec<NodeId>,
    pub chosen: Vec<NodeId>,
    pub marks: Vec<bool>,
    /// The selection after each cleaning pass (9 and 10), with the rule of
    /// that pass.
    pub steps: Vec<(RemovalRule, Selection)>,
    /// The selection of pass 8.
    pub selected: Option<Selection>,
}

/// The blocks the passes of one attempt left out of its chosen elements.
pub(super) fn removals(
    doc: &Document,
    a: &Analysis,
    cfg: &ArticleConfig,
    strictness: Strictness,
    trace: &AttemptTrace,
) -> Vec<Removal> {
    let mut out: Vec<Removal> = Vec::new();
    // Pass 8, by text node: marked text is reported at its mark's root;
    // text left out for its own sake is grouped into the outermost
    // elements left out whole for the same rule.
    let mut tables = DataTables::default();
    let mut considered = Selection::none(doc);
    let mut rules: Vec<(NodeId, RemovalRule)> = Vec::new();
    for &root in &trace.chosen {
        for id in doc.subtree(root).filter(|&id| doc.is_text(id)) {
            let rule = match rejection(doc, a, &trace.marks, id, cfg, &mut tables) {
                None => None,
                Some(Rejection::Invisible) if doc.text(id).trim().is_empty() => continue,
                Some(Rejection::Invisible) => Some(RemovalRule::Hidden),
                Some(Rejection::Marked) => {
                    let (node, reason) = mark_origin(doc, a, &trace.marks, id, strictness);
                    let words = words_of(doc, id);
                    match out.last_mut() {
                        Some(last) if last.node == node => last.words += words,
                        _ => out.push(Removal {
                            node,
                            rule: RemovalRule::Boilerplate(reason),
                            words,
                        }),
                    }
                    continue;
                }
                Some(Rejection::ReadsAsCode) => Some(RemovalRule::ReadsAsCode),
                Some(Rejection::LinkQuota) => Some(RemovalRule::LinkQuota),
            };
            considered.set(id, true);
            if let Some(rule) = rule {
                rules.push((id, rule));
            }
        }
    }
    for rule in [RemovalRule::Hidden, RemovalRule::ReadsAsCode, RemovalRule::LinkQuota] {
        if !rules.iter().any(|(_, r)| *r == rule) {
            continue;
        }
        let mut kept = considered.clone();
        rules.iter().filter(|(_, r)| *r == rule).for_each(|&(id, _)| kept.set(id, false));
        for (node, words) in removed_blocks(doc, &trace.chosen, &considered, &kept) {
            out.push(Removal { node, rule, words });
        }
    }
    // Passes 9 and 10: what each removed from the selection before it.
    let mut before = trace.selected.as_ref();
    for (rule, after) in &trace.steps {
        if let Some(before) = before.filter(|b| *b != after) {
            for (node, words) in removed_blocks(doc, &trace.chosen, before, after) {
                out.push(Removal { node, rule: *rule, words });
            }
        }
        before = Some(after);
    }
    out.sort_by_key(|r| r.node);
    out
}

/// Words of a text node, hidden or not (the statistics count only
/// visible text).
fn words_of(doc: &Document, id: NodeId) -> u32 {
    let words = doc.text(id).split_whitespace().count();
    u32::try_from(words).unwrap_or(u32::MAX)
}

/// The outermost marked element around the marked text `id`, and the
/// reason of the outermost element in that marked chain that has one.
fn mark_origin(
    doc: &Document,
    a: &Analysis,
    marks: &[bool],
    id: NodeId,
    strictness: Strictness,
) -> (NodeId, MarkReason) {
    let chain: Vec<NodeId> = doc.ancestors(id).take_while(|&p| marks[p.index()]).collect();
    let outermost = chain.last().copied().unwrap_or(id);
    let reason = chain.iter().rev().find_map(|&p| {
        let in_table_or_code = doc.ancestors(p).any(|q| {
            matches!(doc.name(q), Some(&local_name!("table")) | Some(&local_name!("code")))
        });
        boilerplate_reason(doc, a, p, strictness, in_table_or_code)
            .or_else(|| a.widgets.contains(&p).then_some(MarkReason::Widget))
    });
    (outermost, reason.unwrap_or(MarkReason::Widget))
}

/// The outermost elements inside the `chosen` roots whose selected text
/// in `before` is all gone in `after`, each with the words removed.
fn removed_blocks(
    doc: &Document,
    chosen: &[NodeId],
    before: &Selection,
    after: &Selection,
) -> Vec<(NodeId, u32)> {
    // Prefix counts of selected and of removed text nodes over the span
    // the roots cover (offset `lo`), so that "all of this subtree's
    // selected text went" is one comparison.
    let lo = chosen.iter().map(|r| r.index()).min().unwrap_or(0);
    let hi = chosen.iter().map(|&r| doc.subtree_end(r).index()).max().unwrap_or(0).max(lo);
    let mut was = Vec::with_capacity(hi - lo + 1);
    let mut gone = Vec::with_capacity(hi - lo + 1);
    let (mut w, mut g) = (0u32, 0u32);
    for i in lo..hi {
        let id = NodeId(i as u32);
        was.push(w);
        gone.push(g);
        if doc.is_text(id) && before.contains(id) {
            w += 1;
            if !after.contains(id) {
                g += 1;
            }
        }
    }
    was.push(w);
    gone.push(g);
    let count = |v: &[u32], id: NodeId| {
        let end = doc.subtree_end(id).index().saturating_sub(lo);
        v.get(end).copied().unwrap_or(0)
            - v.get(id.index().saturating_sub(lo)).copied().unwrap_or(0)
    };
    let mut out = Vec::new();
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            let removed = count(&gone, id);
            if removed > 0 && removed == count(&was, id) {
                let words = doc
                    .subtree(id)
                    .filter(|&t| doc.is_text(t) && before.contains(t))
                    .map(|t| words_of(doc, t))
                    .sum();
                out.push((id, words));
                id = doc.subtree_end(id);
            } else {
                id = NodeId(id.0 + 1);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{parse, PARA};
    use crate::extract::{Article, Extractor};

    /// The first element named `tag` whose class is `class`.
    fn find(doc: &Document, tag: &str, class: &str) -> NodeId {
        doc.ids()
            .find(|&id| {
                doc.name(id).is_some_and(|n| &**n == tag) && doc.attr(id, "class") == Some(class)
            })
            .expect("element")
    }

    #[test]
    fn issue_11_each_removed_block_is_reported_once_with_its_rule() {
        let html = format!(
            "<body><nav class=n><a href=/>Home</a> <a href=/w>World</a></nav>\
             <div class=story><h1>Storm</h1><p>{PARA}</p><p>{PARA}</p>\
             <ul class=links><li><a href=/a>One story</a></li><li><a href=/b>Two story</a></li>\
             <li><a href=/c>Three story</a></li></ul>\
             <ul class=tags><li><a href=/t/a>A b c</a> extraordinarily</li>\
             <li><a href=/t/b>D e f</a> unquestionably</li>\
             <li><a href=/t/c>G h i</a> notwithstanding</li></ul>\
             <div class=share-bar>Share this on every network you know</div>\
             <div class=modal hidden><p>Subscribe to read more of our reporting</p></div>\
             <p>{PARA}</p></div></body>"
        );
        let doc = parse(&html);
        let explained = Article::default().explain(&doc);
        assert_eq!(explained.selection, Article::default().extract(&doc));
        assert_eq!(explained.attempt, AttemptKind::Strictest);
        let story = find(&doc, "div", "story");
        assert_eq!(explained.container, Some(story));
        assert_eq!(explained.chosen, vec![story]);
        let rule_of = |tag: &str, class: &str| {
            let node = find(&doc, tag, class);
            let rules: Vec<RemovalRule> =
                explained.removed.iter().filter(|r| r.node == node).map(|r| r.rule).collect();
            rules
        };
        // A list of nothing but links goes by its items' link quota (pass 8),
        // one whose links are short beside long words by its link words
        // (pass 9); each is one block.
        assert_eq!(rule_of("ul", "links"), [RemovalRule::LinkQuota]);
        assert_eq!(rule_of("ul", "tags"), [RemovalRule::LinkList]);
        assert_eq!(rule_of("div", "share-bar"), [RemovalRule::InnerBoilerplate]);
        assert_eq!(rule_of("div", "modal"), [RemovalRule::Hidden]);
        // The nav lies outside the container: not a removal inside it.
        assert!(rule_of("nav", "n").is_empty());
        assert_eq!(explained.removed.len(), 4, "{:?}", explained.removed);
        let words: u32 = explained.removed.iter().map(|r| r.words).sum();
        assert!(words >= 6 + 7 + 7, "{:?}", explained.removed);
    }

    #[test]
    fn issue_11_boilerplate_inside_the_container_names_its_reason() {
        let html = format!(
            "<article class=story><p>{PARA}</p><p>{PARA}</p>\
             <aside class=box><p>{PARA} An aside.</p></aside>\
             <div id=comments><p>{PARA} A comment.</p></div><p>{PARA}</p></article>"
        );
        let doc = parse(&html);
        let explained = Article::default().explain(&doc);
        assert_eq!(explained.selection, Article::default().extract(&doc));
        let rules: Vec<RemovalRule> = explained.removed.iter().map(|r| r.rule).collect();
        assert_eq!(
            rules,
            [
                RemovalRule::Boilerplate(MarkReason::Tag),
                RemovalRule::Boilerplate(MarkReason::Comments)
            ]
        );
    }

    #[test]
    fn issue_11_the_second_set_of_rules_is_explained() {
        let html = format!(
            "<article class=story><header class=top><h1>Storm hits the coast</h1>\
             <p class=dek>The town counts the cost of the worst storm in forty years, and asks why.</p></header>\
             <div class=body><p>{PARA}</p><p>{PARA}</p><div class=printonly>Printed from example.org today</div>\
             <p>{PARA}</p><p class=note>Copyright 2024 Example News. All rights reserved.</p></div></article>"
        );
        let doc = parse(&html);
        let explained = Article::default().explain(&doc);
        assert_eq!(explained.selection, Article::default().extract(&doc));
        let rule_of = |tag: &str, class: &str| {
            let node = find(&doc, tag, class);
            explained.removed.iter().filter(|r| r.node == node).map(|r| r.rule).collect::<Vec<_>>()
        };
        assert_eq!(rule_of("div", "printonly"), [RemovalRule::Unrendered]);
        assert_eq!(rule_of("p", "note"), [RemovalRule::EndBoilerplate]);
        assert!(!explained.titled);
        assert_eq!(explained.leads, [find(&doc, "header", "top")], "{:?}", explained.leads);
        assert!(RemovalRule::EndBoilerplate.describe().starts_with("pass 10"));
    }

    #[test]
    fn the_explanation_selects_what_the_extraction_selects_on_real_pages() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut pages = 0;
        for entry in std::fs::read_dir(dir).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "html") {
                continue;
            }
            let bytes = std::fs::read(&path).expect("page");
            let doc = Document::parse(&bytes, &Default::default()).expect("parse");
            let explained = Article::default().explain(&doc);
            assert_eq!(explained.selection, Article::default().extract(&doc), "{path:?}");
            assert!(explained.container.is_some(), "{path:?}");
            pages += 1;
        }
        assert!(pages >= 5);
    }

    #[test]
    fn a_page_without_paragraphs_is_explained_as_the_fallback() {
        let doc = parse("<ul><li><a href=/a>A</a></li></ul>");
        let explained = Article::default().explain(&doc);
        assert_eq!(explained.attempt, AttemptKind::CrunchFallback);
        assert_eq!(explained.selection, Article::default().extract(&doc));
    }
}
