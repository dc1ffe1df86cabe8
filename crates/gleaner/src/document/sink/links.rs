//! The tree's links while it is built: each node's parent, next and
//! previous sibling kept in its own [`Node`] (fields the document later
//! uses for other things), and each node's last child beside; the moves
//! the tree builder makes (append, insert before, detach) on them.

use super::super::node::Node;
pub(crate) use super::super::node::NONE;

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
pub(super) fn set_prev_sibling(node: &mut Node, prev: u32) {
    node.stats = prev.wrapping_add(1);
}

/// Turns each node's last child in `children` into its first: a node
/// whose previous sibling is none is its parent's first child. In place,
/// so that the layout holds no other vector of a link a node.
pub(super) fn first_children(children: &mut [u32], nodes: &[Node]) {
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
pub(super) fn clear_prev_sibling(node: &mut Node) {
    node.stats = 0;
}

/// The tree's links while it is built (see [`prev_sibling`]): the nodes, with
/// their parents and siblings, and their last children.
pub(super) struct TreeLinks<'a> {
    pub(super) nodes: &'a mut [Node],
    pub(super) last_children: &'a mut [u32],
}

impl TreeLinks<'_> {
    #[inline(never)]
    pub(super) fn detach(&mut self, id: u32) {
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
    pub(super) fn append(&mut self, parent: u32, child: u32) {
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

    pub(super) fn insert_before(&mut self, sibling: u32, child: u32) {
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
