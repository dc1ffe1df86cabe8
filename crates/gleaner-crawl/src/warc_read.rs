//! A streaming WARC reader: one record at a time from any [`Read`], in
//! bounded memory, from plain archives, archives gzipped one member per
//! record (the usual `.warc.gz`) and archives gzipped whole.
//!
//! The format is ISO 28500:2017 (WARC 1.1), §4–§5: a version line
//! (`WARC/1.0` or `WARC/1.1`), named fields up to an empty line, a block of
//! exactly `Content-Length` bytes, then two CRLFs. Annex D.2 adds gzip:
//! each record is its own gzip member, so that a record can be read from
//! its member's offset alone. [`RecordOffset`] gives that offset, so a
//! record's `source` (`FILE#OFFSET`) finds it again (`tail -c +OFFSET+1`).
//!
//! Deviation: the reader is lenient where writers in the wild are sloppy —
//! bare LF line ends, missing or extra CRLFs between records, folded
//! field lines — and strict only where it must be to stay in step: a
//! missing or invalid `Content-Length` or a block cut short is an error,
//! after which the rest of the file cannot be trusted.
//!
//! ```
//! use gleaner_crawl::warc::WarcReader;
//!
//! let warc = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
//! let mut reader = WarcReader::new(&warc[..])?;
//! let record = reader.next_record(|_| u64::MAX).expect("one record")?;
//! assert_eq!(record.header("warc-type"), Some("warcinfo"));
//! assert_eq!(record.block, b"hello");
//! assert!(reader.next_record(|_| u64::MAX).is_none());
//! # Ok::<(), gleaner_crawl::warc::WarcError>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};

/// Longest header section of a record (all its named fields) accepted.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// What can go wrong reading an archive. After any of these the rest of
/// the file is out of step and is not read further.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarcError {
    /// Reading (or decompressing) the file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A record does not start with a `WARC/` version line.
    #[error("not a WARC record (no WARC/ version line) at offset {offset}")]
    NotWarc {
        /// The offset in the uncompressed stream.
        offset: u64,
    },
    /// A record's header section is malformed (no `Content-Length`, a
    /// line without a colon, longer than [`MAX_HEADER_BYTES`], or cut short).
    #[error("bad WARC header at offset {offset}: {reason}")]
    BadHeader {
        /// The offset in the uncompressed stream.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The file ends inside a record's block.
    #[error("truncated WARC record at offset {offset}: the file ends {missing} bytes short of its Content-Length")]
    Truncated {
        /// The offset in the uncompressed stream.
        offset: u64,
        /// How many block bytes are missing.
        missing: u64,
    },
}

/// Where a record starts in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOffset {
    /// The byte offset in the file: of the record itself in a plain
    /// archive, of the gzip member it starts in in a gzipped one.
    pub file: u64,
    /// Where in that member's uncompressed bytes the record starts: 0 for
    /// a plain archive and for one member per record.
    pub within: u64,
}

impl std::fmt::Display for RecordOffset {
    /// `OFFSET`, or `OFFSET+WITHIN` for a record inside a member that
    /// holds several (a whole-file gzip).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.within == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}+{}", self.file, self.within)
        }
    }
}

/// One record: its named fields and (all or the head of) its block.
#[derive(Debug, Clone)]
pub struct WarcRecord {
    /// Where it starts in its file.
    pub offset: RecordOffset,
    /// The version line (`WARC/1.0`, `WARC/1.1`).
    pub version: String,
    /// The named fields in order, values trimmed.
    pub headers: Vec<(String, String)>,
    /// The block, or its first bytes when it was longer than asked for
    /// (see [`WarcRecord::is_cut`]).
    pub block: Vec<u8>,
    /// The block's length (`Content-Length`).
    pub length: u64,
}

impl WarcRecord {
    /// The value of the named field (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// `WARC-Type`, lower-case (`response`, `revisit`, …); empty when absent.
    pub fn warc_type(&self) -> String {
        self.header("warc-type").unwrap_or("").to_ascii_lowercase()
    }

    /// `WARC-Target-URI`, without the angle brackets WARC 1.0 examples use.
    pub fn target_uri(&self) -> Option<&str> {
        self.header("warc-target-uri").map(unbracket).filter(|u| !u.is_empty())
    }

    /// `WARC-Record-ID` as written (`<urn:uuid:…>`).
    pub fn record_id(&self) -> Option<&str> {
        self.header("warc-record-id")
    }

    /// `WARC-Date` (ISO 8601, `2024-01-01T00:00:00Z`).
    pub fn date(&self) -> Option<&str> {
        self.header("warc-date")
    }

    /// Did the block hold more bytes than were kept?
    pub fn is_cut(&self) -> bool {
        (self.block.len() as u64) < self.length
    }
}

/// The value of `name` among `headers` (case-insensitive).
pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

fn unbracket(s: &str) -> &str {
    s.trim().trim_start_matches('<').trim_end_matches('>').trim()
}

/// Counts the bytes consumed from a buffered reader: the compressed
/// offset of each gzip member.
struct Counted<R> {
    inner: R,
    consumed: u64,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.consumed += n as u64;
        self.inner.consume(n);
    }
}

/// The state of the decompressing layer.
enum Layer<R> {
    /// A plain archive: bytes pass through.
    Plain(Counted<R>),
    /// A gzipped archive, between members or inside one.
    Gzip(Box<Members<R>>),
    /// After an error or the end.
    Done,
}

/// The gzip members of an archive, one after the other (RFC 1952 §2.2),
/// through one inflater reset at each member: an archive gzipped per
/// record has a member per record, and a new decoder for each (its
/// window and tables allocated and cleared) was 2 % of a WARC run. The
/// header is read here, the deflate data by flate2, and the trailer's
/// CRC-32 and size are checked as flate2's `GzDecoder` checks them.
struct Members<R> {
    /// The raw deflate decoder over the archive's bytes.
    inflater: flate2::bufread::DeflateDecoder<Counted<R>>,
    /// The member being read (its checksum so far), `None` between two.
    member: Option<MemberCheck>,
}

/// The CRC-32 and size of a member's bytes so far.
#[derive(Default)]
struct MemberCheck {
    crc: crc32fast::Hasher,
    size: u32,
}

impl<R: BufRead> Members<R> {
    /// Reads a member's header (RFC 1952 §2.3: magic, method 8, flags, and
    /// the optional extra field, name, comment and header CRC).
    fn read_header(r: &mut Counted<R>) -> io::Result<()> {
        let mut fixed = [0u8; 10];
        r.read_exact(&mut fixed)?;
        if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & 0xE0 != 0 {
            return Err(corrupt("not a gzip member header"));
        }
        let flags = fixed[3];
        if flags & 0x04 != 0 {
            let mut len = [0u8; 2];
            r.read_exact(&mut len)?;
            let len = u64::from(u16::from_le_bytes(len));
            if io::copy(&mut r.take(len), &mut io::sink())? != len {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
        for zero_terminated in [0x08, 0x10] {
            if flags & zero_terminated != 0 {
                let mut field = Vec::new();
                if r.read_until(0, &mut field)? == 0 || field.last() != Some(&0) {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
            }
        }
        if flags & 0x02 != 0 {
            r.read_exact(&mut [0u8; 2])?;
        }
        Ok(())
    }

    /// Reads a member's trailer and checks it against what was inflated.
    fn check_trailer(r: &mut Counted<R>, check: MemberCheck) -> io::Result<()> {
        let mut trailer = [0u8; 8];
        r.read_exact(&mut trailer)?;
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        if crc != check.crc.finalize() || size != check.size {
            return Err(corrupt("a gzip member's checksum or size does not match its data"));
        }
        Ok(())
    }
}

/// An `InvalidData` error.
fn corrupt(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The uncompressed bytes of an archive, with the file offset of every
/// gzip member and where its bytes start in the uncompressed stream.
struct Uncompressed<R> {
    layer: Layer<R>,
    /// Uncompressed bytes handed out so far.
    produced: u64,
    /// (uncompressed start, file offset) of the members not yet passed.
    members: VecDeque<(u64, u64)>,
}

impl<R: BufRead> Uncompressed<R> {
    /// The offset of the record whose first byte is at `position` in the
    /// uncompressed stream; forgets the members before it.
    fn locate(&mut self, position: u64) -> RecordOffset {
        if matches!(self.layer, Layer::Plain(_)) {
            return RecordOffset { file: position, within: 0 };
        }
        while self.members.len() > 1 && self.members.get(1).is_some_and(|m| m.0 <= position) {
            self.members.pop_front();
        }
        match self.members.front() {
            Some(&(start, file)) if start <= position => {
                RecordOffset { file, within: position - start }
            }
            _ => RecordOffset { file: 0, within: position },
        }
    }
}

impl<R: BufRead> Read for Uncompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match std::mem::replace(&mut self.layer, Layer::Done) {
                Layer::Done => return Ok(0),
                Layer::Plain(mut r) => {
                    let n = r.read(buf)?;
                    self.layer = Layer::Plain(r);
                    self.produced += n as u64;
                    return Ok(n);
                }
                Layer::Gzip(mut gz) => {
                    if let Some(mut check) = gz.member.take() {
                        let n = gz.inflater.read(buf)?;
                        if n == 0 && !buf.is_empty() {
                            // The member's deflate data ended: its trailer,
                            // then the next member, if any.
                            Members::check_trailer(gz.inflater.get_mut(), check)?;
                            self.layer = Layer::Gzip(gz);
                            continue;
                        }
                        let inflated = buf.get(..n).unwrap_or_default();
                        check.crc.update(inflated);
                        check.size = check.size.wrapping_add(n as u32);
                        gz.member = Some(check);
                        self.layer = Layer::Gzip(gz);
                        self.produced += n as u64;
                        return Ok(n);
                    }
                    let r = gz.inflater.get_mut();
                    let next = r.fill_buf()?;
                    let (empty, gzip) = (next.is_empty(), next.starts_with(&[0x1f]));
                    if empty || !gzip {
                        let at = r.consumed;
                        // Kept for `file_position`; reading stays at the end.
                        self.layer = Layer::Gzip(gz);
                        if empty {
                            return Ok(0);
                        }
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!(
                                "bytes after the gzip member ending at offset {at} are not gzip"
                            ),
                        ));
                    }
                    self.members.push_back((self.produced, r.consumed));
                    Members::read_header(r)?;
                    gz.inflater.reset_data();
                    gz.member = Some(MemberCheck::default());
                    self.layer = Layer::Gzip(gz);
                }
            }
        }
    }
}

/// Reads WARC records one at a time (see the module docs).
pub struct WarcReader<R> {
    input: BufReader<Uncompressed<R>>,
    /// Uncompressed bytes consumed by the parser.
    position: u64,
    line: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> WarcReader<R> {
    /// A reader over `input`, gzipped or not (told by its first bytes).
    ///
    /// # Errors
    /// The first bytes cannot be read.
    pub fn new(mut input: R) -> Result<WarcReader<R>, WarcError> {
        let gzip = input.fill_buf()?.starts_with(&[0x1f, 0x8b]);
        let counted = Counted { inner: input, consumed: 0 };
        let layer = if gzip {
            let inflater = flate2::bufread::DeflateDecoder::new(counted);
            Layer::Gzip(Box::new(Members { inflater, member: None }))
        } else {
            Layer::Plain(counted)
        };
        let uncompressed = Uncompressed { layer, produced: 0, members: VecDeque::new() };
        Ok(WarcReader {
            input: BufReader::with_capacity(1 << 16, uncompressed),
            position: 0,
            line: Vec::with_capacity(256),
            failed: false,
        })
    }

    /// Bytes of the file consumed so far (compressed bytes for a gzipped
    /// archive): for a progress bar.
    pub fn file_position(&self) -> u64 {
        match &self.input.get_ref().layer {
            Layer::Plain(r) => r.consumed,
            Layer::Gzip(gz) => gz.inflater.get_ref().consumed,
            Layer::Done => 0,
        }
    }

    /// The next record, keeping at most `keep(&headers)` bytes of its
    /// block (0 skips the block unread into memory; `u64::MAX` keeps it
    /// whole); the rest of a longer block is skipped. `None` at the end of
    /// the archive, and after an error.
    pub fn next_record(
        &mut self,
        keep: impl FnOnce(&[(String, String)]) -> u64,
    ) -> Option<Result<WarcRecord, WarcError>> {
        if self.failed {
            return None;
        }
        let read = self.read_record(keep);
        if !matches!(read, Some(Ok(_))) {
            self.failed = true;
        }
        read
    }

    /// Reads one line (with its end) into `self.line`; its length, 0 at
    /// the end of the input.
    fn read_line(&mut self, limit: usize) -> io::Result<usize> {
        self.line.clear();
        let n = (&mut self.input).take(limit as u64).read_until(b'\n', &mut self.line)?;
        self.position += n as u64;
        Ok(n)
    }

    fn read_record(
        &mut self,
        keep: impl FnOnce(&[(String, String)]) -> u64,
    ) -> Option<Result<WarcRecord, WarcError>> {
        // Blank lines between records (the trailing CRLFs, or extra ones).
        loop {
            match self.read_line(MAX_HEADER_BYTES) {
                Err(e) => return Some(Err(e.into())),
                Ok(0) => return None,
                Ok(_) if self.line.iter().all(|b| b.is_ascii_whitespace()) => continue,
                Ok(_) => break,
            }
        }
        let start = self.position - self.line.len() as u64;
        let offset = self.input.get_mut().locate(start);
        Some(self.read_rest(start, offset, keep))
    }

    fn read_rest(
        &mut self,
        start: u64,
        offset: RecordOffset,
        keep: impl FnOnce(&[(String, String)]) -> u64,
    ) -> Result<WarcRecord, WarcError> {
        let version = String::from_utf8_lossy(&self.line).trim().to_string();
        if !version.starts_with("WARC/") {
            return Err(WarcError::NotWarc { offset: start });
        }
        let bad = |reason: &str| WarcError::BadHeader { offset: start, reason: reason.into() };
        let mut headers: Vec<(String, String)> = Vec::with_capacity(16);
        let mut total = 0;
        loop {
            let n = self.read_line(MAX_HEADER_BYTES - total)?;
            total += n;
            if n == 0 {
                return Err(if total >= MAX_HEADER_BYTES {
                    bad("longer than 1 MiB")
                } else {
                    bad("the file ends inside the header")
                });
            }
            let line = String::from_utf8_lossy(&self.line);
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                break;
            }
            // Step: a line starting with white space continues the last
            // field (WARC 1.1 §4, after RFC 2616's LWS).
            if line.starts_with([' ', '\t']) {
                if let Some((_, value)) = headers.last_mut() {
                    value.push(' ');
                    value.push_str(line.trim());
                    continue;
                }
            }
            let (name, value) =
                line.split_once(':').ok_or_else(|| bad("a field line has no colon"))?;
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let length: u64 = header(&headers, "content-length")
            .ok_or_else(|| bad("no Content-Length"))?
            .parse()
            .map_err(|_| bad("Content-Length is not a number"))?;
        let kept = keep(&headers).min(length);
        let mut block = Vec::with_capacity(usize::try_from(kept.min(1 << 24)).unwrap_or(0));
        let got = (&mut self.input).take(kept).read_to_end(&mut block)? as u64;
        let skipped = if got == kept {
            io::copy(&mut (&mut self.input).take(length - kept), &mut io::sink())?
        } else {
            0
        };
        self.position += got + skipped;
        if got + skipped < length {
            return Err(WarcError::Truncated { offset: start, missing: length - got - skipped });
        }
        Ok(WarcRecord { offset, version, headers, block, length })
    }
}

impl<R> std::fmt::Debug for WarcReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcReader").field("position", &self.position).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(kind: &str, body: &str) -> String {
        format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: <http://e.com/{kind}>\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).expect("gzip");
        gz.finish().expect("gzip")
    }

    fn all(bytes: &[u8]) -> Vec<Result<WarcRecord, WarcError>> {
        let mut reader = WarcReader::new(bytes).expect("reader");
        std::iter::from_fn(|| reader.next_record(|_| u64::MAX)).collect()
    }

    #[test]
    fn plain_per_record_gzip_and_whole_gzip_give_the_same_records_and_offsets() {
        let (a, b) = (record("warcinfo", "x: y"), record("response", "HTTP/1.1 200 OK\r\n\r\nhi"));
        let plain = format!("{a}{b}");
        let per_record = [gzip(&a), gzip(&b)].concat();
        let whole = gzip(&plain);
        let offsets = |bytes: &[u8]| -> Vec<String> {
            all(bytes).into_iter().map(|r| r.expect("record").offset.to_string()).collect()
        };
        assert_eq!(offsets(plain.as_bytes()), ["0".to_string(), a.len().to_string()]);
        assert_eq!(offsets(&per_record), ["0".to_string(), gzip(&a).len().to_string()]);
        assert_eq!(offsets(&whole), ["0".to_string(), format!("0+{}", a.len())]);
        for bytes in [plain.as_bytes(), &per_record, &whole] {
            let records: Vec<_> = all(bytes).into_iter().map(|r| r.expect("record")).collect();
            assert_eq!(records[1].warc_type(), "response");
            assert_eq!(records[1].target_uri(), Some("http://e.com/response"));
            assert_eq!(records[1].block, b"HTTP/1.1 200 OK\r\n\r\nhi");
        }
    }

    #[test]
    fn blocks_are_kept_as_asked_and_the_rest_skipped() {
        let text = format!("{}{}", record("resource", "0123456789"), record("metadata", "m"));
        let mut reader = WarcReader::new(text.as_bytes()).expect("reader");
        let first = reader.next_record(|_| 4).expect("first").expect("ok");
        assert_eq!(
            (first.block.as_slice(), first.length, first.is_cut()),
            (&b"0123"[..], 10, true)
        );
        let second = reader.next_record(|_| 0).expect("second").expect("ok");
        assert_eq!((second.warc_type().as_str(), second.block.len()), ("metadata", 0));
    }

    #[test]
    fn a_truncated_record_is_an_error_and_the_end() {
        let text = record("response", "0123456789");
        let cut = &text.as_bytes()[..text.len() - 8];
        let read = all(cut);
        assert_eq!(read.len(), 1);
        let error = read.into_iter().next().expect("one").expect_err("truncated").to_string();
        assert!(error.contains("truncated WARC record at offset 0"), "{error}");
        let gz = gzip(&text);
        let error = all(&gz[..gz.len() - 10]).into_iter().next().expect("one");
        assert!(error.is_err());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [
            &b"hello world\r\n"[..],
            b"WARC/1.0\r\nContent-Length: x\r\n\r\n",
            b"WARC/1.0\r\nno colon\r\n\r\n",
            b"\x1f\x8b\x08garbage",
        ] {
            let read = all(bytes);
            assert!(read.len() == 1 && read[0].is_err(), "{bytes:?}");
        }
        assert!(all(b"").is_empty());
    }

    #[test]
    fn gzip_members_with_optional_header_fields_are_read() {
        let (a, b) = (record("warcinfo", "x: y"), record("response", "HTTP/1.1 200 OK\r\n\r\nhi"));
        // Name, comment and extra field (RFC 1952 §2.3.1).
        let mut gz = flate2::GzBuilder::new()
            .filename("a.warc")
            .comment("made by a test")
            .extra(vec![1, 2, 3])
            .write(Vec::new(), flate2::Compression::fast());
        gz.write_all(a.as_bytes()).expect("gzip");
        let first = gz.finish().expect("gzip");
        let bytes = [first.clone(), gzip(&b)].concat();
        let records: Vec<_> = all(&bytes).into_iter().map(|r| r.expect("record")).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].offset.to_string(), first.len().to_string());
        assert_eq!(records[1].block, b"HTTP/1.1 200 OK\r\n\r\nhi");
    }

    #[test]
    fn a_member_whose_checksum_or_size_is_wrong_is_an_error() {
        let text = record("response", "0123456789");
        for at in [8, 4] {
            let mut gz = gzip(&text);
            let i = gz.len() - at;
            gz[i] ^= 0xFF;
            let read = all(&gz);
            assert!(read.iter().any(Result::is_err), "byte -{at} flipped");
        }
    }
}
