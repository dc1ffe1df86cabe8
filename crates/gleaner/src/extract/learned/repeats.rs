//! Blocks written twice: a repeated run of blocks left out.
//!
//! Site builders lay a page out once per screen size and let CSS media
//! queries show one copy (Framer's and Webflow's desktop, tablet and
//! phone variants): the HTML holds the same headings and paragraphs two or
//! three times, a browser shows them once. A reader without CSS keeps
//! every copy, and a corpus or a language model gets the text twice.
//!
//! [`drop_repeats`] keeps the first copy and leaves out a later run of at
//! least [`MIN_RUN`] consecutive blocks that repeats an earlier run block
//! for block (white space collapsed), with [`MIN_CHARS`] characters or
//! more: a variant of the layout repeats a heading and its paragraphs.
//! The cards of a listing that repeat a line or two of small print each
//! ("Must be presented before start of work."), a pull quote, a paragraph
//! repeated on its own (the "Lorem ipsum" of Readability's test pages)
//! and code (inside `<pre>`) are what the page shows, and stay. Measured
//! on WCXB-dev and the WCEB sets in `docs/todays-web.md` (issue 30).
//!
//! A forum thread is the exception to the lone paragraph: a reply that
//! quotes an earlier post repeats its paragraphs one by one, and a
//! member's signature follows each of their posts. With `lone_repeats`
//! (the caller passes it on pages taken for threads,
//! [`PageType::repeats_are_quotes`](super::PageType::repeats_are_quotes))
//! a single block of at least [`LONE_MIN_WORDS`] words that repeats an
//! earlier selected block is left out too — when the two are not children
//! of one element: a quote or a signature is in another post than what it
//! repeats, a paragraph written twice in one body (Readability's test page
//! of one Lorem ipsum paragraph five times) is what the page shows. (A
//! thread whose posts' parts are all siblings under one element keeps its
//! repeated signatures so.)

use rustc_hash::FxHashMap;

use super::blocks::Blocks;
use super::words;
use crate::document::{push_collapsed, Document, NodeFlags};
use crate::selection::Selection;

/// The fewest characters of a repeated run for it to be left out.
pub const MIN_CHARS: usize = 30;

/// The fewest blocks of a repeated run for it to be left out: a variant
/// of the layout repeats a heading and its paragraphs, the cards of a
/// listing repeat a line or two of small print each.
pub const MIN_RUN: usize = 3;

/// The fewest words (runs of letters and digits) of a lone repeated
/// block for it to be left out with `lone_repeats`: a quoted sentence or
/// a signature, not "Reply" or "Quote".
pub const LONE_MIN_WORDS: usize = 10;

/// Leaves out of `selection` the blocks [`repeats`] finds among the
/// blocks' selected texts (see the [module docs](self)).
///
/// Returns the blocks left out, each with the block it repeats.
pub fn drop_repeats(
    doc: &Document,
    blocks: &Blocks,
    selection: &mut Selection,
    lone_repeats: bool,
) -> Vec<Repeat> {
    // Each block's selected text, white space collapsed, as a range of
    // one buffer (empty for code and for blocks with nothing selected,
    // which repeat nothing).
    let mut buffer = String::new();
    let ranges: Vec<std::ops::Range<usize>> = (0..blocks.len())
        .map(|i| {
            let start = buffer.len();
            if !is_code(doc, blocks, i) {
                for &t in blocks.texts(i).iter().filter(|&&t| selection.contains(t)) {
                    push_collapsed(&mut buffer, doc.text(t));
                }
            }
            let text = &buffer[start..];
            let end = start + text.trim_end().len();
            (start + text.len() - text.trim_start().len()).min(end)..end
        })
        .collect();
    let texts: Vec<&str> = ranges.into_iter().map(|r| &buffer[r]).collect();
    let parents = lone_repeats.then(|| parents(doc, blocks));
    let dropped = repeats(&texts, parents.as_deref());
    for r in &dropped {
        for &t in blocks.texts(r.block) {
            selection.set(t, false);
        }
    }
    dropped
}

/// Each block's parent element, as an id (`u32::MAX` for none): a lone
/// repeat under the same parent as what it repeats is no quote.
pub fn parents(doc: &Document, blocks: &Blocks) -> Vec<u32> {
    blocks.blocks.iter().map(|b| doc.parent(b.owner).map_or(u32::MAX, |p| p.0)).collect()
}

/// Is block `i` code (a text of it inside `<pre>`)? Code repeats nothing.
pub fn is_code(doc: &Document, blocks: &Blocks, i: usize) -> bool {
    blocks.texts(i).iter().any(|&t| doc.flags(t).contains(NodeFlags::IN_PRE))
}

/// The blocks to leave out among blocks whose kept texts are `texts`,
/// white space collapsed and trimmed, empty for a block that repeats
/// nothing (code, or nothing kept): every run of at least [`MIN_RUN`]
/// blocks that repeats, block for block, an earlier run, when its text
/// holds at least [`MIN_CHARS`] characters, and with `lone_repeats` (each
/// block's parent element, an id of it) every other block of at least
/// [`LONE_MIN_WORDS`] words that repeats an earlier one under another
/// parent. The extractor calls it through [`drop_repeats`]; `gleaner
/// train` scores held-out pages with it.
pub fn repeats(texts: &[&str], lone_repeats: Option<&[u32]>) -> Vec<Repeat> {
    let parent = |b: usize| lone_repeats.and_then(|p| p.get(b)).copied();
    let mut first: FxHashMap<&str, usize> = FxHashMap::default();
    let mut dropped = Vec::new();
    let mut j = 0;
    while j < texts.len() {
        let text = texts[j];
        let Some(&i) = first.get(text) else {
            if !text.is_empty() {
                first.insert(text, j);
            }
            j += 1;
            continue;
        };
        // The run from `j` that repeats the one from `i`, not reaching it.
        let run = (0..)
            .take_while(|&m| {
                i + m < j
                    && j + m < texts.len()
                    && !texts[j + m].is_empty()
                    && texts[j + m] == texts[i + m]
            })
            .count();
        let chars: usize = texts[j..j + run].iter().map(|t| t.chars().count()).sum();
        if run >= MIN_RUN && chars >= MIN_CHARS {
            dropped.extend((j..j + run).map(|k| Repeat { block: k, of: i + (k - j) }));
            j += run;
        } else {
            if lone_repeats.is_some() && parent(i) != parent(j) && words(text) >= LONE_MIN_WORDS {
                dropped.push(Repeat { block: j, of: i });
            }
            j += 1;
        }
    }
    dropped
}

/// A block [`drop_repeats`] left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    /// The block left out.
    pub block: usize,
    /// The earlier block whose text it repeats.
    pub of: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;
    use crate::render;

    fn kept_with(html: &str, lone_repeats: bool) -> String {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).unwrap();
        let blocks = Blocks::of(&doc, 1000).unwrap();
        let mut all = Selection::all(&doc);
        drop_repeats(&doc, &blocks, &mut all, lone_repeats);
        render::text(&doc, &all)
    }

    fn kept(html: &str) -> String {
        kept_with(html, false)
    }

    #[test]
    fn a_repeated_variant_of_the_layout_is_left_out() {
        let a = "Home remodeling in California is a significant investment.";
        let b = "Costs vary with the size of the house and the materials.";
        let html = format!(
            "<div class=desktop><h1>Remodeling</h1><p>{a}</p><p>{b}</p></div>\
             <div class=phone><h1>Remodeling</h1><p>{a}</p><p>{b}</p><p>Only here, and long enough.</p></div>"
        );
        assert_eq!(kept(&html), format!("Remodeling\n\n{a}\n\n{b}\n\nOnly here, and long enough."));
    }

    #[test]
    fn cards_quotes_and_lone_paragraphs_repeat() {
        // Cards repeating two lines of small print each.
        let card = |title: &str| {
            format!(
                "<div class=card><h3>{title}</h3><p>Must be presented before start of work.</p>\
                 <p>Not valid with other offers or coupons.</p></div>"
            )
        };
        let html =
            format!("{}{}{}", card("10% off panels"), card("$25 off repairs"), card("$50 off"));
        assert_eq!(kept(&html).matches("Must be presented").count(), 3);
        // A pull quote, and Lorem ipsum beside itself.
        let a = "Home remodeling in California is a significant investment.";
        let quote = format!("<div><p>{a}</p><p>More text here.</p></div><aside><p>{a}</p></aside>");
        assert_eq!(kept(&quote).matches("Home remodeling").count(), 2);
        let para = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>";
        assert_eq!(kept(&format!("<article>{para}{para}</article>")).matches("Lorem").count(), 2);
    }

    #[test]
    fn a_thread_leaves_out_quotes_and_signatures() {
        let post = "I replaced the fuse and the lights still flicker when the engine starts.";
        let sig = "2019 Highlander XLE, Midnight Black, tow package and roof rack installed.";
        let html = format!(
            "<div class=post><p>{post}</p><p>{sig}</p></div>\
             <div class=post><blockquote>{post}</blockquote><p>Check the ground strap.</p>\
             <p>Quote</p><p>{sig}</p></div><div class=post><p>Quote</p><p>Thanks!</p></div>"
        );
        let thread = kept_with(&html, true);
        assert_eq!(thread.matches("replaced the fuse").count(), 1, "{thread}");
        assert_eq!(thread.matches("Midnight Black").count(), 1, "{thread}");
        // Short repeats stay: a button's word, not a quote.
        assert_eq!(thread.matches("Quote").count(), 2, "{thread}");
        assert!(thread.contains("Check the ground strap."));
        // On another page, a lone repeat is what the page shows.
        assert_eq!(kept(&html).matches("replaced the fuse").count(), 2);
        // And in a thread, a paragraph written again in one body.
        let para =
            "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.</p>";
        let body = format!("<article>{para}{para}<div>Like this:</div>{para}</article>");
        assert_eq!(kept_with(&body, true).matches("Lorem").count(), 3);
    }

    #[test]
    fn code_repeats() {
        let code = "<pre>    return compute_the_value(x, y, z);</pre>";
        let html = format!("<p>Intro</p>{code}{code}{code}<p>Intro</p>{code}{code}{code}");
        assert_eq!(kept(&html).matches("compute_the_value").count(), 6);
        let long = "<pre>let value = compute_the_value(first, second, third, fourth, fifth);</pre>";
        let html = format!("<p>Intro</p>{long}<p>Between</p>{long}");
        assert_eq!(kept_with(&html, true).matches("compute_the_value").count(), 2);
    }
}
