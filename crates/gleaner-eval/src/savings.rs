//! Space savings of the extracted text against the raw HTML (Weninger &
//! Hsu, TTR, DEXA'08 workshops, S-3 §4: "a mean space savings of
//! 95%", "an 88% space savings when compressed HTML is compared to
//! compressed text").
//!
//! ```text
//! plain = 1 − bytes(extract) / bytes(html)
//! gzip  = 1 − bytes(gzip(extract)) / bytes(gzip(html))
//! ```
//!
//! gzip is flate2's at the default level (6), as `gzip` itself.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

/// Space savings of one page, as fractions (0.95 = 95 % smaller).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Savings {
    /// `1 − len(extract) / len(html)`, in UTF-8 bytes.
    pub plain: f64,
    /// The same on the gzip-compressed sizes.
    pub gzip: f64,
}

/// Space savings of `extract` against the page's raw `html` bytes.
///
/// `None` when `html` is empty (the ratio is undefined). A value is
/// negative when the extract is larger than the page, e.g. for a tiny
/// page whose compressed extract has the same gzip overhead.
///
/// ```
/// use gleaner_eval::savings;
/// let html = format!("<html><body><nav>{}</nav><p>Text</p></body></html>", "<a href=/>x</a>".repeat(10));
/// let s = savings("Text", html.as_bytes()).unwrap();
/// assert!(s.plain > 0.9 && s.gzip > 0.0);
/// ```
pub fn savings(extract: &str, html: &[u8]) -> Option<Savings> {
    if html.is_empty() {
        return None;
    }
    let plain = 1.0 - extract.len() as f64 / html.len() as f64;
    let gzip = 1.0 - gzip_len(extract.as_bytes())? as f64 / gzip_len(html)? as f64;
    Some(Savings { plain, gzip })
}

/// Size of `bytes` gzip-compressed at the default level. Writing into a
/// `Vec` cannot fail, so `None` is never returned in practice.
fn gzip_len(bytes: &[u8]) -> Option<usize> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok().map(|out| out.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_plain() {
        // 50 of 1000 bytes kept: 95 % saved.
        let html = "x".repeat(1000);
        let s = savings(&"y".repeat(50), html.as_bytes()).unwrap();
        assert!((s.plain - 0.95).abs() < 1e-12);
        // Bytes, not chars: "é" is 2 bytes of 4.
        assert_eq!(savings("é", b"abcd").unwrap().plain, 0.5);
    }

    #[test]
    fn gzip_sizes() {
        // An empty gzip member: 10-byte header, the 2-byte empty final
        // block, 8-byte trailer.
        assert_eq!(gzip_len(b""), Some(20));
        // Repetitive HTML compresses far better than the text does, so
        // gzip savings are lower than plain ones (the paper: 95 % vs 88 %).
        let html = "<div class=\"nav\"><a href=\"/\">Home</a></div>".repeat(200);
        let s = savings("A short but varied extract of the story.", html.as_bytes()).unwrap();
        assert!(s.plain > s.gzip && s.gzip > 0.0, "{s:?}");
    }

    #[test]
    fn empty_cases() {
        assert_eq!(savings("text", b""), None);
        let s = savings("", b"<p></p>").unwrap();
        assert_eq!(s.plain, 1.0);
        // gzip(""), 20 bytes, is smaller than gzip of the 7-byte page.
        assert!(s.gzip >= 0.0);
        // An extract larger than the page saves a negative amount.
        assert!(savings("longer than", b"tiny").unwrap().plain < 0.0);
    }
}
