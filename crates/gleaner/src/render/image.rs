//! Where an image is (issue 35): its `src`, or, for a lazily loaded
//! image, the attribute its script would take the source from.
//!
//! Lazy-loading scripts leave `src` empty or a placeholder (a `data:` GIF
//! of one pixel, a blurred thumbnail) and put the real source in
//! `data-src`, `data-lazy-src`, `data-original`, or a `srcset` (plain or
//! `data-`); a browser without the script shows nothing. The outputs
//! write the source the page would show once its script ran.

use markup5ever::local_name;

use crate::document::{Document, NodeId};

/// Attributes holding the real source of a lazily loaded image, read
/// before `src` (which then holds a placeholder).
const LAZY_SOURCES: [&str; 3] = ["data-src", "data-lazy-src", "data-original"];

/// Attributes holding a source set (`url 320w, url 640w`), read when
/// `src` is missing or not a URL to show.
const SOURCE_SETS: [&str; 3] = ["data-srcset", "data-lazy-srcset", "srcset"];

/// Is `name` an attribute an image's source is read from besides `src`
/// (a lazy-loading one or a source set)? Like `src`, its value changes
/// from page to page of a site.
pub(crate) fn is_source_attribute(name: &str) -> bool {
    LAZY_SOURCES.contains(&name) || SOURCE_SETS.contains(&name)
}

/// The source of the image `img` as the outputs write it (before being
/// made absolute): a lazy-loading attribute's URL, else `src`, else the
/// largest candidate of a source set; only URLs safe to keep
/// ([`super::is_safe_url`], so never a `data:` placeholder).
pub(crate) fn source(doc: &Document, img: NodeId) -> Option<&str> {
    let usable = |v: &str| !v.is_empty() && super::is_safe_url(v);
    let attr = |name: &str| doc.attr(img, name).map(str::trim).filter(|v| usable(v));
    LAZY_SOURCES.iter().find_map(|name| attr(name)).or_else(|| attr("src")).or_else(|| {
        SOURCE_SETS
            .iter()
            .find_map(|name| doc.attr(img, name).and_then(largest_candidate).filter(|v| usable(v)))
    })
}

/// Is the image written at all: it has a source or alt text (an image
/// with neither shows nothing and says nothing).
pub(crate) fn is_written(doc: &Document, img: NodeId) -> bool {
    source(doc, img).is_some() || doc.attr(img, "alt").is_some_and(|a| !a.trim().is_empty())
}

/// Is `id` an image that is written ([`is_written`])?
pub(crate) fn is_written_image(doc: &Document, id: NodeId) -> bool {
    doc.is(id, local_name!("img")) && is_written(doc, id)
}

/// Does the subtree of `id` hold an image that is written (a row or list
/// item holding only images is kept, one holding only empty ones not)?
pub(crate) fn holds_written(doc: &Document, id: NodeId) -> bool {
    doc.subtree(id).any(|n| is_written_image(doc, n))
}

/// Alt text as the text of a Markdown image: white space collapsed, `\`,
/// `[` and `]` escaped (`[QGIS main interface]` reads back as written).
pub(crate) fn markdown_alt(alt: &str) -> String {
    let mut out = String::with_capacity(alt.len());
    for word in alt.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            if matches!(c, '\\' | '[' | ']') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// The URL of the largest candidate of a source set (by its width `w` or
/// density `x` descriptor, a candidate without one being `1x`), the
/// first of equals. A URL is a run without white space (it may hold
/// commas, as image services' URLs do); a comma ends a candidate.
pub(crate) fn largest_candidate(set: &str) -> Option<&str> {
    let mut best: Option<(f64, &str)> = None;
    let mut rest = set;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let url_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (url, after) = rest.split_at(url_end);
        // A URL ending in a comma has no descriptor.
        let (url, descriptor, after) = match url.strip_suffix(',') {
            Some(u) => (u.trim_end_matches(','), "", after),
            None => {
                let end = after.find(',').unwrap_or(after.len());
                (url, after[..end].trim(), &after[end..])
            }
        };
        let size = descriptor_size(descriptor);
        if !url.is_empty() && best.is_none_or(|(b, _)| size > b) {
            best = Some((size, url));
        }
        rest = after;
    }
    best.map(|(_, url)| url)
}

/// The size a candidate's descriptor says: `640w` is 640, `2x` is 2, none
/// (or one not understood) is 1.
fn descriptor_size(descriptor: &str) -> f64 {
    let number = descriptor.strip_suffix(['w', 'x']).and_then(|n| n.parse::<f64>().ok());
    number.filter(|n| n.is_finite() && *n > 0.0).unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn src_of(html: &str) -> Option<String> {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let img = doc.ids().find(|&n| doc.is(n, markup5ever::local_name!("img")))?;
        source(&doc, img).map(str::to_string)
    }

    #[test]
    fn lazy_attributes_win_over_placeholders() {
        assert_eq!(src_of("<img src=a.png>").as_deref(), Some("a.png"));
        assert_eq!(
            src_of("<img src=blank.gif data-src=' real.jpg '>").as_deref(),
            Some("real.jpg")
        );
        assert_eq!(
            src_of("<img src='data:image/gif;base64,R0l' data-lazy-src=r.jpg>").as_deref(),
            Some("r.jpg")
        );
        assert_eq!(src_of("<img data-original=o.jpg>").as_deref(), Some("o.jpg"));
        assert_eq!(
            src_of("<img src='data:image/gif;base64,R0l' data-srcset='s.jpg 320w, l.jpg 640w'>")
                .as_deref(),
            Some("l.jpg")
        );
        assert_eq!(src_of("<img srcset='a.jpg, b.jpg 2x'>").as_deref(), Some("b.jpg"));
        assert_eq!(src_of("<img data-src='javascript:x' src='data:x'>"), None);
        assert_eq!(src_of("<img alt=x>"), None);
    }

    #[test]
    fn alt_text_is_one_escaped_line() {
        assert_eq!(markdown_alt(" [QGIS  main]\n interface\\ "), "\\[QGIS main\\] interface\\\\");
        assert_eq!(markdown_alt("  "), "");
    }

    #[test]
    fn source_sets_keep_commas_inside_urls() {
        let set =
            "https://i.example/c_fill,w_320/a.jpg 320w, https://i.example/c_fill,w_800/a.jpg 800w";
        assert_eq!(largest_candidate(set), Some("https://i.example/c_fill,w_800/a.jpg"));
        assert_eq!(largest_candidate("a.jpg, b.jpg 3x,c.jpg"), Some("b.jpg"));
        assert_eq!(largest_candidate(" , ,"), None);
        assert_eq!(largest_candidate("a.jpg NaNx, b.jpg -2w"), Some("a.jpg"));
    }
}
