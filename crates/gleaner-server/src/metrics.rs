//! Counters for `GET /metrics`, in Prometheus' text format (version
//! 0.0.4): requests by route and status, a latency histogram, pages and
//! bytes extracted, errors by kind, requests in flight.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The latency histogram's upper bounds, in seconds.
const BUCKETS: [f64; 12] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    in_flight: AtomicU64,
    pages: AtomicU64,
    page_bytes: AtomicU64,
    labelled: Mutex<Labelled>,
}

#[derive(Debug, Default)]
struct Labelled {
    /// (method, route, status) → count.
    requests: BTreeMap<(String, String, u16), u64>,
    /// route → (bucket counts, sum of seconds, count).
    latency: BTreeMap<String, ([u64; BUCKETS.len()], f64, u64)>,
    /// kind → count.
    errors: BTreeMap<String, u64>,
}

/// Decrements the in-flight gauge when dropped.
#[derive(Debug)]
pub struct InFlight<'a>(&'a Metrics);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    fn labelled(&self) -> std::sync::MutexGuard<'_, Labelled> {
        self.labelled.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A request begins; it ends when the guard is dropped.
    pub fn begin(&self) -> InFlight<'_> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self)
    }

    /// A request ended with `status` after `took`.
    pub fn request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let seconds = took.as_secs_f64();
        let mut l = self.labelled();
        *l.requests.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
        let entry = l.latency.entry(route.to_string()).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                entry.0[i] += 1;
            }
        }
        entry.1 += seconds;
        entry.2 += 1;
    }

    /// A page was extracted (successfully or not) from `bytes` bytes.
    pub fn page(&self, bytes: usize) {
        self.pages.fetch_add(1, Ordering::Relaxed);
        self.page_bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Something failed: a request (by its error kind) or a page (by the
    /// record's failure).
    pub fn error(&self, kind: &str) {
        *self.labelled().errors.entry(kind.to_string()).or_default() += 1;
    }

    /// Requests under way now.
    pub fn in_flight(&self) -> u64 {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// The exposition text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let l = self.labelled();
        let _ = writeln!(out, "# HELP gleaner_requests_total HTTP requests answered.");
        let _ = writeln!(out, "# TYPE gleaner_requests_total counter");
        for ((method, route, status), n) in &l.requests {
            let _ = writeln!(
                out,
                "gleaner_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(method),
                escape(route)
            );
        }
        let _ = writeln!(out, "# HELP gleaner_request_duration_seconds Time to answer a request.");
        let _ = writeln!(out, "# TYPE gleaner_request_duration_seconds histogram");
        for (route, (buckets, sum, count)) in &l.latency {
            let route = escape(route);
            for (bound, n) in BUCKETS.iter().zip(buckets) {
                let _ = writeln!(
                    out,
                    "gleaner_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "gleaner_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {count}"
            );
            let _ =
                writeln!(out, "gleaner_request_duration_seconds_sum{{route=\"{route}\"}} {sum}");
            let _ = writeln!(
                out,
                "gleaner_request_duration_seconds_count{{route=\"{route}\"}} {count}"
            );
        }
        let _ = writeln!(out, "# HELP gleaner_errors_total Failed requests and pages, by kind.");
        let _ = writeln!(out, "# TYPE gleaner_errors_total counter");
        for (kind, n) in &l.errors {
            let _ = writeln!(out, "gleaner_errors_total{{kind=\"{}\"}} {n}", escape(kind));
        }
        drop(l);
        let _ = writeln!(out, "# HELP gleaner_pages_total Pages extracted.");
        let _ = writeln!(out, "# TYPE gleaner_pages_total counter");
        let _ = writeln!(out, "gleaner_pages_total {}", self.pages.load(Ordering::Relaxed));
        let _ = writeln!(out, "# HELP gleaner_page_bytes_total Bytes of the pages extracted.");
        let _ = writeln!(out, "# TYPE gleaner_page_bytes_total counter");
        let _ =
            writeln!(out, "gleaner_page_bytes_total {}", self.page_bytes.load(Ordering::Relaxed));
        let _ = writeln!(out, "# HELP gleaner_in_flight_requests Requests under way.");
        let _ = writeln!(out, "# TYPE gleaner_in_flight_requests gauge");
        let _ = writeln!(out, "gleaner_in_flight_requests {}", self.in_flight());
        out
    }
}

/// A label value escaped as the text format asks.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative_and_counts_match() {
        let m = Metrics::default();
        m.request("POST", "/v1/extract", 200, Duration::from_millis(3));
        m.request("POST", "/v1/extract", 413, Duration::from_millis(300));
        m.error("too_large");
        m.page(1000);
        let text = m.render();
        assert!(text.contains(
            "gleaner_requests_total{method=\"POST\",route=\"/v1/extract\",status=\"413\"} 1"
        ));
        assert!(text.contains("route=\"/v1/extract\",le=\"0.005\"} 1"));
        assert!(text.contains("route=\"/v1/extract\",le=\"0.5\"} 2"));
        assert!(text.contains("route=\"/v1/extract\",le=\"+Inf\"} 2"));
        assert!(text.contains("gleaner_errors_total{kind=\"too_large\"} 1"));
        assert!(text.contains("gleaner_page_bytes_total 1000"));
        {
            let _g = m.begin();
            assert!(m.render().contains("gleaner_in_flight_requests 1"));
        }
        assert!(m.render().contains("gleaner_in_flight_requests 0"));
    }
}
