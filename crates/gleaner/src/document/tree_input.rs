//! What the tree builder sees: the source, minus what no algorithm reads.
//!
//! html5ever's tokenizer handles markup one character at a time, and on
//! real pages more than half of the bytes are tags and most of those are
//! attribute values nobody reads (`data-*`, inline SVG paths, tracking
//! parameters, `srcset`s). Since the source tokenizer has already found
//! every tag, the input handed to the tree builder is rebuilt in one pass:
//!
//! - start tags keep only the attributes the library reads ([`KEPT`]);
//! - comments and processing instructions are dropped (no algorithm reads
//!   them, and they never change the tree's shape);
//! - the content of `<script>`, `<style>`, `<noscript>`, `<noframes>`,
//!   `<noembed>` and `<iframe>` is dropped (raw text: it cannot change the
//!   tree, and it is never visible);
//! - start tags nested deeper than the nesting limit are dropped with their
//!   end tags. Browsers cap the depth too (Chromium's parser at 512);
//!   without a cap the tree builder's scope checks make 100 000 nested
//!   `<div>`s quadratic.
//!
//! The source view ([`Source`]) keeps everything, so the source-level
//! algorithms still see the page as written. With
//! [`ParseOptions::keep_all_attributes`](super::ParseOptions) the
//! attributes are left alone.

use markup5ever::{local_name, LocalName};

use super::source::{Source, TokenKind};
use super::tags::{content_model, is_void, ContentModel};

/// Attributes the library reads; all others are dropped before tree
/// building. `type` stays because `<input type=hidden>` is placed
/// differently inside tables (WHATWG §13.2.6.4.9).
const KEPT: &[&str] = &[
    "id",
    "class",
    "href",
    "src",
    "alt",
    "title",
    "style",
    "hidden",
    "aria-hidden",
    "role",
    "itemprop",
    "itemtype",
    "property",
    "name",
    "content",
    "charset",
    "http-equiv",
    "colspan",
    "rowspan",
    "start",
    "lang",
    "type",
    "datetime",
    "rel",
    "dir",
    "value",
];

/// Elements whose raw-text content the tree builder never needs.
pub(crate) fn drops_content(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("noframes")
            | local_name!("noembed")
            | local_name!("iframe")
    )
}

/// Elements that the tree builder closes implicitly, so an unclosed one
/// does not deepen the tree (`<p>`, `<li>`, table parts, …).
fn closes_implicitly(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("p")
            | local_name!("li")
            | local_name!("dt")
            | local_name!("dd")
            | local_name!("td")
            | local_name!("th")
            | local_name!("tr")
            | local_name!("thead")
            | local_name!("tbody")
            | local_name!("tfoot")
            | local_name!("option")
            | local_name!("optgroup")
            | local_name!("colgroup")
            | local_name!("caption")
            | local_name!("rb")
            | local_name!("rt")
            | local_name!("rp")
            | local_name!("html")
            | local_name!("head")
            | local_name!("body")
            // A new `<a>` or `<nobr>` closes an open one (WHATWG §13.2.6.4.7).
            | local_name!("a")
            | local_name!("nobr")
    )
}

/// Builds the tree builder's input from the source tokens.
pub(crate) fn tree_input(source: &Source, max_nesting: usize, keep_all_attributes: bool) -> String {
    let text = source.text();
    let mut out = String::with_capacity(text.len() / 2);
    let mut depth = 0usize;
    let mut skip_raw = false;
    for token in source.tokens() {
        let raw = source.token_text(token);
        let skip_this_raw = std::mem::replace(&mut skip_raw, false);
        match &token.kind {
            TokenKind::StartTag(name) => {
                let self_closing = raw.ends_with("/>");
                // Set first: a raw-text element dropped for depth drops its
                // content too, or script code would become page text.
                skip_raw = drops_content(name) || content_model(name) != ContentModel::Normal;
                if !(is_void(name) || closes_implicitly(name) || self_closing) {
                    depth += 1;
                    if depth > max_nesting {
                        continue;
                    }
                }
                skip_raw = drops_content(name);
                if keep_all_attributes {
                    out.push_str(raw);
                } else {
                    write_slim_start_tag(&mut out, raw, self_closing);
                }
            }
            TokenKind::EndTag(name) => {
                if !(is_void(name) || closes_implicitly(name)) {
                    let deep = depth > max_nesting;
                    depth = depth.saturating_sub(1);
                    if deep {
                        continue;
                    }
                }
                out.push_str(raw);
            }
            TokenKind::Declaration => {
                // Only the doctype matters: it sets quirks mode, which
                // changes how tables and paragraphs nest.
                if raw.as_bytes().get(..9).is_some_and(|b| b.eq_ignore_ascii_case(b"<!doctype")) {
                    out.push_str(raw);
                }
            }
            TokenKind::Comment => {}
            TokenKind::Text => out.push_str(raw),
            TokenKind::RawText => {
                if !skip_this_raw {
                    out.push_str(raw);
                }
            }
        }
    }
    out
}

/// Writes `<name attr=value …>` with only the [`KEPT`] attributes, in the
/// source's own quoting.
fn write_slim_start_tag(out: &mut String, raw: &str, self_closing: bool) {
    let bytes = raw.as_bytes();
    let name_end = bytes
        .iter()
        .skip(1)
        .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
        .map_or(raw.len(), |p| p + 1);
    out.push_str(&raw[..name_end]);
    let mut i = name_end;
    // `<a href=/x/>`: the slash belongs to the unquoted value (WHATWG
    // §13.2.5.40), so the tag is not self-closing.
    let mut slash_in_value = false;
    while i < bytes.len() {
        // Skip separators.
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b'>' {
            break;
        }
        let name_start = i;
        // WHATWG: an attribute name may start with `=`, then runs to
        // whitespace, `/`, `>` or `=`.
        i += 1;
        while i < bytes.len()
            && !matches!(bytes[i], b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>' | b'=')
        {
            i += 1;
        }
        let name = &raw[name_start..i];
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        let mut attr_end = i;
        if j < bytes.len() && bytes[j] == b'=' {
            j += 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            match bytes.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    j = bytes[j + 1..]
                        .iter()
                        .position(|&b| b == q)
                        .map_or(bytes.len(), |p| j + 2 + p);
                }
                _ => {
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>' {
                        j += 1;
                    }
                    slash_in_value = j + 1 == bytes.len() && raw[..j].ends_with('/');
                }
            }
            attr_end = j;
            i = j;
        }
        if KEPT.iter().any(|k| k.eq_ignore_ascii_case(name)) {
            out.push(' ');
            out.push_str(raw.get(name_start..attr_end).unwrap_or(name));
        }
    }
    out.push_str(if self_closing && !slash_in_value { "/>" } else { ">" });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::source::tokenize;

    fn input(html: &str) -> String {
        tree_input(&tokenize(html.to_string()), 512, false)
    }

    #[test]
    fn a_slash_ending_an_unquoted_value_is_the_values() {
        assert_eq!(input("<a href=/x/>y</a>"), "<a href=/x/>y</a>");
        assert_eq!(input("<br class=a />"), "<br class=a/>");
    }

    #[test]
    fn attributes_are_slimmed_with_their_quoting() {
        assert_eq!(
            input("<a data-x='1>2' href=\"/u\" onclick=go() CLASS=big\ttitle='t'>x</a>"),
            "<a href=\"/u\" CLASS=big title='t'>x</a>"
        );
        assert_eq!(input("<img src=a.png srcset='a 1x, b 2x' hidden/>"), "<img src=a.png hidden/>");
        assert_eq!(input("<input type=hidden value=1>"), "<input type=hidden value=1>");
    }

    #[test]
    fn comments_and_script_content_are_dropped() {
        assert_eq!(
            input("<!DOCTYPE html><!-- c --><?xml x?><script>if(a<b){}</script><style>p{}</style><title>T</title>"),
            "<!DOCTYPE html><script></script><style></style><title>T</title>"
        );
    }

    #[test]
    fn deep_nesting_is_cut() {
        let html = "<div>".repeat(5) + "x" + &"</div>".repeat(5);
        let t = tree_input(&tokenize(html), 3, false);
        assert_eq!(t, "<div><div><div>x</div></div></div>");
    }

    #[test]
    fn raw_text_of_a_tag_dropped_for_depth_is_dropped_too() {
        let html = "<div>".repeat(5) + "<script>if (a<b) leak()</script><p>x</p>";
        let t = tree_input(&tokenize(html), 3, false);
        assert!(!t.contains("leak"), "{t}");
        assert!(t.ends_with("<p>x</p>"), "{t}");
        let anchors = "<a href=x>l ".repeat(600) + "<h1>T</h1>";
        assert!(tree_input(&tokenize(anchors), 512, false).ends_with("<h1>T</h1>"));
    }

    #[test]
    fn unterminated_tags_do_not_panic() {
        for html in
            ["<a href='", "<a href=", "<a b c", "<", "<a =x>", "<?ÃáQ’I", "<!dö’", "<a é=’ b>"]
        {
            let _ = input(html);
        }
    }
}
