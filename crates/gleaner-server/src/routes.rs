//! gleaner's own API, the router that holds every route, and the OpenAPI
//! document generated from the handlers' types.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State as AxumState};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use futures_util::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::extract::{ExtractQuery, ExtractRequest, ExtractResponse, Scope};
use crate::guard::{read_body, read_json};
use crate::State;

/// The router with every route and the middleware, and the list of
/// routes (method, path as the OpenAPI document spells it).
pub fn router(state: Arc<State>) -> (Router, Vec<(&'static str, &'static str)>) {
    let routes = Routes::default()
        .add("get", "/", "/", get(crate::page::page))
        .add("get", "/healthz", "/healthz", get(healthz))
        .add("get", "/metrics", "/metrics", get(metrics))
        .add("get", "/openapi.json", "/openapi.json", get(openapi))
        .add("get", "/v1/algorithms", "/v1/algorithms", get(algorithms))
        .add("post", "/v1/extract", "/v1/extract", post(extract))
        .add("post", "/v1/batch", "/v1/batch", post(batch))
        .add("post", "/v1/templates", "/v1/templates", post(learn_template))
        .add("get", "/v1/templates/{id}", "/v1/templates/{id}", get(show_template))
        .add("post", "/v1/inspect", "/v1/inspect", post(crate::page::inspect))
        .add("post", "/v1/scrape", "/v1/scrape", post(crate::shims::scrape_v1))
        .add("post", "/v2/scrape", "/v2/scrape", post(crate::shims::scrape_v2))
        .add("get", "/{url}", "/{*url}", get(crate::shims::reader));
    let router = routes
        .router
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), crate::guard::limit))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), crate::guard::rate))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), crate::guard::auth))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), crate::guard::observe))
        .with_state(state);
    (router, routes.listed)
}

#[derive(Default)]
struct Routes {
    router: Router<Arc<State>>,
    listed: Vec<(&'static str, &'static str)>,
}

impl Routes {
    fn add(
        mut self,
        method: &'static str,
        documented: &'static str,
        path: &'static str,
        handler: MethodRouter<Arc<State>>,
    ) -> Routes {
        self.router = self.router.route(path, handler);
        self.listed.push((method, documented));
        self
    }
}

/// The OpenAPI document of every route.
#[derive(OpenApi)]
#[openapi(
    info(title = "gleaner serve", description = "Main-content extraction: gleaner's API, Firecrawl and Jina Reader shims."),
    paths(
        crate::page::page,
        healthz,
        metrics,
        openapi,
        algorithms,
        extract,
        batch,
        learn_template,
        show_template,
        crate::page::inspect,
        crate::shims::scrape_v1,
        crate::shims::scrape_v2,
        crate::shims::reader,
    ),
    components(schemas(
        ExtractRequest,
        ExtractResponse,
        ErrorBody,
        TemplateRequest,
        TemplateResponse,
        Health,
        crate::shims::ScrapeRequest,
        crate::shims::ScrapeResponse,
    )),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// `GET /healthz`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// gleaner's version.
    pub version: &'static str,
    /// Whether the server fetches URLs.
    pub fetch: bool,
    /// Requests under way.
    pub in_flight: u64,
}

/// Whether the server is up.
#[utoipa::path(get, path = "/healthz", responses((status = 200, body = Health)))]
pub async fn healthz(AxumState(state): AxumState<Arc<State>>) -> Json<Health> {
    Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        fetch: state.fetcher.enabled(),
        in_flight: state.metrics.in_flight(),
    })
}

/// Prometheus metrics: requests by route and status, latency histogram,
/// pages, bytes, errors by kind, requests in flight.
#[utoipa::path(get, path = "/metrics", responses((status = 200, content_type = "text/plain", body = String)))]
pub async fn metrics(AxumState(state): AxumState<Arc<State>>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render()).into_response()
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", responses((status = 200, body = Object)))]
pub async fn openapi() -> Response {
    match ApiDoc::openapi().to_pretty_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(e) => ApiError::Internal(e.to_string()).into_response(),
    }
}

/// The algorithms with their parameters and defaults.
#[utoipa::path(get, path = "/v1/algorithms", responses((status = 200, body = Object)))]
pub async fn algorithms() -> Json<serde_json::Value> {
    Json(gleaner_batch::algorithm_specs())
}

/// Is this content type (ignoring parameters) `text/html` or XHTML?
fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| {
            let t = t.trim();
            t.eq_ignore_ascii_case("text/html") || t.eq_ignore_ascii_case("application/xhtml+xml")
        })
}

/// The request of `POST /v1/extract` or `/v1/inspect`: JSON, or a raw
/// HTML body with the options as query parameters.
///
/// # Errors
/// A body too large or too slow, bad JSON, bad query parameters.
pub async fn extract_request(
    state: &State,
    uri: &Uri,
    headers: &HeaderMap,
    body: Body,
) -> Result<ExtractRequest, ApiError> {
    if is_html(headers) {
        let query = axum::extract::Query::<ExtractQuery>::try_from_uri(uri)
            .map_err(|e| ApiError::BadRequest(format!("query: {}", e.body_text())))?
            .0;
        let bytes = read_body(state, headers, body).await?;
        return query.into_request(String::from_utf8_lossy(&bytes).into_owned());
    }
    if uri.query().is_some_and(|q| !q.is_empty()) {
        return Err(ApiError::BadRequest(
            "query parameters go with a text/html body; put the options in the JSON".into(),
        ));
    }
    read_json(state, headers, body).await
}

/// The HTTP status of a page's record: 200 when it was extracted (also
/// when cut off at its time budget: the record says so), 422 when it
/// could not be (not HTML, too large, too many elements), 500 for a bug.
fn record_status(record: &gleaner_batch::Record) -> StatusCode {
    use gleaner_batch::Failure;
    match record.failure {
        None | Some(Failure::TimeBudget | Failure::NoContent) => StatusCode::OK,
        Some(Failure::Internal) => StatusCode::INTERNAL_SERVER_ERROR,
        Some(_) => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// Extracts one page: JSON `{html | url, …}`, or a raw `text/html` body
/// with the options as query parameters. Answers with the record `gleaner
/// extract -f json` writes, plus `markdown`/`html` when asked for,
/// `failure`, `warnings` and `timings`.
#[utoipa::path(
    post,
    path = "/v1/extract",
    request_body(content(
        (ExtractRequest = "application/json"),
        (String = "text/html"),
    )),
    params(ExtractQuery),
    responses(
        (status = 200, body = ExtractResponse, description = "the record (also when cut off at the time budget)"),
        (status = 422, body = ExtractResponse, description = "the page could not be extracted: the record says why"),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody),
    ),
    security((), ("bearer" = []))
)]
pub async fn extract(
    AxumState(state): AxumState<Arc<State>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let request = extract_request(&state, &uri, &headers, body).await?;
    let (spec, result) = crate::extract::extract(state, request, Scope::default()).await?;
    let status = record_status(&result.record);
    Ok((status, Json(crate::extract::response_json(&spec, &result))).into_response())
}

/// One line of a batch read, or why reading stopped.
type Line = Result<(usize, Bytes), ApiError>;

/// The lines of an NDJSON body as they arrive: each at most `max`
/// bytes, each piece of the body within `timeout`; blank lines skipped.
/// A failure is the last item.
fn ndjson_lines(
    body: Body,
    max: usize,
    timeout: Duration,
) -> impl Stream<Item = Line> + Send + 'static {
    struct Reader {
        stream: axum::body::BodyDataStream,
        buffer: Vec<u8>,
        number: usize,
        ended: bool,
    }
    let reader =
        Reader { stream: body.into_data_stream(), buffer: Vec::new(), number: 0, ended: false };
    futures_util::stream::unfold(Some(reader), move |state| async move {
        let mut r = state?;
        loop {
            if let Some(at) = r.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = r.buffer.drain(..=at).collect();
                r.number += 1;
                let line = trim(&line);
                if line.is_empty() {
                    continue;
                }
                if line.len() > max {
                    return Some((Err(ApiError::TooLarge(max)), None));
                }
                let item = (r.number, Bytes::copy_from_slice(line));
                return Some((Ok(item), Some(r)));
            }
            if r.buffer.len() > max {
                return Some((Err(ApiError::TooLarge(max)), None));
            }
            if r.ended {
                if r.buffer.is_empty() {
                    return None;
                }
                r.buffer.push(b'\n');
                continue;
            }
            match tokio::time::timeout(timeout, r.stream.next()).await {
                Err(_) => return Some((Err(ApiError::SlowClient), None)),
                Ok(None) => r.ended = true,
                Ok(Some(Err(e))) => {
                    return Some((
                        Err(ApiError::BadRequest(format!("reading the body: {e}"))),
                        None,
                    ))
                }
                Ok(Some(Ok(piece))) => r.buffer.extend_from_slice(&piece),
            }
        }
    })
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &line[start..end.max(start)]
}

/// The output line for input line `number`.
async fn batch_line(state: Arc<State>, number: usize, line: Bytes) -> serde_json::Value {
    let failed = |e: ApiError| {
        let mut v = serde_json::to_value(e.body()).unwrap_or_default();
        v["line"] = number.into();
        v
    };
    let request: ExtractRequest = match serde_json::from_slice(&line) {
        Ok(r) => r,
        Err(e) => return failed(ApiError::BadRequest(format!("line {number}: {e}"))),
    };
    let id = request.id.clone();
    match crate::extract::extract(state, request, Scope::default()).await {
        Ok((spec, result)) => {
            let mut v = crate::extract::response_json(&spec, &result);
            v["line"] = number.into();
            v
        }
        Err(e) => {
            let mut v = failed(e);
            if let Some(id) = id {
                v["id"] = id;
            }
            v
        }
    }
}

/// Extracts many pages: NDJSON in (one `/v1/extract` JSON request per
/// line), NDJSON out (one response per line, with its input `line`
/// number), in input order, streamed as pages finish. A line that fails
/// is a line with `success: false` and `error`; the batch goes on. A
/// body that stops (too slow, a line too long) ends with one such line.
#[utoipa::path(
    post,
    path = "/v1/batch",
    request_body(content = String, content_type = "application/x-ndjson", description = "one ExtractRequest per line"),
    responses((status = 200, content_type = "application/x-ndjson", body = String, description = "one ExtractResponse (or ErrorBody) per line")),
    security((), ("bearer" = []))
)]
pub async fn batch(AxumState(state): AxumState<Arc<State>>, body: Body) -> Response {
    let max = state.config.max_body_bytes;
    let parallel = state.config.batch_parallelism.max(1);
    let lines = ndjson_lines(body, max, state.config.read_timeout);
    let for_lines = Arc::clone(&state);
    let out = lines
        .map(move |line| {
            let state = Arc::clone(&for_lines);
            async move {
                match line {
                    Ok((number, bytes)) => batch_line(state, number, bytes).await,
                    Err(e) => serde_json::to_value(e.body()).unwrap_or_default(),
                }
            }
        })
        .buffered(parallel)
        .map(|value| {
            let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
            bytes.push(b'\n');
            Ok::<_, Infallible>(Bytes::from(bytes))
        });
    ([(header::CONTENT_TYPE, "application/x-ndjson")], Body::from_stream(out)).into_response()
}

/// `POST /v1/templates`: pages of one site (HTML, or URLs to fetch) to
/// learn its template from.
#[derive(Debug, Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateRequest {
    /// The pages' HTML.
    #[serde(default)]
    pub pages: Vec<String>,
    /// URLs of pages to fetch (with `--allow-fetch`).
    #[serde(default)]
    pub urls: Vec<String>,
    /// The id to store it under (letters, digits, `-`, `_`); default: a
    /// hash of the model.
    #[serde(default)]
    pub id: Option<String>,
}

/// The template learned.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateResponse {
    /// Give it as `template` to `/v1/extract`.
    pub id: String,
    /// Pages learned from.
    pub pages: u32,
    /// Segments of text found to be template (on more than a third of
    /// the pages).
    pub template_segments: usize,
}

/// Learns a site's template from pages of it (at least 2: the template
/// is the text they share) and stores it under an id.
#[utoipa::path(
    post,
    path = "/v1/templates",
    request_body = TemplateRequest,
    responses((status = 200, body = TemplateResponse), (status = 400, body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn learn_template(
    AxumState(state): AxumState<Arc<State>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<TemplateResponse>, ApiError> {
    let request: TemplateRequest = read_json(&state, &headers, body).await?;
    learn(state, request).await.map(Json)
}

/// Learns and stores the template `request` asks for.
///
/// # Errors
/// Fewer than 2 or too many pages, a bad id, a page that cannot be
/// fetched or parsed, a template folder that cannot be written.
pub async fn learn(
    state: Arc<State>,
    request: TemplateRequest,
) -> Result<TemplateResponse, ApiError> {
    let count = request.pages.len() + request.urls.len();
    if count < 2 {
        return Err(ApiError::BadRequest("give at least 2 pages or urls of the site".into()));
    }
    if count > state.config.max_template_pages {
        return Err(ApiError::BadRequest(format!(
            "at most {} pages per template",
            state.config.max_template_pages
        )));
    }
    if let Some(id) = &request.id {
        if !crate::templates::valid_id(id) {
            return Err(ApiError::BadRequest(format!(
                "template id {id:?}: letters, digits, - and _ only, at most 64"
            )));
        }
    }
    let urls =
        request.urls.iter().map(|u| state.fetcher.check(u)).collect::<Result<Vec<_>, _>>()?;
    let s = Arc::clone(&state);
    let (model, id) = crate::extract::blocking(move || {
        let parse = crate::extract::parse_options(&s, None);
        let mut docs = Vec::with_capacity(count);
        for html in &request.pages {
            let doc = gleaner::Document::parse_str(html, &parse)
                .map_err(|e| ApiError::BadRequest(format!("a page: {e}")))?;
            docs.push(doc);
        }
        for url in &urls {
            let deadline = std::time::Instant::now() + s.config.fetch_timeout;
            let fetched = s.fetcher.fetch(url, Some(deadline))?;
            let doc = gleaner::Document::parse(&fetched.body, &fetched.parse_options(&parse))
                .map_err(|e| ApiError::BadRequest(format!("{url}: {e}")))?;
            docs.push(doc);
        }
        let model = gleaner::template::TemplateModel::learn(&docs);
        let json = model.to_json().map_err(|e| ApiError::Internal(e.to_string()))?;
        let id = request
            .id
            .clone()
            .unwrap_or_else(|| format!("{:016x}", gleaner::hash::fnv1a(json.as_bytes())));
        Ok((Arc::new(model), id))
    })
    .await?;
    state
        .templates
        .insert(&id, Arc::clone(&model))
        .map_err(|e| ApiError::Internal(format!("writing the template to --template-dir: {e}")))?;
    Ok(TemplateResponse {
        id,
        pages: model.pages,
        template_segments: model.template_segments().count(),
    })
}

/// A stored template, as `gleaner template learn` writes it (usable with
/// `gleaner extract --template`).
#[utoipa::path(
    get,
    path = "/v1/templates/{id}",
    params(("id" = String, Path, description = "the template's id")),
    responses((status = 200, body = Object), (status = 404, body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn show_template(
    AxumState(state): AxumState<Arc<State>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let model = state
        .templates
        .get(&id)
        .ok_or_else(|| ApiError::NotFound(format!("no template {id:?}")))?;
    let json = model.to_json().map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_in_the_openapi_document() {
        let state = State::new(crate::Config::default()).expect("state");
        let (_, listed) = router(state);
        let doc = serde_json::to_value(ApiDoc::openapi()).expect("json");
        let paths = doc["paths"].as_object().expect("paths");
        for (method, path) in &listed {
            assert!(
                paths.get(*path).and_then(|p| p.get(*method)).is_some(),
                "{method} {path} is not in /openapi.json"
            );
        }
        let documented: usize = paths.values().map(|p| p.as_object().map_or(0, |m| m.len())).sum();
        assert_eq!(documented, listed.len(), "documented routes that are not served");
    }

    #[test]
    fn lines_are_trimmed() {
        assert_eq!(trim(b"  {}\r\n"), b"{}");
        assert_eq!(trim(b" \r\n"), b"");
    }
}
