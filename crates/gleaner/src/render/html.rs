//! The selection as a clean HTML fragment: structural and inline elements
//! from a small allow-list, no attributes but `href`, `src`, `alt`,
//! `colspan` and `rowspan`; other elements, block containers included,
//! are unwrapped (their content kept, a `<br>` between inline runs that
//! a block separated), so no empty wrapper `<div>`s nest (issue 11).

use markup5ever::{local_name, LocalName};

use super::records::{Kind, Record, Records};
use super::{RenderOptions, SubtreeSelection};
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Elements kept with their name.
fn kept_name(name: &LocalName, options: RenderOptions) -> Option<&'static str> {
    Some(match *name {
        local_name!("p") => "p",
        local_name!("h1") => "h1",
        local_name!("h2") => "h2",
        local_name!("h3") => "h3",
        local_name!("h4") => "h4",
        local_name!("h5") => "h5",
        local_name!("h6") => "h6",
        local_name!("ul") | local_name!("menu") | local_name!("dir") => "ul",
        local_name!("ol") => "ol",
        local_name!("li") => "li",
        local_name!("dl") => "dl",
        local_name!("dt") => "dt",
        local_name!("dd") => "dd",
        local_name!("blockquote") => "blockquote",
        local_name!("pre") => "pre",
        local_name!("code") => "code",
        local_name!("table") => "table",
        local_name!("thead") => "thead",
        local_name!("tbody") => "tbody",
        local_name!("tfoot") => "tfoot",
        local_name!("tr") => "tr",
        local_name!("th") => "th",
        local_name!("td") => "td",
        local_name!("caption") => "caption",
        local_name!("em") | local_name!("i") => "em",
        local_name!("strong") | local_name!("b") => "strong",
        local_name!("sub") => "sub",
        local_name!("sup") => "sup",
        local_name!("br") => "br",
        local_name!("hr") => "hr",
        local_name!("figure") => "figure",
        local_name!("figcaption") => "figcaption",
        local_name!("a") if options.links => "a",
        local_name!("img") if options.images => "img",
        _ => return None,
    })
}

fn is_void_output(name: &str) -> bool {
    matches!(name, "br" | "hr" | "img")
}

/// Renders the selection as an HTML fragment inside `<article>`.
pub fn html(doc: &Document, sel: &Selection, options: RenderOptions) -> String {
    let selected = SubtreeSelection::new(doc, sel);
    let records = Records::find(doc, sel);
    let mut out = String::from("<article>");
    let all = (NodeId(0), NodeId(doc.len() as u32));
    write_range(&mut out, doc, sel, &selected, &records, options, all);
    out.push_str("</article>");
    out
}

/// The selected part of the subtree of `root` as HTML (a table too
/// complex for GFM, which Markdown writes as HTML, issue 35).
pub(crate) fn html_subtree(
    doc: &Document,
    sel: &Selection,
    selected: &SubtreeSelection,
    options: RenderOptions,
    root: NodeId,
) -> String {
    let mut out = String::new();
    let range = (root, doc.subtree_end(root));
    write_range(&mut out, doc, sel, selected, &Records::default(), options, range);
    out
}

/// Writes the nodes `start..end` (whole subtrees) to `out`: of
/// `records`, a grid's cards as a `<ul>` of `<li>`s and a thread's posts
/// as `<article>`s with an `<hr>` between them.
fn write_range(
    out: &mut String,
    doc: &Document,
    sel: &Selection,
    selected: &SubtreeSelection,
    records: &Records,
    options: RenderOptions,
    (start, end): (NodeId, NodeId),
) {
    let has_selected = |id: NodeId| selected.any_in(doc, id);
    let base = doc.base_url();
    // Open elements: (node, the tag written, an unwrapped block).
    let mut open: Vec<(NodeId, Option<&'static str>, bool)> = Vec::new();
    // A block left out between selected text (`Before<div class=ad>…</div>
    // After`) still separates it: a `<br>` goes before the next inline
    // content when the output ends inline.
    let mut pending_break = false;
    let flush = |out: &mut String, pending: &mut bool| {
        if std::mem::take(pending) && ends_inline(out) {
            out.push_str("<br>");
        }
    };
    // Layout tables met, by their `<table>`: their parts are unwrapped as
    // Markdown writes them, as paragraphs (issue 35).
    let mut layout = LayoutTables::default();
    let mut id = start;
    while id < end {
        while let Some(&(top, tag, unwrapped)) = open.last() {
            if doc.contains(top, id) {
                break;
            }
            open.pop();
            close(out, tag);
            pending_break |= unwrapped;
        }
        let stats = doc.stats(id);
        if stats.flags.contains(NodeFlags::TEXT) {
            if sel.contains(id) {
                flush(out, &mut pending_break);
                escape_text(out, doc.text(id), stats.flags.contains(NodeFlags::IN_PRE));
            } else if stats.chars == 0
                && !open.is_empty()
                && stats.flags.contains(NodeFlags::VISIBLE)
            {
                if stats.flags.contains(NodeFlags::IN_PRE) {
                    escape_text(out, doc.text(id), true);
                } else if !out.ends_with(char::is_whitespace) {
                    out.push(' ');
                }
            }
            id = NodeId(id.0 + 1);
            continue;
        }
        let Some(element) = doc.element(id) else {
            id = NodeId(id.0 + 1);
            continue;
        };
        let visible = stats.flags.contains(NodeFlags::VISIBLE);
        let text_less = stats.chars == 0;
        if !visible || (!text_less && !has_selected(id)) || (text_less && open.is_empty()) {
            if visible && !text_less && stats.flags.contains(NodeFlags::BLOCK) {
                pending_break = true;
            }
            // A cell left out of a written row of a data table stays as
            // an empty cell, so that the cells after it keep their
            // columns (as Markdown writes it, issue 35).
            if let Some(t) = kept_name(&element.name, options).filter(|t| matches!(*t, "td" | "th"))
            {
                if open
                    .last()
                    .is_some_and(|&(row, tag, _)| tag == Some("tr") && doc.contains(row, id))
                {
                    out.push('<');
                    out.push_str(t);
                    for attr in ["colspan", "rowspan"] {
                        if let Some(v) = element.attr(attr) {
                            out.push_str(&format!(" {attr}=\""));
                            escape_attr(out, v);
                            out.push('"');
                        }
                    }
                    out.push_str("></");
                    out.push_str(t);
                    out.push('>');
                }
            }
            id = doc.subtree_end(id);
            continue;
        }
        // Not code: line-number gutters and "Copy" buttons (issue 35).
        if super::code::is_gutter(doc, id) || super::code::is_copy_button(doc, id) {
            id = doc.subtree_end(id);
            continue;
        }
        let record = records.get(id);
        let tag = match record {
            Some(r) if r.kind == Kind::Item => Some("li"),
            Some(_) => Some("article"),
            None => kept_name(&element.name, options).filter(|_| !layout.unwraps(doc, id)),
        };
        let unwrapped_block = tag.is_none() && stats.flags.contains(NodeFlags::BLOCK);
        if unwrapped_block {
            pending_break = true;
        }
        if let Some(t) = tag {
            // An element without text still shows an image it holds, and
            // an inline one a rule (`<b><hr></b>`, which Markdown writes
            // as a rule; an empty heading or quote is left out).
            let inline = !stats.flags.contains(NodeFlags::BLOCK);
            let holds_image_or_rule = || {
                doc.subtree(id).any(|n| {
                    (options.images && super::image::is_written_image(doc, n))
                        || (inline && doc.is(n, local_name!("hr")))
                })
            };
            // An empty cell of a data table keeps its column.
            let cell = matches!(t, "td" | "th");
            // An image without source or alt text says nothing (Markdown
            // leaves it out too).
            let empty_image = t == "img" && !super::image::is_written(doc, id);
            if empty_image || (text_less && !is_void_output(t) && !cell && !holds_image_or_rule()) {
                id = doc.subtree_end(id);
                continue;
            }
            if stats.flags.contains(NodeFlags::BLOCK) {
                pending_break = false;
            } else {
                flush(out, &mut pending_break);
            }
            // A grid's cards are a list, a thread's posts articles with a
            // rule between them, as Markdown writes them.
            match record {
                Some(Record { kind: Kind::Item, first, last }) => {
                    if first {
                        out.push_str("<ul>");
                    }
                    if last {
                        open.push((id, Some("ul"), false));
                    }
                }
                // Old forum pages put their own `<hr>` between posts.
                Some(Record { kind: Kind::Post, first: false, .. })
                    if !out.trim_end().ends_with("<hr>") =>
                {
                    out.push_str("<hr>")
                }
                _ => {}
            }
            out.push('<');
            out.push_str(t);
            for attr in ["href", "src", "alt", "colspan", "rowspan"] {
                // An image's source may be a lazy-loading attribute's.
                let value = match attr {
                    "src" if t == "img" => super::image::source(doc, id),
                    "src" => None,
                    _ => element.attr(attr),
                };
                if let Some(v) = value {
                    let allowed = match attr {
                        "href" => t == "a" && super::is_safe_url(v),
                        "src" => true,
                        "alt" => t == "img",
                        _ => t == "td" || t == "th",
                    };
                    if allowed {
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        if matches!(attr, "href" | "src") {
                            escape_attr(out, &super::absolute_url(base.as_ref(), v));
                        } else {
                            escape_attr(out, v);
                        }
                        out.push('"');
                    }
                }
            }
            out.push('>');
            // A line break right after `<pre>` is dropped by HTML parsers:
            // code that starts with one gets a second (issue 35).
            if t == "pre"
                && doc
                    .subtree(id)
                    .find(|&n| doc.is_text(n))
                    .is_some_and(|n| doc.text(n).starts_with('\n'))
            {
                out.push('\n');
            }
            if is_void_output(t) {
                id = doc.subtree_end(id);
                continue;
            }
        }
        open.push((id, tag, unwrapped_block));
        id = NodeId(id.0 + 1);
    }
    while let Some((_, tag, _)) = open.pop() {
        close(out, tag);
    }
}

/// Which tables are layout tables ([`super::is_markdown_table`] false),
/// asked once per table.
#[derive(Default)]
struct LayoutTables {
    known: std::collections::HashMap<NodeId, bool>,
}

impl LayoutTables {
    /// Is `id` a table, or a part of one (row group, row, cell, caption),
    /// of a layout table, so that it is unwrapped?
    fn unwraps(&mut self, doc: &Document, id: NodeId) -> bool {
        let table = match doc.name(id) {
            Some(&local_name!("table")) => Some(id),
            Some(
                &local_name!("tbody")
                | &local_name!("thead")
                | &local_name!("tfoot")
                | &local_name!("tr")
                | &local_name!("td")
                | &local_name!("th")
                | &local_name!("caption"),
            ) => doc.ancestors(id).find(|&a| doc.is(a, local_name!("table"))),
            _ => None,
        };
        let Some(table) = table else { return false };
        !*self.known.entry(table).or_insert_with(|| {
            super::is_markdown_table(doc, table) || super::is_complex_table(doc, table)
        })
    }
}

/// Does the output end in inline content (text, or an inline tag), so
/// that a break must be written rather than implied by a block?
fn ends_inline(out: &str) -> bool {
    if out.ends_with('\n') || out.ends_with("<article>") {
        return false;
    }
    match out.rfind('<') {
        Some(i) if out.ends_with('>') => {
            let tag = out[i + 1..out.len() - 1].trim_start_matches('/');
            let name = tag.split(|c: char| c.is_whitespace()).next().unwrap_or("");
            !matches!(
                name,
                "p" | "div"
                    | "li"
                    | "ul"
                    | "ol"
                    | "table"
                    | "tr"
                    | "td"
                    | "th"
                    | "blockquote"
                    | "pre"
                    | "h1"
                    | "h2"
                    | "h3"
                    | "h4"
                    | "h5"
                    | "h6"
                    | "br"
                    | "hr"
                    | "dl"
                    | "dt"
                    | "dd"
                    | "figure"
                    | "figcaption"
            )
        }
        _ => true,
    }
}

fn close(out: &mut String, tag: Option<&str>) {
    if let Some(t) = tag {
        out.push_str("</");
        out.push_str(t);
        out.push('>');
        if matches!(t, "p" | "div" | "li" | "tr" | "table" | "ul" | "ol" | "blockquote" | "pre")
            || t.starts_with('h')
        {
            out.push('\n');
        }
    }
}

/// Escapes text, control characters left out ([`super::strip_controls`]).
fn escape_text(out: &mut String, text: &str, pre: bool) {
    let mut space = false;
    for c in super::strip_controls(text).chars() {
        if !pre && c.is_whitespace() {
            if !space {
                out.push(' ');
                space = true;
            }
            continue;
        }
        space = false;
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Escapes an attribute value, control characters left out.
fn escape_attr(out: &mut String, v: &str) {
    for c in super::strip_controls(v).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    #[test]
    fn keeps_structure_drops_attributes_and_scripts() {
        let src = "<div class=x><h1 id=t>T &amp; U</h1><p style='c'>a <span>b</span> <a href='/l'>l</a></p>\
                   <script>evil()</script><ul><li>i</li></ul></div>";
        let doc = Document::parse(src.as_bytes(), &ParseOptions::default()).expect("parse");
        let out = html(&doc, &Selection::all(&doc), RenderOptions::default().links(true));
        assert_eq!(
            out,
            "<article><h1>T &amp; U</h1>\n<p>a b <a href=\"/l\">l</a></p>\n<ul><li>i</li>\n</ul>\n</article>"
        );
    }

    /// Issue 35: a lazily loaded image keeps its real source; one with
    /// neither source nor alt text is left out.
    #[test]
    fn lazy_images_keep_their_source() {
        let src = "<p>a <img src='data:image/gif;base64,R0l' data-src='/l.jpg' alt=L> \
                   <img srcset='/s.jpg 1x, /b.jpg 2x'> <img src='javascript:x'> b</p>";
        let doc = Document::parse(src.as_bytes(), &ParseOptions::default()).expect("parse");
        let out = html(&doc, &Selection::all(&doc), RenderOptions::default().images(true));
        assert_eq!(
            out,
            "<article><p>a <img src=\"/l.jpg\" alt=\"L\"> <img src=\"/b.jpg\">  b</p>\n</article>"
        );
    }

    /// See: issue 11, "HTML output keeps empty wrapper `<div>`s".
    #[test]
    fn issue_11_wrappers_are_unwrapped_and_still_separate() {
        let src = "<div><div><section><div><p>one</p></div></section></div>\
                   <div>two</div><div><span>three</span></div></div>";
        let doc = Document::parse(src.as_bytes(), &ParseOptions::default()).expect("parse");
        let out = html(&doc, &Selection::all(&doc), RenderOptions::default());
        assert_eq!(out, "<article><p>one</p>\ntwo<br>three</article>");
    }
}
