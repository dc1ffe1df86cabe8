//! CleanEval 2007 (and CleanPortalEval): the gold converter
//! ([`GoldFormat::CleanEval`](super::GoldFormat::CleanEval)) and the
//! `<text …>` wrapper CleanEval stored its pages in.

use gleaner::document::decode_entities;

use super::blocks::Blocks;

/// CleanEval gold: the `URL:` line, then blocks started by `<p>`, `<h>` or
/// `<l>` (anywhere in a line, any case) and ended by blank lines.
pub(super) fn cleaneval_gold(text: &str) -> (String, Option<String>) {
    let mut body = text.trim_start();
    let mut url = None;
    if let Some(rest) = body.strip_prefix("URL:") {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        url = Some(line.trim().to_owned()).filter(|u| !u.is_empty());
        body = after;
    }
    let mut blocks = Blocks::default();
    for line in body.lines() {
        if line.trim().is_empty() {
            blocks.flush(true);
            continue;
        }
        let mut rest = line;
        while let Some((before, after)) = split_at_marker(rest) {
            blocks.push(before);
            blocks.flush(true);
            rest = after;
        }
        blocks.push(rest);
    }
    (blocks.finish(true), url)
}

/// Splits at the first CleanEval marker `<p>`, `<h>` or `<l>`.
pub(super) fn split_at_marker(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let at = bytes.windows(3).position(|w| {
        w.first() == Some(&b'<')
            && w.get(1).is_some_and(|c| matches!(c.to_ascii_lowercase(), b'p' | b'h' | b'l'))
            && w.get(2) == Some(&b'>')
    })?;
    // The marker is ASCII, so both cuts fall on char boundaries.
    Some((line.get(..at)?, line.get(at + 3..)?))
}

/// Removes CleanEval's wrapper from a page: a first line
/// `<text id="URL" title="…" encoding="…">` (after optional whitespace or
/// a BOM) and a closing `</text>` at the end. Returns the page without
/// them and the `id` attribute (the page's URL, entities decoded). Pages
/// without the wrapper are returned unchanged.
///
/// ```
/// use gleaner_eval::dataset::strip_text_wrapper;
/// let page = b"<text id=\"http://a.example/?x=1&amp;y=2\" title=\"A > B\">\n<html>Hi</html>\n</text>\n";
/// let (html, url) = strip_text_wrapper(page);
/// assert_eq!(html, b"\n<html>Hi</html>\n");
/// assert_eq!(url.as_deref(), Some("http://a.example/?x=1&y=2"));
/// assert_eq!(strip_text_wrapper(b"<html>").0, b"<html>");
/// ```
pub fn strip_text_wrapper(html: &[u8]) -> (&[u8], Option<String>) {
    // A wrapper tag longer than this is not one (titles are short).
    const LIMIT: usize = 64 * 1024;
    let unchanged = (html, None);
    let start = html.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(html);
    let start = trim_ascii_start(start);
    let Some(after_name) = strip_prefix_ignore_case(start, b"<text") else { return unchanged };
    if !after_name.first().is_some_and(|b| b.is_ascii_whitespace() || *b == b'>') {
        return unchanged;
    }
    let b = after_name;
    let mut i = 0;
    let mut id: Option<&[u8]> = None;
    let body_start = loop {
        if i > LIMIT {
            return unchanged;
        }
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        match b.get(i) {
            None => return unchanged,
            Some(b'>') => break i + 1,
            Some(_) => {}
        }
        let name_start = i;
        while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'=' && c != b'>') {
            i += 1;
        }
        let name = b.get(name_start..i).unwrap_or(&[]);
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let from = i + 1;
                let Some(len) = b.get(from..).and_then(|r| r.iter().position(|&c| c == q)) else {
                    return unchanged;
                };
                i = from + len + 1;
                b.get(from..from + len).unwrap_or(&[])
            }
            _ => {
                let from = i;
                while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'>') {
                    i += 1;
                }
                b.get(from..i).unwrap_or(&[])
            }
        };
        if name.eq_ignore_ascii_case(b"id") {
            id = Some(value);
        }
    };
    let mut body = b.get(body_start..).unwrap_or(&[]);
    let end = trim_ascii_end(body);
    if end.len() >= 7 {
        let (rest, tail) = end.split_at(end.len() - 7);
        if tail.eq_ignore_ascii_case(b"</text>") {
            body = rest;
        }
    }
    let url =
        id.map(|v| decode_entities(String::from_utf8_lossy(v).trim())).filter(|u| !u.is_empty());
    (body, url)
}

pub(super) fn strip_prefix_ignore_case<'a>(bytes: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| bytes.get(prefix.len()..).unwrap_or(&[]))
}

pub(super) fn trim_ascii_start(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    bytes.get(n..).unwrap_or(&[])
}

pub(super) fn trim_ascii_end(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    bytes.get(..bytes.len() - n).unwrap_or(&[])
}
