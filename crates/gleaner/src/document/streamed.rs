//! Streamed server rendering (React's, and Marko's out-of-order parts),
//! put where a browser shows it.
//!
//! A page rendered by React with streaming (`renderToPipeableStream`,
//! Next.js's App Router) sends its shell first, with a *boundary* where a
//! part was not ready: `<!--$?--><template id="B:1"></template>` and a
//! fallback (a spinner, a skeleton) up to `<!--/$-->`, or, for a part of
//! a part, a bare placeholder, `<template id="P:2"></template>`. The part follows
//! later in the same response, at the end of the body, hidden:
//! `<div hidden id="S:1">…</div>`, then an inline script
//! (`$RC("B:1","S:1")`, or `$RS("S:2","P:2")` for a placeholder) that
//! moves the hidden div's children into the boundary in place of its
//! fallback, or in place of the placeholder. Every scripting browser runs it, so
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

use std::ops::Range;

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

/// The page with its streamed parts where its scripts put them (React's
/// segments, then Marko's), or `None` when it has none that could be
/// placed (most pages: two searches).
pub(crate) fn place(text: &str) -> Option<String> {
    match place_react(text) {
        Some(placed) => Some(place_marko(&placed).unwrap_or(placed)),
        None => place_marko(text),
    }
}

/// The page with React's streamed segments at their boundaries, or
/// `None` when it has none that could be placed (most pages: one search).
fn place_react(text: &str) -> Option<String> {
    memmem::find(text.as_bytes(), SEGMENT)?;
    move_parts(
        text,
        |page, from| {
            let at = memmem::find(&page.as_bytes()[from..], SEGMENT)? + from;
            Some((at, at + SEGMENT.len()))
        },
        |page, &at| move_segment(page, at),
    )
}

/// `text` with each part `next` finds moved by `mover`, or `None` when
/// none was: `next` gives the part found from a position and where to
/// look on if it cannot be moved; `mover` the page with the part moved
/// and where the page after it now starts. The search goes on after a
/// moved part: a part's target is in the shell or in a part sent before
/// it, so one that could not be moved before this one cannot be now.
/// Moves and failures are bounded, and so are the bytes they copy.
fn move_parts<T>(
    text: &str,
    next: impl Fn(&str, usize) -> Option<(T, usize)>,
    mover: impl Fn(&str, &T) -> Option<(String, usize)>,
) -> Option<String> {
    let mut page: Option<String> = None;
    let mut from = 0;
    let (mut moves, mut failures) = (0, 0);
    let max_moves = MAX_MOVES.min(MAX_COPIED / text.len().max(1));
    let max_failures = MAX_FAILURES.min(MAX_COPIED / text.len().max(1)).max(1);
    while moves < max_moves && failures < max_failures {
        let current = page.as_deref().unwrap_or(text);
        let Some((part, skip)) = next(current, from) else { break };
        match mover(current, &part) {
            Some((moved, after)) => {
                (page, from) = (Some(moved), after);
                moves += 1;
            }
            None => {
                from = skip;
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
    let (boundary, fallback_end) = target(bytes, id)?;
    // A boundary inside the segment, or a fallback reaching into it, is
    // not React's shape.
    if (at..segment_end).contains(&boundary) || (boundary < at && fallback_end > at) {
        return None;
    }
    Some(splice(page, at..segment_end, inner_start..inner_end, boundary..fallback_end))
}

/// The page with the part at `part` removed and its content, `inner`
/// (inside `part`), in place of `target` (outside it), and where the page
/// after the part now starts.
fn splice(
    page: &str,
    part: Range<usize>,
    inner: Range<usize>,
    target: Range<usize>,
) -> (String, usize) {
    let inner = &page[inner];
    let mut out = String::with_capacity(page.len());
    let after = if target.start < part.start {
        out.push_str(&page[..target.start]);
        out.push_str(inner);
        out.push_str(&page[target.end..part.start]);
        let after = out.len();
        out.push_str(&page[part.end..]);
        after
    } else {
        out.push_str(&page[..part.start]);
        out.push_str(&page[part.end..target.start]);
        out.push_str(inner);
        out.push_str(&page[target.end..]);
        part.start
    };
    (out, after)
}

/// Where segment `id` goes: the start of its target and the end of what it
/// replaces there. A suspense boundary (`<template id="B:id">`, which
/// `$RC` completes) gives way with its fallback, up to the `<!--/$-->`
/// closing it; a placeholder (`<template id="P:id">`, which `$RS`
/// completes: a part of a segment that was sent later than the rest of
/// it) is replaced alone.
fn target(bytes: &[u8], id: &str) -> Option<(usize, usize)> {
    let boundary = format!("<template id=\"B:{id}\"></template>");
    if let Some(at) = memmem::find(bytes, boundary.as_bytes()) {
        let fallback_start = at + boundary.len();
        let fallback_end = boundary_end(bytes, fallback_start).unwrap_or(fallback_start);
        return Some((at, fallback_end));
    }
    let placeholder = format!("<template id=\"P:{id}\"></template>");
    memmem::find(bytes, placeholder.as_bytes()).map(|at| (at, at + placeholder.len()))
}

/// The page with Marko's out-of-order parts in their placeholders, or
/// `None` when it has none that could be placed.
///
/// Marko (eBay's server renderer) flushes a part that was not ready as
/// `<span id="afXph7">…skeleton…</span>` (or an empty `<noscript>`), and
/// sends the part later, hidden: `<div id="afX7" style="display:none">`,
/// with a call `$afX(7)` to a function of its runtime, `X`, that puts the
/// hidden div's children in place of the placeholder. The runtime is
/// found by that function's body (`getElementById("afX"+d)` and
/// `getElementById("afXph"+d)`); a part without its placeholder stays
/// where it was sent, hidden.
fn place_marko(text: &str) -> Option<String> {
    let prefix = marko_runtime(text)?;
    let prefix = prefix.as_bytes();
    move_parts(
        text,
        |page, from| {
            let part = next_marked(page.as_bytes(), prefix, false, from)?;
            let skip = part.id_end;
            Some((part, skip))
        },
        |page, part| move_marko_part(page, prefix, part),
    )
}

/// The id prefix of a page's Marko runtime (`afX` for the function
/// `$afX`), if the page defines one.
fn marko_runtime(text: &str) -> Option<String> {
    const CALL: &[u8] = b"getElementById(\"af";
    let bytes = text.as_bytes();
    let mut from = 0;
    // A page has one runtime; a few other calls are passed over.
    for _ in 0..8 {
        let at = memmem::find(&bytes[from..], CALL).map(|i| from + i)?;
        let start = at + CALL.len() - 2;
        let len =
            bytes[start..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let prefix = &text[start..start + len];
        if bytes[start + len..].starts_with(b"\"+") {
            let placeholder = format!("getElementById(\"{prefix}ph\"+");
            if memmem::find(bytes, placeholder.as_bytes()).is_some() {
                return Some(prefix.to_owned());
            }
        }
        from = start + len;
    }
    None
}

/// An element found by its Marko id.
#[derive(Debug)]
struct Marked {
    /// Its tag's `<`.
    tag_start: usize,
    /// Its tag name, lower-cased.
    name: String,
    /// The number in its id.
    number: u32,
    /// Where its id ends.
    id_end: usize,
}

/// The first element from `from` whose id is `prefix` and a number
/// (`prefix`, `ph` and a number for a `placeholder`): `id=` with or
/// without quotes, in a start tag.
fn next_marked(bytes: &[u8], prefix: &[u8], placeholder: bool, from: usize) -> Option<Marked> {
    let mut i = from;
    while let Some(at) = memmem::find(&bytes[i..], prefix).map(|k| i + k) {
        i = at + prefix.len();
        let before = &bytes[..at];
        let quoted = before.ends_with(b"id=\"") || before.ends_with(b"id='");
        // The attribute `id` itself, not `data-id` or `aria-labelledby`.
        let name_start = before.len().saturating_sub(if quoted { 4 } else { 3 });
        let is_id = (quoted || before.ends_with(b"id="))
            && before[..name_start].last().is_some_and(|b| b.is_ascii_whitespace());
        if !is_id {
            continue;
        }
        let mut j = at + prefix.len();
        if placeholder {
            if !bytes[j..].starts_with(b"ph") {
                continue;
            }
            j += 2;
        }
        let digits = bytes[j..].iter().take_while(|b| b.is_ascii_digit()).count();
        let end = j + digits;
        let ends_id = match bytes.get(end) {
            Some(b'"' | b'\'') => quoted,
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'/') => !quoted,
            _ => false,
        };
        if digits == 0 || digits > 9 || !ends_id {
            continue;
        }
        let Ok(number) = std::str::from_utf8(&bytes[j..end]).unwrap_or("").parse() else {
            continue;
        };
        // The tag's `<`: the attribute is in the tag, so no `>` between.
        let window = &before[before.len().saturating_sub(4096)..];
        let Some(lt) = memchr::memrchr(b'<', window).map(|k| at - window.len() + k) else {
            continue;
        };
        if memchr::memchr(b'>', &bytes[lt..at]).is_some() {
            continue;
        }
        let name_len = bytes[lt + 1..at].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            continue;
        }
        let name = String::from_utf8_lossy(&bytes[lt + 1..lt + 1 + name_len]).to_ascii_lowercase();
        return Some(Marked { tag_start: lt, name, number, id_end: end });
    }
    None
}

/// The page with Marko's part `part` (a hidden `div`) in place of its
/// placeholder, and where the page after the part now starts.
fn move_marko_part(page: &str, prefix: &[u8], part: &Marked) -> Option<(String, usize)> {
    if part.name != "div" {
        return None;
    }
    let bytes = page.as_bytes();
    let inner_start = part.id_end + memchr::memchr(b'>', &bytes[part.id_end..])? + 1;
    let inner_end = matching_end(bytes, inner_start, b"div")?;
    let part_end = inner_end + b"</div>".len();
    // Its placeholder, anywhere: in the shell or in a part sent before.
    let mut from = 0;
    let holder = loop {
        let h = next_marked(bytes, prefix, true, from)?;
        if h.number == part.number {
            break h;
        }
        from = h.id_end;
    };
    let holder_inner = holder.id_end + memchr::memchr(b'>', &bytes[holder.id_end..])? + 1;
    let close = format!("</{}", holder.name);
    let holder_end = matching_end(bytes, holder_inner, holder.name.as_bytes())? + close.len();
    let holder_end = holder_end + memchr::memchr(b'>', &bytes[holder_end..])? + 1;
    let (start, end) = (holder.tag_start, holder_end);
    // A placeholder inside the part, or around it, is not Marko's shape.
    if start < part_end && end > part.tag_start {
        return None;
    }
    Some(splice(page, part.tag_start..part_end, inner_start..inner_end, start..end))
}

/// Where the `</div>` closing a div whose content starts at `from` begins
/// ([`matching_end`], the end tag written `</div>` exactly).
fn matching_div_end(bytes: &[u8], from: usize) -> Option<usize> {
    matching_end(bytes, from, b"div").filter(|&lt| bytes[lt..].starts_with(b"</div>"))
}

/// Where the end tag closing an element `name` whose content starts at
/// `from` begins: start and end tags of `name` counted, comments and the
/// raw text of `script`, `style`, `textarea` and `title` passed over.
fn matching_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(lt) = memchr::memchr(b'<', &bytes[i..]).map(|k| i + k) {
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            i = lt + 4 + memmem::find(&rest[4..], b"-->")? + 3;
        } else if let Some(end) = raw_text_end(rest) {
            i = lt + end;
        } else if rest.len() > 1 && starts_tag(&rest[1..], name) {
            depth += 1;
            i = lt + 1 + name.len();
        } else if rest.len() > 2 && rest[1] == b'/' && starts_tag(&rest[2..], name) {
            depth -= 1;
            if depth == 0 {
                return Some(lt);
            }
            i = lt + 2 + name.len();
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
    fn a_segment_fills_its_placeholder_inside_an_earlier_segment() {
        // S:1 completes boundary B:1 and holds placeholder P:2, which the
        // later S:2 fills ($RS): the article of a Next.js blog page.
        let page = "<header>H</header><!--$?--><template id=\"B:1\"></template><i>…</i><!--/$-->\
                    <footer>F</footer><div hidden id=\"S:1\"><template id=\"P:2\"></template></div>\
                    <div hidden id=\"S:2\"><main><p>Body</p></main></div>";
        assert_eq!(
            place(page).unwrap(),
            "<header>H</header><!--$?--><main><p>Body</p></main><!--/$--><footer>F</footer>"
        );
    }

    /// Marko's runtime as eBay's pages define it, for runtime `afR`.
    const MARKO: &str = "<script>function $afR(d,a,e,l,g){e=document;\
        l=e.getElementById(\"afR\"+d);g=e.getElementById(\"afRph\"+d)}</script>";

    #[test]
    fn marko_parts_replace_their_placeholders() {
        let page = format!(
            "<main><span id=afRph1><div class=skeleton></div></span><h2>Kept</h2>\
             <noscript id=\"afRph2\"></noscript></main><footer>F</footer>\
             <div id=afR1 style=display:none><ul><li>Card one</li></ul></div>\
             <div id=\"afR2\" style=\"display:none\"><div><p>More</p></div></div>{MARKO}<script>$afR(1);$afR(2)</script>"
        );
        assert_eq!(
            place(&page).unwrap(),
            format!(
                "<main><ul><li>Card one</li></ul><h2>Kept</h2><div><p>More</p></div></main>\
                 <footer>F</footer>{MARKO}<script>$afR(1);$afR(2)</script>"
            )
        );
    }

    #[test]
    fn marko_parts_fill_placeholders_inside_earlier_parts() {
        let page = format!(
            "<main><span id=afRph0></span></main>\
             <div id=afR0 style=display:none><p>A</p><span id=afRph3></span></div>\
             <div id=afR3 style=display:none><p>B</p></div>{MARKO}"
        );
        assert_eq!(place(&page).unwrap(), format!("<main><p>A</p><p>B</p></main>{MARKO}"));
    }

    #[test]
    fn marko_ids_without_a_runtime_or_a_placeholder_stay() {
        // An attribute that only ends in "id" names no part.
        let page = format!("<span id=afRph6></span><div data-id=afR6 hidden><p>x</p></div>{MARKO}");
        assert_eq!(place(&page), None);
        // No runtime: a page whose ids merely look alike.
        let page = "<span id=afRph1></span><div id=afR1 style=display:none><p>x</p></div>";
        assert_eq!(place(page), None);
        // A part without its placeholder, or a placeholder inside its own part.
        let page = format!("<div id=afR4 style=display:none><p>x</p></div>{MARKO}");
        assert_eq!(place(&page), None);
        let page = format!("<div id=afR5 style=display:none><span id=afRph5></span></div>{MARKO}");
        assert_eq!(place(&page), None);
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
