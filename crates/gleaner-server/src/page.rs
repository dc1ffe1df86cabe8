//! `GET /`: a self-contained page (no CDN, no script from elsewhere) to
//! paste HTML or a URL, pick an algorithm and preset, and see the
//! outputs, the metadata and `page_type`, and the `inspect` report — the
//! page's text with the kept blocks highlighted and each removed block's
//! reason — which `POST /v1/inspect` makes.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State as AxumState;
use axum::http::{header, HeaderMap, Uri};
use axum::response::{Html, IntoResponse, Response};

use crate::error::ApiError;
use crate::extract::{ExtractRequest, Source};
use crate::State;

/// The page's HTML.
const PAGE: &str = include_str!("page.html");

/// The page to try extraction in a browser.
#[utoipa::path(get, path = "/", responses((status = 200, content_type = "text/html", body = String)))]
pub async fn page(AxumState(state): AxumState<Arc<State>>) -> Response {
    let fetch = if state.fetcher.enabled() { "true" } else { "false" };
    let html = PAGE.replace("__FETCH_ALLOWED__", fetch);
    (
        [(header::CONTENT_SECURITY_POLICY, "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-src 'self' about: data:; img-src 'self' data:")],
        Html(html),
    )
        .into_response()
}

/// The `inspect` report of one page (the same request as `/v1/extract`):
/// a self-contained HTML page with the page's text, the kept blocks
/// highlighted and each removed block with the rule that removed it
/// (the default extractor), or the algorithm's curve.
#[utoipa::path(
    post,
    path = "/v1/inspect",
    request_body = ExtractRequest,
    responses((status = 200, content_type = "text/html", body = String), (status = 400, body = crate::error::ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn inspect(
    AxumState(state): AxumState<Arc<State>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let request = crate::routes::extract_request(&state, &uri, &headers, body).await?;
    let s = Arc::clone(&state);
    let report = crate::extract::blocking(move || {
        let (algorithm, params, _) = crate::extract::extractor_for(&request, true)?;
        let spec = crate::extract::prepare(&s, request, crate::extract::Scope::default())?;
        let parse = spec.job.parse().clone().keep_all_attributes(algorithm.name == "vce");
        let doc = match &spec.source {
            Source::Html(html) => {
                let parse = parse.url(spec.base_url.clone());
                gleaner::Document::parse(html, &parse)
            }
            Source::Url(url) => {
                let deadline = std::time::Instant::now() + s.config.fetch_timeout;
                let fetched = s.fetcher.fetch(url, Some(deadline))?;
                gleaner::Document::parse(&fetched.body, &fetched.parse_options(&parse))
            }
        }
        .map_err(|e| ApiError::BadRequest(format!("the page: {e}")))?;
        gleaner_eval::inspect::report_with_model(&doc, algorithm.name, &params, None)
            .map_err(|e| ApiError::BadRequest(e.to_string()))
    })
    .await?;
    Ok(Html(report).into_response())
}
