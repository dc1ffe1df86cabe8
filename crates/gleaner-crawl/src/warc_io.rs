//! WARC archives: [`WarcRecorder`] writes a crawl as request and response
//! records (with the `warc` crate; one gzip member per record when the
//! file name ends in `.gz`), and [`WarcSource`] answers fetches from such
//! an archive, so a crawl replays offline.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use url::Url;
use warc::{RecordBuilder, RecordType, WarcHeader};

use crate::sniff::{check_body, check_type, parse_content_type};
use crate::urls::{clean_url, url_key};
use crate::{is_redirect, CrawlError, Fetched, PageSource, Redirect};

/// Most redirects followed inside an archive.
const MAX_REDIRECTS: usize = 10;

/// Writes every byte on each `write`: the `warc` writer counts on it.
struct WriteAll<W>(W);

impl<W: Write> Write for WriteAll<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

fn warc_error(e: impl std::fmt::Display) -> CrawlError {
    CrawlError::Warc(e.to_string())
}

/// Writes fetched pages to a WARC file.
pub struct WarcRecorder {
    out: BufWriter<File>,
    gzip: bool,
    user_agent: String,
    records: u64,
}

impl std::fmt::Debug for WarcRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcRecorder")
            .field("gzip", &self.gzip)
            .field("records", &self.records)
            .finish()
    }
}

fn reason(status: u16) -> &'static str {
    reqwest::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("")
}

/// The HTTP request block a fetch of `url` sent.
fn request_block(url: &Url, user_agent: &str) -> Vec<u8> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    let host = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or("")),
        None => url.host_str().unwrap_or("").to_string(),
    };
    format!(
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {user_agent}\r\nAccept: */*\r\n\r\n"
    )
    .into_bytes()
}

/// The HTTP response block: status line, headers (hop-by-hop framing
/// replaced by the stored body's length), body.
fn response_block(status: u16, headers: &[(String, String)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status)).into_bytes();
    for (name, value) in headers {
        let skip = ["transfer-encoding", "content-length", "connection", "keep-alive"];
        if skip.iter().any(|s| name.eq_ignore_ascii_case(s)) {
            continue;
        }
        out.extend_from_slice(
            format!("{name}: {}\r\n", value.replace(['\r', '\n'], " ")).as_bytes(),
        );
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
    out
}

impl WarcRecorder {
    /// Creates (or truncates) `path` and writes a `warcinfo` record. The
    /// file is gzip-compressed, one member per record, when its name ends
    /// in `.gz`. `user_agent` goes into the request records.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn create(path: &Path, user_agent: &str) -> Result<WarcRecorder, CrawlError> {
        let gzip = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"));
        let out = BufWriter::new(File::create(path)?);
        let mut recorder =
            WarcRecorder { out, gzip, user_agent: user_agent.to_string(), records: 0 };
        let info = format!(
            "software: gleaner-crawl/{}\r\nformat: WARC File Format 1.0\r\nhttp-header-user-agent: {user_agent}\r\n",
            env!("CARGO_PKG_VERSION")
        );
        let builder = RecordBuilder::default()
            .warc_type(RecordType::WarcInfo)
            .header(WarcHeader::ContentType, "application/warc-fields")
            .body(info.into_bytes());
        recorder.emit(builder)?;
        Ok(recorder)
    }

    /// Records written so far, `warcinfo` included.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn emit(&mut self, builder: RecordBuilder) -> Result<(), CrawlError> {
        let (headers, body) = builder.build_raw();
        if self.gzip {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            warc::WarcWriter::new(WriteAll(&mut encoder)).write_raw(headers, &body)?;
            self.out.write_all(&encoder.finish()?)?;
        } else {
            warc::WarcWriter::new(WriteAll(&mut self.out)).write_raw(headers, &body)?;
        }
        self.records += 1;
        Ok(())
    }

    fn exchange(&mut self, url: &Url, response: Vec<u8>) -> Result<(), CrawlError> {
        let response_id = warc::Record::<warc::BufferedBody>::generate_record_id();
        let request = RecordBuilder::default()
            .warc_type(RecordType::Request)
            .header(WarcHeader::TargetURI, url.as_str())
            .header(WarcHeader::ConcurrentTo, response_id.as_str())
            .header(WarcHeader::ContentType, "application/http; msgtype=request")
            .body(request_block(url, &self.user_agent));
        self.emit(request)?;
        let response = RecordBuilder::default()
            .warc_id(response_id)
            .warc_type(RecordType::Response)
            .header(WarcHeader::TargetURI, url.as_str())
            .header(WarcHeader::ContentType, "application/http; msgtype=response")
            .body(response);
        self.emit(response)
    }

    /// Writes a request and a response record for each redirect of `page`
    /// and for the page itself.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&mut self, page: &Fetched) -> Result<(), CrawlError> {
        for hop in &page.redirects {
            let headers = [("Location".to_string(), hop.to.to_string())];
            self.exchange(&hop.from, response_block(hop.status, &headers, b""))?;
        }
        // The body as sent (RFC 9110 §8.4: a `Content-Encoding` is part
        // of the stored representation; WARC 1.1 §6.3 stores the response
        // as received).
        let body = page.encoded_body.as_deref().unwrap_or(&page.body);
        self.exchange(&page.url, response_block(page.status, &page.headers, body))
    }

    /// Flushes and closes the file.
    ///
    /// # Errors
    /// The last bytes cannot be written.
    pub fn finish(mut self) -> Result<(), CrawlError> {
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        Ok(())
    }
}

/// A response stored in an archive.
#[derive(Debug, Clone)]
struct Stored {
    url: Url,
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Splits the HTTP response block recorded for `url` into status,
/// headers and body.
fn parse_response(url: Url, block: &[u8]) -> Option<Stored> {
    let (head_end, body_start) = match block.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => (i, i + 4),
        None => {
            let i = block.windows(2).position(|w| w == b"\n\n")?;
            (i, i + 2)
        }
    };
    let head = String::from_utf8_lossy(&block[..head_end]);
    let mut lines = head.lines();
    let status_line = lines.next()?;
    let mut words = status_line.split_ascii_whitespace();
    if !words.next()?.starts_with("HTTP/") {
        return None;
    }
    let status = words.next()?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    Some(Stored { url, status, headers, body: block[body_start..].to_vec() })
}

/// Pages from a WARC archive: `fetch(url)` answers with the response
/// recorded for that URL (by [`url_key`]), following recorded redirects.
/// No network. Response records with chunked bodies as other tools store
/// them are not de-chunked.
#[derive(Debug, Clone, Default)]
pub struct WarcSource {
    responses: HashMap<String, Stored>,
    order: Vec<Url>,
}

impl WarcSource {
    /// Reads every response record of the archive at `path` (gzip or
    /// plain, told apart by the bytes) into memory.
    ///
    /// # Errors
    /// The file cannot be read or is not a WARC archive.
    pub fn open(path: &Path) -> Result<WarcSource, CrawlError> {
        WarcSource::from_reader(BufReader::with_capacity(1 << 16, File::open(path)?))
    }

    /// Reads every response record of an archive (gzip or plain, told
    /// apart by the bytes) from `reader` into memory, with the streaming
    /// reader of [`crate::warc`] (other records are skipped unread).
    ///
    /// # Errors
    /// The reader fails or the bytes are not a WARC archive.
    pub fn from_reader(reader: impl BufRead) -> Result<WarcSource, CrawlError> {
        WarcSource::read(reader)
    }

    fn read(reader: impl BufRead) -> Result<WarcSource, CrawlError> {
        let mut source = WarcSource::default();
        let mut archive = crate::warc_read::WarcReader::new(reader).map_err(warc_error)?;
        let responses = |headers: &[(String, String)]| {
            let response = crate::warc_read::header(headers, "warc-type")
                .is_some_and(|t| t.eq_ignore_ascii_case("response"));
            if response {
                u64::MAX
            } else {
                0
            }
        };
        while let Some(record) = archive.next_record(responses) {
            let record = record.map_err(warc_error)?;
            if record.warc_type() != "response" {
                continue;
            }
            let Some(url) = record.target_uri().and_then(|u| Url::parse(u).ok()) else {
                continue;
            };
            let key = url_key(&url);
            if source.responses.contains_key(&key) {
                continue;
            }
            let Some(stored) = parse_response(url, &record.block) else {
                continue;
            };
            if !is_redirect(stored.status) {
                source.order.push(stored.url.clone());
            }
            source.responses.insert(key, stored);
        }
        Ok(source)
    }

    /// The URLs of the recorded responses that are not redirects, in
    /// archive order.
    pub fn urls(&self) -> &[Url] {
        &self.order
    }

    /// Number of recorded responses (redirects included).
    pub fn len(&self) -> usize {
        self.responses.len()
    }

    /// Whether the archive held no response.
    pub fn is_empty(&self) -> bool {
        self.responses.is_empty()
    }
}

impl PageSource for WarcSource {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        let mut current = clean_url(url);
        let mut seen = HashSet::from([current.to_string()]);
        let mut redirects = Vec::new();
        loop {
            let stored = self.responses.get(&url_key(&current)).ok_or(CrawlError::NotFound)?;
            let header = |name: &str| {
                stored
                    .headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.as_str())
            };
            if is_redirect(stored.status) {
                let status = stored.status;
                let to = header("location")
                    .and_then(|l| stored.url.join(l).ok())
                    .ok_or(CrawlError::BadRedirect { status })?;
                let to = clean_url(&to);
                if !seen.insert(to.to_string()) {
                    return Err(CrawlError::RedirectLoop(to));
                }
                if redirects.len() >= MAX_REDIRECTS {
                    return Err(CrawlError::TooManyRedirects(MAX_REDIRECTS));
                }
                redirects.push(Redirect { from: stored.url.clone(), status, to: to.clone() });
                current = to;
                continue;
            }
            if !(200..300).contains(&stored.status) {
                return Err(CrawlError::Status(stored.status));
            }
            let (content_type, charset) =
                header("content-type").map(parse_content_type).unwrap_or_default();
            let declared_html = check_type(content_type.as_deref())?;
            let codings = header("content-encoding").unwrap_or_default();
            let (body, encoded_body) = if crate::decode::is_encoded(codings) {
                let limit = gleaner::document::MAX_SUPPORTED_BYTES;
                let decoded = crate::decode::decode(codings, &stored.body, limit, false)
                    .map_err(|e| CrawlError::ContentEncoding(e.to_string()))?;
                (decoded, Some(stored.body.clone()))
            } else {
                (stored.body.clone(), None)
            };
            check_body(declared_html, &body)?;
            return Ok(Fetched {
                url: stored.url.clone(),
                status: stored.status,
                content_type,
                charset,
                headers: stored.headers.clone(),
                redirects,
                body,
                encoded_body,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.warc", "a.warc.gz"] {
            let path = dir.path().join(name);
            let mut rec = WarcRecorder::create(&path, "test-agent").unwrap();
            let page = Fetched {
                url: Url::parse("http://e.com/x/").unwrap(),
                status: 200,
                content_type: Some("text/html".into()),
                charset: Some("utf-8".into()),
                headers: vec![
                    ("content-type".into(), "text/html; charset=utf-8".into()),
                    ("transfer-encoding".into(), "chunked".into()),
                ],
                redirects: vec![Redirect {
                    from: Url::parse("http://e.com/x").unwrap(),
                    status: 301,
                    to: Url::parse("http://e.com/x/").unwrap(),
                }],
                body: b"<html><p>hi\r\n\r\n</p>\n".to_vec(),
                encoded_body: None,
            };
            rec.write(&page).unwrap();
            assert_eq!(rec.records(), 5);
            rec.finish().unwrap();
            let source = WarcSource::open(&path).unwrap();
            assert_eq!(source.len(), 2);
            let got = source.fetch(&Url::parse("http://e.com/x").unwrap()).unwrap();
            assert_eq!(got.url, page.url);
            assert_eq!(got.body, page.body);
            assert_eq!(got.charset.as_deref(), Some("utf-8"));
            assert_eq!(got.redirects, page.redirects);
            let again =
                source.fetch(&Url::parse("http://e.com/x/index.html#top").unwrap()).unwrap();
            assert_eq!(again.body, page.body);
            assert!(matches!(
                source.fetch(&Url::parse("http://e.com/y").unwrap()),
                Err(CrawlError::NotFound)
            ));
        }
    }

    #[test]
    fn from_reader_reads_plain_and_gzip_bytes() {
        let http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>";
        let warc = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/a\r\n\
             WARC-Date: 2024-01-01T00:00:00Z\r\n\
             WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n\
             Content-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, warc.as_bytes()).unwrap();
        for bytes in [warc.as_bytes().to_vec(), gz.finish().unwrap()] {
            let source = WarcSource::from_reader(&bytes[..]).unwrap();
            assert_eq!(source.urls().len(), 1);
            let page = source.fetch(&Url::parse("http://e.com/a").unwrap()).unwrap();
            assert_eq!(page.body, b"<p>x</p>");
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(WarcSource::read(&b"WARC/1.0\r\nContent-Length: 99999\r\n\r\nshort"[..]).is_err());
    }
}
