//! Repeated parts kept alike: a block at the same place in most of a
//! page's kept posts, cards or sections is kept in every one of them.
//!
//! Issue 30 asks for "all posts of a thread", "every card of a listing",
//! "every section of a service page". The block model decides each block
//! alone, and a reply of one line ("That was it, thanks!") scores lower
//! than the long posts above it: the forest keeps the question and the
//! answer and leaves out the last reply, or one card's blurb in a grid.
//! Yet such parts are one shape repeated: the same element (tag and
//! `class`) under one parent, and in each the body's paragraphs at the
//! same path below it.
//!
//! [`groups`] finds, for every block, its *part* — the nearest ancestor
//! (below `<body>`, within [`MAX_POST_LEVELS`] of the block's owner)
//! that its parent repeats (another element child of the same tag and
//! `class`) and that holds at least two blocks (a post has a header and
//! a body, a card a title and a blurb; a paragraph among paragraphs holds
//! one) — and its *place* in it: the tags and classes from the part down
//! to the block's owner. Blocks of one parent's parts at one place form a
//! [`Group`] when they lie in two parts or more. [`to_add`]
//! then adds the rest of a group when enough of the group's parts have a
//! block of it kept ([`Quorum`]): more than half of them (so two at
//! least), or on a page surely a forum thread any one of them, of two
//! parts or more — there the forest often keeps the opening post alone,
//! and the replies, even a single answer, are the thread too. The body of a reply the forest left out comes back; the "Like
//! Reply Share" bar no post keeps stays out, and so do link lists (a block
//! whose words are mostly links is never added, nor one an earlier step
//! left out: a repeat, a feedback prompt). It only adds: leaving
//! out what a minority of the parts keep cost more than it saved (a
//! question's own blocks, a card the forest rightly took; measured in
//! `docs/learned.md`).
//!
//! The extractor applies it on every page type, after the repeats are
//! left out (a repeat does not come back) and before a thread's posts are
//! signed ([`super::posts`]); `gleaner train` scores the held-out texts of
//! the pages the forest decides the same way (the rules' text it scores as
//! `article` gives it).

use std::hash::Hasher;

use markup5ever::local_name;
use rustc_hash::{FxHashMap, FxHasher};

use super::blocks::Blocks;
use super::features::shape_of_element;
use super::posts::MAX_POST_LEVELS;
use crate::document::{Document, NodeId};
use crate::selection::Selection;

/// Fewest parts a group's blocks lie in: two posts are a question and its
/// answer, not yet a pattern — but on a page surely a forum thread they
/// are one ([`Quorum::min_parts`]).
pub const MIN_PARTS: usize = 3;

/// How many of a group's parts must keep a block of it before the others'
/// are added ([`to_add`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quorum {
    /// More than half of the parts: cards, sections, and posts on a page
    /// not surely a thread.
    Most,
    /// Any one part: the repeated parts of a page surely a forum thread
    /// ([`SURE_THREAD`](super::SURE_THREAD)) — its posts, whose opening
    /// one the forest often keeps alone, and whatever else repeats there.
    Any,
}

impl Quorum {
    /// The fewest parts a group must lie in: [`MIN_PARTS`], or two posts
    /// (a question and its answer) on a page surely a thread.
    pub fn min_parts(self) -> usize {
        match self {
            Quorum::Most => MIN_PARTS,
            Quorum::Any => 2,
        }
    }

    /// Do `kept` parts of `parts` make the quorum?
    fn met(self, kept: usize, parts: usize) -> bool {
        parts >= self.min_parts()
            && match self {
                Quorum::Most => 2 * kept > parts,
                Quorum::Any => kept >= 1,
            }
    }
}

/// Most element children of one parent counted for repeated shapes: a
/// thread page shows twenty to fifty posts, a grid a few dozen cards.
const MAX_CHILDREN: usize = 1_000;

/// Blocks at one place in the repeated parts of one parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The blocks, in document order, each with its part's ordinal within
    /// the group (0, 1, …, in order of first appearance).
    pub members: Vec<(usize, u32)>,
    /// How many parts the group's blocks lie in.
    pub parts: u32,
    /// Each member: may it be added (it has words, and most are not
    /// links)?
    pub addable: Vec<bool>,
}

/// A group while it is gathered: its members (block, part ordinal) and
/// the parts seen, in order.
type Gathering = (Vec<(usize, u32)>, Vec<NodeId>);

/// The page's groups of blocks at one place in repeated parts; see the
/// [module docs](self): those whose blocks lie in two parts or more (a
/// [`Quorum`] asks for more or not).
pub fn groups(doc: &Document, blocks: &Blocks) -> Vec<Group> {
    let mut shapes = Shapes::new(doc);
    // (the parts' parent, the place's hash) → (members, the parts seen).
    let mut by_place: FxHashMap<(NodeId, u64), Gathering> = FxHashMap::default();
    let mut order: Vec<(NodeId, u64)> = Vec::new();
    for (i, b) in blocks.blocks.iter().enumerate() {
        let mut place = FxHasher::default();
        for e in std::iter::once(b.owner).chain(doc.ancestors(b.owner)).take(MAX_POST_LEVELS) {
            if doc.name(e).is_none_or(|n| *n == local_name!("body")) {
                break;
            }
            let Some(parent) = doc.parent(e) else { break };
            place.write_u64(shapes.of(doc, e));
            if !shapes.repeated(doc, parent, e) || blocks.under(doc, e).len() < 2 {
                continue;
            }
            let key = (parent, place.finish());
            let entry = by_place.entry(key).or_insert_with(|| {
                order.push(key);
                (Vec::new(), Vec::new())
            });
            // A part's blocks follow each other: its subtree is one run of
            // the page.
            if entry.1.last() != Some(&e) {
                entry.1.push(e);
            }
            entry.0.push((i, entry.1.len() as u32 - 1));
            break;
        }
    }
    order
        .into_iter()
        .filter_map(|key| by_place.remove(&key))
        .filter(|(_, parts)| parts.len() >= Quorum::Any.min_parts())
        .map(|(members, parts)| {
            let addable = members
                .iter()
                .map(|&(i, _)| {
                    let b = &blocks.blocks[i];
                    b.words > 0 && b.link_words * 2 <= b.words
                })
                .collect();
            Group { members, parts: parts.len() as u32, addable }
        })
        .collect()
}

/// The blocks to add to make the page's repeated parts alike (see the
/// [module docs](self)), given which blocks are kept (`kept[i]`), how
/// many parts must keep one (`quorum`) and which may not be added
/// (`barred(i)`: a repeat an earlier step left out, a feedback prompt);
/// the extractor and the trainer's held-out texts both decide by it.
pub fn to_add(
    groups: &[Group],
    kept: &[bool],
    quorum: Quorum,
    barred: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    for g in groups {
        let mut parts_kept = vec![false; g.parts as usize];
        for &(i, part) in &g.members {
            if kept.get(i).copied().unwrap_or(false) {
                parts_kept[part as usize] = true;
            }
        }
        let n = parts_kept.iter().filter(|&&k| k).count();
        if !quorum.met(n, g.parts as usize) {
            continue;
        }
        for (&(i, _), &addable) in g.members.iter().zip(&g.addable) {
            if addable && i < kept.len() && !kept[i] && !barred(i) {
                out.push(i);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Adds to `selection` the blocks of repeated parts kept alike (see the
/// [module docs](self)) at `quorum`, but for the `barred` ones; returns
/// how many were added.
pub fn keep_alike(
    doc: &Document,
    blocks: &Blocks,
    selection: &mut Selection,
    quorum: Quorum,
    barred: impl Fn(usize) -> bool,
) -> usize {
    let kept = blocks.kept(selection);
    let added = to_add(&groups(doc, blocks), &kept, quorum, barred);
    for &i in &added {
        blocks.set(i, selection, true);
    }
    added.len()
}

/// Elements' shapes (tag and `class`, [`shape_of_element`]), each read
/// once, and which element children repeat a sibling's shape, found once
/// per parent: tables by node index, as every block asks about each of
/// its ancestors.
struct Shapes {
    /// Each element's shape, once read.
    of: Vec<Option<u64>>,
    /// Each element child's answer to "does a sibling have its shape?",
    /// once its parent's children were counted.
    repeated: Vec<Option<bool>>,
}

impl Shapes {
    fn new(doc: &Document) -> Shapes {
        Shapes { of: vec![None; doc.len()], repeated: vec![None; doc.len()] }
    }

    /// Element `e`'s shape.
    fn of(&mut self, doc: &Document, e: NodeId) -> u64 {
        *self.of[e.index()].get_or_insert_with(|| shape_of_element(doc, e))
    }

    /// Does another element child of `parent` have `e`'s shape? (The first
    /// [`MAX_CHILDREN`] element children are counted.)
    fn repeated(&mut self, doc: &Document, parent: NodeId, e: NodeId) -> bool {
        if let Some(repeated) = self.repeated[e.index()] {
            return repeated;
        }
        let mut counts: FxHashMap<u64, u32> = FxHashMap::default();
        for c in doc.children(parent).filter(|&c| doc.name(c).is_some()).take(MAX_CHILDREN) {
            *counts.entry(self.of(doc, c)).or_insert(0) += 1;
        }
        for c in doc.children(parent).filter(|&c| doc.name(c).is_some()) {
            let shape = self.of(doc, c);
            self.repeated[c.index()] = Some(counts.get(&shape).is_some_and(|&n| n >= 2));
        }
        self.repeated[e.index()].unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::super::blocks::selecting;
    use super::*;
    use crate::render;

    /// The text kept once the blocks holding any of `keep` are kept and
    /// the parts made alike.
    fn kept(html: &str, keep: &[&str]) -> String {
        kept_at(html, keep, Quorum::Most)
    }

    /// [`kept`] at `quorum`.
    fn kept_at(html: &str, keep: &[&str], quorum: Quorum) -> String {
        let (doc, blocks, mut selection) = selecting(html, keep);
        keep_alike(&doc, &blocks, &mut selection, quorum, |_| false);
        render::text(&doc, &selection)
    }

    fn post(who: &str, body: &str) -> String {
        format!(
            "<div class='post'><div class='meta'><a href='/u/{who}'>{who}</a></div>\
             <div class='body'><p>{body}</p></div>\
             <div class='tools'><span>Like</span> <span>Share</span></div></div>"
        )
    }

    fn thread(bodies: &[&str]) -> String {
        let posts: String =
            bodies.iter().enumerate().map(|(i, b)| post(&format!("m{i}"), b)).collect();
        format!(
            "<body><main><h1>A question</h1><div class='posts'>{posts}</div>\
             <ul class='similar'><li><a href='/t/1'>Another thread</a></li>\
             <li><a href='/t/2'>And another</a></li><li><a href='/t/3'>A third</a></li></ul>\
             </main></body>"
        )
    }

    #[test]
    fn the_reply_the_forest_left_out_comes_back() {
        let html = thread(&[
            "The pump stops after a minute.",
            "Check the pressure switch first.",
            "That was it, thanks!",
        ]);
        let text = kept(&html, &["pump stops", "pressure switch"]);
        assert!(text.contains("That was it"), "{text:?}");
        // Not the tools no post keeps, nor the links of the similar
        // threads or of the members' names.
        for out in ["Like", "Another thread", "m0"] {
            assert!(!text.contains(out), "{out} in {text:?}");
        }
    }

    #[test]
    fn a_grids_card_keeps_its_blurb_as_the_others_do() {
        let card = |title: &str, blurb: &str| {
            format!(
                "<li class='card'><h3><a href='/p/{title}'>{title}</a></h3>\
                 <p class='blurb'>{blurb}</p><span class='price'>$12</span></li>"
            )
        };
        let html = format!(
            "<body><ul class='grid'>{}{}{}{}</ul></body>",
            card("Kettle", "Boils a litre in two minutes."),
            card("Teapot", "Stoneware, keeps the heat."),
            card("Mugs", "A set of four."),
            card("Tray", "Oak, oiled by hand.")
        );
        let text = kept(&html, &["Boils", "Stoneware", "set of four"]);
        assert!(text.contains("Oak, oiled"), "{text:?}");
        // A title is a link: the forest's call alone.
        assert!(!text.contains("Tray"), "{text:?}");
    }

    #[test]
    fn a_minority_of_kept_posts_adds_nothing() {
        let html = thread(&["One.", "Two.", "Three.", "Four."]);
        // Two of four posts: not more than half.
        let text = kept(&html, &["One.", "Two."]);
        assert!(!text.contains("Three") && !text.contains("Four"), "{text:?}");
        // One post of three.
        let html = thread(&["One.", "Two.", "Three."]);
        let text = kept(&html, &["One."]);
        assert!(!text.contains("Two"), "{text:?}");
        // Three of four: more than half.
        let html = thread(&["One.", "Two.", "Three.", "Four."]);
        assert!(kept(&html, &["One.", "Two.", "Three."]).contains("Four."));
    }

    #[test]
    fn a_sure_thread_keeps_every_reply_of_its_opening_post() {
        let html = thread(&["The pump stops.", "Check the switch.", "Or the valve.", "Fixed!"]);
        // The opening post alone kept: one part of four.
        let text = kept_at(&html, &["pump stops"], Quorum::Any);
        for reply in ["Check the switch.", "Or the valve.", "Fixed!"] {
            assert!(text.contains(reply), "{reply} not in {text:?}");
        }
        // Still not the tools, the similar threads nor the members' names.
        for out in ["Like", "Another thread", "m0"] {
            assert!(!text.contains(out), "{out} in {text:?}");
        }
        // Nothing kept, nothing added.
        assert_eq!(kept_at(&html, &["A question"], Quorum::Any), "A question");
        // Where the page is not surely a thread, one post is a minority.
        assert!(!kept(&html, &["pump stops"]).contains("Fixed!"));
        // A question and its one answer, the question alone kept.
        let html = thread(&["The pump stops.", "Check the switch."]);
        assert!(kept_at(&html, &["pump stops"], Quorum::Any).contains("Check the switch."));
        assert!(!kept(&html, &["pump stops"]).contains("Check the switch."));
    }

    #[test]
    fn two_posts_are_too_few_and_a_paragraph_is_no_part() {
        // Both posts keep their first paragraph: two parts, fewer than
        // three, so their second paragraphs (at the same place) stay out.
        let html =
            thread(&["First of ann.</p><p>Second of ann.", "First of bob.</p><p>Second of bob."]);
        let text = kept(&html, &["First of"]);
        assert!(!text.contains("Second"), "{text:?}");
        // On a page surely a thread, two posts are one: the answer's
        // second paragraph comes back.
        assert!(kept_at(&html, &["First of"], Quorum::Any).contains("Second of bob."));
        // Three such posts make a pattern.
        let html = thread(&[
            "First of ann.</p><p>Second of ann.",
            "First of bob.</p><p>Second of bob.",
            "First of cy.</p><p>Second of cy.",
        ]);
        assert!(kept(&html, &["First of"]).contains("Second of cy."));
        // Paragraphs of one article: each holds one block, no part.
        let article = "<body><article><p>First.</p><p>Second.</p><p>Third.</p>\
            <p>Fourth.</p></article></body>";
        let text = kept(article, &["First.", "Second.", "Third."]);
        assert!(!text.contains("Fourth"), "{text:?}");
    }

    #[test]
    fn a_barred_block_stays_out() {
        let html = thread(&["One.", "Two.", "Three."]);
        let (doc, blocks, selection) = selecting(&html, &["One.", "Two."]);
        let three = (0..blocks.len()).find(|&i| blocks.text(&doc, i).contains("Three")).unwrap();
        let kept = blocks.kept(&selection);
        let groups = groups(&doc, &blocks);
        assert_eq!(to_add(&groups, &kept, Quorum::Most, |_| false), vec![three]);
        assert!(to_add(&groups, &kept, Quorum::Most, |i| i == three).is_empty());
    }
}
