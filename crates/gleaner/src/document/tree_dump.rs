//! The html5lib tree-construction test format (`| <html>`, `|   "text"`,
//! …) of a built tree, for the conformance test against
//! `html5lib-tests/tree-construction` (see its README: elements as
//! `<name>` or `<svg name>`/`<math name>`, attributes sorted on the
//! lines below, a `<template>`'s content under `content`).

use std::fmt::Write;

use markup5ever::ns;

use super::sink::{prev_sibling, BuiltTree, ElementNs, NONE};
use markup5ever::LocalName;

use super::{Document, Element, Node, NodeId, NodeKind};

/// The tree under the root in the html5lib format, one line per node
/// and attribute, each ending in a newline. Doctypes, comments and
/// attribute namespaces come from the tree's [`Details`](super::sink::Details)
/// (empty without them).
pub(crate) fn dump(tree: &BuiltTree) -> String {
    let mut out = String::new();
    let details = tree.details.as_ref();
    // (node, depth), children pushed in reverse so they pop in order.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    push_children(tree, 0, 0, &mut stack);
    while let Some((id, depth)) = stack.pop() {
        let Some(node) = tree.nodes.get(id as usize) else { continue };
        let indent = "  ".repeat(depth);
        let element = node.name_index().and_then(|i| tree.names.name(i));
        match node.name_or_kind {
            Node::DOCUMENT => {}
            Node::DOCTYPE => {
                let [name, public_id, system_id] =
                    details.and_then(|d| d.doctypes.get(&id)).cloned().unwrap_or_default();
                let _ = if public_id.is_empty() && system_id.is_empty() {
                    writeln!(out, "| {indent}<!DOCTYPE {name}>")
                } else {
                    writeln!(out, "| {indent}<!DOCTYPE {name} \"{public_id}\" \"{system_id}\">")
                };
            }
            Node::COMMENT => {
                let text = details.and_then(|d| d.comments.get(&id)).map_or("", |t| &**t);
                let _ = writeln!(out, "| {indent}<!-- {text} -->");
            }
            _ if node.is_text() => {
                let _ = writeln!(out, "| {indent}\"{}\"", tree.text(id));
            }
            _ => {
                // (Every element has its name; a missing one shows empty.)
                let name = element.cloned().unwrap_or_default();
                let prefix = match tree.namespaces.get(id as usize) {
                    Some(ElementNs::Svg) => "svg ",
                    Some(ElementNs::MathMl) => "math ",
                    _ => "",
                };
                let _ = writeln!(out, "| {indent}<{prefix}{name}>");
                let mut shown: Vec<String> = match details.and_then(|d| d.attrs.get(&id)) {
                    Some(attrs) => attrs
                        .iter()
                        .map(|a| {
                            let prefix = match a.name.ns {
                                ns!(xlink) => "xlink ",
                                ns!(xml) => "xml ",
                                ns!(xmlns) => "xmlns ",
                                _ => "",
                            };
                            format!("{prefix}{}=\"{}\"", a.name.local, a.value)
                        })
                        .collect(),
                    None => {
                        let element = Element { name: name.clone() };
                        let run = node.attribute_run().unwrap_or(0..0);
                        let attrs = tree.attrs.of(&element, run);
                        attrs.attrs().map(|(n, v)| format!("{n}=\"{v}\"")).collect()
                    }
                };
                shown.sort();
                for a in shown {
                    let _ = writeln!(out, "| {indent}  {a}");
                }
                if let Some(&contents) = tree.templates.get(&id) {
                    let _ = writeln!(out, "| {indent}  content");
                    // The content after this element's own children (none:
                    // a template's children go to its content).
                    push_children(tree, id, depth + 1, &mut stack);
                    push_children(tree, contents, depth + 2, &mut stack);
                    continue;
                }
            }
        }
        push_children(tree, id, depth + 1, &mut stack);
    }
    out
}

fn push_children(tree: &BuiltTree, parent: u32, depth: usize, stack: &mut Vec<(u32, usize)>) {
    let Some(&last) = tree.last_children.get(parent as usize) else { return };
    let mut child = last;
    while child != NONE {
        stack.push((child, depth));
        child = tree.nodes.get(child as usize).map_or(NONE, prev_sibling);
    }
}

/// The line of a node in an outline: its kind, and an element's name or
/// a text node's text.
fn outline_label(kind: &NodeKind<'_>, name: Option<&LocalName>, text: &str) -> String {
    match kind {
        NodeKind::Document => "#document".to_string(),
        NodeKind::Doctype => "<!DOCTYPE>".to_string(),
        NodeKind::Comment => "<!-- -->".to_string(),
        NodeKind::Text(_) => format!("{text:?}"),
        NodeKind::Element(_) => format!("<{}>", name.map_or("", |n| &**n)),
    }
}

/// The nodes of the built tree reachable from its root, before it is laid
/// out, one line each (kind, name or text, indented by depth); a
/// `<template>`'s content is left out, as the laid-out document leaves it
/// out. Compared with [`document_outline`] of the document made of the
/// same page, it checks [`BuiltTree::lay_out`](super::sink::BuiltTree::lay_out).
pub(crate) fn built_outline(tree: &BuiltTree) -> String {
    let mut out = String::new();
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    while let Some((id, depth)) = stack.pop() {
        let Some(node) = tree.nodes.get(id as usize) else { continue };
        let name = node.name_index().and_then(|i| tree.names.name(i));
        let label = match node.name_or_kind {
            Node::DOCUMENT => outline_label(&NodeKind::Document, None, ""),
            Node::DOCTYPE => outline_label(&NodeKind::Doctype, None, ""),
            Node::COMMENT => outline_label(&NodeKind::Comment, None, ""),
            _ if node.is_text() => outline_label(&NodeKind::Text(0..0), None, tree.text(id)),
            _ => format!("<{}>", name.map_or("", |n| &**n)),
        };
        let _ = writeln!(out, "{}{label}", "  ".repeat(depth));
        push_children(tree, id, depth + 1, &mut stack);
    }
    out
}

/// The laid-out document's nodes as [`built_outline`] shows a built tree,
/// walked with [`Document::children`]. A line `! …` marks what the
/// layout got wrong: a child whose parent is not the node it is listed
/// under, or nodes in the document that the walk does not reach.
pub(crate) fn document_outline(doc: &Document) -> String {
    let mut out = String::new();
    let mut stack: Vec<(NodeId, usize)> = vec![(doc.root(), 0)];
    let mut reached = 0usize;
    while let Some((id, depth)) = stack.pop() {
        reached += 1;
        let label = outline_label(&doc.kind(id), doc.name(id), doc.text(id));
        let _ = writeln!(out, "{}{label}", "  ".repeat(depth));
        let children: Vec<NodeId> = doc.children(id).collect();
        for &child in children.iter().rev() {
            if doc.parent(child) != Some(id) {
                let parent = doc.parent(child);
                let _ = writeln!(
                    out,
                    "! node {} listed under {}, its parent {parent:?}",
                    child.0, id.0
                );
            }
            stack.push((child, depth + 1));
        }
    }
    if reached != doc.len() {
        let _ = writeln!(out, "! {reached} nodes reached of {}", doc.len());
    }
    out
}
