//! Metadata from `<meta>` elements: OpenGraph (`og:*`, `article:*`),
//! Twitter cards, Dublin Core (`dc.*`, `dcterms.*`), the HTML standard
//! names (`author`, `description`, `keywords`), the dating names news
//! sites use (`date`, `pubdate`, `parsely-pub-date`, …) and microdata
//! `itemprop` with a `content` attribute.
//!
//! References: The Open Graph protocol, <https://ogp.me/> (`og:*`, and the
//! `article` type's `article:published_time`, `article:author`,
//! `article:section`, `article:tag`); DCMI Metadata Terms (2020); WHATWG
//! HTML §4.2.5.1 "Standard metadata names".

use super::elements::MetadataElements;
use super::Metadata;
use crate::document::Document;

/// Keys of publication dates, best first.
const PUBLISHED: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "datepublished",
    "article:publicationdate",
    "date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "dc.date.issued",
    "dc.date",
    "dcterms.issued",
    "dcterms.date",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "parsely-pub-date",
    "sailthru.date",
];

/// Keys of modification dates, used when no publication date is given.
const MODIFIED: &[&str] =
    &["article:modified_time", "og:updated_time", "datemodified", "last-modified"];

/// Every `<meta>` of the page as (key, content): the key is the
/// `property`, `name`, `itemprop` or `http-equiv` attribute, lowercased.
pub(super) struct MetaTags {
    pairs: Vec<(String, String)>,
}

impl MetaTags {
    pub(super) fn read(doc: &Document, elements: &MetadataElements) -> MetaTags {
        let mut pairs = Vec::new();
        for id in elements.metas(doc) {
            let Some(content) = doc.attr(id, "content").map(super::collapse) else { continue };
            if content.is_empty() {
                continue;
            }
            for attr in ["property", "name", "itemprop", "http-equiv"] {
                if let Some(key) = doc.attr(id, attr) {
                    // `property` may hold several space-separated names
                    // (RDFa).
                    for key in key.split_whitespace() {
                        pairs.push((key.to_ascii_lowercase(), content.clone()));
                    }
                }
            }
        }
        MetaTags { pairs }
    }

    /// The content of the first `<meta>` with one of `keys`, in the order
    /// of `keys`.
    pub(super) fn first(&self, keys: &[&str]) -> Option<String> {
        keys.iter()
            .find_map(|k| self.pairs.iter().find(|(key, _)| key == k))
            .map(|(_, c)| c.clone())
    }

    /// The first of `keys` whose value passes `ok`.
    fn first_where(&self, keys: &[&str], ok: impl Fn(&str) -> bool) -> Option<String> {
        keys.iter()
            .find_map(|k| self.pairs.iter().find(|(key, c)| key == k && ok(c)))
            .map(|(_, c)| c.clone())
    }

    /// The author a Twitter card's label and data pair gives
    /// (`twitter:label1` `Written by`, `twitter:data1` `Tyler Brown`, as
    /// Yoast SEO and others write them), unless it is the blog's default
    /// account (`admin`), which Yoast writes where no byline names one.
    fn labelled_author(&self) -> Option<String> {
        (1..=4).find_map(|n| {
            let label = self.first(&[&format!("twitter:label{n}")])?;
            let label = label.trim_end_matches(':').trim().to_lowercase();
            if !matches!(label.as_str(), "written by" | "author" | "by" | "posted by") {
                return None;
            }
            self.first(&[&format!("twitter:data{n}")]).filter(|c| {
                let name = super::trim_name(c);
                !super::looks_like_url(c) && !name.is_empty() && !super::is_default_account(name)
            })
        })
    }

    /// The contents of every `<meta>` with one of `keys`.
    fn all(&self, keys: &[&str]) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| keys.contains(&k.as_str()))
            .map(|(_, c)| c.clone())
            .collect()
    }

    /// The page's metadata as its `<meta>` elements state it.
    pub(super) fn metadata(&self) -> Metadata {
        let author = self
            .first_where(
                &[
                    "author",
                    "article:author",
                    "og:article:author",
                    "dc.creator",
                    "dcterms.creator",
                    "citation_author",
                    "parsely-author",
                    "sailthru.author",
                    "byl",
                    "book:author",
                ],
                |c| !super::looks_like_url(c) && !super::trim_name(c).is_empty(),
            )
            .or_else(|| self.labelled_author())
            .map(|c| super::trim_name(&c).to_string());
        let date = self.date(PUBLISHED);
        let split = |s: String| -> Vec<String> { s.split(',').map(super::collapse).collect() };
        let mut tags: Vec<String> = self.all(&["article:tag", "og:article:tag", "book:tag"]);
        if tags.is_empty() {
            tags = self
                .all(&["keywords", "news_keywords", "parsely-tags"])
                .into_iter()
                .flat_map(split)
                .collect();
        } else if tags.len() == 1 {
            tags = tags.into_iter().flat_map(split).collect();
        }
        Metadata {
            title: self.first(&["og:title", "twitter:title", "dc.title", "citation_title"]),
            author,
            date,
            site_name: self.first(&[
                "og:site_name",
                "application-name",
                "publisher",
                "dc.publisher",
            ]),
            language: self.first(&[
                "content-language",
                "language",
                "dc.language",
                "dcterms.language",
                "og:locale",
            ]),
            url: self.first(&["og:url", "twitter:url"]),
            description: self.first(&[
                "og:description",
                "description",
                "twitter:description",
                "dc.description",
            ]),
            image: self.first(&[
                "og:image",
                "og:image:url",
                "og:image:secure_url",
                "twitter:image",
                "twitter:image:src",
            ]),
            categories: super::unique_nonempty(self.all(&[
                "article:section",
                "og:article:section",
                "category",
                "parsely-section",
            ])),
            tags: super::unique_nonempty(tags),
            page_type: self.first(&["og:type"]),
            schema_types: Vec::new(),
            stated_title: None,
            unheaded_title: None,
            product_description: None,
            product_price: None,
        }
    }

    /// The modification date: the metadata uses it only when the page
    /// states no publication date (issue 30).
    pub(super) fn modified(&self) -> Option<String> {
        self.date(MODIFIED)
    }

    /// The first value that reads as a date, by key preference (a page
    /// may carry a modification date before its publication date).
    fn date(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| {
            self.pairs
                .iter()
                .filter(|(key, _)| key == k)
                .find_map(|(_, c)| super::normalise_date(c))
        })
    }
}
