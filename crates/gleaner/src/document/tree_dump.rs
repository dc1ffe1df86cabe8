//! The html5lib tree-construction test format (`| <html>`, `|   "text"`,
//! …) of a built tree, for the conformance test against
//! `html5lib-tests/tree-construction` (see its README: elements as
//! `<name>` or `<svg name>`/`<math name>`, attributes sorted on the
//! lines below, a `<template>`'s content under `content`).

use std::fmt::Write;

use markup5ever::ns;

use super::sink::{BuildData, BuildNode, NONE};

/// The tree under `nodes[0]` in the html5lib format, one line per node
/// and attribute, each ending in a newline.
pub(crate) fn dump(nodes: &[BuildNode]) -> String {
    let mut out = String::new();
    // (node, depth), children pushed in reverse so they pop in order.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    push_children(nodes, 0, 0, &mut stack);
    while let Some((id, depth)) = stack.pop() {
        let Some(node) = nodes.get(id as usize) else { continue };
        let indent = "  ".repeat(depth);
        match &node.data {
            BuildData::Document | BuildData::Fragment => {}
            BuildData::Doctype { name, public_id, system_id } => {
                let _ = if public_id.is_empty() && system_id.is_empty() {
                    writeln!(out, "| {indent}<!DOCTYPE {name}>")
                } else {
                    writeln!(out, "| {indent}<!DOCTYPE {name} \"{public_id}\" \"{system_id}\">")
                };
            }
            BuildData::Comment(text) => {
                let _ = writeln!(out, "| {indent}<!-- {text} -->");
            }
            BuildData::Text(text) => {
                let _ = writeln!(out, "| {indent}\"{text}\"");
            }
            BuildData::Element { name, attrs, template_contents } => {
                let prefix = match name.ns {
                    ns!(svg) => "svg ",
                    ns!(mathml) => "math ",
                    _ => "",
                };
                let _ = writeln!(out, "| {indent}<{prefix}{}>", name.local);
                let mut shown: Vec<String> = attrs
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
                    .collect();
                shown.sort();
                for a in shown {
                    let _ = writeln!(out, "| {indent}  {a}");
                }
                if *template_contents != NONE {
                    let _ = writeln!(out, "| {indent}  content");
                    // The content after this element's own children (none:
                    // a template's children go to its content).
                    push_children(nodes, id, depth + 1, &mut stack);
                    push_children(nodes, *template_contents, depth + 2, &mut stack);
                    continue;
                }
            }
        }
        push_children(nodes, id, depth + 1, &mut stack);
    }
    out
}

fn push_children(nodes: &[BuildNode], parent: u32, depth: usize, stack: &mut Vec<(u32, usize)>) {
    let Some(p) = nodes.get(parent as usize) else { return };
    let mut child = p.last_child;
    while child != NONE {
        stack.push((child, depth));
        child = nodes.get(child as usize).map_or(NONE, |c| c.prev);
    }
}
