//! Formulas for Markdown (issue 35): MathML, and the MathML KaTeX and
//! MathJax put beside their rendering, written as LaTeX between `$` (in
//! text) or `$$` (on their own), from the formula's `alttext` or its
//! `<annotation encoding="application/x-tex">`. A formula without either
//! is written as its text, as before.
//!
//! MathJax 2's `<script type="math/tex">` source cannot be used: the
//! parser drops script content.

use markup5ever::local_name;

use crate::document::{Document, NodeId};

/// The longest TeX source kept for one formula; a longer one is written
/// as text.
const MAX_TEX: usize = 16 * 1024;

/// A formula's LaTeX and whether it is displayed on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Formula {
    /// The source, white space collapsed (a blank line would end the
    /// Markdown block).
    pub tex: String,
    /// A display formula (`display="block"`, KaTeX's `katex-display`,
    /// MathJax's `display="true"`).
    pub display: bool,
}

/// The formula of a `<math>` element, if it carries its TeX source.
pub(crate) fn formula(doc: &Document, math: NodeId) -> Option<Formula> {
    if !doc.is(math, local_name!("math")) {
        return None;
    }
    let tex = match doc.attr(math, "alttext").filter(|t| !t.trim().is_empty()) {
        Some(t) => t.to_string(),
        None => {
            let annotation = doc.subtree(math).find(|&n| {
                doc.is(n, local_name!("annotation"))
                    && doc.attr(n, "encoding").is_some_and(|e| {
                        e.trim().eq_ignore_ascii_case("application/x-tex")
                            || e.trim().eq_ignore_ascii_case("tex")
                    })
            })?;
            doc.subtree(annotation).map(|n| doc.text(n)).collect()
        }
    };
    let tex = tex.split_whitespace().collect::<Vec<_>>().join(" ");
    let tex = tex.trim_matches('$').trim().to_string();
    if tex.is_empty() || tex.len() > MAX_TEX {
        return None;
    }
    let display = doc.attr(math, "display").is_some_and(|d| d.trim().eq_ignore_ascii_case("block"))
        || doc.ancestors(math).take(4).any(|a| {
            doc.attr(a, "class").is_some_and(|c| c.split_whitespace().any(|t| t == "katex-display"))
                || doc.attr(a, "display").is_some_and(|d| d.trim() == "true")
        });
    Some(Formula { tex, display })
}

/// The formula as Markdown: `$tex$`, or `$$tex$$` for display. A `$`
/// that would end the formula early is escaped.
pub(crate) fn markdown(f: &Formula) -> String {
    let tex = f.tex.replace('$', "\\$");
    let fence = if f.display { "$$" } else { "$" };
    format!("{fence}{tex}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn first_math(html: &str) -> Option<Formula> {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let math = doc.subtree(NodeId(0)).find(|&n| doc.is(n, local_name!("math")))?;
        formula(&doc, math)
    }

    #[test]
    fn tex_from_alttext_or_annotation() {
        let f = first_math("<p><math alttext='h(t) = a\n cos(\\omega t)'><mi>h</mi></math></p>");
        assert_eq!(f, Some(Formula { tex: "h(t) = a cos(\\omega t)".into(), display: false }));
        let katex = "<span class='katex-display'><span class=katex><span class=katex-mathml>\
                     <math><semantics><mrow><mi>x</mi></mrow>\
                     <annotation encoding='application/x-tex'>x^2</annotation></semantics></math>\
                     </span></span></span>";
        let f = first_math(katex).expect("a formula");
        assert_eq!((f.tex.as_str(), f.display), ("x^2", true));
        assert_eq!(markdown(&f), "$$x^2$$");
        assert_eq!(first_math("<math><mi>x</mi></math>"), None);
    }
}
