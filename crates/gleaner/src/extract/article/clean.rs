//! Passes 8 to 11, **select and clean**: the text of the chosen elements,
//! less what is not the article.

use markup5ever::local_name;

use super::segments::Analysis;
use super::vocabulary::Role;
use super::ArticleConfig;
use crate::document::tags::heading_level;
use crate::document::{Document, ElementRef, NodeFlags, NodeId};
use crate::selection::Selection;

/// Pass 8, **select** with the link-quota filter: the visible text of the
/// chosen elements outside boilerplate, except text segments whose own
/// link quota exceeds [`link_quota`](ArticleConfig::link_quota) (LQF's
/// filter, Mantratzis et al. 2005, applied per segment, so that a link
/// line in a cell goes and the cell's story stays); headings and the
/// cells of data tables ([`is_data_table`]) are kept whatever their
/// quota.
pub(super) fn select_text(
    doc: &Document,
    a: &Analysis,
    marks: &[bool],
    chosen: &[NodeId],
    cfg: &ArticleConfig,
) -> Selection {
    let mut sel = Selection::none(doc);
    let mut tables = DataTables::default();
    for &root in chosen {
        for id in doc.subtree(root) {
            if doc.is_text(id) && rejection(doc, a, marks, id, cfg, &mut tables).is_none() {
                sel.set(id, true);
            }
        }
    }
    sel
}

/// Why pass 8 leaves a text node of the chosen elements out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rejection {
    /// Not visible, or no characters.
    Invisible,
    /// Inside a subtree set aside by pass 2.
    Marked,
    /// Its segment reads as code or data (issue 11).
    ReadsAsCode,
    /// Its segment's link quota is above the limit (LQF).
    LinkQuota,
}

/// Why [`select_text`] leaves the text node `id` out, `None` when it
/// selects it.
pub(super) fn rejection(
    doc: &Document,
    a: &Analysis,
    marks: &[bool],
    id: NodeId,
    cfg: &ArticleConfig,
    tables: &mut DataTables,
) -> Option<Rejection> {
    if !is_content_text(doc, id) {
        return Some(Rejection::Invisible);
    }
    if marks[id.index()] {
        return Some(Rejection::Marked);
    }
    let seg = a.segment(id)?;
    // Text that reads as code or data is not the article's (issue 11).
    if seg.reads_as_code() {
        return Some(Rejection::ReadsAsCode);
    }
    if seg.link_quota() <= cfg.link_quota {
        return None;
    }
    let owner = a.segment_owner(doc, id)?;
    (!is_heading(doc, owner) && !tables.in_data_cell(doc, owner)).then_some(Rejection::LinkQuota)
}

/// Pass 9, **link lists**: inside the chosen elements, a list, table or
/// `div` with at least [`link_list_links`](ArticleConfig::link_list_links)
/// links whose linked words outnumber its unlinked words more than
/// [`link_list_ratio`](ArticleConfig::link_list_ratio) times (or that has
/// only linked words) is removed: related articles, tag lists, share bars.
/// After Crunch's link-list remover (Gupta et al. 2003), which compares
/// the same ratio with 0.35 \[K\]; 1 \[I\] spares lists of annotated links.
/// Data tables ([`is_data_table`]) are not link lists.
pub(super) fn remove_link_lists(
    doc: &Document,
    chosen: &[NodeId],
    sel: &mut Selection,
    cfg: &ArticleConfig,
) {
    remove_inside(doc, chosen, sel, |id| {
        if doc.is(id, local_name!("table")) && is_data_table(doc, id) {
            return false;
        }
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

/// Pass 9, **teaser lists** \[I\]: inside the chosen elements, a block
/// with at least [`TEASERS`] child items of the same shape (tag and
/// class; `li`, `div` or `article`), each led by a linked title in a block of its own, and each short
/// (at most [`TEASER_WORDS`] words), is a list of other stories: "most
/// popular", promo cards, "more from" (issue 11). Their unlinked blurbs
/// and dates keep the link quota low, so [`remove_link_lists`] misses
/// them; the shape does not.
pub(super) fn remove_teaser_lists(doc: &Document, chosen: &[NodeId], sel: &mut Selection) {
    remove_inside(doc, chosen, sel, |id| doc.element(id).is_some() && is_teaser_list(doc, id));
}

/// Fewest teasers a teaser list has \[I\].
const TEASERS: usize = 3;
/// Most words a teaser has \[I\].
const TEASER_WORDS: u32 = 60;

fn is_teaser_list(doc: &Document, id: NodeId) -> bool {
    let items: Vec<NodeId> = doc.children(id).filter(|&c| doc.element(c).is_some()).collect();
    if items.len() < TEASERS {
        return false;
    }
    let shape = |c: NodeId| (doc.name(c).cloned(), doc.attr(c, "class").map(str::trim));
    let first = shape(items[0]);
    // Rows of a table are a table's, not a list's.
    let item_tag =
        matches!(first.0, Some(local_name!("li") | local_name!("div") | local_name!("article")));
    item_tag
        && items.iter().all(|&c| shape(c) == first)
        && items.iter().all(|&c| {
            let s = doc.stats(c);
            s.words <= TEASER_WORDS
                && s.link_words < s.words
                && doc
                    .subtree(c)
                    .find(|&t| doc.is_text(t) && doc.stats(t).chars > 0)
                    .is_some_and(|t| leads_with_a_linked_title(doc, c, t))
        })
}

/// Is `text`, the first text of `item`, a link in a block of its own
/// inside the item (`<h3><a>Title</a></h3><p>Blurb</p>`)? A link that
/// runs on into its annotation on one line (`<li><a>Name</a> – what it
/// is</li>`) is a list of resources in the article, not teasers.
fn leads_with_a_linked_title(doc: &Document, item: NodeId, text: NodeId) -> bool {
    doc.flags(text).contains(NodeFlags::IN_LINK)
        && doc
            .ancestors(text)
            .take_while(|&a| a != item)
            .any(|a| doc.flags(a).contains(NodeFlags::BLOCK))
}

/// Pass 10, **inner boilerplate** \[I\]: inside the chosen elements,
/// blocks named as share bars, newsletter boxes, promotions, related
/// teasers or advertisements ([`Role::InnerBoilerplate`], whole name
/// parts, so `shared-content` or `adult` do not match) are removed, unless
/// they are headings or hold more than
/// [`rescue_share`](ArticleConfig::rescue_share) of their container's
/// characters.
pub(super) fn remove_inner_boilerplate(
    doc: &Document,
    a: &Analysis,
    chosen: &[NodeId],
    sel: &mut Selection,
    cfg: &ArticleConfig,
) {
    // Selected characters before each node, so that a subtree's are one
    // subtraction: counted in the selection as this pass found it, and
    // only when a guarded block asks (most pages have none; issue 12).
    let found = sel.clone();
    let sums: std::cell::OnceCell<(Vec<u64>, u64)> = std::cell::OnceCell::new();
    let selected = |id: NodeId| {
        let (before, total) = sums.get_or_init(|| {
            let mut before = Vec::with_capacity(doc.len() + 1);
            let mut total = 0u64;
            for id in doc.ids() {
                before.push(total);
                if found.contains(id) {
                    total += u64::from(doc.stats(id).chars);
                }
            }
            before.push(total);
            (before, total)
        });
        let end = before.get(doc.subtree_end(id).index()).copied().unwrap_or(*total);
        (end - before.get(id.index()).copied().unwrap_or(0)) as f64
    };
    for &root in chosen {
        let most = || cfg.rescue_share * selected(root);
        remove_inside(doc, &[root], sel, |id| {
            doc.element(id).is_some()
                && a.names(id).has(Role::InnerBoilerplate)
                && !is_heading(doc, id)
                && !(cfg.inner_guard && is_named_article(doc, a, id) && selected(id) > most())
        });
    }
}

/// Guard of [`remove_inner_boilerplate`] (issue 11): a block whose name
/// also says "article" (`gigya-share-btns text-wrapper`, `ad-content`) or
/// that is marked up as the article's body (`itemprop="articleBody"`) is
/// the article when it holds most of its container's selected text.
fn is_named_article(doc: &Document, a: &Analysis, id: NodeId) -> bool {
    a.names(id).has(Role::ArticleHint) || doc.element(id).is_some_and(is_article_body)
}

/// Is the element marked up as an article's body (schema.org microdata,
/// `itemprop="articleBody"`, <https://schema.org/articleBody>)?
pub(super) fn is_article_body(element: ElementRef<'_>) -> bool {
    element.attr_named(&local_name!("itemprop")).is_some_and(itemprop_is_article_body)
}

/// Does this `itemprop` value hold the token `articleBody`?
pub(super) fn itemprop_is_article_body(itemprop: &str) -> bool {
    itemprop.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case("articleBody"))
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
    if selected_under_h1(doc, first, sel) {
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

/// Is a node of `root`'s subtree selected and below an `<h1>` (one of
/// its ancestors, inside the subtree or above it)? One walk over the
/// subtree, each `<h1>` met covering the nodes of its own subtree,
/// rather than a climb to the root from every selected node (issue 12).
fn selected_under_h1(doc: &Document, root: NodeId, sel: &Selection) -> bool {
    let end = doc.subtree_end(root);
    // Nodes before `covered` (and after the `<h1>` that set it) are
    // below an `<h1>`: the whole subtree when one is above the root.
    let mut covered =
        if doc.ancestors(root).any(|p| doc.is(p, local_name!("h1"))) { end } else { root };
    for id in doc.subtree(root) {
        if id < covered && sel.contains(id) {
            return true;
        }
        if doc.is(id, local_name!("h1")) {
            covered = covered.max(doc.subtree_end(id));
        }
    }
    false
}

/// Whether blocks lie in cells of data tables, memoised per table.
#[derive(Default)]
pub(super) struct DataTables(std::collections::HashMap<NodeId, bool>);

impl DataTables {
    /// Is `block` a cell of a data table, or inside one (the nearest
    /// `td`/`th` and its nearest `table`)?
    fn in_data_cell(&mut self, doc: &Document, block: NodeId) -> bool {
        let is_cell = |id: NodeId| doc.is(id, local_name!("td")) || doc.is(id, local_name!("th"));
        let Some(cell) = std::iter::once(block).chain(doc.ancestors(block)).find(|&id| is_cell(id))
        else {
            return false;
        };
        let Some(table) = doc.ancestors(cell).find(|&id| doc.is(id, local_name!("table"))) else {
            return false;
        };
        *self.0.entry(table).or_insert_with(|| is_data_table(doc, table))
    }
}

/// A data table, not navigation or layout \[I\]: at least two rows with
/// the same number of columns (at least two, `colspan` counted), no
/// nested table, and at most half of the cells with text are nothing but
/// a link. Its cells stay whole, so that a cell holding only a link
/// (`<td><a href=/a>Auckland</a></td>`) does not vanish and shift the
/// columns (issue 11).
pub(super) fn is_data_table(doc: &Document, table: NodeId) -> bool {
    let mut columns: Option<u32> = None;
    let mut rows = 0u32;
    let (mut text_cells, mut link_cells) = (0u32, 0u32);
    for id in doc.subtree(table).skip(1) {
        match doc.name(id) {
            Some(&local_name!("table")) => return false,
            Some(&local_name!("tr")) => {
                let mut width = 0u32;
                for c in doc.children(id) {
                    if !(doc.is(c, local_name!("td")) || doc.is(c, local_name!("th"))) {
                        continue;
                    }
                    let span = doc.attr(c, "colspan").and_then(|s| s.trim().parse().ok());
                    width = width.saturating_add(span.unwrap_or(1u32).clamp(1, 1000));
                    let s = doc.stats(c);
                    if s.chars > 0 {
                        text_cells += 1;
                        if s.link_chars >= s.chars {
                            link_cells += 1;
                        }
                    }
                }
                if width == 0 {
                    continue;
                }
                if *columns.get_or_insert(width) != width {
                    return false;
                }
                rows += 1;
            }
            _ => {}
        }
    }
    rows >= 2 && columns.is_some_and(|c| c >= 2) && link_cells * 2 <= text_cells
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
    use crate::extract::article::tests::{parse, run, PARA};
    use crate::extract::article::{Article, ArticleConfig};
    use crate::extract::Extractor;
    use crate::render;

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

    /// See: issue 11, "Table cells holding only a link are dropped".
    #[test]
    fn issue_11_link_only_cells_of_a_data_table_are_kept() {
        let html = format!(
            "<div><p>{PARA}</p><p>{PARA}</p><table><tr><th>City</th><th>Population</th></tr>\
             <tr><td><a href=/a>Auckland</a></td><td>1,700,000</td></tr>\
             <tr><td><a href=/w>Wellington</a></td><td>215,000</td></tr>\
             <tr><td><a href=/c>Christchurch</a></td><td>380,000</td></tr></table><p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert!(out.contains("Auckland \t1,700,000"), "{out}");
        assert!(out.contains("Christchurch"), "{out}");
        // A table of nothing but links is navigation still.
        let nav = format!(
            "<div><p>{PARA}</p><p>{PARA}</p><table><tr><td><a href=/a>Politics</a></td>\
             <td><a href=/b>Sport</a></td></tr><tr><td><a href=/c>Weather</a></td>\
             <td><a href=/d>Travel</a></td></tr></table><p>{PARA}</p></div>"
        );
        let out = run(&nav);
        assert!(!out.contains("Politics") && !out.contains("Travel"), "{out}");
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

    /// See: issue 11, "the real body wrapper has a class that contains a
    /// boilerplate word as part of a longer name (`no-share`, `readmore`,
    /// `ad-content`, …) and the inner cleaning removes it".
    #[test]
    fn issue_11_an_article_body_with_a_boilerplate_name_part_stays() {
        for name in
            ["class=no-share", "class=ad-content", "id=gigya-share-btns itemprop=articleBody"]
        {
            let html = format!(
                "<div class=story><h1>Storm</h1><p>Short intro line.</p><div {name}><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div>\
                 <div class=share>Share this story on every network</div></div>"
            );
            let out = run(&html);
            assert_eq!(out.matches("A powerful storm").count(), 3, "{name}: {out}");
            assert!(!out.contains("Share this"), "{name}: {out}");
        }
        // A small block so named is still removed.
        let html = format!(
            "<div class=story><p>{PARA}</p><p>{PARA}</p><div class=ad-content><p>Buy a boat today, the best boats in town.</p></div></div>"
        );
        assert!(!run(&html).contains("Buy a boat"));
    }

    /// See: issue 11, "Teaser lists kept … three or more sibling items of
    /// the same shape, each led by a link to another page".
    #[test]
    fn issue_11_teaser_lists_with_unlinked_blurbs_go() {
        let teaser = |i: u32| {
            format!(
                "<li class=card><h3><a href=/story-{i}>Another story number {i}</a></h3>\
                 <p>An unlinked blurb of this other story, long enough to lower the link quota a lot.</p>\
                 <span>May {i}, 2024</span></li>"
            )
        };
        let teasers: String = (1..=4).map(teaser).collect();
        let html = format!("<div><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p><ul>{teasers}</ul></div>");
        let run = |html: &str| {
            let doc = parse(html);
            let cfg = ArticleConfig { teaser_lists: true, ..Default::default() };
            render::text(&doc, &Article::new(cfg).extract(&doc))
        };
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("Another story") && !out.contains("unlinked blurb"), "{out}");
        // A list of annotated links in the article's own words stays.
        let links: String = (1..=4)
            .map(|i| {
                format!(
                    "<li><a href=/r{i}>Resource {i}</a> – a fine guide to the storm season.</li>"
                )
            })
            .collect();
        let html = format!("<div><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p><ul>{links}</ul></div>");
        assert!(run(&html).contains("Resource 4 – a fine guide"), "{}", run(&html));
    }

    /// See: issue 11, "body text as `<br><br>`-separated runs directly in
    /// a `div`".
    #[test]
    fn issue_11_a_body_of_line_broken_runs_is_kept() {
        let html = format!(
            "<div class=menu><a href=/>Home</a> <a href=/a>About</a></div>\
             <div>{PARA}<br><br>{PARA}<br><br>{PARA}<br><br>{PARA}</div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 4, "{out}");
        assert!(!out.contains("About"), "{out}");
    }

    /// See: issue 11, "CSS-hidden overlays and modals, login/registration
    /// boxes".
    #[test]
    fn issue_11_hidden_modals_and_login_boxes_go() {
        let html = format!(
            "<div class=story><p>{PARA}</p><p>{PARA}</p>\
             <div class=modal style='display:none'><p>Log in to read the rest of this story, it is free and easy.</p></div>\
             <div class=login-box><p>Register now for unlimited access to every story on the site.</p></div>\
             <p>{PARA}</p></div>"
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("Log in") && !out.contains("Register now"), "{out}");
    }

    /// See: issue 11, "Article split over repeated sibling or cousin
    /// containers (`story-body-1`, `-2`)".
    #[test]
    fn issue_11_an_article_split_over_sibling_containers_is_whole() {
        let part = |n: u32| {
            format!(
                "<div class=story-body-{n}><p>{PARA} Part {n}.</p><p>{PARA}</p><p>{PARA}</p></div>"
            )
        };
        let html = format!(
            "<div class=main>{}<div class=ad-slot>Advertisement</div>{}{}</div><div class=sidebar><p>{PARA} Side.</p></div>",
            part(1),
            part(2),
            part(3)
        );
        let out = run(&html);
        for n in 1..=3 {
            assert!(out.contains(&format!("Part {n}.")), "{n}: {out}");
        }
        assert!(!out.contains("Side.") && !out.contains("Advertisement"), "{out}");
    }
}
