//! A tag's attributes as the WHATWG tokenizer reads them (§13.2.5.32–
//! 13.2.5.40): where the tag ends, whether it closes itself, and each
//! attribute's name and value.
//!
//! One walk serves two callers: the source scanner only needs the end of
//! the tag (and passes a visitor that does nothing), the tree feed turns
//! the attributes into html5ever's (names lower-cased, duplicates dropped,
//! character references decoded with the attribute rule of
//! [`entities`](super::entities)).

use std::ops::Range;

use markup5ever::{local_name, LocalName};

use super::character_tokens::{push_normalized, zero_bytes};
use super::entities::{for_each_piece, Piece};
use super::packed_names::{lowercase_packed, pack, pack_lower, packed_names, PackedNameSlots};
use super::tags::LowerName;
use super::TagAttributes;

/// Where a tag ends and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TagEnd {
    /// One past the `>`, or the end of the input.
    pub end: usize,
    /// False when the input ended inside the tag: the tokenizer then
    /// emits no tag at all (§13.2.5.32 "eof-in-tag").
    pub complete: bool,
    /// `/>` read in the self-closing start tag state (§13.2.5.40), not a
    /// slash that ends an unquoted value (`<a href=/x/>`).
    pub self_closing: bool,
}

/// ASCII whitespace as the tokenizer sees it (a CR is a LF by then).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// [`BYTE_CLASS`] bit: ASCII whitespace ([`is_space`]).
const SPACE: u8 = 1;
/// [`BYTE_CLASS`] bit: ends an attribute name (§13.2.5.33): whitespace,
/// `/`, `>` or `=`.
const NAME_END: u8 = 2;
/// [`BYTE_CLASS`] bit: ends an unquoted attribute value (§13.2.5.38):
/// whitespace or `>`.
const VALUE_END: u8 = 4;
/// [`BYTE_CLASS`] bit: ends a tag name (§13.2.5.8): whitespace, `/` or
/// `>`.
const TAG_NAME_END: u8 = 8;

/// The classes of each byte value: one load and a test per byte in the
/// loops of [`scan_attributes`], which run over every byte of every tag.
static BYTE_CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let spaces = [b'\t', b'\n', b'\x0C', b'\r', b' '];
    let mut i = 0;
    while i < spaces.len() {
        class[spaces[i] as usize] = SPACE | NAME_END | VALUE_END | TAG_NAME_END;
        i += 1;
    }
    class[b'/' as usize] = NAME_END | TAG_NAME_END;
    class[b'=' as usize] = NAME_END;
    class[b'>' as usize] = NAME_END | VALUE_END | TAG_NAME_END;
    class
};

/// The first position from `i` whose byte is in one of `classes`
/// ([`BYTE_CLASS`]), or the end of `s`.
#[inline]
fn skip_class(s: &[u8], mut i: usize, classes: u8) -> usize {
    while let Some(&b) = s.get(i) {
        if BYTE_CLASS[b as usize] & classes != 0 {
            break;
        }
        i += 1;
    }
    i
}

/// [`skip_class`] for `classes` whose bytes are all below `?` (as those
/// of [`NAME_END`] and [`VALUE_END`] are), eight bytes at a time: a word
/// with no byte below `?` has none of them, and an attribute name is
/// mostly letters (issue 12: `class=` is one word, not six bytes).
/// `(w - ONES * 0x3F) & !w & HIGH` marks the bytes below `?`, the lowest
/// mark exactly (a false one comes only above a true one); the byte it
/// marks is then looked up.
#[inline]
fn skip_class_by_words(s: &[u8], mut i: usize, classes: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = s.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        let low = w.wrapping_sub(ONES * 0x3F) & !w & HIGH;
        if low == 0 {
            i += 8;
            continue;
        }
        let at = i + (low.trailing_zeros() / 8) as usize;
        match s.get(at) {
            Some(&b) if BYTE_CLASS[b as usize] & classes != 0 => return at,
            _ => i = at + 1,
        }
    }
    skip_class(s, i, classes)
}

/// Bytes [`find_byte`] reads a word at a time before it calls `memchr`.
const SHORT: usize = 32;

/// The position of the first `b` in `s` at or after `from`. The first
/// [`SHORT`] bytes are read eight at a time ([`zero_bytes`] of each word
/// XOR `b` repeated: its lowest bit set marks the first match), the rest
/// by `memchr`: most of what is searched so (the text between two tags,
/// a quoted attribute value) is a few bytes long, shorter than
/// `memchr`'s set-up, which cost 47 instructions a call on 300 dragnet
/// pages (issue 12).
#[inline]
pub(crate) fn find_byte(s: &[u8], b: u8, from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let rest = s.get(from..)?;
    let pattern = ONES * u64::from(b);
    let mut at = 0;
    while at < SHORT {
        let Some(chunk) = rest.get(at..).and_then(<[u8]>::first_chunk::<8>) else { break };
        let hits = zero_bytes(u64::from_le_bytes(*chunk) ^ pattern);
        if hits != 0 {
            return Some(from + at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr(b, rest.get(at..)?).map(|p| from + at + p)
}

/// Where the tag name that starts at `from` ends (§13.2.5.8): at
/// whitespace, `/` or `>`, or the end of `s`; and the name's first
/// eight bytes as a little-endian integer padded with spaces, packed as
/// they are read (the source scanner matches a short name as one
/// integer: one loop over the name, not one to find its end and another
/// to pack it, issue 12).
#[inline]
pub(crate) fn tag_name_end_packed(s: &[u8], from: usize) -> (usize, u64) {
    let mut packed = 0x2020_2020_2020_2020u64;
    let mut i = from;
    while let Some(&b) = s.get(i) {
        let k = i - from;
        if BYTE_CLASS[b as usize] & TAG_NAME_END != 0 {
            return (i, packed);
        }
        if k == 8 {
            return (skip_class(s, i, TAG_NAME_END), packed);
        }
        packed ^= u64::from(b ^ b' ') << (8 * k);
        i += 1;
    }
    (i, packed)
}

/// Walks the attributes of a tag from `from` (just after its name) to its
/// end, calling `attr` with each attribute's name and value ranges (an
/// empty value range for an attribute without a value).
pub(crate) fn scan_attributes(
    s: &[u8],
    from: usize,
    mut attr: impl FnMut(Range<usize>, Range<usize>),
) -> TagEnd {
    let incomplete = TagEnd { end: s.len(), complete: false, self_closing: false };
    let skip_space = |mut i: usize| {
        while let Some(&b) = s.get(i) {
            if BYTE_CLASS[b as usize] & SPACE == 0 {
                break;
            }
            i += 1;
        }
        i
    };
    let mut i = from;
    loop {
        // §13.2.5.32 before attribute name.
        i = skip_space(i);
        match s.get(i) {
            None => return incomplete,
            Some(b'>') => return TagEnd { end: i + 1, complete: true, self_closing: false },
            Some(b'/') => {
                // §13.2.5.40 self-closing start tag: `>` or start over.
                i += 1;
                match s.get(i) {
                    None => return incomplete,
                    Some(b'>') => return TagEnd { end: i + 1, complete: true, self_closing: true },
                    Some(_) => continue,
                }
            }
            Some(_) => {}
        }
        // §13.2.5.33 attribute name: the first character may be `=`.
        let name_start = i;
        i = skip_class_by_words(s, i + 1, NAME_END);
        let name = name_start..i;
        // §13.2.5.34 after attribute name.
        i = skip_space(i);
        if s.get(i) != Some(&b'=') {
            attr(name, i..i);
            continue;
        }
        // §13.2.5.35 before attribute value.
        i = skip_space(i + 1);
        match s.get(i) {
            None => return incomplete,
            Some(&quote @ (b'"' | b'\'')) => {
                // §13.2.5.36–37 quoted: to the same quote.
                let Some(close) = find_byte(s, quote, i + 1) else {
                    return incomplete;
                };
                attr(name, i + 1..close);
                i = close + 1;
            }
            Some(b'>') => {
                // A missing value: the tag ends here.
                attr(name, i..i);
                return TagEnd { end: i + 1, complete: true, self_closing: false };
            }
            Some(_) => {
                // §13.2.5.38 unquoted: to whitespace or `>`; `/` is part
                // of the value.
                let start = i;
                i = skip_class_by_words(s, i, VALUE_END);
                attr(name, start..i);
            }
        }
    }
}

/// Attributes a caller wants from a start tag.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttributeFilter {
    /// Keep every attribute, not only the ones [`kept_name`] knows.
    pub keep_all: bool,
    /// At most this many.
    pub max: usize,
}

/// The names [`kept_name`] keeps, for its tests.
#[cfg(test)]
pub(crate) const KEPT: &[&str] = &[
    "id",
    "class",
    "href",
    "src",
    "alt",
    "title",
    "style",
    "hidden",
    "aria-hidden",
    "role",
    "itemprop",
    "itemtype",
    "property",
    "name",
    "content",
    "charset",
    "http-equiv",
    "colspan",
    "rowspan",
    "start",
    "lang",
    "type",
    "datetime",
    "rel",
    "dir",
    "value",
    "encoding",
    "alttext",
    "display",
    "data-lang",
    "data-language",
    "srcset",
    "data-src",
    "data-srcset",
    "data-lazy-src",
    "data-original",
    "data-lazy-srcset",
];

/// The attribute names the library reads, as atoms, for `raw` spelt in any
/// case; all others are dropped before tree building unless all are asked
/// for. `type` stays because
/// `<input type=hidden>` is placed differently inside tables (WHATWG
/// §13.2.6.4.9); `encoding` because `<annotation-xml encoding=…>` decides
/// whether MathML holds HTML (§13.2.6.5); `alttext` and `display` for a
/// formula's TeX and placement, `data-lang` for a code block's language,
/// `srcset` and the lazy-loading attributes (`data-src`, …) for an
/// image's source (issue 35).
///
/// A match, not a search of the list: it runs for every attribute of the
/// page, and the atoms are static (no hashing). A name of up to eight
/// ASCII bytes is matched as one integer ([`pack_lower`], as the source
/// scanner matches tag names), the four longer ones byte by byte.
fn kept_name(raw: &[u8]) -> Option<LocalName> {
    if let Some(packed) = pack_lower(raw) {
        return short_kept_or_image_name(packed);
    }
    // The longest of the names below.
    let lower = LowerName::<16>::of(raw)?;
    Some(match lower.as_bytes() {
        b"aria-hidden" => local_name!("aria-hidden"),
        // An accordion's control and its panel, which name each other
        // (`stats::Disclosures`).
        b"aria-controls" => local_name!("aria-controls"),
        b"aria-labelledby" => local_name!("aria-labelledby"),
        b"http-equiv" => local_name!("http-equiv"),
        // A code block's language (issue 35); not static atoms.
        b"data-lang" => LocalName::from("data-lang"),
        b"data-language" => LocalName::from("data-language"),
        // Where lazy-loading scripts take an image's source from.
        b"data-srcset" => LocalName::from("data-srcset"),
        b"data-lazy-src" => LocalName::from("data-lazy-src"),
        b"data-original" => LocalName::from("data-original"),
        b"data-lazy-srcset" => LocalName::from("data-lazy-srcset"),
        _ => return None,
    })
}

/// [`short_kept_name`], or one of the two short names of an image's
/// source (`srcset`, the lazy `data-src`; issue 35), compared whole
/// outside the table of slots.
fn short_kept_or_image_name(packed: u64) -> Option<LocalName> {
    const SRCSET: u64 = pack(b"srcset");
    const DATA_SRC: u64 = pack(b"data-src");
    short_kept_name(packed).or_else(|| match packed {
        SRCSET => Some(local_name!("srcset")),
        DATA_SRC => Some(LocalName::from("data-src")),
        _ => None,
    })
}

/// [`kept_name`] of the name at `range` of `page`: a name of up to eight
/// bytes with eight bytes of the page from its start is read as one word,
/// the bytes after it masked to spaces (as [`pack_lower`] packs it, one
/// load and no loop over the name).
#[inline]
fn kept_name_at(page: &[u8], range: Range<usize>) -> Option<LocalName> {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let len = range.len();
    if len <= 8 {
        if let Some(chunk) = page.get(range.start..).and_then(<[u8]>::first_chunk::<8>) {
            let name = if len == 8 { u64::MAX } else { (1u64 << (8 * len)) - 1 };
            let w = u64::from_le_bytes(*chunk) & name | SPACES & !name;
            return lowercase_packed(w).and_then(short_kept_or_image_name);
        }
    }
    kept_name(page.get(range).unwrap_or_default())
}

packed_names! {
    /// The atom of the kept attribute name packed as `packed` (of up to
    /// eight bytes, [`pack`]).
    fn short_kept_name, static SHORT_KEPT, 64 slots, multiplier 0xE315_1288_62C3_3A4F:
    "id",
    "class",
    "href",
    "src",
    "alt",
    "title",
    "style",
    "hidden",
    "role",
    "itemprop",
    "itemtype",
    "property",
    "name",
    "content",
    "charset",
    "colspan",
    "rowspan",
    "start",
    "lang",
    "type",
    "datetime",
    "rel",
    "dir",
    "value",
    "encoding",
    "alttext",
    "display",
}

/// An attribute name, lower-cased (ASCII only, §13.2.5.33), NUL as U+FFFD.
fn attribute_name(raw: &[u8]) -> LocalName {
    match std::str::from_utf8(raw) {
        Ok(s) if !raw.iter().any(|b| b.is_ascii_uppercase() || *b == 0) => LocalName::from(s),
        _ => {
            let lossy = String::from_utf8_lossy(raw);
            LocalName::from(lossy.to_ascii_lowercase().replace('\0', "\u{FFFD}"))
        }
    }
}

/// True if `bytes` hold a `&`, CR or NUL ([`has_special_at`]).
#[cfg(test)]
fn has_special(bytes: &[u8]) -> bool {
    has_special_at(bytes, 0..bytes.len())
}

/// True if `page[range]` holds a `&`, CR or NUL. Most texts and values
/// are short, where eight bytes at a time ([`zero_bytes`] of the word XOR
/// each byte repeated) costs less than `memchr`'s set-up; longer ones go
/// to `memchr3`. No byte is tested on its own (issue 12: the last bytes
/// of each value one by one cost as much as the words before them): a
/// range of eight bytes or more ends with the word of its last eight
/// bytes, which may overlap the word before; a shorter one is one word
/// of the page from its start, the bytes after the range masked to
/// letters (one by one only where the page ends first).
#[inline]
pub(crate) fn has_special_at(page: &[u8], range: Range<usize>) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let special = |w: u64| {
        zero_bytes(w) | zero_bytes(w ^ (ONES * u64::from(b'&'))) | zero_bytes(w ^ (ONES * 0x0D))
            != 0
    };
    let Some(bytes) = page.get(range.clone()) else { return false };
    let len = bytes.len();
    if len >= 64 {
        return memchr::memchr3(b'&', b'\r', b'\0', bytes).is_some();
    }
    if len < 8 {
        return match page.get(range.start..).and_then(<[u8]>::first_chunk::<8>) {
            Some(chunk) => {
                let kept = (1u64 << (8 * len)) - 1;
                special(u64::from_le_bytes(*chunk) & kept | (ONES * u64::from(b'a')) & !kept)
            }
            None => bytes.iter().any(|b| matches!(b, b'&' | b'\r' | b'\0')),
        };
    }
    let mut rest = bytes;
    while rest.len() > 8 {
        let Some(chunk) = rest.first_chunk::<8>() else { break };
        if special(u64::from_le_bytes(*chunk)) {
            return true;
        }
        rest = rest.get(8..).unwrap_or_default();
    }
    bytes.last_chunk::<8>().is_some_and(|chunk| special(u64::from_le_bytes(*chunk)))
}

/// Appends to `out` the attribute value `raw`: character references
/// decoded with the attribute rule, CR/LF normalised, NUL as U+FFFD, if
/// `special` (it holds a `&`, CR or NUL, [`has_special_at`]); else as it
/// is. Inlined up to that common case.
#[inline]
fn push_attribute_value(out: &mut String, raw: &str, special: bool) {
    if !special {
        out.push_str(raw);
        return;
    }
    push_decoded_attribute_value(out, raw);
}

/// [`push_attribute_value`] of a value with a `&`, CR or NUL.
fn push_decoded_attribute_value(out: &mut String, raw: &str) {
    for_each_piece(raw, true, |piece| match piece {
        Piece::Literal(s) => push_normalized(out, s, true),
        Piece::Decoded(c) => out.push(c),
    });
}

/// The attributes of a start tag from its name and value ranges in
/// `page` (as [`scan_attributes`] found them), into `attrs` (cleared
/// first): the first of each name (§13.2.5.33: later duplicates are
/// dropped), filtered by `filter`.
///
/// `attrs` is the list the sink recycles
/// ([`ArenaSink::spare_attributes`](super::sink::ArenaSink::spare_attributes)):
/// the document copies the attributes into its table, so the tag's list
/// need not be of its exact size, and one buffer serves every tag.
pub(crate) fn start_tag_attributes(
    page: &str,
    ranges: &[(Range<usize>, Range<usize>)],
    filter: AttributeFilter,
    attrs: &mut TagAttributes,
) {
    let bytes = page.as_bytes();
    attrs.clear();
    for (name, value) in ranges {
        if attrs.len() >= filter.max {
            break;
        }
        let name = match kept_name_at(bytes, name.clone()) {
            Some(name) => name,
            None if filter.keep_all => attribute_name(bytes.get(name.clone()).unwrap_or_default()),
            None => continue,
        };
        // Whether a name is kept depends on the name alone, so a later
        // duplicate of a kept attribute always meets the first here.
        if attrs.has_name(&name) {
            continue;
        }
        let raw = page.get(value.clone()).unwrap_or("");
        let special = has_special_at(bytes, value.clone());
        attrs.push_with(name, |out| push_attribute_value(out, raw, special));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(tag: &str) -> Vec<(Range<usize>, Range<usize>)> {
        let name_end = tag.find(|c: char| is_space(c as u8) || c == '/' || c == '>').unwrap_or(0);
        let mut ranges = Vec::new();
        scan_attributes(tag.as_bytes(), name_end, |name, value| ranges.push((name, value)));
        ranges
    }

    fn attrs(tag: &str) -> Vec<(String, String)> {
        let filter = AttributeFilter { keep_all: true, max: 256 };
        let mut got = TagAttributes::default();
        start_tag_attributes(tag, &ranges(tag), filter, &mut got);
        got.iter().map(|(a, v)| (a.name.to_string(), v.to_string())).collect()
    }

    fn end(tag: &str) -> TagEnd {
        let name_end = tag.find(|c: char| is_space(c as u8) || c == '/' || c == '>');
        scan_attributes(tag.as_bytes(), name_end.unwrap_or(tag.len()), |_, _| {})
    }

    #[test]
    fn special_bytes_found_at_any_position() {
        for len in 0..40 {
            assert!(!has_special("x".repeat(len).as_bytes()));
            for at in 0..len {
                for special in [b'&', b'\r', b'\0'] {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = special;
                    assert!(has_special(&bytes), "{len} {at} {special}");
                }
            }
        }
        assert!(!has_special("\u{e9}\u{2603}%'\"\x01\x0b\x0e\x7f".as_bytes()));
    }

    #[test]
    fn special_bytes_after_the_range_are_not_read_as_in_it() {
        for len in 0..40 {
            for after in ["", "&", "\r\0&&&&&&&&&&"] {
                let page = "x".repeat(len) + after;
                assert!(!has_special_at(page.as_bytes(), 0..len), "{len} {after:?}");
                let page = "y".to_string() + &page;
                assert!(!has_special_at(page.as_bytes(), 1..len + 1), "{len} {after:?}");
                for at in 0..len {
                    let mut bytes = page.clone().into_bytes();
                    bytes[1 + at] = b'&';
                    assert!(has_special_at(&bytes, 1..len + 1), "{len} {at} {after:?}");
                }
            }
        }
    }

    #[test]
    fn find_byte_finds_the_first_at_any_position() {
        for len in 0..48 {
            for from in 0..=len {
                assert_eq!(find_byte(&vec![b'x'; len], b'"', from), None);
                for at in from..len {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = b'"';
                    if at + 3 < len {
                        bytes[at + 3] = b'"';
                    }
                    assert_eq!(find_byte(&bytes, b'"', from), Some(at), "{len} {from} {at}");
                }
            }
        }
        assert_eq!(find_byte(b"ab", b'a', 3), None);
        assert_eq!(find_byte("\u{e9}\u{a2}<".as_bytes(), b'<', 1), Some(4));
    }

    #[test]
    fn names_end_where_byte_by_byte() {
        for b in 0..=255u8 {
            if BYTE_CLASS[b as usize] & (NAME_END | VALUE_END | TAG_NAME_END) != 0 {
                assert!(b < b'?', "{b}");
            }
        }
        // Tag names: the end and the first eight bytes packed.
        for name in
            ["a", "div", "h1", "DiV", "noscript", "blockquote", "x-y", "d\u{e9}v", "abcdefg"]
        {
            for end in [">", " ", "/", "\t", "\n", ""] {
                for rest in ["", "ab", "abcdefghij"] {
                    let text = format!("<{name}{end}{rest}");
                    let s = text.as_bytes();
                    let end = skip_class(s, 1, TAG_NAME_END);
                    let mut packed = 0x2020_2020_2020_2020u64;
                    for (k, &b) in s[1..end].iter().take(8).enumerate() {
                        packed ^= u64::from(b ^ b' ') << (8 * k);
                    }
                    assert_eq!(tag_name_end_packed(s, 1), (end, packed), "{text:?}");
                }
            }
        }
        let names =
            ["class", "aria-hidden", "data-a.b:c_d-0123456789", "x", "\u{e9}t\u{e9}", "a?b@c"];
        for name in names {
            for end in ["=", " ", "/", ">", "\t", "\r", "\x0C", "\n", ""] {
                for pad in [0, 3, 9] {
                    let text = format!("{}{name}{end}abcdefghijkl", "-".repeat(pad));
                    let s = text.as_bytes();
                    let bytewise = skip_class(s, pad, NAME_END);
                    assert_eq!(skip_class_by_words(s, pad, NAME_END), bytewise, "{text:?}");
                    assert_eq!(
                        skip_class_by_words(s, pad, VALUE_END),
                        skip_class(s, pad, VALUE_END),
                        "{text:?}"
                    );
                    let short = &s[..bytewise.min(s.len())];
                    assert_eq!(
                        skip_class_by_words(short, pad, NAME_END),
                        skip_class(short, pad, NAME_END),
                        "{text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn byte_classes_agree_with_the_tokenizer_states() {
        for b in 0..=255u8 {
            let class = BYTE_CLASS[b as usize];
            assert_eq!(class & SPACE != 0, is_space(b), "{b}");
            assert_eq!(
                class & NAME_END != 0,
                is_space(b) || matches!(b, b'/' | b'>' | b'='),
                "{b}"
            );
            assert_eq!(class & VALUE_END != 0, is_space(b) || b == b'>', "{b}");
        }
    }

    #[test]
    fn names_lower_cased_duplicates_dropped_values_decoded() {
        assert_eq!(
            attrs("<a HREF='/x?a=1&amp;b=2&copy=3' href=no Title=\"&lt;t&gt;\" hidden>"),
            [
                ("href".to_string(), "/x?a=1&b=2&copy=3".to_string()),
                ("title".to_string(), "<t>".to_string()),
                ("hidden".to_string(), String::new()),
            ]
        );
    }

    #[test]
    fn a_slash_ending_an_unquoted_value_is_the_values() {
        assert_eq!(end("<a href=/x/>"), TagEnd { end: 12, complete: true, self_closing: false });
        assert_eq!(attrs("<a href=/x/>"), [("href".to_string(), "/x/".to_string())]);
        assert!(end("<br class=a />").self_closing);
        assert!(!end("<br / >").self_closing);
        assert_eq!(attrs("<img alt=\"Share\" />"), [("alt".to_string(), "Share".to_string())]);
    }

    #[test]
    fn quotes_only_open_values() {
        assert_eq!(end("<a b=\"x>y\">").end, 11);
        // A quote inside a name or an unquoted value is a character.
        assert_eq!(end("<a b'c>'>").end, 7);
        assert_eq!(end("<a b=x'y>'>").end, 9);
        assert_eq!(end("<a =\">\">").end, 6);
    }

    #[test]
    fn the_input_ending_inside_a_tag_is_no_tag() {
        for tag in ["<a href='x", "<a href=", "<a b", "<a /"] {
            assert!(!end(tag).complete, "{tag}");
        }
    }

    #[test]
    fn unread_attributes_are_dropped_and_the_rest_capped() {
        let filter = AttributeFilter { keep_all: false, max: 2 };
        let tag = "<p data-x=1 id=a class=b title=c>";
        let mut got = TagAttributes::default();
        start_tag_attributes(tag, &ranges(tag), filter, &mut got);
        let names: Vec<&str> = got.iter().map(|(a, _)| &*a.name).collect();
        assert_eq!(names, ["id", "class"]);
    }

    #[test]
    fn kept_names_are_matched_in_any_case_and_only_they() {
        for name in KEPT {
            assert_eq!(kept_name(name.as_bytes()).as_deref(), Some(*name));
            let upper = name.to_ascii_uppercase();
            assert_eq!(kept_name(upper.as_bytes()).as_deref(), Some(*name));
        }
        for other in
            ["data-id", "ids", "i", "onclick", "aria-hiddenx", "", "cl\0ss", "id\0", "hre", "cláss"]
        {
            assert_eq!(kept_name(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn kept_names_read_in_place_are_those_read_alone() {
        // A name followed by eight bytes or more is read as one word, a
        // name near the end of the page byte by byte.
        let names = KEPT.iter().copied().chain(["ids", "i", "", "id\0", "hre", "cláss", "Class"]);
        for name in names {
            for after in ["", "=x", "=\"abcdefgh\""] {
                let page = format!("<p {name}{after}");
                let at = 3..3 + name.len();
                let alone = kept_name(name.as_bytes());
                assert_eq!(kept_name_at(page.as_bytes(), at), alone, "{page}");
            }
        }
    }
}
