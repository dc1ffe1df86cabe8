//! Code blocks for Markdown and HTML (issue 35): the language a page
//! names for a block (`class="language-rust"`, `lang-py`,
//! `highlight-python3`, `brush: js`, `data-lang`), and the parts of a
//! highlighter's markup that are not code: line-number gutters and
//! "Copy" buttons.

use markup5ever::local_name;

use crate::document::{Document, NodeId};

/// How many ancestors of a `<pre>` may name its language (Sphinx puts it
/// two levels up, `div.highlight-python3 > div.highlight > pre`, and six
/// with a line-number table). Only wrappers count: `div`, `span`,
/// `figure` and table parts, not `body` or `article` (whose
/// `class="lang-en"` names the page's language).
const LANGUAGE_ANCESTORS: usize = 8;

/// The longest language name kept; longer ones are not names.
const MAX_LANGUAGE: usize = 32;

/// The language of the code block `pre`, from the `class` or `data-lang`
/// (`data-language`) of the block, its first `<code>` child or a near
/// ancestor; `None` when none names one (or names `default`, `none`,
/// `nohighlight`).
pub(crate) fn language(doc: &Document, pre: NodeId) -> Option<String> {
    let code_child = doc.children(pre).find(|&c| doc.is(c, local_name!("code")));
    let candidates = code_child.into_iter().chain(std::iter::once(pre)).chain(
        doc.ancestors(pre).take(LANGUAGE_ANCESTORS).take_while(|&a| {
            doc.name(a).is_some_and(|n| {
                matches!(
                    *n,
                    local_name!("div")
                        | local_name!("span")
                        | local_name!("figure")
                        | local_name!("td")
                        | local_name!("tr")
                        | local_name!("tbody")
                        | local_name!("table")
                )
            })
        }),
    );
    for id in candidates {
        for attr in ["data-lang", "data-language"] {
            if let Some(lang) = doc.attr(id, attr).and_then(clean_name) {
                return Some(lang);
            }
        }
        if let Some(lang) = doc.attr(id, "class").and_then(language_in_class) {
            return Some(lang);
        }
    }
    None
}

/// The language a class attribute names.
fn language_in_class(class: &str) -> Option<String> {
    let mut tokens = class.split_whitespace();
    while let Some(token) = tokens.next() {
        for prefix in ["language-", "lang-", "highlight-source-", "highlight-", "brush:"] {
            if let Some(rest) = token.strip_prefix(prefix) {
                // `brush: js` (SyntaxHighlighter) has the name apart.
                let name = if rest.is_empty() { tokens.next().unwrap_or("") } else { rest };
                if let Some(lang) = clean_name(name.trim_end_matches(';')) {
                    return Some(lang);
                }
            }
        }
    }
    None
}

/// A language name as written after a fence: lower case, letters, digits
/// and `+ # . _ -` only; `None` for generic names.
fn clean_name(name: &str) -> Option<String> {
    let name = name.trim().to_ascii_lowercase();
    let valid = !name.is_empty()
        && name.len() <= MAX_LANGUAGE
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "+#._-".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric());
    let generic =
        matches!(name.as_str(), "default" | "none" | "nohighlight" | "plaintext" | "text");
    (valid && !generic).then_some(name)
}

/// Class names of line-number gutters (Pygments `linenos`, Rouge
/// `rouge-gutter`/`lineno`, Chroma `lnt`/`ln`, highlight.js line numbers,
/// CodeMirror, Hexo `gutter`).
const GUTTER_CLASSES: &[&str] = &[
    "gutter",
    "rouge-gutter",
    "linenos",
    "linenodiv",
    "lineno",
    "line-number",
    "line-numbers-rows",
    "linenumber",
    "hljs-ln-numbers",
    "hljs-ln-n",
    "lnt",
    "ln",
    "codemirror-gutters",
    "codemirror-linenumber",
];

/// The texts of copy-to-clipboard buttons.
const COPY_LABELS: &[&str] =
    &["copy", "copy code", "copy to clipboard", "copy code to clipboard", "copied", "copied!"];

/// Is `id` a line-number gutter: an element with a gutter class whose
/// text is only digits and white space (so a layout column that happens
/// to be called `gutter` is kept)?
pub(crate) fn is_gutter(doc: &Document, id: NodeId) -> bool {
    let Some(class) = doc.attr(id, "class") else { return false };
    if doc.is(id, local_name!("code")) {
        return false;
    }
    let named =
        class.split_whitespace().any(|t| GUTTER_CLASSES.iter().any(|g| t.eq_ignore_ascii_case(g)));
    named && only_numbers(doc, id)
}

/// Does the text of the subtree of `id` hold only digits and white space
/// (and at least one digit)?
fn only_numbers(doc: &Document, id: NodeId) -> bool {
    let mut digit = false;
    for n in doc.subtree(id) {
        for c in doc.text(n).chars() {
            if c.is_ascii_digit() {
                digit = true;
            } else if !c.is_whitespace() {
                return false;
            }
        }
    }
    digit
}

/// Is `id` a "Copy" button: a `<button>`, or an element whose class names
/// copying, whose whole text is a copy label?
pub(crate) fn is_copy_button(doc: &Document, id: NodeId) -> bool {
    let button = doc.is(id, local_name!("button"))
        || doc.attr(id, "class").is_some_and(|c| c.to_ascii_lowercase().contains("copy"));
    if !button || doc.stats(id).chars > 40 {
        return false;
    }
    let text: String = doc.subtree(id).map(|n| doc.text(n)).collect::<String>().to_lowercase();
    COPY_LABELS.contains(&text.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn first(doc: &Document, name: markup5ever::LocalName) -> NodeId {
        doc.subtree(NodeId(0)).find(|&n| doc.is(n, name.clone())).expect("element")
    }

    #[test]
    fn languages_from_classes_and_attributes() {
        for (html, want) in [
            ("<pre><code class='language-rust'>x</code></pre>", Some("rust")),
            ("<pre class='prettyprint lang-py'>x</pre>", Some("py")),
            ("<div class='highlight-python3 notranslate'><div class=highlight><pre>x</pre></div></div>", Some("python3")),
            ("<pre data-lang='Go'>x</pre>", Some("go")),
            ("<pre class='brush: js; gutter: false'>x</pre>", Some("js")),
            ("<div class=highlight-default><pre>x</pre></div>", None),
            ("<pre class='language-<script>'>x</pre>", None),
            ("<pre>x</pre>", None),
        ] {
            let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
            let pre = first(&doc, local_name!("pre"));
            assert_eq!(language(&doc, pre).as_deref(), want, "{html}");
        }
    }

    #[test]
    fn gutters_hold_only_numbers() {
        let doc = Document::parse(
            b"<table><tr><td class=gutter><pre>1\n2</pre></td><td class=gutter>side</td></tr></table>",
            &ParseOptions::default(),
        )
        .expect("parse");
        let tds: Vec<NodeId> =
            doc.subtree(NodeId(0)).filter(|&n| doc.is(n, local_name!("td"))).collect();
        assert!(is_gutter(&doc, tds[0]) && !is_gutter(&doc, tds[1]));
        let doc = Document::parse(
            b"<div><span class=linenos>12</span><button>Copy</button><button>Buy now</button></div>",
            &ParseOptions::default(),
        )
        .expect("parse");
        let span = first(&doc, local_name!("span"));
        assert!(is_gutter(&doc, span));
        let buttons: Vec<NodeId> =
            doc.subtree(NodeId(0)).filter(|&n| doc.is(n, local_name!("button"))).collect();
        assert!(is_copy_button(&doc, buttons[0]) && !is_copy_button(&doc, buttons[1]));
    }
}
