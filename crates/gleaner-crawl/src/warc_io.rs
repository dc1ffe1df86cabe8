//! WARC archives: [`WarcRecorder`] writes a crawl as request and response
//! records (one gzip member per record when the file name ends in `.gz`;
//! fields as [`gleaner_warc::write`] writes them), and [`WarcSource`]
//! answers fetches from such an archive, so a crawl replays offline.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::net::IpAddr;
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

use url::Url;

use crate::urls::{clean_url, url_key};
use crate::{is_redirect, CrawlError, Fetched, PageSource, Redirect};
use gleaner_warc::sniff::{check_body, check_type, parse_content_type};
use gleaner_warc::write::{header_case, record, warc_date, Head};
use gleaner_warc::{RecordOffset, WarcReader};

/// Most redirects followed inside an archive.
const MAX_REDIRECTS: usize = 10;

/// Bytes of a response block read when an archive is indexed: the HTTP
/// status line and headers must fit.
const HEAD_BYTES: u64 = gleaner_warc::HTTP_HEAD_ALLOWANCE;

fn warc_error(e: impl std::fmt::Display) -> CrawlError {
    CrawlError::Warc(e.to_string())
}

/// A new `WARC-Record-ID` (a random UUID, as RFC 4122 §4.4 makes them).
fn new_record_id() -> String {
    warc::Record::<warc::BufferedBody>::generate_record_id()
}

/// Writes fetched pages to a WARC file.
pub struct WarcRecorder {
    out: BufWriter<File>,
    gzip: bool,
    user_agent: String,
    /// The `WARC-Record-ID` of the `warcinfo` record, which every other
    /// record names in `WARC-Warcinfo-ID`.
    warcinfo_id: String,
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
/// replaced by the stored body's length), body; and where the body (the
/// payload) starts in it.
fn response_block(status: u16, headers: &[(String, String)], body: &[u8]) -> (Vec<u8>, usize) {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status)).into_bytes();
    for (name, value) in headers {
        let skip = ["transfer-encoding", "content-length", "connection", "keep-alive"];
        if skip.iter().any(|s| name.eq_ignore_ascii_case(s)) {
            continue;
        }
        let line = format!("{}: {}\r\n", header_case(name), value.replace(['\r', '\n'], " "));
        out.extend_from_slice(line.as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    let payload_start = out.len();
    out.extend_from_slice(body);
    (out, payload_start)
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
        let warcinfo_id = new_record_id();
        let mut recorder = WarcRecorder {
            out,
            gzip,
            user_agent: user_agent.to_string(),
            warcinfo_id: warcinfo_id.clone(),
            records: 0,
        };
        let info = format!(
            "software: gleaner-crawl/{}\r\nformat: WARC File Format 1.0\r\nhttp-header-user-agent: {user_agent}\r\n",
            env!("CARGO_PKG_VERSION")
        );
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let date = warc_date(SystemTime::now());
        let head = Head { version: "WARC/1.0", kind: "warcinfo", id: &warcinfo_id, date: &date };
        let fields = [("WARC-Filename", name.as_str())];
        recorder.emit(&record(&head, &fields, "application/warc-fields", info.as_bytes(), None))?;
        Ok(recorder)
    }

    /// Records written so far, `warcinfo` included.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn emit(&mut self, bytes: &[u8]) -> Result<(), CrawlError> {
        if self.gzip {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(bytes)?;
            self.out.write_all(&encoder.finish()?)?;
        } else {
            self.out.write_all(bytes)?;
        }
        self.records += 1;
        Ok(())
    }

    /// A request record and its response record, for one exchange with
    /// `url` (at `ip`, when known).
    fn exchange(
        &mut self,
        url: &Url,
        ip: Option<IpAddr>,
        (response, payload_start): (Vec<u8>, usize),
    ) -> Result<(), CrawlError> {
        let date = warc_date(SystemTime::now());
        let response_id = new_record_id();
        let request_id = new_record_id();
        let ip = ip.map(|ip| ip.to_string());
        let warcinfo_id = self.warcinfo_id.clone();
        let mut fields: Vec<(&str, &str)> = vec![("WARC-Target-URI", url.as_str())];
        if let Some(ip) = &ip {
            fields.push(("WARC-IP-Address", ip));
        }
        fields.push(("WARC-Warcinfo-ID", &warcinfo_id));
        let mut request_fields = fields.clone();
        request_fields.push(("WARC-Concurrent-To", &response_id));
        let head = Head { version: "WARC/1.0", kind: "request", id: &request_id, date: &date };
        let block = request_block(url, &self.user_agent);
        let request =
            record(&head, &request_fields, "application/http; msgtype=request", &block, None);
        self.emit(&request)?;
        let head = Head { version: "WARC/1.0", kind: "response", id: &response_id, date: &date };
        let payload = response.get(payload_start..).unwrap_or_default();
        let response =
            record(&head, &fields, "application/http; msgtype=response", &response, Some(payload));
        self.emit(&response)
    }

    /// Writes a request and a response record for each redirect of `page`
    /// and for the page itself.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&mut self, page: &Fetched) -> Result<(), CrawlError> {
        for hop in &page.redirects {
            let headers = [("Location".to_string(), hop.to.to_string())];
            self.exchange(&hop.from, None, response_block(hop.status, &headers, b""))?;
        }
        // The body as sent (RFC 9110 §8.4: a `Content-Encoding` is part
        // of the stored representation; WARC 1.1 §6.3 stores the response
        // as received), so the block and payload digests are over those
        // bytes too.
        let body = page.encoded_body.as_deref().unwrap_or(&page.body);
        let block = response_block(page.status, &page.headers, body);
        self.exchange(&page.url, page.remote_ip, block)
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

/// What the index keeps of a response: enough to follow redirects and to
/// find the record again, never the body.
#[derive(Debug, Clone)]
struct Entry {
    url: Url,
    status: u16,
    location: Option<String>,
    offset: RecordOffset,
    /// `WARC-Record-ID`, which tells the record apart in a whole-file
    /// gzip, where several share a member.
    record_id: Option<String>,
}

/// An HTTP response's status, headers, and where its body starts.
type HttpHead = (u16, Vec<(String, String)>, usize);

/// The HTTP status line and headers at the start of a response block,
/// and where its body starts; `None` when it is not an HTTP response or
/// its head is longer than what was read.
fn parse_head(block: &[u8]) -> Option<HttpHead> {
    let (head_end, body_start) = match memchr::memmem::find(block, b"\r\n\r\n") {
        Some(i) => (i, i + 4),
        None => {
            let i = memchr::memmem::find(block, b"\n\n")?;
            (i, i + 2)
        }
    };
    let head = String::from_utf8_lossy(block.get(..head_end)?);
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
    Some((status, headers, body_start))
}

/// A response read again from the archive: its headers, body (at most
/// the source's `max_bytes`) and `WARC-IP-Address`.
struct Response {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    ip: Option<IpAddr>,
}

/// A file an archive is read from again for each fetch.
trait Archive: Read + Seek + Send {}
impl<T: Read + Seek + Send> Archive for T {}

/// Pages from a WARC archive: `fetch(url)` answers with the response
/// recorded for that URL (by [`url_key`]), following recorded redirects.
/// No network.
///
/// Opening reads the archive once and keeps an index — each response's
/// URL, status, redirect target and offset — not the responses: a fetch
/// reads its record again from the file, at most
/// [`WarcSource::max_bytes`] of body (more is [`CrawlError::TooLarge`]).
/// An archive gzipped per record (or plain) is read from the record's
/// offset; one gzipped whole is inflated from its start to the record,
/// each time (recompress such an archive per record, `warcio recompress`,
/// for long replays). Damaged records are skipped, as `gleaner warc`
/// skips them. Response records with chunked bodies as other tools store
/// them are not de-chunked.
pub struct WarcSource {
    archive: Mutex<Box<dyn Archive>>,
    responses: HashMap<String, Entry>,
    order: Vec<Url>,
    max_bytes: u64,
    damaged: usize,
}

impl std::fmt::Debug for WarcSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcSource")
            .field("responses", &self.responses.len())
            .field("max_bytes", &self.max_bytes)
            .field("damaged", &self.damaged)
            .finish()
    }
}

impl WarcSource {
    /// Indexes the archive at `path` (gzip or plain, told apart by the
    /// bytes), with pages of at most 64 MiB (see
    /// [`WarcSource::max_bytes`]).
    ///
    /// # Errors
    /// The file cannot be read or is compressed in a way the reader does
    /// not read (zstd, bzip2, xz).
    pub fn open(path: &Path) -> Result<WarcSource, CrawlError> {
        WarcSource::from_reader(File::open(path)?)
    }

    /// Indexes an archive (gzip or plain, told apart by the bytes) read
    /// from `reader`, which is kept to read the pages from again.
    ///
    /// # Errors
    /// The reader fails or the bytes are compressed in a way the reader
    /// does not read.
    pub fn from_reader(
        reader: impl Read + Seek + Send + 'static,
    ) -> Result<WarcSource, CrawlError> {
        let mut archive: Box<dyn Archive> = Box::new(reader);
        let mut source = WarcSource {
            archive: Mutex::new(Box::new(io::Cursor::new(Vec::new()))),
            responses: HashMap::new(),
            order: Vec::new(),
            max_bytes: 64 << 20,
            damaged: 0,
        };
        source.index(&mut archive)?;
        source.archive = Mutex::new(archive);
        Ok(source)
    }

    /// The largest body a fetch returns, in bytes (64 MiB by default);
    /// a longer one is [`CrawlError::TooLarge`], never read whole.
    pub fn max_bytes(mut self, bytes: u64) -> WarcSource {
        self.max_bytes = bytes;
        self
    }

    fn index(&mut self, archive: &mut Box<dyn Archive>) -> Result<(), CrawlError> {
        archive.rewind()?;
        let input = BufReader::with_capacity(1 << 16, &mut **archive);
        let mut reader = WarcReader::new(input).map_err(warc_error)?;
        let heads = |headers: &[(String, String)]| {
            let response = gleaner_warc::header(headers, "warc-type")
                .is_some_and(|t| t.eq_ignore_ascii_case("response"));
            if response {
                HEAD_BYTES
            } else {
                0
            }
        };
        while let Some(record) = reader.next_record(heads) {
            let Ok(record) = record else {
                self.damaged += 1;
                continue;
            };
            if record.warc_type() != "response" {
                continue;
            }
            let Some(url) = record.target_uri().and_then(|u| Url::parse(u).ok()) else {
                continue;
            };
            let key = url_key(&url);
            if self.responses.contains_key(&key) {
                continue;
            }
            let Some((status, headers, _)) = parse_head(&record.block) else {
                continue;
            };
            let location = gleaner_warc::header(&headers, "location").map(str::to_string);
            if !is_redirect(status) {
                self.order.push(url.clone());
            }
            let entry = Entry {
                url,
                status,
                location,
                offset: record.offset,
                record_id: record.record_id().map(str::to_string),
            };
            self.responses.insert(key, entry);
        }
        Ok(())
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

    /// Damaged stretches of the archive skipped while indexing.
    pub fn damaged(&self) -> usize {
        self.damaged
    }

    /// The response of `entry` read again from the archive.
    fn read_response(&self, entry: &Entry) -> Result<Response, CrawlError> {
        let mut archive =
            self.archive.lock().map_err(|_| warc_error("the archive's lock is poisoned"))?;
        archive.seek(io::SeekFrom::Start(entry.offset.file))?;
        let input = BufReader::with_capacity(1 << 16, &mut **archive);
        let mut reader = WarcReader::new(input).map_err(warc_error)?;
        let keep = self.max_bytes.saturating_add(HEAD_BYTES);
        let id = entry.record_id.as_deref();
        let url = entry.url.as_str();
        loop {
            let wanted = |headers: &[(String, String)]| {
                let same = match id {
                    Some(id) => gleaner_warc::header(headers, "warc-record-id") == Some(id),
                    None => gleaner_warc::header(headers, "warc-target-uri")
                        .is_some_and(|u| u.trim_matches(['<', '>', ' ']) == url),
                };
                if same {
                    keep
                } else {
                    0
                }
            };
            let record = match reader.next_record(wanted) {
                Some(Ok(record)) => record,
                Some(Err(_)) => continue,
                None => return Err(warc_error("the record is no longer in the archive")),
            };
            if record.offset != entry.offset {
                continue;
            }
            let (_, headers, body_start) = parse_head(&record.block)
                .ok_or_else(|| warc_error("the record's HTTP header is unreadable"))?;
            let body = record.block.get(body_start..).unwrap_or_default();
            if record.is_cut() || body.len() as u64 > self.max_bytes {
                return Err(CrawlError::TooLarge { limit: self.max_bytes });
            }
            let ip = record.header("warc-ip-address").and_then(|ip| ip.trim().parse().ok());
            return Ok(Response { headers, body: body.to_vec(), ip });
        }
    }
}

impl PageSource for WarcSource {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        let mut current = clean_url(url);
        let mut seen = HashSet::from([current.to_string()]);
        let mut redirects = Vec::new();
        loop {
            let entry = self.responses.get(&url_key(&current)).ok_or(CrawlError::NotFound)?;
            if is_redirect(entry.status) {
                let status = entry.status;
                let to = entry
                    .location
                    .as_deref()
                    .and_then(|l| entry.url.join(l).ok())
                    .ok_or(CrawlError::BadRedirect { status })?;
                let to = clean_url(&to);
                if !seen.insert(to.to_string()) {
                    return Err(CrawlError::RedirectLoop(to));
                }
                if redirects.len() >= MAX_REDIRECTS {
                    return Err(CrawlError::TooManyRedirects(MAX_REDIRECTS));
                }
                redirects.push(Redirect { from: entry.url.clone(), status, to: to.clone() });
                current = to;
                continue;
            }
            if !(200..300).contains(&entry.status) {
                return Err(CrawlError::Status(entry.status));
            }
            let Response { headers, body, ip: remote_ip } = self.read_response(entry)?;
            let (content_type, charset) = gleaner_warc::header(&headers, "content-type")
                .map(parse_content_type)
                .unwrap_or_default();
            let declared_html = check_type(content_type.as_deref())?;
            // The body was stored as sent: undo its `Content-Encoding`
            // within the same byte cap as the stored bytes, as the HTTP
            // source does.
            let codings = gleaner_warc::header(&headers, "content-encoding").unwrap_or_default();
            let (body, encoded_body) = if gleaner_warc::decode::is_encoded(codings) {
                let limit = usize::try_from(self.max_bytes).unwrap_or(usize::MAX);
                match gleaner_warc::decode::decode(codings, &body, limit, false) {
                    Ok(decoded) => (decoded, Some(body)),
                    Err(gleaner_warc::decode::DecodeError::TooLarge) => {
                        return Err(CrawlError::TooLarge { limit: self.max_bytes })
                    }
                    Err(e) => return Err(CrawlError::ContentEncoding(e.to_string())),
                }
            } else {
                (body, None)
            };
            check_body(declared_html, &body)?;
            return Ok(Fetched {
                url: entry.url.clone(),
                status: entry.status,
                content_type,
                charset,
                headers,
                redirects,
                body,
                encoded_body,
                remote_ip,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Fetched {
        Fetched {
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
            remote_ip: Some("127.0.0.1".parse().unwrap()),
        }
    }

    #[test]
    fn records_round_trip_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.warc", "a.warc.gz"] {
            let path = dir.path().join(name);
            let mut rec = WarcRecorder::create(&path, "test-agent").unwrap();
            let page = page();
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
            assert_eq!(got.remote_ip, page.remote_ip);
            let again =
                source.fetch(&Url::parse("http://e.com/x/index.html#top").unwrap()).unwrap();
            assert_eq!(again.body, page.body);
            assert!(matches!(
                source.fetch(&Url::parse("http://e.com/y").unwrap()),
                Err(CrawlError::NotFound)
            ));
        }
    }

    /// See: issue 31 (item 16): the recorder writes canonical field names
    /// in order, digests, the IP address and HTTP names in their case.
    #[test]
    fn issue_31_recorded_records_follow_the_warc_conventions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc");
        let mut rec = WarcRecorder::create(&path, "test-agent").unwrap();
        rec.write(&page()).unwrap();
        rec.finish().unwrap();
        let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
        let response = text
            .split("WARC/1.0\r\n")
            .find(|r| {
                r.contains("WARC-Type: response\r\nWARC-Record-ID") && r.contains("127.0.0.1")
            })
            .expect("the page's response");
        let names: Vec<&str> = response
            .lines()
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split(':').next())
            .collect();
        assert_eq!(
            names,
            [
                "WARC-Type",
                "WARC-Record-ID",
                "WARC-Date",
                "WARC-Target-URI",
                "WARC-IP-Address",
                "WARC-Warcinfo-ID",
                "WARC-Block-Digest",
                "WARC-Payload-Digest",
                "Content-Type",
                "Content-Length"
            ]
        );
        assert!(response.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"), "{response}");
        let payload = gleaner_warc::write::sha1_base32(&page().body);
        assert!(response.contains(&format!("WARC-Payload-Digest: {payload}\r\n")), "{response}");
        assert!(text.starts_with("WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:"));
        assert!(text.contains("WARC-Filename: a.warc\r\n"));
    }

    /// See: issue 31 (items 13 and 16): a page sent gzipped is stored as
    /// sent, its digests are over the stored bytes, and a replay decodes
    /// it within `max_bytes`.
    #[test]
    fn issue_31_an_encoded_body_is_stored_as_sent_and_replayed_decoded() {
        let dir = tempfile::tempdir().unwrap();
        let html = format!("<html><p>{}</p>", "zipped ".repeat(200));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(html.as_bytes()).unwrap();
        let sent = gz.finish().unwrap();
        let mut page = page();
        page.headers.push(("content-encoding".into(), "gzip".into()));
        page.body = html.clone().into_bytes();
        page.encoded_body = Some(sent.clone());
        let path = dir.path().join("a.warc");
        let mut rec = WarcRecorder::create(&path, "test-agent").unwrap();
        rec.write(&page).unwrap();
        rec.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(memchr::memmem::find(&bytes, &sent).is_some(), "the gzip bytes are stored");
        assert!(memchr::memmem::find(&bytes, html.as_bytes()).is_none());
        let text = String::from_utf8_lossy(&bytes);
        let payload = gleaner_warc::write::sha1_base32(&sent);
        assert!(text.contains(&format!("WARC-Payload-Digest: {payload}\r\n")), "{text}");
        assert!(text.contains("Content-Encoding: gzip\r\n"), "{text}");
        let source = WarcSource::open(&path).unwrap();
        let got = source.fetch(&page.url).unwrap();
        assert_eq!(got.body, html.as_bytes());
        assert_eq!(got.encoded_body.as_deref(), Some(&sent[..]));
        assert_eq!(got.remote_ip, page.remote_ip);
        // Under the stored size but over it once decoded: refused.
        let limit = sent.len() as u64 + 10;
        assert!((html.len() as u64) > limit);
        let source = source.max_bytes(limit);
        assert!(
            matches!(source.fetch(&page.url), Err(CrawlError::TooLarge { limit: l }) if l == limit)
        );
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
        let whole = [warc.as_bytes(), warc.replace("/a", "/b").as_bytes()].concat();
        let mut gz_whole = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz_whole, &whole).unwrap();
        for bytes in [warc.as_bytes().to_vec(), gz.finish().unwrap(), gz_whole.finish().unwrap()] {
            let source = WarcSource::from_reader(io::Cursor::new(bytes)).unwrap();
            let page = source.fetch(&Url::parse("http://e.com/a").unwrap()).unwrap();
            assert_eq!(page.body, b"<p>x</p>");
        }
    }

    /// See: issue 31 (item 9): a replayed archive keeps an index, not its
    /// responses, and a body over the limit is refused, not read whole.
    #[test]
    fn issue_31_a_replayed_archive_honours_max_bytes() {
        let body = format!("<html><p>{}</p>", "x".repeat(1 << 20));
        let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        let warc = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/a\r\n\
             Content-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        );
        let source = WarcSource::from_reader(io::Cursor::new(warc.into_bytes())).unwrap();
        let url = Url::parse("http://e.com/a").unwrap();
        assert_eq!(source.fetch(&url).unwrap().body.len(), body.len());
        let source = source.max_bytes(1000);
        assert!(matches!(source.fetch(&url), Err(CrawlError::TooLarge { limit: 1000 })));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let source = WarcSource::from_reader(io::Cursor::new(
            b"WARC/1.0\r\nContent-Length: 99999\r\n\r\nshort".to_vec(),
        ))
        .unwrap();
        assert!(source.is_empty());
        assert_eq!(source.damaged(), 1);
    }
}
