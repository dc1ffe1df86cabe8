//! The metadata header of text and Markdown output (`--with-metadata`),
//! in trafilatura's convention: a YAML-like front matter block between
//! `---` lines, one `key: value` line per known field, in the order
//! `title`, `author`, `url`, `hostname`, `description`, `sitename`,
//! `date`, `categories`, `tags` (unknown fields are left out; lists are
//! joined with `; `).
//!
//! Reference: trafilatura's `--with-metadata` (Barbaresi, "Trafilatura: A
//! Web Scraping Library and Command-Line Tool for Text Discovery and
//! Extraction", ACL 2021 demos), and Jekyll's front matter, which it
//! follows.

use crate::metadata::Metadata;

/// The header for `meta`, with `page_url` (the URL the page came from) as
/// the `url` when the page names no canonical URL, and the host of
/// whichever URL as `hostname`. Values are one line each, control
/// characters left out.
///
/// ```
/// use gleaner::{metadata::Metadata, render::front_matter, Document, ParseOptions};
/// let doc = Document::parse(b"<title>Storm warning for the coast</title>", &ParseOptions::default())?;
/// let header = front_matter(&Metadata::extract(&doc), Some("https://news.example/storm"));
/// assert_eq!(
///     header,
///     "---\ntitle: Storm warning for the coast\nurl: https://news.example/storm\n\
///      hostname: news.example\n---\n"
/// );
/// # Ok::<(), gleaner::Error>(())
/// ```
pub fn front_matter(meta: &Metadata, page_url: Option<&str>) -> String {
    let url = meta.url.as_deref().or(page_url);
    let hostname =
        url.and_then(|u| url::Url::parse(u).ok()).and_then(|u| u.host_str().map(str::to_string));
    let categories = meta.categories.join("; ");
    let tags = meta.tags.join("; ");
    let fields = [
        ("title", meta.title.as_deref()),
        ("author", meta.author.as_deref()),
        ("url", url),
        ("hostname", hostname.as_deref()),
        ("description", meta.description.as_deref()),
        ("sitename", meta.site_name.as_deref()),
        ("date", meta.date.as_deref()),
        ("categories", Some(categories.as_str())),
        ("tags", Some(tags.as_str())),
    ];
    let mut out = String::from("---\n");
    for (key, value) in fields {
        let value = value.map(one_line).unwrap_or_default();
        if !value.is_empty() {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&value);
            out.push('\n');
        }
    }
    out.push_str("---\n");
    out
}

/// `s` on one line: whitespace collapsed, control characters left out.
fn one_line(s: &str) -> String {
    super::strip_controls(s).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Document, ParseOptions};

    #[test]
    fn every_known_field_in_trafilatura_order() {
        let html = r#"<html lang=en><link rel=canonical href="https://ex.org/a">
            <meta property=og:site_name content="Ex News"><meta name=author content="A. Writer">
            <meta name=description content="Line one
            line two."><meta property=article:section content=World>
            <meta property=article:tag content=x><meta property=article:tag content=y>
            <meta property=article:published_time content="2024-05-01">
            <title>A headline of several words</title>"#;
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        assert_eq!(
            front_matter(&Metadata::extract(&doc), Some("https://mirror.example/a")),
            "---\ntitle: A headline of several words\nauthor: A. Writer\nurl: https://ex.org/a\n\
             hostname: ex.org\ndescription: Line one line two.\nsitename: Ex News\n\
             date: 2024-05-01\ncategories: World\ntags: x; y\n---\n"
        );
        let empty = Document::parse(b"<p>x</p>", &ParseOptions::default()).expect("parse");
        assert_eq!(front_matter(&Metadata::extract(&empty), None), "---\n---\n");
    }
}
