//! Part of pass 10, **unrendered text** \[I\]: text that is in the page
//! but never shown to a reader on a screen (issue 11, "hidden text …
//! print-only headers, unrendered `{{template}}` text"):
//!
//! - **print-only blocks**: elements whose class says they are shown only
//!   when printing — Bootstrap's `visible-print` (v3) and `d-none
//!   d-print-block` (v4–5), Foundation's `show-for-print`, and the
//!   common `print-only` / `printonly` spellings — or that carry a
//!   `media` attribute for print alone;
//! - **unrendered templates**: text holding a client-side template
//!   placeholder, `{{ name }}` (Mustache, Handlebars, Angular, Vue) or
//!   `{% … %}` (Liquid, Jinja), which the page's script fills in or
//!   hides (`ng-cloak`, `v-cloak`) before a reader sees it. Code blocks
//!   (`pre`, `code`) that show such syntax are kept.

use markup5ever::local_name;

use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Class names of blocks shown only in print.
const PRINT_ONLY: &[&str] = &[
    "print-only",
    "printonly",
    "print_only",
    "only-print",
    "onlyprint",
    "visible-print",
    "visible-print-block",
    "visible-print-inline",
    "visible-print-inline-block",
    "show-for-print",
    "show-print",
    "print-show",
];

/// Pass 10, **unrendered text**: inside the chosen elements, print-only
/// blocks ([`is_print_only`]) and text nodes holding a template
/// placeholder ([`has_placeholder`]) outside code blocks are
/// deselected.
pub(super) fn remove_unrendered(doc: &Document, chosen: &[NodeId], sel: &mut Selection) {
    for &root in chosen {
        let mut id = NodeId(root.0 + 1);
        let end = doc.subtree_end(root);
        while id < end {
            if doc.element(id).is_some() && is_print_only(doc, id) {
                sel.deselect_subtree(doc, id);
                id = doc.subtree_end(id);
                continue;
            }
            if doc.is_text(id)
                && sel.contains(id)
                && !doc.flags(id).contains(NodeFlags::IN_PRE)
                && has_placeholder(doc.text(id))
                && !in_code(doc, id)
            {
                sel.set(id, false);
            }
            id = NodeId(id.0 + 1);
        }
    }
}

/// Is the element shown only in print? A class of [`PRINT_ONLY`], a
/// `d-print-*` display class beside `d-none` (Bootstrap 4–5), or a
/// `media` attribute that names `print` and not `screen` or `all`.
fn is_print_only(doc: &Document, id: NodeId) -> bool {
    let Some(element) = doc.element(id) else { return false };
    if let Some(media) = element.attr_named(&local_name!("media")) {
        let m = media.to_ascii_lowercase();
        if m.contains("print") && !m.contains("screen") && !m.contains("all") {
            return true;
        }
    }
    let Some(class) = element.attr_named(&local_name!("class")) else { return false };
    // `print` in any case, looked for at each `p` (found by `memchr2`)
    // rather than at every byte (issue 12).
    let bytes = class.as_bytes();
    let print_at = |i: usize| bytes.get(i..i + 5).is_some_and(|w| w.eq_ignore_ascii_case(b"print"));
    if !memchr::memchr2_iter(b'p', b'P', bytes).any(print_at) {
        return false;
    }
    let classes: Vec<String> =
        class.split_ascii_whitespace().map(str::to_ascii_lowercase).collect();
    classes.iter().any(|c| PRINT_ONLY.contains(&c.as_str()))
        || (classes.iter().any(|c| c == "d-none")
            && classes.iter().any(|c| c.starts_with("d-print-") && c != "d-print-none"))
}

/// Is the text node inside a `code` element?
fn in_code(doc: &Document, id: NodeId) -> bool {
    doc.ancestors(id).any(|a| doc.is(a, markup5ever::local_name!("code")))
}

/// Most words of a text node that a placeholder marks as a template
/// \[I\]: a template's line is short; a reader's long comment that
/// happens to hold braces is not one.
const TEMPLATE_WORDS: usize = 40;

/// Does the text, of at most [`TEMPLATE_WORDS`] words, hold a template
/// placeholder: `{{` (not after another `{`), an expression that starts
/// with a letter, `_`, `$`, `#`, `/`, `>`, `^` or `!` and holds no brace
/// or line break (at most 80 characters), then `}}` (not before another
/// `}`); or `{%` … `%}`? Braces drawn as hugs (`{{{{ Name }}}}`) are
/// not templates.
fn has_placeholder(text: &str) -> bool {
    // Most texts hold no brace: one `memchr`, not two substring searches
    // set up (issue 12).
    if memchr::memchr(b'{', text.as_bytes()).is_none()
        || !(text.contains("{{") || text.contains("{%"))
        || text.split_whitespace().count() > TEMPLATE_WORDS
    {
        return false;
    }
    for (open, close) in [("{{", "}}"), ("{%", "%}")] {
        let mut start = 0;
        while let Some(i) = text[start..].find(open).map(|i| i + start) {
            let inner_start = i + open.len();
            start = inner_start;
            if text[..i].ends_with('{') {
                continue;
            }
            let Some(j) = text[inner_start..].find(close) else { break };
            let inner = &text[inner_start..inner_start + j];
            let after_close = &text[inner_start + j + close.len()..];
            let expression = inner.trim();
            let starts_well = expression.chars().next().is_some_and(|c| {
                c.is_alphabetic() || matches!(c, '_' | '$' | '#' | '/' | '>' | '^' | '!')
            });
            if inner.len() <= 80
                && starts_well
                && !inner.contains(['{', '}', '\n'])
                && !after_close.starts_with('}')
            {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{run_config, PARA};
    use crate::extract::article::ArticleConfig;

    fn run_with(html: &str, unrendered: bool) -> String {
        run_config(html, ArticleConfig { unrendered, ..Default::default() })
    }

    /// See: issue 11, "print-only headers, unrendered `{{template}}`
    /// text".
    #[test]
    fn issue_11_print_only_blocks_and_template_placeholders_go() {
        let html = format!(
            "<div class=story><div class='d-none d-print-block'>Printed from example.org on paper for you</div>\
             <p>{PARA}</p><p>{PARA}</p><div class=printonly>Printed copy, see the site for more of it</div>\
             <p class=greeting>Welcome back, {{{{ user.firstName }}}}, to your stories today</p><p>{PARA}</p>\
             <pre><code>&lt;p&gt;{{{{ title }}}}&lt;/p&gt;</code></pre></div>"
        );
        let out = run_with(&html, true);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        for junk in ["Printed", "Welcome back"] {
            assert!(!out.contains(junk), "{junk}: {out}");
        }
        assert!(out.contains("{{ title }}"), "{out}");
        let out = run_with(&html, false);
        assert!(out.contains("Printed copy") && out.contains("Welcome back"), "{out}");
    }

    #[test]
    fn placeholders() {
        assert!(has_placeholder("Hi {{name}}!"));
        assert!(has_placeholder("{% if user %}"));
        assert!(!has_placeholder("A set {1, 2} and {{ }}"));
        assert!(!has_placeholder("Braces {{ opened\nand }} closed later"));
        assert!(!has_placeholder("Sending hugs {{{{ Michelle }}}} from the UK"));
        assert!(!has_placeholder("A map {{1, 2}, {3, 4}}"));
    }
}
