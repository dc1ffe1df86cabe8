//! The html5lib tree-construction test format of a page's tree, built by
//! gleaner's parse and by html5ever alone, for the conformance tests
//! (`tests/html5lib_tree.rs`, `tests/own_tree_builder.rs`; WHATWG
//! §13.2.6; `docs/tests.md`). Not part of the API: built
//! with the `internals` feature (and in the crate's own unit tests).

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::ParseOpts;

use super::sink::ArenaSink;
use super::tree_feed::{build_tree, FeedOptions, TreeBuilderKind, TreeLimits};
use super::{tree_dump, Deadline, ParseOptions};

/// The tree [`Document::parse`](super::Document::parse) builds for
/// `html` (its default limits, every attribute and comment kept), in
/// the html5lib format; `scripting` is the scripting flag.
pub fn gleaner_tree(html: &str, scripting: bool) -> String {
    tree_with(html, scripting, TreeBuilderKind::Html5ever)
}

/// [`gleaner_tree`] with gleaner's own tree builder.
pub fn own_tree(html: &str, scripting: bool) -> String {
    tree_with(html, scripting, TreeBuilderKind::Own)
}

fn tree_with(html: &str, scripting: bool, tree_builder: TreeBuilderKind) -> String {
    let limits = TreeLimits::of(&ParseOptions::default().keep_all_attributes(true));
    let options = FeedOptions { limits, scripting, keep_everything: true, tree_builder };
    match build_tree(html, &options, &Deadline::never()) {
        Ok(built) => tree_dump::dump(&built.tree),
        Err(_) => String::new(),
    }
}

/// The tree `tree_builder` builds for `html` with the options of
/// [`Document::parse_str`](super::Document::parse_str) (every attribute
/// kept), reachable from its root, next to the document that parse
/// makes of `html`, laid out, in the same outline: equal unless
/// `BuiltTree::lay_out` (the tree store's, internal) misplaced a
/// node (a `<template>`'s content, not in the document, left out of
/// both). Empty strings when the page is refused.
pub fn layout_outlines(html: &str, tree_builder: TreeBuilderKind) -> (String, String) {
    let options = ParseOptions::default().keep_all_attributes(true).tree_builder(tree_builder);
    let built = match build_tree(html, &FeedOptions::of(&options), &Deadline::never()) {
        Ok(built) => tree_dump::built_outline(&built.tree),
        Err(_) => String::new(),
    };
    let laid_out = match super::Document::parse_str(html, &options) {
        Ok(doc) => tree_dump::document_outline(&doc),
        Err(_) => String::new(),
    };
    (built, laid_out)
}

/// The tree html5ever's own tokenizer and tree builder make of `html`,
/// in the html5lib format.
pub fn html5ever_tree(html: &str, scripting: bool) -> String {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: scripting, ..Default::default() },
        ..Default::default()
    };
    tree_dump::dump(&html5ever::parse_document(ArenaSink::with_details(), opts).one(html))
}
