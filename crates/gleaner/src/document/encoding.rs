//! Character-encoding detection and decoding.
//!
//! The order follows the WHATWG "encoding sniffing algorithm"
//! (<https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm>):
//!
//! 1. a byte order mark;
//! 2. an encoding given by the caller (the HTTP `Content-Type` header, or
//!    `--encoding` on the command line);
//! 3. the prescan of the first bytes for `<meta charset>` or
//!    `<meta http-equiv="content-type" content="…; charset=…">`
//!    (and an XML declaration, for XHTML served as files);
//! 4. a statistical guess by `chardetng`.
//!
//! Deviation: a declared UTF-8 that the bytes contradict (invalid
//! sequences) is replaced by the chardetng guess, because pages that are
//! really windows-1252 behind a copied `<meta charset=utf-8>` are common in
//! crawls and decoding them as UTF-8 would turn every accented letter into
//! U+FFFD. The guess is only taken when the invalid sequences outnumber the
//! valid multi-byte ones: a UTF-8 page with a stray invalid byte is UTF-8
//! with one U+FFFD, as browsers decode it, not windows-1252 mojibake
//! throughout (issue 11).

#[cfg(test)]
use encoding_rs::WINDOWS_1252;
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// How many leading bytes the `<meta>` prescan reads. The standard says
/// 1024; real pages often put long `<script>`s first, so we look further.
const PRESCAN_BYTES: usize = 8 * 1024;

/// How much of an undeclared page chardetng reads after its first
/// non-ASCII byte (everything before it is read too). Its cost grows with
/// every byte fed, the first tens of kilobytes of non-ASCII text decide the
/// guess, and a 50 MB page must not spend its time budget here \[I\].
const GUESS_BYTES: usize = 64 * 1024;

/// Where the chosen encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingSource {
    /// A byte order mark.
    Bom,
    /// The caller's hint (HTTP header or command line).
    Given,
    /// A `<meta>` tag or XML declaration in the page.
    Declared,
    /// chardetng's guess.
    Guessed,
}

/// Chooses an encoding for `bytes` and decodes them to a `String`.
///
/// Invalid sequences become U+FFFD: decoding never fails.
pub fn decode(
    bytes: &[u8],
    given: Option<&'static Encoding>,
) -> (String, &'static Encoding, EncodingSource) {
    let (encoding, source, bom_len) = choose(bytes, given);
    let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
    (text.into_owned(), encoding, source)
}

/// As [`decode`], taking the bytes over: a page in UTF-8 without a byte
/// order mark (most pages) becomes its own text, with no copy (issue 13:
/// the page and its copy were held together while it was parsed).
pub(crate) fn decode_vec(
    bytes: Vec<u8>,
    given: Option<&'static Encoding>,
) -> (String, &'static Encoding, EncodingSource) {
    let (encoding, source, bom_len) = choose(&bytes, given);
    if encoding == UTF_8 && bom_len == 0 {
        // Valid UTF-8 decodes to itself; invalid sequences need the
        // replacement characters.
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => return (text, encoding, source),
            Err(e) => e.into_bytes(),
        };
        let (text, _) = encoding.decode_without_bom_handling(&bytes);
        return (text.into_owned(), encoding, source);
    }
    let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
    (text.into_owned(), encoding, source)
}

/// The encoding of `bytes`, where the choice came from, and the length of
/// the byte order mark that settled it (0 without one).
fn choose(
    bytes: &[u8],
    given: Option<&'static Encoding>,
) -> (&'static Encoding, EncodingSource, usize) {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return (encoding, EncodingSource::Bom, bom_len);
    }
    let (encoding, source) = match given {
        Some(e) => (e, EncodingSource::Given),
        None => match prescan(bytes) {
            Some(e) if e == UTF_8 && mostly_not_utf8(bytes) => {
                (guess(bytes), EncodingSource::Guessed)
            }
            Some(e) => (e, EncodingSource::Declared),
            None => (guess(bytes), EncodingSource::Guessed),
        },
    };
    (encoding, source, 0)
}

/// Do invalid UTF-8 sequences in `bytes` outnumber the valid multi-byte
/// ones (a page in another encoding behind a `<meta charset=utf-8>`), or
/// are there some and no valid multi-byte character at all?
fn mostly_not_utf8(bytes: &[u8]) -> bool {
    // Valid UTF-8 has no invalid sequence: checked at memory speed, not
    // one character at a time.
    if std::str::from_utf8(bytes).is_ok() {
        return false;
    }
    let (mut valid, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    invalid > 0 && invalid >= valid
}

/// A chardetng guess; valid UTF-8 is taken as UTF-8 without asking.
fn guess(bytes: &[u8]) -> &'static Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // (`guess` is only reached with a non-ASCII byte: ASCII is UTF-8.)
    let first_non_ascii = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len());
    let head = &bytes[..bytes.len().min(first_non_ascii.saturating_add(GUESS_BYTES))];
    // A prefix is fed as such: its end is not the end of the page.
    detector.feed(head, head.len() == bytes.len());
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// The WHATWG prescan, simplified: finds the first `<meta>` that declares a
/// charset, or an XML declaration, in the first [`PRESCAN_BYTES`] bytes.
///
/// UTF-16 labels are mapped to UTF-8 as the standard requires (a page that
/// declares UTF-16 inside itself cannot be UTF-16, since ASCII was readable).
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    if let Some(label) = xml_declaration_encoding(head) {
        if let Some(e) = label_to_encoding(label) {
            return Some(e);
        }
    }
    let mut pos = 0;
    while let Some(offset) = find_ascii_ci(&head[pos..], b"<meta") {
        let start = pos + offset + 5;
        let end = head[start..].iter().position(|&b| b == b'>').map_or(head.len(), |p| start + p);
        let tag = &head[start..end];
        if let Some(e) = meta_charset(tag) {
            return Some(e);
        }
        pos = end;
    }
    None
}

/// A declared label as the WHATWG prescan reads it: UTF-16 means UTF-8
/// (the ASCII declaration was readable), `x-user-defined` means
/// windows-1252, and labels of the "replacement" encoding (`iso-2022-kr`,
/// `hz-gb-2312`, …) are ignored rather than turning the page into one
/// U+FFFD.
fn label_to_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let e = Encoding::for_label_no_replacement(label)?;
    Some(if e == UTF_16BE || e == UTF_16LE {
        UTF_8
    } else if e == encoding_rs::X_USER_DEFINED {
        encoding_rs::WINDOWS_1252
    } else {
        e
    })
}

/// `charset=` in a `<meta>` tag's attributes, either as its own attribute
/// or inside `content` (which covers `http-equiv="Content-Type"`).
fn meta_charset(tag: &[u8]) -> Option<&'static Encoding> {
    let idx = find_ascii_ci(tag, b"charset")?;
    let mut rest = &tag[idx + 7..];
    rest = trim_start(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_start(rest);
    let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
    let len = rest
        .iter()
        .position(|&b| {
            matches!(b, b'"' | b'\'' | b';' | b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'>')
        })
        .unwrap_or(rest.len());
    label_to_encoding(&rest[..len])
}

fn xml_declaration_encoding(head: &[u8]) -> Option<&[u8]> {
    let head = trim_start(head);
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.iter().position(|&b| b == b'>')?;
    let decl = &head[..end];
    let idx = find_ascii_ci(decl, b"encoding")?;
    let rest = trim_start(&decl[idx + 8..]);
    let rest = trim_start(rest.strip_prefix(b"=")?);
    let quote = *rest.first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let rest = &rest[1..];
    let len = rest.iter().position(|&b| b == quote)?;
    Some(&rest[..len])
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Case-insensitive search of an ASCII needle.
pub(crate) fn find_ascii_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return None;
    }
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// Looks up an encoding by its WHATWG label (`"utf-8"`, `"latin1"`, …).
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label_no_replacement(label.trim().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins_over_meta() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<meta charset=latin1><p>caf\xC3\xA9");
        let (text, enc, src) = decode(&bytes, None);
        assert_eq!(enc, UTF_8);
        assert_eq!(src, EncodingSource::Bom);
        assert!(text.ends_with("café"));
    }

    #[test]
    fn meta_charset_is_read() {
        let bytes = b"<html><head><meta charset=\"iso-8859-1\"></head><p>caf\xE9";
        let (text, enc, src) = decode(bytes, None);
        assert_eq!(enc, WINDOWS_1252);
        assert_eq!(src, EncodingSource::Declared);
        assert!(text.ends_with("café"));
    }

    #[test]
    fn http_equiv_content_type_is_read() {
        let bytes = b"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=windows-1251\">\xcf\xf0\xe8";
        let (text, enc, _) = decode(bytes, None);
        assert_eq!(enc.name(), "windows-1251");
        assert!(text.ends_with("При"));
    }

    #[test]
    fn wrong_utf8_declaration_falls_back_to_guess() {
        let bytes = b"<meta charset=utf-8><p>Gr\xfc\xdfe aus K\xf6ln, sch\xf6ne Stra\xdfe</p>";
        let (text, _, src) = decode(bytes, None);
        assert_eq!(src, EncodingSource::Guessed);
        assert!(text.contains("Grüße"), "{text}");
    }

    /// See: issue 11, "a declared-UTF-8 page with one stray invalid byte
    /// is decoded whole as windows-1252".
    #[test]
    fn issue_11_a_stray_byte_in_declared_utf8_is_one_replacement() {
        let mut bytes = "<meta charset=utf-8><p>Grüße aus Köln, schöne Straße ".as_bytes().to_vec();
        bytes.push(0xff);
        bytes.extend_from_slice(b"</p>");
        let (text, enc, src) = decode(&bytes, None);
        assert_eq!((enc, src), (UTF_8, EncodingSource::Declared));
        assert!(text.contains("Grüße aus Köln, schöne Straße \u{FFFD}"), "{text}");
    }

    /// The guess reads a bounded window from the first non-ASCII byte: an
    /// undeclared page whose first accented letter comes after 100 KB of
    /// ASCII is still read as windows-1252 (the window starts there), and
    /// one with accents early and a long tail is guessed from its head.
    #[test]
    fn the_guess_reads_from_the_first_non_ascii_byte() {
        let mut late = b"<p>".to_vec();
        late.extend(std::iter::repeat_n(b'a', 100_000));
        late.extend_from_slice(b" caf\xe9 cr\xe8me br\xfbl\xe9e</p>");
        let (text, enc, src) = decode(&late, None);
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Guessed));
        assert!(text.ends_with("café crème brûlée</p>"), "{}", &text[text.len() - 30..]);
        let mut early = b"<p>D\xe9j\xe0 vu, na\xefve fa\xe7ade, \xe9t\xe9 \xe0 Paris.</p>".to_vec();
        early.extend(std::iter::repeat_n(b'x', 2 * GUESS_BYTES));
        early.extend_from_slice(b"\xe9");
        let (text, enc, _) = decode(&early, None);
        assert_eq!(enc, WINDOWS_1252);
        assert!(text.starts_with("<p>Déjà vu, naïve façade, été à Paris."), "{}", &text[..60]);
    }

    #[test]
    fn xml_declaration_is_read() {
        let bytes = b"<?xml version='1.0' encoding='ISO-8859-15'?><html>\xa4";
        let (text, enc, _) = decode(bytes, None);
        assert_eq!(enc.name(), "ISO-8859-15");
        assert!(text.ends_with('€'));
    }

    #[test]
    fn replacement_and_user_defined_labels() {
        assert_eq!(prescan(b"<meta charset=iso-2022-kr>"), None);
        assert_eq!(prescan(b"<meta charset=x-user-defined>"), Some(encoding_rs::WINDOWS_1252));
    }

    #[test]
    fn utf16_declaration_means_utf8() {
        assert_eq!(prescan(b"<meta charset=utf-16>"), Some(UTF_8));
    }
}
