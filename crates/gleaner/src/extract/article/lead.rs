//! Part of pass 11, **lead** \[I\]: the lead paragraph (standfirst,
//! dek) that news and magazine templates put in the article's `<header>`,
//! beside the headline, is the article's first paragraph (issue 11,
//! "a lead paragraph inside the `<header>`"). The votes miss it (a header
//! casts one short vote) and the sibling rule misses it (the header is a
//! block of several elements), so it is added back after the cleaning,
//! as the headline is (`clean::keep_headline`).
//!
//! HTML's `<header>` element is "introductory content for its nearest
//! ancestor sectioning content" (HTML Living Standard §4.3.8): inside an
//! `<article>` it holds the headline, the byline and the lead. Its
//! bylines, dates and link lines are not leads; the guards below leave
//! them out.

use markup5ever::local_name;

use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Fewest words a lead has \[I\]: a byline or a date line is shorter.
const LEAD_WORDS: u32 = 8;
/// Most of a lead's characters that may be linked \[I\].
const LEAD_LINK_DENSITY: f64 = 0.2;

/// Pass 11, **lead**: the lead paragraphs of the `<header>`s inside the
/// chosen elements and of the last `<header>` before the first of them
/// within its grandparent (the scope of the headline, `keep_headline`)
/// are selected, when the header holds a headline (`h1`, `h2`). Returns
/// the headers whose leads were selected.
///
/// A lead is a `p` (or a leaf `div`) of the header, outside `nav`,
/// `aside`, `form`, `footer` and `address`, of at least [`LEAD_WORDS`]
/// words and at most [`LEAD_LINK_DENSITY`] linked, that holds no `time`
/// and does not start with "By" (a byline), and reads as prose: it ends a
/// sentence or has at least twice [`LEAD_WORDS`] words.
pub(super) fn keep_lead(
    doc: &Document,
    marks: &[bool],
    chosen: &[NodeId],
    sel: &mut Selection,
) -> Vec<NodeId> {
    let Some(&first) = chosen.first() else { return Vec::new() };
    let mut headers: Vec<NodeId> = Vec::new();
    let scope = doc.ancestors(first).nth(1).unwrap_or(first);
    let before = doc
        .subtree(scope)
        .take_while(|&id| id < first)
        .filter(|&id| doc.is(id, local_name!("header")) && !marks[id.index()])
        .filter(|&h| !doc.contains(h, first) && has_headline(doc, h))
        .last();
    headers.extend(before);
    for &root in chosen {
        headers.extend(doc.subtree(root).filter(|&id| {
            doc.is(id, local_name!("header")) && !marks[id.index()] && has_headline(doc, id)
        }));
    }
    let mut read = Vec::new();
    for header in headers {
        let leads: Vec<NodeId> =
            doc.subtree(header).filter(|&id| is_lead(doc, header, id)).collect();
        if leads.is_empty() {
            continue;
        }
        for lead in leads {
            sel.select_subtree(doc, lead);
        }
        read.push(header);
    }
    read
}

/// Does the header hold a headline (`h1` or `h2`)? An article's header
/// does; a site's banner with a tagline need not.
fn has_headline(doc: &Document, header: NodeId) -> bool {
    doc.subtree(header).any(|id| doc.is(id, local_name!("h1")) || doc.is(id, local_name!("h2")))
}

/// Is `id`, inside `header`, a lead paragraph? See [`keep_lead`].
fn is_lead(doc: &Document, header: NodeId, id: NodeId) -> bool {
    let s = doc.stats(id);
    let shaped = doc.is(id, local_name!("p"))
        || (doc.is(id, local_name!("div"))
            && s.tags <= 3
            && !doc.subtree(id).skip(1).any(|c| doc.flags(c).contains(NodeFlags::BLOCK)));
    if !shaped || !s.flags.contains(NodeFlags::VISIBLE) || s.words < LEAD_WORDS {
        return false;
    }
    if s.link_density() > LEAD_LINK_DENSITY {
        return false;
    }
    let outside_boilerplate = doc.ancestors(id).take_while(|&a| a != header).all(|a| {
        !matches!(
            doc.name(a),
            Some(
                &local_name!("nav")
                    | &local_name!("aside")
                    | &local_name!("form")
                    | &local_name!("footer")
                    | &local_name!("address")
            )
        )
    });
    if !outside_boilerplate || doc.subtree(id).any(|c| doc.is(c, local_name!("time"))) {
        return false;
    }
    let text = doc.text_content(id);
    let text = text.trim();
    let byline = text.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("by "));
    let sentence = text.ends_with(['.', '!', '?', '…', '。']);
    !byline && (sentence || s.words >= 2 * LEAD_WORDS)
}

#[cfg(test)]
mod tests {
    use crate::extract::article::tests::{run_config, PARA};
    use crate::extract::article::ArticleConfig;

    fn run_with(html: &str, header_lead: bool) -> String {
        run_config(html, ArticleConfig { header_lead, ..Default::default() })
    }

    const LEAD: &str = "The town counts the cost of the worst storm in forty years, and asks why the sea wall failed.";

    /// See: issue 11, "a lead paragraph inside the `<header>`".
    #[test]
    fn issue_11_the_lead_in_the_header_is_kept() {
        let html = format!(
            "<article><header><h1>Storm hits the coast</h1><p class=standfirst>{LEAD}</p>\
             <p class=byline>By Jane Roe, Coast Correspondent, for the paper</p><time>May 1, 2024</time></header>\
             <div class=body><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div></article>"
        );
        let out = run_with(&html, true);
        assert!(
            out.starts_with(&format!("Storm hits the coast\n\n{LEAD}\n\nA powerful storm")),
            "{out}"
        );
        assert!(!out.contains("Jane Roe"), "{out}");
        let out = run_with(&html, false);
        assert!(!out.contains("counts the cost"), "{out}");
    }

    #[test]
    fn a_header_before_the_container_gives_its_lead_and_nav_lines_stay_out() {
        let html = format!(
            "<div class=page><header><h1>Storm hits the coast</h1><div class=dek>{LEAD}</div>\
             <nav><p>Home, World, Weather, and all the other sections of this site.</p></nav></header>\
             <div class=body><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></div></div>"
        );
        let out = run_with(&html, true);
        assert!(out.contains(LEAD), "{out}");
        assert!(!out.contains("all the other sections"), "{out}");
    }
}
