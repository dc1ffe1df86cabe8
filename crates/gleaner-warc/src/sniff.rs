//! Content types and sniffing: which responses are web pages.
//!
//! The policy: a response labelled `text/html` or `application/xhtml+xml`
//! is a page unless its bytes start with a binary signature (PNG, PDF, …).
//! A response without a `Content-Type` is a page when its bytes look like
//! HTML (the WHATWG sniffing patterns). Any other label is not a page,
//! even when the bytes look like HTML: browsers show `text/plain` as text
//! and never sniff it into HTML, so neither do we.

/// A response that is not a web page: what it is instead (its media
/// type, or the binary signature its bytes start with).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not HTML: {0}")]
pub struct NotHtml(pub String);

/// Splits a `Content-Type` value into the lower-case media type and the
/// `charset` parameter (unquoted). An empty media type is `None`.
pub fn parse_content_type(value: &str) -> (Option<String>, Option<String>) {
    let mut parts = value.split(';');
    let media = parts.next().map(|m| m.trim().to_ascii_lowercase()).filter(|m| !m.is_empty());
    let charset = parts.find_map(|p| {
        let (name, value) = p.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches('"').trim();
        (!value.is_empty()).then(|| value.to_string())
    });
    (media, charset)
}

/// Whether a media type names HTML.
pub fn is_html_type(media: &str) -> bool {
    matches!(media, "text/html" | "application/xhtml+xml")
}

/// The verdict on a content type before the body is read: `Ok(true)` for
/// HTML, `Ok(false)` when the body must be sniffed (no type), an error
/// otherwise.
pub fn check_type(media: Option<&str>) -> Result<bool, NotHtml> {
    match media {
        None => Ok(false),
        Some(m) if is_html_type(m) => Ok(true),
        Some(m) => Err(NotHtml(m.to_string())),
    }
}

/// The verdict on the body: binary signatures are never pages; without a
/// declared HTML type the bytes must look like HTML.
pub fn check_body(declared_html: bool, body: &[u8]) -> Result<(), NotHtml> {
    if let Some(kind) = binary_signature(body) {
        return Err(NotHtml(kind.to_string()));
    }
    if declared_html || looks_like_html(body) {
        Ok(())
    } else {
        Err(NotHtml("no content type, and the bytes are not HTML".into()))
    }
}

fn binary_signature(body: &[u8]) -> Option<&'static str> {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"%PDF-", "application/pdf"),
        (b"PK\x03\x04", "application/zip"),
        (b"\x1f\x8b\x08", "application/gzip"),
    ];
    SIGNATURES.iter().find(|(magic, _)| body.starts_with(magic)).map(|(_, kind)| *kind)
}

/// Whether bytes look like HTML by the WHATWG MIME-sniffing patterns:
/// after a byte-order mark and white space, one of `<!DOCTYPE HTML`,
/// `<HTML`, `<HEAD`, `<BODY`, `<SCRIPT`, `<DIV`, `<P`, … (any case)
/// followed by a space or `>`, or a comment `<!--`.
pub fn looks_like_html(bytes: &[u8]) -> bool {
    const TAGS: &[&[u8]] = &[
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
    ];
    let start = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start =
        match start.iter().position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
            Some(i) => &start[i..],
            None => return false,
        };
    if start.starts_with(b"<!--") {
        return true;
    }
    TAGS.iter().any(|tag| {
        start.len() > tag.len()
            && start[..tag.len()].eq_ignore_ascii_case(tag)
            && matches!(start[tag.len()], b' ' | b'>' | b'\t' | b'\n' | b'\r' | b'\x0c')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        assert_eq!(
            parse_content_type("Text/HTML; Charset=\"ISO-8859-1\""),
            (Some("text/html".into()), Some("ISO-8859-1".into()))
        );
        assert_eq!(parse_content_type("text/html"), (Some("text/html".into()), None));
        assert_eq!(parse_content_type(""), (None, None));
        assert!(check_type(Some("text/plain")).is_err());
        assert!(matches!(check_type(Some("application/xhtml+xml")), Ok(true)));
        assert!(matches!(check_type(None), Ok(false)));
    }

    #[test]
    fn sniffing() {
        assert!(looks_like_html(b"\xef\xbb\xbf \n<!DOCTYPE html><p>x"));
        assert!(looks_like_html(b"<HTML>"));
        assert!(looks_like_html(b"<!-- c -->"));
        assert!(!looks_like_html(b"<?xml version='1.0'?>"));
        assert!(!looks_like_html(b"hello <p>"));
        assert!(!looks_like_html(b"<pre"));
        assert!(check_body(true, b"\x89PNG\r\n\x1a\n....").is_err());
        assert!(check_body(false, b"plain words").is_err());
        assert!(check_body(true, b"plain words").is_ok());
    }
}
