//! Decoding of character references (`&amp;`, `&#233;`, `&eacute`) in
//! source text, with the WHATWG rules for text content
//! (§13.2.5.72 "Character reference state"): the longest named reference
//! wins, legacy names without `;` are accepted, numeric references outside
//! Unicode become U+FFFD and the C1 range is remapped as windows-1252.
//!
//! The source-level algorithms need it so that `&amp;` counts as one
//! character (`docs/algorithms.md#source-normalisation` step 2 \[S-2\]) and so that source text can
//! be handed to the tree builder as the WHATWG tokenizer would (attribute
//! values and text alike, see `character_tokens` and `tag_attributes`).

use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// Longest name in the WHATWG table (`&CounterClockwiseContourIntegral;`).
const MAX_NAME: usize = 32;

/// Calls `emit` with every character of `raw` after decoding character
/// references. Allocates nothing.
pub fn for_each_decoded_char(raw: &str, mut emit: impl FnMut(char)) {
    for_each_piece(raw, false, |piece| match piece {
        Piece::Literal(s) => s.chars().for_each(&mut emit),
        Piece::Decoded(c) => emit(c),
    });
}

/// A piece of text with character references: a literal run or one
/// decoded character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Literal(&'a str),
    Decoded(char),
}

/// Walks `raw` as literal runs and decoded character references, in
/// order. `in_attribute` applies the rule of
/// attribute values (§13.2.5.73 "Named character reference state"): a
/// named reference without `;` followed by `=` or an ASCII alphanumeric
/// stays literal (`href="?a=1&copy=2"`).
pub(crate) fn for_each_piece(raw: &str, in_attribute: bool, mut emit: impl FnMut(Piece<'_>)) {
    let bytes = raw.as_bytes();
    let mut i = 0;
    // Start of the literal run not yet handed out.
    let mut run = 0;
    while i < raw.len() {
        let Some(amp) = memchr_amp(&bytes[i..]) else { break };
        let at = i + amp;
        match decode_reference(&raw[at + 1..], in_attribute) {
            Some((chars, consumed)) => {
                if at > run {
                    emit(Piece::Literal(&raw[run..at]));
                }
                emit(Piece::Decoded(chars.0));
                if let Some(c) = chars.1 {
                    emit(Piece::Decoded(c));
                }
                i = at + 1 + consumed;
                run = i;
            }
            None => i = at + 1,
        }
    }
    if raw.len() > run {
        emit(Piece::Literal(&raw[run..]));
    }
}

/// Decodes `raw` into a new string.
pub fn decode(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for_each_decoded_char(raw, |c| out.push(c));
    out
}

fn memchr_amp(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'&', bytes)
}

/// Decodes one reference that starts right after `&`. Returns the
/// character(s) and the number of bytes consumed after the `&`.
fn decode_reference(rest: &str, in_attribute: bool) -> Option<((char, Option<char>), usize)> {
    let bytes = rest.as_bytes();
    if bytes.first() == Some(&b'#') {
        return decode_numeric(rest);
    }
    let run = bytes.iter().take(MAX_NAME).take_while(|b| b.is_ascii_alphanumeric()).count();
    if run == 0 {
        return None;
    }
    let next = bytes.get(run).copied();
    // In an attribute value a reference without `;` is the whole run (see
    // below), which stays literal before `=` or an alphanumeric (the run
    // stops at one only at [`MAX_NAME`]): `&name=` in a URL needs no
    // look-up.
    if in_attribute && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric()) {
        return None;
    }
    if next == Some(b';') {
        // The most common references (`&amp;` in every other URL of a
        // page's links), without hashing their names into the table.
        let common = match &bytes[..run] {
            b"amp" => Some('&'),
            b"quot" => Some('"'),
            b"lt" => Some('<'),
            b"gt" => Some('>'),
            b"nbsp" => Some('\u{A0}'),
            _ => None,
        };
        if let Some(c) = common {
            return Some(((c, None), run + 1));
        }
        if let Some(&(a, b)) = NAMED_ENTITIES.get(&rest[..=run]) {
            if a != 0 {
                return Some((to_chars(a, b), run + 1));
            }
        }
    }
    // Legacy references without a semicolon: the longest known prefix.
    // In an attribute value a prefix shorter than the run is followed by
    // an alphanumeric, and so stays literal: only the whole run can be
    // one (one look-up for each `&name=` of a URL, not one per prefix).
    let shortest = if in_attribute { run } else { 2 };
    let (chars, len) =
        (shortest..=run).rev().find_map(|len| match NAMED_ENTITIES.get(&rest[..len]) {
            Some(&(a, b)) if a != 0 => Some((to_chars(a, b), len)),
            _ => None,
        })?;
    let next = bytes.get(len).copied();
    if in_attribute && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((chars, len))
}

fn decode_numeric(rest: &str) -> Option<((char, Option<char>), usize)> {
    let bytes = rest.as_bytes();
    let (radix, start) = match bytes.get(1) {
        Some(b'x' | b'X') => (16, 2),
        _ => (10, 1),
    };
    let digits = bytes[start..].iter().take_while(|b| (**b as char).is_digit(radix)).count();
    if digits == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &b in &bytes[start..start + digits] {
        let d = (b as char).to_digit(radix).unwrap_or(0);
        value = value.saturating_mul(radix).saturating_add(d);
    }
    let mut consumed = start + digits;
    if bytes.get(consumed) == Some(&b';') {
        consumed += 1;
    }
    let c = match value {
        // §13.2.5.80: the C1 controls windows-1252 assigns are remapped;
        // the five it leaves unassigned stay as they are.
        0x80..=0x9F => C1_REPLACEMENTS[(value - 0x80) as usize]
            .unwrap_or_else(|| char::from_u32(value).unwrap_or('\u{FFFD}')),
        0 => '\u{FFFD}',
        v => char::from_u32(v).unwrap_or('\u{FFFD}'),
    };
    Some(((c, None), consumed))
}

fn to_chars(a: u32, b: u32) -> (char, Option<char>) {
    let first = char::from_u32(a).unwrap_or('\u{FFFD}');
    let second = if b == 0 { None } else { char::from_u32(b) };
    (first, second)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn named_numeric_and_legacy() {
        assert_eq!(decode("a &amp; b"), "a & b");
        assert_eq!(decode("&eacute;t&eacute"), "été");
        assert_eq!(decode("&#233;&#xE9;&#XE9"), "ééé");
        assert_eq!(decode("&copy2"), "©2");
        assert_eq!(decode("&#150;"), "–");
        assert_eq!(decode("&#x81;&#x9D;"), "\u{81}\u{9D}");
        assert_eq!(decode("&#0;&#x110000;"), "\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn common_references_are_those_of_the_table() {
        for name in ["amp;", "quot;", "lt;", "gt;", "nbsp;"] {
            let (a, b) = markup5ever::data::NAMED_ENTITIES[name];
            let expected: String = [a, b].iter().filter_map(|&c| char::from_u32(c)).collect();
            let expected = expected.trim_end_matches('\0');
            assert_eq!(decode(&format!("&{name}")), expected, "{name}");
        }
    }

    #[test]
    fn unknown_references_stay_literal() {
        assert_eq!(decode("AT&T &nosuch; & &#;"), "AT&T &nosuch; & &#;");
    }

    #[test]
    fn attribute_values_keep_legacy_names_before_alphanumerics_and_equals() {
        let attr = |raw: &str| {
            let mut out = String::new();
            super::for_each_piece(raw, true, |piece| match piece {
                super::Piece::Literal(s) => out.push_str(s),
                super::Piece::Decoded(c) => out.push(c),
            });
            out
        };
        assert_eq!(attr("?a=1&copy=2&not;&notit&amp x"), "?a=1&copy=2¬&notit& x");
        assert_eq!(
            attr("&copy &copy2 &copy= &amp;x &ampx &amp_ &lang=en &notin;"),
            "© &copy2 &copy= &x &ampx &_ &lang=en ∉"
        );
        assert_eq!(decode("&notit"), "¬it");
        // A run of letters longer than any name, before `=`, a letter or
        // `;`, stays literal; a name before `;` after it still decodes.
        let long = format!("&{}=1&{}x&{};&amp;", "a".repeat(40), "b".repeat(40), "c".repeat(40));
        assert_eq!(attr(&long), format!("{}&", &long[..long.len() - "&amp;".len()]));
    }

    #[test]
    fn two_codepoint_reference() {
        assert_eq!(decode("&NotEqualTilde;"), "\u{2242}\u{338}");
    }
}
