//! Page-level facts: what the page's URL, its declared types and its
//! structure say about what kind of page it is. They are the page-type
//! classifier's features, and every block of the page carries them, so
//! the block model can learn per-type decisions (issue 30).

use markup5ever::local_name;

use super::blocks::Blocks;
use super::text::TextFacts;
use crate::document::{Document, NodeFlags};
use crate::metadata::Metadata;

/// Words of URL path segments, by what they suggest. A segment matches a
/// word when it equals it or starts with it and a `-`, `_` or `.`.
#[rustfmt::skip]
const URL_CUES: &[(&str, &[&str])] = &[
    ("url_product", &["product", "products", "p", "dp", "item", "items", "pd", "buy", "sku", "gp"]),
    ("url_collection", &["collections", "collection", "category", "categories", "c", "catalog", "catalogue", "shop", "store", "browse", "department", "brands", "brand", "all"]),
    ("url_forum", &["forum", "forums", "thread", "threads", "t", "topic", "topics", "community", "discussion", "discussions", "questions", "q", "answers", "r", "comments", "board", "boards", "viewtopic", "showthread"]),
    ("url_docs", &["docs", "doc", "documentation", "guide", "guides", "api", "reference", "manual", "learn", "tutorial", "tutorials", "kb", "help", "wiki", "handbook", "developer", "developers", "sdk", "library"]),
    ("url_article", &["blog", "blogs", "news", "article", "articles", "story", "stories", "post", "posts", "insights", "magazine", "opinion", "features"]),
    ("url_listing", &["tag", "tags", "search", "archive", "archives", "page", "list", "lists", "listing", "listings", "directory", "jobs", "events", "results", "author", "authors", "latest", "index"]),
    ("url_service", &["service", "services", "pricing", "about", "contact", "solutions", "features", "platform", "company", "careers", "why", "enterprise", "plans", "industries", "use-cases", "customers"]),
];

/// Schema.org types, by what they suggest.
#[rustfmt::skip]
const SCHEMA_CUES: &[(&str, &[&str])] = &[
    ("ld_article", &["Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "AnalysisNewsArticle", "OpinionNewsArticle", "LiveBlogPosting", "ScholarlyArticle", "Report"]),
    ("ld_product", &["Product", "Offer", "AggregateOffer", "ProductGroup", "IndividualProduct", "Vehicle", "Book", "SoftwareApplication", "MobileApplication"]),
    ("ld_forum", &["DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment", "SocialMediaPosting"]),
    ("ld_list", &["ItemList", "CollectionPage", "SearchResultsPage", "OfferCatalog", "ProfilePage"]),
    ("ld_docs", &["TechArticle", "APIReference", "HowTo", "Course", "LearningResource"]),
    ("ld_service", &["Service", "LocalBusiness", "ProfessionalService", "FinancialProduct", "MedicalBusiness", "Store", "Restaurant", "Event", "JobPosting", "Place"]),
    ("ld_faq", &["FAQPage"]),
    ("ld_org", &["Organization", "Corporation", "WebSite", "WebPage", "AboutPage", "ContactPage"]),
    ("ld_review", &["Review", "AggregateRating", "Recipe"]),
    ("ld_breadcrumb", &["BreadcrumbList"]),
];

/// The names of the page features, in row order.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = URL_CUES.iter().map(|(n, _)| n.to_string()).collect();
    names.extend(
        ["url_depth", "url_numeric_segment", "url_slug_words", "url_query", "url_date_segment"]
            .map(String::from),
    );
    names.extend(SCHEMA_CUES.iter().map(|(n, _)| n.to_string()));
    names.extend(
        [
            "og_article",
            "og_product",
            "og_website",
            "page_log_chars",
            "page_link_density",
            "page_log_blocks",
            "page_h1",
            "page_h2",
            "page_h3",
            "page_pre_share",
            "page_forms",
            "page_buttons",
            "page_inputs",
            "page_articles",
            "page_times",
            "page_images",
            "page_list_items",
            "page_table_cells",
            "page_prices",
            "page_cart_phrases",
            "page_reply_phrases",
            "page_dates",
            "page_heading_share",
            "page_mean_block_words",
            "page_max_repeat",
            "page_repeat_share",
            "page_sentence_blocks",
            "page_selected_share",
        ]
        .map(String::from),
    );
    names
}

/// Does a path segment match one of `words`?
fn segment_matches(segment: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        segment == *w
            || segment
                .strip_prefix(w)
                .is_some_and(|rest| rest.starts_with(['-', '_', '.']) && w.len() > 2)
    })
}

/// The URL features: which cue words the path has, its depth, a numeric
/// segment, the words of its longest slug, a query, a date segment.
fn url_features(url: Option<&str>, out: &mut Vec<f32>) {
    let parsed = url.and_then(|u| url::Url::parse(u.trim()).ok());
    let path = parsed.as_ref().map(|u| u.path().to_ascii_lowercase()).unwrap_or_default();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    for (_, words) in URL_CUES {
        out.push(f32::from(u8::from(segments.iter().any(|s| segment_matches(s, words)))));
    }
    out.push(segments.len() as f32);
    out.push(f32::from(u8::from(
        segments.iter().any(|s| s.len() >= 3 && s.bytes().all(|b| b.is_ascii_digit())),
    )));
    let slug = segments.iter().map(|s| s.split(['-', '_']).count()).max().unwrap_or(0);
    out.push(slug as f32);
    out.push(f32::from(u8::from(parsed.as_ref().is_some_and(|u| u.query().is_some()))));
    out.push(f32::from(u8::from(
        segments
            .iter()
            .any(|s| s.len() == 4 && s.starts_with("20") && s.bytes().all(|b| b.is_ascii_digit())),
    )));
}

/// Counts of elements the page types differ in, read in one pass.
#[derive(Default)]
struct ElementCounts {
    h1: u32,
    h2: u32,
    h3: u32,
    pre_chars: u32,
    forms: u32,
    buttons: u32,
    inputs: u32,
    articles: u32,
    times: u32,
    images: u32,
    list_items: u32,
    table_cells: u32,
}

fn element_counts(doc: &Document) -> ElementCounts {
    let mut c = ElementCounts::default();
    for id in doc.ids() {
        let Some(name) = doc.name(id) else { continue };
        match *name {
            local_name!("h1") => c.h1 += 1,
            local_name!("h2") => c.h2 += 1,
            local_name!("h3") => c.h3 += 1,
            local_name!("pre") => {
                let s = doc.stats(id);
                if s.flags.contains(NodeFlags::VISIBLE) {
                    c.pre_chars += s.chars;
                }
            }
            local_name!("form") => c.forms += 1,
            local_name!("button") => c.buttons += 1,
            local_name!("input") | local_name!("select") | local_name!("textarea") => {
                c.inputs += 1;
            }
            local_name!("article") => c.articles += 1,
            local_name!("time") => c.times += 1,
            local_name!("img") | local_name!("picture") => c.images += 1,
            local_name!("li") => c.list_items += 1,
            local_name!("td") | local_name!("th") => c.table_cells += 1,
            _ => {}
        }
    }
    c
}

/// What the blocks' structure says: the largest group of blocks sharing
/// an owner shape, and the share of text in groups of four or more.
pub struct Repetition {
    /// Per block, how many blocks of the page share its shape.
    pub counts: Vec<u32>,
    /// Per block, the share of the page's characters in blocks of its
    /// shape.
    pub char_shares: Vec<f32>,
    /// Per block, its shape's rank by characters: 0 for the shape holding
    /// the most (ties broken by the shape's first block).
    pub ranks: Vec<u32>,
}

/// Per-page facts, computed once and copied into every block's row.
pub struct PageFacts {
    /// The feature values, in [`feature_names`] order.
    pub values: Vec<f32>,
}

/// Inputs of [`PageFacts::compute`] that other passes computed.
pub struct PageInputs<'a> {
    /// The page's metadata.
    pub metadata: &'a Metadata,
    /// The blocks.
    pub blocks: &'a Blocks,
    /// Each block's text facts.
    pub texts: &'a [TextFacts],
    /// The block shapes' repetition.
    pub repetition: &'a Repetition,
    /// Characters `article` selected.
    pub selected_chars: u32,
}

fn log1p(x: f32) -> f32 {
    x.ln_1p()
}

impl PageFacts {
    /// The page's features.
    pub fn compute(doc: &Document, inputs: &PageInputs<'_>) -> PageFacts {
        let mut v = Vec::with_capacity(64);
        let url = doc.url().map(str::to_string).or_else(|| inputs.metadata.url.clone());
        url_features(url.as_deref(), &mut v);
        let types = &inputs.metadata.schema_types;
        for (_, names) in SCHEMA_CUES {
            let n =
                types.iter().filter(|t| names.iter().any(|n| n.eq_ignore_ascii_case(t))).count();
            v.push(n as f32);
        }
        let og = inputs.metadata.page_type.as_deref().unwrap_or("").to_ascii_lowercase();
        v.push(f32::from(u8::from(og == "article")));
        v.push(f32::from(u8::from(og.starts_with("product") || og == "og:product")));
        v.push(f32::from(u8::from(og == "website")));
        let blocks = &inputs.blocks.blocks;
        let chars: u32 = blocks.iter().map(|b| b.chars).sum();
        let link_chars: u32 = blocks.iter().map(|b| b.link_chars).sum();
        let words: u32 = blocks.iter().map(|b| b.words).sum();
        let c = element_counts(doc);
        let per_k = |n: u32| n as f32 * 1000.0 / (chars.max(1) as f32);
        v.push(log1p(chars as f32));
        v.push(if chars == 0 { 0.0 } else { link_chars as f32 / chars as f32 });
        v.push(log1p(blocks.len() as f32));
        v.push(c.h1 as f32);
        v.push(c.h2 as f32);
        v.push(c.h3 as f32);
        v.push(if chars == 0 { 0.0 } else { c.pre_chars as f32 / chars as f32 });
        v.push(c.forms as f32);
        v.push(per_k(c.buttons));
        v.push(per_k(c.inputs));
        v.push(c.articles as f32);
        v.push(per_k(c.times));
        v.push(per_k(c.images));
        v.push(per_k(c.list_items));
        v.push(per_k(c.table_cells));
        let texts = inputs.texts;
        let sum = |f: fn(&TextFacts) -> u32| texts.iter().map(f).sum::<u32>();
        v.push(per_k(sum(|t| t.prices)));
        v.push(sum(|t| u32::from(t.phrases.contains(super::text::Phrase::Cart))) as f32);
        v.push(sum(|t| u32::from(t.phrases.contains(super::text::Phrase::Reply))) as f32);
        v.push(per_k(sum(|t| u32::from(t.phrases.contains(super::text::Phrase::Date)))));
        let heading_chars: u32 =
            blocks.iter().zip(texts).filter(|(_, t)| t.heading > 0).map(|(b, _)| b.chars).sum();
        v.push(if chars == 0 { 0.0 } else { heading_chars as f32 / chars as f32 });
        v.push(if blocks.is_empty() { 0.0 } else { words as f32 / blocks.len() as f32 });
        let rep = inputs.repetition;
        v.push(log1p(rep.counts.iter().copied().max().unwrap_or(0) as f32));
        let repeated_chars: u32 =
            blocks.iter().zip(&rep.counts).filter(|(_, &n)| n >= 4).map(|(b, _)| b.chars).sum();
        v.push(if chars == 0 { 0.0 } else { repeated_chars as f32 / chars as f32 });
        v.push(texts.iter().filter(|t| t.sentences >= 2).count() as f32);
        v.push(if chars == 0 { 0.0 } else { inputs.selected_chars as f32 / chars as f32 });
        PageFacts { values: v }
    }
}
