//! Element classes that the algorithms share: block-level, void, invisible,
//! raw text.
//!
//! The block-level set is jusText's and boilerpipe's
//! (`p div table tr td th ul ol li dl dt dd h1–h6 blockquote pre form center
//! fieldset address`) plus the HTML5 sectioning elements
//! (`docs/algorithms.md#blocks`, \[R: jusText doc/algorithm.rst\], \[I\]
//! for the HTML5 additions).

use markup5ever::{local_name, LocalName};

/// Elements that start a new text block: a paragraph break in text output
/// and a block boundary for block-based algorithms.
pub fn is_block(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("body")
            | local_name!("caption")
            | local_name!("center")
            | local_name!("dd")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("frameset")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("hr")
            | local_name!("html")
            | local_name!("legend")
            | local_name!("li")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("option")
            | local_name!("p")
            | local_name!("plaintext")
            | local_name!("pre")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("table")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr")
            | local_name!("ul")
            | local_name!("xmp")
    )
}

/// Elements whose text a reader never sees: `<script>`, `<style>`,
/// `<noscript>` (a scripting browser hides it), `<template>`, the `<head>`
/// (the title is metadata, not body text), embedded objects, and media
/// elements (`<video>`, `<audio>`: their text is the fallback a browser
/// without them shows, "Your browser does not support the video tag").
pub fn is_invisible(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("head")
            | local_name!("title")
            | local_name!("iframe")
            | local_name!("object")
            | local_name!("embed")
            | local_name!("applet")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("svg")
            | local_name!("canvas")
            | local_name!("datalist")
            | local_name!("select")
            | local_name!("textarea")
            | local_name!("button")
            | local_name!("map")
            | local_name!("video")
            | local_name!("audio")
    )
}

/// Elements that never have content (WHATWG §13.1.2 "void elements").
pub fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
            | local_name!("param")
            | local_name!("keygen")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("frame")
    )
}

/// How the tokenizer reads an element's content (WHATWG §13.2.5.1–13.2.5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentModel {
    /// Markup is parsed.
    Normal,
    /// Character references are decoded, tags are text (`<title>`,
    /// `<textarea>`).
    RcData,
    /// Everything up to the end tag is text (`<script>`, `<style>`, …).
    RawText,
    /// Everything to the end of the input is text.
    PlainText,
}

/// The content model of an element's start tag, as a scripting browser sees
/// it (so `<noscript>` is raw text, as html5ever parses it by default).
pub fn content_model(name: &LocalName) -> ContentModel {
    match *name {
        local_name!("title") | local_name!("textarea") => ContentModel::RcData,
        local_name!("script")
        | local_name!("style")
        | local_name!("xmp")
        | local_name!("iframe")
        | local_name!("noembed")
        | local_name!("noframes")
        | local_name!("noscript") => ContentModel::RawText,
        local_name!("plaintext") => ContentModel::PlainText,
        _ => ContentModel::Normal,
    }
}

/// Elements whose content is removed with its tags before source-level
/// algorithms count anything (`docs/algorithms.md#source-normalisation` step 1 \[S-2, S-3\]).
pub fn is_source_noise(name: &LocalName) -> bool {
    matches!(*name, local_name!("script") | local_name!("style") | local_name!("noscript"))
}

/// Headings `h1`–`h6`, with their level.
pub fn heading_level(name: &LocalName) -> Option<u8> {
    Some(match *name {
        local_name!("h1") => 1,
        local_name!("h2") => 2,
        local_name!("h3") => 3,
        local_name!("h4") => 4,
        local_name!("h5") => 5,
        local_name!("h6") => 6,
        _ => return None,
    })
}

/// A short name lower-cased (ASCII letters only, as the tokenizer does)
/// into a buffer of `N` bytes, to `match` against byte-string literals
/// without allocating or hashing.
pub(crate) struct LowerName<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> LowerName<N> {
    /// `raw` lower-cased; `None` when it is longer than `N` bytes (so none
    /// of the literals it is matched against).
    pub(crate) fn of(raw: &[u8]) -> Option<LowerName<N>> {
        if raw.len() > N {
            return None;
        }
        let mut bytes = [0u8; N];
        for (l, r) in bytes.iter_mut().zip(raw) {
            *l = r.to_ascii_lowercase();
        }
        Some(LowerName { bytes, len: raw.len() })
    }

    /// The lower-cased bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}
