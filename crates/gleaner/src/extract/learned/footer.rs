//! The page's footer is never its main content on its own.
//!
//! A page whose blocks all score low — a shell whose items a script
//! renders, a layout the model does not know — had the forest lower its
//! cut until 50 words were kept, and those were often the footer's links,
//! address and copyright (WCXB-dev's AliExpress item pages, saved without
//! their item). A selection whose blocks with text all lie in the page's
//! footer is taken as none ([`footer_only`]); the rules' selection is
//! then taken if it keeps enough and is not the footer alone either.
//!
//! The page's footer is a `<footer>` element or an element of ARIA role
//! `contentinfo` that holds no `<h1>`, `<main>` or `<article>`: a footer
//! a broken template left open around the page's body is not one.
//! Measured on the held-out scores of `gleaner train … --cv --report`
//! (December 6): on 4 425 held-out pages of the seven sets, the footer
//! was all that was kept on three (57 words of footer against empty
//! gold), and no page's content lay in one; a footer *named* so (a
//! `class` of `footer`, `bottom`, `copyright`…), a `<nav>` or a
//! `<header>` holds the content of some pages (`docs/todays-web.md`).

use markup5ever::local_name;

use super::blocks::{Block, Blocks};
use crate::document::{Document, NodeId};
use crate::selection::Selection;

/// Tells whether blocks lie in the page's footer (see the [module
/// docs](self)), reading each footer's subtree once.
pub struct PageFooter<'d> {
    doc: &'d Document,
    /// The footers read so far, and whether each is the page's footer.
    seen: Vec<(NodeId, bool)>,
}

impl<'d> PageFooter<'d> {
    /// A reader of `doc`'s footers.
    pub fn new(doc: &'d Document) -> PageFooter<'d> {
        PageFooter { doc, seen: Vec::new() }
    }

    /// Does `block` lie in the page's footer?
    pub fn holds(&mut self, block: &Block) -> bool {
        let Some(footer) = block.footer(self.doc) else { return false };
        if let Some(&(_, is)) = self.seen.iter().find(|(f, _)| *f == footer) {
            return is;
        }
        let doc = self.doc;
        let is = !doc.subtree(footer).any(|id| {
            doc.is(id, local_name!("h1"))
                || doc.is(id, local_name!("main"))
                || doc.is(id, local_name!("article"))
        });
        self.seen.push((footer, is));
        is
    }
}

/// Is a selection of blocks, given whether each kept block with text lies
/// in the page's footer, the page's footer alone (and not empty)?
pub fn footer_only(in_footer: impl IntoIterator<Item = bool>) -> bool {
    let mut any = false;
    for inside in in_footer {
        if !inside {
            return false;
        }
        any = true;
    }
    any
}

/// [`footer_only`] for a selection: are the blocks with text it keeps
/// ([`selected_blocks`]) all in the page's footer?
pub fn selection_in_footer(doc: &Document, blocks: &Blocks, selection: &Selection) -> bool {
    let mut footer = PageFooter::new(doc);
    footer_only(selected_blocks(blocks, selection).map(|i| footer.holds(&blocks.blocks[i])))
}

/// The blocks with text of which `selection` keeps any text node.
pub fn selected_blocks<'a>(
    blocks: &'a Blocks,
    selection: &'a Selection,
) -> impl Iterator<Item = usize> + 'a {
    (0..blocks.len()).filter(|&i| {
        blocks.blocks[i].chars > 0 && blocks.texts(i).iter().any(|&t| selection.contains(t))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn in_footer(html: &str) -> Vec<bool> {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let blocks = Blocks::of(&doc, 1000).expect("blocks");
        let mut footer = PageFooter::new(&doc);
        blocks.blocks.iter().map(|b| footer.holds(b)).collect()
    }

    #[test]
    fn the_page_footer_is_a_footer_or_contentinfo_without_the_body() {
        let inside = in_footer(
            "<article><p>Body</p><footer><p>Filed under</p></footer></article>\
             <div role=contentinfo><ul><li>About</li></ul></div>\
             <div class=footer><p>Named only</p></div>",
        );
        assert_eq!(inside, [false, true, true, false]);
        // A footer left open around the page's headline and body.
        let inside = in_footer("<footer><p>Menu</p><h1>Title</h1><p>Body</p>");
        assert_eq!(inside, [false, false, false]);
    }

    #[test]
    fn footer_only_needs_a_block_and_every_block_in_the_footer() {
        assert!(!footer_only([]));
        assert!(footer_only([true, true]));
        assert!(!footer_only([true, false, true]));
    }
}
