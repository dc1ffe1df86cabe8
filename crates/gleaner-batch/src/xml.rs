//! The XML outputs corpus tools read (issue 36): trafilatura's XML
//! (`<doc>` with the metadata as attributes, `<main>`, `<comments>`) and
//! TEI P5 (`<TEI>` with a `teiHeader` and the text in `<body>`).
//!
//! Both are written from the clean HTML fragment gleaner renders for the
//! selection, read back with the core's parser and mapped element by
//! element: headings to `<head rend="h2">`, paragraphs to `<p>`, lists to
//! `<list rend="ul">` of `<item>`s, tables to `<table>` of `<row>`s of
//! `<cell>`s (`role="head"` for header cells), block quotes to `<quote>`,
//! preformatted text to `<code>`, line breaks to `<lb/>`, bold and italics
//! to `<hi rend="#b">`/`<hi rend="#i">`, links to `<ref target>`, images
//! to `<graphic src alt>`. Anything else keeps its text.

use gleaner::document::NodeId;
use gleaner::{Document, ParseOptions};

use crate::job::Record;

/// The text escaped for XML (`&`, `<`, `>`, `"`, `'`), with the
/// characters XML 1.0 forbids (controls other than tab and line breaks,
/// U+FFFE, U+FFFF) left out.
pub fn escape(text: &str) -> String {
    let allowed = |c: &char| {
        matches!(c, '\t' | '\n' | '\r') || (*c >= ' ' && !matches!(c, '\u{fffe}' | '\u{ffff}'))
    };
    if text.chars().all(|c| allowed(&c)) {
        return gleaner::render::escape(text);
    }
    gleaner::render::escape(&text.chars().filter(allowed).collect::<String>())
}

/// The body of an HTML fragment as XML elements of trafilatura's and
/// TEI's vocabulary (see the [module docs](self)).
pub fn body(fragment: &str) -> String {
    let Ok(doc) = Document::parse(fragment.as_bytes(), &ParseOptions::default()) else {
        return format!("<p>{}</p>", escape(fragment));
    };
    let mut out = String::new();
    for child in doc.children(doc.body()) {
        node(&doc, child, &mut out, false);
    }
    out
}

/// Is this element one that holds blocks (not inline text)?
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "section"
            | "article"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "ul"
            | "ol"
            | "li"
            | "table"
            | "tr"
            | "td"
            | "th"
            | "blockquote"
            | "pre"
            | "figure"
            | "dl"
            | "dt"
            | "dd"
            | "hr"
    )
}

/// `open`, the element's content as inline text, `close`.
fn wrap_node(doc: &Document, id: NodeId, out: &mut String, open: &str, close: &str) {
    out.push_str(open);
    children(doc, id, out, true);
    out.push_str(close);
}

fn children(doc: &Document, id: NodeId, out: &mut String, inline: bool) {
    for c in doc.children(id) {
        node(doc, c, out, inline);
    }
}

fn node(doc: &Document, id: NodeId, out: &mut String, inline: bool) {
    if doc.is_text(id) {
        let text = doc.text(id);
        if inline || !text.trim().is_empty() {
            if inline {
                out.push_str(&escape(text));
            } else {
                out.push_str(&format!("<p>{}</p>", escape(text.trim())));
            }
        }
        return;
    }
    let Some(e) = doc.element(id) else { return };
    let name = e.name().to_string();
    // A block inside inline text (a `<p>` in a `<span>` or a heading):
    // its text, then a line break, so that no block nests in a `<p>`.
    if inline && is_block(&name) {
        children(doc, id, out, true);
        if !out.ends_with("<lb/>") {
            out.push_str("<lb/>");
        }
        return;
    }
    let wrap = |out: &mut String, open: &str, close: &str, inline_inside: bool| {
        out.push_str(open);
        children(doc, id, out, inline_inside);
        out.push_str(close);
    };
    match name.as_str() {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            wrap(out, &format!("<head rend=\"{name}\">"), "</head>", true);
        }
        "p" | "dt" | "dd" | "figcaption" => wrap(out, "<p>", "</p>", true),
        "ul" | "ol" => wrap(out, &format!("<list rend=\"{name}\">"), "</list>", false),
        "li" => {
            let blocks =
                doc.children(id).any(|c| doc.element(c).is_some_and(|e| is_block(e.name())));
            wrap(out, "<item>", "</item>", !blocks);
        }
        "table" => {
            // The caption goes before the table, as a paragraph.
            for c in doc.children(id) {
                if doc.element(c).is_some_and(|e| &**e.name() == "caption") {
                    wrap_node(doc, c, out, "<p>", "</p>");
                }
            }
            wrap(out, "<table>", "</table>", false);
        }
        "caption" => {}
        "thead" | "tbody" | "tfoot" => children(doc, id, out, false),
        "tr" => wrap(out, "<row>", "</row>", false),
        "th" => wrap(out, "<cell role=\"head\">", "</cell>", true),
        "td" => wrap(out, "<cell>", "</cell>", true),
        "blockquote" => wrap(out, "<quote>", "</quote>", false),
        "pre" => wrap(out, "<code>", "</code>", true),
        "br" if inline => out.push_str("<lb/>"),
        "br" | "hr" => {}
        "b" | "strong" if inline => wrap(out, "<hi rend=\"#b\">", "</hi>", true),
        "i" | "em" if inline => wrap(out, "<hi rend=\"#i\">", "</hi>", true),
        "a" if inline => match e.attr("href") {
            Some(href) => wrap(out, &format!("<ref target=\"{}\">", escape(href)), "</ref>", true),
            None => children(doc, id, out, true),
        },
        "img" => {
            let src = e.attr("src").unwrap_or("");
            let alt = e.attr("alt").unwrap_or("");
            let graphic = format!("<graphic src=\"{}\" alt=\"{}\"/>", escape(src), escape(alt));
            if inline {
                out.push_str(&graphic);
            } else {
                out.push_str(&format!("<p>{graphic}</p>"));
            }
        }
        // Inline elements met between blocks read as a paragraph.
        _ if !inline && !is_block(&name) => wrap(out, "<p>", "</p>", true),
        _ => children(doc, id, out, inline),
    }
}

/// An attribute ` name="value"` when the value is known.
fn attr(name: &str, value: Option<&str>) -> String {
    match value {
        Some(v) if !v.is_empty() => format!(" {name}=\"{}\"", escape(v)),
        _ => String::new(),
    }
}

/// The host of a URL, for trafilatura's `hostname`.
fn hostname(url: Option<&str>) -> Option<String> {
    let rest = url?.split_once("://")?.1;
    let host = rest.split(['/', '?', '#']).next()?;
    Some(host.rsplit_once('@').map_or(host, |(_, h)| h).to_string())
}

/// A record as trafilatura's XML: `<doc>` with the metadata as
/// attributes, `<main>` from `html` (the rendered fragment) and
/// `<comments>` from `comments_html` when given.
pub fn doc_xml(record: &Record, html: &str, comments_html: Option<&str>) -> String {
    let url = record.url.as_deref().or(record.canonical_url.as_deref());
    let mut out = String::from("<doc");
    out.push_str(&attr("sitename", record.site_name.as_deref()));
    out.push_str(&attr("title", record.title.as_deref()));
    out.push_str(&attr("author", record.author.as_deref()));
    out.push_str(&attr("date", record.date.as_deref()));
    out.push_str(&attr("url", url));
    out.push_str(&attr("hostname", hostname(url).as_deref()));
    out.push_str(&attr("description", record.description.as_deref()));
    out.push_str(&attr("categories", Some(&record.categories.join(";"))));
    out.push_str(&attr("tags", Some(&record.tags.join(";"))));
    out.push_str(&attr("fingerprint", record.fingerprint.as_deref()));
    out.push_str(&attr("language", record.language.as_deref()));
    out.push_str(&attr("pagetype", Some(&record.page_type)));
    out.push_str(&attr("source", Some(&record.source)));
    out.push_str(">\n<main>");
    out.push_str(&body(html));
    out.push_str("</main>\n<comments>");
    if let Some(c) = comments_html {
        out.push_str(&body(c));
    }
    out.push_str("</comments>\n</doc>");
    out
}

/// A record as a TEI P5 document: a `teiHeader` with the title, author,
/// publisher, date, source URL and language, and the text in
/// `<text><body><div type="entry">` (comments in `<div type="comments">`).
pub fn tei_xml(record: &Record, html: &str, comments_html: Option<&str>) -> String {
    let title = escape(record.title.as_deref().unwrap_or(""));
    let mut out =
        String::from("<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">\n<teiHeader>\n<fileDesc>\n");
    out.push_str(&format!("<titleStmt>\n<title type=\"main\">{title}</title>\n"));
    if let Some(a) = record.author.as_deref() {
        out.push_str(&format!("<author>{}</author>\n", escape(a)));
    }
    out.push_str("</titleStmt>\n<publicationStmt>\n");
    match record.site_name.as_deref() {
        Some(p) => out.push_str(&format!("<publisher>{}</publisher>\n", escape(p))),
        None => out.push_str("<p>Extracted by gleaner.</p>\n"),
    }
    out.push_str("</publicationStmt>\n<notesStmt>\n");
    out.push_str(&format!(
        "<note type=\"fingerprint\">{}</note>\n",
        escape(record.fingerprint.as_deref().unwrap_or(""))
    ));
    out.push_str("</notesStmt>\n<sourceDesc>\n<bibl>");
    out.push_str(&format!("<title type=\"main\">{title}</title>"));
    if let Some(a) = record.author.as_deref() {
        out.push_str(&format!("<author>{}</author>", escape(a)));
    }
    if let Some(p) = record.site_name.as_deref() {
        out.push_str(&format!("<publisher>{}</publisher>", escape(p)));
    }
    if let Some(u) = record.url.as_deref().or(record.canonical_url.as_deref()) {
        out.push_str(&format!("<ptr type=\"URL\" target=\"{}\"/>", escape(u)));
    }
    if let Some(d) = record.date.as_deref() {
        out.push_str(&format!("<date>{}</date>", escape(d)));
    }
    out.push_str("</bibl>\n</sourceDesc>\n</fileDesc>\n");
    if let Some(lang) = record.language.as_deref() {
        out.push_str(&format!(
            "<profileDesc>\n<langUsage>\n<language ident=\"{}\"/>\n</langUsage>\n</profileDesc>\n",
            escape(lang)
        ));
    }
    out.push_str("</teiHeader>\n<text>\n<body>\n<div type=\"entry\">");
    out.push_str(&tei_body(&body(html)));
    out.push_str("</div>\n");
    if let Some(c) = comments_html.map(body).filter(|b| !b.is_empty()) {
        out.push_str("<div type=\"comments\">");
        out.push_str(&tei_body(&c));
        out.push_str("</div>\n");
    }
    out.push_str("</body>\n</text>\n</TEI>");
    out
}

/// trafilatura's body vocabulary in TEI's: a heading inside the text is
/// `<ab type="header" rend="h2">` (TEI's `<head>` only opens a `<div>`),
/// `<code>` is `<ab type="code">`, `<graphic>` takes `url` for `src`,
/// and a table (which the TEI corpus DTD does not declare) is a
/// `<list rend="table">` of rows, each an `<item>` of `<seg type="cell">`s
/// (`type="head"` for header cells).
fn tei_body(xml: &str) -> String {
    xml.replace("<head rend=", "<ab type=\"header\" rend=")
        .replace("</head>", "</ab>")
        .replace("<table>", "<list rend=\"table\">")
        .replace("</table>", "</list>")
        .replace("<row>", "<item>")
        .replace("</row>", "</item>")
        .replace("<cell role=\"head\">", "<seg type=\"head\">")
        .replace("<cell>", "<seg type=\"cell\">")
        .replace("</cell>", "</seg>")
        .replace("<code>", "<ab type=\"code\">")
        .replace("</code>", "</ab>")
        .replace("<graphic src=", "<graphic url=")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_maps_to_the_xml_vocabulary() {
        let got = body(
            "<h2>Intro</h2><p>Text with <b>bold</b>, <a href='/x?a=1&amp;b=2'>a link</a><br>and \
             a break &amp; signs.</p><ul><li>one</li><li><p>two</p></li></ul>\
             <table><tr><th>H</th></tr><tr><td>c</td></tr></table><pre>x &lt; y</pre>",
        );
        assert_eq!(
            got,
            "<head rend=\"h2\">Intro</head><p>Text with <hi rend=\"#b\">bold</hi>, \
             <ref target=\"/x?a=1&amp;b=2\">a link</ref><lb/>and a break &amp; signs.</p>\
             <list rend=\"ul\"><item>one</item><item><p>two</p></item></list>\
             <table><row><cell role=\"head\">H</cell></row><row><cell>c</cell></row></table>\
             <code>x &lt; y</code>"
        );
    }

    #[test]
    fn controls_are_not_xml() {
        assert_eq!(escape("a\u{1}b\u{c}c\td<\"'"), "abc\td&lt;&quot;&#39;");
    }
}
