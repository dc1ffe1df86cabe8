//! React's streamed server rendering, put where a browser shows it.
//!
//! A page rendered by React with streaming (`renderToPipeableStream`,
//! Next.js's App Router) sends its shell first, with a *boundary* where a
//! part was not ready: `<!--$?--><template id="B:1"></template>` and a
//! fallback (a spinner, a skeleton) up to `<!--/$-->`. The part follows
//! later in the same response, at the end of the body, hidden:
//! `<div hidden id="S:1">…</div>`, then an inline script
//! (`$RC("B:1","S:1")`) that moves the hidden div's children into the
//! boundary in place of its fallback. Every scripting browser runs it, so
//! the page a reader sees has the part at its boundary; a reader of the
//! HTML alone sees a skeleton there and the part hidden after the footer.
//! 33 of WCXB-dev's 1 497 pages (issue 30) stream this way, some their
//! whole article.
//!
//! [`place`] does what those scripts do, on the decoded text before it
//! is parsed, unless `ParseOptions::streamed_parts` is turned off: each
//! segment's inner HTML replaces its boundary's template and
//! fallback, and the hidden div is removed. A segment whose boundary or
//! end is not found is left where it is, hidden.

use memchr::memmem;

use super::encoding::find_ascii_ci;

/// The most segments moved in a page: each move is a pass over the page
/// and a copy of it. (WCXB-dev's pages stream up to 59; segments past
/// the last move stay where they were sent, hidden.)
const MAX_MOVES: usize = 128;

/// The most bytes copied by all moves on a page (256 MiB): a page of
/// 64 MiB moves four segments at most.
const MAX_COPIED: usize = 256 << 20;

/// The most segments that could not be moved (no boundary, no end) tried
/// in a page: each is a pass over the rest of the page.
const MAX_FAILURES: usize = 64;

/// Where a segment starts: React writes exactly this.
const SEGMENT: &[u8] = b"<div hidden id=\"S:";

/// The page with its streamed segments at their boundaries, or `None`
/// when it has none that could be placed (most pages: one search).
pub(crate) fn place(text: &str) -> Option<String> {
    memmem::find(text.as_bytes(), SEGMENT)?;
    let mut page: Option<String> = None;
    let mut from = 0;
    let (mut moves, mut failures) = (0, 0);
    let max_moves = MAX_MOVES.min(MAX_COPIED / text.len().max(1));
    let max_failures = MAX_FAILURES.min(MAX_COPIED / text.len().max(1)).max(1);
    while moves < max_moves && failures < max_failures {
        let current = page.as_deref().unwrap_or(text);
        let Some(at) = memmem::find(&current.as_bytes()[from..], SEGMENT).map(|i| from + i) else {
            break;
        };
        match move_segment(current, at) {
            // Go on after the moved segment: a segment's boundary is in
            // the shell or in a segment sent before it, so one that could
            // not be moved before this one cannot be now.
            Some((next, after)) => {
                (page, from) = (Some(next), after);
                moves += 1;
            }
            None => {
                from = at + SEGMENT.len();
                failures += 1;
            }
        }
    }
    page
}

/// The page with the segment starting at `at` moved into its boundary,
/// and where the page after the segment now starts.
fn move_segment(page: &str, at: usize) -> Option<(String, usize)> {
    let bytes = page.as_bytes();
    let id_start = at + SEGMENT.len();
    let id_len = bytes[id_start..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if id_len == 0 || !bytes[id_start + id_len..].starts_with(b"\">") {
        return None;
    }
    let id = &page[id_start..id_start + id_len];
    let inner_start = id_start + id_len + 2;
    let inner_end = matching_div_end(bytes, inner_start)?;
    let segment_end = inner_end + b"</div>".len();
    let template = format!("<template id=\"B:{id}\"></template>");
    let boundary = memmem::find(bytes, template.as_bytes())?;
    let fallback_start = boundary + template.len();
    let fallback_end = boundary_end(bytes, fallback_start).unwrap_or(fallback_start);
    // A boundary inside the segment, or a fallback reaching into it, is
    // not React's shape.
    if (at..segment_end).contains(&boundary) || (boundary < at && fallback_end > at) {
        return None;
    }
    let inner = &page[inner_start..inner_end];
    let mut out = String::with_capacity(page.len());
    let after = if boundary < at {
        out.push_str(&page[..boundary]);
        out.push_str(inner);
        out.push_str(&page[fallback_end..at]);
        let after = out.len();
        out.push_str(&page[segment_end..]);
        after
    } else {
        out.push_str(&page[..at]);
        out.push_str(&page[segment_end..boundary]);
        out.push_str(inner);
        out.push_str(&page[fallback_end..]);
        at
    };
    Some((out, after))
}

/// Where the `</div>` closing a div whose content starts at `from` begins:
/// `<div` and `</div>` counted, comments and the raw text of `script`,
/// `style`, `textarea` and `title` passed over.
fn matching_div_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..]).map(|k| i + k) {
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            i = lt + 4 + memmem::find(&rest[4..], b"-->")? + 3;
        } else if let Some(end) = raw_text_end(rest) {
            i = lt + end;
        } else if starts_tag(rest, b"<div") {
            depth += 1;
            i = lt + 4;
        } else if starts_tag(rest, b"</div") {
            depth -= 1;
            if depth == 0 {
                return rest.starts_with(b"</div>").then_some(lt);
            }
            i = lt + 5;
        } else {
            i = lt + 1;
        }
    }
    None
}

/// Past the end tag of a raw-text element opening `rest`, if it opens one.
fn raw_text_end(rest: &[u8]) -> Option<usize> {
    for (open, close) in [
        (&b"<script"[..], &b"</script"[..]),
        (b"<style", b"</style"),
        (b"<textarea", b"</textarea"),
        (b"<title", b"</title"),
    ] {
        if starts_tag(rest, open) {
            let close_at = find_ascii_ci(&rest[open.len()..], close)? + open.len();
            return Some(close_at + close.len());
        }
    }
    None
}

/// `rest` starts with the tag name `tag` (any case), followed by white
/// space, `>` or `/`.
fn starts_tag(rest: &[u8], tag: &[u8]) -> bool {
    rest.len() > tag.len()
        && rest[..tag.len()].eq_ignore_ascii_case(tag)
        && matches!(rest[tag.len()], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'>' | b'/')
}

/// Where the fallback starting at `from` ends: at the `<!--/$-->` closing
/// its boundary, nested boundaries (`<!--$-->`, `<!--$?-->`, `<!--$!-->`)
/// counted. The closing comment stays.
fn boundary_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(k) = memmem::find(&bytes[i..], b"<!--") {
        let at = i + k;
        let rest = &bytes[at + 4..];
        if rest.starts_with(b"/$-->") {
            depth -= 1;
            if depth == 0 {
                return Some(at);
            }
        } else if rest.starts_with(b"$-->")
            || rest.starts_with(b"$?-->")
            || rest.starts_with(b"$!-->")
        {
            depth += 1;
        }
        i = at + 4;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_replaces_its_boundarys_fallback() {
        let page =
            "<body><h1>T</h1><!--$?--><template id=\"B:0\"></template><p>Loading…</p><!--/$-->\
                    <footer>F</footer><div hidden id=\"S:0\"><div><p>Body</p></div></div>\
                    <script>$RC(\"B:0\",\"S:0\")</script></body>";
        assert_eq!(
            place(page).unwrap(),
            "<body><h1>T</h1><!--$?--><div><p>Body</p></div><!--/$--><footer>F</footer>\
             <script>$RC(\"B:0\",\"S:0\")</script></body>"
        );
    }

    #[test]
    fn nested_segments_follow_their_parents() {
        // S:1 fills a boundary inside S:0; both arrive after the shell.
        let page = "<main><!--$?--><template id=\"B:0\"></template><!--/$--></main>\
                    <div hidden id=\"S:0\"><p>A</p><!--$?--><template id=\"B:1\"></template>\
                    <i>…</i><!--/$--></div><div hidden id=\"S:1\"><p>B</p></div>";
        assert_eq!(
            place(page).unwrap(),
            "<main><!--$?--><p>A</p><!--$?--><p>B</p><!--/$--><!--/$--></main>"
        );
    }

    #[test]
    fn comments_and_scripts_do_not_confuse_the_end() {
        let page = "<!--$?--><template id=\"B:a\"></template><!--/$-->\
                    <div hidden id=\"S:a\"><!-- </div> --><script>x='</div>'</script><div>x</div></div><p>after</p>";
        assert_eq!(
            place(page).unwrap(),
            "<!--$?--><!-- </div> --><script>x='</div>'</script><div>x</div><!--/$--><p>after</p>"
        );
    }

    #[test]
    fn pages_without_a_placeable_segment_are_left_alone() {
        assert_eq!(place("<p>no streaming</p>"), None);
        // No boundary for the segment, or no end to it.
        assert_eq!(place("<div hidden id=\"S:0\"><p>x</p></div>"), None);
        assert_eq!(place("<template id=\"B:0\"></template><div hidden id=\"S:0\"><p>x"), None);
        assert_eq!(place("<template id=\"B:0\"></template><div hidden id=\"S:\"></div>"), None);
    }

    #[test]
    fn tries_are_bounded() {
        // Thousands of segments without boundaries: a bounded number of
        // passes, nothing moved.
        let page = "<div hidden id=\"S:0\"><p>x</p></div>".repeat(20_000);
        assert_eq!(place(&page), None);
    }

    #[test]
    fn a_parsed_page_reads_the_segment_at_its_boundary() {
        use crate::{render, Document, ParseOptions, Selection};
        let page = "<body><h1>Title</h1><!--$?--><template id=\"B:0\"></template><p>Loading</p>\
                    <!--/$--><footer>Footer</footer><div hidden id=\"S:0\"><p>Body text</p></div>\
                    <script>$RC(\"B:0\",\"S:0\")</script></body>";
        let doc = Document::parse(page.as_bytes(), &ParseOptions::default()).unwrap();
        let all = Selection::all(&doc);
        assert_eq!(render::text(&doc, &all), "Title\n\nBody text\n\nFooter");
        // Asked to read the page as sent, the segment stays hidden.
        let options = ParseOptions::default().streamed_parts(false);
        let doc = Document::parse(page.as_bytes(), &options).unwrap();
        let all = Selection::all(&doc);
        assert_eq!(render::text(&doc, &all), "Title\n\nLoading\n\nFooter");
    }
}
