//! A page's template as the part of its DOM that all pages of its menu
//! share: Algorithm 2 of Alarte, Insa, Silva and Tamarit, "Web Template
//! Extraction Based on Hyperlink Analysis" (WWV 2015; S-1 §3, §4.2;
//! `docs/algorithms.md#menu-based-templates`).
//!
//! Reads the **DOM**. The template of key page `p₀` with respect to pages
//! `P = {p₁ … pₙ}` (Def. 3.3) is the set of `p₀`'s nodes that an *equal
//! top-down mapping* (ETDM, Def. 3.2) maps into every `pᵢ`:
//!
//! ```text
//! template := p₀
//! for p in P:  template := ETDM(template, p)
//! ETDM(T₁, T₂): root(T₁) ↦ root(T₂); for each child n₁ of a mapped node
//!   r₁ (↦ r₂), map n₁ to the unused child n₂ of r₂ with n₁ ≜ n₂ maximal
//!   among those with n₁ ≜ n₂ ≥ τ, and go on below (n₁, n₂).
//! ```
//!
//! The node equality `≜ : N × N → [0, 1]` of the paper's tool weighs "class
//! name, number of children, relative position in the DOM and HTML
//! attributes" \[S-1 §4.2\]; its exact weights were not available, so
//! ([`equality`], \[I\], `docs/algorithms.md#menu-based-templates`):
//!
//! ```text
//! n₁ ≜ n₂ = 0                               if the tag names differ
//!         = 0.35·[same class set]
//!         + 0.15·[same number of element children]
//!         + 0.25·(1 − |relIdx₁ − relIdx₂|)
//!         + 0.25·Jaccard(attributes₁, attributes₂)   otherwise
//! ```
//!
//! with `relIdx` = index among the parent's children / (children − 1) (0
//! for an only child) and the attributes compared as (name, value) pairs
//! without `href`, `src`, `style` and `id`s that contain digits (they
//! differ from page to page in one template). Text nodes are equal (1)
//! iff their whitespace-normalised texts are, else 0; "equal" means
//! `≜ ≥ τ`, τ = 0.7 \[I\]. Comments, the doctype and whitespace-only text
//! take no part (`docs/algorithms.md#menu-based-templates` pitfalls).
//!
//! Two departures, both \[I\], both measured on the Sphinx site of the
//! tests (`tests/menu_template.rs`) and both switchable in
//! [`EtdmConfig`]:
//!
//! - Deviation: classes and attributes that mark a navigation state
//!   (`current`, `active`, `aria-current`, …) are left out of `≜`
//!   ([`EtdmConfig::ignore_state`]), because a menu marks the shown
//!   page's entry, so that entry and its group are never equal to their
//!   counterparts. Without it, 27 of the 85 sidebar words were template;
//!   with it, 76.
//! - Deviation: children are paired best-first over all equal pairs
//!   ([`ChildMatching::BestFirst`]), not child by child in document order,
//!   because one unequal child otherwise hands every later sibling its
//!   neighbour's counterpart (45 of 85 sidebar words in order).
//!
//! **Attributes.** [`Document::parse`] keeps only the attributes the
//! library reads unless [`ParseOptions::keep_all_attributes`] is set:
//! `class`, `id`, `style`, `href`, `src`, `role`, `itemprop`, `title`,
//! `lang`, `type`, `name`, … are always there, so the class and position
//! terms are exact; the Jaccard term sees all attributes only with
//! `keep_all_attributes(true)`. Parse every page alike (for the paper's
//! equality, all with `keep_all_attributes(true)`): a `data-*` attribute
//! kept on one page and dropped on another lowers the score.
//!
//! [`template_html`] renders a template as a page a person can open, as
//! the paper's tool displays it (§5).
//!
//! [`ParseOptions::keep_all_attributes`]: crate::ParseOptions::keep_all_attributes
//!
//! ```
//! use gleaner::template::{menu_template, template_html, EtdmConfig};
//! use gleaner::{Document, ParseOptions};
//!
//! let page = |story: &str| {
//!     let html = format!("<nav><a href=/>Home</a> <a href=/news>News</a></nav>\
//!         <main><p>{story}</p></main><footer>© Example</footer>");
//!     Document::parse(html.as_bytes(), &ParseOptions::default().keep_all_attributes(true))
//! };
//! let (key, a, b) = (page("Key story.")?, page("Another.")?, page("A third.")?);
//! let mask = menu_template(&key, &[&a, &b], &EtdmConfig::default());
//! let html = template_html(&key, &mask);
//! assert!(html.contains("Home") && html.contains("© Example"));
//! assert!(html.contains("<main><p></p></main>") && !html.contains("Key story"));
//! # Ok::<(), gleaner::Error>(())
//! ```

use std::cmp::Ordering;

use html5ever::local_name;

use crate::document::tags::is_void;
use crate::document::{Document, NodeId, NodeKind};
use crate::error::{Error, Result};
use crate::render::escape_into;

/// How the children of two mapped nodes are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ChildMatching {
    /// The paper's loop \[S-1 Algorithm 2\]: each child of the key page's
    /// node in document order takes the unused equal child with the
    /// highest `≜`. Greedy and order-dependent: when the other page's
    /// counterpart of a child is not equal (a menu entry marked
    /// "current"), the child takes its neighbour's counterpart, the
    /// neighbour the next one's, and so on down the list.
    InOrder,
    /// All equal pairs by decreasing `≜` (ties in document order), each
    /// child used once \[I\]: a child whose counterpart is not equal is
    /// left unmapped instead of displacing its siblings.
    #[default]
    BestFirst,
}

/// Parameters of ETDM ([`menu_template`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct EtdmConfig {
    /// The equality threshold τ: two nodes are equal iff `≜ ≥ τ`. Higher
    /// is more precise, less complete \[S-1 §4.2\]. Default 0.7 \[I\].
    pub tau: f64,
    /// Weight of "same set of classes". Default 0.35 \[I\].
    pub class_weight: f64,
    /// Weight of "same number of element children". Default 0.15 \[I\].
    pub children_weight: f64,
    /// Weight of `1 − |relIdx₁ − relIdx₂|`. Default 0.25 \[I\].
    pub position_weight: f64,
    /// Weight of the attributes' Jaccard similarity. Default 0.25 \[I\].
    pub attributes_weight: f64,
    /// How the children of mapped nodes are paired. Default
    /// [`ChildMatching::BestFirst`] \[I\]; [`ChildMatching::InOrder`] is
    /// the paper's loop \[S-1\].
    pub matching: ChildMatching,
    /// Leave navigation-state markers out of the class and attribute
    /// terms: classes with a word `current`, `active` or `selected`
    /// (`current`, `toctree-l1 current`, `current-menu-item`, `is-active`),
    /// the classes `open`, `show`, `collapsed`, `expanded`, and the
    /// attributes `aria-current`, `aria-expanded`, `aria-selected`. A
    /// menu marks the entry of the page being shown, so the entry (and,
    /// in a grouped menu, its group) differs on every page of one
    /// template. Default true \[I\]; false is the plain \[I\] equality
    /// of `docs/algorithms.md#menu-based-templates`.
    pub ignore_state: bool,
    /// How far apart (in child index, after scaling the key page's list
    /// to the other's length) two children may be and still be compared.
    /// Bounds time and memory to `children × (2·window + 1)` per mapped
    /// node on pages with thousands of siblings; lists of up to
    /// `window + 1` children are compared in full. Default 64 \[I\].
    pub window: usize,
}

impl Default for EtdmConfig {
    fn default() -> EtdmConfig {
        EtdmConfig {
            tau: 0.7,
            class_weight: 0.35,
            children_weight: 0.15,
            position_weight: 0.25,
            attributes_weight: 0.25,
            matching: ChildMatching::BestFirst,
            ignore_state: true,
            window: 64,
        }
    }
}

impl EtdmConfig {
    /// Sets [`EtdmConfig::tau`].
    pub fn tau(mut self, tau: f64) -> EtdmConfig {
        self.tau = tau;
        self
    }

    /// Sets the four weights of `≜`: class set, element-children count,
    /// relative position, attributes.
    pub fn weights(mut self, class: f64, children: f64, position: f64, attributes: f64) -> Self {
        self.class_weight = class;
        self.children_weight = children;
        self.position_weight = position;
        self.attributes_weight = attributes;
        self
    }

    /// Sets [`EtdmConfig::matching`].
    pub fn matching(mut self, matching: ChildMatching) -> EtdmConfig {
        self.matching = matching;
        self
    }

    /// Sets [`EtdmConfig::ignore_state`].
    pub fn ignore_state(mut self, yes: bool) -> EtdmConfig {
        self.ignore_state = yes;
        self
    }

    /// Sets [`EtdmConfig::window`].
    pub fn window(mut self, children: usize) -> EtdmConfig {
        self.window = children;
        self
    }

    /// Checks the values.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when τ is not in \[0, 1\] or a weight is
    /// negative or not finite.
    pub fn validate(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.tau) {
            return Err(Error::InvalidConfig("etdm: tau must be in [0, 1]".into()));
        }
        let weights =
            [self.class_weight, self.children_weight, self.position_weight, self.attributes_weight];
        if weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(Error::InvalidConfig("etdm: weights must be ≥ 0".into()));
        }
        Ok(())
    }

    /// The node equality `≜` with these weights; see [`equality`].
    pub fn equality(&self, a: &Document, na: NodeId, b: &Document, nb: NodeId) -> f64 {
        let (fa, fb) = (Facts::of(a, na, self), Facts::of(b, nb, self));
        self.score(a, na, &fa, b, nb, &fb)
    }

    /// ETDM with these settings; see [`etdm`].
    pub fn etdm(&self, template_mask: &[bool], key: &Document, other: &Document) -> Vec<bool> {
        let (kl, ol) = (Layout::of(key, self), Layout::of(other, self));
        self.etdm_laid_out(template_mask, key, &kl, other, &ol)
    }

    fn score(
        &self,
        a: &Document,
        na: NodeId,
        fa: &Facts<'_>,
        b: &Document,
        nb: NodeId,
        fb: &Facts<'_>,
    ) -> f64 {
        match (a.kind(na), b.kind(nb)) {
            (NodeKind::Document, NodeKind::Document) => 1.0,
            (NodeKind::Text(_), NodeKind::Text(_)) => {
                f64::from(u8::from(same_words(a.text(na), b.text(nb))))
            }
            // Step [S-1 §3, Def. 3.2]: ETDM "forces equal labels".
            (NodeKind::Element(x), NodeKind::Element(y)) if x.name == y.name => {
                let class = f64::from(u8::from(fa.classes == fb.classes));
                let children = f64::from(u8::from(fa.element_children == fb.element_children));
                let position = 1.0 - (fa.position - fb.position).abs();
                self.class_weight * class
                    + self.children_weight * children
                    + self.position_weight * position
                    + self.attributes_weight * fa.attribute_similarity(fb)
            }
            _ => 0.0,
        }
    }

    fn etdm_laid_out(
        &self,
        mask: &[bool],
        key: &Document,
        kl: &Layout<'_>,
        other: &Document,
        ol: &Layout<'_>,
    ) -> Vec<bool> {
        let in_mask = |id: NodeId| mask.get(id.index()).copied().unwrap_or(false);
        let pages = Pages { key, kl, other, ol };
        let mut mapped = vec![false; key.len()];
        let (kr, or) = (key.root(), other.root());
        // Algorithm 2 [S-1]: a page whose root is not equal is skipped.
        if !in_mask(kr) || pages.score(self, kr, or) < self.tau {
            return mapped;
        }
        mapped[kr.index()] = true;
        // Explicit stack: the DOM may be hundreds of levels deep.
        let mut stack = vec![(kr, or)];
        while let Some((k, o)) = stack.pop() {
            let kc: Vec<NodeId> = kl.children(k).iter().copied().filter(|&c| in_mask(c)).collect();
            let oc = ol.children(o);
            let pairs = match self.matching {
                ChildMatching::InOrder => self.in_order(&pages, &kc, oc),
                ChildMatching::BestFirst => self.best_first(&pages, &kc, oc),
            };
            for (x, y) in pairs {
                if let Some(m) = mapped.get_mut(x.index()) {
                    *m = true;
                }
                stack.push((x, y));
            }
        }
        mapped
    }

    /// The other page's children that key child `i` of `n` is compared
    /// with: those within [`EtdmConfig::window`] of its scaled index.
    fn nearby<'o>(
        &self,
        i: usize,
        n: usize,
        oc: &'o [NodeId],
    ) -> impl Iterator<Item = (usize, &'o NodeId)> + 'o {
        let m = oc.len();
        let scaled = (i as u64).saturating_mul(m.saturating_sub(1) as u64);
        let centre = if n > 1 { (scaled / (n - 1) as u64) as usize } else { 0 };
        let start = centre.saturating_sub(self.window);
        oc.iter().enumerate().skip(start).take(self.window.saturating_mul(2).saturating_add(1))
    }

    /// The paper's loop: children of the key node in order, each taking
    /// the best unused equal child [S-1 Algorithm 2, `n₁ ≜max n₂`, with
    /// `N₂ \ nodes` forbidding reuse].
    fn in_order(&self, pages: &Pages<'_>, kc: &[NodeId], oc: &[NodeId]) -> Vec<(NodeId, NodeId)> {
        let mut used = vec![false; oc.len()];
        let mut pairs = Vec::new();
        for (i, &x) in kc.iter().enumerate() {
            let mut best: Option<(usize, f64)> = None;
            for (j, &y) in self.nearby(i, kc.len(), oc) {
                if used.get(j).copied().unwrap_or(true) {
                    continue;
                }
                let s = pages.score(self, x, y);
                if s >= self.tau && best.is_none_or(|(_, b)| s > b) {
                    best = Some((j, s));
                }
            }
            if let Some((j, _)) = best {
                if let (Some(u), Some(&y)) = (used.get_mut(j), oc.get(j)) {
                    *u = true;
                    pairs.push((x, y));
                }
            }
        }
        pairs
    }

    /// Deviation from the paper's in-order loop, because a single
    /// non-equal child (the "current" menu entry) otherwise shifts every
    /// later sibling onto its neighbour's counterpart: all equal pairs
    /// by decreasing `≜`, each node used once \[I\].
    fn best_first(&self, pages: &Pages<'_>, kc: &[NodeId], oc: &[NodeId]) -> Vec<(NodeId, NodeId)> {
        let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
        for (i, &x) in kc.iter().enumerate() {
            for (j, &y) in self.nearby(i, kc.len(), oc) {
                let s = pages.score(self, x, y);
                if s >= self.tau {
                    candidates.push((s, i, j));
                }
            }
        }
        candidates.sort_by(|p, q| {
            q.0.partial_cmp(&p.0).unwrap_or(Ordering::Equal).then((p.1, p.2).cmp(&(q.1, q.2)))
        });
        let (mut used_k, mut used_o) = (vec![false; kc.len()], vec![false; oc.len()]);
        let mut pairs = Vec::new();
        for (_, i, j) in candidates {
            let (Some(uk), Some(uo)) = (used_k.get(i), used_o.get(j)) else { continue };
            if *uk || *uo {
                continue;
            }
            if let (Some(&x), Some(&y)) = (kc.get(i), oc.get(j)) {
                used_k[i] = true;
                used_o[j] = true;
                pairs.push((x, y));
            }
        }
        pairs.sort_unstable();
        pairs
    }
}

/// The node equality `≜` of Alarte et al. 2015, S-1 (§3, §4.2) with the default weights
/// of [`EtdmConfig`] (see the [module docs](self)): 0 for different tag
/// names or node kinds, 1 for text nodes with the same words (or two
/// document roots), else the weighted sum of the class, children,
/// position and attribute terms, in \[0, 1\].
pub fn equality(a: &Document, na: NodeId, b: &Document, nb: NodeId) -> f64 {
    EtdmConfig::default().equality(a, na, b, nb)
}

/// One equal top-down mapping (Alarte et al. 2015, S-1 Def. 3.2, Algorithm 2's `ETDM`)
/// of the key page's nodes in `template_mask` (indexed by node id) into
/// `other`, with threshold `tau` and the default weights: which key-page
/// nodes are mapped. The result is a subset of the mask, closed upwards
/// (a mapped node's parent is mapped).
pub fn etdm(template_mask: &[bool], key: &Document, other: &Document, tau: f64) -> Vec<bool> {
    EtdmConfig::default().tau(tau).etdm(template_mask, key, other)
}

/// The template of `key` with respect to `others` (Alarte et al. 2015, S-1 Def. 3.3,
/// Algorithm 2): a mask over the key page's nodes, true for those mapped
/// by ETDM into **all** the other pages — usually the pages of its menu
/// found by [`complete_subdigraph`](super::menu::complete_subdigraph).
/// Comments, the doctype and whitespace-only text are never in it. With
/// no other pages the template is the whole key page, as in the paper.
///
/// Parse all pages with the same options, preferably
/// [`keep_all_attributes(true)`](crate::ParseOptions::keep_all_attributes)
/// (see the [module docs](self)).
pub fn menu_template(key: &Document, others: &[&Document], config: &EtdmConfig) -> Vec<bool> {
    let kl = Layout::of(key, config);
    // Step 1 [S-1]: template := key page (its significant nodes).
    let mut mask = vec![false; key.len()];
    if let Some(m) = mask.get_mut(key.root().index()) {
        *m = true;
    }
    for id in key.ids() {
        for &c in kl.children(id) {
            if let Some(m) = mask.get_mut(c.index()) {
                *m = true;
            }
        }
    }
    // Step 2 [S-1]: template := ETDM(template, p) for each page.
    for other in others {
        let ol = Layout::of(other, config);
        mask = config.etdm_laid_out(&mask, key, &kl, other, &ol);
    }
    mask
}

/// The key page and another page, laid out.
struct Pages<'a> {
    key: &'a Document,
    kl: &'a Layout<'a>,
    other: &'a Document,
    ol: &'a Layout<'a>,
}

impl Pages<'_> {
    /// `≜` of a key-page node and a node of the other page.
    fn score(&self, config: &EtdmConfig, x: NodeId, y: NodeId) -> f64 {
        match (self.kl.facts.get(x.index()), self.ol.facts.get(y.index())) {
            (Some(fx), Some(fy)) => config.score(self.key, x, fx, self.other, y, fy),
            _ => 0.0,
        }
    }
}

/// What `≜` reads of a node.
#[derive(Debug, Clone, Default)]
struct Facts<'d> {
    /// relIdx: index among the parent's significant children / (count − 1).
    position: f64,
    /// Number of element children.
    element_children: usize,
    /// The class names, sorted and unique.
    classes: Vec<&'d str>,
    /// Attribute (name, value) pairs but `class`, sorted and unique,
    /// without those that differ between pages of one template.
    attributes: Vec<(&'d str, &'d str)>,
    /// Whether the element has classes (state classes aside).
    has_class: bool,
}

impl<'d> Facts<'d> {
    /// The facts of one node, reading its parent's children.
    fn of(doc: &'d Document, id: NodeId, config: &EtdmConfig) -> Facts<'d> {
        let mut facts = Facts::element(doc, id, config);
        if let Some(parent) = doc.parent(id) {
            let siblings: Vec<NodeId> =
                doc.children(parent).filter(|&c| is_significant(doc, c)).collect();
            let index = siblings.iter().position(|&c| c == id).unwrap_or(0);
            facts.position = relative(index, siblings.len());
        }
        facts
    }

    /// The facts that do not depend on the siblings.
    fn element(doc: &'d Document, id: NodeId, config: &EtdmConfig) -> Facts<'d> {
        let Some(e) = doc.element(id) else { return Facts::default() };
        let state = |class: &str| config.ignore_state && is_state_class(class);
        let mut classes: Vec<&str> =
            e.attr("class").unwrap_or("").split_whitespace().filter(|c| !state(c)).collect();
        classes.sort_unstable();
        classes.dedup();
        let mut attributes: Vec<(&str, &str)> = e
            .attrs()
            .filter(|&(name, value)| name != "class" && !varies(name, value))
            .filter(|&(name, _)| !(config.ignore_state && is_state_attribute(name)))
            .collect();
        attributes.sort_unstable();
        attributes.dedup();
        let element_children = doc.children(id).filter(|&c| doc.element(c).is_some()).count();
        let has_class = !classes.is_empty();
        Facts { position: 0.0, element_children, classes, attributes, has_class }
    }

    /// Jaccard similarity of the attribute (name, value) pairs, `class`
    /// compared as a set of names (`class="a b"` = `class="b a"`); 1 for
    /// two elements without attributes.
    fn attribute_similarity(&self, other: &Facts<'_>) -> f64 {
        let (mut common, mut total) = common_and_total(&self.attributes, &other.attributes);
        total += usize::from(self.has_class) + usize::from(other.has_class);
        if self.has_class && other.has_class && self.classes == other.classes {
            common += 1;
        }
        let union = total - common;
        if union == 0 {
            1.0
        } else {
            common as f64 / union as f64
        }
    }
}

/// Both pages' nodes, laid out once: the significant children of every
/// node and the facts of every node.
struct Layout<'d> {
    children: Vec<Vec<NodeId>>,
    facts: Vec<Facts<'d>>,
}

impl<'d> Layout<'d> {
    fn of(doc: &'d Document, config: &EtdmConfig) -> Layout<'d> {
        let mut children: Vec<Vec<NodeId>> = vec![Vec::new(); doc.len()];
        let mut facts: Vec<Facts<'d>> =
            doc.ids().map(|id| Facts::element(doc, id, config)).collect();
        for id in doc.ids() {
            let kids: Vec<NodeId> = doc.children(id).filter(|&c| is_significant(doc, c)).collect();
            for (k, &c) in kids.iter().enumerate() {
                if let Some(f) = facts.get_mut(c.index()) {
                    f.position = relative(k, kids.len());
                }
            }
            if let Some(slot) = children.get_mut(id.index()) {
                *slot = kids;
            }
        }
        Layout { children, facts }
    }

    fn children(&self, id: NodeId) -> &[NodeId] {
        self.children.get(id.index()).map_or(&[], Vec::as_slice)
    }
}

/// relIdx: `index / (count − 1)`, 0 for an only child.
fn relative(index: usize, count: usize) -> f64 {
    if count > 1 {
        index as f64 / (count - 1) as f64
    } else {
        0.0
    }
}

/// Elements and text with some non-whitespace; not comments, the
/// doctype or whitespace-only text (`docs/algorithms.md#menu-based-templates` pitfalls).
fn is_significant(doc: &Document, id: NodeId) -> bool {
    match doc.kind(id) {
        NodeKind::Element(_) => true,
        NodeKind::Text(_) => !doc.text(id).trim().is_empty(),
        _ => false,
    }
}

/// Attributes left out of the Jaccard term \[I\]: links, sources (lazy
/// image sources and source sets too) and
/// inline styles, and ids with digits (generated per page).
fn varies(name: &str, value: &str) -> bool {
    matches!(name, "href" | "src" | "style")
        || crate::render::is_source_attribute(name)
        || (name == "id" && value.bytes().any(|b| b.is_ascii_digit()))
}

/// A class naming a navigation state (see [`EtdmConfig::ignore_state`]).
fn is_state_class(class: &str) -> bool {
    let lower = class.to_ascii_lowercase();
    matches!(lower.as_str(), "open" | "show" | "collapsed" | "expanded")
        || lower.split(['-', '_']).any(|w| matches!(w, "current" | "active" | "selected"))
}

/// An attribute naming a navigation state.
fn is_state_attribute(name: &str) -> bool {
    matches!(name, "aria-current" | "aria-expanded" | "aria-selected")
}

/// The number of items two sorted, unique lists share, and the sum of
/// their lengths.
fn common_and_total<T: Ord>(a: &[T], b: &[T]) -> (usize, usize) {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (common, a.len() + b.len())
}

/// True when two texts have the same words (whitespace-normalised).
fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Elements left out of [`template_html`] with their content: scripts,
/// styles, embedded documents and objects, the head's metadata, and
/// raw-text or foreign content that could swallow the rest of the page.
fn is_unsafe(doc: &Document, id: NodeId) -> bool {
    doc.name(id).is_some_and(|name| {
        matches!(
            *name,
            local_name!("head")
                | local_name!("script")
                | local_name!("style")
                | local_name!("link")
                | local_name!("meta")
                | local_name!("base")
                | local_name!("title")
                | local_name!("iframe")
                | local_name!("frame")
                | local_name!("frameset")
                | local_name!("object")
                | local_name!("embed")
                | local_name!("applet")
                | local_name!("noscript")
                | local_name!("noembed")
                | local_name!("noframes")
                | local_name!("template")
                | local_name!("plaintext")
                | local_name!("xmp")
                | local_name!("textarea")
                | local_name!("svg")
                | local_name!("math")
        )
    })
}

/// Attributes [`template_html`] keeps: none that runs code or loads
/// anything.
const KEPT_ATTRIBUTES: &[&str] = &["id", "class", "href", "title", "alt", "role", "lang"];

/// The template as an HTML page a person can open (Alarte et al. 2015, S-1 §5: the tool
/// shows the template "in the browser as any other webpage"): the key
/// page's `<body>` restricted to the nodes in `mask` (indexed by node id,
/// as [`menu_template`] returns), with the text and structure of the
/// template and the whitespace between its nodes.
///
/// Safe to open: text and attribute values are escaped; scripts, styles,
/// frames, objects, forms' raw text, SVG and MathML are left out; only
/// `id`, `class`, `href`, `title`, `alt`, `role` and `lang` are kept, an
/// `href` only with a harmless scheme (resolved against the page's URL
/// when it has one); elements with names that are not plain
/// `[a-z][a-z0-9-]*` are replaced by their content.
pub fn template_html(doc: &Document, mask: &[bool]) -> String {
    let in_mask = |id: NodeId| mask.get(id.index()).copied().unwrap_or(false);
    let base = doc.url().and_then(|u| url::Url::parse(u).ok());
    let mut out = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">");
    out.push_str("<title>Template");
    if let Some(u) = doc.url() {
        out.push_str(" of ");
        escape_into(&mut out, u);
    }
    out.push_str("</title></head>\n<body>");
    // Open elements: (node, the tag written for it, if any).
    let mut open: Vec<(NodeId, Option<&str>)> = Vec::new();
    let mut id = NodeId(0);
    let end = NodeId(doc.len() as u32);
    while id < end {
        while let Some(&(top, tag)) = open.last() {
            if doc.contains(top, id) {
                break;
            }
            open.pop();
            close(&mut out, tag);
        }
        let parent_in = doc.parent(id).is_some_and(in_mask);
        if !in_mask(id) || is_unsafe(doc, id) {
            // Whitespace between template nodes keeps words apart.
            let text = doc.text(id);
            if parent_in && doc.is_text(id) && text.trim().is_empty() {
                out.push_str(text);
            }
            id = doc.subtree_end(id).max(NodeId(id.0 + 1));
            continue;
        }
        match doc.kind(id) {
            NodeKind::Text(_) => escape_into(&mut out, doc.text(id)),
            NodeKind::Element(e) => {
                let name: &str = e.name();
                let plain = name.starts_with(|c: char| c.is_ascii_lowercase())
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                let written = plain && !matches!(name, "html" | "body");
                if written {
                    out.push('<');
                    out.push_str(name);
                    for (attr, value) in e.attrs() {
                        if !KEPT_ATTRIBUTES.contains(&attr) {
                            continue;
                        }
                        let value = if attr == "href" {
                            if !crate::render::is_safe_url(value) {
                                continue;
                            }
                            match base.as_ref().and_then(|b| b.join(value.trim()).ok()) {
                                Some(u) => String::from(u),
                                None => value.to_string(),
                            }
                        } else {
                            value.to_string()
                        };
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        escape_into(&mut out, &value);
                        out.push('"');
                    }
                    out.push('>');
                }
                if !is_void(&e.name) {
                    open.push((id, written.then_some(name)));
                }
            }
            _ => {}
        }
        id = NodeId(id.0 + 1);
    }
    while let Some((_, tag)) = open.pop() {
        close(&mut out, tag);
    }
    out.push_str("</body></html>\n");
    out
}

fn close(out: &mut String, tag: Option<&str>) {
    if let Some(t) = tag {
        out.push_str("</");
        out.push_str(t);
        out.push('>');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn doc(html: &str) -> Document {
        let options = ParseOptions::default().keep_all_attributes(true);
        Document::parse(html.as_bytes(), &options).expect("parse")
    }

    /// The first element with this `id` attribute.
    fn by_id(d: &Document, id: &str) -> NodeId {
        d.ids().find(|&n| d.attr(n, "id") == Some(id)).expect("element with id")
    }

    /// The text of the mask's text nodes, joined by `|`.
    fn kept_text(d: &Document, mask: &[bool]) -> String {
        let texts: Vec<&str> = d
            .ids()
            .filter(|&n| d.is_text(n) && mask[n.index()])
            .map(|n| d.text(n).trim())
            .collect();
        texts.join("|")
    }

    #[test]
    fn equal_elements_score_one() {
        let a = doc(r#"<div id=x class="b a" data-k=v><p>1</p></div>"#);
        let b = doc(r#"<div id=x class="a b" data-k=v><p>2</p></div>"#);
        assert!((equality(&a, by_id(&a, "x"), &b, by_id(&b, "x")) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn different_tags_score_zero() {
        let a = doc("<div id=x></div>");
        let b = doc("<section id=x></section>");
        assert_eq!(equality(&a, by_id(&a, "x"), &b, by_id(&b, "x")), 0.0);
    }

    #[test]
    fn each_term_weighs_as_documented() {
        // Same tag, other class: loses 0.35 and the class pair's share of
        // the Jaccard term ({id=x, class=a} vs {id=x, class=b}: 1/3).
        let a = doc("<div id=x class=a></div>");
        let b = doc("<div id=x class=b></div>");
        let s = equality(&a, by_id(&a, "x"), &b, by_id(&b, "x"));
        assert!((s - (0.15 + 0.25 + 0.25 / 3.0)).abs() < 1e-12, "{s}");
        // Other number of element children: loses 0.15.
        let a = doc("<ul id=x><li>1</li></ul>");
        let b = doc("<ul id=x><li>1</li><li>2</li></ul>");
        let s = equality(&a, by_id(&a, "x"), &b, by_id(&b, "x"));
        assert!((s - 0.85).abs() < 1e-12, "{s}");
        // First of two vs second of two: relIdx 0 vs 1 loses 0.25.
        let a = doc("<p id=x>a</p><p>b</p>");
        let b = doc("<p>b</p><p id=x>a</p>");
        let s = equality(&a, by_id(&a, "x"), &b, by_id(&b, "x"));
        assert!((s - 0.75).abs() < 1e-12, "{s}");
    }

    #[test]
    fn page_specific_attributes_are_ignored() {
        let a = doc(r#"<a id=x href="/one" style="color:red">1</a><div id=post-12></div>"#);
        let b = doc(r#"<a id=x href="/two">2</a><div id=post-34></div>"#);
        assert!((equality(&a, by_id(&a, "x"), &b, by_id(&b, "x")) - 1.0).abs() < 1e-12);
        let (da, db) = (by_id(&a, "post-12"), by_id(&b, "post-34"));
        assert!((equality(&a, da, &b, db) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn texts_are_equal_iff_their_words_are() {
        let a = doc("<p id=x>  Hello\n  world </p><p id=y>Other</p>");
        let b = doc("<p id=x>Hello world</p><p id=y>Different</p>");
        let text = |d: &Document, id: &str| by_id(d, id).index() as u32 + 1;
        let (ax, bx) = (NodeId(text(&a, "x")), NodeId(text(&b, "x")));
        assert_eq!(equality(&a, ax, &b, bx), 1.0);
        let (ay, by) = (NodeId(text(&a, "y")), NodeId(text(&b, "y")));
        assert_eq!(equality(&a, ay, &b, by), 0.0);
        // A text node is never equal to an element.
        assert_eq!(equality(&a, ax, &b, by_id(&b, "x")), 0.0);
    }

    #[test]
    fn identical_structure_maps_fully() {
        let html =
            "<!-- c --><nav><a href=/>Home</a> <a href=/x>X</a></nav><main><p>Same</p></main>";
        let (a, b) = (doc(html), doc(html));
        let mask = menu_template(&a, &[&b], &EtdmConfig::default());
        for id in a.ids() {
            let significant = id == a.root() || is_significant(&a, id);
            assert_eq!(mask[id.index()], significant, "{id:?} {:?}", a.kind(id));
        }
    }

    #[test]
    fn page_specific_subtrees_stay_unmapped() {
        let key = doc("<nav><a href=/>Home</a></nav><main><h1>Key title</h1>\
            <p>Key text</p><aside id=only-here><p>Box</p></aside></main><footer>Foot</footer>");
        let other = doc("<nav><a href=/>Home</a></nav><main><h1>Other title</h1>\
            <p>Other text</p></main><footer>Foot</footer>");
        let mask = menu_template(&key, &[&other], &EtdmConfig::default());
        assert_eq!(kept_text(&key, &mask), "Home|Foot");
        assert!(!mask[by_id(&key, "only-here").index()]);
        // The structure around the content is template.
        let main = key.ids().find(|&n| key.is(n, local_name!("main"))).expect("main");
        assert!(mask[main.index()]);
    }

    #[test]
    fn the_template_is_what_all_pages_share() {
        let key = doc("<ul><li>A</li><li>B</li><li>C</li></ul>");
        let p1 = doc("<ul><li>A</li><li>B</li><li>X</li></ul>");
        let p2 = doc("<ul><li>A</li><li>Y</li><li>C</li></ul>");
        let mask = menu_template(&key, &[&p1, &p2], &EtdmConfig::default());
        assert_eq!(kept_text(&key, &mask), "A");
        // With no other page, the template is the key page.
        let mask = menu_template(&key, &[], &EtdmConfig::default());
        assert_eq!(kept_text(&key, &mask), "A|B|C");
    }

    #[test]
    fn a_current_menu_entry_does_not_shift_its_siblings() {
        let menu = |current: usize| {
            let items: String = (0..6)
                .map(|i| {
                    let class = if i == current { "item current" } else { "item" };
                    format!("<li class=\"{class}\"><a href=/p{i}>Page {i}</a></li>")
                })
                .collect();
            doc(&format!("<ul>{items}</ul>"))
        };
        let (key, other) = (menu(0), menu(2));
        // The "current" marker is ignored: the whole menu is template.
        let mask = menu_template(&key, &[&other], &EtdmConfig::default());
        assert_eq!(kept_text(&key, &mask), "Page 0|Page 1|Page 2|Page 3|Page 4|Page 5");
        // With it, the two marked entries are not equal to their
        // counterparts; best-first leaves just them out.
        let plain = EtdmConfig::default().ignore_state(false);
        let best = menu_template(&key, &[&other], &plain);
        assert_eq!(kept_text(&key, &best), "Page 1|Page 3|Page 4|Page 5");
        // The paper's in-order loop maps Page 2 onto Page 3's entry, and so
        // on: the entries after the other page's current one lose their
        // text.
        let in_order = menu_template(&key, &[&other], &plain.matching(ChildMatching::InOrder));
        assert_eq!(kept_text(&key, &in_order), "Page 1");
    }

    #[test]
    fn etdm_respects_the_mask_and_tau() {
        let key = doc("<div id=a class=x><p>t</p></div><div id=b class=y><p>u</p></div>");
        let other = doc("<div id=a class=x><p>t</p></div><div id=b class=z><p>u</p></div>");
        let all = vec![true; key.len()];
        let mapped = etdm(&all, &key, &other, 0.7);
        assert!(mapped[by_id(&key, "a").index()]);
        assert!(!mapped[by_id(&key, "b").index()]);
        // τ = 0: anything with the same tag is equal.
        let mapped = etdm(&all, &key, &other, 0.0);
        assert!(mapped[by_id(&key, "b").index()]);
        // A node outside the mask is never mapped, nor its subtree.
        let mut mask = all.clone();
        mask[by_id(&key, "a").index()] = false;
        let mapped = etdm(&mask, &key, &other, 0.7);
        assert!(key.subtree(by_id(&key, "a")).all(|n| !mapped[n.index()]));
        // An empty or short mask maps nothing.
        assert!(!etdm(&[], &key, &other, 0.7).contains(&true));
    }

    #[test]
    fn deep_pages_do_not_overflow() {
        let html = "<div>".repeat(2_000) + "x";
        let (a, b) = (doc(&html), doc(&html));
        let mask = menu_template(&a, &[&b], &EtdmConfig::default());
        assert!(mask.iter().filter(|&&m| m).count() > 500);
        assert!(template_html(&a, &mask).contains('x'));
    }

    #[test]
    fn wide_pages_are_compared_within_a_window() {
        let html = "<p>a</p>".repeat(5_000);
        let (a, b) = (doc(&html), doc(&format!("<p>b</p>{html}")));
        let mask = menu_template(&a, &[&b], &EtdmConfig::default());
        let texts = a.ids().filter(|&n| a.is_text(n) && mask[n.index()]).count();
        assert!(texts > 4_900, "{texts}");
    }

    #[test]
    fn template_html_is_escaped_and_harmless() {
        let d = doc(r#"<head><title>T</title><script>alert(1)</script></head><body class="b">
            <a href="javascript:alert(1)" onclick="x()" class="m&quot;">1 &lt; 2 &amp; 3</a>
            <a href="/ok" title='"q"'>ok</a><img src=x.png alt="a<b"><style>p{}</style>
            <iframe src=/f></iframe><svg><script>bad()</script></svg><br></body>"#);
        let mask = vec![true; d.len()];
        let html = template_html(&d, &mask);
        assert!(html.contains(r#"<a class="m&quot;">1 &lt; 2 &amp; 3</a>"#), "{html}");
        assert!(html.contains(r#"<a href="/ok" title="&quot;q&quot;">ok</a>"#), "{html}");
        assert!(html.contains(r#"<img alt="a&lt;b">"#), "{html}");
        assert!(html.contains("<br>") && !html.contains("</br>"), "{html}");
        for bad in ["alert", "onclick", "script", "<style", "iframe", "svg", "bad()", "x.png"] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
    }

    #[test]
    fn template_html_resolves_links_against_the_page_url() {
        let options = ParseOptions::default()
            .url(Some("http://site.test/a/".into()))
            .keep_all_attributes(true);
        let d = Document::parse(br#"<a href="../b/">B</a>"#, &options).expect("parse");
        let html = template_html(&d, &vec![true; d.len()]);
        assert!(html.contains(r#"<a href="http://site.test/b/">B</a>"#), "{html}");
        assert!(html.contains("<title>Template of http://site.test/a/</title>"), "{html}");
    }

    fn soup() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => proptest::sample::select(vec![
                "<div class=a>", "</div>", "<p>", "</p>", "<a href='../x?y#z'>", "</a>",
                "<ul><li class=current>", "</li></ul>", "<script>x<y</script>", "<!-- c -->",
                "<svg><a>", "<table><tr><td>", "<base href='//h/'>", "<textarea>",
                "<x\"y>", "&amp;&lt;", " ", "\n",
            ])
            .prop_map(String::from),
            1 => "[a-zA-Z<>\"'&= ]{0,12}",
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #[test]
        fn any_pages_map_and_render_without_panics(a in soup(), b in soup()) {
            let (key, other) = (doc(&a), doc(&b));
            for config in [EtdmConfig::default(), EtdmConfig::default().matching(ChildMatching::InOrder)] {
                let mask = menu_template(&key, &[&other, &key], &config);
                for id in key.ids().filter(|&n| mask[n.index()]) {
                    // Closed upwards, and only significant nodes.
                    let parent_in = key.parent(id).is_none_or(|p| mask[p.index()]);
                    proptest::prop_assert!(parent_in);
                    proptest::prop_assert!(id == key.root() || is_significant(&key, id));
                }
                let html = template_html(&key, &mask);
                proptest::prop_assert!(!html.contains("<script") && !html.contains("<svg"));
                let again = doc(&html);
                let bodies = again.ids().filter(|&n| again.is(n, local_name!("body"))).count();
                proptest::prop_assert_eq!(bodies, 1);
            }
            let _ = crate::template::menu::links(&key, "http://h.test/a/b");
        }
    }

    #[test]
    fn config_validation() {
        assert!(EtdmConfig::default().validate().is_ok());
        assert!(EtdmConfig::default().tau(1.5).validate().is_err());
        assert!(EtdmConfig::default().weights(-1.0, 0.0, 0.0, 0.0).validate().is_err());
        assert!(EtdmConfig::default().tau(f64::NAN).validate().is_err());
    }
}
