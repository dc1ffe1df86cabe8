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

mod arena;
mod links;
mod reorder;
mod token_map;

pub(crate) use self::arena::ElementNs;
use self::arena::{Arena, Contentful};
use self::links::TreeLinks;
pub(crate) use self::links::{prev_sibling, NONE};
pub(crate) use self::reorder::{BuiltTree, Details};
use super::attributes::{AttributeTable, TagAttributes};
use super::node::Node;
use super::token::{StoredToken, TagNames};

/// What [`ArenaSink::reserve`] reserves (the tree feed's estimate for a
/// page).
pub(crate) struct Room {
    pub nodes: usize,
    pub text: usize,
    pub tokens: usize,
    /// Attributes, and bytes of their values.
    pub attributes: usize,
    pub attribute_bytes: usize,
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

    /// A sink that also keeps what the conformance dump reads
    /// ([`Details`]).
    pub fn with_details() -> ArenaSink {
        ArenaSink { details: Some(RefCell::new(Details::default())), ..ArenaSink::new() }
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
