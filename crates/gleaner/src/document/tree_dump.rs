//! The html5lib tree-construction test format (`| <html>`, `|   "text"`,
//! …) of a built tree, for the conformance test against
//! `html5lib-tests/tree-construction` (see its README: elements as
//! `<name>` or `<svg name>`/`<math name>`, attributes sorted on the
//! lines below, a `<template>`'s content under `content`).

use std::fmt::Write;

use markup5ever::ns;

use super::sink::{prev, BuiltTree, ElementNs, NONE};
use super::{Element, Node};

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
        child = tree.nodes.get(child as usize).map_or(NONE, prev);
    }
}
