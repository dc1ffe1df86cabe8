//! One page through gleaner-batch's [`Job`]: the options a request
//! gives, the page (HTML given, or a URL fetched), and the response — the
//! record the CLI writes, plus the other formats asked for, warnings and
//! timings. The work runs on tokio's blocking pool, never on the async
//! runtime's threads.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gleaner::extract::{Extraction, Extractor, Params};
use gleaner::metadata::Metadata;
use gleaner::{Document, ParseOptions, Selection};
use gleaner_batch::{Job, OutputFormat, Page, Record};
use gleaner_crawl::{Fetched, Url};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::css::SelectorList;
use crate::error::ApiError;
use crate::State;

/// An output format a request asks for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Plain text: the record's `text` (always there).
    Text,
    /// Markdown: the response's `markdown`.
    Markdown,
    /// A clean HTML fragment: the response's `html`.
    Html,
    /// The JSON record itself (always there).
    Json,
}

pub use gleaner_batch::{Favor, ParamValue};

/// `POST /v1/extract`'s JSON body (and one line of `POST /v1/batch`).
/// Exactly one of `html` and `url`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtractRequest {
    /// The page's HTML.
    #[serde(default)]
    pub html: Option<String>,
    /// A URL to fetch (servers started with `--allow-fetch` only).
    #[serde(default)]
    pub url: Option<String>,
    /// The page's URL when `html` is given: the base of its relative
    /// links and the record's `url`.
    #[serde(default)]
    pub base_url: Option<String>,
    /// Outputs: `text` and `json` (the record, always), `markdown`,
    /// `html`. Default `["text", "markdown"]`.
    #[serde(default)]
    pub formats: Option<Vec<Format>>,
    /// The algorithm (`GET /v1/algorithms`); default: the best available.
    #[serde(default)]
    pub algorithm: Option<String>,
    /// The algorithm's parameters by name.
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
    /// `precision`, `balanced` (default) or `recall`.
    #[serde(default)]
    pub favor: Favor,
    /// Extract the comment section apart, into the record's `comments`.
    #[serde(default)]
    pub comments: bool,
    /// Keep hyperlinks in Markdown and HTML.
    #[serde(default)]
    pub links: bool,
    /// Keep images in Markdown and HTML.
    #[serde(default)]
    pub images: bool,
    /// A template id from `POST /v1/templates`: its template text is set
    /// aside before extraction.
    #[serde(default)]
    pub template: Option<String>,
    /// Extract as for this page type instead of the classifier's guess
    /// (the learned extractor only).
    #[serde(default)]
    pub page_type: Option<String>,
    /// Open Markdown with a metadata header (front matter).
    #[serde(default)]
    pub with_metadata: bool,
    /// Most time the page may take, in milliseconds (at most the
    /// server's `--time-budget-ms`).
    #[serde(default)]
    pub time_budget_ms: Option<u64>,
    /// Any value, echoed back as the response's `id` (to match batch
    /// lines).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub id: Option<serde_json::Value>,
}

/// Options given as query parameters with a raw `text/html` body.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ExtractQuery {
    /// The page's URL (base of its links).
    pub base_url: Option<String>,
    /// Comma-separated formats: `text,markdown,html,json`.
    pub formats: Option<String>,
    /// The algorithm.
    pub algorithm: Option<String>,
    /// Comma-separated `key=value` parameters.
    pub params: Option<String>,
    /// `precision`, `balanced` or `recall`.
    pub favor: Option<Favor>,
    /// Extract comments apart.
    pub comments: Option<bool>,
    /// Keep links.
    pub links: Option<bool>,
    /// Keep images.
    pub images: Option<bool>,
    /// A template id.
    pub template: Option<String>,
    /// A forced page type.
    pub page_type: Option<String>,
    /// Metadata header in Markdown.
    pub with_metadata: Option<bool>,
    /// Time budget in milliseconds.
    pub time_budget_ms: Option<u64>,
}

impl ExtractQuery {
    /// The request these options and `html` make.
    ///
    /// # Errors
    /// A malformed format or parameter list.
    pub fn into_request(self, html: String) -> Result<ExtractRequest, ApiError> {
        let formats = match self.formats {
            None => None,
            Some(list) => Some(
                list.split(',')
                    .filter(|f| !f.trim().is_empty())
                    .map(|f| {
                        serde_json::from_value(serde_json::Value::String(f.trim().to_string()))
                            .map_err(|_| ApiError::BadRequest(format!("unknown format {f:?}")))
                    })
                    .collect::<Result<Vec<Format>, _>>()?,
            ),
        };
        let mut params = BTreeMap::new();
        for pair in self.params.iter().flat_map(|p| p.split(',')).filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').ok_or_else(|| {
                ApiError::BadRequest(format!("params: {pair:?} is not key=value"))
            })?;
            params.insert(k.trim().to_string(), ParamValue::Text(v.trim().to_string()));
        }
        Ok(ExtractRequest {
            html: Some(html),
            base_url: self.base_url,
            formats,
            algorithm: self.algorithm,
            params,
            favor: self.favor.unwrap_or_default(),
            comments: self.comments.unwrap_or(false),
            links: self.links.unwrap_or(false),
            images: self.images.unwrap_or(false),
            template: self.template,
            page_type: self.page_type,
            with_metadata: self.with_metadata.unwrap_or(false),
            time_budget_ms: self.time_budget_ms,
            ..ExtractRequest::default()
        })
    }
}

/// What narrows the extraction beyond the algorithm: the shims' CSS
/// selectors and Firecrawl's `onlyMainContent: false`.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Keep only what is inside elements matching this (Firecrawl's
    /// `includeTags`, Jina's `X-Target-Selector`).
    pub include: Option<SelectorList>,
    /// Drop what is inside elements matching this (`excludeTags`,
    /// `X-Remove-Selector`).
    pub exclude: Option<SelectorList>,
    /// Start from the whole page rather than the main content.
    pub whole_page: bool,
}

impl Scope {
    fn is_empty(&self) -> bool {
        self.include.is_none() && self.exclude.is_none() && !self.whole_page
    }
}

/// An extractor narrowed by a [`Scope`].
#[derive(Debug)]
struct Scoped {
    inner: Box<dyn Extractor>,
    scope: Scope,
}

impl Scoped {
    /// `selection` narrowed to the scope. With a target selector the
    /// matched elements are the content: the main content inside them,
    /// or all of them when the extractor kept nothing there.
    fn narrow(&self, doc: &Document, mut selection: Selection) -> Selection {
        if self.scope.whole_page {
            selection = Selection::subtree(doc, doc.body());
        }
        if let Some(include) = &self.scope.include {
            let mut inside = Selection::none(doc);
            for id in include.select(doc) {
                inside.select_subtree(doc, id);
            }
            let mut kept = Selection::none(doc);
            for id in selection.iter().filter(|&id| inside.contains(id)) {
                kept.set(id, true);
            }
            selection = if kept.count() > 0 { kept } else { inside };
        }
        if let Some(exclude) = &self.scope.exclude {
            for id in exclude.select(doc) {
                selection.deselect_subtree(doc, id);
            }
        }
        selection
    }

    /// `extraction` with its selection [narrowed](Scoped::narrow); the
    /// page's type is the inner extractor's.
    fn narrow_extraction(&self, doc: &Document, mut extraction: Extraction) -> Extraction {
        extraction.selection = self.narrow(doc, extraction.selection);
        extraction
    }
}

impl Extractor for Scoped {
    fn extract(&self, doc: &Document) -> Selection {
        self.narrow(doc, self.inner.extract(doc))
    }

    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        self.narrow_extraction(doc, self.inner.extract_typed_with(doc, metadata))
    }

    fn extract_classified_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        self.narrow_extraction(doc, self.inner.extract_classified_with(doc, metadata))
    }
}

/// Where the page comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// Given in the request.
    Html(Vec<u8>),
    /// To be fetched.
    Url(Url),
}

/// A request made ready: the job and the page.
pub struct PageSpec {
    /// The job that extracts it.
    pub job: Job,
    /// The page.
    pub source: Source,
    /// The page's URL when given with its HTML.
    pub base_url: Option<String>,
    /// The formats asked for.
    pub formats: Vec<Format>,
    /// Things the caller should know.
    pub warnings: Vec<String>,
    /// The request's `id`.
    pub id: Option<serde_json::Value>,
}

/// What became of a page.
#[derive(Debug)]
pub struct PageResult {
    /// The record.
    pub record: Record,
    /// The fetch, when the page was fetched (its body kept for `rawHtml`).
    pub fetched: Option<Fetched>,
    /// Time spent fetching.
    pub fetch_time: Duration,
    /// Time spent parsing and extracting.
    pub extract_time: Duration,
}

/// The algorithm, its parameters and the extractor a request asks for.
///
/// # Errors
/// An unknown algorithm, bad parameters, a preset or page type for an
/// algorithm that has none, an algorithm that needs a template without
/// one.
pub fn extractor_for(
    request: &ExtractRequest,
    templated: bool,
) -> Result<(&'static gleaner::extract::Algorithm, Params, Box<dyn Extractor>), ApiError> {
    // The options every front end shares, through the one spec
    // (gleaner_batch::JobSpec): algorithm, parameters, page type, preset.
    let spec = gleaner_batch::JobSpec {
        algorithm: request.algorithm.clone(),
        params: request.params.clone(),
        page_type: request.page_type.clone(),
        favor: request.favor,
        ..gleaner_batch::JobSpec::default()
    };
    let bad = |e: gleaner_batch::SpecError| ApiError::BadRequest(e.to_string());
    let (algorithm, params) = spec.algorithm_params().map_err(bad)?;
    if algorithm.capabilities.needs_template && !templated {
        return Err(ApiError::BadRequest(format!(
            "{} needs a template: learn one with POST /v1/templates and give its id as template",
            algorithm.name
        )));
    }
    let extractor = algorithm.build(&params).map_err(|e| bad(e.into()))?;
    Ok((algorithm, params, extractor))
}

/// The parse options a request gets: the server's page size limit and
/// the smaller of its and the server's time budget.
pub fn parse_options(state: &State, time_budget_ms: Option<u64>) -> ParseOptions {
    let most = state.config.time_budget;
    let budget = match time_budget_ms {
        Some(ms) => Duration::from_millis(ms).min(most),
        None => most,
    };
    ParseOptions::default().max_bytes(state.config.max_page_bytes).time_budget(Some(budget))
}

/// Makes `request` ready: checks it and builds its job.
///
/// # Errors
/// Neither or both of `html` and `url`, a URL this server does not fetch,
/// an unknown template, bad extractor options.
pub fn prepare(state: &State, request: ExtractRequest, scope: Scope) -> Result<PageSpec, ApiError> {
    let mut warnings = Vec::new();
    let source = match (&request.html, &request.url) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest("give html or url, not both".into()));
        }
        (None, None) => return Err(ApiError::BadRequest("give html or url".into())),
        (Some(html), None) => Source::Html(html.as_bytes().to_vec()),
        (None, Some(url)) => Source::Url(state.fetcher.check(url)?),
    };
    if let (Source::Url(_), Some(_)) = (&source, &request.base_url) {
        warnings.push("base_url is ignored for a fetched page: its URL is the base".to_string());
    }
    if let Some(base) = &request.base_url {
        match Url::parse(base) {
            Ok(u) if u.has_host() => {}
            _ => {
                return Err(ApiError::BadRequest(format!("base_url {base:?}: not an absolute URL")))
            }
        }
    }
    let template = match &request.template {
        None => None,
        Some(id) => Some(state.templates.get(id).ok_or_else(|| {
            ApiError::NotFound(format!("no template {id:?}: learn one with POST /v1/templates"))
        })?),
    };
    let (algorithm, _, extractor) = extractor_for(&request, template.is_some())?;
    // Selectors may test any attribute: the page keeps them all.
    let every_attribute = scope.include.is_some() || scope.exclude.is_some();
    let extractor: Box<dyn Extractor> =
        if scope.is_empty() { extractor } else { Box::new(Scoped { inner: extractor, scope }) };
    let formats = request.formats.clone().unwrap_or_else(|| vec![Format::Text, Format::Markdown]);
    if (request.links || request.images)
        && !formats.iter().any(|f| matches!(f, Format::Markdown | Format::Html))
    {
        warnings.push("links and images are kept in markdown and html only".to_string());
    }
    let render =
        gleaner::render::RenderOptions::default().links(request.links).images(request.images);
    let mut job = Job::new(extractor, algorithm.name, OutputFormat::Jsonl)
        .parse_options(
            parse_options(state, request.time_budget_ms).keep_all_attributes(every_attribute),
        )
        .render_options(render)
        .with_metadata(request.with_metadata)
        .comments(request.comments)
        .also_render(formats.contains(&Format::Markdown), formats.contains(&Format::Html));
    if let Some(model) = template {
        job = job.template(model);
    }
    Ok(PageSpec { job, source, base_url: request.base_url, formats, warnings, id: request.id })
}

/// Fetches (when a URL) and extracts the page. Blocking.
///
/// # Errors
/// The fetch failed.
pub fn run_page(state: &State, spec: &PageSpec) -> Result<PageResult, ApiError> {
    let (fetched, fetch_time) = fetch_page(state, spec)?;
    Ok(extract_page(state, spec, fetched, fetch_time))
}

/// Fetches the page when the request named a URL (`None` for HTML
/// given), and says how long that took. Blocking.
///
/// # Errors
/// The fetch failed.
pub fn fetch_page(state: &State, spec: &PageSpec) -> Result<(Option<Fetched>, Duration), ApiError> {
    let Source::Url(url) = &spec.source else { return Ok((None, Duration::ZERO)) };
    let began = Instant::now();
    let deadline = began + state.config.fetch_timeout;
    let fetched = state.fetcher.fetch(url, Some(deadline));
    if let Err(e) = &fetched {
        state.metrics.error(e.kind());
    }
    Ok((Some(fetched?), began.elapsed()))
}

/// Extracts the page, given or fetched. Blocking; never fails (what
/// went wrong is the record's `error`).
pub fn extract_page(
    state: &State,
    spec: &PageSpec,
    fetched: Option<Fetched>,
    fetch_time: Duration,
) -> PageResult {
    let extract_began = Instant::now();
    let record = match (&spec.source, &fetched) {
        (_, Some(f)) => {
            let page = Page {
                source: f.url.as_str(),
                bytes: &f.body,
                url: Some(f.url.as_str()),
                encoding: f.charset.as_deref().and_then(gleaner::document::encoding_for_label),
            };
            spec.job.record_for_page(&page, None)
        }
        (Source::Html(html), None) => {
            let source = spec.base_url.as_deref().unwrap_or("-");
            let page = Page { source, bytes: html, url: spec.base_url.as_deref(), encoding: None };
            spec.job.record_for_page(&page, None)
        }
        (Source::Url(_), None) => unreachable_fetch(spec),
    };
    state.metrics.page(record.bytes);
    if let Some(failure) = record.failure {
        state.metrics.error(&format!("page_{}", failure_name(failure)));
    }
    PageResult { record, fetched, fetch_time, extract_time: extract_began.elapsed() }
}

/// A URL source always has a fetch by the time it is extracted; this
/// record says so should that ever not hold, rather than panicking.
fn unreachable_fetch(spec: &PageSpec) -> Record {
    spec.job.failed_record("-", "internal error: a URL page without its fetch")
}

/// A failure kind's name for metrics and responses.
pub fn failure_name(failure: gleaner_batch::Failure) -> &'static str {
    use gleaner_batch::Failure;
    match failure {
        Failure::Unreadable => "unreadable",
        Failure::TooLarge => "too_large",
        Failure::NotHtml => "not_html",
        Failure::TooManyElements => "too_many_elements",
        Failure::TimeBudget => "time_budget",
        Failure::Layout => "layout",
        Failure::NoContent => "no_content",
        Failure::Internal => "internal",
        _ => "other",
    }
}

/// Runs blocking work on tokio's blocking pool.
///
/// # Errors
/// The work's own, or [`ApiError::Internal`] when it panicked.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        gleaner_batch::isolate(work).unwrap_or_else(|why| Err(ApiError::Internal(why)))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
}

/// Prepares and runs `request` off the async runtime.
///
/// # Errors
/// As [`prepare`] and [`run_page`].
pub async fn extract(
    state: Arc<State>,
    request: ExtractRequest,
    scope: Scope,
) -> Result<(PageSpec, PageResult), ApiError> {
    let s = Arc::clone(&state);
    let (spec, fetched, fetch_time) = blocking(move || {
        let spec = prepare(&s, request, scope)?;
        let (fetched, took) = fetch_page(&s, &spec)?;
        Ok((spec, fetched, took))
    })
    .await?;
    // One extraction per worker at once (the fetches above wait on the
    // network, not the CPU): more would share the cores and hold more
    // pages in memory for no gain in throughput.
    let _worker = Arc::clone(&state.workers)
        .acquire_owned()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let s = Arc::clone(&state);
    blocking(move || {
        let result = extract_page(&s, &spec, fetched, fetch_time);
        Ok((spec, result))
    })
    .await
}

/// The response to `POST /v1/extract` (and a line of `POST /v1/batch`):
/// the JSON record the CLI writes, plus `markdown` and `html` when asked
/// for, `failure` (the kind of `error`), `warnings`, `timings`, the
/// fetch when the page was fetched, and `id` when the request had one.
pub fn response_json(spec: &PageSpec, result: &PageResult) -> serde_json::Value {
    let record = &result.record;
    let mut value = serde_json::to_value(record).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(map) = &mut value {
        if spec.formats.contains(&Format::Markdown) {
            map.insert("markdown".into(), record.markdown.clone().into());
        }
        if spec.formats.contains(&Format::Html) {
            map.insert("html".into(), record.html.clone().into());
        }
        map.insert(
            "failure".into(),
            record.failure.map(failure_name).map(serde_json::Value::from).unwrap_or_default(),
        );
        let mut warnings = spec.warnings.clone();
        if record.failure == Some(gleaner_batch::Failure::TimeBudget) {
            warnings.push("extraction was cut off at the time budget".to_string());
        }
        map.insert("warnings".into(), warnings.into());
        map.insert(
            "timings".into(),
            serde_json::json!({
                "fetch_ms": ms(result.fetch_time),
                "extract_ms": ms(result.extract_time),
                "total_ms": ms(result.fetch_time + result.extract_time),
            }),
        );
        if let Some(f) = &result.fetched {
            map.insert(
                "fetch".into(),
                serde_json::json!({
                    "url": f.url.as_str(),
                    "status": f.status,
                    "content_type": f.content_type,
                    "redirects": f.redirects.iter().map(|r| serde_json::json!({
                        "from": r.from.as_str(), "status": r.status, "to": r.to.as_str(),
                    })).collect::<Vec<_>>(),
                }),
            );
        }
        if let Some(id) = &spec.id {
            map.insert("id".into(), id.clone());
        }
    }
    value
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// The schema of [`response_json`]'s object, for the OpenAPI document
/// (the record's keys are `gleaner extract -f json`'s).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtractResponse {
    /// The input's name: the URL, `base_url`, or `-`.
    pub source: String,
    /// The page title.
    pub title: Option<String>,
    /// The main content as plain text.
    pub text: String,
    /// The algorithm that extracted it.
    pub algorithm: String,
    /// Why the page failed, or null.
    pub error: Option<String>,
    /// The kind of `error`: `time_budget`, `not_html`, `too_large`, …
    pub failure: Option<String>,
    /// The page's URL when known.
    pub url: Option<String>,
    /// `article`, `forum`, `product`, `collection`, `listing`,
    /// `documentation`, `service` or `other`.
    pub page_type: String,
    /// Whether the page is an article.
    pub is_article: bool,
    /// The body in Markdown, when asked for.
    pub markdown: Option<String>,
    /// The body as HTML, when asked for.
    pub html: Option<String>,
    /// Things the caller should know.
    pub warnings: Vec<String>,
    /// `fetch_ms`, `extract_ms`, `total_ms`.
    #[schema(value_type = Object)]
    pub timings: serde_json::Value,
    /// The rest of the record: `author`, `date`, `site_name`,
    /// `language`, `canonical_url`, `description`, `image`,
    /// `categories`, `tags`, `page_type_confidence`, `fingerprint`,
    /// `comments`, `encoding`, `bytes`, and `fetch` for fetched pages.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub rest: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> Arc<State> {
        State::new(crate::Config::default()).expect("state")
    }

    #[test]
    fn options_reach_the_job() {
        let state = state();
        let html = "<html lang=en><title>T</title><body><nav><a href=/>Home</a></nav><article>\
                    <h1>Head</h1><p>A paragraph of the article with enough words to be kept by \
                    the extractor, surely, and <a href='/x'>a link</a> too.</p></article></body>";
        let request = ExtractRequest {
            html: Some(html.into()),
            base_url: Some("https://example.org/a".into()),
            formats: Some(vec![Format::Html, Format::Markdown]),
            links: true,
            ..ExtractRequest::default()
        };
        let spec = prepare(&state, request, Scope::default()).expect("prepare");
        let result = run_page(&state, &spec).expect("run");
        let json = response_json(&spec, &result);
        assert_eq!(json["url"], "https://example.org/a");
        let md = json["markdown"].as_str().expect("markdown");
        assert!(md.contains("[a link](https://example.org/x)"), "{md}");
        assert!(json["html"].as_str().is_some_and(|h| h.contains("<p>")));
        assert_eq!(json["error"], serde_json::Value::Null);
    }

    #[test]
    fn bad_options_are_refused_before_any_work() {
        let state = state();
        let with = |r: ExtractRequest| prepare(&state, r, Scope::default()).err();
        let html = Some("<p>x</p>".to_string());
        assert!(matches!(with(ExtractRequest::default()), Some(ApiError::BadRequest(_))));
        let url = ExtractRequest { url: Some("http://example.org/".into()), ..Default::default() };
        assert!(matches!(with(url), Some(ApiError::FetchDisabled)));
        let bad = ExtractRequest {
            html: html.clone(),
            algorithm: Some("nope".into()),
            ..Default::default()
        };
        assert!(matches!(with(bad), Some(ApiError::BadRequest(_))));
        let favor = ExtractRequest {
            html: html.clone(),
            algorithm: Some("plain".into()),
            favor: Favor::Recall,
            ..Default::default()
        };
        assert!(matches!(with(favor), Some(ApiError::BadRequest(_))));
        let template = ExtractRequest { html, template: Some("none".into()), ..Default::default() };
        assert!(matches!(with(template), Some(ApiError::NotFound(_))));
    }

    #[test]
    fn selectors_narrow_the_content() {
        let state = state();
        let html = "<body><div id=a><p>First block of text that is long enough to keep.</p></div>\
                    <div id=b><p>Second block of text that is long enough to keep.</p>\
                    <p class=ad>Buy now</p></div></body>";
        let scope = Scope {
            include: SelectorList::parse("#b").ok(),
            exclude: SelectorList::parse(".ad").ok(),
            whole_page: true,
        };
        let request = ExtractRequest { html: Some(html.into()), ..Default::default() };
        let spec = prepare(&state, request, scope).expect("prepare");
        let result = run_page(&state, &spec).expect("run");
        assert_eq!(result.record.text, "Second block of text that is long enough to keep.");
    }

    #[test]
    fn the_time_budget_cuts_extraction_off_and_says_so() {
        let state = state();
        let html = format!("<body>{}</body>", "<div><p>word word word</p></div>".repeat(200_000));
        let request =
            ExtractRequest { html: Some(html), time_budget_ms: Some(1), ..Default::default() };
        let spec = prepare(&state, request, Scope::default()).expect("prepare");
        let result = run_page(&state, &spec).expect("run");
        assert_eq!(
            result.record.failure,
            Some(gleaner_batch::Failure::TimeBudget),
            "{:?}",
            result.record.error
        );
        let json = response_json(&spec, &result);
        assert_eq!(json["failure"], "time_budget");
        assert!(json["warnings"].to_string().contains("cut off"));
    }
}
