//! The WARC reader against damaged archives (issue 31, item 2): generated
//! archives — plain, gzipped per record, gzipped whole — with one record
//! damaged at a random position in one of the ways archives get damaged
//! (a `Content-Length` that is negative, not a number, too long, far too
//! long or too short; a header cut short; a version line gone; junk in
//! place of a record or between two; and, gzipped per record, a flipped
//! byte of the compressed data, a member cut short, junk between
//! members), read through [`WarcReader`]. Every record that was not
//! damaged must come out exactly once, nothing else may come out, and the
//! damage must be reported.
//!
//! `PROPTEST_CASES=N` runs more cases (256 by default).
//!
//! See: issue 31 ("Done when": a property test that feeds WARC files with
//! one corrupted record at a random position).

use std::collections::BTreeMap;
use std::io::{Cursor, Write};

use gleaner_crawl::warc::WarcReader;
use proptest::prelude::*;

/// One record with a unique id in its URI and a body of `size` bytes.
fn record(id: usize, size: usize) -> Vec<u8> {
    let body: String =
        (0..size).map(|i| char::from(b'a' + ((id * 7 + i * 13) % 26) as u8)).collect();
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>{body}</p>\r\n");
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.com/{id}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{id:012}>\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
}

/// How the damaged record is damaged. `amount` and `at` pick sizes and
/// places.
#[derive(Debug, Clone, Copy)]
enum Damage {
    NegativeLength,
    LengthNotANumber,
    LengthTooLong,
    LengthFarTooLong,
    LengthTooShort,
    HeaderCut,
    NoVersionLine,
    JunkInstead,
    JunkAfter,
    // Gzipped per record only:
    FlippedByte,
    MemberCut,
    JunkBetweenMembers,
}

const TEXT_DAMAGE: [Damage; 9] = [
    Damage::NegativeLength,
    Damage::LengthNotANumber,
    Damage::LengthTooLong,
    Damage::LengthFarTooLong,
    Damage::LengthTooShort,
    Damage::HeaderCut,
    Damage::NoVersionLine,
    Damage::JunkInstead,
    Damage::JunkAfter,
];

const MEMBER_DAMAGE: [Damage; 3] =
    [Damage::FlippedByte, Damage::MemberCut, Damage::JunkBetweenMembers];

/// Junk without a `W`, so that it never starts a record.
fn junk(amount: usize) -> Vec<u8> {
    (0..amount % 300 + 1).map(|i| b"xyz\r\n\x00\x1f.;"[i % 9]).collect()
}

/// The block of a record: from after its header to before its two CRLFs.
fn block_len(record: &[u8]) -> usize {
    let head = record.windows(4).position(|w| w == b"\r\n\r\n").expect("header end") + 4;
    record.len() - head - 4
}

fn with_length(record: &[u8], value: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(record).into_owned();
    let at = text.find("Content-Length: ").expect("length") + "Content-Length: ".len();
    let end = at + text[at..].find('\r').expect("line end");
    format!("{}{value}{}", &text[..at], &text[end..]).into_bytes()
}

/// The damaged record's bytes in a text (plain or whole-gzip) archive;
/// `rest` is the length of the records after it, for lengths that run
/// into them.
fn damage_text(record: &[u8], damage: Damage, amount: usize, rest: usize) -> Vec<u8> {
    let length = block_len(record);
    match damage {
        Damage::NegativeLength => with_length(record, "-5"),
        Damage::LengthNotANumber => with_length(record, "abc"),
        // Longer by 5 or more: up to 4 bytes more take in the CRLFs that
        // end the record, which lenient readers accept as missing.
        Damage::LengthTooLong => {
            with_length(record, &(length + 5 + amount % (rest + 8)).to_string())
        }
        Damage::LengthFarTooLong => with_length(record, "99999999999"),
        // Shorter by 3 or more: the block ends in a CRLF, and a length
        // that leaves out only line ends is as good as the right one.
        Damage::LengthTooShort => {
            with_length(record, &(length - 3 - amount % (length - 2)).to_string())
        }
        Damage::HeaderCut => record[..1 + amount % 150].to_vec(),
        Damage::NoVersionLine => {
            let mut r = record.to_vec();
            r[1] = b'x';
            r
        }
        Damage::JunkInstead => junk(amount),
        Damage::JunkAfter => [record, &junk(amount)].concat(),
        _ => unreachable!("a text damage"),
    }
}

/// A plain archive's overrun that ends exactly where a later record ends
/// makes a valid archive (the later records are the damaged one's block):
/// no reader can tell, so such a length is moved on by 7 bytes (and the
/// case dropped if that is one too).
fn plain_overrun_is_undetectable(records: &[Vec<u8>], k: usize, damaged: &[u8]) -> bool {
    let header = damaged.windows(4).position(|w| w == b"\r\n\r\n").expect("header end") + 4;
    let text = String::from_utf8_lossy(damaged);
    let Some(claimed) = text
        .split("Content-Length: ")
        .nth(1)
        .and_then(|t| t.split('\r').next())
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return false;
    };
    let block_end = header + claimed; // from the damaged record's start
    let mut end = damaged.len();
    for later in &records[k + 1..] {
        end += later.len();
        // Ending in a later record's last line end or its closing CRLFs
        // is as good as ending before them (lenient readers accept
        // missing CRLFs).
        if (end - 6..=end).contains(&block_end) {
            return true;
        }
    }
    false
}

/// The records (by id) read, and the errors.
fn read(bytes: &[u8]) -> (BTreeMap<usize, usize>, Vec<String>) {
    let mut reader = WarcReader::new(Cursor::new(bytes)).expect("reader");
    let mut seen = BTreeMap::new();
    let mut errors = Vec::new();
    while let Some(r) = reader.next_record(|_| u64::MAX) {
        match r {
            Ok(r) => {
                let id = r
                    .target_uri()
                    .and_then(|u| u.strip_prefix("http://e.com/"))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(usize::MAX);
                *seen.entry(id).or_default() += 1;
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    (seen, errors)
}

fn check(seen: &BTreeMap<usize, usize>, errors: &[String], n: usize, k: usize, all: bool) {
    for id in (0..n).filter(|&id| id != k) {
        assert_eq!(seen.get(&id), Some(&1), "record {id} once: {seen:?} {errors:?}");
    }
    if all {
        assert_eq!(seen.get(&k), Some(&1), "record {k} (intact) once: {seen:?} {errors:?}");
    }
    assert!(seen.keys().all(|&id| id < n), "nothing made up: {seen:?}");
    assert!(seen.get(&k).is_none_or(|&c| c == 1), "the damaged record at most once: {seen:?}");
    assert!(!errors.is_empty(), "the damage is reported");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn issue_31_every_intact_record_comes_out_once(
        // Mostly small records; some larger than the reader's 64 KiB
        // buffer, so that record starts straddle its windows.
        sizes in prop::collection::vec(prop_oneof![9 => 0usize..400, 1 => 60_000usize..140_000], 2..12),
        k_seed in any::<usize>(),
        damage in 0usize..TEXT_DAMAGE.len() + MEMBER_DAMAGE.len(),
        amount in any::<usize>(),
        storage in 0usize..3,
    ) {
        let n = sizes.len();
        let k = k_seed % n;
        let records: Vec<Vec<u8>> = sizes.iter().enumerate().map(|(id, &s)| record(id, s)).collect();
        let rest: usize = records[k + 1..].iter().map(Vec::len).sum();
        // `JunkAfter` damages no record: every one comes out.
        let intact_k = |d: Damage| matches!(d, Damage::JunkAfter | Damage::JunkBetweenMembers);
        match storage {
            // Plain and whole-file gzip: damage to the text.
            0 | 1 => {
                let d = TEXT_DAMAGE[damage % TEXT_DAMAGE.len()];
                let mut damaged = damage_text(&records[k], d, amount, rest);
                if matches!(d, Damage::LengthTooLong)
                    && plain_overrun_is_undetectable(&records, k, &damaged)
                {
                    damaged = damage_text(&records[k], d, amount + 7, rest);
                    prop_assume!(!plain_overrun_is_undetectable(&records, k, &damaged));
                }
                let mut all = records.clone();
                all[k] = damaged;
                let text = all.concat();
                let bytes = if storage == 0 { text } else { gzip(&text) };
                let (seen, errors) = read(&bytes);
                check(&seen, &errors, n, k, intact_k(d));
            }
            // Gzipped per record: damage to the text or to the member.
            _ => {
                let mut members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
                let d = if damage < TEXT_DAMAGE.len() {
                    TEXT_DAMAGE[damage]
                } else {
                    MEMBER_DAMAGE[damage - TEXT_DAMAGE.len()]
                };
                match d {
                    Damage::FlippedByte => {
                        let m = &mut members[k];
                        let at = amount % m.len();
                        m[at] ^= 1 << (amount / 7 % 8);
                    }
                    Damage::MemberCut => {
                        let m = &mut members[k];
                        // At least a byte left: a member cut to nothing
                        // is a record missing, not damage.
                        m.truncate(1 + amount % (m.len() - 1));
                    }
                    Damage::JunkBetweenMembers => {
                        let j = junk(amount);
                        members[k].extend_from_slice(&j);
                    }
                    _ => members[k] = gzip(&damage_text(&records[k], d, amount, rest)),
                }
                let (seen, errors) = read(&members.concat());
                // A flipped bit the data survives (in the header's time
                // or OS field) damages nothing.
                let unharmed = matches!(d, Damage::FlippedByte) && seen.get(&k) == Some(&1)
                    && errors.is_empty();
                if !unharmed {
                    check(&seen, &errors, n, k, intact_k(d));
                }
            }
        }
    }
}

/// A reader that counts the bytes read from it, for the cost of reading.
struct Counting {
    inner: Cursor<Vec<u8>>,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl std::io::Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl std::io::BufRead for Counting {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.read.set(self.read.get() + n as u64);
        self.inner.consume(n);
    }
}

impl std::io::Seek for Counting {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(to)
    }
}

/// See: issue 31: going back over damage never makes reading quadratic.
/// Archives where every record is damaged the costly way — a length far
/// longer than the file (each read to the end, then back), or junk after
/// every record (each block looked through again) — cost at most four
/// times the file plus 16 MiB of reading (of inflating, for gzip), and
/// every damage is reported.
#[test]
fn issue_31_hostile_archives_cost_linear_reading() {
    let n = 4000;
    let huge: Vec<Vec<u8>> = (0..n).map(|id| with_length(&record(id, 20), "99999999999")).collect();
    let junky: Vec<Vec<u8>> =
        (0..n).map(|id| [record(id, 20), b"junk\r\n".to_vec()].concat()).collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("huge lengths, plain", huge.concat()),
        ("huge lengths, per record", huge.iter().flat_map(|r| gzip(r)).collect()),
        ("huge lengths, whole gzip", gzip(&huge.concat())),
        ("junk after each, plain", junky.concat()),
        ("junk after each, whole gzip", gzip(&junky.concat())),
    ];
    for (name, bytes) in cases {
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let input = Counting { inner: Cursor::new(bytes.clone()), read: read.clone() };
        let started = std::time::Instant::now();
        let mut reader = WarcReader::new(input).expect("reader");
        let (mut records, mut errors) = (0, 0);
        while let Some(r) = reader.next_record(|_| 0) {
            match r {
                Ok(_) => records += 1,
                Err(_) => errors += 1,
            }
        }
        let bound = 4 * bytes.len() as u64 + (16 << 20);
        assert!(read.get() <= bound, "{name}: read {} of {} bytes", read.get(), bytes.len());
        // Inflating is bounded alike, in uncompressed bytes; a blow-up
        // would show as time (seconds in a debug build are the norm).
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "{name}");
        assert!(errors >= 1, "{name}");
        if name.starts_with("junk") {
            assert_eq!((records, errors), (n, n), "{name}: every record, every junk");
        }
    }
}
