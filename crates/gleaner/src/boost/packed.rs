//! The trees of a forest in one array of 8-byte nodes, for walks of one
//! row through every tree ([`Forest::predict_raw_multi`](super::Forest::predict_raw_multi),
//! the page-type classifier) and the batch path of forests too deep for
//! the complete layout.
//!
//! # Layout
//!
//! Every tree is stored depth-first (pre-order): a split's left child is
//! the node right after it, so a node needs only its right child's
//! *offset*, and a walk that goes left reads the next 8 bytes, often on the
//! same cache line. A node is a code word and a float:
//!
//! - a split: the feature in bits 0–15, the right child's offset from the
//!   split (at least 2) in bits 16–30, bit 31 set when missing values go
//!   left; the float is the threshold (`x <= threshold` goes left);
//! - a leaf: offset 0 (no split has it); the float is the leaf's value.
//!
//! Half the 16 bytes of a node with two child indices: a single row's
//! walk through a forest of a thousand trees waits on memory, not on
//! arithmetic (the page-type classifier's 1 400 trees: about 650 KB that
//! way, 325 KB this way, against a core's 1 MB of L2 cache shared with the
//! page being read), so the smaller the nodes the shorter the wait. A
//! forest of more than 2^16 features, or with a left subtree of 2^15 nodes
//! or more, does not fit; it is walked by its [`Tree`] nodes instead (see
//! [`Packed::new`]).

use super::{Tree, DEFAULT_LEFT};

/// A split or a leaf (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    code: u32,
    /// The split's threshold, or the leaf's value.
    value: f32,
}

/// Bits of [`Node::code`] holding the feature.
const FEATURE_BITS: u32 = 16;
/// The largest right-child offset a code holds.
const MAX_OFFSET: usize = (1 << 15) - 1;
/// The number of features a code holds.
const MAX_FEATURES: usize = 1 << FEATURE_BITS;

impl Node {
    fn leaf(value: f32) -> Node {
        Node { code: 0, value }
    }

    /// The right child's offset from this node; 0 for a leaf.
    #[inline(always)]
    fn offset(self) -> u32 {
        (self.code & !DEFAULT_LEFT) >> FEATURE_BITS
    }

    #[inline(always)]
    fn is_leaf(self) -> bool {
        self.offset() == 0
    }

    /// The index of the child `row` goes to from the split at `at`:
    /// without a branch, a NaN compares false and goes left only by
    /// default.
    #[inline(always)]
    fn step(self, at: u32, row: &[f32]) -> u32 {
        let x = row[(self.code & (MAX_FEATURES as u32 - 1)) as usize];
        let left = (x <= self.value) | (x.is_nan() & (self.code & DEFAULT_LEFT != 0));
        if left {
            at + 1
        } else {
            at + self.offset()
        }
    }
}

/// Every tree of a forest as [`Node`]s, tree after tree.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Packed {
    nodes: Vec<Node>,
    /// Where each tree starts in `nodes`.
    roots: Vec<u32>,
}

impl Packed {
    /// The packed layout of `trees` over rows of `features` values, or
    /// `None` when they do not fit its codes (more than 2^16 features, a
    /// right child 2^15 nodes or more after its parent).
    pub(crate) fn new(trees: &[Tree], features: usize) -> Option<Packed> {
        if features > MAX_FEATURES {
            return None;
        }
        let size = trees.iter().map(|t| t.nodes.len() + t.leaf_value.len()).sum();
        if size > u32::MAX as usize {
            return None;
        }
        let mut nodes: Vec<Node> = Vec::with_capacity(size);
        let mut roots = Vec::with_capacity(trees.len());
        // (child code as in `super::Node::left`, the parent whose right
        // child it is)
        let mut stack: Vec<(i32, Option<usize>)> = Vec::new();
        for tree in trees {
            roots.push(nodes.len() as u32);
            stack.push((if tree.nodes.is_empty() { -1 } else { 0 }, None));
            while let Some((code, right_of)) = stack.pop() {
                let at = nodes.len();
                if let Some(parent) = right_of {
                    let offset = at - parent;
                    if offset > MAX_OFFSET {
                        return None;
                    }
                    nodes[parent].code |= (offset as u32) << FEATURE_BITS;
                }
                if code < 0 {
                    nodes.push(Node::leaf(tree.leaf_value[!code as usize]));
                } else {
                    let split = tree.nodes[code as usize];
                    // The offset is filled in when the right child is
                    // placed, after the whole left subtree.
                    let code = (split.feature & DEFAULT_LEFT) | split.feature_index() as u32;
                    nodes.push(Node { code, value: split.threshold });
                    stack.push((split.right, Some(at)));
                    stack.push((split.left, None));
                }
            }
        }
        Some(Packed { nodes, roots })
    }

    /// Calls `add(tree index, leaf value)` for the leaf `row` reaches in
    /// each tree, in tree order (of up to 64 trees at a time, the leaf
    /// values are kept and handed over in order). Eight walks go on at
    /// once, one level of each per step, and a walk that reached its leaf
    /// takes the next tree: the walks' memory loads overlap instead of
    /// waiting on each other.
    #[inline]
    pub(crate) fn for_each_leaf(&self, row: &[f32], mut add: impl FnMut(usize, f32)) {
        const BLOCK: usize = 64;
        const LANES: usize = 8;
        const DONE: usize = usize::MAX;
        let nodes = &self.nodes[..];
        for (b, roots) in self.roots.chunks(BLOCK).enumerate() {
            let mut leaf = [0f32; BLOCK];
            let mut at = [0u32; LANES];
            let mut tree = [DONE; LANES];
            let lanes = roots.len().min(LANES);
            at[..lanes].copy_from_slice(&roots[..lanes]);
            for (l, t) in tree[..lanes].iter_mut().enumerate() {
                *t = l;
            }
            let (mut next, mut live) = (lanes, lanes);
            while live > 0 {
                for (a, t) in at.iter_mut().zip(tree.iter_mut()) {
                    if *t == DONE {
                        continue;
                    }
                    let node = nodes[*a as usize];
                    if node.is_leaf() {
                        leaf[*t] = node.value;
                        if next < roots.len() {
                            (*a, *t) = (roots[next], next);
                            next += 1;
                        } else {
                            *t = DONE;
                            live -= 1;
                        }
                    } else {
                        *a = node.step(*a, row);
                    }
                }
            }
            for (i, &value) in leaf[..roots.len()].iter().enumerate() {
                add(b * BLOCK + i, value);
            }
        }
    }

    /// Adds to `out[r]` the leaf each tree gives row `r` of `rows` (rows
    /// of `width` values), in tree order: tree by tree, four rows at a
    /// time, each step without a branch.
    pub(crate) fn add_leaves(&self, rows: &[f32], width: usize, out: &mut [f32]) {
        let nodes = &self.nodes[..];
        let step = |a: u32, row: &[f32]| nodes[a as usize].step(a, row);
        let is_leaf = |a: u32| nodes[a as usize].is_leaf();
        for &root in &self.roots {
            let mut quads = out.chunks_exact_mut(4);
            let mut r = 0;
            for quad in &mut quads {
                let rs: [&[f32]; 4] =
                    std::array::from_fn(|k| &rows[(r + k) * width..(r + k + 1) * width]);
                let mut at = [root; 4];
                while !(is_leaf(at[0]) && is_leaf(at[1]) && is_leaf(at[2]) && is_leaf(at[3])) {
                    for k in 0..4 {
                        if !is_leaf(at[k]) {
                            at[k] = step(at[k], rs[k]);
                        }
                    }
                }
                for k in 0..4 {
                    quad[k] += nodes[at[k] as usize].value;
                }
                r += 4;
            }
            for o in quads.into_remainder() {
                let row = &rows[r * width..(r + 1) * width];
                let mut a = root;
                while !is_leaf(a) {
                    a = step(a, row);
                }
                *o += nodes[a as usize].value;
                r += 1;
            }
        }
    }
}
