//! Blocks written twice: the second copy of a repeated block left out.
//!
//! Site builders lay a page out once per screen size and let CSS media
//! queries show one copy (Framer's and Webflow's desktop, tablet and
//! phone variants; a product's name, price and "add to cart" row in both
//! the gallery and the sticky bar): the HTML holds the same paragraphs two
//! or three times, a browser shows them once. A reader without CSS keeps
//! every copy, and a corpus or a language model gets the text twice.
//!
//! [`drop_repeats`] keeps the first block of each text and leaves out
//! later blocks whose selected text is the same, white space collapsed,
//! when it is at least [`MIN_CHARS`] characters long, the copy sits in
//! another container than the first (its owner's parent differs) and the
//! page has at least [`MIN_REPEATS`] such copies: a variant of the layout
//! repeats many blocks. Short texts ("Reply", "$49.99", a date) repeat
//! with a meaning of their own, code (inside `<pre>`) repeats lines on
//! purpose, and a paragraph repeated beside itself or once elsewhere (the
//! "Lorem ipsum" of Readability's test pages, a pull quote) is what the
//! page shows. Measured on WCXB-dev
//! (issue 30, `docs/todays-web.md`): word F1 of the default +0.005.

use std::collections::HashMap;

use super::blocks::Blocks;
use crate::document::{push_collapsed, Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// The fewest characters of a block's text for a repeat of it to be
/// left out.
pub const MIN_CHARS: usize = 30;

/// The fewest repeated blocks in a page for them to be left out: a
/// variant of the layout repeats many, a page quoting itself one.
pub const MIN_REPEATS: usize = 2;

/// Leaves out of `selection` every block whose selected text, white
/// space collapsed, repeats an earlier selected block's in another
/// container, when the page has at least [`MIN_REPEATS`] such blocks (see
/// the [module docs](self)).
pub fn drop_repeats(doc: &Document, blocks: &Blocks, selection: &mut Selection) {
    // Each text's first block's owner's parent.
    let mut seen: HashMap<String, Option<NodeId>> = HashMap::new();
    let mut repeats = Vec::new();
    let mut text = String::new();
    for i in 0..blocks.len() {
        let nodes = blocks.texts(i);
        if nodes.iter().any(|&t| doc.flags(t).contains(NodeFlags::IN_PRE)) {
            continue;
        }
        text.clear();
        for &t in nodes.iter().filter(|&&t| selection.contains(t)) {
            push_collapsed(&mut text, doc.text(t));
        }
        let key = text.trim();
        if key.chars().count() < MIN_CHARS {
            continue;
        }
        let parent = blocks.blocks.get(i).and_then(|b| doc.parent(b.owner));
        match seen.get(key) {
            // A copy in another container: a variant of the layout.
            Some(&first) if first != parent => repeats.push(i),
            Some(_) => {}
            None => {
                seen.insert(key.to_string(), parent);
            }
        }
    }
    if repeats.len() < MIN_REPEATS {
        return;
    }
    for i in repeats {
        for &t in blocks.texts(i) {
            selection.set(t, false);
        }
    }
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
    fn the_second_copy_of_a_long_block_is_left_out() {
        let a = "Home remodeling in California is a significant investment.";
        let b = "Costs vary with the size of the house and the materials.";
        let html = format!(
            "<div class=desktop><h1>Remodeling</h1><p>{a}</p><p>{b}</p></div>\
             <div class=phone><h1>Remodeling</h1><p>{a}</p><p>{b}</p><p>Only here, and long enough.</p></div>"
        );
        assert_eq!(
            kept(&html),
            format!("Remodeling\n\n{a}\n\n{b}\n\nRemodeling\n\nOnly here, and long enough.")
        );
        // One paragraph repeated once elsewhere (a pull quote) stays.
        let quote = format!("<div><p>{a}</p><p>{b}</p></div><aside><p>{a}</p></aside>");
        assert_eq!(kept(&quote).matches("Home remodeling").count(), 2);
    }

    #[test]
    fn a_paragraph_repeated_beside_itself_stays() {
        let para = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>";
        let html = format!("<article>{para}{para}</article>");
        let text = kept(&html);
        assert_eq!(text.matches("Lorem").count(), 2, "{text}");
    }

    #[test]
    fn short_blocks_and_code_repeat() {
        let html = "<p>Reply</p><p>Reply</p><pre>    return compute_the_value(x, y, z);</pre>\
                    <pre>    return compute_the_value(x, y, z);</pre>";
        assert_eq!(
            kept(html),
            "Reply\n\nReply\n\n    return compute_the_value(x, y, z);\n\n    return compute_the_value(x, y, z);"
        );
    }
}
