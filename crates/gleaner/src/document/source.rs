//! The source view of a page: the page's tokens (tags, comments, text
//! runs, raw text) with byte offsets, and the DOM node each one made, and
//! the questions the source-level algorithms ask of them.
//!
//! The source-level algorithms (BTE, DSC, CCB, TTR, CETR) reason about
//! tags and characters in source order. The tokens come from the scanner
//! (`scan`), the only tokenizer a page goes through, whose tokens a tree
//! builder consumes while the sink records which token made which node;
//! they are stored 8 bytes each (`token`). So the source↔DOM mapping is
//! exact by construction; text the tree builder moves (foster parenting
//! out of tables) stays mapped to the node it went to, and
//! [`Source::mapped_share`] reports how much text mapped (all of it but
//! text the tree builder drops, such as `<script>` code).

use std::ops::Range;

use markup5ever::{local_name, LocalName};

use super::node::NodeId;
use super::stats::is_ascii_blank;
use super::tags::is_source_noise;
use super::token::{view, KindCode, SourceToken, StoredToken, TokenKind, Tokens, NO_NODE};

/// One unit of the token sequence that the source-level algorithms count
/// (BTE, DSC, TCCB): a tag or a word, after the normalisation of
/// `docs/algorithms.md#source-normalisation` (comments, declarations and the `<script>`,
/// `<style>` and `<noscript>` elements are gone).
#[derive(Debug, Clone)]
pub struct Unit {
    /// Index of the source token the unit comes from.
    pub token: u32,
    /// Byte range of the unit in the source.
    pub start: u32,
    /// End of the byte range.
    pub end: u32,
    /// A tag (`true`) or a word (`false`).
    pub is_tag: bool,
    /// The DOM text node a word belongs to.
    pub node: Option<NodeId>,
}

/// The decoded source and its tokens.
#[derive(Debug, Clone, Default)]
pub struct Source {
    text: String,
    /// The tokens, then a sentinel that starts where the last one ends.
    tokens: Vec<StoredToken>,
    /// The distinct tag names, indexed by the tokens.
    tag_names: Vec<LocalName>,
}

impl Source {
    /// The decoded source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// All tokens in source order.
    pub fn tokens(&self) -> Tokens<'_> {
        Tokens { stored: &self.tokens }
    }

    /// The source text of one token.
    pub fn token_text(&self, token: SourceToken) -> &str {
        self.text.get(token.range()).unwrap_or("")
    }

    /// What a token of this source is. (A tag's name is cloned: loops
    /// over every token ask [`Source::tag_name`] and the `is_` tests of
    /// [`SourceToken`] instead.)
    pub fn kind(&self, token: SourceToken) -> TokenKind {
        let name = || self.name_of(token).cloned().unwrap_or(local_name!(""));
        match token.code() {
            KindCode::StartTag => TokenKind::StartTag(name()),
            KindCode::EndTag => TokenKind::EndTag(name()),
            KindCode::Comment => TokenKind::Comment,
            KindCode::Declaration => TokenKind::Declaration,
            KindCode::Text => TokenKind::Text,
            KindCode::RawText => TokenKind::RawText,
        }
    }

    /// The element name of a start or end tag of this source.
    pub fn tag_name(&self, token: SourceToken) -> Option<&LocalName> {
        token.is_tag().then(|| self.name_of(token)).flatten()
    }

    /// The element name of a start tag of this source.
    pub fn start_tag_name(&self, token: SourceToken) -> Option<&LocalName> {
        token.is_start_tag().then(|| self.name_of(token)).flatten()
    }

    /// A tag token's name (`None` for a token of another source).
    fn name_of(&self, token: SourceToken) -> Option<&LocalName> {
        self.tag_names.get(token.name_index())
    }

    /// The share of text (bytes of text tokens outside script and style,
    /// trimmed) whose token was mapped to a DOM text node, counted when
    /// asked: after [`Document::set_aside`](super::Document::set_aside),
    /// of the text left; 0 for a source tokenized alone (nothing mapped);
    /// 1.0 for a page without text.
    pub fn mapped_share(&self) -> f64 {
        let (mut mapped, mut total) = (0usize, 0usize);
        for t in self.tokens().iter().filter(SourceToken::is_text) {
            let trimmed = trimmed_len(self.token_text(t));
            total += trimmed;
            mapped += if t.node().is_some() { trimmed } else { 0 };
        }
        if total == 0 {
            1.0
        } else {
            mapped as f64 / total as f64
        }
    }

    /// Indices of the tokens that survive the normalisation of
    /// `docs/algorithms.md#source-normalisation`: no comments or
    /// declarations, and no `<script>`, `<style>` or `<noscript>` elements
    /// (tags and content).
    pub fn content_tokens(&self) -> impl Iterator<Item = (usize, SourceToken)> + '_ {
        let mut filter = ContentFilter::new(&self.tag_names);
        self.tokens().iter().enumerate().filter(move |&(_, t)| filter.keeps(t))
    }

    /// The tokens of [`Source::content_tokens`], each with its tag name
    /// (as [`Source::tag_name`] gives it), in one plain loop over the
    /// stored tokens, for the source-level algorithms that read every
    /// token of a page (issue 12).
    pub(crate) fn for_each_content_token(
        &self,
        mut visit: impl FnMut(SourceToken, Option<&LocalName>),
    ) {
        let mut filter = ContentFilter::new(&self.tag_names);
        for pair in self.tokens.windows(2) {
            let [t, next] = pair else { continue };
            let token = view(t, next);
            if filter.keeps(token) {
                // One call site, so that the visitor is inlined.
                visit(token, self.tag_of(token));
            }
        }
    }

    /// The name of a start or end tag token; `None` for other tokens.
    fn tag_of(&self, token: SourceToken) -> Option<&LocalName> {
        match token.code() {
            KindCode::StartTag | KindCode::EndTag => self.name_of(token),
            _ => None,
        }
    }

    /// The tag/word sequence of the normalised source (`docs/algorithms.md#source-normalisation`
    /// step 4: a word is a maximal run of non-whitespace characters outside
    /// tags). `keep_tag` decides which tags count: ACCB and TCCB drop `<a>`.
    pub fn units(&self, mut keep_tag: impl FnMut(&LocalName) -> bool) -> Vec<Unit> {
        let mut units = Vec::new();
        for (i, token) in self.content_tokens() {
            match self.tag_name(token) {
                Some(name) => {
                    if keep_tag(name) {
                        units.push(Unit {
                            token: i as u32,
                            start: token.start,
                            end: token.end,
                            is_tag: true,
                            node: None,
                        });
                    }
                }
                None => {
                    let text = self.token_text(token);
                    for word in split_words(text) {
                        units.push(Unit {
                            token: i as u32,
                            start: token.start + word.start as u32,
                            end: token.start + word.end as u32,
                            is_tag: false,
                            node: token.node(),
                        });
                    }
                }
            }
        }
        units
    }
}

/// The length of `text.trim()`, bytewise when both ends are ASCII (a
/// text token's usually are: its first and last bytes are a tag's
/// neighbours).
fn trimmed_len(text: &str) -> usize {
    // `char::is_whitespace` on ASCII: U+0009–U+000D and U+0020.
    let is_space = |b: &u8| matches!(b, 0x09..=0x0D | b' ');
    let bytes = text.as_bytes();
    let Some(first) = bytes.iter().position(|b| !is_space(b)) else { return 0 };
    let last = bytes.iter().rposition(|b| !is_space(b)).unwrap_or(first);
    match (bytes.get(first), bytes.get(last)) {
        (Some(a), Some(z)) if a.is_ascii() && z.is_ascii() => last + 1 - first,
        _ => text.trim().len(),
    }
}

/// Byte ranges of the whitespace-separated words of `text` (whitespace as
/// [`char::is_whitespace`] says).
pub fn split_words(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let start = find_whitespace(text, pos, false)?;
        let end = find_whitespace(text, start, true).unwrap_or(text.len());
        pos = end;
        Some(start..end)
    })
}

/// The first character at or after byte `from` (a character boundary)
/// that is whitespace (`whitespace`) or not. Bytewise for ASCII, which
/// is most of any page.
fn find_whitespace(text: &str, from: usize, whitespace: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            // `char::is_whitespace` on ASCII: U+0009–U+000D and U+0020.
            if matches!(b, 0x09..=0x0D | b' ') == whitespace {
                return Some(i);
            }
            i += 1;
        } else {
            let c = text.get(i..)?.chars().next()?;
            if c.is_whitespace() == whitespace {
                return Some(i);
            }
            i += c.len_utf8();
        }
    }
    None
}

impl Source {
    /// The source of `text` with its tokens (which cover it, one after
    /// the other), mapped to the tree builder's handles: see
    /// [`Source::map_nodes`].
    pub(crate) fn new(
        text: String,
        mut tokens: Vec<StoredToken>,
        tag_names: Vec<LocalName>,
    ) -> Source {
        // The end of the last token: where a sentinel starts.
        tokens.push(StoredToken {
            start: text.len() as u32,
            node: NO_NODE,
            kind_and_name: KindCode::Comment as u32,
        });
        // Kept as long as the document: no growth slack.
        tokens.shrink_to_fit();
        Source { text, tokens, tag_names }
    }

    /// The distinct tag names, which the tokens index (and the document's
    /// elements).
    pub(crate) fn tag_names(&self) -> &[LocalName] {
        &self.tag_names
    }

    /// Turns the text tokens of the nodes marked in `hidden` into
    /// comments, which no algorithm reads as content.
    pub(crate) fn set_aside(&mut self, hidden: &[bool]) {
        for token in &mut self.tokens {
            let is_hidden =
                token.is_mapped() && hidden.get(token.node as usize).copied().unwrap_or(false);
            if is_hidden && token.code() == KindCode::Text {
                token.set_code(KindCode::Comment);
            }
        }
    }

    /// Maps each token's node from the tree builder's handle to its
    /// place in the document: `position` gives each handle's (`u32::MAX`
    /// for nodes not in the document, such as a `<template>`'s content),
    /// or `None` when every handle is its own, and then there is nothing
    /// to do. (Text tokens of whitespace only were never mapped: the tree
    /// feed tells the sink no token for them, see [`is_blank`].)
    pub(crate) fn map_nodes(&mut self, position: Option<&[u32]>) {
        let Some(position) = position else { return };
        for t in &mut self.tokens {
            if t.node != NO_NODE {
                t.node = position.get(t.node as usize).copied().unwrap_or(NO_NODE);
            }
        }
    }
}

/// True for a text token of whitespace only (as [`str::trim`] says),
/// which carries no content and is mapped to no node
/// ([`SourceToken::node`]). Most tokens between two tags are ASCII
/// whitespace, read eight bytes at a time; the others mostly start with,
/// or soon reach, an ASCII byte that is not (issue 12).
pub(crate) fn is_blank(text: &str) -> bool {
    // `char::is_whitespace` on ASCII: U+0009–U+000D and U+0020.
    let is_space = |b: u8| matches!(b, 0x09..=0x0D | b' ');
    match text.as_bytes().first() {
        Some(&b) if b.is_ascii() && !is_space(b) => false,
        _ if is_ascii_blank(text) => true,
        _ => match text.bytes().find(|&b| !is_space(b)) {
            Some(b) if b.is_ascii() => false,
            _ => text.trim_start().is_empty(),
        },
    }
}

/// The normalisation of `docs/algorithms.md#source-normalisation` over a token stream: drops
/// comments, declarations and raw text, and `<script>`, `<style>` and
/// `<noscript>` elements with their content. The open one is remembered
/// by the index of its name, which stands for one tag name only, so
/// nothing is cloned per token.
#[derive(Debug)]
struct ContentFilter {
    /// Which names open a noise element, by name index: read once per
    /// loop, not compared for every tag (issue 12).
    noise_names: Vec<bool>,
    /// The name index of the element being skipped.
    skipping: Option<usize>,
}

impl ContentFilter {
    /// A filter for tokens whose names index `names`.
    fn new(names: &[LocalName]) -> ContentFilter {
        ContentFilter { noise_names: names.iter().map(is_source_noise).collect(), skipping: None }
    }

    /// Does `token` survive?
    #[inline]
    fn keeps(&mut self, token: SourceToken) -> bool {
        let code = token.code();
        if let Some(open) = self.skipping {
            if code == KindCode::EndTag && token.name_index() == open {
                self.skipping = None;
            }
            return false;
        }
        match code {
            KindCode::StartTag => {
                let index = token.name_index();
                let noise = self.noise_names.get(index).copied().unwrap_or(false);
                if noise {
                    self.skipping = Some(index);
                }
                !noise
            }
            KindCode::EndTag | KindCode::Text => true,
            KindCode::Comment | KindCode::Declaration | KindCode::RawText => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::scan::tokenize;

    #[test]
    fn the_content_token_loop_visits_the_content_tokens() {
        let html = "<!DOCTYPE html><p>a<script>x</p><b></script><Style>s</style>\
                    <noscript><p>n</noscript><!-- c --><textarea>t</textarea><a href=x>l</a>\
                    <script>unclosed";
        let src = tokenize(html.to_string());
        let expected: Vec<(u32, u32, Option<LocalName>)> =
            src.content_tokens().map(|(_, t)| (t.start, t.end, src.tag_name(t).cloned())).collect();
        let mut visited = Vec::new();
        src.for_each_content_token(|t, name| visited.push((t.start, t.end, name.cloned())));
        assert_eq!(visited, expected);
        assert!(expected.len() > 6, "{expected:?}");
    }

    #[test]
    fn blank_is_trimmed_to_nothing() {
        for text in [
            "",
            " ",
            " a ",
            "\t\nab c\r\x0B",
            "\u{A0}a\u{3000}",
            "é ",
            " \u{2003}",
            "a\u{85}",
            "\u{A0}",
            " \u{2003}\n",
            "          \n\t   ",
            "          \n\t  x ",
            "\u{85}x",
        ] {
            assert_eq!(is_blank(text), text.trim().is_empty(), "{text:?}");
        }
    }

    #[test]
    fn trimmed_len_is_that_of_trim() {
        for text in
            ["", " ", " a ", "\t\nab c\r\x0B", "\u{A0}a\u{3000}", "é ", " \u{2003}", "a\u{85}"]
        {
            assert_eq!(trimmed_len(text), text.trim().len(), "{text:?}");
        }
    }

    #[test]
    fn words_are_split_on_whitespace() {
        let words: Vec<_> = split_words("  a bc\n\td ").collect();
        assert_eq!(words, [2..3, 4..6, 8..9]);
        // Unicode whitespace separates too; other non-ASCII does not.
        let text = "é\u{A0}x\u{2003}\u{3000}yé\u{0B}z";
        let words: Vec<&str> = split_words(text).map(|r| &text[r]).collect();
        assert_eq!(words, ["é", "x", "yé", "z"]);
    }

    #[test]
    fn split_words_agrees_with_char_is_whitespace() {
        let reference = |text: &str| -> Vec<Range<usize>> {
            let mut out = Vec::new();
            let mut start = None;
            for (i, c) in text.char_indices() {
                match (c.is_whitespace(), start) {
                    (true, Some(s)) => {
                        out.push(s..i);
                        start = None;
                    }
                    (false, None) => start = Some(i),
                    _ => {}
                }
            }
            if let Some(s) = start {
                out.push(s..text.len());
            }
            out
        };
        let alphabet: Vec<char> = "a é\t\n\u{B}\u{C}\r\u{1C}\u{85}\u{A0}\u{1680}\u{2009}\u{2028}\u{202F}\u{3000}\u{FEFF}😀"
            .chars()
            .collect();
        // Every string of up to four characters of the alphabet.
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            for text in &longer {
                assert_eq!(split_words(text).collect::<Vec<_>>(), reference(text), "{text:?}");
            }
            texts = longer;
        }
    }
}
