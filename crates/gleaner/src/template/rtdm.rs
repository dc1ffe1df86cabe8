//! RTDM, the restricted top-down mapping tree edit distance of Reis,
//! Golgher, Silva and Laender (WWW 2004), which Gottron (S-0 §3, §5)
//! compares his set distances against.
//!
//! A top-down mapping maps a node only if its parent is mapped, so
//! insertions and deletions happen at subtree level: the cost of two
//! trees is a relabelling cost for their roots (1 if the names differ)
//! plus the edit distance of their child sequences, where replacing a
//! child by another costs their own distance and inserting or deleting a
//! child costs its subtree's size. Identical subtrees (equal structural
//! hash) cost nothing without being compared node by node: the
//! restriction that makes RTDM fast on pages of one template. The worst
//! case stays quadratic in the page size, which is the paper's argument
//! for the set distances (Figure 1). The distance is normalised as
//! `cost / (|T₁| + |T₂|)` ∈ \[0, 1\] \[K, `docs/algorithms.md#rtdm`\].
//!
//! Only elements take part: text is content, not structure.

use crate::document::Document;

use crate::hash::{combine, hash_bytes};

/// The element tree of a page, laid out for RTDM.
#[derive(Debug, Clone, Default)]
pub struct ElementTree {
    nodes: Vec<TreeNode>,
}

#[derive(Debug, Clone)]
struct TreeNode {
    name: u64,
    /// Hash of the subtree's structure (names and shape).
    shape: u64,
    /// Elements in the subtree, itself included.
    size: u32,
    children: Vec<u32>,
}

impl ElementTree {
    /// The element tree of `doc` (the root is the `<html>` element).
    pub fn of(doc: &Document) -> ElementTree {
        let mut index = vec![u32::MAX; doc.len()];
        let mut nodes: Vec<TreeNode> = Vec::new();
        for id in doc.ids() {
            let Some(e) = doc.element(id) else { continue };
            let me = nodes.len() as u32;
            index[id.index()] = me;
            let parent = doc.ancestors(id).map(|a| index[a.index()]).find(|&i| i != u32::MAX);
            if let Some(p) = parent {
                nodes[p as usize].children.push(me);
            }
            let name = hash_bytes(e.name.as_bytes());
            nodes.push(TreeNode { name, shape: 0, size: 1, children: Vec::new() });
        }
        // Children come after their parents: sizes and shapes bottom-up.
        for i in (0..nodes.len()).rev() {
            let (mut size, mut shape) = (1u32, nodes[i].name);
            for &c in &nodes[i].children {
                let child = &nodes[c as usize];
                size += child.size;
                shape = combine(shape, child.shape);
            }
            nodes[i].size = size;
            nodes[i].shape = combine(shape, u64::from(size));
        }
        ElementTree { nodes }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the page has no elements.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The RTDM distance of two element trees, in \[0, 1\].
pub fn rtdm_distance(a: &ElementTree, b: &ElementTree) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 0.0;
    }
    let cost = match (a.is_empty(), b.is_empty()) {
        (true, _) | (_, true) => total as u64,
        _ => cost(a, 0, b, 0),
    };
    (cost as f64 / total as f64).min(1.0)
}

/// The top-down mapping cost of the subtrees at `i` and `j`.
fn cost(a: &ElementTree, i: u32, b: &ElementTree, j: u32) -> u64 {
    let (x, y) = (&a.nodes[i as usize], &b.nodes[j as usize]);
    if x.shape == y.shape {
        return 0;
    }
    let relabel = u64::from(x.name != y.name);
    let (xs, ys) = (&x.children, &y.children);
    // A leaf on either side: the other's children are all inserted or
    // deleted.
    if xs.is_empty() || ys.is_empty() {
        let size = |t: &ElementTree, c: &[u32]| -> u64 {
            c.iter().map(|&k| u64::from(t.nodes[k as usize].size)).sum()
        };
        return relabel + size(a, xs) + size(b, ys);
    }
    // Edit distance of the child sequences, one row at a time.
    let mut previous: Vec<u64> = Vec::with_capacity(ys.len() + 1);
    previous.push(0);
    for &c in ys {
        let last = previous.last().copied().unwrap_or(0);
        previous.push(last + u64::from(b.nodes[c as usize].size));
    }
    let mut current = vec![0u64; ys.len() + 1];
    for &ci in xs {
        let delete = u64::from(a.nodes[ci as usize].size);
        current[0] = previous[0] + delete;
        for (k, &cj) in ys.iter().enumerate() {
            let insert = u64::from(b.nodes[cj as usize].size);
            let replace = previous[k] + cost(a, ci, b, cj);
            current[k + 1] = replace.min(previous[k + 1] + delete).min(current[k] + insert);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    relabel + previous.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn tree(html: &str) -> ElementTree {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        ElementTree::of(&doc)
    }

    #[test]
    fn identical_structure_is_distance_zero() {
        let a = tree("<div><p>one</p><ul><li>a</li></ul></div>");
        let b = tree("<div><p>other text</p><ul><li>b</li></ul></div>");
        assert_eq!(rtdm_distance(&a, &b), 0.0);
    }

    #[test]
    fn an_inserted_subtree_costs_its_size() {
        // html, head, body, div, p = 5 elements; the second page adds a
        // <ul><li> (2 elements): cost 2 over 5 + 7 elements.
        let a = tree("<div><p>x</p></div>");
        let b = tree("<div><p>x</p><ul><li>y</li></ul></div>");
        assert!((rtdm_distance(&a, &b) - 2.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn a_renamed_node_costs_one() {
        // div → section under body: relabel 1, over 5 + 5.
        let a = tree("<div><p>x</p></div>");
        let b = tree("<section><p>x</p></section>");
        assert!((rtdm_distance(&a, &b) - 1.0 / 10.0).abs() < 1e-12);
    }

    #[test]
    fn symmetric_and_bounded() {
        let a = tree("<div><p>x</p><p>y</p></div><table><tr><td>1</td></tr></table>");
        let b = tree("<ul><li>a</li></ul>");
        let (ab, ba) = (rtdm_distance(&a, &b), rtdm_distance(&b, &a));
        assert!((ab - ba).abs() < 1e-12);
        assert!(ab > 0.0 && ab <= 1.0);
    }
}
