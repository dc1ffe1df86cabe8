//! Links of a page, found with the core's HTML5 parser.

use url::Url;

use crate::{CrawlError, Fetched};

/// `<link rel>` values that point at other pages of the site.
const NAVIGATION_RELS: &[&str] = &[
    "next",
    "prev",
    "previous",
    "index",
    "search",
    "contents",
    "toc",
    "up",
    "first",
    "last",
    "home",
    "start",
    "help",
    "glossary",
    "chapter",
    "section",
    "subsection",
    "appendix",
];

/// What a page says about where to go next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageLinks {
    /// The targets of `<a href>`, `<area href>` and navigational `<link
    /// rel href>` (`next`, `prev`, `index`, `search`, `contents`, `up`, …;
    /// not stylesheets or icons), resolved against the page's `<base
    /// href>` (or its URL), http(s) only, in document order, fragments
    /// dropped. Duplicates are kept.
    pub links: Vec<Url>,
    /// The `<link rel=canonical href>` target, resolved.
    pub canonical: Option<Url>,
    /// `<meta name=robots content=…nofollow…>`: the page asks crawlers not
    /// to follow its links.
    pub nofollow: bool,
    /// Links marked `rel=nofollow` (or `ugc`, `sponsored`): not in
    /// [`PageLinks::links`]; a crawler follows them only when told to.
    pub nofollow_links: Vec<Url>,
}

/// Parses a fetched page and reads its links.
///
/// # Errors
/// [`CrawlError::NotHtml`] when the core parser finds binary data.
pub fn page_links(page: &Fetched) -> Result<PageLinks, CrawlError> {
    let max = page.body.len().clamp(1, gleaner::document::MAX_SUPPORTED_BYTES);
    // Every attribute is kept: links read `rel`, and the robots `<meta>`
    // its `name` and `content`, which the core's filtered parse drops.
    let options = page
        .parse_options(&gleaner::ParseOptions::default())
        .max_bytes(max)
        .keep_all_attributes(true);
    let doc = gleaner::Document::parse(&page.body, &options).map_err(|e| match e {
        gleaner::Error::NotHtml { kind } => CrawlError::NotHtml(kind.to_string()),
        other => CrawlError::NotHtml(other.to_string()),
    })?;
    let elements = || doc.ids().filter_map(|id| doc.element(id));
    let base = elements()
        .find(|e| &*e.name == "base" && e.attr("href").is_some())
        .and_then(|e| e.attr("href"))
        .and_then(|href| page.url.join(href.trim()).ok())
        .unwrap_or_else(|| page.url.clone());
    let resolve = |href: &str| -> Option<Url> {
        let mut url = base.join(href.trim()).ok()?;
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        url.set_fragment(None);
        Some(url)
    };
    let mut out = PageLinks::default();
    for e in elements() {
        match &*e.name {
            "a" | "area" => {
                if let Some(url) = e.attr("href").and_then(resolve) {
                    let rel = e.attr("rel").unwrap_or("").to_ascii_lowercase();
                    let marked = rel
                        .split_ascii_whitespace()
                        .any(|r| matches!(r, "nofollow" | "ugc" | "sponsored"));
                    if marked {
                        out.nofollow_links.push(url);
                    } else {
                        out.links.push(url);
                    }
                }
            }
            "link" => {
                let rels = e.attr("rel").unwrap_or("").to_ascii_lowercase();
                let has =
                    |names: &[&str]| rels.split_ascii_whitespace().any(|r| names.contains(&r));
                if has(&["canonical"]) && out.canonical.is_none() {
                    out.canonical = e.attr("href").and_then(resolve);
                } else if has(NAVIGATION_RELS) {
                    out.links.extend(e.attr("href").and_then(resolve));
                }
            }
            "meta" => {
                let robots =
                    e.attr("name").is_some_and(|n| n.trim().eq_ignore_ascii_case("robots"));
                if robots
                    && e.attr("content")
                        .is_some_and(|c| c.to_ascii_lowercase().contains("nofollow"))
                {
                    out.nofollow = true;
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, html: &str) -> Fetched {
        Fetched {
            url: Url::parse(url).unwrap(),
            status: 200,
            content_type: Some("text/html".into()),
            charset: None,
            headers: Vec::new(),
            redirects: Vec::new(),
            body: html.as_bytes().to_vec(),
            encoded_body: None,
            remote_ip: None,
        }
    }

    #[test]
    fn links_base_and_canonical() {
        let p = page(
            "http://e.com/a/b.html",
            r#"<html><head><base href="/docs/"><link rel="Canonical" href="c.html#x">
            <meta name="robots" content="index, NoFollow"></head>
            <body><a href="x/">x</a> <a href="mailto:me@e.com">m</a> <a href="http://o.org/#f">o</a>
            <map><area href="../y.html"></map><a>none</a><a href=/z/>z</a></body></html>"#,
        );
        let links = page_links(&p).unwrap();
        let got: Vec<&str> = links.links.iter().map(Url::as_str).collect();
        assert_eq!(
            got,
            ["http://e.com/docs/x/", "http://o.org/", "http://e.com/y.html", "http://e.com/z/"]
        );
        assert_eq!(links.canonical.unwrap().as_str(), "http://e.com/docs/c.html");
        assert!(links.nofollow);
    }

    #[test]
    fn binary_is_not_html() {
        let mut p = page("http://e.com/", "");
        p.body = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01".to_vec();
        assert!(matches!(page_links(&p), Err(CrawlError::NotHtml(_))));
    }
}
