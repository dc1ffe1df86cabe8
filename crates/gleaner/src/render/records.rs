//! Records: the repeated containers of a page's selected content — the
//! posts of a thread, the cards of a listing or a collection — so that
//! Markdown and HTML keep one item or section per record (issue 30: "one
//! heading or item per post/card/section").
//!
//! A page built from `<ul><li>` already says where its cards begin; most
//! of today's grids and threads are `<div>`s and `<article>`s, which the
//! renderers unwrap, and the text of six cards or twelve posts then runs
//! on as one stream of paragraphs in which a price no longer tells whose
//! it is. A *record group* is a run of two or more consecutive sibling
//! containers (`div`, `article`, `section`) with selected prose that
//! repeat one *signature* — their tag and half of their class words,
//! digits aside — most of which look like records: two selected blocks
//! or more (a card's title and price, a post's author line and body), or
//! a subtree of [`RECORD_TAGS`] elements (a post of which only the body
//! was kept), the way MDR (Liu, Grossman & Zhai 2003) finds data records
//! as repeated sibling subtrees. Siblings without selected text are not
//! written and do not break a run; a code box does (a listing and its
//! output are not two posts). A group inside a list, a table, a quote or
//! code is left to that structure, and a group holding another group's
//! records gives way to it (the cards of each column, not the columns).
//!
//! Records of at most [`ITEM_WORDS`] words on average are *items*
//! (Markdown: a list item each; HTML: a `<ul>` of `<li>`s) when most of
//! them link to something or show a picture, as cards do; longer ones
//! are *posts* (Markdown: a rule between them; HTML: an `<article>` each,
//! an `<hr>` between them), but only when most of them name an author or
//! a time (a widget builder's text blocks and an article's chunks between
//! ads are long repeated `<div>`s too) and most do not open with a
//! heading (sections, which their headings already set apart). Text
//! output is unchanged, and no renderer adds or drops a word.

use std::collections::HashMap;

use markup5ever::local_name;

use crate::document::tags::heading_level;
use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Records of at most this many selected words on average are items;
/// longer ones are posts.
pub const ITEM_WORDS: u32 = 40;

/// Nodes read from the start of a record for its title, picture, author
/// or time, so that the search stays linear in the page on any markup.
const SCANNED_NODES: usize = 400;

/// Elements a record's subtree has at least, when it holds one selected
/// block ([`is_record`]).
pub const RECORD_TAGS: u32 = 8;

/// What a record is rendered as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A short record: a card of a listing.
    Item,
    /// A long record: a post of a thread.
    Post,
}

/// A record of the selection: its kind, and whether it is the first or
/// the last of its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub kind: Kind,
    pub first: bool,
    pub last: bool,
}

/// The records of a selection, by their element.
#[derive(Debug, Default)]
pub struct Records {
    by_node: HashMap<NodeId, Record>,
}

/// Selected words and blocks under one element.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    words: u32,
    /// Words outside code (`<pre>`).
    prose_words: u32,
    blocks: u32,
    /// Selected words not yet inside a block below (text whose nearest
    /// block element is further up).
    loose: u32,
}

impl Records {
    /// The record groups of `sel` in `doc`.
    pub fn find(doc: &Document, sel: &Selection) -> Records {
        let tallies = tally(doc, sel);
        let tally = |id: NodeId| tallies.get(id.index()).copied().unwrap_or_default();
        let structured = structured(doc);
        let mut groups: Vec<(Kind, Vec<NodeId>)> = Vec::new();
        for parent in doc.ids() {
            let holds = tally(parent).words > 0;
            if !holds || structured.get(parent.index()).copied().unwrap_or(true) {
                continue;
            }
            // Runs of consecutive siblings with selected prose that share
            // a signature (siblings without selected text are not
            // written, and do not break a run; code alone does).
            // A sibling that is not a record ends the run before it.
            let mut runs: Vec<(Option<Signature>, Vec<NodeId>)> = Vec::new();
            for child in doc.children(parent) {
                let t = tally(child);
                if t.words == 0 || !doc.flags(child).contains(NodeFlags::VISIBLE) {
                    continue;
                }
                let signature = signature(doc, child).filter(|_| t.prose_words > 0);
                match (runs.last_mut(), signature) {
                    (Some((Some(s), members)), Some(sig)) if s.matches(&sig) => members.push(child),
                    (_, Some(sig)) => runs.push((Some(sig), vec![child])),
                    (_, None) => runs.push((None, Vec::new())),
                }
            }
            for (signature, members) in runs {
                let Some(signature) = signature else { continue };
                // Most records look like records ([`is_record`]); in a grid
                // whose extraction left a card its blurb alone, that card
                // is still one.
                let built = members.iter().filter(|&&m| is_record(doc, m, tally(m))).count();
                if members.len() < 2 || built * 2 < members.len() {
                    continue;
                }
                let words: u32 = members.iter().map(|&m| tally(m).words).sum();
                let kind = match words / members.len() as u32 <= ITEM_WORDS {
                    true => Kind::Item,
                    false => Kind::Post,
                };
                // A class-less `div` says nothing of what repeats (an
                // article's wrappers are such divs): only a grid of
                // three short ones is taken for cards.
                if signature.class.is_none() && (kind == Kind::Post || members.len() < 3) {
                    continue;
                }
                // Cards link to what they show or picture it; short text
                // blocks that do neither are paragraphs.
                let pointing = members.iter().filter(|&&m| points(doc, m)).count();
                if kind == Kind::Item && pointing * 2 < members.len() {
                    continue;
                }
                // Long parts are posts when most name an author or a time
                // (a widget builder's text blocks, an article's chunks
                // between ads, do not); those most of which open with a
                // heading are sections, which their headings already tell
                // apart.
                if kind == Kind::Post {
                    let signed = members.iter().filter(|&&m| is_signed(doc, m)).count();
                    let headed =
                        members.iter().filter(|&&m| opens_with_heading(doc, sel, m)).count();
                    if signed * 2 < members.len() || headed * 2 >= members.len() {
                        continue;
                    }
                }
                groups.push((kind, members));
            }
        }
        // The innermost groups: a group whose records hold another
        // group's records gives way to it.
        let mut all: Vec<NodeId> = groups.iter().flat_map(|(_, g)| g.iter().copied()).collect();
        all.sort_unstable();
        let holds_records = |g: &[NodeId]| {
            g.iter().any(|&m| {
                let after = all.partition_point(|&o| o <= m);
                all.get(after).is_some_and(|&o| doc.contains(m, o))
            })
        };
        let mut by_node = HashMap::new();
        for (kind, members) in groups.iter().filter(|(_, g)| !holds_records(g)) {
            for (i, &m) in members.iter().enumerate() {
                let (first, last) = (i == 0, i + 1 == members.len());
                by_node.insert(m, Record { kind: *kind, first, last });
            }
        }
        Records { by_node }
    }

    /// The record an element is, if it is one.
    pub fn get(&self, id: NodeId) -> Option<Record> {
        self.by_node.get(&id).copied()
    }

    /// No records.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.by_node.is_empty()
    }
}

/// Selected words and blocks under every node, by node index: one pass
/// from the last node to the first, each node's tally added to its
/// parent's once its own children are in.
fn tally(doc: &Document, sel: &Selection) -> Vec<Tally> {
    let mut tallies = vec![Tally::default(); doc.len()];
    for id in doc.ids().rev() {
        let stats = doc.stats(id);
        let mut t = tallies[id.index()];
        if stats.flags.contains(NodeFlags::TEXT) {
            // Hidden text is not written, by either renderer.
            if !sel.contains(id) || stats.words == 0 || !stats.flags.contains(NodeFlags::VISIBLE) {
                continue;
            }
            t.words = stats.words;
            t.prose_words = if stats.flags.contains(NodeFlags::IN_PRE) { 0 } else { stats.words };
            t.loose = stats.words;
        } else if stats.flags.contains(NodeFlags::BLOCK) && t.loose > 0 {
            // A block element with text of its own counts once.
            t.blocks = t.blocks.saturating_add(1);
            t.loose = 0;
        }
        tallies[id.index()] = t;
        if let Some(p) = doc.parent(id) {
            let parent = &mut tallies[p.index()];
            parent.words = parent.words.saturating_add(t.words);
            parent.prose_words = parent.prose_words.saturating_add(t.prose_words);
            parent.blocks = parent.blocks.saturating_add(t.blocks);
            parent.loose = parent.loose.saturating_add(t.loose);
        }
    }
    tallies
}

/// What sibling records share: their tag and class words without digits
/// (`col-md-4 product-card` → `div`, `product-card`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Signature {
    tag: &'static str,
    /// The class words, sorted; `None` for a `div` without any (a
    /// class-less `section` or `article` has `Some` empty: its tag says
    /// what it is).
    class: Option<Vec<String>>,
}

impl Signature {
    /// Do two siblings repeat one shape: the same tag, and half of their
    /// class words in common (a thread's first post adds `topic-owner`
    /// to the others' `topic-post regular`)?
    fn matches(&self, other: &Signature) -> bool {
        if self.tag != other.tag {
            return false;
        }
        match (&self.class, &other.class) {
            (None, None) => true,
            (Some(a), Some(b)) if a.is_empty() && b.is_empty() => true,
            (Some(a), Some(b)) => {
                let common = a.iter().filter(|w| b.contains(w)).count();
                common * 2 >= a.len().max(b.len()) && common > 0
            }
            _ => false,
        }
    }
}

/// A container's [`Signature`]; `None` for elements that are not records
/// (only `div`, `article` and `section` are).
fn signature(doc: &Document, id: NodeId) -> Option<Signature> {
    let tag = match *doc.name(id)? {
        local_name!("div") => "div",
        local_name!("article") => "article",
        local_name!("section") => "section",
        _ => return None,
    };
    let mut words: Vec<String> = doc
        .attr(id, "class")
        .unwrap_or("")
        .split_ascii_whitespace()
        .filter(|w| !w.bytes().any(|b| b.is_ascii_digit()))
        .map(str::to_ascii_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    let class = match words.is_empty() && tag == "div" {
        true => None,
        false => Some(words),
    };
    Some(Signature { tag, class })
}

/// Does a container with selected text look like a record? It has two
/// selected blocks or more (a card's title and price, a post's author
/// line and body) or is built of many elements (a post of which only the
/// body is kept still has its author's card, date and controls around
/// it). Wrappers of one paragraph each are not records.
fn is_record(doc: &Document, id: NodeId, tally: Tally) -> bool {
    tally.blocks >= 2 || doc.stats(id).tags >= RECORD_TAGS
}

/// Does the subtree of `id` hold a link or an image, as a card does?
fn points(doc: &Document, id: NodeId) -> bool {
    doc.stats(id).links > 0 || head_of(doc, id).any(|n| doc.is(n, local_name!("img")))
}

/// Class and id words that name a post's author or time.
const SIGNATURE_WORDS: &[&str] =
    &["author", "user", "byline", "avatar", "poster", "member", "date", "timestamp", "posted"];

/// Does the subtree of `id` name an author or a time, as a post does: a
/// `<time>`, an `author`/`date…` microdata property, or an element whose
/// `class` or `id` says so (`message-userDetails`, `post-date`)?
fn is_signed(doc: &Document, id: NodeId) -> bool {
    head_of(doc, id).any(|n| {
        if doc.is(n, local_name!("time")) {
            return true;
        }
        let Some(element) = doc.element(n) else { return false };
        if element.attr("itemprop").is_some_and(|p| p == "author" || p.starts_with("date")) {
            return true;
        }
        [element.attr("class"), element.attr("id")].into_iter().flatten().any(|names| {
            let names = names.to_ascii_lowercase();
            SIGNATURE_WORDS.iter().any(|w| names.contains(w))
        })
    })
}

/// For every node by index: is it, or an ancestor, a list item, table,
/// quote, heading or code, whose own structure the renderers keep? One
/// pass in document order, a parent before its children.
fn structured(doc: &Document) -> Vec<bool> {
    let mut inside = vec![false; doc.len()];
    for id in doc.ids() {
        let own = doc.name(id).is_some_and(|n| {
            heading_level(n).is_some()
                || matches!(
                    *n,
                    local_name!("li")
                        | local_name!("table")
                        | local_name!("blockquote")
                        | local_name!("pre")
                        | local_name!("dl")
                )
        });
        let up = doc.parent(id).is_some_and(|p| inside[p.index()]);
        inside[id.index()] = own || up;
    }
    inside
}

/// The first nodes of the subtree of `id` (at most [`SCANNED_NODES`]):
/// where a record shows its title, author or time.
fn head_of(doc: &Document, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    doc.subtree(id).take(SCANNED_NODES)
}

/// Does the selected text of `id` start in a heading?
fn opens_with_heading(doc: &Document, sel: &Selection, id: NodeId) -> bool {
    let first =
        head_of(doc, id).find(|&n| sel.contains(n) && doc.stats(n).words > 0 && doc.is_text(n));
    first.is_some_and(|t| {
        doc.ancestors(t)
            .take_while(|&a| a != id)
            .any(|a| doc.name(a).is_some_and(|n| heading_level(n).is_some()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn records(html: &str) -> (Document, Records) {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let mut sel = Selection::none(&doc);
        for id in doc.ids() {
            if doc.is_text(id) {
                sel.set(id, true);
            }
        }
        let records = Records::find(&doc, &sel);
        (doc, records)
    }

    fn kinds(doc: &Document, records: &Records) -> Vec<(String, Kind, bool)> {
        doc.ids()
            .filter_map(|id| {
                let r = records.get(id)?;
                Some((doc.attr(id, "id").unwrap_or("").to_string(), r.kind, r.first))
            })
            .collect()
    }

    #[test]
    fn cards_of_a_grid_are_items() {
        let card = |i: u32| {
            format!(
                "<div class='col-4 card' id='c{i}'><h3><a href=/b{i}>Boot {i}</a></h3><p>A light boot.</p>\
                 <span class=price>£{i}9.00</span></div>"
            )
        };
        let html = format!(
            "<main><h1>Boots</h1><div class=grid>{}</div></main>",
            (1..=3).map(card).collect::<String>()
        );
        let (doc, records) = records(&html);
        assert_eq!(
            kinds(&doc, &records),
            vec![
                ("c1".into(), Kind::Item, true),
                ("c2".into(), Kind::Item, false),
                ("c3".into(), Kind::Item, false)
            ]
        );
    }

    #[test]
    fn long_parts_that_open_with_headings_are_sections_and_left_alone() {
        let body = "word ".repeat(50);
        let section =
            |i: u32| format!("<section class=feature><h2>Part {i}</h2><p>{body}</p></section>");
        let html = format!("<main>{}</main>", (1..=3).map(section).collect::<String>());
        let (doc, records) = records(&html);
        assert!(records.is_empty(), "{:?}", kinds(&doc, &records));
    }

    #[test]
    fn posts_of_a_thread_are_posts_and_their_parts_are_not_records() {
        let body = "word ".repeat(50);
        let post = |i: u32| {
            format!(
                "<div class='topic-post regular' id='p{i}'><div class=post-author>user{i}</div><time>Feb {i}</time>\
                 <div class=body><p>{body}</p><p>More.</p></div></div>"
            )
        };
        let html = format!("<main>{}</main>", (1..=2).map(post).collect::<String>());
        let (doc, records) = records(&html);
        assert_eq!(
            kinds(&doc, &records),
            vec![("p1".into(), Kind::Post, true), ("p2".into(), Kind::Post, false)]
        );
    }

    #[test]
    fn plain_wrappers_lists_and_single_blocks_are_not_records() {
        for html in [
            // Long chunks of an article, signed by no author or time.
            "<div class='widget text'><p>one two three four five six seven eight nine ten</p><p>one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one</p></div>\
             <div class='widget text'><p>one two three four five six seven eight nine ten</p><p>one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one</p></div>",
            // Class-less divs: an article's wrappers.
            "<div><p>a b</p><p>c d</p></div><div><p>e f</p><p>g h</p></div>",
            // One block each.
            "<div class=para><p>a b c</p></div><div class=para><p>d e f</p></div>",
            // Inside a list item: the list says it already.
            "<ul><li><div class=c><p>a</p><p>b</p></div><div class=c><p>c</p><p>d</p></div></li></ul>",
            // One of its kind.
            "<div class=a><p>a</p><p>b</p></div><div class=b><p>c</p><p>d</p></div>",
        ] {
            let (doc, records) = records(html);
            assert!(records.is_empty(), "{html}: {:?}", kinds(&doc, &records));
        }
    }

    #[test]
    fn hidden_siblings_are_not_records_and_do_not_break_a_run() {
        let card = |i: u32, hidden: &str| {
            format!(
                "<div class=card id=c{i} {hidden}><a href=/x>Item {i}</a><p>Blurb {i}.</p></div>"
            )
        };
        let html = format!(
            "<main>{}{}{}{}</main>",
            card(1, ""),
            card(2, "hidden"),
            card(3, ""),
            card(4, "")
        );
        let (doc, records) = records(&html);
        let found = kinds(&doc, &records);
        let ids: Vec<&str> = found.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["c1", "c3", "c4"], "{found:?}");
    }

    #[test]
    fn the_inner_group_is_the_record() {
        let card = |i: u32| {
            format!("<div class=card id=c{i}><a href=/x>Item {i}</a><p>Blurb {i}.</p></div>")
        };
        let column = |c: u32| {
            format!(
                "<div class=column id=col{c}>{}</div>",
                (1..=3).map(|i| card(c * 10 + i)).collect::<String>()
            )
        };
        let html = format!("<main>{}{}</main>", column(1), column(2));
        let (doc, records) = records(&html);
        let found = kinds(&doc, &records);
        assert_eq!(found.len(), 6, "{found:?}");
        assert!(found.iter().all(|(id, kind, _)| id.starts_with('c')
            && !id.starts_with("col")
            && *kind == Kind::Item));
    }
}
