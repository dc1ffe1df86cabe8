//! The nodes as the sink makes them: one vector of [`Node`] payloads with
//! their namespaces and links, and the text of every text node in one
//! buffer, text appended to the node that ends it in place.

use std::collections::HashMap;

use markup5ever::{ns, Namespace};

use super::super::node::Node;
use super::links::{set_prev_sibling, TreeLinks, NONE};

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
    pub(super) fn of(ns: &Namespace) -> ElementNs {
        match *ns {
            ns!(html) => ElementNs::Html,
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            _ => ElementNs::Other,
        }
    }
}

/// The nodes as the sink builds them, in one `RefCell` of the sink: a
/// node made or linked borrows it once, not each vector on its own
/// (issue 12).
pub(super) struct Arena {
    /// Each node's last child (see [`prev_sibling`]).
    pub(super) last_children: Vec<u32>,
    pub(super) nodes: Vec<Node>,
    /// Each node's [`ElementNs`].
    pub(super) namespaces: Vec<ElementNs>,
    /// The text of all text nodes, each node's a range of it
    /// ([`BuiltTree::text`]).
    pub(super) text: String,
    /// The text node whose text ends `text`, or [`NONE`]: text appended
    /// to it is appended to `text`.
    pub(super) last_text: u32,
    /// The text of text nodes that grew after a later text node was
    /// made, by node (see [`Arena::extend_text`]); while it is empty,
    /// `text` is in creation order ([`BuiltTree::text_in_creation_order`]).
    pub(super) grown: HashMap<u32, String>,
}

impl Arena {
    /// The tree's links, to change.
    pub(super) fn tree(&mut self) -> TreeLinks<'_> {
        TreeLinks { nodes: &mut self.nodes, last_children: &mut self.last_children }
    }

    /// Adds `node`, detached (no parent, no next sibling); its handle.
    pub(super) fn push(&mut self, node: Node, ns: ElementNs) -> u32 {
        self.nodes.push(node);
        self.last_children.push(NONE);
        self.namespaces.push(ns);
        (self.nodes.len() - 1) as u32
    }

    /// A new text node holding `text`; where the text went.
    #[inline]
    pub(super) fn push_text(&mut self, text: &str) -> (u32, Contentful) {
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
    pub(super) fn push_text_child(
        &mut self,
        parent: u32,
        last: u32,
        text: &str,
    ) -> (u32, Contentful) {
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
    pub(super) fn add_text(
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
    pub(super) fn extend_text(&mut self, node: u32, text: &str) -> Option<Contentful> {
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
    pub(super) fn settle_grown_text(&mut self) {
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

/// Whether a piece of text inserted is not all whitespace: known, or to be
/// read from the range of the text buffer it went to (which keeps those
/// bytes while the tree is built: text grows at the buffer's end, or
/// elsewhere).
#[derive(Debug, Clone, Copy)]
pub(super) enum Contentful {
    Known(bool),
    InBuffer(u32, u32),
}

/// Text that is not all whitespace.
pub(super) fn is_contentful(text: &str) -> bool {
    !text.bytes().all(|b| b.is_ascii_whitespace())
}
