//! HTTP content codings (RFC 9110 §8.4): undoing `Content-Encoding`
//! gzip, deflate, br and zstd with the byte limit applied while
//! decompressing, as for gzipped files, so a small compressed body that
//! expands without end (a decompression bomb) costs at most the limit.

use std::io::Read;

/// The `Accept-Encoding` the HTTP source sends: every coding this module
/// undoes.
pub const ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

/// Why a body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The decoded body is longer than the limit.
    TooLarge,
    /// A coding this module does not know.
    Unsupported(String),
    /// The bytes are not what the coding says.
    Corrupt {
        /// The coding.
        coding: String,
        /// The decoder's message.
        message: String,
    },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::TooLarge => f.write_str("decoded body over the byte limit"),
            DecodeError::Unsupported(c) => write!(f, "unsupported Content-Encoding {c:?}"),
            DecodeError::Corrupt { coding, message } => {
                write!(f, "cannot decode {coding} content: {message}")
            }
        }
    }
}

/// Whether a `Content-Encoding` value names a coding to undo.
pub fn is_encoded(codings: &str) -> bool {
    codings.split(',').map(str::trim).any(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"))
}

/// Undoes the codings of `codings` (a `Content-Encoding` value) on `body`.
/// The result is at most `limit` bytes: longer is
/// [`DecodeError::TooLarge`], unless `lenient`, which keeps the first
/// `limit` bytes and what was decoded before any error (for `robots.txt`,
/// of which RFC 9309 §2.5 reads a prefix).
pub fn decode(
    codings: &str,
    body: &[u8],
    limit: usize,
    lenient: bool,
) -> Result<Vec<u8>, DecodeError> {
    let mut bytes = body.to_vec();
    // Codings are listed in the order they were applied: the last first
    // (RFC 9110 §8.4).
    let list: Vec<String> = codings
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    for coding in list.iter().rev() {
        bytes = decode_one(coding, &bytes, limit, lenient)?;
    }
    if bytes.len() > limit {
        if !lenient {
            return Err(DecodeError::TooLarge);
        }
        bytes.truncate(limit);
    }
    Ok(bytes)
}

/// Undoes one coding, reading at most one byte past the limit.
fn decode_one(
    coding: &str,
    bytes: &[u8],
    limit: usize,
    lenient: bool,
) -> Result<Vec<u8>, DecodeError> {
    let take = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut out = Vec::new();
    let read = match coding {
        "gzip" | "x-gzip" => {
            flate2::read::MultiGzDecoder::new(bytes).take(take).read_to_end(&mut out)
        }
        // `deflate` is the zlib format (RFC 9110 §8.4.1.2), but some
        // servers send raw deflate.
        "deflate" => {
            flate2::read::ZlibDecoder::new(bytes).take(take).read_to_end(&mut out).or_else(|_| {
                out.clear();
                flate2::read::DeflateDecoder::new(bytes).take(take).read_to_end(&mut out)
            })
        }
        "br" => {
            brotli_decompressor::Decompressor::new(bytes, 1 << 12).take(take).read_to_end(&mut out)
        }
        // The zstd decoder refuses frames whose window is over 128 MiB
        // (ZSTD_WINDOWLOG_LIMIT_DEFAULT), which bounds its own memory.
        "zstd" => zstd::stream::read::Decoder::with_buffer(bytes)
            .and_then(|d| d.take(take).read_to_end(&mut out)),
        other => return Err(DecodeError::Unsupported(other.to_string())),
    };
    match read {
        Ok(_) if out.len() > limit && !lenient => Err(DecodeError::TooLarge),
        Ok(_) => Ok(out),
        Err(_) if lenient => Ok(out),
        Err(e) => Err(DecodeError::Corrupt { coding: coding.to_string(), message: e.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn codings_are_undone_last_first() {
        let page = b"<p>twice</p>".to_vec();
        let zstd = zstd::encode_all(&gzip(&page)[..], 1).unwrap();
        assert_eq!(decode("gzip, zstd", &zstd, 100, false).unwrap(), page);
        assert_eq!(decode("identity", &page, 100, false).unwrap(), page);
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        zlib.write_all(&page).unwrap();
        assert_eq!(decode("Deflate", &zlib.finish().unwrap(), 100, false).unwrap(), page);
        assert!(is_encoded("gzip") && !is_encoded(" identity ") && !is_encoded(""));
    }

    #[test]
    fn bombs_stop_at_the_limit() {
        let bomb = gzip(&vec![b'a'; 50 << 20]);
        assert!(bomb.len() * 100 < 50 << 20, "{} bytes", bomb.len());
        assert_eq!(decode("gzip", &bomb, 1 << 20, false), Err(DecodeError::TooLarge));
        assert_eq!(decode("gzip", &bomb, 1000, true).unwrap().len(), 1000);
    }

    #[test]
    fn corrupt_and_unknown_codings_are_errors() {
        assert!(matches!(
            decode("gzip", b"not gzip", 100, false),
            Err(DecodeError::Corrupt { .. })
        ));
        assert!(matches!(decode("compress", b"x", 100, false), Err(DecodeError::Unsupported(_))));
        let mut cut = gzip(b"User-agent: *\nDisallow: /\n");
        cut.truncate(cut.len() - 8);
        assert_eq!(decode("gzip", &cut, 100, true).unwrap(), b"User-agent: *\nDisallow: /\n");
    }
}
