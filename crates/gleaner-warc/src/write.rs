//! Writing WARC records as the tools that read them expect (warcio,
//! pywb, Heritrix, Common Crawl): ISO 28500 field names in their
//! canonical case (`WARC-Type`, `WARC-Target-URI`), in the order the
//! standard's examples and those tools use — `WARC-Type`,
//! `WARC-Record-ID`, `WARC-Date`, then the record's own fields
//! (`WARC-Target-URI`, `WARC-IP-Address`, `WARC-Warcinfo-ID`,
//! `WARC-Concurrent-To`, `WARC-Refers-To`, …), then `WARC-Block-Digest`
//! and `WARC-Payload-Digest` (SHA-1 in base32, `sha1:…`, WARC 1.1 §5.8–5.9
//! and the form every crawler writes), `Content-Type` and
//! `Content-Length` last.

use std::time::{SystemTime, UNIX_EPOCH};

use sha1::{Digest, Sha1};

/// The fields every record opens with (WARC 1.1 §5: all three are
/// mandatory, with `Content-Length`).
pub struct Head<'a> {
    /// `WARC/1.0` or `WARC/1.1`.
    pub version: &'a str,
    /// `WARC-Type` (`warcinfo`, `request`, `response`, `conversion`, …).
    pub kind: &'a str,
    /// `WARC-Record-ID`, with its angle brackets (`<urn:uuid:…>`).
    pub id: &'a str,
    /// `WARC-Date` (`2024-05-01T10:00:00Z`).
    pub date: &'a str,
}

/// One record's bytes: `head`, then `fields` in the order given (values
/// with line breaks folded to spaces: a field is one line), the block's
/// digest, the payload's when there is one, `Content-Type`,
/// `Content-Length`, the block and the two CRLFs that end a record.
pub fn record(
    head: &Head<'_>,
    fields: &[(&str, &str)],
    content_type: &str,
    block: &[u8],
    payload: Option<&[u8]>,
) -> Vec<u8> {
    let mut out = format!(
        "{}\r\nWARC-Type: {}\r\nWARC-Record-ID: {}\r\nWARC-Date: {}\r\n",
        head.version,
        one_line(head.kind),
        one_line(head.id),
        one_line(head.date)
    );
    for (name, value) in fields {
        out.push_str(&format!("{name}: {}\r\n", one_line(value)));
    }
    out.push_str(&format!("WARC-Block-Digest: {}\r\n", sha1_base32(block)));
    if let Some(payload) = payload {
        out.push_str(&format!("WARC-Payload-Digest: {}\r\n", sha1_base32(payload)));
    }
    out.push_str(&format!(
        "Content-Type: {}\r\nContent-Length: {}\r\n\r\n",
        one_line(content_type),
        block.len()
    ));
    let mut out = out.into_bytes();
    out.reserve(block.len() + 4);
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// A value on one line: CR and LF become spaces.
fn one_line(value: &str) -> String {
    value.replace(['\r', '\n'], " ")
}

/// `sha1:` and the SHA-1 of `bytes` in base32 (RFC 4648, upper case, 32
/// characters): the digest form of WARC files in the wild.
pub fn sha1_base32(bytes: &[u8]) -> String {
    let digest = Sha1::digest(bytes);
    format!("sha1:{}", data_encoding::BASE32.encode(&digest))
}

/// `time` as a WARC date, UTC to the second (`2024-05-01T10:00:00Z`,
/// W3C-ISO8601 as WARC 1.0 §5.4 asks).
pub fn warc_date(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, "chrono-Compatible Low-Level Date
/// Algorithms").
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// An HTTP header name in its usual case (`content-type` →
/// `Content-Type`, `www-authenticate` → `Www-Authenticate`).
///
/// Deviation: WARC keeps HTTP headers as received, but the HTTP client
/// (hyper, under reqwest) hands names over lower-cased and keeps no
/// record of their case; nearly every server sends this case, so it is
/// the closest to what was received.
pub fn header_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if upper {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        upper = c == '-';
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_digests_and_header_case() {
        let at = |secs| warc_date(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_714_557_600), "2024-05-01T10:00:00Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
        // SHA-1 of the empty string, as warcio writes it.
        assert_eq!(sha1_base32(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assert_eq!(header_case("content-type"), "Content-Type");
        assert_eq!(header_case("x-robots-tag"), "X-Robots-Tag");
    }

    #[test]
    fn records_put_fields_in_order_and_end_with_two_crlfs() {
        let head = Head { version: "WARC/1.1", kind: "resource", id: "<urn:x>", date: "D" };
        let bytes = record(
            &head,
            &[("WARC-Target-URI", "http://e.com/\r\nx")],
            "text/plain",
            b"hi",
            Some(b"hi"),
        );
        let text = String::from_utf8(bytes).expect("text");
        let names: Vec<&str> = text
            .lines()
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split(':').next())
            .collect();
        assert_eq!(
            names,
            [
                "WARC/1.1",
                "WARC-Type",
                "WARC-Record-ID",
                "WARC-Date",
                "WARC-Target-URI",
                "WARC-Block-Digest",
                "WARC-Payload-Digest",
                "Content-Type",
                "Content-Length"
            ]
        );
        assert!(text.contains("WARC-Target-URI: http://e.com/  x\r\n"), "{text}");
        assert!(text.ends_with("Content-Length: 2\r\n\r\nhi\r\n\r\n"), "{text}");
    }
}
