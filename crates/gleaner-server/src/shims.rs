//! Answers in the shapes other readers' clients expect, so that software
//! written against them uses gleaner by changing one base URL:
//! Firecrawl's scrape endpoint (`POST /v1/scrape`, `POST /v2/scrape`) and
//! Jina Reader's `GET /{url}`. Both fetch, so both need `--allow-fetch`.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State as AxumState;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::css::SelectorList;
use crate::error::ApiError;
use crate::extract::{ExtractRequest, Format, PageResult, Scope};
use crate::guard::read_json;
use crate::State;

/// A Firecrawl format: `"markdown"` or, in v2, `{"type": "markdown"}`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ScrapeFormat {
    /// By name.
    Name(String),
    /// As an object with a `type`.
    Object {
        /// The format's name.
        #[serde(rename = "type")]
        kind: String,
    },
}

impl ScrapeFormat {
    fn name(&self) -> &str {
        match self {
            ScrapeFormat::Name(n) => n,
            ScrapeFormat::Object { kind } => kind,
        }
    }
}

/// Firecrawl's scrape request. Options gleaner has no use for (`waitFor`,
/// `mobile`, `proxy`, `maxAge`, …) are accepted and ignored.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScrapeRequest {
    /// The page to scrape.
    pub url: String,
    /// `markdown` (default), `html`, `rawHtml`, `links`.
    #[serde(default)]
    pub formats: Option<Vec<ScrapeFormat>>,
    /// Only the main content (default true); false: the whole page.
    #[serde(default = "yes")]
    pub only_main_content: bool,
    /// CSS selectors of the elements to keep.
    #[serde(default)]
    pub include_tags: Vec<String>,
    /// CSS selectors of the elements to leave out.
    #[serde(default)]
    pub exclude_tags: Vec<String>,
    /// Most time for the page, in milliseconds.
    #[serde(default)]
    pub timeout: Option<u64>,
    /// Everything else, ignored.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub other: serde_json::Map<String, serde_json::Value>,
}

fn yes() -> bool {
    true
}

/// Firecrawl's scrape response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScrapeResponse {
    /// Whether the page was scraped.
    pub success: bool,
    /// The page.
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
}

/// The selectors of a list of strings, each possibly a comma list.
fn selectors(list: &[String], what: &str) -> Result<Option<SelectorList>, ApiError> {
    SelectorList::parse_all(list).map_err(|e| ApiError::BadRequest(format!("{what}: {e}")))
}

/// Fetches and extracts `request` as a Firecrawl client asked.
async fn scrape(state: Arc<State>, headers: HeaderMap, body: Body) -> Result<Response, ApiError> {
    let request: ScrapeRequest = read_json(&state, &headers, body).await?;
    let names: Vec<String> = match &request.formats {
        None => vec!["markdown".into()],
        Some(list) => list.iter().map(|f| f.name().to_string()).collect(),
    };
    for name in &names {
        if !matches!(name.as_str(), "markdown" | "html" | "rawHtml" | "links") {
            return Err(ApiError::BadRequest(format!(
                "format {name:?} is not supported by gleaner (markdown, html, rawHtml, links)"
            )));
        }
    }
    let scope = Scope {
        include: selectors(&request.include_tags, "includeTags")?,
        exclude: selectors(&request.exclude_tags, "excludeTags")?,
        whole_page: !request.only_main_content,
    };
    let mut formats = vec![Format::Text];
    if names.iter().any(|n| n == "markdown") {
        formats.push(Format::Markdown);
    }
    if names.iter().any(|n| n == "html") {
        formats.push(Format::Html);
    }
    let extract = ExtractRequest {
        url: Some(request.url.clone()),
        formats: Some(formats),
        links: true,
        images: true,
        time_budget_ms: request.timeout,
        ..ExtractRequest::default()
    };
    let (_, result) = crate::extract::extract(state, extract, scope).await?;
    let record = &result.record;
    let status = result.fetched.as_ref().map_or(200, |f| f.status);
    let mut data = serde_json::json!({
        "metadata": {
            "title": record.title,
            "description": record.description,
            "language": record.language,
            "sourceURL": request.url,
            "url": record.url,
            "statusCode": status,
            "contentType": result.fetched.as_ref().and_then(|f| f.content_type.clone()),
            "author": record.author,
            "publishedTime": record.date,
            "siteName": record.site_name,
            "ogImage": record.image,
            "pageType": record.page_type,
        },
    });
    if names.iter().any(|n| n == "markdown") {
        data["markdown"] = record.markdown.clone().unwrap_or_default().into();
    }
    if names.iter().any(|n| n == "html") {
        data["html"] = record.html.clone().unwrap_or_default().into();
    }
    if names.iter().any(|n| n == "rawHtml") {
        let raw = result.fetched.as_ref().map(|f| String::from_utf8_lossy(&f.body).into_owned());
        data["rawHtml"] = raw.unwrap_or_default().into();
    }
    if names.iter().any(|n| n == "links") {
        data["links"] = links(&result).into();
    }
    if let Some(e) = &record.error {
        data["warning"] = e.clone().into();
        data["metadata"]["error"] = e.clone().into();
    }
    Ok(Json(ScrapeResponse { success: record.error.is_none(), data }).into_response())
}

/// The page's links, absolute, in document order, each once.
fn links(result: &PageResult) -> Vec<String> {
    let Some(fetched) = &result.fetched else { return Vec::new() };
    let mut seen = std::collections::HashSet::new();
    gleaner_crawl::page_links(fetched)
        .map(|l| l.links)
        .unwrap_or_default()
        .into_iter()
        .map(String::from)
        .filter(|l| seen.insert(l.clone()))
        .collect()
}

/// Firecrawl v1 scrape: `{url, formats, onlyMainContent, includeTags,
/// excludeTags}` → `{success, data: {markdown, html, rawHtml, links,
/// metadata: {title, description, language, sourceURL, statusCode, …}}}`.
#[utoipa::path(
    post,
    path = "/v1/scrape",
    request_body = ScrapeRequest,
    responses((status = 200, body = ScrapeResponse), (status = 403, body = crate::error::ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn scrape_v1(
    AxumState(state): AxumState<Arc<State>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    scrape(state, headers, body).await
}

/// Firecrawl v2 scrape (formats may also be `{"type": …}` objects); the
/// same answer as v1.
#[utoipa::path(
    post,
    path = "/v2/scrape",
    request_body = ScrapeRequest,
    responses((status = 200, body = ScrapeResponse), (status = 403, body = crate::error::ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn scrape_v2(
    AxumState(state): AxumState<Arc<State>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    scrape(state, headers, body).await
}

/// A header's value as text, when present and not empty.
fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty())
}

/// The target URL of a Jina Reader request: the path and query after
/// the first `/`, `https://` added when it has no scheme.
fn target(uri: &Uri) -> String {
    let whole = uri.path_and_query().map_or("/", |p| p.as_str());
    let raw = whole.strip_prefix('/').unwrap_or(whole);
    if raw.starts_with("http://") || raw.starts_with("https://") {
        raw.to_string()
    } else if let Some(rest) = raw.strip_prefix("http:/").or_else(|| raw.strip_prefix("https:/")) {
        // Proxies and clients may merge `//` into `/`.
        let scheme = if raw.starts_with("https") { "https" } else { "http" };
        format!("{scheme}://{rest}")
    } else {
        format!("https://{raw}")
    }
}

/// Jina Reader: `GET /https://example.org/page` → the page's main content,
/// as Jina's text answer (`Title:`, `URL Source:`, `Markdown Content:`)
/// or, with `Accept: application/json`, `{code, status, data: {title,
/// description, url, content, publishedTime}}`. Headers: `X-Return-Format`
/// (`markdown`, the default; `html`; `text`), `X-Target-Selector`,
/// `X-Remove-Selector` (CSS, comma lists), `X-Retain-Images: none`.
#[utoipa::path(
    get,
    path = "/{url}",
    params(
        ("url" = String, Path, description = "the page's URL, as is (`/https://example.org/a?b=c`)"),
        ("X-Return-Format" = Option<String>, Header, description = "markdown (default), html or text"),
        ("X-Target-Selector" = Option<String>, Header, description = "CSS selectors of the content"),
        ("X-Remove-Selector" = Option<String>, Header, description = "CSS selectors to leave out"),
        ("X-Retain-Images" = Option<String>, Header, description = "none: no images"),
    ),
    responses((status = 200, content_type = "text/plain", body = String), (status = 403, body = crate::error::ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn reader(
    AxumState(state): AxumState<Arc<State>>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let url = target(&uri);
    let format =
        header_text(&headers, "x-return-format").unwrap_or("markdown").to_ascii_lowercase();
    let formats = match format.as_str() {
        "markdown" | "md" => vec![Format::Text, Format::Markdown],
        "html" => vec![Format::Text, Format::Html],
        "text" | "txt" => vec![Format::Text],
        other => {
            return Err(ApiError::BadRequest(format!(
                "X-Return-Format {other:?} is not supported by gleaner (markdown, html, text)"
            )))
        }
    };
    let split = |name: &str| -> Vec<String> {
        header_text(&headers, name).map(|v| vec![v.to_string()]).unwrap_or_default()
    };
    let scope = Scope {
        include: selectors(&split("x-target-selector"), "X-Target-Selector")?,
        exclude: selectors(&split("x-remove-selector"), "X-Remove-Selector")?,
        whole_page: false,
    };
    let images =
        header_text(&headers, "x-retain-images").is_none_or(|v| !v.eq_ignore_ascii_case("none"));
    let extract = ExtractRequest {
        url: Some(url.clone()),
        formats: Some(formats),
        links: true,
        images,
        ..ExtractRequest::default()
    };
    let (_, result) = crate::extract::extract(state, extract, scope).await?;
    let record = &result.record;
    if let Some(e) = &record.error {
        if record.failure != Some(gleaner_batch::Failure::TimeBudget) {
            return Err(ApiError::Fetch {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: format!("{url}: {e}"),
            });
        }
    }
    let content = match format.as_str() {
        "html" => record.html.clone().unwrap_or_default(),
        "text" | "txt" => record.text.clone(),
        _ => record.markdown.clone().unwrap_or_default(),
    };
    let source = record.url.clone().unwrap_or(url);
    let wants_json = header_text(&headers, "accept")
        .is_some_and(|a| a.split(',').any(|t| t.trim().starts_with("application/json")));
    if wants_json {
        let body = serde_json::json!({
            "code": 200,
            "status": 20000,
            "data": {
                "title": record.title.clone().unwrap_or_default(),
                "description": record.description.clone().unwrap_or_default(),
                "url": source,
                "content": content,
                "publishedTime": record.date,
                "language": record.language,
            },
        });
        return Ok(Json(body).into_response());
    }
    let mut text =
        format!("Title: {}\n\nURL Source: {source}\n", record.title.clone().unwrap_or_default());
    if let Some(date) = &record.date {
        text.push_str(&format!("\nPublished Time: {date}\n"));
    }
    let heading = match format.as_str() {
        "html" => "HTML",
        "text" | "txt" => "Text",
        _ => "Markdown",
    };
    text.push_str(&format!("\n{heading} Content:\n{content}\n"));
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_the_rest_of_the_path_and_its_query() {
        let t = |s: &str| target(&s.parse::<Uri>().expect("uri"));
        assert_eq!(t("/https://example.org/a/b?c=d&e=f"), "https://example.org/a/b?c=d&e=f");
        assert_eq!(t("/http:/example.org/x"), "http://example.org/x");
        assert_eq!(t("/example.org/x"), "https://example.org/x");
    }
}
