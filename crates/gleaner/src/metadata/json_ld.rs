//! Metadata from JSON-LD (`<script type="application/ld+json">`), the
//! schema.org vocabulary most news sites and blogs embed.
//!
//! The script bodies are not in the DOM (the tree builder never sees
//! them, see [`document`](crate::document)), so they are read from the
//! source tokens. Each script may hold one object, an array of objects, or
//! an object with an `@graph` array (JSON-LD 1.1 §4.9); every object with
//! an `@type` is a node. The article node is the first whose type is a
//! kind of `Article` or a `WebPage`/`CreativeWork` (schema.org's type
//! hierarchy); `author` and `publisher` may be names, objects, arrays or
//! `{"@id": …}` references to other nodes of the graph.
//!
//! References: JSON-LD 1.1 (W3C Recommendation, 2020),
//! <https://www.w3.org/TR/json-ld11/>; schema.org `Article`,
//! <https://schema.org/Article>.

use markup5ever::local_name;
use serde_json::Value;

use super::Metadata;
use crate::document::Document;

/// The schema.org types taken as the page's article, best first.
pub(super) const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "ReportageNewsArticle",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReviewNewsArticle",
    "BackgroundNewsArticle",
    "TechArticle",
    "ScholarlyArticle",
    "SocialMediaPosting",
    "LiveBlogPosting",
    "Report",
    "Review",
    "Recipe",
];

/// Types of a thread's opening post, whose author is the thread's (read
/// for the author alone: they are not articles to the page's type).
const THREAD_TYPES: &[&str] = &["DiscussionForumPosting", "Question"];

/// Types that describe the page without being an article.
const PAGE_TYPES: &[&str] =
    &["WebPage", "ItemPage", "AboutPage", "FAQPage", "QAPage", "CreativeWork", "VideoObject"];

/// Most nodes read from one page: a page's JSON-LD is small; a huge one
/// is data, not metadata.
const MAX_NODES: usize = 1000;

/// The JSON-LD nodes of `doc`, in source order, each script's `@graph`
/// flattened.
pub(super) fn nodes(doc: &Document) -> Vec<Value> {
    let source = doc.source();
    let tokens = source.tokens();
    let mut out = Vec::new();
    // A script's body is the raw text token right after its start tag:
    // the raw text tokens (scripts and styles, a few per page) are found
    // first, each asked about the tag before it, so that most tokens cost
    // one test of their kind (issue 12).
    for (i, body) in tokens.iter().enumerate() {
        if !body.is_raw_text() {
            continue;
        }
        let Some(tag) = i.checked_sub(1).and_then(|before| tokens.get(before)) else {
            continue;
        };
        if source.start_tag_name(tag) != Some(&local_name!("script")) {
            continue;
        }
        if !says_ld_json(source.token_text(tag).as_bytes()) {
            continue;
        }
        // Some pages wrap the JSON in a CDATA section or an HTML comment.
        let text = source
            .token_text(body)
            .trim()
            .trim_start_matches("<!--")
            .trim_start_matches("//<![CDATA[")
            .trim_end_matches("-->")
            .trim_end_matches("//]]>")
            .trim();
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            flatten(value, &mut out);
        }
        if out.len() >= MAX_NODES {
            out.truncate(MAX_NODES);
            break;
        }
    }
    out
}

/// Does a tag hold `ld+json`, in any case? Looked for at each `+` (a
/// script tag seldom has one), without a lower-cased copy of the tag.
fn says_ld_json(tag: &[u8]) -> bool {
    memchr::memchr_iter(b'+', tag).any(|plus| {
        plus >= 2 && tag.get(plus - 2..plus + 5).is_some_and(|w| w.eq_ignore_ascii_case(b"ld+json"))
    })
}

/// Pushes every object of `value` (an object, an array, an `@graph`).
fn flatten(value: Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => {
            for item in items.into_iter().take(MAX_NODES) {
                flatten(item, out);
            }
        }
        Value::Object(mut map) => {
            if let Some(graph) = map.remove("@graph") {
                flatten(graph, out);
            }
            if map.contains_key("@type") {
                out.push(Value::Object(map));
            }
        }
        _ => {}
    }
}

/// Does node `v` have schema.org type `name` (`@type` may be an array,
/// and may carry a prefix such as `schema:`)?
fn has_type(v: &Value, names: &[&str]) -> bool {
    let matches = |t: &Value| {
        t.as_str().is_some_and(|t| {
            let t = t.rsplit([':', '/']).next().unwrap_or(t);
            names.iter().any(|n| n.eq_ignore_ascii_case(t))
        })
    };
    match v.get("@type") {
        Some(Value::Array(types)) => types.iter().any(matches),
        Some(t) => matches(t),
        None => false,
    }
}

/// The page's metadata as its JSON-LD states it.
pub(super) fn metadata(nodes: &[Value]) -> Metadata {
    let article = article(nodes);
    let website = nodes.iter().find(|n| has_type(n, &["WebSite"]));
    let mut meta = Metadata::default();
    if let Some(a) = article {
        meta.title = string(a, "headline").or_else(|| string(a, "name"));
        meta.author = people(a.get("author"), nodes, false);
        meta.date = ["datePublished", "dateCreated", "uploadDate"]
            .iter()
            .find_map(|k| string(a, k).and_then(|d| super::normalise_date(&d)));
        meta.description = string(a, "description");
        meta.image = a.get("image").and_then(|i| url_of(i, nodes));
        meta.url = a
            .get("url")
            .and_then(|u| url_of(u, nodes))
            .or_else(|| a.get("mainEntityOfPage").and_then(|u| url_of(u, nodes)));
        meta.language = a.get("inLanguage").and_then(|l| url_of(l, nodes));
        meta.categories = list(a.get("articleSection"));
        meta.tags = list(a.get("keywords"));
        meta.site_name = a.get("publisher").and_then(|p| name_of(p, nodes));
        meta.page_type = a
            .get("@type")
            .and_then(|t| t.as_str().or_else(|| t.get(0).and_then(Value::as_str)))
            .map(str::to_string);
    }
    // A page node's main entity — a forum thread's
    // `DiscussionForumPosting`, a Q&A page's `Question` — says who started
    // it, where the page node does not (XenForo's threads: the markup's
    // first author is the first reply's). Nothing else is read from it:
    // the page's type and title stay the page node's, and its date, in UTC
    // where the page's markup gives the local time, moved the day of as
    // many WCXB-dev threads as it set right.
    let entity = article
        .filter(|a| has_type(a, PAGE_TYPES))
        .and_then(|a| a.get("mainEntity"))
        .filter(|e| e.is_object())
        .or_else(|| nodes.iter().find(|n| has_type(n, THREAD_TYPES)));
    if let Some(entity) = entity {
        meta.author = meta.author.or_else(|| people(entity.get("author"), nodes, false));
    }
    if let Some(site) = website {
        meta.site_name = meta.site_name.or_else(|| string(site, "name"));
        meta.language = meta.language.or_else(|| string(site, "inLanguage"));
    }
    meta
}

/// schema.org's product types.
const PRODUCT_TYPES: &[&str] = &["Product", "ProductGroup", "IndividualProduct", "ProductModel"];

/// The most characters of a product description read.
const MAX_DESCRIPTION_CHARS: usize = 64 * 1024;

/// The `description` of the first product node that has one, as
/// paragraphs: HTML a shop left in it (`<p>`, `<br>`, `<li>`, headings)
/// becomes paragraph breaks, other tags are dropped, references decoded.
pub(super) fn product_description(nodes: &[Value]) -> Option<String> {
    let raw = nodes
        .iter()
        .filter(|n| has_type(n, PRODUCT_TYPES))
        .find_map(|n| n.get("description").and_then(Value::as_str))?;
    let raw = match raw.char_indices().nth(MAX_DESCRIPTION_CHARS) {
        Some((cut, _)) => &raw[..cut],
        None => raw,
    };
    let paragraphs: Vec<String> =
        markup_paragraphs(raw).iter().map(|p| text(p)).filter(|p| !p.is_empty()).collect();
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// Most offers of a product read for its price.
const MAX_OFFERS: usize = 16;

/// The price of the first product node whose offers state one, as
/// written: an offer's `price`, an aggregate offer's `lowPrice`, or its
/// price specification's `price` (`"89.00"`, `1099.99`).
pub(super) fn product_price(nodes: &[Value]) -> Option<String> {
    nodes.iter().filter(|n| has_type(n, PRODUCT_TYPES)).find_map(|n| offer_price(n.get("offers")?))
}

/// The price an offer (or the first of a list of offers) states.
fn offer_price(offers: &Value) -> Option<String> {
    match offers {
        Value::Array(list) => list.iter().take(MAX_OFFERS).find_map(offer_price),
        Value::Object(_) => ["price", "lowPrice"]
            .iter()
            .find_map(|key| price_value(offers.get(key)?))
            .or_else(|| match offers.get("priceSpecification")? {
                spec @ (Value::Object(_) | Value::Array(_)) => offer_price(spec),
                _ => None,
            }),
        _ => None,
    }
}

/// A price property: a number, or a non-empty string.
fn price_value(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        _ => None,
    }
}

/// `raw` cut into paragraphs at block tags and line breaks, every tag
/// dropped.
fn markup_paragraphs(raw: &str) -> Vec<String> {
    const BLOCKS: &[&str] =
        &["p", "br", "li", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "tr", "table"];
    let mut out = vec![String::new()];
    let mut rest = raw;
    while let Some(open) = rest.find('<') {
        let (before, tag) = rest.split_at(open);
        push_lines(&mut out, before);
        let Some(close) = tag.find('>') else {
            // A lone `<` is text.
            push_lines(&mut out, tag);
            rest = "";
            break;
        };
        let name: String = tag[1..close]
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if name.is_empty() {
            // `<` not opening a tag (`a < b`): text.
            push_lines(&mut out, &tag[..1]);
            rest = &tag[1..];
            continue;
        }
        if BLOCKS.contains(&name.as_str()) {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push(' ');
        }
        rest = &tag[close + 1..];
    }
    push_lines(&mut out, rest);
    out
}

/// Appends `text` to the last paragraph, a new paragraph at each line
/// break.
fn push_lines(out: &mut Vec<String>, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push_str(line);
        }
    }
}

/// The page's article node: the first of an [`ARTICLE_TYPES`] type, else
/// of a [`PAGE_TYPES`] type.
fn article(nodes: &[Value]) -> Option<&Value> {
    nodes
        .iter()
        .find(|n| has_type(n, ARTICLE_TYPES))
        .or_else(|| nodes.iter().find(|n| has_type(n, PAGE_TYPES)))
}

/// The article node's `dateModified`: a date the metadata uses only when
/// the page states no publication date (issue 30).
pub(super) fn modified(nodes: &[Value]) -> Option<String> {
    article(nodes).and_then(|a| string(a, "dateModified")).and_then(|d| super::normalise_date(&d))
}

/// The article's authors that are organisations (`@type`
/// `Organization` and its kinds), which [`metadata`] leaves out of
/// `author`: a name to fall back on when the page names no person
/// (issue 30: WCXB's gold author is the person in the byline where the
/// JSON-LD names the publisher).
pub(super) fn organisation_authors(nodes: &[Value]) -> Option<String> {
    people(article(nodes)?.get("author"), nodes, true)
}

/// Every `@type` of the nodes (a prefix such as `schema:` or a URL cut
/// off), each once, in order of first appearance, at most `max`.
pub(super) fn types(nodes: &[Value], max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: &Value| {
        if let Some(t) = t.as_str() {
            let t = t.rsplit([':', '/']).next().unwrap_or(t).trim();
            if !t.is_empty() && out.len() < max && !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
    };
    for n in nodes {
        match n.get("@type") {
            Some(Value::Array(ts)) => ts.iter().for_each(&mut push),
            Some(t) => push(t),
            None => {}
        }
    }
    out
}

/// The `headline` (else `name`) of every article node, in order.
pub(super) fn headlines(nodes: &[Value]) -> Vec<String> {
    nodes
        .iter()
        .filter(|n| has_type(n, ARTICLE_TYPES))
        .filter_map(|a| raw_string(a, "headline").or_else(|| raw_string(a, "name")))
        .collect()
}

/// A non-empty string property, whitespace collapsed, references left as
/// they are: the headlines the extractor's title match compares, kept as
/// before issue 30 so that the metadata's decoding does not move the
/// extracted text.
fn raw_string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(super::collapse).filter(|s| !s.is_empty())
}

/// A non-empty string property, whitespace collapsed, character
/// references decoded (issue 30: `"name": "Maria &amp; Katerina"`, the
/// HTML escaping of a CMS left in the JSON).
fn string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(text).filter(|s| !s.is_empty())
}

/// A JSON string as text: references decoded when it has any,
/// whitespace collapsed.
fn text(s: &str) -> String {
    if s.contains('&') {
        super::collapse(&crate::document::decode_entities(s))
    } else {
        super::collapse(s)
    }
}

/// Organisation types among schema.org's (`Organization` and the kinds
/// pages use as authors).
const ORGANISATION_TYPES: &[&str] = &[
    "Organization",
    "NewsMediaOrganization",
    "Corporation",
    "LocalBusiness",
    "EducationalOrganization",
    "GovernmentOrganization",
    "NGO",
    "MedicalOrganization",
    "OnlineBusiness",
];

/// The node `{"@id": id}` refers to, or `v` itself.
fn resolve<'a>(v: &'a Value, nodes: &'a [Value]) -> &'a Value {
    let Some(id) = v.get("@id").and_then(Value::as_str) else { return v };
    if v.as_object().is_some_and(|o| o.len() > 1) {
        return v;
    }
    nodes.iter().find(|n| n.get("@id").and_then(Value::as_str) == Some(id)).unwrap_or(v)
}

/// A person's or organisation's name: a string, `{"name": …}`,
/// `givenName` + `familyName`, or a reference to such a node.
fn name_of(v: &Value, nodes: &[Value]) -> Option<String> {
    if let Some(s) = v.as_str() {
        let s = text(s);
        return (!s.is_empty() && !super::looks_like_url(&s)).then_some(s);
    }
    let v = resolve(v, nodes);
    string(v, "name").or_else(|| {
        let given = string(v, "givenName")?;
        Some(match string(v, "familyName") {
            Some(family) => format!("{given} {family}"),
            None => given,
        })
    })
}

/// The names of `author` (one or an array) that are organisations'
/// (`organisations`) or not, each trimmed of stray punctuation
/// (`", USA TODAY"`), joined with `; ` as trafilatura does.
fn people(v: Option<&Value>, nodes: &[Value], organisations: bool) -> Option<String> {
    let items: Vec<&Value> = match v? {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let names = items
        .into_iter()
        .filter(|p| has_type(resolve(p, nodes), ORGANISATION_TYPES) == organisations)
        .filter_map(|p| name_of(p, nodes));
    let mut unique: Vec<String> = Vec::new();
    for n in names {
        let n = super::trim_name(&n).to_string();
        if !n.is_empty() && !unique.contains(&n) {
            unique.push(n);
        }
    }
    (!unique.is_empty()).then(|| unique.join("; "))
}

/// A URL (or other string) given as a string, `{"url": …}`, `{"@id": …}`,
/// an `ImageObject`, or the first of an array.
fn url_of(v: &Value, nodes: &[Value]) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Array(items) => items.iter().find_map(|i| url_of(i, nodes)),
        Value::Object(_) => {
            let v = resolve(v, nodes);
            ["url", "contentUrl", "@id", "name", "alternateName"]
                .iter()
                .find_map(|k| v.get(*k).and_then(Value::as_str))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        }
        _ => None,
    }
}

/// A list property: an array of strings, or one string of
/// comma-separated items.
fn list(v: Option<&Value>) -> Vec<String> {
    let items: Vec<String> = match v {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(text).collect(),
        Some(Value::String(s)) => text(s).split(',').map(super::collapse).collect(),
        _ => Vec::new(),
    };
    super::unique_nonempty(items)
}

#[cfg(test)]
mod tests {
    use super::{product_price, says_ld_json};
    use serde_json::json;

    #[test]
    fn a_products_price_from_its_offers() {
        let offer = json!({"@type": "Product", "name": "Kettle",
            "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "GBP"}});
        assert_eq!(product_price(&[offer]).as_deref(), Some("89.00"));
        let listed = json!({"@type": ["Product"], "offers": [
            {"@type": "Offer", "availability": "InStock"}, {"@type": "Offer", "price": 1099.99}]});
        assert_eq!(product_price(&[listed]).as_deref(), Some("1099.99"));
        let aggregate = json!({"@type": "ProductGroup",
            "offers": {"@type": "AggregateOffer", "lowPrice": "35", "highPrice": "40"}});
        assert_eq!(product_price(&[aggregate]).as_deref(), Some("35"));
        let specified = json!({"@type": "Product",
            "offers": {"priceSpecification": [{"price": "12.50", "priceCurrency": "EUR"}]}});
        assert_eq!(product_price(&[specified]).as_deref(), Some("12.50"));
        // Not a product, or no price stated.
        let article = json!({"@type": "Article", "offers": {"price": "5"}});
        let empty = json!({"@type": "Product", "offers": {"price": " "}});
        assert_eq!(product_price(&[article, empty]), None);
    }

    #[test]
    fn finds_ld_json_in_any_case() {
        assert!(says_ld_json(b"<script type=\"application/ld+json\">"));
        assert!(says_ld_json(b"<SCRIPT TYPE='APPLICATION/LD+JSON'>"));
        assert!(!says_ld_json(b"<script src=\"/a+b.js\">"));
        assert!(!says_ld_json(b"+json"));
        assert!(!says_ld_json(b"ld+jso"));
    }
}
