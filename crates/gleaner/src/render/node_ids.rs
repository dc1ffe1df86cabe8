//! The whole document serialized back to HTML, every element tagged with
//! its [`NodeId`], so that a browser's rendering of the page can be mapped
//! back onto gleaner's nodes (the `gleaner-browser` layout provider loads
//! this and reads [`NODE_ID_ATTRIBUTE`] off each laid-out element).
//!
//! The serialization follows WHATWG §13.3 "Serialising HTML fragments":
//! attribute values and normal text are escaped, the text of raw-text
//! elements (`script`, `style`, …) is written as is, void elements have no
//! end tag. Comments are dropped (the DOM does not keep their text) and
//! the doctype is written as the source spelled it, so that a page in
//! quirks mode stays in quirks mode.
//!
//! The tree builder never sees the raw-text content of `script`, `style`,
//! `noscript`, `noframes`, `noembed` and `iframe` (`document/tree_feed.rs`),
//! so it is taken from the source: each such element gets the raw text
//! after the start tag that made it (the source token's node).

use std::collections::HashMap;

use markup5ever::local_name;

use super::escape_into;
use crate::document::tags::{content_model, is_void, ContentModel};
use crate::document::{drops_content, Document, NodeId, NodeKind};

/// The attribute [`html_with_node_ids`] puts on every element: the
/// element's [`NodeId`] in decimal.
pub const NODE_ID_ATTRIBUTE: &str = "data-gleaner-id";

/// `doc` as a full HTML document (doctype, head, body, every kept
/// attribute) with a [`NODE_ID_ATTRIBUTE`] on each element.
///
/// Attributes are those the document kept: parse with
/// [`ParseOptions::keep_all_attributes`](crate::ParseOptions) for a
/// faithful copy. An attribute of the page that already has the name
/// [`NODE_ID_ATTRIBUTE`] is dropped.
///
/// ```
/// use gleaner::{Document, ParseOptions};
/// let doc = Document::parse(b"<p class=x>a &amp; b</p>", &ParseOptions::default())?;
/// let html = gleaner::render::html_with_node_ids(&doc);
/// assert!(html.contains(r#"<p class="x" data-gleaner-id="4">a &amp; b</p>"#));
/// # Ok::<(), gleaner::Error>(())
/// ```
pub fn html_with_node_ids(doc: &Document) -> String {
    let mut out = String::with_capacity(doc.input_bytes() + doc.len() * 24);
    let raw_texts = raw_texts(doc);
    // Open elements: (one past the last descendant, id).
    let mut open: Vec<(u32, NodeId)> = Vec::new();
    for id in doc.ids().skip(1) {
        while let Some(&(end, element)) = open.last() {
            if end > id.0 {
                break;
            }
            open.pop();
            close(doc, element, &mut out);
        }
        match doc.kind(id) {
            NodeKind::Document | NodeKind::Comment => {}
            NodeKind::Doctype => doctype(doc, &mut out),
            NodeKind::Text(_) => {
                let raw = doc.parent(id).and_then(|p| doc.name(p)).is_some_and(|name| {
                    matches!(content_model(name), ContentModel::RawText | ContentModel::PlainText)
                });
                if raw {
                    out.push_str(doc.text(id));
                } else {
                    escape_into(&mut out, doc.text(id));
                }
            }
            NodeKind::Element(element) => {
                out.push('<');
                out.push_str(&element.name);
                for (name, value) in element.attrs() {
                    if name == NODE_ID_ATTRIBUTE {
                        continue;
                    }
                    out.push(' ');
                    out.push_str(name);
                    out.push_str("=\"");
                    escape_into(&mut out, value);
                    out.push('"');
                }
                out.push(' ');
                out.push_str(NODE_ID_ATTRIBUTE);
                out.push_str("=\"");
                out.push_str(&id.0.to_string());
                out.push_str("\">");
                if let Some(text) = raw_texts.get(&id) {
                    out.push_str(text);
                }
                if !is_void(&element.name) {
                    open.push((doc.subtree_end(id).0, id));
                }
            }
        }
    }
    while let Some((_, element)) = open.pop() {
        close(doc, element, &mut out);
    }
    out
}

fn close(doc: &Document, id: NodeId, out: &mut String) {
    // § 13.2.5.1: after `<plaintext>` everything is text; an end tag would
    // show up in the page.
    if let Some(name) = doc.name(id).filter(|n| **n != local_name!("plaintext")) {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// The raw text after each [`drops_content`] start tag in the source, by
/// the element the tag made.
fn raw_texts(doc: &Document) -> HashMap<NodeId, &str> {
    let source = doc.source();
    let tokens = source.tokens();
    let mut texts = HashMap::new();
    for (token, next) in tokens.iter().zip(tokens.iter().skip(1)) {
        let (Some(name), Some(element)) = (source.start_tag_name(token), token.node()) else {
            continue;
        };
        if drops_content(name) && next.is_raw_text() {
            texts.insert(element, source.token_text(next));
        }
    }
    texts
}

/// The source's own `<!DOCTYPE …>`, else the standard one.
fn doctype(doc: &Document, out: &mut String) {
    let source = doc.source();
    let declared = source.tokens().iter().find_map(|t| {
        let text = source.token_text(t);
        let is_doctype = t.is_declaration()
            && text.get(..9).is_some_and(|p| p.eq_ignore_ascii_case("<!doctype"));
        is_doctype.then_some(text)
    });
    out.push_str(declared.unwrap_or("<!DOCTYPE html>"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn parse(html: &str) -> Document {
        Document::parse_str(html, &ParseOptions::default().keep_all_attributes(true))
            .expect("small page parses")
    }

    #[test]
    fn round_trip_keeps_structure_and_ids() {
        let page = "<!doctype html><html lang=en><head><title>a &lt; b</title>\
            <style>p > b { color: red }</style><link rel=stylesheet href=s.css></head>\
            <body><p data-x='q\"uote'>x &amp; y<br>z<img src=a.png alt=''></p>\
            <script>if (a < b && c) {}</script></body></html>";
        let doc = parse(page);
        let html = html_with_node_ids(&doc);
        assert!(html.starts_with("<!doctype html><html lang=\"en\" data-gleaner-id=\"2\">"));
        assert!(html.contains("<title data-gleaner-id=\"4\">a &lt; b</title>"));
        assert!(html.contains("p > b { color: red }</style>"));
        assert!(html.contains("<link rel=\"stylesheet\" href=\"s.css\" data-gleaner-id=\"7\">"));
        assert!(html.contains("data-x=\"q&quot;uote\""));
        assert!(html.contains("<br data-gleaner-id="));
        assert!(!html.contains("</br>") && !html.contains("</img>"));
        assert!(html.contains("if (a < b && c) {}</script>"));
        // Parsing the output again gives the same tree.
        let again = parse(&html);
        assert_eq!(again.len(), doc.len());
        for id in doc.ids() {
            assert_eq!(doc.name(id), again.name(id));
            if doc.element(id).is_some() {
                assert_eq!(again.attr(id, NODE_ID_ATTRIBUTE), Some(id.0.to_string().as_str()));
            }
            if !doc.name(id).is_some_and(drops_content) {
                assert_eq!(doc.text(id), again.text(id));
            }
        }
    }

    #[test]
    fn quirks_doctype_is_kept_and_missing_one_is_not_invented() {
        let legacy = r#"<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x"#;
        assert!(html_with_node_ids(&parse(legacy))
            .starts_with(legacy.split("<p>").next().unwrap_or("")));
        assert!(html_with_node_ids(&parse("<p>x")).starts_with("<html data-gleaner-id"));
    }

    #[test]
    fn page_attribute_of_the_same_name_is_replaced() {
        let html = html_with_node_ids(&parse("<div data-gleaner-id=99>x</div>"));
        assert!(!html.contains("99"));
    }
}
