//! The token store: each token of a page's source as 8 bytes (its start
//! and its kind, with the tag name's index or the node it made; a token
//! ends where the next begins), the read-only view of them
//! ([`SourceToken`], [`Tokens`]), and the page's tag names, each kept
//! once ([`TagNames`]). The scanner (`scan`) makes the tokens, the sink
//! maps them to nodes, and [`Source`](super::Source) answers questions
//! over them (`docs/architecture.md`, "Source tokens mapped to the DOM").

use std::ops::Range;

use markup5ever::LocalName;

use super::node::NodeId;

/// What a source token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    /// `<name …>` (or `<name …/>`).
    StartTag(LocalName),
    /// `</name …>`.
    EndTag(LocalName),
    /// `<!-- … -->`.
    Comment,
    /// `<!DOCTYPE …>`, `<?…>`, `<!…>` and other markup declarations.
    Declaration,
    /// Text in normal or RCDATA content (character references are live).
    Text,
    /// The content of a RAWTEXT element such as `<script>` or `<style>`.
    RawText,
}

/// One token of the source, with its byte range in [`Source::text`](super::Source::text) and
/// the DOM node it made: a copy of the token as the [`Source`](super::Source) stores it
/// ([`Source::tokens`](super::Source::tokens)), made as it is read.
///
/// What the token is ([`Source::kind`](super::Source::kind)) and a tag's name
/// ([`Source::tag_name`](super::Source::tag_name)) are read through the [`Source`](super::Source), which keeps
/// each distinct tag name once.
#[derive(Debug, Clone, Copy)]
pub struct SourceToken {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// See [`SourceToken::node`]: the node's index, or [`NO_NODE`].
    pub(super) node: u32,
    /// See [`StoredToken::kind_and_name`].
    pub(super) kind_and_name: u32,
}

/// A token as the [`Source`](super::Source) keeps it, as a page has about one token for
/// every 3–10 bytes: 12 bytes, without its end, which is where the next
/// token starts (the tokens cover the page, one after the other) \[I\]
/// (issue 13).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StoredToken {
    /// Byte offset of the first byte.
    pub(super) start: u32,
    /// The DOM node the token made (see [`SourceToken::node`]): while the
    /// page is parsed, the tree builder's handle; then its index in the
    /// document; or [`NO_NODE`].
    pub(super) node: u32,
    /// The [`KindCode`] in the low [`KIND_BITS`] bits; for a tag, the
    /// index of its name in the source's tag names above them.
    pub(super) kind_and_name: u32,
}

/// [`SourceToken::node`] of a token that made no node.
pub(super) const NO_NODE: u32 = u32::MAX;

/// Bits of [`StoredToken::kind_and_name`] that hold the kind.
pub(super) const KIND_BITS: u32 = 3;

/// A [`TokenKind`] without the tag name, stored in a [`StoredToken`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum KindCode {
    StartTag,
    EndTag,
    Comment,
    Declaration,
    Text,
    RawText,
}

impl KindCode {
    const ALL: [KindCode; 6] = [
        KindCode::StartTag,
        KindCode::EndTag,
        KindCode::Comment,
        KindCode::Declaration,
        KindCode::Text,
        KindCode::RawText,
    ];

    pub(super) fn of(kind_and_name: u32) -> KindCode {
        let code = (kind_and_name & ((1 << KIND_BITS) - 1)) as usize;
        KindCode::ALL.get(code).copied().unwrap_or(KindCode::Comment)
    }
}

impl StoredToken {
    /// A token of `kind` from `start`, mapped to no node yet; a tag's
    /// name goes to `names`.
    pub(crate) fn new(kind: &TokenKind, start: u32, names: &mut TagNames) -> StoredToken {
        let (code, name) = match kind {
            TokenKind::StartTag(name) => (KindCode::StartTag, names.index(name)),
            TokenKind::EndTag(name) => (KindCode::EndTag, names.index(name)),
            TokenKind::Comment => (KindCode::Comment, 0),
            TokenKind::Declaration => (KindCode::Declaration, 0),
            TokenKind::Text => (KindCode::Text, 0),
            TokenKind::RawText => (KindCode::RawText, 0),
        };
        StoredToken { start, node: NO_NODE, kind_and_name: name << KIND_BITS | code as u32 }
    }

    pub(super) fn code(&self) -> KindCode {
        KindCode::of(self.kind_and_name)
    }

    pub(super) fn set_code(&mut self, code: KindCode) {
        self.kind_and_name = self.kind_and_name & !((1 << KIND_BITS) - 1) | code as u32;
    }

    /// True once the token is mapped to a node.
    pub(crate) fn is_mapped(&self) -> bool {
        self.node != NO_NODE
    }

    /// Maps the token to node (handle) `node`.
    pub(crate) fn map_to(&mut self, node: u32) {
        self.node = node;
    }

    /// The index of a start tag's name in the names ([`TagNames`]).
    pub(crate) fn start_tag_name_index(&self) -> Option<u32> {
        (KindCode::of(self.kind_and_name) == KindCode::StartTag)
            .then_some(self.kind_and_name >> KIND_BITS)
    }
}

impl SourceToken {
    pub(super) fn code(&self) -> KindCode {
        KindCode::of(self.kind_and_name)
    }

    /// The index of a tag's name in the source's tag names.
    pub(super) fn name_index(&self) -> usize {
        (self.kind_and_name >> KIND_BITS) as usize
    }

    /// True for text in normal or RCDATA content ([`TokenKind::Text`]).
    pub fn is_text(&self) -> bool {
        self.code() == KindCode::Text
    }

    /// The DOM node this token made: for text, the text node its
    /// characters went to (the first holding any of its non-whitespace);
    /// for a start tag, its element. `None` for whitespace-only text, for
    /// tokens the tree builder ignored or dropped, and for other kinds.
    pub fn node(&self) -> Option<NodeId> {
        (self.node != NO_NODE).then_some(NodeId(self.node))
    }

    /// The byte range of the token in the source.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// True for start and end tags.
    pub fn is_tag(&self) -> bool {
        matches!(self.code(), KindCode::StartTag | KindCode::EndTag)
    }

    /// True for start tags.
    pub fn is_start_tag(&self) -> bool {
        self.code() == KindCode::StartTag
    }

    /// True for the content of a RAWTEXT element ([`TokenKind::RawText`]).
    pub fn is_raw_text(&self) -> bool {
        self.code() == KindCode::RawText
    }

    /// True for markup declarations ([`TokenKind::Declaration`]).
    pub fn is_declaration(&self) -> bool {
        self.code() == KindCode::Declaration
    }
}

/// The tokens of a [`Source`](super::Source), in source order ([`Source::tokens`](super::Source::tokens)).
#[derive(Debug, Clone, Copy)]
pub struct Tokens<'a> {
    /// The stored tokens, the end sentinel last.
    pub(super) stored: &'a [StoredToken],
}

impl<'a> Tokens<'a> {
    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.stored.len().saturating_sub(1)
    }

    /// True for a source without tokens (an empty page).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Token `i`.
    pub fn get(&self, i: usize) -> Option<SourceToken> {
        let tokens = self.stored;
        Some(view(tokens.get(i)?, tokens.get(i + 1)?))
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = SourceToken> + Clone + 'a {
        self.stored.windows(2).filter_map(|pair| match pair {
            [t, next] => Some(view(t, next)),
            _ => None,
        })
    }
}

/// The token `t` stored before `next` (the end sentinel after the last).
#[inline]
pub(super) fn view(t: &StoredToken, next: &StoredToken) -> SourceToken {
    SourceToken { start: t.start, end: next.start, node: t.node, kind_and_name: t.kind_and_name }
}

/// The distinct tag names of a page's tokens, each kept once
/// ([`SourceToken`] holds an index). A page has few: a small cache in
/// front of the map finds almost every one without hashing.
#[derive(Debug, Default)]
pub(crate) struct TagNames {
    names: Vec<LocalName>,
    map: std::collections::HashMap<LocalName, u32>,
    /// `(atom data, index + 1)` by a few bits of the atom's data.
    cache: Vec<(u64, u32)>,
}

impl TagNames {
    const CACHE_BITS: u32 = 8;

    /// The index of `name`, added if new. Inlined where it is called for
    /// each tag: a name in the cache costs a few instructions (issue 12).
    #[inline]
    pub(crate) fn index(&mut self, name: &LocalName) -> u32 {
        let data = name.unsafe_data();
        let slot = (data.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::CACHE_BITS)) as usize;
        match self.cache.get(slot) {
            Some(&(d, i)) if d == data && i > 0 => i - 1,
            _ => self.index_uncached(name, data, slot),
        }
    }

    /// [`TagNames::index`] of a name not in the cache slot `slot`; `data`
    /// is the atom's.
    #[inline(never)]
    fn index_uncached(&mut self, name: &LocalName, data: u64, slot: usize) -> u32 {
        if self.cache.is_empty() {
            self.cache = vec![(0, 0); 1 << Self::CACHE_BITS];
        }
        let next = self.names.len() as u32;
        let index = *self.map.entry(name.clone()).or_insert(next);
        if index == next {
            self.names.push(name.clone());
        }
        if let Some(c) = self.cache.get_mut(slot) {
            *c = (data, index + 1);
        }
        index
    }

    /// The name at `index`.
    pub(crate) fn name(&self, index: u32) -> Option<&LocalName> {
        self.names.get(index as usize)
    }

    /// The names, by index.
    pub(crate) fn into_names(self) -> Vec<LocalName> {
        self.names
    }
}
