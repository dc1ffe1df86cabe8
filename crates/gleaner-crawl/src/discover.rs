//! Finding a site's pages without crawling it (issue 36): the sitemaps
//! `robots.txt` names (or `/sitemap.xml`), sitemap indexes however deep,
//! gzipped or not (the [Sitemaps protocol](https://www.sitemaps.org/protocol.html)),
//! RSS 2.0 and Atom feeds, and the feeds a page announces with
//! `<link rel=alternate>`.
//!
//! The readers here are pure functions of bytes; [`discover`] fetches
//! through an [`HttpSource`], so every request keeps the crawler's
//! politeness and address policy (private addresses refused after DNS and
//! on every redirect unless allowed), and every count is capped: sitemap
//! files read, URLs kept, bytes of a gzipped sitemap once inflated.

use std::collections::HashSet;
use std::io::Read;
use std::time::Instant;

use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use url::Url;

use crate::{CrawlError, HttpSource};

/// The most sitemap files (indexes included) one discovery reads.
pub const MAX_SITEMAP_FILES: usize = 1_000;

/// The most bytes a gzipped sitemap may inflate to (the protocol's own
/// limit for one sitemap is 50 MB uncompressed).
pub const MAX_SITEMAP_BYTES: u64 = 50 * 1024 * 1024;

/// What a sitemap file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sitemap {
    /// A `<urlset>`: page URLs.
    Urls(Vec<Url>),
    /// A `<sitemapindex>`: more sitemaps.
    Index(Vec<Url>),
}

/// Why a sitemap or feed could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// Fetching failed.
    #[error("{url}: {error}")]
    Fetch {
        /// What was fetched.
        url: Url,
        /// Why it failed.
        error: CrawlError,
    },
    /// The bytes are not a sitemap or a feed.
    #[error("{0}: not a sitemap or feed: {1}")]
    NotXml(Url, String),
    /// A gzipped sitemap is damaged or inflates past the cap.
    #[error("{0}: {1}")]
    Gzip(Url, String),
}

/// The `Sitemap:` lines of a `robots.txt`, resolved against `base`.
pub fn robots_sitemaps(robots: &str, base: &Url) -> Vec<Url> {
    robots
        .lines()
        .filter_map(|line| {
            let line = line.split('#').next().unwrap_or("").trim();
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case("sitemap").then(|| base.join(value.trim()).ok())?
        })
        .collect()
}

/// The bytes of a sitemap, inflated when gzipped (by its magic bytes, so
/// a `.xml.gz` served as `application/xml` and one already inflated by
/// `Content-Encoding` both read), at most `max_bytes`.
///
/// # Errors
/// Damaged gzip, or more than `max_bytes` once inflated.
pub fn inflate(bytes: &[u8], max_bytes: u64) -> Result<Vec<u8>, String> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes.to_vec());
    }
    let mut out = Vec::new();
    let mut gz = flate2::read::MultiGzDecoder::new(bytes).take(max_bytes.saturating_add(1));
    gz.read_to_end(&mut out).map_err(|e| format!("damaged gzip: {e}"))?;
    if out.len() as u64 > max_bytes {
        return Err(format!("inflates to more than {max_bytes} bytes"));
    }
    Ok(out)
}

/// One element's text or `href`, as the readers below collect them.
struct Found {
    /// Inside an `<item>` or `<entry>` (a feed's item, not the feed's own
    /// link).
    in_item: bool,
    /// The value.
    value: String,
}

/// Reads an XML document and hands back, in order, the text of every
/// element named in `text_of` and the `href` of every element named in
/// `href_of` whose `rel` is `alternate` or absent, with the root
/// element's local name.
fn scan(xml: &str, text_of: &[&str], href_of: &[&str]) -> Result<(String, Vec<Found>), String> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut root = String::new();
    let mut out = Vec::new();
    // The element whose text is being collected, and the text so far.
    let mut open: Option<(String, String)> = None;
    // Open `<item>`s and `<entry>`s.
    let mut items = 0usize;
    loop {
        match reader.read_event().map_err(|e| e.to_string())? {
            event @ (Event::Start(_) | Event::Empty(_)) => {
                let (Event::Start(e) | Event::Empty(e)) = &event else { continue };
                let name = e.local_name().as_ref().to_ascii_lowercase();
                if root.is_empty() {
                    root.clone_from(&name);
                }
                if matches!(event, Event::Start(_)) && matches!(name.as_str(), "item" | "entry") {
                    items += 1;
                }
                if href_of.contains(&name.as_str()) {
                    let mut href = None;
                    let mut rel = None;
                    for a in e.attributes().flatten() {
                        let value = a
                            .normalized_value(XmlVersion::Implicit1_0)
                            .map(|v| v.into_owned())
                            .unwrap_or_default();
                        match a.key.local_name().as_ref() {
                            "href" => href = Some(value),
                            "rel" => rel = Some(value),
                            _ => {}
                        }
                    }
                    let alternate =
                        rel.as_deref().is_none_or(|r| r.eq_ignore_ascii_case("alternate"));
                    if let (Some(href), true) = (href, alternate) {
                        out.push(Found { in_item: items > 0, value: href });
                    }
                }
                if matches!(event, Event::Start(_)) && text_of.contains(&name.as_str()) {
                    open = Some((name, String::new()));
                }
            }
            Event::Text(t) => {
                if let Some((_, text)) = open.as_mut() {
                    text.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if let Some((_, text)) = open.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                if let Some((_, text)) = open.as_mut() {
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        text.push(c);
                    } else if let Some(s) =
                        quick_xml::escape::resolve_predefined_entity(&r.xml10_content())
                    {
                        text.push_str(s);
                    }
                }
            }
            Event::End(e) => {
                let name = e.local_name().as_ref().to_ascii_lowercase();
                if open.as_ref().is_some_and(|(n, _)| *n == name) {
                    if let Some((_, value)) = open.take() {
                        out.push(Found { in_item: items > 0, value: value.trim().to_string() });
                    }
                }
                if matches!(name.as_str(), "item" | "entry") {
                    items = items.saturating_sub(1);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if root.is_empty() {
        return Err("no root element".into());
    }
    Ok((root, out))
}

/// Absolute http(s) URLs of `values`, resolved against `base`, in order.
fn urls<'a>(values: impl IntoIterator<Item = &'a str>, base: &Url) -> Vec<Url> {
    values
        .into_iter()
        .filter_map(|v| base.join(v.trim()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .collect()
}

/// Reads a sitemap file (a `<urlset>` or a `<sitemapindex>`; gzipped or
/// not), its `<loc>`s resolved against `base`.
///
/// # Errors
/// Not XML, another root element, or damaged gzip.
pub fn parse_sitemap(bytes: &[u8], base: &Url) -> Result<Sitemap, String> {
    let bytes = inflate(bytes, MAX_SITEMAP_BYTES)?;
    let xml = String::from_utf8_lossy(&bytes);
    let (root, found) = scan(xml.trim_start_matches('\u{feff}'), &["loc"], &[])?;
    let locs = urls(found.iter().map(|f| f.value.as_str()), base);
    match root.as_str() {
        "urlset" => Ok(Sitemap::Urls(locs)),
        "sitemapindex" => Ok(Sitemap::Index(locs)),
        other => Err(format!("root element <{other}>, not <urlset> or <sitemapindex>")),
    }
}

/// The item links of an RSS 2.0 (`<item><link>`), RSS 1.0 or Atom
/// (`<entry><link href>` of `rel=alternate` or no `rel`) feed, resolved
/// against `base`, in feed order. `None` when the bytes are not a feed.
pub fn parse_feed(bytes: &[u8], base: &Url) -> Option<Vec<Url>> {
    let xml = String::from_utf8_lossy(bytes);
    let (root, found) = scan(xml.trim_start_matches('\u{feff}'), &["link"], &["link"]).ok()?;
    if !matches!(root.as_str(), "rss" | "rdf" | "feed") {
        return None;
    }
    // An item's link: RSS's `<link>` text, Atom's `<link href>`; the
    // feed's own links (to the site, to itself) are outside the items.
    let items = found.iter().filter(|f| f.in_item && !f.value.is_empty());
    Some(urls(items.map(|f| f.value.as_str()), base))
}

/// The feeds a page announces: `<link rel=alternate>` of an RSS or Atom
/// type, resolved against the document's URL or `base`.
pub fn page_feeds(doc: &gleaner::Document, base: &Url) -> Vec<Url> {
    let base = doc.url().and_then(|u| Url::parse(u).ok()).unwrap_or_else(|| base.clone());
    let mut out = Vec::new();
    for id in doc.ids() {
        let Some(e) = doc.element(id) else { continue };
        if &**e.name() != "link" {
            continue;
        }
        let rel = e.attr("rel").unwrap_or("").to_ascii_lowercase();
        let kind = e.attr("type").unwrap_or("").to_ascii_lowercase();
        if rel.split_ascii_whitespace().any(|r| r == "alternate")
            && (kind.contains("rss") || kind.contains("atom"))
        {
            if let Some(u) = e.attr("href").and_then(|h| base.join(h.trim()).ok()) {
                out.push(u);
            }
        }
    }
    out
}

/// What [`discover`] looks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Discovery {
    /// The site's sitemaps.
    pub sitemap: bool,
    /// Feeds: the start URL itself, or the ones it announces.
    pub feed: bool,
    /// The most URLs handed back.
    pub max_urls: usize,
}

/// What a discovery found: the URLs, in the order found, each once, and
/// the sitemaps or feeds that could not be read (the rest go on).
#[derive(Debug, Default)]
pub struct Discovered {
    /// The page URLs.
    pub urls: Vec<Url>,
    /// Sitemap or feed files read.
    pub files: usize,
    /// Files that failed, with why.
    pub errors: Vec<DiscoverError>,
}

/// One discovery under way: where it fetches from, its caps, and what it
/// found so far.
struct Run<'a> {
    source: &'a HttpSource,
    max_urls: usize,
    deadline: Option<Instant>,
    found: Discovered,
    /// Page URLs handed back so far.
    seen: HashSet<String>,
}

/// Finds the pages of the site of `start` by its sitemaps and feeds,
/// fetched through `source` (so under its address policy, robots rules,
/// delays and caps), by `deadline` if given.
pub fn discover(
    source: &HttpSource,
    start: &Url,
    what: Discovery,
    deadline: Option<Instant>,
) -> Discovered {
    let mut run = Run {
        source,
        max_urls: what.max_urls,
        deadline,
        found: Discovered::default(),
        seen: HashSet::new(),
    };
    if what.sitemap {
        run.sitemaps(start);
    }
    if what.feed {
        run.feeds(start);
    }
    run.found
}

impl Run<'_> {
    /// Keeps the page URLs not seen before, within the cap.
    fn keep(&mut self, urls: Vec<Url>) {
        for url in urls {
            if self.found.urls.len() < self.max_urls && self.seen.insert(url.as_str().to_string()) {
                self.found.urls.push(url);
            }
        }
    }

    /// A file fetched, or its error recorded.
    fn fetch(&mut self, url: &Url) -> Option<crate::Fetched> {
        self.found.files += 1;
        match self.source.fetch_resource(url, self.deadline) {
            Ok(page) => Some(page),
            Err(error) => {
                self.found.errors.push(DiscoverError::Fetch { url: url.clone(), error });
                None
            }
        }
    }

    /// The sitemap part: `robots.txt`'s sitemaps, else `/sitemap.xml`,
    /// then every index breadth-first, each file once.
    fn sitemaps(&mut self, start: &Url) {
        let named = match start.join("/robots.txt") {
            Ok(robots) => match self.source.fetch_resource(&robots, self.deadline) {
                Ok(page) => robots_sitemaps(&String::from_utf8_lossy(&page.body), &page.url),
                Err(_) => Vec::new(),
            },
            Err(_) => Vec::new(),
        };
        let mut queue: std::collections::VecDeque<Url> = named.into();
        if queue.is_empty() {
            queue.extend(start.join("/sitemap.xml").ok());
        }
        let mut seen_files: HashSet<String> = queue.iter().map(|u| u.to_string()).collect();
        while let Some(url) = queue.pop_front() {
            if self.found.files >= MAX_SITEMAP_FILES || self.found.urls.len() >= self.max_urls {
                break;
            }
            let Some(page) = self.fetch(&url) else { continue };
            match parse_sitemap(&page.body, &page.url) {
                Ok(Sitemap::Urls(urls)) => self.keep(urls),
                Ok(Sitemap::Index(children)) => {
                    for c in children {
                        if seen_files.insert(c.to_string()) {
                            queue.push_back(c);
                        }
                    }
                }
                Err(why) if why.contains("gzip") || why.contains("inflates") => {
                    self.found.errors.push(DiscoverError::Gzip(url, why));
                }
                Err(why) => self.found.errors.push(DiscoverError::NotXml(url, why)),
            }
        }
    }

    /// The feed part: the start URL read as a feed, else the feeds its
    /// page announces.
    fn feeds(&mut self, start: &Url) {
        let Some(first) = self.fetch(start) else { return };
        if let Some(items) = parse_feed(&first.body, &first.url) {
            self.keep(items);
            return;
        }
        let options = first.parse_options(&gleaner::ParseOptions::default());
        let announced = match gleaner::Document::parse(&first.body, &options) {
            Ok(doc) => page_feeds(&doc, &first.url),
            Err(e) => {
                self.found.errors.push(DiscoverError::NotXml(first.url.clone(), e.to_string()));
                return;
            }
        };
        let mut seen_feeds = HashSet::new();
        for url in announced {
            if !seen_feeds.insert(url.to_string()) || self.found.urls.len() >= self.max_urls {
                continue;
            }
            let Some(page) = self.fetch(&url) else { continue };
            match parse_feed(&page.body, &page.url) {
                Some(items) => self.keep(items),
                None => {
                    self.found.errors.push(DiscoverError::NotXml(url, "not RSS or Atom".into()))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("https://example.org/blog/").expect("url")
    }

    #[test]
    fn robots_names_its_sitemaps() {
        let robots = "User-agent: *\nDisallow: /private\nSitemap: https://example.org/s1.xml\n\
                      sitemap:/s2.xml # relative\nSITEMAP : https://cdn.example.org/s3.xml.gz\n";
        let got: Vec<String> =
            robots_sitemaps(robots, &base()).iter().map(|u| u.to_string()).collect();
        assert_eq!(
            got,
            [
                "https://example.org/s1.xml",
                "https://example.org/s2.xml",
                "https://cdn.example.org/s3.xml.gz"
            ]
        );
    }

    #[test]
    fn urlsets_and_indexes_gzipped_or_not() {
        let set = r#"<?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc>https://example.org/a?x=1&amp;y=2</loc><lastmod>2025-01-01</lastmod></url>
              <url><loc> https://example.org/b </loc></url>
              <url><loc><![CDATA[https://example.org/c]]></loc></url>
              <url><loc>ftp://example.org/not-http</loc></url>
            </urlset>"#;
        let want = Sitemap::Urls(vec![
            Url::parse("https://example.org/a?x=1&y=2").expect("url"),
            Url::parse("https://example.org/b").expect("url"),
            Url::parse("https://example.org/c").expect("url"),
        ]);
        assert_eq!(parse_sitemap(set.as_bytes(), &base()), Ok(want.clone()));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, set.as_bytes()).expect("gzip");
        assert_eq!(parse_sitemap(&gz.finish().expect("gzip"), &base()), Ok(want));
        let index = "<sitemapindex><sitemap><loc>/s-1.xml.gz</loc></sitemap></sitemapindex>";
        assert_eq!(
            parse_sitemap(index.as_bytes(), &base()),
            Ok(Sitemap::Index(vec![Url::parse("https://example.org/s-1.xml.gz").expect("url")]))
        );
    }

    #[test]
    fn junk_is_an_error_not_a_panic() {
        for junk in
            [&b""[..], b"<html><body>no</body></html>", b"\x1f\x8b\x08junk", b"<urlset><url><loc>"]
        {
            let got = parse_sitemap(junk, &base());
            assert!(!matches!(got, Ok(Sitemap::Urls(ref u)) if !u.is_empty()), "{got:?}");
        }
        assert!(parse_feed(b"\x00\x01binary", &base()).is_none());
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, &vec![b' '; 1 << 20]).expect("gzip");
        let bomb = gz.finish().expect("gzip");
        assert!(inflate(&bomb, 1000).is_err_and(|e| e.contains("more than 1000")));
        assert_eq!(inflate(&bomb, 2 << 20).map(|b| b.len()), Ok(1 << 20));
    }

    #[test]
    fn rss_and_atom_items() {
        let rss = r#"<rss version="2.0"><channel><title>T</title><link>https://example.org/</link>
            <item><title>One</title><link>https://example.org/one</link></item>
            <item><title>Two</title><link>/two</link></item></channel></rss>"#;
        let got: Vec<String> = parse_feed(rss.as_bytes(), &base())
            .expect("rss")
            .iter()
            .map(|u| u.to_string())
            .collect();
        assert_eq!(got, ["https://example.org/one", "https://example.org/two"]);
        let atom = r#"<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.org/"/>
            <link rel="self" href="https://example.org/atom.xml"/>
            <entry><link href="https://example.org/e1"/><link rel="replies" href="/r"/></entry>
            <entry><link rel="alternate" href="e2"/></entry></feed>"#;
        let got: Vec<String> = parse_feed(atom.as_bytes(), &base())
            .expect("atom")
            .iter()
            .map(|u| u.to_string())
            .collect();
        assert_eq!(got, ["https://example.org/e1", "https://example.org/blog/e2"]);
    }

    #[test]
    fn pages_announce_their_feeds() {
        let html = r#"<html><head><link rel="alternate" type="application/rss+xml" href="/feed">
            <link rel="alternate" type="application/atom+xml" href="atom.xml">
            <link rel="alternate" hreflang="fr" href="/fr/"><link rel="stylesheet" href="/s.css">
            </head><body>x</body></html>"#;
        let doc = gleaner::Document::parse(html.as_bytes(), &Default::default()).expect("parse");
        let got: Vec<String> = page_feeds(&doc, &base()).iter().map(|u| u.to_string()).collect();
        assert_eq!(got, ["https://example.org/feed", "https://example.org/blog/atom.xml"]);
    }
}
