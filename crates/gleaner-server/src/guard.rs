//! What stands between a client and the work: the access log and the
//! metrics, the bearer token, the per-client rate limit, the concurrency
//! limit and the request timeout (middleware, outermost first), and the
//! bounded, timed reading of request bodies.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Request, State as AxumState};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use crate::error::{ApiError, ErrorKind};
use crate::State;

/// The address of the client that sent a request (the server puts it
/// in every request's extensions).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub SocketAddr);

/// The most clients whose buckets are remembered; past it, full buckets
/// (clients idle long enough to have refilled) are forgotten.
const MAX_CLIENTS: usize = 100_000;

/// Token buckets per client address.
#[derive(Debug)]
pub struct RateLimiter {
    per_second: Option<f64>,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    /// `per_second` requests a second per client with bursts of `burst`;
    /// `None` admits everything.
    pub fn new(per_second: Option<f64>, burst: u32) -> RateLimiter {
        RateLimiter {
            per_second: per_second.filter(|r| *r > 0.0 && r.is_finite()),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token for `client`, or says in how many seconds one will
    /// be there.
    ///
    /// # Errors
    /// The wait, in whole seconds (at least 1).
    pub fn admit(&self, client: IpAddr, now: Instant) -> Result<(), u64> {
        let Some(rate) = self.per_second else { return Ok(()) };
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&client) {
            let burst = self.burst;
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(client).or_insert((self.burst, now));
        *tokens =
            (*tokens + now.saturating_duration_since(*at).as_secs_f64() * rate).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / rate).ceil().max(1.0) as u64)
        }
    }
}

/// The route a request matched, for logs and metrics.
fn route_of(request: &Request) -> String {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |m| m.as_str().to_string())
}

/// Outermost: counts the request in flight, then logs it (one structured
/// line: method, route, status, time, client, error kind) and counts it.
pub async fn observe(
    AxumState(state): AxumState<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    let began = Instant::now();
    let method = request.method().to_string();
    let route = route_of(&request);
    let client = request.extensions().get::<ClientAddr>().map(|c| c.0.ip().to_string());
    let response = {
        let _in_flight = state.metrics.begin();
        next.run(request).await
    };
    let took = began.elapsed();
    let status = response.status().as_u16();
    state.metrics.request(&method, &route, status, took);
    let kind = response.extensions().get::<ErrorKind>().map(|k| k.0);
    if let Some(kind) = kind {
        state.metrics.error(kind);
    }
    tracing::info!(
        target: "gleaner::access",
        method = %method,
        route = %route,
        status,
        ms = took.as_secs_f64() * 1e3,
        client = client.as_deref().unwrap_or("-"),
        error = kind.unwrap_or(""),
        "request"
    );
    response
}

/// The routes open without a token: the page and the health check.
fn open_route(route: &str) -> bool {
    matches!(route, "/" | "/healthz")
}

/// Does `headers` carry the bearer `token`? (Compared in constant time.)
pub fn authorized(headers: &HeaderMap, token: &str) -> bool {
    let Some(given) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
    else {
        return false;
    };
    let (a, b) = (given.trim().as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The bearer token, when the server has one.
pub async fn auth(
    AxumState(state): AxumState<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(token) = &state.config.token {
        if !open_route(&route_of(&request)) && !authorized(request.headers(), token) {
            return ApiError::Unauthorized.into_response();
        }
    }
    next.run(request).await
}

/// The per-client rate limit (`429` with `Retry-After`).
pub async fn rate(
    AxumState(state): AxumState<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    if route_of(&request) != "/healthz" {
        if let Some(client) = request.extensions().get::<ClientAddr>() {
            if let Err(wait) = state.rates.admit(client.0.ip(), Instant::now()) {
                return ApiError::RateLimited(wait).into_response();
            }
        }
    }
    next.run(request).await
}

/// The concurrency limit (`503` with `Retry-After` when every permit is
/// taken) and the request timeout (`408`). The health check and the
/// metrics are never turned away.
pub async fn limit(
    AxumState(state): AxumState<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    let route = route_of(&request);
    if matches!(route.as_str(), "/healthz" | "/metrics") {
        return next.run(request).await;
    }
    let Ok(permit) = Arc::clone(&state.permits).try_acquire_owned() else {
        return ApiError::Busy.into_response();
    };
    let timeout = state.config.request_timeout;
    match tokio::time::timeout(timeout, next.run(request)).await {
        // A streamed answer (a batch) holds its permit until it is sent.
        Ok(response) => response.map(|body| {
            Body::new(http_body_util::BodyExt::map_frame(body, move |frame| {
                let _held = &permit;
                frame
            }))
        }),
        Err(_) => ApiError::Timeout(timeout.as_secs()).into_response(),
    }
}

/// Reads a request body whole: at most `--max-body-bytes` (a larger
/// `Content-Length` is refused before reading), each piece within the
/// read timeout.
///
/// # Errors
/// [`ApiError::TooLarge`], [`ApiError::SlowClient`], or a broken body.
pub async fn read_body(state: &State, headers: &HeaderMap, body: Body) -> Result<Bytes, ApiError> {
    let limit = state.config.max_body_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(ApiError::TooLarge(limit));
    }
    let mut stream = body.into_data_stream();
    let mut buffer = Vec::with_capacity(declared.map_or(0, |n| n as usize));
    loop {
        match tokio::time::timeout(state.config.read_timeout, stream.next()).await {
            Err(_) => return Err(ApiError::SlowClient),
            Ok(None) => return Ok(Bytes::from(buffer)),
            Ok(Some(Err(e))) => return Err(ApiError::BadRequest(format!("reading the body: {e}"))),
            Ok(Some(Ok(piece))) => {
                if buffer.len() + piece.len() > limit {
                    return Err(ApiError::TooLarge(limit));
                }
                buffer.extend_from_slice(&piece);
            }
        }
    }
}

/// Reads a JSON body into `T`.
///
/// # Errors
/// As [`read_body`], and JSON that is not a `T` ([`ApiError::BadRequest`]).
pub async fn read_json<T: serde::de::DeserializeOwned>(
    state: &State,
    headers: &HeaderMap,
    body: Body,
) -> Result<T, ApiError> {
    let bytes = read_body(state, headers, body).await?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("request body: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn buckets_refill_at_the_rate() {
        let limiter = RateLimiter::new(Some(2.0), 2);
        let ip: IpAddr = [10, 0, 0, 1].into();
        let t0 = Instant::now();
        assert!(limiter.admit(ip, t0).is_ok());
        assert!(limiter.admit(ip, t0).is_ok());
        assert_eq!(limiter.admit(ip, t0), Err(1));
        assert!(limiter.admit([10, 0, 0, 2].into(), t0).is_ok(), "per client");
        assert!(limiter.admit(ip, t0 + Duration::from_millis(600)).is_ok());
        assert!(RateLimiter::new(None, 1).admit(ip, t0).is_ok());
    }

    #[test]
    fn the_token_must_match_exactly() {
        let mut headers = HeaderMap::new();
        assert!(!authorized(&headers, "s3cret"));
        headers.insert(header::AUTHORIZATION, "Bearer s3cret".parse().expect("value"));
        assert!(authorized(&headers, "s3cret"));
        assert!(!authorized(&headers, "s3cre"));
        headers.insert(header::AUTHORIZATION, "Basic s3cret".parse().expect("value"));
        assert!(!authorized(&headers, "s3cret"));
    }
}
