//! Which WARC records are web pages, and their pages' bytes.
//!
//! A record is a page when it is a `response` record (WARC 1.1 §6.3)
//! holding an HTTP response (`Content-Type: application/http`) whose
//! `Content-Type` is HTML, or that has none and whose body sniffs as HTML
//! (the policy of [`crate::looks_like_html`]). Every other record is
//! skipped by kind: `revisit`, `request`, `metadata`, `warcinfo`, …, and
//! `non-html` for responses of another type. The body is de-chunked
//! (RFC 9112 §7.1) and decoded (`Content-Encoding` gzip, deflate, br, zstd;
//! RFC 9110 §8.4) when the headers say so, within a size limit; the
//! header's `charset` is carried so that it wins over the page's own
//! declaration (WHATWG HTML §13.2.3.1: the transport layer's encoding is
//! a certain one).
//!
//! ```
//! use gleaner_warc::{select, Selected, WarcReader};
//!
//! let http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n<p>caf\u{e9}</p>";
//! let warc = format!(
//!     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/\r\n\
//!      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
//!     http.len()
//! );
//! let mut reader = WarcReader::new(std::io::Cursor::new(warc.as_bytes()))?;
//! let record = reader.next_record(|_| u64::MAX).expect("a record")?;
//! let Selected::Page(page) = select(record, 1 << 20) else { panic!("a page") };
//! assert_eq!(page.url.as_deref(), Some("http://e.com/"));
//! assert_eq!(page.encoding.map(|e| e.name()), Some("windows-1252"));
//! # Ok::<(), gleaner_warc::WarcError>(())
//! ```

use crate::read::{header, WarcRecord};
use crate::sniff::{check_body, check_type, parse_content_type};

/// Bytes of a response block kept beyond the page size limit, for the
/// HTTP status line and headers.
pub const HTTP_HEAD_ALLOWANCE: u64 = 64 << 10;

/// Most HTTP header fields read from one response.
const MAX_HTTP_HEADERS: usize = 256;

/// A page found in a WARC record.
#[derive(Debug, Clone)]
pub struct WarcPage {
    /// `WARC-Target-URI`.
    pub url: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// The encoding named by the HTTP `charset`, when the core knows it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// The record's block when the body needed no decoding (the body is
    /// its tail from `body_start`: not copied out of it), or the decoded
    /// body (`body_start` 0).
    bytes: Vec<u8>,
    body_start: usize,
}

impl WarcPage {
    /// The HTTP body, de-chunked and decoded.
    pub fn body(&self) -> &[u8] {
        self.bytes.get(self.body_start..).unwrap_or_default()
    }

    /// The HTTP body, owned (the record's head cut off its front).
    pub fn into_body(self) -> Vec<u8> {
        let mut bytes = self.bytes;
        bytes.drain(..self.body_start.min(bytes.len()));
        bytes
    }
}

/// What a record is to a batch.
#[derive(Debug, Clone)]
pub enum Selected {
    /// A web page to extract.
    Page(WarcPage),
    /// Not a page: the kind it was skipped as (`revisit`, `request`,
    /// `metadata`, `warcinfo`, `resource`, `non-html`, …).
    Skipped(String),
    /// A response that should have been a page but cannot be read: a bad
    /// HTTP header, a body that does not decode, a page over the limit.
    Failed {
        /// `WARC-Target-URI`.
        url: Option<String>,
        /// `WARC-Date`.
        date: Option<String>,
        /// Why.
        error: String,
    },
}

/// How many bytes of a record's block to keep when reading it for
/// [`select`] with a page limit of `max_bytes`: none unless it is a
/// `response`.
pub fn block_bytes_to_keep(headers: &[(String, String)], max_bytes: usize) -> u64 {
    let response = header(headers, "warc-type").is_some_and(|t| t.eq_ignore_ascii_case("response"));
    if response {
        (max_bytes as u64).saturating_add(HTTP_HEAD_ALLOWANCE)
    } else {
        0
    }
}

/// Decides what `record` is and, for a page, decodes its body (at most
/// `max_bytes` bytes after decoding; a body that needs no decoding stays
/// in the record's block). Never panics on any input.
pub fn select(record: WarcRecord, max_bytes: usize) -> Selected {
    let kind = record.warc_type();
    if kind != "response" {
        return Selected::Skipped(skip_kind(&kind));
    }
    let http = record.header("content-type").is_none_or(|t| {
        let t = t.trim_start().to_ascii_lowercase();
        t.starts_with("application/http")
    });
    if !http {
        return Selected::Skipped("non-html".into());
    }
    let url = record.target_uri().map(str::to_string);
    let date = record.date().map(str::to_string);
    let failed = |error: String| Selected::Failed { url: url.clone(), date: date.clone(), error };
    let (headers, body) = match parse_http(&record.block) {
        Ok(parsed) => parsed,
        Err(e) => return failed(format!("bad HTTP response header: {e}")),
    };
    let (media, charset) =
        header(&headers, "content-type").map(parse_content_type).unwrap_or_default();
    let Ok(declared_html) = check_type(media.as_deref()) else {
        return Selected::Skipped("non-html".into());
    };
    if record.is_cut() {
        // Only the head of the block was kept: too large to be a page we
        // read, unless it is not a page at all.
        if declared_html || crate::looks_like_html(body) {
            return failed(too_large(max_bytes));
        }
        return Selected::Skipped("non-html".into());
    }
    let decoded = match decode_body(&headers, body, max_bytes) {
        Ok(decoded) => decoded,
        Err(e) => return failed(e),
    };
    if check_body(declared_html, decoded.as_deref().unwrap_or(body)).is_err() {
        return Selected::Skipped("non-html".into());
    }
    let encoding = charset.as_deref().and_then(gleaner::document::encoding_for_label);
    let record_id = record.record_id().map(str::to_string);
    let (bytes, body_start) = match decoded {
        Some(decoded) => (decoded, 0),
        None => {
            let body_start = record.block.len() - body.len();
            (record.block, body_start)
        }
    };
    Selected::Page(WarcPage { url, date, record_id, encoding, bytes, body_start })
}

/// The counted kind of a skipped record.
fn skip_kind(kind: &str) -> String {
    match kind {
        "" => "untyped".into(),
        "warcinfo" | "request" | "metadata" | "revisit" | "resource" | "conversion"
        | "continuation" => kind.into(),
        _ => "other".into(),
    }
}

fn too_large(max_bytes: usize) -> String {
    format!("page is more than the limit of {max_bytes} bytes (raise --max-bytes)")
}

/// Header fields, in order, values trimmed.
type Fields = Vec<(String, String)>;

/// Splits an HTTP response block into its headers and body.
fn parse_http(block: &[u8]) -> Result<(Fields, &[u8]), String> {
    let mut slots = [httparse::EMPTY_HEADER; MAX_HTTP_HEADERS];
    let mut response = httparse::Response::new(&mut slots);
    let mut config = httparse::ParserConfig::default();
    config
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true);
    let length = match config.parse_response(&mut response, block) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err("the block ends inside the headers".into()),
        Err(e) => return Err(e.to_string()),
    };
    let headers = response
        .headers
        .iter()
        .map(|h| (h.name.to_string(), String::from_utf8_lossy(h.value).trim().to_string()))
        .collect();
    Ok((headers, block.get(length..).unwrap_or_default()))
}

/// The body as the page's bytes: de-chunked and decoded as its headers
/// say (with [`crate::decode`], as the HTTP source decodes), at most
/// `max_bytes` long; `None` when `body` is that already.
fn decode_body(
    headers: &[(String, String)],
    body: &[u8],
    max_bytes: usize,
) -> Result<Option<Vec<u8>>, String> {
    let chunked = header(headers, "transfer-encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    let codings = header(headers, "content-encoding").unwrap_or("");
    let dechunked = chunked.then(|| dechunk(body, max_bytes)).flatten().transpose()?;
    if !crate::decode::is_encoded(codings) {
        if dechunked.as_ref().map_or(body.len(), Vec::len) > max_bytes {
            return Err(too_large(max_bytes));
        }
        return Ok(dechunked);
    }
    let bytes = dechunked.unwrap_or_else(|| body.to_vec());
    match crate::decode::decode(codings, &bytes, max_bytes, false) {
        Ok(decoded) => Ok(Some(decoded)),
        Err(crate::decode::DecodeError::TooLarge) => Err(too_large(max_bytes)),
        // Some archivers store the decoded body but keep the header.
        Err(_) if crate::looks_like_html(&bytes) => {
            if bytes.len() > max_bytes {
                return Err(too_large(max_bytes));
            }
            Ok(Some(bytes))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// De-chunks a chunked body (RFC 9112 §7.1): `None` when it is not
/// chunked after all (archivers that stored the de-chunked body but kept
/// the header), an error past the limit.
fn dechunk(body: &[u8], max_bytes: usize) -> Option<Result<Vec<u8>, String>> {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    loop {
        let end = rest.iter().position(|&b| b == b'\n')?;
        let line = std::str::from_utf8(rest.get(..end)?).ok()?;
        let size = line.split(';').next()?.trim();
        let size = usize::from_str_radix(size, 16).ok()?;
        rest = rest.get(end + 1..)?;
        if size == 0 {
            return Some(Ok(out));
        }
        // A last chunk cut short keeps what there is.
        let chunk = rest.get(..size).unwrap_or(rest);
        out.extend_from_slice(chunk);
        if out.len() > max_bytes {
            return Some(Err(too_large(max_bytes)));
        }
        rest = rest.get(chunk.len()..).unwrap_or_default();
        rest = rest.strip_prefix(b"\r").unwrap_or(rest);
        rest = rest.strip_prefix(b"\n").unwrap_or(rest);
        if rest.is_empty() {
            return Some(Ok(out));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn response(http: &[u8]) -> WarcRecord {
        WarcRecord {
            offset: crate::read::RecordOffset { file: 0, within: 0 },
            version: "WARC/1.0".into(),
            headers: vec![
                ("WARC-Type".into(), "response".into()),
                ("WARC-Target-URI".into(), "http://e.com/a".into()),
                ("WARC-Date".into(), "2024-01-01T00:00:00Z".into()),
            ],
            block: http.to_vec(),
            length: http.len() as u64,
        }
    }

    fn page(http: &[u8]) -> WarcPage {
        match select(response(http), 1 << 20) {
            Selected::Page(page) => page,
            other => panic!("not a page: {other:?}"),
        }
    }

    #[test]
    fn chunked_and_encoded_bodies_are_decoded() {
        let chunked = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>a\r\n6\r\nbc</p>\r\n0\r\n\r\n";
        assert_eq!(page(chunked).body(), b"<p>abc</p>");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>zipped</p>").expect("gzip");
        let mut http =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
                .to_vec();
        http.extend(gz.finish().expect("gzip"));
        assert_eq!(page(&http).body(), b"<p>zipped</p>");
        // zstd too: the codings of the HTTP source (`crate::decode`).
        let mut http =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: zstd\r\n\r\n"
                .to_vec();
        http.extend(zstd::encode_all(&b"<p>zstd</p>"[..], 1).expect("zstd"));
        assert_eq!(page(&http).body(), b"<p>zstd</p>");
        let stored_decoded = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n<html><p>x</p>";
        assert_eq!(page(stored_decoded).body(), b"<html><p>x</p>");
    }

    #[test]
    fn kinds_are_skipped_and_bad_responses_fail() {
        let mut revisit = response(b"HTTP/1.1 200 OK\r\n\r\n");
        revisit.headers[0].1 = "revisit".into();
        assert!(matches!(select(revisit, 100), Selected::Skipped(k) if k == "revisit"));
        let image = response(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG");
        assert!(matches!(select(image, 100), Selected::Skipped(k) if k == "non-html"));
        let plain = response(b"HTTP/1.1 200 OK\r\n\r\nhello");
        assert!(matches!(select(plain, 100), Selected::Skipped(k) if k == "non-html"));
        let bad = response(b"HTTP/1.1 200 OK\r\nContent-Type text/html\r\n");
        assert!(
            matches!(select(bad, 100), Selected::Failed { error, .. } if error.starts_with("bad HTTP response header"))
        );
        let big = response(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>0123456789</p>");
        assert!(
            matches!(select(big, 5), Selected::Failed { error, .. } if error.contains("limit of 5 bytes"))
        );
        let garbage = response(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\xff\xfe\xfd");
        assert!(
            matches!(select(garbage, 100), Selected::Failed { error, .. } if error.starts_with("cannot decode br"))
        );
    }
}
