//! Structural fingerprints of a page (Gottron 2008, S-0 §4;
//! `docs/algorithms.md#structural-distances-and-clustering`): three sets of
//! hashed tag-name sequences whose overlap says how alike two pages'
//! templates are.
//!
//! - **CP**, common paths: the root-to-leaf element paths
//!   (`html/body/div/p`). A leaf is an element without element children;
//!   an element with its own (non-blank) text is also the end of a path,
//!   since its text is a leaf \[I\].
//! - **CPS**, common path shingles: every run of `k` consecutive names on
//!   those paths; a path shorter than `k` is one shingle \[I\].
//! - **CTSS**, common tag-sequence shingles: runs of `k` consecutive tags
//!   in document order, start tags as `name` and end tags as `/name` (void
//!   elements have none) \[I\].
//!
//! Each set is a sorted vector of distinct `u64` hashes, so two sets
//! intersect by one merge pass.

use crate::document::tags::is_void;
use crate::document::{Document, NodeId, NodeKind};

use crate::hash::{combine, hash_bytes, mix};

/// The default shingle length `k` for CPS and CTSS. The paper does not
/// give one; 4, Broder's usual shingle length, was the first guess. On today's
/// deeper pages, windows of 4 names (`div/div/div/div`) occur on every
/// site, and at the paper's thresholds CPS and CTSS then merge all sites
/// (Rand 0.91 and 0.14 on the dev mix); from `k` = 10 both separate them
/// (Rand 0.997 and 1.000) \[I: `docs/site-templates.md`\].
pub const DEFAULT_SHINGLE: usize = 10;

/// The three structural fingerprints of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// CP: hashed root-to-leaf paths.
    pub paths: Vec<u64>,
    /// CPS: hashed path shingles.
    pub path_shingles: Vec<u64>,
    /// CTSS: hashed tag-sequence shingles.
    pub tag_shingles: Vec<u64>,
}

impl Fingerprint {
    /// The fingerprints of `doc` with shingle length `k` (at least 1).
    pub fn of(doc: &Document, k: usize) -> Fingerprint {
        let k = k.max(1);
        let n = doc.len();
        // Per node: the hash of its element path, its element depth, and
        // whether it ends a path (no element children, or its own text).
        let mut path = vec![0u64; n];
        let mut depth = vec![0u32; n];
        let mut has_element_child = vec![false; n];
        let mut has_text = vec![false; n];
        let mut names = vec![0u64; n];
        for id in doc.ids() {
            let parent = doc.parent(id);
            match doc.kind(id) {
                NodeKind::Element(e) => {
                    let name = hash_bytes(e.name.as_bytes());
                    names[id.index()] = name;
                    let (parent_path, parent_depth) =
                        parent.map_or((0, 0), |p| (path[p.index()], depth[p.index()]));
                    path[id.index()] = combine(parent_path, name);
                    depth[id.index()] = parent_depth + 1;
                    if let Some(p) = parent {
                        has_element_child[p.index()] = true;
                    }
                }
                NodeKind::Text(_) if !doc.text(id).trim().is_empty() => {
                    if let Some(p) = parent {
                        has_text[p.index()] = true;
                    }
                }
                _ => {}
            }
        }
        let mut paths = Vec::new();
        let mut path_shingles = Vec::new();
        for id in doc.ids().filter(|&id| doc.element(id).is_some()) {
            let i = id.index();
            let ends_path = !has_element_child[i] || has_text[i];
            if ends_path {
                paths.push(path[i]);
            }
            if depth[i] as usize >= k {
                path_shingles.push(window(doc, id, k, &names));
            } else if ends_path {
                // A whole path shorter than k is one shingle; salted so it
                // cannot equal a window.
                path_shingles.push(mix(path[i] ^ 0x5348_4f52_5450_4154));
            }
        }
        Fingerprint {
            paths: sorted_set(paths),
            path_shingles: sorted_set(path_shingles),
            tag_shingles: sorted_set(tag_shingles(doc, k, &names)),
        }
    }
}

/// The hash of the `k` element names ending at `id` (root-most first).
fn window(doc: &Document, id: NodeId, k: usize, names: &[u64]) -> u64 {
    let mut chain: Vec<u64> = Vec::with_capacity(k);
    chain.push(names[id.index()]);
    chain.extend(
        doc.ancestors(id)
            .filter(|&a| doc.element(a).is_some())
            .take(k - 1)
            .map(|a| names[a.index()]),
    );
    chain.iter().rev().fold(k as u64, |h, &name| combine(h, name))
}

/// The tag sequence of the DOM in document order (start tags, then end
/// tags as subtrees close), shingled by `k`.
fn tag_shingles(doc: &Document, k: usize, names: &[u64]) -> Vec<u64> {
    /// Marks an end tag's hash.
    const END: u64 = 0x2f45_4e44_5441_4721;
    let mut sequence: Vec<u64> = Vec::new();
    let mut open: Vec<NodeId> = Vec::new();
    for id in doc.ids() {
        let Some(e) = doc.element(id) else { continue };
        while let Some(&top) = open.last() {
            if doc.contains(top, id) {
                break;
            }
            sequence.push(names[top.index()] ^ END);
            open.pop();
        }
        sequence.push(names[id.index()]);
        if !is_void(&e.name) {
            open.push(id);
        }
    }
    while let Some(top) = open.pop() {
        sequence.push(names[top.index()] ^ END);
    }
    if sequence.len() < k {
        return if sequence.is_empty() {
            Vec::new()
        } else {
            vec![sequence.iter().fold(0, |h, &t| combine(h, t))]
        };
    }
    sequence.windows(k).map(|w| w.iter().fold(k as u64, |h, &t| combine(h, t))).collect()
}

fn sorted_set(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn fp(html: &str, k: usize) -> Fingerprint {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        Fingerprint::of(&doc, k)
    }

    #[test]
    fn paths_are_the_root_to_leaf_element_paths() {
        // html/head, html/body/div/p (twice, one set element),
        // html/body/div/ul/li, html/body/div (own text).
        let a = fp("<div>intro<p>one</p><p>two</p><ul><li>x</li></ul></div>", 4);
        assert_eq!(a.paths.len(), 4, "{a:?}");
        // Same paths in another order and number: the same set.
        let b = fp("<div><ul><li>y</li><li>z</li></ul><p>three</p>outro</div>", 4);
        assert_eq!(a.paths, b.paths);
        // CTSS sees the order.
        assert_ne!(a.tag_shingles, b.tag_shingles);
    }

    #[test]
    fn path_shingles_are_windows_of_k_names() {
        // html/body/div/p/b: with k = 2 the windows are html/body,
        // body/div, div/p, p/b and head's html/head.
        let a = fp("<div><p><b>x</b></p></div>", 2);
        assert_eq!(a.path_shingles.len(), 5, "{a:?}");
        // k larger than every path: one shingle per path.
        let long = fp("<div><p><b>x</b></p></div>", 50);
        assert_eq!(long.path_shingles.len(), long.paths.len());
    }

    #[test]
    fn tag_shingles_count_start_and_end_tags() {
        // html head /head body p /p /body /html: 8 tags, k = 8 → 1 shingle,
        // k = 7 → 2; a void element adds only its start tag.
        assert_eq!(fp("<p>x</p>", 8).tag_shingles.len(), 1);
        assert_eq!(fp("<p>x</p>", 7).tag_shingles.len(), 2);
        assert_eq!(fp("<p>x<br>y</p>", 9).tag_shingles.len(), 1);
    }

    #[test]
    fn text_does_not_change_the_fingerprint() {
        assert_eq!(fp("<div><p>one</p></div>", 4), fp("<div><p>another text</p></div>", 4));
    }
}
