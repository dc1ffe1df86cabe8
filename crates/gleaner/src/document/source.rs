//! The source view of a page: the page's tokens (tags, comments, text
//! runs, raw text) with byte offsets, and the DOM node each one made.
//!
//! The source-level algorithms (BTE, DSC, CCB, TTR, CETR) reason about
//! tags and characters in source order. The [`Scanner`] here is the only
//! tokenizer a page goes through: it follows the WHATWG tokenizer
//! (§13.2.5) for where each token ends, the tree feed (`tree_feed`) hands
//! its tokens to html5ever's tree builder, which says in which state the
//! next token is read, and the sink records which token made which node.
//! So the source↔DOM mapping is exact by construction; text the tree
//! builder moves (foster parenting out of tables) stays mapped to the node
//! it went to, and [`Source::mapped_share`] reports how much text mapped
//! (all of it but text the tree builder drops, such as `<script>` code).

use std::ops::Range;

use markup5ever::{local_name, LocalName};

use super::character_tokens::TextState;
use super::script_data::script_data_end;
use super::tag_attributes::{find_byte, is_space, scan_attributes, tag_name_end_packed, TagEnd};
use super::tags::{content_model, is_source_noise, is_void, ContentModel, LowerName};
use super::{is_ascii_blank, NodeId};

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

/// One token of the source, with its byte range in [`Source::text`] and
/// the DOM node it made: a copy of the token as the [`Source`] stores it
/// ([`Source::tokens`]), made as it is read.
///
/// What the token is ([`Source::kind`]) and a tag's name
/// ([`Source::tag_name`]) are read through the [`Source`], which keeps
/// each distinct tag name once.
#[derive(Debug, Clone, Copy)]
pub struct SourceToken {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// See [`SourceToken::node`]: the node's index, or [`NO_NODE`].
    node: u32,
    /// See [`StoredToken::kind_and_name`].
    kind_and_name: u32,
}

/// A token as the [`Source`] keeps it, as a page has about one token for
/// every 3–10 bytes: 12 bytes, without its end, which is where the next
/// token starts (the tokens cover the page, one after the other) \[I\]
/// (issue 13).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StoredToken {
    /// Byte offset of the first byte.
    start: u32,
    /// The DOM node the token made (see [`SourceToken::node`]): while the
    /// page is parsed, the tree builder's handle; then its index in the
    /// document; or [`NO_NODE`].
    node: u32,
    /// The [`KindCode`] in the low [`KIND_BITS`] bits; for a tag, the
    /// index of its name in the source's tag names above them.
    kind_and_name: u32,
}

/// [`SourceToken::node`] of a token that made no node.
const NO_NODE: u32 = u32::MAX;

/// Bits of [`StoredToken::kind_and_name`] that hold the kind.
const KIND_BITS: u32 = 3;

/// A [`TokenKind`] without the tag name, stored in a [`StoredToken`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum KindCode {
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

    fn of(kind_and_name: u32) -> KindCode {
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

    fn code(&self) -> KindCode {
        KindCode::of(self.kind_and_name)
    }

    fn set_code(&mut self, code: KindCode) {
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
    fn code(&self) -> KindCode {
        KindCode::of(self.kind_and_name)
    }

    /// The index of a tag's name in the source's tag names.
    fn name_index(&self) -> usize {
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

/// The tokens of a [`Source`], in source order ([`Source::tokens`]).
#[derive(Debug, Clone, Copy)]
pub struct Tokens<'a> {
    source: &'a Source,
}

impl<'a> Tokens<'a> {
    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.source.tokens.len().saturating_sub(1)
    }

    /// True for a source without tokens (an empty page).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Token `i`.
    pub fn get(&self, i: usize) -> Option<SourceToken> {
        let tokens = &self.source.tokens;
        Some(view(tokens.get(i)?, tokens.get(i + 1)?))
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = SourceToken> + Clone + 'a {
        self.source.tokens.windows(2).filter_map(|pair| match pair {
            [t, next] => Some(view(t, next)),
            _ => None,
        })
    }
}

/// The token `t` stored before `next` (the end sentinel after the last).
#[inline]
fn view(t: &StoredToken, next: &StoredToken) -> SourceToken {
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
        Tokens { source: self }
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

/// Tokenizes `text` on its own, guessing each element's content model
/// from its name ([`content_model`]) as a scripting browser outside
/// foreign content would. [`Document::parse`](super::Document::parse)
/// does not use this: there the tree builder says which state the next
/// token is read in (see `tree_feed`).
pub(crate) fn tokenize(text: String) -> Source {
    let mut tokens = Vec::new();
    let mut names = TagNames::default();
    let mut scanner = Scanner::new(text.as_bytes());
    let mut state = ScanState::Data;
    while let Some(scanned) = scanner.next(&state, || false) {
        state = ScanState::Data;
        if let (TokenKind::StartTag(name), Markup::StartTag { tag, .. }) =
            (&scanned.kind, &scanned.markup)
        {
            if !(tag.self_closing && is_void(name)) {
                state = ScanState::guess(name);
            }
        }
        tokens.push(scanned.to_token(&mut names));
    }
    Source::new(text, tokens, names.into_names())
}

/// The tokenizer state the next token is read in (WHATWG §13.2.5): set by
/// the tree builder after a start tag (`TokenSinkResult::RawData`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScanState {
    /// §13.2.5.1 data: markup is read.
    Data,
    /// §13.2.5.2 RCDATA: text with references, to `</name`.
    RcData(LocalName),
    /// §13.2.5.3 RAWTEXT: text as written, to `</name`.
    RawText(LocalName),
    /// §13.2.5.4 script data, escapes included, to `</script`.
    ScriptData,
    /// §13.2.5.5 PLAINTEXT: the rest of the input.
    PlainText,
}

impl ScanState {
    /// The state after start tag `name` by its name alone.
    pub(crate) fn guess(name: &LocalName) -> ScanState {
        match content_model(name) {
            ContentModel::Normal => ScanState::Data,
            ContentModel::RcData => ScanState::RcData(name.clone()),
            ContentModel::RawText if *name == local_name!("script") => ScanState::ScriptData,
            ContentModel::RawText => ScanState::RawText(name.clone()),
            ContentModel::PlainText => ScanState::PlainText,
        }
    }
}

/// What a scanned token is for the tree builder, beyond its [`TokenKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Markup {
    /// Character data read in this state.
    Text(TextState),
    /// A start tag (its attributes are [`Scanner::attributes`]).
    StartTag { tag: TagEnd },
    /// An end tag; `complete` unless the input ended inside it.
    EndTag { complete: bool },
    /// A comment (or bogus comment) with its data's byte range.
    Comment(Range<usize>),
    /// A CDATA section in foreign content: its range is character data.
    CData(Range<usize>),
    /// `<!DOCTYPE …>`.
    Doctype,
    /// Nothing the tree builder sees (`</>`).
    Nothing,
}

/// One token as scanned: the source token and what the tree builder needs.
#[derive(Debug, Clone)]
pub(crate) struct Scanned {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
    pub markup: Markup,
}

impl Scanned {
    /// The source token, as stored.
    pub(crate) fn to_token(&self, names: &mut TagNames) -> StoredToken {
        StoredToken::new(&self.kind, self.start as u32, names)
    }
}

/// The source tokenizer: one token at a time, in the state the caller
/// asks for. Follows the WHATWG tokenizer for where each token ends
/// (§13.2.5: tags with quoted attribute values, comments and their abrupt
/// ends, bogus comments, CDATA, the content states); what a token means is
/// left to `tree_feed`.
pub(crate) struct Scanner<'a> {
    s: &'a [u8],
    pos: usize,
    /// The token [`Scanner::advance`] read last ([`Scanner::current`]),
    /// and the markup found while scanning the text before it, which
    /// the next call returns: each is written once, where it is read
    /// (issue 12: a token kept for the next call was moved in and out of
    /// an `Option`, twice a tag).
    slots: [Scanned; 2],
    /// The slot of the current token (0 or 1).
    current: usize,
    /// The other slot holds markup still to be returned.
    pending: bool,
    /// The attributes of the last start tag scanned (see
    /// [`Scanner::attributes`]).
    attributes: Vec<AttributeRange>,
}

/// An attribute's name and value as byte ranges of the source (an empty
/// value range for an attribute without a value).
pub(crate) type AttributeRange = (Range<usize>, Range<usize>);

impl<'a> Scanner<'a> {
    pub(crate) fn new(s: &'a [u8]) -> Scanner<'a> {
        let empty = || Scanned { kind: TokenKind::Text, start: 0, end: 0, markup: Markup::Nothing };
        Scanner {
            s,
            pos: 0,
            slots: [empty(), empty()],
            current: 0,
            pending: false,
            attributes: Vec::new(),
        }
    }

    /// The attributes of the start tag scanned last ([`Scanner::current`])
    /// (read while its end was found, so no tag is walked twice). Valid
    /// until the next call.
    pub(crate) fn attributes(&self) -> &[AttributeRange] {
        &self.attributes
    }

    /// The token [`Scanner::advance`] read last.
    pub(crate) fn current(&self) -> &Scanned {
        &self.slots[self.current & 1]
    }

    /// The next token, read in `state`, or `None` at the end of the
    /// input; `foreign` says whether the tree builder's adjusted current
    /// node is outside the HTML namespace (only asked at `<![CDATA[`).
    pub(crate) fn next(
        &mut self,
        state: &ScanState,
        foreign: impl FnOnce() -> bool,
    ) -> Option<&Scanned> {
        self.advance(state, foreign).then(|| self.current())
    }

    /// Reads the next token, in `state` (see [`Scanner::next`]), into
    /// [`Scanner::current`]; false at the end of the input.
    pub(crate) fn advance(&mut self, state: &ScanState, foreign: impl FnOnce() -> bool) -> bool {
        if self.pending {
            self.pending = false;
            self.current ^= 1;
            self.pos = self.current().end;
            return true;
        }
        let from = self.pos;
        if from >= self.s.len() {
            return false;
        }
        let (raw_end, kind, text) = match state {
            ScanState::Data => {
                self.data(from, foreign);
                return true;
            }
            ScanState::RcData(name) => {
                (self.find_end_tag(name, from), TokenKind::Text, TextState::RcData)
            }
            ScanState::RawText(name) => {
                (self.find_end_tag(name, from), TokenKind::RawText, TextState::Raw)
            }
            ScanState::ScriptData => {
                (script_data_end(self.s, from), TokenKind::RawText, TextState::Raw)
            }
            ScanState::PlainText => (self.s.len(), TokenKind::RawText, TextState::Raw),
        };
        if raw_end == from {
            self.data(from, foreign);
            return true;
        }
        self.pos = raw_end;
        self.slots[self.current & 1] =
            Scanned { kind, start: from, end: raw_end, markup: Markup::Text(text) };
        true
    }

    /// Reads the next token in the data state into the current slot: text
    /// up to the next markup (the markup into the other slot, for the
    /// next call), or that markup.
    fn data(&mut self, from: usize, foreign: impl FnOnce() -> bool) {
        let mut search = from;
        let mut foreign = Some(foreign);
        let current = self.current & 1;
        while let Some(lt) = find_byte(self.s, b'<', search) {
            let Some(markup) = self.markup_at(lt, &mut foreign) else {
                search = lt + 1;
                continue;
            };
            if lt > from {
                self.slots[current ^ 1] = markup;
                self.pending = true;
                self.pos = lt;
                self.slots[current] = Scanned {
                    kind: TokenKind::Text,
                    start: from,
                    end: lt,
                    markup: Markup::Text(TextState::Data),
                };
                return;
            }
            self.pos = markup.end;
            self.slots[current] = markup;
            return;
        }
        self.pos = self.s.len();
        self.slots[current] = Scanned {
            kind: TokenKind::Text,
            start: from,
            end: self.s.len(),
            markup: Markup::Text(TextState::Data),
        };
    }

    /// The markup starting at `<` at `lt`, if it is markup (§13.2.5.6 tag
    /// open: a letter, `!`, `/` or `?` follows).
    fn markup_at<F: FnOnce() -> bool>(
        &mut self,
        lt: usize,
        foreign: &mut Option<F>,
    ) -> Option<Scanned> {
        let s = self.s;
        let scanned = |kind, end, markup| Some(Scanned { kind, start: lt, end, markup });
        match s.get(lt + 1).copied()? {
            b'!' => Some(self.declaration_or_comment(lt, foreign)),
            b'?' => {
                // §13.2.5.6: a bogus comment whose data keeps the `?`.
                let (data_end, end) = self.until_gt(lt + 1);
                scanned(TokenKind::Declaration, end, Markup::Comment(lt + 1..data_end))
            }
            b'/' => match s.get(lt + 2).copied()? {
                c if c.is_ascii_alphabetic() => {
                    let (name, after) = self.tag_name(lt + 2);
                    let tag = scan_attributes(s, after, |_, _| {});
                    scanned(
                        TokenKind::EndTag(name),
                        tag.end,
                        Markup::EndTag { complete: tag.complete },
                    )
                }
                // `</>` is dropped by the tokenizer.
                b'>' => scanned(TokenKind::Declaration, lt + 3, Markup::Nothing),
                // `</` then anything else starts a bogus comment.
                _ => {
                    let (data_end, end) = self.until_gt(lt + 2);
                    scanned(TokenKind::Comment, end, Markup::Comment(lt + 2..data_end))
                }
            },
            c if c.is_ascii_alphabetic() => {
                let (name, name_end) = self.tag_name(lt + 1);
                let attributes = &mut self.attributes;
                attributes.clear();
                let tag =
                    scan_attributes(s, name_end, |name, value| attributes.push((name, value)));
                scanned(TokenKind::StartTag(name), tag.end, Markup::StartTag { tag })
            }
            _ => None,
        }
    }

    /// `<!--…-->`, `<!DOCTYPE…>`, `<![CDATA[…]]>` or a bogus comment `<!…>`
    /// (§13.2.5.42 markup declaration open).
    fn declaration_or_comment<F: FnOnce() -> bool>(
        &self,
        lt: usize,
        foreign: &mut Option<F>,
    ) -> Scanned {
        let s = self.s;
        let scanned = |kind, end, markup| Scanned { kind, start: lt, end, markup };
        if s[lt..].starts_with(b"<!--") {
            let (data, end) = comment_end(s, lt + 4);
            return scanned(TokenKind::Comment, end, Markup::Comment(data));
        }
        let rest = &s[lt + 2..];
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            let (_, end) = self.until_gt(lt + 2);
            return scanned(TokenKind::Declaration, end, Markup::Doctype);
        }
        // `[CDATA[` (case-sensitive) is a section only in foreign content
        // (§13.2.5.42); elsewhere a bogus comment.
        if rest.starts_with(b"[CDATA[") && foreign.take().is_some_and(|f| f()) {
            let body = lt + 9;
            let (data_end, end) =
                find_seq(s, b"]]>", body).map_or((s.len(), s.len()), |p| (p, p + 3));
            return scanned(TokenKind::Comment, end, Markup::CData(body..data_end));
        }
        let (data_end, end) = self.until_gt(lt + 2);
        scanned(TokenKind::Declaration, end, Markup::Comment(lt + 2..data_end))
    }

    /// The position of the next `>` from `from` and one past it (or the
    /// end of the input twice).
    fn until_gt(&self, from: usize) -> (usize, usize) {
        find_byte(self.s, b'>', from).map_or((self.s.len(), self.s.len()), |p| (p, p + 1))
    }

    /// The name of the tag whose name starts at `from`, and where it
    /// ends. Inlined into its two callers: it runs for every tag.
    #[inline(always)]
    fn tag_name(&self, from: usize) -> (LocalName, usize) {
        let s = self.s;
        let (end, packed) = tag_name_end_packed(s, from);
        let raw = s.get(from..end).unwrap_or_default();
        let common = if raw.len() <= 8 {
            lowercase_packed(packed).and_then(short_common_tag_name)
        } else {
            common_tag_name(raw)
        };
        if let Some(name) = common {
            return (name, end);
        }
        // The tag name starts with an ASCII letter; later bytes can be any
        // UTF-8 (the delimiters are ASCII, so no character is cut). ASCII
        // letters are lower-cased and NUL is U+FFFD (§13.2.5.8).
        let name = match std::str::from_utf8(raw) {
            Ok(s) if !raw.iter().any(|&b| b.is_ascii_uppercase() || b == 0) => LocalName::from(s),
            _ => LocalName::from(
                String::from_utf8_lossy(raw).to_ascii_lowercase().replace('\0', "\u{FFFD}"),
            ),
        };
        (name, end)
    }

    /// Where the RAWTEXT/RCDATA content of `name` ends: at `</name` followed
    /// by whitespace, `/` or `>` (WHATWG "appropriate end tag token").
    fn find_end_tag(&self, name: &LocalName, from: usize) -> usize {
        let s = self.s;
        let needle = name.as_bytes();
        let mut i = from;
        while let Some(p) = find_seq(s, b"</", i) {
            let after = p + 2 + needle.len();
            if s.len() > after
                && s[p + 2..after].eq_ignore_ascii_case(needle)
                && (is_space(s[after]) || s[after] == b'/' || s[after] == b'>')
            {
                return p;
            }
            i = p + 2;
        }
        s.len()
    }
}

/// The atom of a common tag name spelt `raw` in any case: cheaper than
/// hashing the name into an atom, and it runs for every tag of the page.
/// A name of up to eight ASCII bytes is matched as one integer
/// ([`pack_lower`]), the two longer ones byte by byte. `None` for
/// other names.
fn common_tag_name(raw: &[u8]) -> Option<LocalName> {
    if let Some(packed) = pack_lower(raw) {
        return short_common_tag_name(packed);
    }
    // The longest of the names below.
    let lower = LowerName::<10>::of(raw)?;
    Some(match lower.as_bytes() {
        b"blockquote" => local_name!("blockquote"),
        b"figcaption" => local_name!("figcaption"),
        _ => return None,
    })
}

/// `raw`, at most eight ASCII bytes, as a little-endian integer padded
/// with spaces (which no tag name holds, so `div` and `div\0` differ),
/// ASCII letters lower-cased; `None` for a longer or non-ASCII name.
pub(crate) fn pack_lower(raw: &[u8]) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    if raw.len() > 8 {
        return None;
    }
    // Byte by byte into the spaces: a tag name is a few bytes, shorter
    // than a call to copy them.
    let mut w = ONES * u64::from(b' ');
    for (i, &b) in raw.iter().enumerate() {
        w ^= u64::from(b ^ b' ') << (8 * i);
    }
    lowercase_packed(w)
}

/// A name of at most eight bytes packed as [`pack_lower`] packs it
/// (as [`tag_name_end_packed`] reads it), ASCII letters lower-cased;
/// `None` if a byte is not ASCII.
pub(crate) fn lowercase_packed(w: u64) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if w & HIGH != 0 {
        return None;
    }
    // No byte is above 0x7F, so no sum carries into the next byte: bit 7
    // of a byte is set where it is at least `A` and below `[`.
    let upper = w.wrapping_add(ONES * (0x80 - b'A' as u64))
        & !w.wrapping_add(ONES * (0x80 - b'[' as u64))
        & HIGH;
    Some(w | upper >> 2)
}

/// A name as [`pack_lower`] packs it (a name of at most eight ASCII
/// bytes, lower case).
pub(crate) const fn pack(name: &[u8]) -> u64 {
    let mut bytes = [b' '; 8];
    let mut i = 0;
    while i < name.len() {
        bytes[i] = name[i];
        i += 1;
    }
    u64::from_le_bytes(bytes)
}

/// A table that finds a packed name of up to eight bytes ([`pack`])
/// among a fixed list in one look-up and one comparison: `SLOTS` slots (a
/// power of two, at most 256), a name's slot the top bits of the product
/// of its packed bytes and an odd multiplier chosen so that the list's
/// names fill distinct slots — checked as the table is built, at compile
/// time (issue 12: such look-ups run for every tag and attribute).
pub(crate) struct PackedNameSlots<const SLOTS: usize> {
    multiplier: u64,
    /// For each slot, the index in the list of the name in it plus one,
    /// or 0.
    slots: [u8; SLOTS],
}

impl<const SLOTS: usize> PackedNameSlots<SLOTS> {
    /// The table of the names packed as `packed`; fails to compile when
    /// two share a slot under `multiplier`.
    pub(crate) const fn build(packed: &[u64], multiplier: u64) -> PackedNameSlots<SLOTS> {
        assert!(SLOTS.is_power_of_two() && SLOTS >= 2 && SLOTS <= 256, "slots: 2 to 256");
        // An index plus one must fit in a byte, 0 meaning none.
        assert!(packed.len() < 256, "too many names for a byte's indices");
        let mut slots = [0u8; SLOTS];
        let mut i = 0;
        while i < packed.len() {
            let slot = Self::slot_of(packed[i], multiplier);
            assert!(slots[slot] == 0, "two names share a slot: choose another multiplier");
            slots[slot] = (i + 1) as u8;
            i += 1;
        }
        PackedNameSlots { multiplier, slots }
    }

    const fn slot_of(packed: u64, multiplier: u64) -> usize {
        (packed.wrapping_mul(multiplier) >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The entry of `list` (the names in the order [`Self::build`] was
    /// given them, with their packed spelling) whose name is packed as
    /// `packed`, if any.
    #[inline]
    pub(crate) fn find<'a, T>(&self, list: &'a [(u64, T)], packed: u64) -> Option<&'a T> {
        let index = self.slots.get(Self::slot_of(packed, self.multiplier)).copied().unwrap_or(0);
        let (spelt, name) = list.get(usize::from(index).checked_sub(1)?)?;
        (*spelt == packed).then_some(name)
    }
}

/// Defines `fn $lookup(packed: u64) -> Option<LocalName>`: the atom of
/// the listed name of up to eight bytes that `packed` ([`pack`]) spells,
/// found by one look-up in a [`PackedNameSlots`] table of `$slots` slots
/// under `$multiplier` and one comparison, not a search among the names
/// (issue 12: such look-ups run for every tag and attribute of a page).
macro_rules! packed_names {
    (
        $(#[$doc:meta])*
        fn $lookup:ident, static $names:ident, $slots:literal slots, multiplier $multiplier:literal:
        $($name:tt,)*
    ) => {
        /// The listed names with their packed spelling, in the order of
        /// the list.
        static $names: &[(u64, LocalName)] = &[$((pack($name.as_bytes()), local_name!($name)),)*];

        $(#[$doc])*
        fn $lookup(packed: u64) -> Option<LocalName> {
            /// Where each of the names is.
            static SLOTS: PackedNameSlots<$slots> =
                PackedNameSlots::build(&[$(pack($name.as_bytes()),)*], $multiplier);
            SLOTS.find($names, packed).cloned()
        }
    };
}
pub(crate) use packed_names;

packed_names! {
    /// The atom of the common tag name packed as `packed` (of up to eight
    /// bytes, [`pack`]).
    fn short_common_tag_name, static SHORT_COMMON, 256 slots, multiplier 0x1DFA_37EA_937E_7BC7:
    "a",
    "abbr",
    "article",
    "aside",
    "b",
    "body",
    "br",
    "button",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "figure",
    "font",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "label",
    "li",
    "link",
    "main",
    "meta",
    "nav",
    "noscript",
    "ol",
    "option",
    "p",
    "path",
    "picture",
    "pre",
    "script",
    "section",
    "select",
    "small",
    "source",
    "span",
    "strong",
    "style",
    "sub",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "u",
    "ul",
    "video",
}

/// The data range and end of a comment whose body starts at `body` (after
/// `<!--`): `<!-->` and `<!--->` are empty (§13.2.5.43–44), else the
/// comment ends at the first `-->` or `--!>` (§13.2.5.51–52), or runs to
/// the end of the input.
fn comment_end(s: &[u8], body: usize) -> (Range<usize>, usize) {
    if s[body..].starts_with(b">") {
        return (body..body, body + 1);
    }
    if s[body..].starts_with(b"->") {
        return (body..body, body + 2);
    }
    let mut i = body;
    while let Some(p) = find_seq(s, b"--", i) {
        match s.get(p + 2) {
            Some(b'>') => return (body..p, p + 3),
            Some(b'!') if s.get(p + 3) == Some(&b'>') => return (body..p, p + 4),
            _ => i = p + 1,
        }
    }
    // At the end of the input the last dashes were read as the start of
    // an end that never came (§13.2.5.50–51): not data.
    let dashes = s[body..].iter().rev().take(2).take_while(|&&b| b == b'-').count();
    (body..s.len() - dashes, s.len())
}

fn find_seq(s: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    memchr::memmem::find(s.get(from..)?, needle).map(|p| from + p)
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

    fn kinds(html: &str) -> Vec<(String, String)> {
        let src = tokenize(html.to_string());
        src.tokens()
            .iter()
            .map(|t| {
                let k = match &src.kind(t) {
                    TokenKind::StartTag(n) => format!("<{n}>"),
                    TokenKind::EndTag(n) => format!("</{n}>"),
                    k => format!("{k:?}"),
                };
                (k, src.token_text(t).to_string())
            })
            .collect()
    }

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
    fn tags_text_and_comments() {
        let k = kinds("<!DOCTYPE html><p class=\"a>b\">Hi <b>you</b><!-- x > y --> 1 < 2</p>");
        let names: Vec<&str> = k.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["Declaration", "<p>", "Text", "<b>", "Text", "</b>", "Comment", "Text", "</p>"]
        );
        assert_eq!(k[1].1, "<p class=\"a>b\">");
        assert_eq!(k[7].1, " 1 < 2");
    }

    #[test]
    fn script_content_is_raw_text() {
        let k = kinds("<script>if (a<b) { x = '</p>'; }</script><p>t</p>");
        assert_eq!(k[1], ("RawText".into(), "if (a<b) { x = '</p>'; }".into()));
        assert_eq!(k[2].0, "</script>");
    }

    #[test]
    fn title_is_rcdata_text() {
        let k = kinds("<title>a <b> &amp; c</title>");
        assert_eq!(k[1], ("Text".into(), "a <b> &amp; c".into()));
    }

    #[test]
    fn unterminated_markup_runs_to_end() {
        assert_eq!(kinds("text <!-- open").len(), 2);
        assert_eq!(kinds("<div class='x").len(), 1);
        assert_eq!(kinds("<").len(), 1);
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

    #[test]
    fn every_short_common_name_is_found_in_its_slot_and_no_other() {
        for (packed, name) in SHORT_COMMON {
            assert_eq!(short_common_tag_name(*packed).as_ref(), Some(name));
            assert_eq!(pack_lower(name.as_bytes()), Some(*packed));
        }
        for other in ["spa", "divs", "x", "", "tablex", "h7", "iframes", "articles"] {
            assert_eq!(short_common_tag_name(pack(other.as_bytes())), None, "{other}");
        }
    }

    #[test]
    fn common_tag_names_are_the_atoms_of_their_names() {
        for name in [
            "a",
            "DIV",
            "Span",
            "figcaption",
            "BlockQuote",
            "h6",
            "tbody",
            "video",
            "NoScript",
            "TEXTAREA",
        ] {
            let atom = common_tag_name(name.as_bytes()).expect(name);
            assert_eq!(atom, LocalName::from(name.to_ascii_lowercase()));
        }
        // The scanner packs a name while it finds its end.
        for (tag, name) in [
            ("<DiV class=x>", "div"),
            ("<a>", "a"),
            ("<noscript/>", "noscript"),
            ("<figcaption\n", "figcaption"),
            ("<x-widget>", "x-widget"),
            ("<td", "td"),
            ("<d\u{e9}v>", "d\u{e9}v"),
            ("<Blockquotes>", "blockquotes"),
        ] {
            let scanner = Scanner::new(tag.as_bytes());
            let (atom, end) = scanner.tag_name(1);
            assert_eq!((&*atom, end), (name, 1 + name.len()), "{tag}");
            let (_, packed) = tag_name_end_packed(tag.as_bytes(), 1);
            if name.len() <= 8 {
                assert_eq!(pack_lower(&tag.as_bytes()[1..end]), lowercase_packed(packed), "{tag}");
            }
        }
        for other in
            ["x-widget", "dialog", "divs", "", "blockquotes", "div\0", "dív", "d\u{130}v", "Div/"]
        {
            assert_eq!(common_tag_name(other.as_bytes()), None, "{other}");
        }
    }
}
