//! Control characters taken out of everything gleaner prints.
//!
//! A page can carry terminal control sequences in its text, as raw bytes
//! or as character references (`&#27;]0;title&#7;` retitles an xterm;
//! `ESC [ 2 J` clears the screen). HTML keeps them: WHATWG §13.2.5.80
//! "Numeric character reference end state" only reports a
//! control-character-reference parse error and keeps the character
//! (apart from NUL and the C1 range it remaps). Printed as is, extracted
//! text would act on the user's terminal, so every renderer and the title
//! pass their text through [`strip_controls`] (issue 13, defect 8).
//! Below both the renderers and the metadata, which use it (it is
//! re-exported as `gleaner::render::strip_controls`).
//!
//! What goes:
//! - C0 controls (U+0000–U+001F) except tab and line feed, and DEL
//!   (U+007F);
//! - C1 controls (U+0080–U+009F), which some terminals obey as 8-bit
//!   escape sequences (U+009B is CSI);
//! - the bidi overrides LRO and RLO (U+202D, U+202E), which display the
//!   characters after them in reverse, the "Trojan Source" spoof
//!   (CVE-2021-42574).
//!
//! What is normalised: CR LF and a lone CR become LF (WHATWG §13.2.3.5
//! "Preprocessing the input stream" does this for raw bytes, but not for
//! `&#13;`); the line-breaking controls VT, FF and NEL (U+000B, U+000C,
//! U+0085) become LF, so that the words they separated stay apart.
//!
//! Deviation: the other bidi formatting characters (embeddings U+202A,
//! U+202B, pop U+202C, isolates U+2066–U+2069, marks U+200E, U+200F) are
//! kept: right-to-left pages use them to lay out mixed-direction text,
//! they reorder runs rather than characters, and their effect ends with
//! the line.

use std::borrow::Cow;

/// What [`strip_controls`] does with one character.
enum Action {
    Keep,
    Drop,
    Newline,
    /// A CR: dropped before a LF, a LF otherwise.
    CarriageReturn,
}

fn action(c: char) -> Action {
    match c {
        '\t' | '\n' => Action::Keep,
        '\r' => Action::CarriageReturn,
        '\u{0B}' | '\u{0C}' | '\u{85}' => Action::Newline,
        '\u{00}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{202D}' | '\u{202E}' => Action::Drop,
        _ => Action::Keep,
    }
}

/// Is `c` a character that [`strip_controls`] removes or replaces?
pub fn is_output_control(c: char) -> bool {
    !matches!(action(c), Action::Keep)
}

/// `text` without terminal control characters: C0 controls but tab and
/// line feed, DEL, C1 controls and the bidi overrides LRO and RLO are
/// dropped; CR LF, CR, VT, FF and NEL become a line feed. Borrows when
/// there is nothing to change.
///
/// ```
/// use gleaner::render::strip_controls;
/// assert_eq!(strip_controls("a\u{1b}]0;pwned\u{7}b\r\nc"), "a]0;pwnedb\nc");
/// assert_eq!(strip_controls("plain"), "plain");
/// ```
pub fn strip_controls(text: &str) -> Cow<'_, str> {
    let Some(first) = first_control(text) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let mut chars = text[first..].chars().peekable();
    while let Some(c) = chars.next() {
        match action(c) {
            Action::Keep => out.push(c),
            Action::Drop => {}
            Action::Newline => out.push('\n'),
            Action::CarriageReturn => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
        }
    }
    Cow::Owned(out)
}

/// Does `text` hold a character [`is_output_control`] is true of?
pub(crate) fn has_control(text: &str) -> bool {
    first_control(text).is_some()
}

/// The byte offset of the first character [`is_output_control`] is true
/// of, found on the UTF-8 bytes (most text has none, and decoding every
/// character to look was 1.5 % of a WARC run): C0 and DEL are single
/// bytes, the C1 controls are `C2 80`–`C2 9F`, LRO and RLO `E2 80 AD` and
/// `E2 80 AE`. Every match starts a character, so the offset is a char
/// boundary. Eight bytes at a time: only the bytes [`control_starts`]
/// marks in a word are looked at (SWAR) \[I\]; every rendered text
/// passes here, and a byte at a time it was 5 % of a run over long pages.
fn first_control(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let mut starts = control_starts(u64::from_le_bytes(*word));
        // Each candidate in turn: a C1 or bidi lead byte may start
        // another character.
        while starts != 0 {
            let i = at + (starts.trailing_zeros() / 8) as usize;
            if control_at(bytes, i) {
                return Some(i);
            }
            starts &= starts - 1;
        }
        at += 8;
    }
    (at..bytes.len()).find(|&i| control_at(bytes, i))
}

/// Does a control character start at `bytes[i]`?
fn control_at(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i) {
        Some(b'\t' | b'\n') | None => false,
        Some(0x00..=0x1F | 0x7F) => true,
        Some(0xC2) => matches!(bytes.get(i + 1), Some(0x80..=0x9F)),
        Some(0xE2) => {
            bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xAD | 0xAE))
        }
        Some(_) => false,
    }
}

/// Bit 7 of each byte of the eight bytes `w` (little end first) set
/// where the byte is below 0x20 but for tab and line feed, or is 0x7F,
/// 0xC2 or 0xE2: a control character, or the lead byte of one. The
/// bits are exact ([`EightBytes`]): a line feed, which most texts hold,
/// sends no word to the byte test (issue 12).
fn control_starts(w: u64) -> u64 {
    let b = EightBytes(w);
    let c0 = b.ascii_in(0x00, 0x1F) & !b.ascii_in(b'\t', b'\n');
    c0 | b.ascii_in(0x7F, 0x7F) | b.high_in(0xC2, 0xC2) | b.high_in(0xE2, 0xE2)
}

/// Eight bytes (little end first) tested against byte ranges at once
/// (SWAR) \[I\]: each test sets bit 7 of the bytes in its range. Each
/// byte's low seven bits are compared apart from its high bit, so no sum
/// carries into the next byte and every bit is exact (a plain
/// subtraction marks falsely above a true match).
#[derive(Clone, Copy)]
pub(crate) struct EightBytes(pub(crate) u64);

impl EightBytes {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;

    /// Bit 7 set where the low seven bits are at least `n` (0..=0x80).
    #[inline]
    fn low_at_least(self, n: u8) -> u64 {
        (self.0 & !Self::HIGH).wrapping_add(Self::ONES * u64::from(0x80 - n.min(0x80))) & Self::HIGH
    }

    /// Bit 7 set where the low seven bits are in `lo..=hi` (both below 0x80).
    #[inline]
    fn low_in(self, lo: u8, hi: u8) -> u64 {
        self.low_at_least(lo) & !self.low_at_least(hi.saturating_add(1))
    }

    /// Bit 7 set at the ASCII bytes in `lo..=hi` (both below 0x80).
    #[inline]
    pub(crate) fn ascii_in(self, lo: u8, hi: u8) -> u64 {
        self.low_in(lo, hi) & !self.0 & Self::HIGH
    }

    /// Bit 7 set at the bytes in `lo..=hi` (both 0x80 or above).
    #[inline]
    pub(crate) fn high_in(self, lo: u8, hi: u8) -> u64 {
        self.low_in(lo & 0x7F, hi & 0x7F) & self.0 & Self::HIGH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte scan finds what a scan of the characters finds, for every
    /// character of the first three planes' interesting ranges, alone and
    /// between text.
    #[test]
    fn the_byte_scan_finds_the_first_control_character() {
        let chars = (0u32..0x3000).chain(0xFEF0..0x10000).chain([0x1F600, 0x10FFFF]);
        for c in chars.filter_map(char::from_u32) {
            for text in [c.to_string(), format!("aé{c}b\u{202E}"), format!("ü{c}")] {
                assert_eq!(first_control(&text), text.find(is_output_control), "{:?}", c);
            }
            // At every position of an eight-byte word, after bytes that
            // are close to the ones looked for.
            for pad in 0..9 {
                let pad: String = "\u{a0}’~!".chars().cycle().take(pad).collect();
                let text = format!("{pad}{c}z\u{202D}");
                assert_eq!(first_control(&text), text.find(is_output_control), "{pad} {:?}", c);
            }
        }
    }

    #[test]
    fn controls_go_and_line_breaks_stay() {
        assert_eq!(strip_controls("\u{1b}[2J\u{9b}31mred\u{7f}"), "[2J31mred");
        assert_eq!(strip_controls("a\rb\r\nc\u{0c}d\u{85}e\tf"), "a\nb\nc\nd\ne\tf");
        assert_eq!(strip_controls("abc\u{202e}fdp.exe"), "abcfdp.exe");
        // Marks, embeddings and isolates stay; so do non-ASCII letters.
        let rtl = "\u{2067}שלום\u{2069} \u{200f}é\u{a0}";
        assert_eq!(strip_controls(rtl), rtl);
        assert!(matches!(strip_controls("no controls"), Cow::Borrowed(_)));
    }
}
