//! The tree as the tree builder left it ([`BuiltTree`], in creation
//! order), and its laying out in document order (pre-order), which the
//! document's subtree ranges need: on most pages the nodes were made in
//! that order already and stay where they are; else they are moved to
//! their places in the same vector.

use std::collections::HashMap;

use html5ever::tendril::StrTendril;
use html5ever::Attribute;
use markup5ever::LocalName;

use super::super::attributes::AttributeTable;
use super::super::node::Node;
use super::super::token::TagNames;
use super::arena::ElementNs;
use super::links::{clear_prev_sibling, first_children, NONE};

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
    #[cfg(any(test, feature = "internals"))]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The text of a text node (empty for others).
    #[cfg(any(test, feature = "internals"))]
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
