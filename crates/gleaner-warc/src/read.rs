//! A streaming WARC reader: one record at a time from any seekable
//! [`BufRead`], in bounded memory, from plain archives, archives gzipped
//! one member per record (the usual `.warc.gz`) and archives gzipped
//! whole.
//!
//! The format is ISO 28500:2017 (WARC 1.1), §4–§5: a version line
//! (`WARC/1.0` or `WARC/1.1`), named fields up to an empty line, a block of
//! exactly `Content-Length` bytes, then two CRLFs. Annex D.2 adds gzip:
//! each record is its own gzip member, so that a record can be read from
//! its member's offset alone. [`RecordOffset`] gives that offset, so a
//! record's `source` (`FILE#OFFSET`) finds it again (`tail -c +OFFSET+1`).
//!
//! # Damage
//! One bad record does not cost the records after it. A record is
//! accepted only when its block is followed by the next record's version
//! line (or the end of the file), or at least by the two CRLFs that end a
//! record; in a `.warc.gz`, a block that runs into a gzip member that
//! starts a record of its own has overrun its Content-Length. After any
//! damage the reader resynchronises and goes on:
//!
//! - a bad version line, header or `Content-Length`: at the next line that
//!   starts with `WARC/` and a digit, or the next gzip member that does;
//! - a block whose `Content-Length` is wrong (too long: it swallowed the
//!   records after it; too short: its tail is left over): back to the
//!   block's start, and from there to the next such line or member, so
//!   the records a too-long block swallowed are read after all;
//! - bad gzip data (a member that does not inflate, a wrong checksum, a
//!   member header that is not gzip, junk between members, a member cut
//!   short): at the next offset of the file where a gzip member starts
//!   whose data starts with `WARC/`.
//!
//! Each damaged stretch is one error ([`WarcError`]), and
//! [`WarcReader::last_skip`] tells where it started, where reading resumed
//! and how many bytes it skipped. Going back costs reading again: a reader
//! goes back only while it has read, in all, less than three times the
//! (uncompressed) archive plus 16 MiB, and reads only forward after that,
//! so a hostile file costs linear time.
//! Inside one gzip member (a whole-file gzip), damage to the compressed
//! data ends what can be read of that member: deflate cannot be entered
//! in the middle.
//!
//! Deviation: the reader is lenient where writers in the wild are sloppy —
//! bare LF line ends, missing or extra CRLFs between records, folded
//! field lines.
//!
//! ```
//! use gleaner_warc::WarcReader;
//!
//! let warc = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
//! let mut reader = WarcReader::new(std::io::Cursor::new(&warc[..]))?;
//! let record = reader.next_record(|_| u64::MAX).expect("one record")?;
//! assert_eq!(record.header("warc-type"), Some("warcinfo"));
//! assert_eq!(record.block, b"hello");
//! assert!(reader.next_record(|_| u64::MAX).is_none());
//! # Ok::<(), gleaner_warc::WarcError>(())
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

/// Longest header section of a record (all its named fields) accepted.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// Longest name or comment field of a gzip member header (RFC 1952 §2.3.1
/// sets no limit; real writers put a file name there). A longer one is
/// damage, not a reason to buffer the file.
pub const MAX_GZIP_NAME_BYTES: u64 = 64 << 10;

/// Bytes a reader may read beyond three times the (uncompressed) length
/// it has seen, counting bytes read again, and still go back over a
/// record whose `Content-Length` was wrong.
const REWIND_ALLOWANCE: u64 = 16 << 20;

/// What can go wrong reading an archive. [`WarcError::Io`] and
/// [`WarcError::Unsupported`] end the reading; after the others the reader
/// resynchronises (see the module docs) and goes on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WarcError {
    /// Reading the file failed (not its contents: the device or the
    /// system).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is compressed in a way the reader does not read.
    #[error("{format}-compressed WARC is not supported: decompress it first ({hint})")]
    Unsupported {
        /// The compression (`zstd`, `bzip2`, `xz`).
        format: &'static str,
        /// How to decompress it.
        hint: &'static str,
    },
    /// Bytes that are not a WARC record where one should start (no
    /// `WARC/` version line).
    #[error("not a WARC record (no WARC/ version line) at offset {offset}")]
    NotWarc {
        /// Where (see [`RecordOffset`]).
        offset: RecordOffset,
    },
    /// A record's header section is malformed (no `Content-Length`, a
    /// line without a colon, longer than [`MAX_HEADER_BYTES`], or cut short).
    #[error("bad WARC header at offset {offset}: {reason}")]
    BadHeader {
        /// Where the record starts.
        offset: RecordOffset,
        /// What is wrong.
        reason: String,
    },
    /// The file ends inside a record's block.
    #[error("truncated WARC record at offset {offset}: the file ends {missing} bytes short of its Content-Length")]
    Truncated {
        /// Where the record starts.
        offset: RecordOffset,
        /// How many block bytes are missing.
        missing: u64,
    },
    /// A record's block is not followed by the next record: its
    /// `Content-Length` is wrong.
    #[error("WARC record at offset {offset} does not end where its Content-Length says: {reason}")]
    Misframed {
        /// Where the record starts.
        offset: RecordOffset,
        /// What was found instead.
        reason: String,
    },
    /// The gzip layer is damaged: a member that does not inflate, a wrong
    /// checksum or size, a header that is not gzip, bytes between members.
    #[error("corrupt gzip data at compressed offset {offset}: {reason}")]
    Gzip {
        /// The file offset of the damaged member (or of the junk).
        offset: u64,
        /// What is wrong.
        reason: String,
    },
}

/// Where a record starts in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// The stretch of an archive that an error made the reader skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skip {
    /// Where the damage starts (the bad record, member or junk).
    pub from: RecordOffset,
    /// Where reading resumed: the next record; `None` at the end of the
    /// file.
    pub resumed: Option<RecordOffset>,
    /// Bytes skipped: of the file (compressed, as on disk) when the
    /// stretch spans gzip members or the archive is plain, of the
    /// uncompressed data when it lies within one member.
    pub bytes: u64,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.resumed {
            Some(at) => write!(f, "{} bytes skipped, reading resumed at offset {at}", self.bytes),
            None => write!(f, "{} bytes skipped to the end of the file", self.bytes),
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
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

fn unbracket(s: &str) -> &str {
    s.trim().trim_start_matches('<').trim_end_matches('>').trim()
}

/// Does `bytes` start a record: `WARC/` and a digit?
fn starts_record(bytes: &[u8]) -> bool {
    bytes.len() >= 6 && bytes.starts_with(b"WARC/") && bytes[5].is_ascii_digit()
}

/// Is `bytes` a whole version line (`WARC/1.0` and the line's end, or the
/// end of `bytes`), or does it start with one? Such a line inside
/// another is a record glued to damage before it (a record cut short and
/// the next written on).
fn version_line(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(b"WARC/") else { return false };
    let digits = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_digit()).count();
    let major = digits(rest);
    let Some(rest) = rest.get(major..).filter(|_| major > 0) else { return false };
    let Some(rest) = rest.strip_prefix(b".") else { return false };
    let minor = digits(rest);
    let Some(rest) = rest.get(minor..).filter(|_| minor > 0) else { return false };
    let rest = rest.strip_prefix(b"\r").unwrap_or(rest);
    rest.is_empty() || rest.starts_with(b"\n")
}

/// Where a version line is glued on inside `line` (not at its start).
/// It ends the line, so only the line's last bytes are looked at: this
/// runs on every header line, and a search through the whole line (or a
/// searcher built for each) was a tenth of reading a plain archive.
fn glued_record(line: &[u8]) -> Option<usize> {
    let tail = line.len().saturating_sub(VERSION_LINE).max(1);
    let window = line.get(tail..)?;
    memchr::memchr_iter(b'W', window)
        .map(|i| tail + i)
        .find(|&i| line.get(i..).is_some_and(version_line))
}

/// The longest version line [`version_line`] needs to see.
const VERSION_LINE: usize = 24;

/// Counts the bytes consumed from a buffered reader: the compressed
/// offset of each gzip member.
struct Counted<R> {
    inner: R,
    consumed: u64,
}

impl<R: BufRead + Seek> Counted<R> {
    /// Moves to file offset `at`.
    fn seek_to(&mut self, at: u64) -> io::Result<()> {
        self.inner.seek(SeekFrom::Start(at))?;
        self.consumed = at;
        Ok(())
    }
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
    /// The member being read, `None` between two.
    member: Option<MemberCheck>,
}

/// The member being read: where it starts, its first bytes, and the
/// CRC-32 and size of its bytes so far.
struct MemberCheck {
    file: u64,
    crc: crc32fast::Hasher,
    size: u32,
    head: [u8; 6],
    head_len: usize,
}

impl MemberCheck {
    fn new(file: u64) -> MemberCheck {
        MemberCheck { file, crc: crc32fast::Hasher::new(), size: 0, head: [0; 6], head_len: 0 }
    }
}

/// Damage to the gzip layer, kept when a read fails on it.
#[derive(Debug, Clone)]
struct GzFault {
    /// The member whose data is bad (its records are not to be trusted),
    /// `None` for junk or a bad header between members.
    member: Option<u64>,
    /// Where the damage is: the member's or the junk's file offset.
    at: u64,
    /// Where to look for the next member.
    scan_from: u64,
    reason: String,
}

/// Reads a member's header (RFC 1952 §2.3: magic, method 8, flags, and
/// the optional extra field, name, comment and header CRC).
fn read_gzip_header<R: BufRead>(r: &mut Counted<R>) -> Result<(), String> {
    let eof = |e: io::Error| format!("a gzip member header is cut short ({e})");
    let mut fixed = [0u8; 10];
    r.read_exact(&mut fixed).map_err(eof)?;
    if fixed[..3] != [0x1f, 0x8b, 8] || fixed[3] & 0xE0 != 0 {
        return Err("not a gzip member header".into());
    }
    let flags = fixed[3];
    if flags & 0x04 != 0 {
        let mut len = [0u8; 2];
        r.read_exact(&mut len).map_err(eof)?;
        let len = u64::from(u16::from_le_bytes(len));
        if io::copy(&mut r.take(len), &mut io::sink()).map_err(eof)? != len {
            return Err("a gzip member header is cut short".into());
        }
    }
    for zero_terminated in [0x08, 0x10] {
        if flags & zero_terminated != 0 {
            // Skipped in place, never buffered: a name that never ends
            // costs a scan, not memory.
            let mut seen = 0u64;
            loop {
                let buf = r.fill_buf().map_err(eof)?;
                if buf.is_empty() {
                    return Err("a gzip member header is cut short".into());
                }
                let room = usize::try_from(MAX_GZIP_NAME_BYTES - seen).unwrap_or(usize::MAX);
                let window = buf.get(..buf.len().min(room)).unwrap_or(buf);
                if let Some(end) = memchr::memchr(0, window) {
                    r.consume(end + 1);
                    break;
                }
                let n = window.len();
                r.consume(n);
                seen += n as u64;
                if seen >= MAX_GZIP_NAME_BYTES {
                    return Err(format!(
                        "a gzip member header's name or comment is longer than {} KiB",
                        MAX_GZIP_NAME_BYTES >> 10
                    ));
                }
            }
        }
    }
    if flags & 0x02 != 0 {
        r.read_exact(&mut [0u8; 2]).map_err(eof)?;
    }
    Ok(())
}

/// The uncompressed bytes of an archive, with the file offset of every
/// gzip member and where its bytes start in the uncompressed stream.
struct Uncompressed<R> {
    layer: Layer<R>,
    /// Uncompressed bytes handed out so far (moves back only when the
    /// reader goes back to a member it has read).
    produced: u64,
    /// (uncompressed start, file offset) of the members not yet passed.
    members: VecDeque<(u64, u64)>,
    /// How many members whose data starts with `WARC/` and a digit have
    /// begun: a block that runs into one has overrun.
    record_members: u64,
    /// The damage behind the last failed read of the gzip layer.
    fault: Option<GzFault>,
    /// The furthest file offset reached.
    furthest: u64,
    /// Uncompressed bytes handed out in all, counting those read again
    /// (the work done), and the most `produced` has been.
    total_out: u64,
    furthest_out: u64,
}

impl<R: BufRead + Seek> Uncompressed<R> {
    /// The offset of the record whose first byte is at `position` in the
    /// uncompressed stream; forgets the members before it.
    fn locate(&mut self, position: u64) -> RecordOffset {
        if matches!(self.layer, Layer::Plain(_)) {
            return RecordOffset { file: position, within: 0 };
        }
        while self.members.len() > 1 && self.members.get(1).is_some_and(|m| m.0 <= position) {
            self.members.pop_front();
        }
        self.peek_offset(position)
    }

    /// The offset of uncompressed `position`, among the members kept.
    fn peek_offset(&self, position: u64) -> RecordOffset {
        if matches!(self.layer, Layer::Plain(_)) {
            return RecordOffset { file: position, within: 0 };
        }
        match self.members.iter().rev().find(|m| m.0 <= position) {
            Some(&(start, file)) => RecordOffset { file, within: position - start },
            None => RecordOffset { file: 0, within: position },
        }
    }

    /// Bytes of the file consumed.
    fn consumed(&self) -> u64 {
        match &self.layer {
            Layer::Plain(r) => r.consumed,
            Layer::Gzip(gz) => gz.inflater.get_ref().consumed,
        }
    }

    /// Reads, recording the damage when the gzip layer fails.
    fn read_gzip(
        gz: &mut Members<R>,
        state: &mut GzState<'_>,
        buf: &mut [u8],
    ) -> io::Result<usize> {
        loop {
            if let Some(mut check) = gz.member.take() {
                let n = match gz.inflater.read(buf) {
                    Ok(n) => n,
                    Err(e) => {
                        let reason = if e.kind() == io::ErrorKind::UnexpectedEof {
                            "the member is cut short (the file ends inside it)".to_string()
                        } else {
                            format!("the member does not inflate: {e}")
                        };
                        return Err(state.fault(GzFault {
                            member: Some(check.file),
                            at: check.file,
                            scan_from: check.file + 1,
                            reason,
                        }));
                    }
                };
                if n == 0 && !buf.is_empty() {
                    // The member's deflate data ended: its trailer, then
                    // the next member, if any.
                    let r = gz.inflater.get_mut();
                    let mut trailer = [0u8; 8];
                    let checked =
                        r.read_exact(&mut trailer).map_err(|e| e.to_string()).and_then(|()| {
                            let [c0, c1, c2, c3, s0, s1, s2, s3] = trailer;
                            let crc = u32::from_le_bytes([c0, c1, c2, c3]);
                            let size = u32::from_le_bytes([s0, s1, s2, s3]);
                            if crc == check.crc.clone().finalize() && size == check.size {
                                Ok(())
                            } else {
                                Err("its checksum or size does not match its data".into())
                            }
                        });
                    if let Err(reason) = checked {
                        return Err(state.fault(GzFault {
                            member: Some(check.file),
                            at: check.file,
                            scan_from: check.file + 1,
                            reason,
                        }));
                    }
                    continue;
                }
                let inflated = buf.get(..n).unwrap_or_default();
                check.crc.update(inflated);
                check.size = check.size.wrapping_add(n as u32);
                if check.head_len < check.head.len() {
                    let take = (check.head.len() - check.head_len).min(n);
                    let (head, got) = (&mut check.head, check.head_len);
                    if let (Some(to), Some(from)) =
                        (head.get_mut(got..got + take), inflated.get(..take))
                    {
                        to.copy_from_slice(from);
                    }
                    check.head_len += take;
                    if check.head_len == check.head.len() && starts_record(&check.head) {
                        *state.record_members += 1;
                    }
                }
                gz.member = Some(check);
                *state.produced += n as u64;
                return Ok(n);
            }
            let r = gz.inflater.get_mut();
            let at = r.consumed;
            let next = r.fill_buf()?;
            if next.is_empty() {
                return Ok(0);
            }
            if !next.starts_with(&[0x1f]) {
                return Err(state.fault(GzFault {
                    member: None,
                    at,
                    scan_from: at,
                    reason: "bytes between gzip members that are not gzip".into(),
                }));
            }
            state.members.push_back((*state.produced, at));
            if let Err(reason) = read_gzip_header(r) {
                return Err(state.fault(GzFault { member: None, at, scan_from: at + 1, reason }));
            }
            gz.inflater.reset_data();
            gz.member = Some(MemberCheck::new(at));
        }
    }
}

/// The fields of [`Uncompressed`] that reading the gzip layer updates.
struct GzState<'a> {
    produced: &'a mut u64,
    members: &'a mut VecDeque<(u64, u64)>,
    record_members: &'a mut u64,
    fault: &'a mut Option<GzFault>,
}

impl GzState<'_> {
    /// Keeps `fault` and returns the error that reports it.
    fn fault(&mut self, fault: GzFault) -> io::Error {
        let error = io::Error::new(io::ErrorKind::InvalidData, fault.reason.clone());
        *self.fault = Some(fault);
        error
    }
}

impl<R: BufRead + Seek> Read for Uncompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.layer {
            Layer::Plain(r) => {
                let n = r.read(buf)?;
                self.produced += n as u64;
                n
            }
            Layer::Gzip(gz) => {
                let mut state = GzState {
                    produced: &mut self.produced,
                    members: &mut self.members,
                    record_members: &mut self.record_members,
                    fault: &mut self.fault,
                };
                Self::read_gzip(gz, &mut state, buf)?
            }
        };
        self.furthest = self.furthest.max(self.consumed());
        self.total_out += n as u64;
        self.furthest_out = self.furthest_out.max(self.produced);
        Ok(n)
    }
}

/// A buffer over the uncompressed bytes that can also look ahead a few
/// bytes across its end ([`Buffer::peek`]) and be emptied when the reader
/// goes back.
struct Buffer<R> {
    inner: Uncompressed<R>,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// The uncompressed offset of `buf[start]`.
    pos: u64,
}

impl<R: BufRead + Seek> Buffer<R> {
    /// At least `n` bytes ahead (fewer only at the end of the data).
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.end - self.start < n {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            while self.end < n.min(self.buf.len()) {
                let k = self.inner.read(self.buf.get_mut(self.end..).unwrap_or_default())?;
                if k == 0 {
                    break;
                }
                self.end += k;
            }
        }
        Ok(self.buf.get(self.start..self.end).unwrap_or_default())
    }

    /// Forgets what is buffered and continues at uncompressed `pos`.
    fn reset(&mut self, pos: u64) {
        self.start = 0;
        self.end = 0;
        self.pos = pos;
    }
}

impl<R: BufRead + Seek> Read for Buffer<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end && out.len() >= self.buf.len() {
            let n = self.inner.read(out)?;
            self.pos += n as u64;
            return Ok(n);
        }
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        if let (Some(to), Some(from)) = (out.get_mut(..n), available.get(..n)) {
            to.copy_from_slice(from);
        }
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead + Seek> BufRead for Buffer<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.end = self.inner.read(&mut self.buf)?;
        }
        Ok(self.buf.get(self.start..self.end).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        self.start += n;
        self.pos += n as u64;
    }
}

/// How to find the next record after damage.
#[derive(Debug, Clone, Copy)]
enum Resync {
    /// Look on from here.
    Forward,
    /// The next record's version line is read already.
    Found,
    /// Go back to this uncompressed position (a block's start, which
    /// begins a line), then look on.
    Back(u64),
    /// Look for a gzip member from this file offset.
    Member(u64),
    /// Stop reading.
    Stop,
}

/// A failure and how to recover from it.
struct Fault {
    error: WarcError,
    /// Where the damage starts, and its uncompressed position.
    from: (RecordOffset, u64),
    resync: Resync,
}

/// Reads WARC records one at a time (see the module docs).
pub struct WarcReader<R> {
    input: Buffer<R>,
    line: Vec<u8>,
    /// The uncompressed position of the next record's version line, read
    /// ahead into `line`.
    pending: Option<u64>,
    /// Damage found after a good record, reported by the next call.
    deferred: Option<Fault>,
    /// Whether the last byte read ended a line.
    at_line_start: bool,
    /// The length of a plain archive (its uncompressed end).
    plain_end: Option<u64>,
    /// What the last error skipped.
    skip: Option<Skip>,
    stopped: bool,
}

impl<R: BufRead + Seek> WarcReader<R> {
    /// A reader over `input` from where it stands, gzipped or not (told
    /// by its first bytes). Offsets are of the whole file.
    ///
    /// # Errors
    /// The first bytes cannot be read ([`WarcError::Io`]), or they are
    /// zstd, bzip2 or xz ([`WarcError::Unsupported`]).
    pub fn new(mut input: R) -> Result<WarcReader<R>, WarcError> {
        // Offsets are of the file, also when reading starts further in.
        // A pipe cannot seek: it is read from where it stands, and damage
        // that needs going back, or a search for the next gzip member,
        // ends the reading there.
        let start = input.stream_position().unwrap_or(0);
        let end = match input.seek(SeekFrom::End(0)) {
            Ok(end) => {
                input.seek(SeekFrom::Start(start))?;
                Some(end)
            }
            Err(_) => None,
        };
        let first = input.fill_buf()?;
        if let Some((format, hint)) = unsupported(first) {
            return Err(WarcError::Unsupported { format, hint });
        }
        let gzip = sniff_gzip(first);
        let counted = Counted { inner: input, consumed: start };
        let layer = if gzip {
            let inflater = flate2::bufread::DeflateDecoder::new(counted);
            Layer::Gzip(Box::new(Members { inflater, member: None }))
        } else {
            Layer::Plain(counted)
        };
        // A plain archive's positions are its file offsets.
        let produced = if gzip { 0 } else { start };
        let uncompressed = Uncompressed {
            layer,
            produced,
            members: VecDeque::new(),
            record_members: 0,
            fault: None,
            furthest: start,
            total_out: 0,
            furthest_out: produced,
        };
        Ok(WarcReader {
            input: Buffer {
                inner: uncompressed,
                buf: vec![0; 1 << 16].into_boxed_slice(),
                start: 0,
                end: 0,
                pos: produced,
            },
            line: Vec::with_capacity(256),
            pending: None,
            deferred: None,
            at_line_start: true,
            plain_end: end.filter(|_| !gzip),
            skip: None,
            stopped: false,
        })
    }

    /// The furthest byte of the file read so far (compressed bytes for a
    /// gzipped archive): for a progress bar.
    pub fn file_position(&self) -> u64 {
        self.input.inner.furthest
    }

    /// The stretch the last error skipped (`None` before any error and
    /// after one that ended the reading).
    pub fn last_skip(&self) -> Option<Skip> {
        self.skip
    }

    /// The next record, keeping at most `keep(&headers)` bytes of its
    /// block (0 skips the block unread into memory; `u64::MAX` keeps it
    /// whole); the rest of a longer block is skipped. `None` at the end of
    /// the archive. After an `Err`, [`WarcReader::last_skip`] says what was
    /// skipped, and the next call goes on after the damage (unless the
    /// error was [`WarcError::Io`]: then it is `None`).
    pub fn next_record(
        &mut self,
        keep: impl FnOnce(&[(String, String)]) -> u64,
    ) -> Option<Result<WarcRecord, WarcError>> {
        if self.stopped {
            return None;
        }
        let fault = match self.deferred.take() {
            Some(fault) => fault,
            None => match self.read_record(keep) {
                Ok(Some(record)) => return Some(Ok(record)),
                Ok(None) => return None,
                Err(fault) => fault,
            },
        };
        Some(Err(self.recover(fault)))
    }

    /// Reads one line (with its end) into `self.line`; its length, 0 at
    /// the end of the input.
    fn read_line(&mut self, limit: usize) -> io::Result<usize> {
        self.line.clear();
        let n = (&mut self.input).take(limit as u64).read_until(b'\n', &mut self.line)?;
        if n > 0 {
            self.at_line_start = self.line.last() == Some(&b'\n');
        }
        Ok(n)
    }

    /// The fault for a failed read at uncompressed `position`: damage to
    /// the gzip layer when it says so, else the end of reading.
    fn io_fault(&mut self, error: io::Error, from: (RecordOffset, u64)) -> Fault {
        match self.input.inner.fault.clone() {
            Some(gz) => {
                let from = if gz.member.is_some_and(|m| m == from.0.file) {
                    from
                } else {
                    (RecordOffset { file: gz.at, within: 0 }, self.input.pos)
                };
                Fault {
                    error: WarcError::Gzip { offset: gz.at, reason: gz.reason },
                    from,
                    resync: Resync::Member(gz.scan_from),
                }
            }
            None => Fault { error: WarcError::Io(error), from, resync: Resync::Stop },
        }
    }

    fn read_record(
        &mut self,
        keep: impl FnOnce(&[(String, String)]) -> u64,
    ) -> Result<Option<WarcRecord>, Fault> {
        let start = match self.pending.take() {
            Some(start) => start,
            None => loop {
                // Blank lines between records (the trailing CRLFs, or
                // extra ones).
                let here = self.input.pos;
                match self.read_line(MAX_HEADER_BYTES) {
                    Err(e) => {
                        let from = (self.input.inner.peek_offset(here), here);
                        return Err(self.io_fault(e, from));
                    }
                    Ok(0) => return Ok(None),
                    Ok(_) if self.line.iter().all(u8::is_ascii_whitespace) => continue,
                    Ok(_) => break here,
                }
            },
        };
        let offset = self.input.inner.locate(start);
        let from = (offset, start);
        if !starts_record(&self.line) || glued_record(&self.line).is_some() {
            let resync = self.unglue(start, false);
            return Err(Fault { error: WarcError::NotWarc { offset }, from, resync });
        }
        let version = String::from_utf8_lossy(&self.line).trim().to_string();
        let bad = |reason: &str| WarcError::BadHeader { offset, reason: reason.into() };
        let mut headers: Vec<(String, String)> = Vec::with_capacity(16);
        let mut total = 0;
        loop {
            let line_start = self.input.pos;
            let n = match self.read_line(MAX_HEADER_BYTES - total) {
                Ok(n) => n,
                Err(e) => return Err(self.io_fault(e, from)),
            };
            total += n;
            if n == 0 {
                let error = if total >= MAX_HEADER_BYTES {
                    bad("longer than 1 MiB (the header limit)")
                } else {
                    bad("the file ends inside the header")
                };
                return Err(Fault { error, from, resync: Resync::Forward });
            }
            if self.line.last() != Some(&b'\n') && total >= MAX_HEADER_BYTES {
                let error = bad("longer than 1 MiB (the header limit)");
                return Err(Fault { error, from, resync: Resync::Forward });
            }
            if starts_record(&self.line) || glued_record(&self.line).is_some() {
                // The next record starts inside this one's header: this
                // one is cut short.
                let resync = self.unglue(line_start, true);
                let error = bad("cut short by the next record's version line");
                return Err(Fault { error, from, resync });
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
            let Some((name, value)) = line.split_once(':') else {
                let error = bad("a field line has no colon");
                return Err(Fault { error, from, resync: Resync::Forward });
            };
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let length = match header(&headers, "content-length").map(|v| v.parse::<u64>()) {
            Some(Ok(length)) => length,
            Some(Err(_)) => {
                let error = bad("Content-Length is not a number");
                return Err(Fault { error, from, resync: Resync::Forward });
            }
            None => {
                let error = bad("no Content-Length");
                return Err(Fault { error, from, resync: Resync::Forward });
            }
        };
        let block_start = self.input.pos;
        if let Some(end) = self.plain_end.filter(|&end| block_start.saturating_add(length) > end) {
            // A plain file's end is known: a block past it is not read
            // to find that out (a file of such records costs one pass).
            let missing = block_start.saturating_add(length) - end;
            let error = WarcError::Truncated { offset, missing };
            return Err(Fault { error, from, resync: Resync::Forward });
        }
        let members_before = self.input.inner.record_members;
        let kept = keep(&headers).min(length);
        let mut block = Vec::with_capacity(usize::try_from(kept.min(1 << 24)).unwrap_or(0));
        let read = (&mut self.input).take(kept).read_to_end(&mut block).and_then(|got| {
            if got as u64 == kept {
                io::copy(&mut (&mut self.input).take(length - kept), &mut io::sink())
                    .map(|skipped| got as u64 + skipped)
            } else {
                Ok(got as u64)
            }
        });
        let got = match read {
            Ok(got) => got,
            Err(e) => {
                let mut fault = self.io_fault(e, from);
                if matches!(fault.resync, Resync::Member(_)) && fault.from != from {
                    // The block ran into a later member that is damaged:
                    // the members in between may hold records.
                    fault.resync = Resync::Back(block_start);
                    fault.error = WarcError::Misframed {
                        offset,
                        reason: format!("its block runs into damage ({})", fault.error),
                    };
                    fault.from = from;
                }
                return Err(fault);
            }
        };
        self.at_line_start = false;
        if got < length {
            let error = WarcError::Truncated { offset, missing: length - got };
            return Err(Fault { error, from, resync: Resync::Back(block_start) });
        }
        if self.input.inner.record_members != members_before {
            let error = WarcError::Misframed {
                offset,
                reason: "its block runs into the next gzip member's record".into(),
            };
            return Err(Fault { error, from, resync: Resync::Back(block_start) });
        }
        let last_member = self.input.inner.peek_offset(self.input.pos.saturating_sub(1)).file;
        let record = WarcRecord { offset, version, headers, block, length };
        self.look_ahead(record, from, block_start, last_member).map(Some)
    }

    /// After `record`'s block: it stands when the next record's version
    /// line follows (read into `line`), or the end of the file, or the two
    /// line ends that close a record; otherwise its `Content-Length` was
    /// wrong.
    fn look_ahead(
        &mut self,
        record: WarcRecord,
        from: (RecordOffset, u64),
        block_start: u64,
        last_member: u64,
    ) -> Result<WarcRecord, Fault> {
        let mut blank = 0;
        loop {
            let here = self.input.pos;
            match self.read_line(MAX_HEADER_BYTES) {
                Err(e) => {
                    let fault = self.io_fault(e, from);
                    let tainted = self.input.inner.fault.as_ref().is_some_and(|gz| {
                        gz.member.is_some_and(|m| (from.0.file..=last_member).contains(&m))
                    });
                    if tainted {
                        return Err(fault);
                    }
                    self.deferred = Some(fault);
                    return Ok(record);
                }
                Ok(0) => return Ok(record),
                Ok(_) if self.line.iter().all(u8::is_ascii_whitespace) => blank += 1,
                Ok(_) if starts_record(&self.line) => {
                    self.pending = Some(here);
                    return Ok(record);
                }
                Ok(_) if blank >= 2 => return self.junk_after(record, from, block_start, here),
                Ok(_) => {
                    let error = WarcError::Misframed {
                        offset: from.0,
                        reason: "its block is followed by bytes that are not the next record"
                            .into(),
                    };
                    return Err(Fault { error, from, resync: Resync::Back(block_start) });
                }
            }
        }
    }

    /// `record` ended as records end (its block, two line ends), but what
    /// follows at `junk` is not a record. It stands unless a record starts
    /// inside its block: then its `Content-Length` ran over the records
    /// after it and ended on two line ends by chance (the HTTP header of
    /// a record it swallowed ends so). The block is looked through again
    /// to tell, and reading goes on at the next record either way.
    fn junk_after(
        &mut self,
        record: WarcRecord,
        from: (RecordOffset, u64),
        block_start: u64,
        junk: u64,
    ) -> Result<WarcRecord, Fault> {
        let offset = self.input.inner.peek_offset(junk);
        let junk_fault =
            |resync| Fault { error: WarcError::NotWarc { offset }, from: (offset, junk), resync };
        if !self.go_back(block_start) {
            // Out of allowance: trust the record, look on from here.
            let resync = self.unglue(junk, false);
            self.deferred = Some(junk_fault(resync));
            return Ok(record);
        }
        match self.scan() {
            Ok(true) if self.pending.is_some_and(|next| next < junk) => {
                let error = WarcError::Misframed {
                    offset: from.0,
                    reason: "a record starts inside its block".into(),
                };
                Err(Fault { error, from, resync: Resync::Found })
            }
            Ok(true) => {
                self.deferred = Some(junk_fault(Resync::Found));
                Ok(record)
            }
            Ok(false) => {
                self.deferred = Some(junk_fault(Resync::Forward));
                Ok(record)
            }
            Err(()) => {
                self.deferred = Some(junk_fault(Resync::Stop));
                Ok(record)
            }
        }
    }

    /// After a bad line that started at `line_start`: when a version line
    /// is glued on inside it (or, `may_start`, it starts with one), that is
    /// the next record's (kept as the pending line); else look on from
    /// here.
    fn unglue(&mut self, line_start: u64, may_start: bool) -> Resync {
        let starts = may_start && starts_record(&self.line);
        let at = if starts { Some(0) } else { glued_record(&self.line) };
        match at {
            Some(i) => {
                self.line.drain(..i);
                self.pending = Some(line_start + i as u64);
                Resync::Found
            }
            None => Resync::Forward,
        }
    }

    /// Recovers from `fault` (see the module docs) and returns its error;
    /// `last_skip` tells what was skipped.
    fn recover(&mut self, fault: Fault) -> WarcError {
        let Fault { error, from, resync } = fault;
        self.skip = None;
        let found = match resync {
            Resync::Stop => {
                self.stopped = true;
                return error;
            }
            Resync::Found => Ok(true),
            Resync::Forward => self.scan(),
            Resync::Back(position) => {
                if self.go_back(position) {
                    self.scan()
                } else {
                    // Out of allowance, or the member is gone: look on.
                    self.pending = None;
                    self.scan()
                }
            }
            Resync::Member(at) => self.scan_members(at),
        };
        let found = match found {
            Ok(found) => found,
            Err(()) => {
                self.stopped = true;
                false
            }
        };
        let resumed_at = found.then(|| self.pending.unwrap_or(self.input.pos));
        let resumed = resumed_at.map(|p| self.input.inner.peek_offset(p));
        let bytes = match resumed {
            Some(to) if to.file != from.0.file => to.file.saturating_sub(from.0.file),
            Some(_) => resumed_at.unwrap_or(from.1).saturating_sub(from.1),
            None if from.0.within == 0 => self.input.inner.furthest.saturating_sub(from.0.file),
            None => self.input.pos.saturating_sub(from.1),
        };
        self.skip = Some(Skip { from: from.0, resumed, bytes });
        if !found {
            self.stopped = true;
        }
        error
    }

    /// Goes back to uncompressed `position` (a line's start), when the
    /// allowance for re-reading lets it: `false` when it cannot.
    fn go_back(&mut self, position: u64) -> bool {
        let inner = &mut self.input.inner;
        let (member_start, file) = match &inner.layer {
            Layer::Plain(_) => (position, position),
            Layer::Gzip(_) => match inner.members.iter().rev().find(|m| m.0 <= position) {
                Some(&m) => m,
                None => return false,
            },
        };
        // Going back costs reading again up to where reading was; a record
        // that claims more than the file holds costs a read to its end.
        // Both count: once the reading in all passes three times the file
        // (and an allowance), reading only goes on.
        // (Counted in uncompressed bytes: inflating is the work.)
        let cost = inner.produced.saturating_sub(member_start);
        let allowance = inner.furthest_out.saturating_mul(3).saturating_add(REWIND_ALLOWANCE);
        if inner.total_out.saturating_add(cost) > allowance {
            return false;
        }
        let moved = match &mut inner.layer {
            Layer::Plain(r) => r.seek_to(file),
            Layer::Gzip(gz) => {
                gz.member = None;
                gz.inflater.reset_data();
                gz.inflater.get_mut().seek_to(file)
            }
        };
        if moved.is_err() {
            return false;
        }
        inner.fault = None;
        inner.members.clear();
        inner.produced = member_start;
        self.input.reset(member_start);
        self.pending = None;
        let skip = position - member_start;
        match io::copy(&mut (&mut self.input).take(skip), &mut io::sink()) {
            Ok(n) if n == skip => {
                self.at_line_start = true;
                true
            }
            // Damage on the way back: the scan meets it again and looks
            // for the next member from there.
            _ => true,
        }
    }

    /// Looks on from the current position for the next line (or gzip
    /// member) that starts with `WARC/` and a digit, and reads it into
    /// `line`: `Ok(true)` when found, `Ok(false)` at the end of the file,
    /// `Err` when the file cannot be read at all.
    fn scan(&mut self) -> Result<bool, ()> {
        // Kept from one window to the next, so that a version line that
        // straddles two is seen whole in the second.
        const KEEP: usize = VERSION_LINE;
        self.pending = None;
        loop {
            if self.input.inner.fault.is_some() {
                let at = self.input.inner.fault.as_ref().map_or(0, |f| f.scan_from);
                return self.scan_members(at);
            }
            let pos = self.input.pos;
            let peeked = self.input.peek(KEEP + 1).map(<[u8]>::len);
            let len = match peeked {
                Ok(len) => len,
                Err(_) if self.input.inner.fault.is_some() => continue,
                Err(_) => return Err(()),
            };
            if len == 0 {
                return Ok(false);
            }
            let end = len <= KEEP;
            let input = &self.input;
            let window = input.buf.get(input.start..input.end).unwrap_or_default();
            let member_starts = input
                .inner
                .members
                .iter()
                .filter(|m| m.0 >= pos && m.0 < pos + len as u64)
                .map(|m| (m.0 - pos) as usize);
            // Records start at a line's start or a member's: `WARC/` and
            // a digit; glued on after damage, anywhere: a whole version
            // line.
            let first = self.at_line_start.then_some(0);
            let lines = memchr::memchr_iter(b'\n', window).map(|i| i + 1);
            let starts = first
                .into_iter()
                .chain(lines)
                .chain(member_starts)
                .filter(|&c| c + 6 <= len && window.get(c..).is_some_and(starts_record));
            let glued = memchr::memmem::find_iter(window, b"WARC/").filter(|&c| {
                (end || c + KEEP <= len)
                    && window.get(c..len.min(c + KEEP)).is_some_and(version_line)
            });
            let found = starts.chain(glued).min();
            let step = if len > KEEP { len - KEEP } else { len };
            let line_ends = window.get(step - 1) == Some(&b'\n');
            if let Some(c) = found {
                self.input.consume(c);
                let here = self.input.pos;
                return match self.read_line(MAX_HEADER_BYTES) {
                    Ok(_) => {
                        self.pending = Some(here);
                        Ok(true)
                    }
                    Err(_) if self.input.inner.fault.is_some() => continue,
                    Err(_) => Err(()),
                };
            }
            self.at_line_start = line_ends;
            self.input.consume(step);
            let members = &mut self.input.inner.members;
            let here = self.input.pos;
            while members.len() > 1 && members.get(1).is_some_and(|m| m.0 <= here) {
                members.pop_front();
            }
        }
    }

    /// Looks for the next gzip member at or after file offset `from` whose
    /// data starts with `WARC/` and a digit, and reads its first line into
    /// `line`. Plain archives have no members: the end.
    fn scan_members(&mut self, from: u64) -> Result<bool, ()> {
        self.pending = None;
        let mut at = from;
        loop {
            let inner = &mut self.input.inner;
            let Layer::Gzip(gz) = &mut inner.layer else { return Ok(false) };
            let r = gz.inflater.get_mut();
            if r.seek_to(at).is_err() {
                return Err(());
            }
            let (len, candidate) = match r.fill_buf() {
                Ok(buf) => {
                    let head = buf.get(..buf.len().saturating_sub(3)).unwrap_or_default();
                    let candidate = memchr::memchr_iter(0x1f, head).find(|&i| {
                        matches!(buf.get(i + 1..i + 4), Some(&[0x8b, 8, flags]) if flags & 0xE0 == 0)
                    });
                    (buf.len(), candidate)
                }
                Err(_) => return Err(()),
            };
            if len < 4 {
                return Ok(false);
            }
            let Some(i) = candidate else {
                at += (len - 3) as u64;
                continue;
            };
            let candidate = at + i as u64;
            if self.try_member(candidate) {
                return Ok(true);
            }
            at = candidate + 1;
        }
    }

    /// Starts reading at a gzip member that may begin at file offset
    /// `at`: `true` when it does and its data starts a record (its first
    /// line is then in `line`).
    fn try_member(&mut self, at: u64) -> bool {
        let inner = &mut self.input.inner;
        let Layer::Gzip(gz) = &mut inner.layer else { return false };
        gz.member = None;
        gz.inflater.reset_data();
        if gz.inflater.get_mut().seek_to(at).is_err() {
            return false;
        }
        inner.fault = None;
        inner.members.clear();
        let start = inner.produced;
        self.input.reset(start);
        // Six bytes, not a buffer's worth: a false candidate costs little
        // inflating.
        let mut head = [0u8; 6];
        let mut got = 0;
        while got < head.len() {
            match self.input.inner.read(head.get_mut(got..).unwrap_or_default()) {
                Ok(0) | Err(_) => break,
                Ok(k) => got += k,
            }
        }
        if got < head.len() || !starts_record(&head) {
            self.input.inner.fault = None;
            return false;
        }
        if let Some(to) = self.input.buf.get_mut(..head.len()) {
            to.copy_from_slice(&head);
        }
        self.input.end = head.len();
        self.at_line_start = true;
        if self.read_line(MAX_HEADER_BYTES).is_err() {
            self.input.inner.fault = None;
            return false;
        }
        self.pending = Some(start);
        true
    }
}

/// Is the archive gzipped, by its first bytes? When they start a gzip
/// member; also when they start neither a member nor a record but a
/// member that starts a record follows (the first member's header is
/// damaged), so that the damage costs that member, not the file.
fn sniff_gzip(first: &[u8]) -> bool {
    if first.starts_with(&[0x1f, 0x8b]) {
        return true;
    }
    if first.trim_ascii_start().starts_with(b"WARC/") {
        return false;
    }
    memchr::memmem::find_iter(first, &[0x1f, 0x8b, 0x08]).take(16).any(|c| {
        let mut head = [0u8; 6];
        let member = first.get(c..).unwrap_or_default();
        flate2::read::GzDecoder::new(member).read_exact(&mut head).is_ok() && starts_record(&head)
    })
}

/// A compression the reader does not read, by the file's first bytes.
fn unsupported(first: &[u8]) -> Option<(&'static str, &'static str)> {
    let zstd = first.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
        // A skippable frame: the dictionary of a `.warc.zst` (IIPC's
        // zstd WARC proposal) comes first in one.
        || (first.len() >= 4 && first[0] & 0xF0 == 0x50 && first[1..4] == [0x2a, 0x4d, 0x18]);
    if zstd {
        return Some(("zstd", "zstd -d FILE"));
    }
    if first.starts_with(b"BZh") {
        return Some(("bzip2", "bunzip2 FILE"));
    }
    if first.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        return Some(("xz", "unxz FILE"));
    }
    None
}

impl<R> std::fmt::Debug for WarcReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcReader").field("position", &self.input.pos).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn record(kind: &str, body: &str) -> String {
        format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: <http://e.com/{kind}>\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
    }

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).expect("gzip");
        gz.finish().expect("gzip")
    }

    fn all(bytes: &[u8]) -> Vec<Result<WarcRecord, WarcError>> {
        let mut reader = WarcReader::new(Cursor::new(bytes)).expect("reader");
        std::iter::from_fn(|| reader.next_record(|_| u64::MAX)).collect()
    }

    /// The records read (by their target URI) and the errors, in order.
    fn outline(bytes: &[u8]) -> Vec<String> {
        all(bytes)
            .into_iter()
            .map(|r| match r {
                Ok(r) => r.target_uri().unwrap_or("?").trim_start_matches("http://e.com/").into(),
                Err(e) => format!("error: {e}"),
            })
            .collect()
    }

    #[test]
    fn plain_per_record_gzip_and_whole_gzip_give_the_same_records_and_offsets() {
        let (a, b) = (record("warcinfo", "x: y"), record("response", "HTTP/1.1 200 OK\r\n\r\nhi"));
        let plain = format!("{a}{b}");
        let per_record = [gzip(a.as_bytes()), gzip(b.as_bytes())].concat();
        let whole = gzip(plain.as_bytes());
        let offsets = |bytes: &[u8]| -> Vec<String> {
            all(bytes).into_iter().map(|r| r.expect("record").offset.to_string()).collect()
        };
        assert_eq!(offsets(plain.as_bytes()), ["0".to_string(), a.len().to_string()]);
        assert_eq!(offsets(&per_record), ["0".to_string(), gzip(a.as_bytes()).len().to_string()]);
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
        let mut reader = WarcReader::new(Cursor::new(text.as_bytes())).expect("reader");
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
        let gz = gzip(text.as_bytes());
        let read = all(&gz[..gz.len() - 10]);
        assert_eq!(read.len(), 1);
        let error = read.into_iter().next().expect("one").expect_err("cut").to_string();
        assert!(error.contains("compressed offset 0: the member is cut short"), "{error}");
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
        let bytes = [first.clone(), gzip(b.as_bytes())].concat();
        let records: Vec<_> = all(&bytes).into_iter().map(|r| r.expect("record")).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].offset.to_string(), first.len().to_string());
        assert_eq!(records[1].block, b"HTTP/1.1 200 OK\r\n\r\nhi");
    }

    #[test]
    fn a_member_whose_checksum_or_size_is_wrong_is_an_error() {
        let text = record("response", "0123456789");
        for at in [8, 4] {
            let mut gz = gzip(text.as_bytes());
            let i = gz.len() - at;
            gz[i] ^= 0xFF;
            let read = all(&gz);
            assert!(read.iter().any(Result::is_err), "byte -{at} flipped");
            assert!(read.iter().all(Result::is_err), "a record of a bad member is not given");
        }
    }

    /// Five records; the third is damaged by `damage` (given the record's
    /// text, returns its damaged bytes).
    fn five_with(damage: impl Fn(&str) -> Vec<u8>) -> Vec<Vec<u8>> {
        ["a", "b", "c", "d", "e"]
            .iter()
            .map(|k| {
                let text = record(k, &format!("HTTP/1.1 200 OK\r\n\r\n<p>{k}</p>\r\nmore\r\n"));
                if *k == "c" {
                    damage(&text)
                } else {
                    text.into_bytes()
                }
            })
            .collect()
    }

    fn set_length(text: &str, value: &str) -> Vec<u8> {
        let at = text.find("Content-Length: ").expect("length") + "Content-Length: ".len();
        let end = at + text[at..].find('\r').expect("line end");
        format!("{}{value}{}", &text[..at], &text[end..]).into_bytes()
    }

    /// See: issue 31 (item 2): one bad record costs that record only, in a
    /// plain archive and in one gzipped per record.
    #[test]
    fn issue_31_one_bad_record_does_not_drop_the_records_after_it() {
        let len = |t: &str| t.len() - t.find("\r\n\r\n").expect("header end") - 8;
        type Damage = Box<dyn Fn(&str) -> Vec<u8>>;
        let damages: Vec<(&str, Damage)> = vec![
            ("negative length", Box::new(|t| set_length(t, "-5"))),
            ("length abc", Box::new(|t| set_length(t, "abc"))),
            ("length too long", Box::new(move |t| set_length(t, &(len(t) + 100).to_string()))),
            ("length far too long", Box::new(|t| set_length(t, "99999999"))),
            ("length too short", Box::new(move |t| set_length(t, &(len(t) - 7).to_string()))),
            ("no version line", Box::new(|t| t.replacen("WARC/1.1", "WXRC/1.1", 1).into_bytes())),
            ("header cut", Box::new(|t| t.as_bytes()[..30].to_vec())),
            ("junk", Box::new(|_| b"\x00\x01junk\r\nmore junk".to_vec())),
        ];
        for (name, damage) in &damages {
            let records = five_with(damage);
            let plain = records.concat();
            let per_record: Vec<u8> = records.iter().flat_map(|r| gzip(r)).collect();
            for (storage, bytes) in [("plain", plain), ("per record", per_record)] {
                let got = outline(&bytes);
                let good: Vec<&String> = got.iter().filter(|r| !r.starts_with("error")).collect();
                assert_eq!(good, ["a", "b", "d", "e"], "{name}, {storage}: {got:?}");
                let errors = got.iter().filter(|r| r.starts_with("error")).count();
                assert_eq!(errors, 1, "{name}, {storage}: {got:?}");
            }
        }
    }

    /// See: issue 31 (items 2, 14): damage to the gzip layer (a member
    /// that does not inflate, a wrong checksum, junk between members)
    /// costs its member; errors give compressed offsets; the skipped
    /// stretch is counted.
    #[test]
    fn issue_31_gzip_damage_costs_one_member_and_gives_compressed_offsets() {
        let members: Vec<Vec<u8>> =
            five_with(|t| t.as_bytes().to_vec()).iter().map(|r| gzip(r)).collect();
        let at = members[..2].iter().map(Vec::len).sum::<usize>();
        let damaged = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut m = members.clone();
            f(&mut m[2]);
            m.concat()
        };
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("flipped deflate byte", damaged(&|m| m[14] ^= 0x55)),
            (
                "flipped checksum",
                damaged(&|m| {
                    let i = m.len() - 6;
                    m[i] ^= 1;
                }),
            ),
            ("cut member", damaged(&|m| m.truncate(m.len() / 2))),
            ("junk instead of a member", damaged(&|m| *m = b"not gzip at all".to_vec())),
            ("junk after a member", damaged(&|m| m.extend_from_slice(b"junk"))),
        ];
        for (name, bytes) in cases {
            let mut reader = WarcReader::new(Cursor::new(&bytes[..])).expect("reader");
            let mut good = Vec::new();
            let mut errors = Vec::new();
            while let Some(r) = reader.next_record(|_| u64::MAX) {
                match r {
                    Ok(r) => good.push(r.target_uri().unwrap_or("").to_string()),
                    Err(e) => errors.push((e.to_string(), reader.last_skip().expect("a skip"))),
                }
            }
            let good: Vec<&str> =
                good.iter().map(|u| u.trim_start_matches("http://e.com/")).collect();
            let expect: &[&str] = if name == "junk after a member" {
                &["a", "b", "c", "d", "e"]
            } else {
                &["a", "b", "d", "e"]
            };
            assert_eq!(good, expect, "{name}: {errors:?}");
            assert_eq!(errors.len(), 1, "{name}: {errors:?}");
            let (message, skip) = &errors[0];
            let from = if name == "junk after a member" { at + members[2].len() } else { at };
            assert!(message.contains(&format!("offset {from}")), "{name}: {message}");
            assert_eq!(skip.from, RecordOffset { file: from as u64, within: 0 }, "{name}");
            let next = (bytes.len() - members[3].len() - members[4].len()) as u64;
            assert_eq!(skip.resumed, Some(RecordOffset { file: next, within: 0 }), "{name}");
            assert_eq!(skip.bytes, next - from as u64, "{name}");
        }
    }

    /// See: issue 31 (item 10): a gzip header whose name field never ends
    /// is damage found within 64 KiB, not a buffer that grows with it.
    #[test]
    fn issue_31_a_gzip_name_that_never_ends_is_not_buffered() {
        let good = gzip(record("a", "x").as_bytes());
        let mut endless = vec![0x1f, 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 3];
        endless.extend(std::iter::repeat_n(b'n', 4 << 20));
        let bytes = [good.clone(), endless, good].concat();
        let got = outline(&bytes);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[1].contains("name or comment is longer than 64 KiB"), "{got:?}");
        assert_eq!((got[0].as_str(), got[2].as_str()), ("a", "a"));
    }

    /// See: issue 31 (item 14): a header section over the limit says so
    /// (it was "a field line has no colon" when the limit cut a line's
    /// name), whether many lines or one long line pass it.
    #[test]
    fn issue_31_a_header_over_1_mib_says_so() {
        // 21-byte lines: the limit falls 4 bytes into one, before its colon.
        let many = format!(
            "WARC/1.0\r\n{}Content-Length: 0\r\n\r\n\r\n\r\n",
            "X-Padding-Fields: v\r\n".repeat(MAX_HEADER_BYTES / 21 + 10)
        );
        let long = format!(
            "WARC/1.0\r\nX-Long: {}\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
            "y".repeat(MAX_HEADER_BYTES)
        );
        for header in [many, long] {
            let text = [header.as_bytes(), record("b", "z").as_bytes()].concat();
            let got = outline(&text);
            assert!(got[0].contains("longer than 1 MiB"), "{:?}", &got[0]);
            assert_eq!(got[1..], ["b".to_string()]);
        }
    }

    /// See: issue 31 (item 14): zstd, bzip2 and xz archives are named,
    /// not called corrupt.
    #[test]
    fn issue_31_zstd_archives_are_named_unsupported() {
        let cases: [(&[u8], &str); 4] = [
            (&[0x28, 0xb5, 0x2f, 0xfd, 0, 0], "zstd-compressed WARC is not supported"),
            (&[0x5d, 0x2a, 0x4d, 0x18, 0, 0], "zstd-compressed WARC is not supported"),
            (b"BZh91AY&SY", "bzip2-compressed"),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0], "xz-compressed"),
        ];
        for (bytes, message) in cases {
            let error = WarcReader::new(Cursor::new(bytes)).expect_err("unsupported").to_string();
            assert!(error.contains(message), "{error}");
        }
    }

    /// Whole-file gzip: a bad record inside the one member is skipped
    /// within it (the reader goes back over the member's bytes).
    #[test]
    fn a_bad_record_inside_a_whole_file_gzip_is_skipped() {
        let len = |t: &str| t.len() - t.find("\r\n\r\n").expect("header end") - 8;
        let records = five_with(|t| set_length(t, &(len(t) + 150).to_string()));
        let got = outline(&gzip(&records.concat()));
        assert_eq!(got.iter().filter(|r| !r.starts_with("error")).count(), 4, "{got:?}");
        assert!(got[2].starts_with("error: WARC record at offset 0+"), "{got:?}");
    }
}
