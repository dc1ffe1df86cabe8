//! Request-level failures and the JSON that says what went wrong.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// Why a request was refused or failed as a whole (a page that fails is a
/// record with an `error` instead).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// The request is malformed: bad JSON, unknown option, bad value.
    #[error("{0}")]
    BadRequest(String),
    /// A URL was given to a server started without `--allow-fetch`.
    #[error("this server does not fetch URLs (start it with --allow-fetch), send the page's HTML instead")]
    FetchDisabled,
    /// The URL's host is not on the `--allow-host` list, or its address
    /// is refused by the address policy (private, loopback, metadata).
    #[error("{0}")]
    Forbidden(String),
    /// No or a wrong bearer token.
    #[error("missing or wrong bearer token")]
    Unauthorized,
    /// Unknown template id.
    #[error("{0}")]
    NotFound(String),
    /// The body is larger than `--max-body-bytes`.
    #[error("request body larger than {0} bytes (--max-body-bytes)")]
    TooLarge(usize),
    /// The client sent its body too slowly.
    #[error("the request body did not arrive in time")]
    SlowClient,
    /// The request took longer than `--request-timeout-secs`.
    #[error("the request took longer than {0} s")]
    Timeout(u64),
    /// More requests under way than `--max-concurrency`.
    #[error("too many requests under way, try again shortly")]
    Busy,
    /// This client made more requests than `--rate-limit` allows.
    #[error("rate limit exceeded, try again in {0} s")]
    RateLimited(u64),
    /// The page could not be fetched.
    #[error("{message}")]
    Fetch {
        /// The HTTP status this maps to (502, 504, 403, 422).
        status: StatusCode,
        /// The fetcher's error.
        message: String,
    },
    /// A failure on the server's side.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// `false`, for clients written against Firecrawl.
    pub success: bool,
    /// What went wrong, in words.
    pub error: String,
    /// The kind of failure: `bad_request`, `fetch_disabled`, `forbidden`,
    /// `unauthorized`, `not_found`, `too_large`, `slow_client`, `timeout`,
    /// `busy`, `rate_limited`, `fetch`, `internal`.
    pub kind: String,
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::FetchDisabled | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::SlowClient | ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Fetch { status, .. } => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The kind, as `ErrorBody::kind` and the metrics' `kind` label say it.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::FetchDisabled => "fetch_disabled",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Unauthorized => "unauthorized",
            ApiError::NotFound(_) => "not_found",
            ApiError::TooLarge(_) => "too_large",
            ApiError::SlowClient => "slow_client",
            ApiError::Timeout(_) => "timeout",
            ApiError::Busy => "busy",
            ApiError::RateLimited(_) => "rate_limited",
            ApiError::Fetch { .. } => "fetch",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody { success: false, error: self.to_string(), kind: self.kind().to_string() }
    }
}

/// The error kind a response carries, for the metrics layer.
#[derive(Debug, Clone, Copy)]
pub struct ErrorKind(pub &'static str);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), axum::Json(self.body())).into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::Busy => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            ApiError::RateLimited(secs) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(secs.max(&1).to_owned()));
            }
            ApiError::Unauthorized => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            _ => {}
        }
        response.extensions_mut().insert(ErrorKind(self.kind()));
        response
    }
}
