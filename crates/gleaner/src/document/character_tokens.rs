//! Source text as html5ever's character tokens: what the WHATWG tokenizer
//! makes of a run of text in each of its content states.
//!
//! - The input stream is preprocessed first (§13.2.3.5): CR LF and a lone
//!   CR become LF.
//! - Character references are decoded in data and RCDATA (§13.2.5.1–2,
//!   §13.2.5.72), never in RAWTEXT, script data or PLAINTEXT.
//! - A NUL in data is a token of its own (the tree builder decides: it is
//!   dropped in body text, kept as U+FFFD in foreign content); in every
//!   other state it is U+FFFD (§13.2.5.2–5).

use std::ops::Range;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::Token;

use super::entities::{for_each_piece, Piece};

/// The tokenizer state a run of text was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextState {
    /// §13.2.5.1 data: references decoded, NUL its own token.
    Data,
    /// §13.2.5.2 RCDATA (`<title>`, `<textarea>`): references decoded.
    RcData,
    /// RAWTEXT, script data, PLAINTEXT: the text as written.
    Raw,
}

/// Appends `s` with CR LF and lone CRs as LF, and NULs as U+FFFD if
/// `replace_nul`. The bytes to change are found eight at a time
/// ([`find_cr_or_nul`]; text with Windows line ends has one a line, too
/// close together for `memchr`'s set-up to pay), and the runs between
/// them copied whole.
pub(crate) fn push_normalized(out: &mut String, s: &str, replace_nul: bool) {
    let bytes = s.as_bytes();
    out.reserve(s.len());
    let mut run = 0;
    while let Some(i) = find_cr_or_nul(bytes, run, replace_nul) {
        out.push_str(s.get(run..i).unwrap_or(""));
        // The CR of a CR LF is dropped (the LF starts the next run), with
        // nothing to copy (issue 12: text with Windows line ends has one
        // a line).
        match bytes.get(i) {
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => {}
            Some(b'\r') => out.push('\n'),
            _ => out.push('\u{FFFD}'),
        }
        run = i + 1;
    }
    out.push_str(s.get(run..).unwrap_or(""));
}

/// The first CR (or NUL, if `nul`) in `bytes` from `from`: eight bytes at
/// a time, a byte equal to CR being a zero byte of the word XOR CRs
/// repeated; the lowest of the [`zero_bytes`] marks is the answer.
fn find_cr_or_nul(bytes: &[u8], from: usize, nul: bool) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let nul_mask = if nul { u64::MAX } else { 0 };
    let mut i = from;
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        let marks = zero_bytes(w ^ (ONES * 0x0D)) | (zero_bytes(w) & nul_mask);
        if marks != 0 {
            return Some(i + (marks.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes.get(i..).unwrap_or_default();
    rest.iter().position(|&b| b == b'\r' || (nul && b == 0)).map(|p| i + p)
}

/// Bit 7 set in each byte of `x` that is zero, `(x - 0x01…) & !x & 0x80…`:
/// non-zero exactly when some byte is, and the lowest mark exact (a byte
/// above a zero byte may be marked falsely, after a borrow).
pub(crate) fn zero_bytes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    x.wrapping_sub(ONES) & !x & HIGH
}

/// `s` normalised as with [`push_normalized`] (NULs as U+FFFD).
pub(crate) fn normalized(s: &str) -> StrTendril {
    if !s.bytes().any(|b| b == b'\r' || b == b'\0') {
        return StrTendril::from_slice(s);
    }
    let mut out = String::with_capacity(s.len());
    push_normalized(&mut out, s, true);
    StrTendril::from(out)
}

/// Appends `raw` with its character references decoded (data and RCDATA,
/// §13.2.5.72), for text with no CR or NUL to preprocess.
pub(crate) fn decode_into(out: &mut String, raw: &str) {
    for_each_piece(raw, false, |piece| match piece {
        Piece::Literal(s) => out.push_str(s),
        Piece::Decoded(c) => out.push(c),
    });
}

/// `page[range]` as a tendril sharing `page`'s buffer (no copy, no
/// allocation; a copy if the range is not on character boundaries). A
/// short one is copied into the tendril itself, which is cheaper than
/// sharing (most text between two tags is a line break and indent).
pub(crate) fn page_slice(page: &StrTendril, range: Range<usize>) -> StrTendril {
    if range.len() <= INLINE_BYTES {
        if let Some(text) = page.get(range.clone()) {
            return StrTendril::from_slice(text);
        }
    }
    let (Ok(start), Ok(len)) = (u32::try_from(range.start), u32::try_from(range.len())) else {
        return StrTendril::new();
    };
    page.try_subtendril(start, len)
        .unwrap_or_else(|_| StrTendril::from_slice(page.get(range).unwrap_or("")))
}

/// The longest text a tendril holds in itself (tendril's
/// `MAX_INLINE_LEN` on 64-bit targets).
const INLINE_BYTES: usize = 8;

/// Calls `emit` with the character tokens of `page[range]`, text read in
/// `state`. Text that needs no change is handed over as a slice of `page`.
pub(crate) fn for_each_character_token(
    page: &StrTendril,
    range: Range<usize>,
    state: TextState,
    mut emit: impl FnMut(Token),
) {
    let raw = page.get(range.clone()).unwrap_or("");
    let decodes = state != TextState::Raw;
    let special = if decodes {
        memchr::memchr3(b'\r', b'\0', b'&', raw.as_bytes())
    } else {
        memchr::memchr2(b'\r', b'\0', raw.as_bytes())
    };
    if special.is_none() {
        if !raw.is_empty() {
            emit(Token::CharacterTokens(page_slice(page, range)));
        }
        return;
    }
    let replace_nul = state != TextState::Data;
    let mut text = String::with_capacity(raw.len());
    if decodes {
        for_each_piece(raw, false, |piece| match piece {
            Piece::Literal(s) => push_normalized(&mut text, s, replace_nul),
            Piece::Decoded(c) => text.push(c),
        });
    } else {
        push_normalized(&mut text, raw, true);
    }
    if replace_nul {
        emit(Token::CharacterTokens(StrTendril::from(text)));
        return;
    }
    let mut pieces = text.split('\0').peekable();
    while let Some(piece) = pieces.next() {
        if !piece.is_empty() {
            emit(Token::CharacterTokens(StrTendril::from_slice(piece)));
        }
        if pieces.peek().is_some() {
            emit(Token::NullCharacterToken);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(raw: &str, state: TextState) -> Vec<String> {
        let mut out = Vec::new();
        let page = StrTendril::from_slice(&format!("<p>{raw}"));
        for_each_character_token(&page, 3..page.len(), state, |t| {
            out.push(match t {
                Token::CharacterTokens(s) => s.to_string(),
                Token::NullCharacterToken => "NUL".to_string(),
                other => format!("{other:?}"),
            })
        });
        out
    }

    #[test]
    fn normalizes_at_any_position() {
        for len in 0..20 {
            for at in 0..len {
                for (special, nul, want) in [
                    ('\r', false, "\n"),
                    ('\r', true, "\n"),
                    ('\0', true, "\u{FFFD}"),
                    ('\0', false, "\0"),
                ] {
                    let mut text: Vec<char> = "abcdefghij".chars().cycle().take(len).collect();
                    text[at] = special;
                    let text: String = text.into_iter().collect();
                    let mut out = String::new();
                    push_normalized(&mut out, &text, nul);
                    assert_eq!(out, text.replace(special, want), "{text:?} {nul}");
                }
            }
        }
        let mut out = String::new();
        push_normalized(&mut out, "a\r\nb\r\r\nc\r\u{e9}\r\0\r", true);
        assert_eq!(out, "a\nb\n\nc\n\u{e9}\n\u{FFFD}\n");
    }

    #[test]
    fn data_decodes_references_and_splits_at_nul() {
        assert_eq!(tokens("Fish &amp; chips", TextState::Data), ["Fish & chips"]);
        assert_eq!(tokens("a\0b\r\nc\rd", TextState::Data), ["a", "NUL", "b\nc\nd"]);
        assert_eq!(tokens("&#13;\r\n", TextState::Data), ["\r\n"]);
    }

    #[test]
    fn rcdata_decodes_raw_text_does_not() {
        assert_eq!(tokens("a &lt;\0", TextState::RcData), ["a <\u{FFFD}"]);
        assert_eq!(tokens("a &lt;\0", TextState::Raw), ["a &lt;\u{FFFD}"]);
        assert!(tokens("", TextState::Raw).is_empty());
    }
}
