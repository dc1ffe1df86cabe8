//! An html5ever `TreeSink` that builds a linked arena.
//!
//! The tree builder mutates the tree while it parses (foster parenting,
//! the adoption agency algorithm move nodes), so the arena here is a
//! doubly linked tree with integer handles. [`Document`](super::Document)
//! then lays it out once in document order, which makes every later
//! traversal a slice walk.
//!
//! Why a custom sink and not `dom_query` or `markup5ever_rcdom`: those
//! build one reference-counted allocation per node and keep `Tendril`s
//! (which are `!Send`); the arena holds plain indices, has no recursive
//! `Drop` (100 000 nested elements cannot overflow the stack), and the
//! final document is `Send + Sync` for rayon.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use markup5ever::interface::tree_builder::ElemName;
use markup5ever::{ns, LocalName, Namespace};

/// Marker for "no node".
pub(crate) const NONE: u32 = u32::MAX;

/// A node while the tree is being built.
pub(crate) struct BuildNode {
    pub parent: u32,
    pub first_child: u32,
    pub last_child: u32,
    pub prev: u32,
    pub next: u32,
    pub data: BuildData,
}

/// The payload of a [`BuildNode`].
pub(crate) enum BuildData {
    Document,
    /// The content of a `<template>`: detached, so never in the output.
    Fragment,
    Doctype {
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    },
    Element {
        name: ElementName,
        /// Boxed, not a `Vec`: a node is built once per element, and the
        /// arena is the parse's largest allocation.
        attrs: Box<[Attribute]>,
        template_contents: u32,
    },
    Text(StrTendril),
    /// A comment's text (empty unless the feed keeps comments).
    Comment(StrTendril),
}

/// An element's name without the prefix, which no algorithm reads: 16
/// bytes where a `QualName` takes 24.
#[derive(Debug)]
pub(crate) struct ElementName {
    pub ns: Namespace,
    pub local: LocalName,
}

/// The html5ever sink.
pub(crate) struct ArenaSink {
    nodes: RefCell<Vec<BuildNode>>,
    /// Elements created so far.
    elements: Cell<usize>,
    /// Returned by `elem_name` for non-elements (html5ever never asks).
    placeholder: ElementName,
    /// The source token whose characters are being inserted (the last
    /// character token fed: the tree builder inserts table text when the
    /// next token comes), or [`NONE`].
    text_token: Cell<u32>,
    /// The start tag being processed: its name and source token.
    start_tag: RefCell<Option<(LocalName, u32)>>,
    /// `(source token, node)`: the text nodes each character token's text
    /// went to (see [`ArenaSink::made`]), and each start tag's element.
    made: RefCell<Vec<Made>>,
}

/// One record of which source token made which node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Made {
    pub token: u32,
    pub node: u32,
    /// Some of the token's text that went to the node is not whitespace.
    contentful: bool,
}

/// An element name borrowed from the arena.
#[derive(Debug)]
pub(crate) enum ArenaName<'a> {
    Element(Ref<'a, ElementName>),
    Placeholder(&'a ElementName),
}

impl ArenaName<'_> {
    fn name(&self) -> &ElementName {
        match self {
            ArenaName::Element(r) => r,
            ArenaName::Placeholder(q) => q,
        }
    }
}

impl ElemName for ArenaName<'_> {
    fn ns(&self) -> &Namespace {
        &self.name().ns
    }
    fn local_name(&self) -> &LocalName {
        &self.name().local
    }
}

impl ArenaSink {
    pub fn new() -> ArenaSink {
        let root = BuildNode::new(BuildData::Document);
        ArenaSink {
            nodes: RefCell::new(vec![root]),
            elements: Cell::new(0),
            placeholder: ElementName { ns: ns!(), local: LocalName::from("") },
            text_token: Cell::new(NONE),
            start_tag: RefCell::new(None),
            made: RefCell::new(Vec::new()),
        }
    }

    /// Characters inserted from now on come from source token `token`.
    pub fn set_text_token(&self, token: u32) {
        self.text_token.set(token);
    }

    /// The start tag `token` named `name` is being processed: the last
    /// element of that name created until [`ArenaSink::end_start_tag`] is
    /// its element (reconstructed formatting elements and the adoption
    /// agency's clones come before it).
    pub fn begin_start_tag(&self, name: LocalName, token: u32) {
        *self.start_tag.borrow_mut() = Some((name, token));
    }

    /// The start tag's processing is over.
    pub fn end_start_tag(&self) {
        *self.start_tag.borrow_mut() = None;
    }

    /// Which source token made which node, in the order made: for a text
    /// token the first node that got any of its non-whitespace (else the
    /// first that got any of it), for a start tag its element.
    pub fn made(&self) -> Vec<Made> {
        let made = self.made.borrow();
        let mut out: Vec<Made> = Vec::with_capacity(made.len());
        for m in made.iter() {
            match out.last_mut() {
                Some(last) if last.token == m.token => {
                    if m.contentful && !last.contentful {
                        *last = *m;
                    }
                }
                _ => out.push(*m),
            }
        }
        out
    }

    /// Records that text of the current character token went to `node`.
    fn record_text(&self, node: u32, contentful: bool) {
        let token = self.text_token.get();
        if token == NONE {
            return;
        }
        let mut made = self.made.borrow_mut();
        match made.last_mut() {
            Some(last) if last.token == token => {
                if contentful && !last.contentful {
                    *last = Made { token, node, contentful };
                }
            }
            _ => made.push(Made { token, node, contentful }),
        }
    }

    /// Elements created so far.
    pub fn elements(&self) -> usize {
        self.elements.get()
    }

    /// The local name of `node` if it is an HTML element.
    pub fn html_name(&self, node: u32) -> Option<LocalName> {
        match self.nodes.borrow().get(node as usize) {
            Some(BuildNode { data: BuildData::Element { name, .. }, .. })
                if name.ns == ns!(html) =>
            {
                Some(name.local.clone())
            }
            _ => None,
        }
    }

    fn push(&self, data: BuildData) -> u32 {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(BuildNode::new(data));
        (nodes.len() - 1) as u32
    }

    fn detach(nodes: &mut [BuildNode], id: u32) {
        let (parent, prev, next) = {
            let n = &nodes[id as usize];
            (n.parent, n.prev, n.next)
        };
        if parent == NONE {
            return;
        }
        if prev != NONE {
            nodes[prev as usize].next = next;
        } else {
            nodes[parent as usize].first_child = next;
        }
        if next != NONE {
            nodes[next as usize].prev = prev;
        } else {
            nodes[parent as usize].last_child = prev;
        }
        let n = &mut nodes[id as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    fn append_node(nodes: &mut [BuildNode], parent: u32, child: u32) {
        Self::detach(nodes, child);
        let last = nodes[parent as usize].last_child;
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = last;
        }
        if last != NONE {
            nodes[last as usize].next = child;
        } else {
            nodes[parent as usize].first_child = child;
        }
        nodes[parent as usize].last_child = child;
    }

    fn insert_before(nodes: &mut [BuildNode], sibling: u32, child: u32) {
        Self::detach(nodes, child);
        let (parent, prev) = {
            let s = &nodes[sibling as usize];
            (s.parent, s.prev)
        };
        if parent == NONE {
            return;
        }
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        nodes[sibling as usize].prev = child;
        if prev != NONE {
            nodes[prev as usize].next = child;
        } else {
            nodes[parent as usize].first_child = child;
        }
    }

    /// Appends text to `node` if it is a text node.
    fn extend_text(nodes: &mut [BuildNode], node: u32, text: &StrTendril) -> bool {
        if node == NONE {
            return false;
        }
        match &mut nodes[node as usize].data {
            BuildData::Text(t) => {
                t.push_tendril(text);
                true
            }
            _ => false,
        }
    }
}

/// Text that is not all whitespace.
fn is_contentful(text: &str) -> bool {
    !text.bytes().all(|b| b.is_ascii_whitespace())
}

impl BuildNode {
    fn new(data: BuildData) -> BuildNode {
        BuildNode {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            data,
        }
    }
}

impl TreeSink for ArenaSink {
    type Handle = u32;
    type Output = Vec<BuildNode>;
    type ElemName<'a> = ArenaName<'a>;

    fn finish(self) -> Vec<BuildNode> {
        self.nodes.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> ArenaName<'a> {
        let name =
            Ref::filter_map(self.nodes.borrow(), |nodes| match nodes.get(*target as usize) {
                Some(BuildNode { data: BuildData::Element { name, .. }, .. }) => Some(name),
                _ => None,
            });
        match name {
            Ok(name) => ArenaName::Element(name),
            Err(_) => ArenaName::Placeholder(&self.placeholder),
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        self.elements.set(self.elements.get() + 1);
        let template_contents = if flags.template { self.push(BuildData::Fragment) } else { NONE };
        let start_tag = match &*self.start_tag.borrow() {
            Some((expected, token)) if *expected == name.local => Some(*token),
            _ => None,
        };
        let name = ElementName { ns: name.ns, local: name.local };
        let attrs = attrs.into_boxed_slice();
        let id = self.push(BuildData::Element { name, attrs, template_contents });
        if let Some(token) = start_tag {
            let mut made = self.made.borrow_mut();
            match made.last_mut() {
                Some(last) if last.token == token => last.node = id,
                _ => made.push(Made { token, node: id, contentful: true }),
            }
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        self.push(BuildData::Comment(text))
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> u32 {
        self.push(BuildData::Comment(data))
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        match child {
            NodeOrText::AppendNode(id) => {
                Self::append_node(&mut self.nodes.borrow_mut(), *parent, id);
            }
            NodeOrText::AppendText(text) => {
                let last = self.nodes.borrow()[*parent as usize].last_child;
                if Self::extend_text(&mut self.nodes.borrow_mut(), last, &text) {
                    self.record_text(last, is_contentful(&text));
                } else {
                    let contentful = is_contentful(&text);
                    let id = self.push(BuildData::Text(text));
                    self.record_text(id, contentful);
                    Self::append_node(&mut self.nodes.borrow_mut(), *parent, id);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self.nodes.borrow()[*element as usize].parent != NONE;
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
        let id = self.push(BuildData::Doctype { name, public_id, system_id });
        Self::append_node(&mut self.nodes.borrow_mut(), 0, id);
    }

    fn get_template_contents(&self, target: &u32) -> u32 {
        match &self.nodes.borrow()[*target as usize].data {
            BuildData::Element { template_contents, .. } if *template_contents != NONE => {
                *template_contents
            }
            // html5ever only asks for template elements; answer with the
            // element itself rather than fail.
            _ => *target,
        }
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        match new_node {
            NodeOrText::AppendNode(id) => {
                Self::insert_before(&mut self.nodes.borrow_mut(), *sibling, id);
            }
            NodeOrText::AppendText(text) => {
                let prev = self.nodes.borrow()[*sibling as usize].prev;
                if Self::extend_text(&mut self.nodes.borrow_mut(), prev, &text) {
                    self.record_text(prev, is_contentful(&text));
                } else {
                    let contentful = is_contentful(&text);
                    let id = self.push(BuildData::Text(text));
                    self.record_text(id, contentful);
                    Self::insert_before(&mut self.nodes.borrow_mut(), *sibling, id);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        if let BuildData::Element { attrs: existing, .. } =
            &mut self.nodes.borrow_mut()[*target as usize].data
        {
            let mut all = std::mem::take(existing).into_vec();
            for attr in attrs {
                if !all.iter().any(|a| a.name == attr.name) {
                    all.push(attr);
                }
            }
            *existing = all.into_boxed_slice();
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        Self::detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[*node as usize].first_child;
        while child != NONE {
            let next = nodes[child as usize].next;
            Self::append_node(&mut nodes, *new_parent, child);
            child = next;
        }
    }
}
