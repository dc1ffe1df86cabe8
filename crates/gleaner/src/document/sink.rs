//! An html5ever `TreeSink` that builds the document's nodes in place.
//!
//! The tree builder mutates the tree while it parses (foster parenting,
//! the adoption agency algorithm move nodes), so the sink keeps a doubly
//! linked tree with integer handles: each node's final payload ([`Node`],
//! made once, when the node is created), whose parent field holds its
//! parent and whose end field its next sibling until it is laid out, and
//! whose statistics field its previous sibling ([`prev_sibling`]); besides, the
//! sink keeps each node's last child, 4 bytes a node (no first child,
//! which is found from the others when the tree is laid out, issue 13).
//! [`BuiltTree::lay_out`] then puts the nodes in document order; on most
//! pages the tree builder
//! creates them in that order already, and the payloads are the document's
//! nodes as they are, without a copy (the links are freed first); else
//! they are moved to their places in the same vector.
//!
//! Why a custom sink and not `dom_query` or `markup5ever_rcdom`: those
//! build one reference-counted allocation per node and keep `Tendril`s
//! (which are `!Send`); the arena holds plain indices, has no recursive
//! `Drop` (100 000 nested elements cannot overflow the stack), and the
//! final document is `Send + Sync` for rayon.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::collections::HashMap;
use std::ops::Range;

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use markup5ever::interface::tree_builder::ElemName;
use markup5ever::{ns, LocalName, Namespace};

use super::source::{StoredToken, TagNames};
use super::tree_feed::Room;
use super::{AttributeTable, Node, TagAttributes};

/// Marker for "no node".
pub(crate) const NONE: u32 = u32::MAX;

/// Where a node is in the tree while it is being built: its [`Node`]
/// holds its parent and next sibling until it is laid out (`parent` and
/// `end`) and its previous sibling in the field the statistics set later
/// (`stats`, see [`prev_sibling`]); the sink keeps, besides, each node's last
/// child, 4 bytes a node \[I\] (issue 13: a page of `<p>x</p>` has a node
/// for every 4 bytes, and the links are held with the nodes and the tokens
/// at the parse's peak). No link names a node's first child: the tree
/// builder never asks for it, and the rare changes that need it (moving a
/// node's children, [`TreeSink::reparent_children`]) walk back from the
/// last; the layout finds each first child from the others
/// ([`first_children`]).
///
/// The previous sibling of `node` while the tree is built: kept plus one
/// in its `stats` field, so that a node made (whose field is 0) has none.
/// [`BuiltTree::lay_out`] gives the field back as it was made.
#[inline]
pub(crate) fn prev_sibling(node: &Node) -> u32 {
    node.stats.wrapping_sub(1)
}

/// Sets the previous sibling of `node` (see [`prev_sibling`]).
#[inline]
fn set_prev_sibling(node: &mut Node, prev: u32) {
    node.stats = prev.wrapping_add(1);
}

/// Turns each node's last child in `children` into its first: a node
/// whose previous sibling is none is its parent's first child. In place,
/// so that the layout holds no other vector of a link a node.
fn first_children(children: &mut [u32], nodes: &[Node]) {
    children.fill(NONE);
    for (id, node) in nodes.iter().enumerate() {
        if prev_sibling(node) == NONE && node.parent != NONE {
            if let Some(first) = children.get_mut(node.parent as usize) {
                debug_assert!(*first == NONE, "node {} has two first children", node.parent);
                *first = id as u32;
            }
        }
    }
}

/// Gives the field that held `node`'s previous sibling while the tree was
/// built ([`prev_sibling`]) back as the statistics expect it: 0, as made.
#[inline]
fn clear_prev_sibling(node: &mut Node) {
    node.stats = 0;
}

/// The tree's links while it is built (see [`prev_sibling`]): the nodes, with
/// their parents and siblings, and their last children.
struct TreeLinks<'a> {
    nodes: &'a mut [Node],
    last_children: &'a mut [u32],
}

impl TreeLinks<'_> {
    #[inline(never)]
    fn detach(&mut self, id: u32) {
        let node = self.nodes[id as usize];
        let (parent, next, prev) = (node.parent, node.end, prev_sibling(&node));
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.nodes[prev as usize].end = next;
        }
        if next != NONE {
            set_prev_sibling(&mut self.nodes[next as usize], prev);
        } else {
            self.last_children[parent as usize] = prev;
        }
        let n = &mut self.nodes[id as usize];
        n.parent = NONE;
        n.end = NONE;
        set_prev_sibling(n, NONE);
    }

    /// Links `child` as the last child of `parent`. Inlined into its
    /// callers: without its call to [`TreeLinks::detach`], which is rare,
    /// it is a few loads and stores (issue 12).
    #[inline]
    fn append(&mut self, parent: u32, child: u32) {
        // A node just made has no parent: no call to detach it.
        if self.nodes[child as usize].parent != NONE {
            self.detach(child);
        }
        let last = std::mem::replace(&mut self.last_children[parent as usize], child);
        let c = &mut self.nodes[child as usize];
        set_prev_sibling(c, last);
        c.parent = parent;
        if let Some(last) = self.nodes.get_mut(last as usize) {
            last.end = child;
        }
    }

    fn insert_before(&mut self, sibling: u32, child: u32) {
        self.detach(child);
        let parent = self.nodes[sibling as usize].parent;
        if parent == NONE {
            return;
        }
        let prev = prev_sibling(&self.nodes[sibling as usize]);
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.end = sibling;
            set_prev_sibling(c, prev);
        }
        set_prev_sibling(&mut self.nodes[sibling as usize], child);
        if prev != NONE {
            self.nodes[prev as usize].end = child;
        }
    }
}

/// An element's namespace, as one byte: the tree builder makes elements
/// in the HTML, SVG and MathML namespaces only (WHATWG §13.2.6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ElementNs {
    Html,
    Svg,
    MathMl,
    /// Any other (the tree builder makes none), and non-elements.
    Other,
}

impl ElementNs {
    fn of(ns: &Namespace) -> ElementNs {
        match *ns {
            ns!(html) => ElementNs::Html,
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            _ => ElementNs::Other,
        }
    }
}

/// What only the conformance dump (`tree_dump`) reads, kept when the
/// sink is made [`ArenaSink::with_details`]: the document keeps none of
/// it.
#[derive(Debug, Default)]
pub(crate) struct Details {
    /// Each element's attributes as the tree builder gave them (with their
    /// namespaces), by node.
    pub attrs: HashMap<u32, Vec<Attribute>>,
    /// A comment's text, by node.
    pub comments: HashMap<u32, StrTendril>,
    /// A doctype's name, public and system identifiers, by node.
    pub doctypes: HashMap<u32, [StrTendril; 3]>,
}

/// The tree as the tree builder left it, indexed by handle (creation
/// order). See the [module docs](self).
#[derive(Debug)]
pub(crate) struct BuiltTree {
    /// Each node's last child (see [`prev_sibling`]).
    pub last_children: Vec<u32>,
    /// Each node's payload; a text node's range is, until laid out, its
    /// text's range in `text`.
    pub nodes: Vec<Node>,
    /// The names of the elements and of the source's tags, which the
    /// nodes and the tokens index.
    pub names: TagNames,
    /// The text nodes' text, in the order it was inserted.
    pub text: String,
    /// True if `text` holds each text node's text once, in the order the
    /// nodes were created (no text was appended to a text node after
    /// another text node was made).
    pub text_in_creation_order: bool,
    /// The elements' attributes.
    pub attrs: AttributeTable,
    /// Each node's [`ElementNs`].
    pub namespaces: Vec<ElementNs>,
    /// The content fragment of each `<template>` element.
    pub templates: HashMap<u32, u32>,
    pub details: Option<Details>,
}

impl BuiltTree {
    /// The number of nodes built.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The text of a text node (empty for others).
    pub fn text(&self, node: u32) -> &str {
        match self.nodes.get(node as usize).and_then(Node::text_range) {
            Some(r) => self.text.get(r.start as usize..r.end as usize).unwrap_or(""),
            None => "",
        }
    }

    /// The nodes in document order, the names they index, their text in
    /// one buffer, their attributes, and each handle's position in that
    /// order ([`NONE`] for nodes not in the document), or `None` when
    /// every handle is its own position.
    ///
    /// The nodes stay in their vector: the namespaces and then the links
    /// are freed as soon as they are read, and a tree not in creation
    /// order is put in document order in place, so that the layout holds
    /// no second copy of the nodes (issue 13).
    pub fn lay_out(
        mut self,
    ) -> (Vec<Node>, Vec<LocalName>, String, AttributeTable, Option<Vec<u32>>) {
        let names = std::mem::take(&mut self.names).into_names();
        let BuiltTree {
            last_children: mut children,
            mut nodes,
            text,
            text_in_creation_order,
            mut attrs,
            namespaces,
            templates,
            details,
            ..
        } = self;
        // Not read by the layout: freed before its peak.
        drop(namespaces);
        drop(templates);
        drop(details);
        first_children(&mut children, &nodes);
        if in_creation_order(&children, &nodes) {
            drop(children);
            // In creation order (pre-order), a node's subtree ends where
            // its next sibling starts, and a last child's where its
            // parent's does (set before, the parent coming first): one
            // pass, each node's next-sibling field becoming its end.
            let total = nodes.len() as u32;
            if let Some(root) = nodes.first_mut() {
                root.end = total;
            }
            for i in 1..nodes.len() {
                clear_prev_sibling(&mut nodes[i]);
                if nodes[i].end == NONE {
                    let parent = nodes[i].parent as usize;
                    nodes[i].end = nodes.get(parent).map_or(total, |p| p.end);
                }
            }
            // In creation order every node is in the document, so the text
            // as inserted is the text in document order, unless some was
            // moved to the end when it grew.
            let text = if text_in_creation_order { text } else { gather_text(&mut nodes, &text) };
            nodes.shrink_to_fit();
            attrs.shrink_to_fit();
            return (nodes, names, text, attrs, None);
        }
        let position = positions(&children, &nodes);
        drop(children);
        move_to_positions(&mut nodes, &position);
        let text = gather_text(&mut nodes, &text);
        nodes.shrink_to_fit();
        attrs.shrink_to_fit();
        (nodes, names, text, attrs, Some(position))
    }
}

/// The node after `node` in a pre-order walk from the root, or [`NONE`]
/// after the last ([`first_children`] gives `first_children`).
/// Iterative: deep trees cannot overflow the stack.
fn next_in_pre_order(first_children: &[u32], nodes: &[Node], node: u32) -> u32 {
    let child = first_children.get(node as usize).copied().unwrap_or(NONE);
    if child != NONE {
        return child;
    }
    // The next sibling of the nearest ancestor-or-self with one.
    let mut at = node;
    while let Some(n) = nodes.get(at as usize) {
        if n.end != NONE {
            return n.end;
        }
        at = n.parent;
    }
    NONE
}

/// True if a pre-order walk from the root visits every node in
/// creation order: then handle `i` is position `i` of the document.
/// Not so when the tree builder moved a node (foster parenting, the
/// adoption agency), inserted one before another, or left one out of
/// the tree (a `<template>`'s content, a removed node).
fn in_creation_order(first_children: &[u32], nodes: &[Node]) -> bool {
    let mut expected = 0u32;
    let mut node = 0u32;
    while node != NONE {
        if node != expected {
            return false;
        }
        expected += 1;
        node = next_in_pre_order(first_children, nodes, node);
    }
    expected as usize == nodes.len()
}

/// Each handle's position in a pre-order walk from the root ([`NONE`] for
/// nodes the walk does not reach). The walk stops at a node it reached
/// already: links that a bug made into a cycle cannot make it loop.
fn positions(first_children: &[u32], nodes: &[Node]) -> Vec<u32> {
    let mut position = vec![NONE; nodes.len()];
    let mut next = 0u32;
    let mut node = 0u32;
    while let Some(p) = position.get_mut(node as usize) {
        if *p != NONE {
            break;
        }
        *p = next;
        next += 1;
        node = next_in_pre_order(first_children, nodes, node);
    }
    position
}

/// Puts each node at its `position` (nodes without one are dropped), in
/// place: each cycle of the permutation is followed once, a bit a node
/// saying which nodes left their slots. Then each node's parent, a handle,
/// becomes its parent's position, and its end (which held its next
/// sibling) the end of its subtree, found from the last node up: in
/// document order a node's descendants follow it.
fn move_to_positions(nodes: &mut Vec<Node>, position: &[u32]) {
    let mut moved = vec![0u64; nodes.len().div_ceil(64)];
    let has_moved =
        |moved: &[u64], i: usize| moved.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
    let mark = |moved: &mut [u64], i: usize| {
        if let Some(w) = moved.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    };
    let mut kept = 0usize;
    for start in 0..nodes.len() {
        let Some(&to) = position.get(start) else { break };
        if to == NONE || has_moved(&moved, start) {
            continue;
        }
        // The node of `start` is carried off; its slot waits for the
        // node placed there.
        let mut carried = nodes[start];
        mark(&mut moved, start);
        let mut to = to as usize;
        loop {
            kept += 1;
            // Slot `to` holds its own node unless that left already, or
            // has none to keep.
            let waiting = !has_moved(&moved, to) && position.get(to).is_some_and(|&p| p != NONE);
            let Some(slot) = nodes.get_mut(to) else { break };
            let displaced = std::mem::replace(slot, carried);
            if !waiting {
                break;
            }
            mark(&mut moved, to);
            carried = displaced;
            to = position.get(to).map_or(0, |&p| p as usize);
        }
    }
    drop(moved);
    nodes.truncate(kept);
    for (i, node) in nodes.iter_mut().enumerate() {
        node.parent = position.get(node.parent as usize).copied().unwrap_or(NONE);
        node.end = i as u32 + 1;
        clear_prev_sibling(node);
    }
    for i in (1..nodes.len()).rev() {
        let (parent, end) = (nodes[i].parent as usize, nodes[i].end);
        if let Some(p) = nodes.get_mut(parent) {
            p.end = p.end.max(end);
        }
    }
}

/// Copies the text of `nodes`' text nodes, in their order, from `texts`
/// into a new buffer, and points each at its range there.
fn gather_text(nodes: &mut [Node], texts: &str) -> String {
    let text_of =
        |node: &Node| node.text_range().and_then(|r| texts.get(r.start as usize..r.end as usize));
    let total: usize = nodes.iter().filter_map(text_of).map(str::len).sum();
    let mut text = String::with_capacity(total);
    for node in nodes.iter_mut() {
        if let Some(t) = text_of(node) {
            let start = text.len() as u32;
            text.push_str(t);
            node.set_text_range(start..text.len() as u32);
        }
    }
    text
}

/// The nodes as the sink builds them, in one `RefCell` of the sink: a
/// node made or linked borrows it once, not each vector on its own
/// (issue 12).
struct Arena {
    /// Each node's last child (see [`prev_sibling`]).
    last_children: Vec<u32>,
    nodes: Vec<Node>,
    /// Each node's [`ElementNs`].
    namespaces: Vec<ElementNs>,
    /// The text of all text nodes, each node's a range of it
    /// ([`BuiltTree::text`]).
    text: String,
    /// The text node whose text ends `text`, or [`NONE`]: text appended
    /// to it is appended to `text`.
    last_text: u32,
    /// The text of text nodes that grew after a later text node was
    /// made, by node (see [`Arena::extend_text`]); while it is empty,
    /// `text` is in creation order ([`BuiltTree::text_in_creation_order`]).
    grown: HashMap<u32, String>,
}

impl Arena {
    /// The tree's links, to change.
    fn tree(&mut self) -> TreeLinks<'_> {
        TreeLinks { nodes: &mut self.nodes, last_children: &mut self.last_children }
    }

    /// Adds `node`, detached (no parent, no next sibling); its handle.
    fn push(&mut self, node: Node, ns: ElementNs) -> u32 {
        self.nodes.push(node);
        self.last_children.push(NONE);
        self.namespaces.push(ns);
        (self.nodes.len() - 1) as u32
    }

    /// A new text node holding `text`; where the text went.
    #[inline]
    fn push_text(&mut self, text: &str) -> (u32, Contentful) {
        let start = self.text.len() as u32;
        self.text.push_str(text);
        let end = self.text.len() as u32;
        let id = self.push(Node::text(start..end), ElementNs::Other);
        self.last_text = id;
        (id, Contentful::InBuffer(start, end))
    }

    /// A new text node holding `text`, the last child of `parent`, whose
    /// last child was `last` (not a text node): [`Arena::push_text`] and
    /// [`TreeLinks::append`] in one, each entry written once (issue 12:
    /// text is inserted for most tokens).
    #[inline]
    fn push_text_child(&mut self, parent: u32, last: u32, text: &str) -> (u32, Contentful) {
        let start = self.text.len() as u32;
        self.text.push_str(text);
        let end = self.text.len() as u32;
        let id = self.nodes.len() as u32;
        let mut node = Node { parent, ..Node::text(start..end) };
        set_prev_sibling(&mut node, last);
        self.nodes.push(node);
        self.last_children.push(NONE);
        self.namespaces.push(ElementNs::Other);
        if let Some(p) = self.last_children.get_mut(parent as usize) {
            *p = id;
        }
        if let Some(previous) = self.nodes.get_mut(last as usize) {
            previous.end = id;
        }
        self.last_text = id;
        (id, Contentful::InBuffer(start, end))
    }

    /// `text` appended to `neighbour` if that is a text node, else a new
    /// text node that `attach` links into the tree; the node, and where
    /// the text went.
    fn add_text(
        &mut self,
        neighbour: u32,
        text: &str,
        attach: impl FnOnce(&mut TreeLinks, u32),
    ) -> (u32, Contentful) {
        match self.extend_text(neighbour, text) {
            Some(inserted) => (neighbour, inserted),
            None => {
                let (id, inserted) = self.push_text(text);
                attach(&mut self.tree(), id);
                (id, inserted)
            }
        }
    }

    /// Appends text to `node` if it is a text node. The text of the last
    /// text node made grows in place in the buffer; any other's moves,
    /// once, to a string of its own ([`Arena::grown`]) and grows
    /// there (rare: foster parenting, the adoption agency). Moving it to
    /// the end of the buffer instead would copy it again each time, and
    /// text foster-parented between table cells (`<table>x<td>y</td>x…`)
    /// would cost time and memory quadratic in the page. Gives where
    /// the text went, or `None` if `node` is not a text node.
    #[inline]
    fn extend_text(&mut self, node: u32, text: &str) -> Option<Contentful> {
        if node == NONE {
            return None;
        }
        let node_ref = self.nodes.get_mut(node as usize)?;
        let range = node_ref.text_range()?;
        let buffer = &mut self.text;
        if self.last_text == node {
            let start = buffer.len() as u32;
            buffer.push_str(text);
            let end = buffer.len() as u32;
            node_ref.set_text_range(range.start..end);
            return Some(Contentful::InBuffer(start, end));
        }
        let own = self.grown.entry(node).or_insert_with(|| {
            buffer.get(range.start as usize..range.end as usize).unwrap_or("").to_owned()
        });
        own.push_str(text);
        Some(Contentful::Known(is_contentful(text)))
    }

    /// The text of the nodes in [`Arena::grown`] at the end of the
    /// buffer, so that every text node's text is its range there.
    fn settle_grown_text(&mut self) {
        let mut grown: Vec<(u32, String)> = std::mem::take(&mut self.grown).into_iter().collect();
        grown.sort_unstable_by_key(|(node, _)| *node);
        for (node, own) in grown {
            if let Some(n) = self.nodes.get_mut(node as usize) {
                let start = self.text.len() as u32;
                self.text.push_str(&own);
                n.set_text_range(start..self.text.len() as u32);
            }
        }
    }
}

/// The html5ever sink.
pub(crate) struct ArenaSink {
    /// The nodes, their links, namespaces and text.
    arena: RefCell<Arena>,
    /// The elements' and the source tags' names ([`BuiltTree::names`]).
    names: RefCell<TagNames>,
    attrs: RefCell<AttributeTable>,
    templates: RefCell<HashMap<u32, u32>>,
    details: Option<RefCell<Details>>,
    /// Elements created so far.
    elements: Cell<usize>,
    /// The namespaces [`ElementNs`] stands for, for `elem_name`.
    namespace_names: [Namespace; 4],
    /// Returned by `elem_name` for non-elements (html5ever never asks).
    placeholder: LocalName,
    /// The page's source tokens so far, each mapped to the node it made
    /// (a handle): for a text token the first node that got any of its
    /// non-whitespace (else the first that got any of it; none for a
    /// token of whitespace only), for a start tag its element.
    tokens: RefCell<Vec<StoredToken>>,
    /// The source token whose characters are being inserted (the last
    /// character token fed: the tree builder inserts table text when the
    /// next token comes), or [`NONE`].
    text_token: Cell<u32>,
    /// Whether some of [`ArenaSink::text_token`]'s text that went to the
    /// node it is mapped to is not whitespace: read from the buffer only
    /// if a later piece of the token's text asks.
    text_token_contentful: Cell<Contentful>,
    /// The source token of the start tag being processed, or [`NONE`].
    start_tag: Cell<u32>,
    /// The name of the last start tag processed: that of
    /// [`ArenaSink::start_tag`] while one is (kept between tags, and
    /// replaced only when the name changes: no clone and drop of a name
    /// per start tag, issue 12).
    start_tag_name: RefCell<LocalName>,
    /// The attribute list of the last element created, emptied, for the
    /// next start tag's attributes ([`ArenaSink::spare_attributes`]).
    spare: RefCell<TagAttributes>,
}

/// An element name borrowed from the arena.
#[derive(Debug)]
pub(crate) struct ArenaName<'a> {
    ns: &'a Namespace,
    local: LocalRef<'a>,
}

#[derive(Debug)]
enum LocalRef<'a> {
    Element(Ref<'a, LocalName>),
    Placeholder(&'a LocalName),
}

impl ElemName for ArenaName<'_> {
    fn ns(&self) -> &Namespace {
        self.ns
    }
    fn local_name(&self) -> &LocalName {
        match &self.local {
            LocalRef::Element(r) => r,
            LocalRef::Placeholder(l) => l,
        }
    }
}

impl ArenaSink {
    pub fn new() -> ArenaSink {
        ArenaSink {
            arena: RefCell::new(Arena {
                last_children: vec![NONE],
                nodes: vec![Node::document()],
                namespaces: vec![ElementNs::Other],
                text: String::new(),
                last_text: NONE,
                grown: HashMap::new(),
            }),
            names: RefCell::new(TagNames::default()),
            attrs: RefCell::new(AttributeTable::default()),
            templates: RefCell::new(HashMap::new()),
            details: None,
            elements: Cell::new(0),
            namespace_names: [ns!(html), ns!(svg), ns!(mathml), ns!()],
            placeholder: LocalName::from(""),
            tokens: RefCell::new(Vec::new()),
            text_token: Cell::new(NONE),
            text_token_contentful: Cell::new(Contentful::Known(false)),
            start_tag: Cell::new(NONE),
            start_tag_name: RefCell::new(LocalName::from("")),
            spare: RefCell::new(TagAttributes::default()),
        }
    }

    /// Room for more nodes, text nodes, attributes and source tokens.
    pub fn reserve(&self, room: Room) {
        let mut arena = self.arena.borrow_mut();
        arena.nodes.reserve_exact(room.nodes);
        self.attrs.borrow_mut().reserve(room.attributes, room.attribute_bytes);
        arena.last_children.reserve_exact(room.nodes);
        arena.namespaces.reserve_exact(room.nodes);
        arena.text.reserve_exact(room.text);
        self.tokens.borrow_mut().reserve_exact(room.tokens);
    }

    /// The names that nodes and tokens index, to add a token's.
    pub fn names(&self) -> RefMut<'_, TagNames> {
        self.names.borrow_mut()
    }

    /// Adds the next source token; gives its index.
    pub fn push_token(&self, token: StoredToken) -> u32 {
        let mut tokens = self.tokens.borrow_mut();
        tokens.push(token);
        (tokens.len() - 1) as u32
    }

    /// An empty list for a start tag's attributes: the one the last
    /// element was created with, whose attributes the document has copied
    /// (issue 12: one allocation and one free fewer per element with
    /// attributes).
    pub fn spare_attributes(&self) -> TagAttributes {
        self.spare.take()
    }

    /// Keeps `attrs`, emptied, as the next [`ArenaSink::spare_attributes`]
    /// if none is kept (one that was handed out is back, or the sink makes
    /// the first).
    /// Inlined: a tag without attributes brought no list (a fifth of the
    /// elements on 300 dragnet pages), and then there is nothing to keep
    /// or to free (issue 12: no call to drop it).
    #[inline]
    pub fn recycle(&self, attrs: TagAttributes) {
        if attrs.capacity() == 0 {
            // No room means no allocation and no entry: nothing to drop.
            std::mem::forget(attrs);
        } else {
            self.keep_spare(attrs);
        }
    }

    /// [`ArenaSink::recycle`] for a list with room.
    fn keep_spare(&self, mut attrs: TagAttributes) {
        let mut spare = self.spare.borrow_mut();
        if spare.capacity() < attrs.capacity() {
            attrs.clear();
            let old = std::mem::replace(&mut *spare, attrs);
            // The spare was handed out ([`ArenaSink::spare_attributes`]
            // leaves an empty list): no room, nothing to free.
            if old.capacity() == 0 {
                std::mem::forget(old);
            }
        }
    }

    /// [`TreeSink::create_element`] for the own tree builder: an element
    /// `name` in `ns` (a `<template>` if `template`), with the attributes
    /// as it carries them, copied into the document's table (the caller
    /// may [`ArenaSink::recycle`] the list). No `QualName` is made.
    pub fn create_tag_element(
        &self,
        ns: ElementNs,
        name: &LocalName,
        attrs: &TagAttributes,
        template: bool,
    ) -> u32 {
        let run = self.attrs.borrow_mut().push_list(attrs);
        let id = self.new_element(ns, name, run, template);
        if let Some(details) = &self.details {
            details.borrow_mut().attrs.insert(id, attrs.to_html5ever());
        }
        id
    }

    /// An element `name` with the attributes of element `like` (a
    /// formatting element re-created, WHATWG §13.2.4.3): the same run of
    /// the table, no copy. Runs are never changed but for `html` and
    /// `body` ([`AttributeTable::add_missing`]), which are not formatting
    /// elements.
    pub fn create_element_like(&self, name: &LocalName, like: u32) -> u32 {
        let run = self.attribute_run(like);
        let id = self.new_element(ElementNs::Html, name, run, false);
        if let Some(details) = &self.details {
            let mut details = details.borrow_mut();
            let attrs = details.attrs.get(&like).cloned().unwrap_or_default();
            details.attrs.insert(id, attrs);
        }
        id
    }

    /// The attribute run of element `node` (empty for another node).
    fn attribute_run(&self, node: u32) -> Range<u32> {
        let arena = self.arena.borrow();
        arena.nodes.get(node as usize).and_then(Node::attribute_run).unwrap_or(0..0)
    }

    /// True if elements `a` and `b` have the same attributes: names and
    /// values, in any order (the Noah's Ark clause, WHATWG §13.2.4.3).
    pub fn same_attributes(&self, a: u32, b: u32) -> bool {
        let (a, b) = (self.attribute_run(a), self.attribute_run(b));
        a == b || self.attrs.borrow().same_attributes(&a, &b)
    }

    /// [`TreeSink::add_attrs_if_missing`] for the own tree builder.
    pub fn add_tag_attrs_if_missing(&self, target: &u32, attrs: TagAttributes) {
        self.add_missing_to_run(*target, attrs.kept());
        if self.details.is_some() {
            self.add_missing_details(*target, attrs.to_html5ever());
        }
        self.recycle(attrs);
    }

    /// Makes an element `name` in `ns` with the attribute run `run` (and
    /// its content fragment if `template`); its handle.
    #[inline]
    fn new_element(&self, ns: ElementNs, name: &LocalName, run: Range<u32>, template: bool) -> u32 {
        self.elements.set(self.elements.get() + 1);
        let mut arena = self.arena.borrow_mut();
        let template_contents = template.then(|| arena.push(Node::document(), ElementNs::Other));
        let token = self.start_tag.get();
        let mut tokens = self.tokens.borrow_mut();
        // The start tag's token, which the element is mapped to, knows the
        // name's index; elements the tree builder makes on its own
        // (`html`, `tbody`, clones) look it up.
        let start_tag = (token != NONE && *self.start_tag_name.borrow() == *name)
            .then(|| tokens.get_mut(token as usize))
            .flatten();
        let known = start_tag.as_deref().and_then(StoredToken::start_tag_name_index);
        let index = known.unwrap_or_else(|| self.names.borrow_mut().index(name));
        let id = arena.push(Node::element(index, run), ns);
        if let Some(contents) = template_contents {
            self.templates.borrow_mut().insert(id, contents);
        }
        if let Some(t) = start_tag {
            t.map_to(id);
        }
        id
    }

    /// Adds to element `target`'s run the attributes whose names it lacks.
    fn add_missing_to_run<'v>(
        &self,
        target: u32,
        attrs: impl IntoIterator<Item = (LocalName, &'v str)>,
    ) {
        let mut arena = self.arena.borrow_mut();
        if let Some(node) = arena.nodes.get_mut(target as usize) {
            if let Some(run) = node.attribute_run() {
                node.set_attribute_run(self.attrs.borrow_mut().add_missing(run, attrs));
            }
        }
    }

    /// Adds to the details' attributes of `target` those whose names it
    /// lacks.
    fn add_missing_details(&self, target: u32, attrs: Vec<Attribute>) {
        if let Some(details) = &self.details {
            let mut details = details.borrow_mut();
            let existing = details.attrs.entry(target).or_default();
            for attr in attrs {
                if !existing.iter().any(|a| a.name == attr.name) {
                    existing.push(attr);
                }
            }
        }
    }

    /// The source tokens, each mapped to the node (handle) it made.
    pub fn take_tokens(&self) -> Vec<StoredToken> {
        self.tokens.take()
    }

    /// A sink that also keeps what the conformance dump reads
    /// ([`Details`]).
    pub fn with_details() -> ArenaSink {
        ArenaSink { details: Some(RefCell::new(Details::default())), ..ArenaSink::new() }
    }

    /// Characters inserted from now on come from source token `token`
    /// ([`NONE`]: from one that is mapped to no node).
    pub fn set_text_token(&self, token: u32) {
        self.text_token.set(token);
        self.text_token_contentful.set(Contentful::Known(false));
    }

    /// The start tag `token` named `name` is being processed: the last
    /// element of that name created until [`ArenaSink::end_start_tag`] is
    /// its element (reconstructed formatting elements and the adoption
    /// agency's clones come before it).
    pub fn begin_start_tag(&self, name: &LocalName, token: u32) {
        let mut kept = self.start_tag_name.borrow_mut();
        if *kept != *name {
            *kept = name.clone();
        }
        self.start_tag.set(token);
    }

    /// The start tag's processing is over.
    pub fn end_start_tag(&self) {
        self.start_tag.set(NONE);
    }

    /// Records that text of the current character token, `inserted`, went
    /// to `node`: the token is mapped to the first node it gave text to,
    /// or to the first it gave text that is not whitespace. Whether a
    /// piece is whitespace is only read when a later piece of the same
    /// token needs it (most tokens are one piece).
    #[inline]
    fn record_text(&self, node: u32, inserted: Contentful) {
        let token = self.text_token.get();
        let mut tokens = self.tokens.borrow_mut();
        let Some(t) = tokens.get_mut(token as usize) else { return };
        if !t.is_mapped() {
            t.map_to(node);
            self.text_token_contentful.set(inserted);
        } else if !self.contentful(self.text_token_contentful.get()) && self.contentful(inserted) {
            t.map_to(node);
            self.text_token_contentful.set(Contentful::Known(true));
        }
    }

    /// Whether the text `c` stands for is not all whitespace.
    fn contentful(&self, c: Contentful) -> bool {
        match c {
            Contentful::Known(known) => known,
            Contentful::InBuffer(start, end) => {
                let arena = self.arena.borrow();
                is_contentful(arena.text.get(start as usize..end as usize).unwrap_or(""))
            }
        }
    }

    /// Nodes created so far, of every kind.
    pub fn nodes(&self) -> usize {
        self.arena.borrow().nodes.len()
    }

    /// Elements created so far.
    pub fn elements(&self) -> usize {
        self.elements.get()
    }

    /// The local name of `node` if it is an HTML element.
    pub fn html_name(&self, node: u32) -> Option<LocalName> {
        let arena = self.arena.borrow();
        if arena.namespaces.get(node as usize) != Some(&ElementNs::Html) {
            return None;
        }
        let index = arena.nodes.get(node as usize).and_then(Node::name_index)?;
        self.names.borrow().name(index).cloned()
    }

    /// The tree's links, to change.
    fn with_links<T>(&self, change: impl FnOnce(&mut TreeLinks) -> T) -> T {
        change(&mut self.arena.borrow_mut().tree())
    }

    /// The parent of `node`, or [`NONE`].
    fn parent(&self, node: u32) -> u32 {
        self.arena.borrow().nodes.get(node as usize).map_or(NONE, |n| n.parent)
    }

    /// Appends node `child` as the last child of `parent`
    /// ([`TreeSink::append`] of a node).
    #[inline]
    pub fn append_node(&self, parent: u32, child: u32) {
        self.with_links(|tree| tree.append(parent, child));
    }

    /// Inserts `text` as the last child of `parent`: appended to its last
    /// child if that is a text node, else a new text node (WHATWG
    /// §13.2.6.1, "insert a character").
    pub fn append_text(&self, parent: u32, text: &str) {
        let mut arena = self.arena.borrow_mut();
        let last = arena.last_children.get(parent as usize).copied().unwrap_or(NONE);
        let (node, inserted) = match arena.extend_text(last, text) {
            Some(inserted) => (last, inserted),
            None => arena.push_text_child(parent, last, text),
        };
        drop(arena);
        self.record_text(node, inserted);
    }

    /// Inserts `text` before `sibling`: appended to the text node before
    /// it, if any, else a new text node.
    pub fn insert_text_before(&self, sibling: u32, text: &str) {
        let mut arena = self.arena.borrow_mut();
        let prev = arena.nodes.get(sibling as usize).map_or(NONE, prev_sibling);
        let (node, inserted) =
            arena.add_text(prev, text, |tree, id| tree.insert_before(sibling, id));
        drop(arena);
        self.record_text(node, inserted);
    }

    /// Foster-parented `text` (§13.2.6.1): before `table` if it has a
    /// parent, else at the end of `prev`.
    pub fn foster_text(&self, table: u32, prev: u32, text: &str) {
        if self.parent(table) != NONE {
            self.insert_text_before(table, text);
        } else {
            self.append_text(prev, text);
        }
    }
}

/// Whether a piece of text inserted is not all whitespace: known, or to be
/// read from the range of the text buffer it went to (which keeps those
/// bytes while the tree is built: text grows at the buffer's end, or
/// elsewhere).
#[derive(Debug, Clone, Copy)]
enum Contentful {
    Known(bool),
    InBuffer(u32, u32),
}

/// Text that is not all whitespace.
fn is_contentful(text: &str) -> bool {
    !text.bytes().all(|b| b.is_ascii_whitespace())
}

/// Attributes as the document keeps them: the local name and the value.
fn kept(attrs: &[Attribute]) -> impl Iterator<Item = (LocalName, &str)> {
    attrs.iter().map(|a| (a.name.local.clone(), &*a.value))
}

impl TreeSink for ArenaSink {
    type Handle = u32;
    type Output = BuiltTree;
    type ElemName<'a> = ArenaName<'a>;

    fn finish(self) -> BuiltTree {
        let mut arena = self.arena.into_inner();
        let text_in_creation_order = arena.grown.is_empty();
        arena.settle_grown_text();
        let Arena { last_children, nodes, namespaces, text, .. } = arena;
        BuiltTree {
            last_children,
            nodes,
            names: self.names.into_inner(),
            text,
            text_in_creation_order,
            attrs: self.attrs.into_inner(),
            namespaces,
            templates: self.templates.into_inner(),
            details: self.details.map(RefCell::into_inner),
        }
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> ArenaName<'a> {
        let (ns, index) = {
            let arena = self.arena.borrow();
            let ns = arena.namespaces.get(*target as usize).copied();
            (ns, arena.nodes.get(*target as usize).and_then(Node::name_index))
        };
        let ns = &self.namespace_names[ns.unwrap_or(ElementNs::Other) as usize];
        let local = Ref::filter_map(self.names.borrow(), |names| names.name(index?));
        match local {
            Ok(local) => ArenaName { ns, local: LocalRef::Element(local) },
            Err(_) => ArenaName { ns, local: LocalRef::Placeholder(&self.placeholder) },
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        let run = self.attrs.borrow_mut().push(kept(&attrs));
        let id = self.new_element(ElementNs::of(&name.ns), &name.local, run, flags.template);
        if let Some(details) = &self.details {
            details.borrow_mut().attrs.insert(id, attrs);
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        let id = self.arena.borrow_mut().push(Node::comment(), ElementNs::Other);
        if let Some(details) = &self.details {
            details.borrow_mut().comments.insert(id, text);
        }
        id
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> u32 {
        self.create_comment(data)
    }

    #[inline]
    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        match child {
            NodeOrText::AppendNode(id) => {
                self.with_links(|tree| tree.append(*parent, id));
            }
            NodeOrText::AppendText(text) => self.append_text(*parent, &text),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self.parent(*element) != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        let id = self.arena.borrow_mut().push(Node::doctype(), ElementNs::Other);
        if let Some(details) = &self.details {
            details.borrow_mut().doctypes.insert(id, [name, public_id, system_id]);
        }
        self.with_links(|tree| tree.append(0, id));
    }

    fn get_template_contents(&self, target: &u32) -> u32 {
        // html5ever only asks for template elements; answer with the
        // element itself rather than fail.
        self.templates.borrow().get(target).copied().unwrap_or(*target)
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        match new_node {
            NodeOrText::AppendNode(id) => {
                self.with_links(|tree| tree.insert_before(*sibling, id));
            }
            NodeOrText::AppendText(text) => self.insert_text_before(*sibling, &text),
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        self.add_missing_to_run(*target, kept(&attrs));
        self.add_missing_details(*target, attrs);
    }

    fn remove_from_parent(&self, target: &u32) {
        self.with_links(|tree| tree.detach(*target));
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        self.with_links(|tree| {
            // The first child, found back from the last (moving them all
            // costs as much).
            let mut child = tree.last_children[*node as usize];
            while let Some(before) = tree.nodes.get(child as usize).map(prev_sibling) {
                if before == NONE {
                    break;
                }
                child = before;
            }
            while child != NONE {
                let next = tree.nodes[child as usize].end;
                tree.append(*new_parent, child);
                child = next;
            }
        });
    }
}
