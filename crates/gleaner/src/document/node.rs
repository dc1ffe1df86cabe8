//! The arena's node: [`NodeId`], the index every part of gleaner names a
//! node by, an element's name ([`Element`]), the 24-byte
//! [`Node`] the document stores for each, in document order, and its
//! [`NodeFlags`]
//! (`docs/architecture.md`, "Arena DOM in document order").

use std::ops::{BitOr, BitOrAssign, Range};

use markup5ever::LocalName;

/// Marker for "no node".
pub(crate) const NONE: u32 = u32::MAX;

/// Identifies a node of a [`Document`](super::Document): its index in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An element's name, kept once by the document for all its elements of
/// that name (their nodes index it); [`ElementRef`](super::ElementRef) dereferences to it,
/// so `e.name` is an element's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// The local name (`div`, `a`, …; lower-case but for SVG's and
    /// MathML's adjusted names, such as `foreignObject`).
    pub name: LocalName,
}

/// One node of the arena: 24 bytes with its share of the statistics
/// (issue 13: a page of `<p>x</p>` has a node for every 4 bytes). An
/// element keeps the index of its name in the document's names rather
/// than the name itself, whose single niche value left an enum of names
/// and ranges 24 bytes and the node 32; a text node keeps its statistics
/// itself (its counts in `stats`, its flags in `name_or_kind`), and so
/// does a node without children or whose only child is text (a
/// [`stats::Derived`](super::stats::Derived) code in `stats`: its sums are read from that
/// child), so that only the other nodes have a [`NodeStats`](super::NodeStats) of 28 bytes.
/// What the node is, is [`Document::kind`](super::Document::kind).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub(super) parent: u32,
    pub(super) end: u32,
    /// An element's name: its index in the document's names; for other
    /// nodes one of the kind codes above any index (`Node::TEXT` with the
    /// text node's [`NodeFlags`] in the low byte, …).
    pub(super) name_or_kind: u32,
    /// An element's run of the attribute table, a text node's range of
    /// the text; empty for other nodes.
    pub(super) start: u32,
    pub(super) stop: u32,
    /// Set by the statistics ([`stats::compute`](super::stats::compute)): a text node's counts
    /// (see [`stats::TextCounts`](super::stats::TextCounts)), a [`stats::Derived`](super::stats::Derived) code, or the
    /// index of the node's [`NodeStats`](super::NodeStats). Before that, while the tree is
    /// built, the node's previous sibling plus one (0: none; see
    /// [`sink::prev_sibling`](super::sink::prev_sibling)), and 0 once [`sink::BuiltTree::lay_out`](super::sink::BuiltTree::lay_out)
    /// has put the nodes in document order, until the statistics set it.
    pub(super) stats: u32,
}

// See `Node`'s docs (issue 13).
const _: () = assert!(std::mem::size_of::<Node>() == 24);

impl Node {
    pub(super) const DOCUMENT: u32 = u32::MAX;
    pub(super) const DOCTYPE: u32 = u32::MAX - 1;
    pub(super) const COMMENT: u32 = u32::MAX - 2;
    /// Text nodes' codes: this, with the node's flags in the low byte.
    pub(super) const TEXT: u32 = 0xFFFF_FE00;

    /// A node of a kind without a payload (`kind`: one of the codes).
    const fn of(kind: u32) -> Node {
        Node { parent: NONE, end: NONE, name_or_kind: kind, start: 0, stop: 0, stats: 0 }
    }

    /// The document root (also a `<template>`'s contents).
    pub(crate) const fn document() -> Node {
        Node::of(Node::DOCUMENT)
    }

    /// A doctype.
    pub(crate) const fn doctype() -> Node {
        Node::of(Node::DOCTYPE)
    }

    /// A comment.
    pub(crate) const fn comment() -> Node {
        Node::of(Node::COMMENT)
    }

    /// An element whose name is `name` of the document's names, with the
    /// attribute run `attrs`.
    pub(crate) fn element(name: u32, attrs: Range<u32>) -> Node {
        // Indexes are far below the codes (a name per tag of a page of at
        // most 1 GiB); were one not, it would stay an element.
        let code = name.min(Node::TEXT - 1);
        Node { start: attrs.start, stop: attrs.end, ..Node::of(code) }
    }

    /// A text node holding `range` of the text buffer.
    pub(crate) fn text(range: Range<u32>) -> Node {
        Node { start: range.start, stop: range.end, ..Node::of(Node::TEXT) }
    }

    /// True for a text node.
    #[inline]
    pub(crate) fn is_text(&self) -> bool {
        self.name_or_kind & !0xFF == Node::TEXT
    }

    /// A text node's flags (as [`stats::compute`](super::stats::compute) set them).
    #[inline]
    pub(super) fn text_flags(&self) -> NodeFlags {
        NodeFlags::from_byte(self.name_or_kind as u8)
    }

    /// The index of an element's name in the document's names.
    #[inline]
    pub(crate) fn name_index(&self) -> Option<u32> {
        (self.name_or_kind < Node::TEXT).then_some(self.name_or_kind)
    }

    /// A text node's range of the text buffer.
    #[inline]
    pub(crate) fn text_range(&self) -> Option<Range<u32>> {
        self.is_text().then_some(self.start..self.stop)
    }

    /// An element's attribute run.
    #[inline]
    pub(crate) fn attribute_run(&self) -> Option<Range<u32>> {
        self.name_index().map(|_| self.start..self.stop)
    }

    /// Points a text node at `range` (for other nodes, nothing).
    pub(crate) fn set_text_range(&mut self, range: Range<u32>) {
        if self.is_text() {
            (self.start, self.stop) = (range.start, range.end);
        }
    }

    /// Gives an element the attribute run `run` (for other nodes,
    /// nothing).
    pub(crate) fn set_attribute_run(&mut self, run: Range<u32>) {
        if self.name_index().is_some() {
            (self.start, self.stop) = (run.start, run.end);
        }
    }
}

/// Boolean properties of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeFlags(pub(super) u16);

impl NodeFlags {
    /// A text node.
    pub const TEXT: NodeFlags = NodeFlags(1);
    /// An element.
    pub const ELEMENT: NodeFlags = NodeFlags(1 << 1);
    /// Rendered: not inside `<head>`, `<script>`, `<style>`, `<noscript>`,
    /// `<template>`, embedded objects, or an element hidden by the
    /// `hidden` attribute, `aria-hidden="true"` or an inline
    /// `display:none` / `visibility:hidden` style.
    pub const VISIBLE: NodeFlags = NodeFlags(1 << 2);
    /// A block-level element ([`is_block`](super::tags::is_block)).
    pub const BLOCK: NodeFlags = NodeFlags(1 << 3);
    /// The node is an `<a href>` or inside one.
    pub const IN_LINK: NodeFlags = NodeFlags(1 << 4);
    /// Inside `<pre>`, `<textarea>`, `<listing>` or `<plaintext>`, where
    /// whitespace is significant.
    pub const IN_PRE: NodeFlags = NodeFlags(1 << 5);

    /// True if all bits of `other` are set.
    #[inline]
    pub fn contains(self, other: NodeFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The flags as one byte (all fit), as a text node keeps them.
    pub(crate) fn byte(self) -> u8 {
        self.0 as u8
    }

    /// The flags kept as [`NodeFlags::byte`].
    pub(crate) fn from_byte(byte: u8) -> NodeFlags {
        NodeFlags(u16::from(byte))
    }
}

// Every flag fits in a text node's byte (`NodeFlags::byte`).
const _: () = assert!(
    (NodeFlags::TEXT.0
        | NodeFlags::ELEMENT.0
        | NodeFlags::VISIBLE.0
        | NodeFlags::BLOCK.0
        | NodeFlags::IN_LINK.0
        | NodeFlags::IN_PRE.0)
        >> 8
        == 0
);

impl BitOr for NodeFlags {
    type Output = NodeFlags;
    fn bitor(self, rhs: NodeFlags) -> NodeFlags {
        NodeFlags(self.0 | rhs.0)
    }
}

impl BitOrAssign for NodeFlags {
    fn bitor_assign(&mut self, rhs: NodeFlags) {
        self.0 |= rhs.0;
    }
}
