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

use rustc_hash::FxHashMap;

use super::blocks::Blocks;
use crate::document::{push_collapsed, Document, NodeFlags};
use crate::selection::Selection;

/// The fewest characters of a repeated run for it to be left out.
pub const MIN_CHARS: usize = 30;

/// The fewest blocks of a repeated run for it to be left out: a variant
/// of the layout repeats a heading and its paragraphs, the cards of a
/// listing repeat a line or two of small print each.
pub const MIN_RUN: usize = 3;

/// Leaves out of `selection` every run of at least [`MIN_RUN`] blocks
/// that repeats, block for block, an earlier run of selected blocks,
/// when its text holds at least [`MIN_CHARS`] characters (see the
/// [module docs](self)).
///
/// Returns the blocks left out, each with the block it repeats.
pub fn drop_repeats(doc: &Document, blocks: &Blocks, selection: &mut Selection) -> Vec<Repeat> {
    // Each block's selected text, white space collapsed, as a range of
    // one buffer (empty for code and for blocks with nothing selected,
    // which repeat nothing).
    let mut buffer = String::new();
    let ranges: Vec<std::ops::Range<usize>> = (0..blocks.len())
        .map(|i| {
            let nodes = blocks.texts(i);
            let start = buffer.len();
            if !nodes.iter().any(|&t| doc.flags(t).contains(NodeFlags::IN_PRE)) {
                for &t in nodes.iter().filter(|&&t| selection.contains(t)) {
                    push_collapsed(&mut buffer, doc.text(t));
                }
            }
            let text = &buffer[start..];
            let end = start + text.trim_end().len();
            (start + text.len() - text.trim_start().len()).min(end)..end
        })
        .collect();
    let texts: Vec<&str> = ranges.into_iter().map(|r| &buffer[r]).collect();
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
            for k in j..j + run {
                for &t in blocks.texts(k) {
                    selection.set(t, false);
                }
                dropped.push(Repeat { block: k, of: i + (k - j) });
            }
            j += run;
        } else {
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

    fn kept(html: &str) -> String {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).unwrap();
        let blocks = Blocks::of(&doc, 1000).unwrap();
        let mut all = Selection::all(&doc);
        drop_repeats(&doc, &blocks, &mut all);
        render::text(&doc, &all)
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
    fn code_repeats() {
        let code = "<pre>    return compute_the_value(x, y, z);</pre>";
        let html = format!("<p>Intro</p>{code}{code}{code}<p>Intro</p>{code}{code}{code}");
        assert_eq!(kept(&html).matches("compute_the_value").count(), 6);
    }
}
