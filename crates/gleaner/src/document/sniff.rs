//! Binary data told from text before a page is decoded: known
//! signatures, control-byte density and byte entropy (issue 31), and
//! UTF-16 without a byte order mark.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use crate::error::BinaryKind;

/// UTF-16 without a BOM: `<\0` or `\0<` at the start.
pub(super) fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head: Vec<u8> = bytes.iter().take(2).copied().collect();
    match head.as_slice() {
        [b'<', 0] => Some(UTF_16LE),
        [0, b'<'] => Some(UTF_16BE),
        _ => None,
    }
}

/// The bytes of a page's head that [`binary_kind`] reads.
const SNIFF_HEAD: usize = 8192;

/// What kind of binary data `bytes` are, or `None` for text: a known
/// signature (gzip, PDF, PNG, JPEG, GIF, ZIP), or a head (the first 8 KiB)
/// that is not text in any encoding. Two tests, either enough:
///
/// - **control bytes** (C0 other than TAB, LF, FF, CR and ESC): random
///   data has 27 in 256 (10.5 %); the real pages of every corpus at hand
///   (the WCEB datasets and the WCXB dev set, 4 484 pages, checked by
///   `gleaner-eval`'s `issue_31_no_real_page_is_taken_for_binary`) have
///   at most 0.16 %. More than 1 % (at least 8 of them), or more than a
///   tenth of a short head, is binary: a margin of six over the pages,
///   and twenty standard deviations under random data of 4 KiB.
/// - **byte entropy** of a head of 1 KiB or more that is not UTF-8:
///   compressed and random data are at 7.95 bits a byte over 4 KiB, the
///   corpus's heads at most 6.13, and text in legacy multi-byte encodings
///   (GBK, Shift_JIS, Big5: two bytes a character from a few thousand)
///   stays near 7 even without markup; 7.5 bits or more is binary. UTF-8
///   is exempt: its continuation bytes take 64 values only, so no text
///   reaches it, and a valid UTF-8 head is text by construction.
///
/// Deviation from the WHATWG MIME Sniffing Standard §7.2 ("binary data
/// byte" = any of those control bytes makes a resource binary): one stray
/// control byte is common in real pages (a 0x0B from a word processor,
/// a 0x1F in a tracking script), so a density is used, not a presence.
///
/// Text in UTF-16 or with a byte order mark is never sniffed (see
/// [`Document::parse`](super::Document::parse)).
pub fn binary_kind(bytes: &[u8]) -> Option<BinaryKind> {
    const SIGNATURES: &[(&[u8], BinaryKind)] = &[
        (b"\x1f\x8b", BinaryKind::Gzip),
        (b"%PDF-", BinaryKind::Pdf),
        (b"\x89PNG", BinaryKind::Png),
        (b"\xff\xd8\xff", BinaryKind::Jpeg),
        (b"GIF8", BinaryKind::Gif),
        (b"PK\x03\x04", BinaryKind::Zip),
    ];
    if let Some((_, kind)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some(*kind);
    }
    let head = &bytes[..bytes.len().min(SNIFF_HEAD)];
    if head.len() < 16 {
        return None;
    }
    let mut counts = [0usize; 256];
    for &b in head {
        counts[usize::from(b)] += 1;
    }
    let control: usize = (0u8..0x20)
        .filter(|b| !matches!(b, b'\n' | b'\r' | b'\t' | 0x0C | 0x1B))
        .map(|b| counts[usize::from(b)])
        .sum();
    if control * 10 > head.len() || (control >= 8 && control * 100 > head.len()) {
        return Some(BinaryKind::Binary);
    }
    if head.len() >= 1024 && !is_utf8_prefix(head) && entropy(&counts, head.len()) >= 7.5 {
        return Some(BinaryKind::Binary);
    }
    None
}

/// Whether `bytes` are UTF-8, but for a character cut at the end.
fn is_utf8_prefix(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// Shannon entropy of a byte histogram over `n` bytes, in bits a byte.
fn entropy(counts: &[usize; 256], n: usize) -> f64 {
    let n = n as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}
