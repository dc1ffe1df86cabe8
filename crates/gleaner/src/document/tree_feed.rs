//! Tree construction from gleaner's own tokens: the [`Scanner`]'s tokens
//! go straight into a tree builder as html5ever tokens — gleaner's own
//! ([`OwnTreeBuilder`], the default) or html5ever's [`TreeBuilder`]
//! (`process_token`), see [`TreeBuilderKind`] — and html5ever's tokenizer
//! never reads the page.
//!
//! One tokenizer: the scanner finds each token's extent, this module says
//! what it means as the WHATWG tokenizer would (tag names and attributes
//! in `tag_attributes`, character tokens in `character_tokens`), and the
//! tree builder says in which state the next token is read — after
//! `<script>`, `<style>`, `<textarea>`, `<title>`, `<xmp>`, `<iframe>`,
//! `<noembed>`, `<noframes>`, `<noscript>` (scripting on) and
//! `<plaintext>` in HTML content it answers
//! [`TokenSinkResult::RawData`] or `Plaintext`, and the next token is
//! that element's content (script data with its escape states, see
//! `script_data`). The sink records in each source token the node it
//! made ([`ArenaSink::push_token`] and the start-tag and text records), so
//! the source↔DOM mapping needs no alignment.
//!
//! What the tree builder is not given, because no algorithm reads it:
//!
//! - attributes other than those the library reads
//!   (`tag_attributes::kept_name`), unless
//!   [`ParseOptions::keep_all_attributes`](super::ParseOptions);
//! - comments and processing instructions (they never change the tree's
//!   shape, and text on both sides of one is one text node, as it reads);
//! - the content of `<script>`, `<style>`, `<noscript>`, `<noframes>`,
//!   `<noembed>` and `<iframe>` read as raw text (it cannot change the
//!   tree, and it is never visible);
//! - start tags nested deeper than the nesting limit, with their end tags.
//!   Browsers cap the depth too (Chromium's parser at 512); without a cap
//!   the tree builder's scope checks make 100 000 nested `<div>`s
//!   quadratic. So are formatting start tags past the formatting limit, or
//!   each paragraph would re-create every unclosed `<b>` before it (WHATWG
//!   §13.2.4.3, "reconstruct the active formatting elements"), and
//!   attributes past the attribute limit.
//!
//! The depth is not guessed from the tags: which elements stay open
//! depends on the whole tree construction algorithm (`<div></x>` leaves
//! the `div` open, `<optgroup>` and `<rb>` nest outside `select` and
//! `ruby`). When a start tag could cross a limit, the tree builder's own
//! stack of open elements and list of active formatting elements are
//! counted ([`TreeBuilder::trace_handles`]). Between counts a bound is
//! kept (each token can open at most its element, the implied ones and the
//! reconstructed formatting elements), so on normal pages counting is
//! rare. The stack of open elements thus never holds more than
//! `max_nesting + max_formatting` elements plus the few implied ones, and
//! every scope check is bounded.

use std::cell::{Cell, RefCell};

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts, TreeSink};
use markup5ever::interface::Tracer;
use markup5ever::{local_name, LocalName};

use html5ever::tendril::StrTendril;

use super::character_tokens::{
    decode_into, for_each_character_token, normalized, push_normalized, TextState,
};
use super::deadline::Deadline;
use super::density::DensityLimit;
use super::entities::{for_each_piece, Piece};
use super::scan::{Markup, ScanState, Scanner};
use super::sink::{ArenaSink, BuiltTree, Room, NONE};
use super::source::is_blank;
use super::tag_attributes::{has_special_at, start_tag_attributes, AttributeFilter};
use super::token::{StoredToken, TokenKind};
use super::tree_builder::{class, html_class, OwnTreeBuilder, Tag as OwnTag};
use super::TagAttributes;

/// The text of the one character token that `text`, read in `state`,
/// makes when it has no NUL (which data splits into a token of its own,
/// WHATWG §13.2.5.1): `text` itself, or, with CR LF and lone CRs as LF
/// (§13.2.3.5) and (in data and RCDATA) its character references decoded,
/// in `decoded` — a reference never decodes to NUL, and what it decodes
/// to is not preprocessed, so that is the token's text.
///
/// Most text has none of `&`, CR and NUL, which one look
/// ([`has_special_at`]) finds: `special` says whether it has one.
fn plain_text<'a>(
    text: &'a str,
    special: bool,
    state: TextState,
    decoded: &'a mut String,
) -> Option<&'a str> {
    let bytes = text.as_bytes();
    if !special {
        return Some(text);
    }
    let cr = match memchr::memchr2(b'\r', b'\0', bytes) {
        None => false,
        Some(at) => {
            if memchr::memchr(b'\0', bytes.get(at..).unwrap_or_default()).is_some() {
                return None;
            }
            true
        }
    };
    let references = state != TextState::Raw && memchr::memchr(b'&', bytes).is_some();
    match (cr, references) {
        (false, false) => return Some(text),
        (false, true) => {
            decoded.clear();
            decode_into(decoded, text);
        }
        (true, false) => {
            decoded.clear();
            push_normalized(decoded, text, true);
        }
        (true, true) => {
            decoded.clear();
            for_each_piece(text, false, |piece| match piece {
                Piece::Literal(s) => push_normalized(decoded, s, true),
                Piece::Decoded(c) => decoded.push(c),
            });
        }
    }
    Some(decoded)
}

/// Elements whose raw-text content the tree builder never needs.
pub(crate) fn drops_content(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("noframes")
            | local_name!("noembed")
            | local_name!("iframe")
    )
}

/// Formatting elements (WHATWG §13.2.4.3): the tree builder keeps them in
/// its list of active formatting elements and reconstructs them, so their
/// number is capped ([`TreeLimits::max_formatting`]).
fn is_formatting(name: &LocalName) -> bool {
    super::tree_builder::is_formatting(name)
}

/// The limits [`build_tree`] applies (from [`ParseOptions`](super::ParseOptions)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeLimits {
    /// Most open non-formatting elements.
    pub max_nesting: usize,
    /// Most formatting elements held by the tree builder.
    pub max_formatting: usize,
    /// Most elements in the tree.
    pub max_elements: usize,
    /// [`ParseOptions::max_memory_factor`](super::ParseOptions).
    pub max_memory_factor: usize,
    /// Most attributes of one element.
    pub max_attributes: usize,
    /// Keep every attribute.
    pub keep_all_attributes: bool,
}

impl TreeLimits {
    /// The tree limits of `options`.
    pub(crate) fn of(options: &super::ParseOptions) -> TreeLimits {
        TreeLimits {
            max_nesting: options.max_nesting,
            max_formatting: options.max_formatting,
            max_elements: options.max_elements,
            max_memory_factor: options.max_memory_factor,
            max_attributes: options.max_attributes,
            keep_all_attributes: options.keep_all_attributes,
        }
    }
}

/// How [`build_tree`] runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FeedOptions {
    pub limits: TreeLimits,
    /// The scripting flag (WHATWG §13.2.6.4.4): `<noscript>` is raw text
    /// when on, as in a browser with scripts (html5ever's default).
    pub scripting: bool,
    /// Feed comments and the raw text content of `<script>` & co. (for
    /// the conformance dump; no algorithm reads them).
    pub keep_everything: bool,
    /// Which tree builder builds the tree.
    pub tree_builder: TreeBuilderKind,
}

/// Which tree builder the parse feeds its tokens to (issue 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TreeBuilderKind {
    /// html5ever's `TreeBuilder`.
    Html5ever,
    /// gleaner's own (`document/tree_builder/`), the default: it builds
    /// html5ever's trees on all 2 987 dev pages and passes the html5lib
    /// cases html5ever passes (and 4 more), with 40 % fewer instructions.
    #[default]
    Own,
}

impl FeedOptions {
    /// The options [`Document::parse`](super::Document::parse) uses.
    pub(crate) fn of(options: &super::ParseOptions) -> FeedOptions {
        FeedOptions {
            limits: TreeLimits::of(options),
            scripting: true,
            keep_everything: false,
            tree_builder: options.tree_builder,
        }
    }
}

/// Why [`build_tree`] gave up on a page.
pub(crate) enum Stopped {
    /// The page would make more than `max_elements` elements.
    TooManyElements,
    /// The page's nodes and tokens would need more memory than
    /// `max_memory_factor` allows ([`DensityLimit`]).
    TooDense,
    /// The page's time budget ran out while building.
    OutOfTime,
}

/// The tree built from a page, and its tokens.
pub(crate) struct Built {
    /// The arena, as the tree builder left it.
    pub tree: BuiltTree,
    /// The page's tokens, in source order, each mapped to the node
    /// (handle) it made.
    pub tokens: Vec<StoredToken>,
}

/// What the tree builder holds, as counted after the last count.
#[derive(Debug, Clone, Copy, Default)]
struct Held {
    /// The handles that are not formatting elements: the document, the
    /// open elements, the head and form pointers.
    other: usize,
    /// The formatting elements, once for each place they are held (the
    /// stack of open elements, the list of active formatting elements).
    formatting: usize,
}

/// Counts the tree builder's handles (see [`Held`]).
struct HandleCount<'a> {
    sink: &'a ArenaSink,
    held: Cell<Held>,
    /// The names of the formatting elements, in the tree builder's order,
    /// when asked for.
    formatting: Option<RefCell<Vec<LocalName>>>,
}

impl Tracer for HandleCount<'_> {
    type Handle = u32;

    fn trace_handle(&self, node: &u32) {
        let mut held = self.held.get();
        match self.sink.html_name(*node).filter(is_formatting) {
            Some(name) => {
                held.formatting += 1;
                if let Some(names) = &self.formatting {
                    names.borrow_mut().push(name);
                }
            }
            None => held.other += 1,
        }
        self.held.set(held);
    }
}

/// Most elements one token can push besides its own: the implied
/// `html`, `body`, `tbody` and `tr` (WHATWG §13.2.6.4).
const IMPLIED: usize = 4;

/// Room for the nodes, text and source tokens of a page of `bytes`
/// whose markup starts at `markup` `<`s \[I\]: the sink's vectors are reserved
/// so, so that they do not grow by doubling through the parse (a vector
/// that doubles holds up to twice what it needs, and copies). Every tag
/// starts at a `<` and there is at most one text token before each, so
/// the tokens fit; a node is a start tag's element or the text of one or
/// more text tokens, so the nodes fit too but for elements the tree
/// builder makes on its own (implied ones, reconstructed formatting
/// elements), for which a page grows on from there. The text nodes' text
/// is the page's text, less its markup, with character references
/// decoded: shorter than the page but for a NUL read as U+FFFD. Room
/// reserved and never written costs address space, not memory.
///
/// The attribute table ([`AttributeTable`](super::AttributeTable)) gets
/// an entry for each `<` and half the page's bytes for values: on 300
/// dragnet pages the attributes kept were 0.59 a `<` (0.86 at most) and
/// their values a third of the bytes (half at most).
fn room(markup: usize, bytes: usize) -> Room {
    let tokens = markup.saturating_mul(2).saturating_add(1).min(MOST_RESERVED);
    Room {
        nodes: tokens.saturating_add(IMPLIED).min(MOST_RESERVED),
        text: bytes,
        tokens,
        attributes: markup.min(MOST_RESERVED),
        attribute_bytes: (bytes / 2).min(MOST_RESERVED * 16),
    }
}

/// The most nodes or tokens reserved ahead: a page of many megabytes grows
/// its vectors past this as it is read, rather than asking for gigabytes of
/// address space before its first byte is parsed.
const MOST_RESERVED: usize = 1 << 21;

/// Elements the tree builder may make beyond three per start tag before
/// formatting elements are closed (see [`Feeder::forget_formatting`]).
const RECONSTRUCTION_SLACK: usize = 4096;

/// One of the two tree builders ([`TreeBuilderKind`]).
enum Builder {
    Html5ever(Box<TreeBuilder<u32, ArenaSink>>),
    Own(Box<OwnTreeBuilder>),
}

impl Builder {
    fn sink(&self) -> &ArenaSink {
        match self {
            Builder::Html5ever(b) => &b.sink,
            Builder::Own(b) => &b.sink,
        }
    }

    fn process(&mut self, token: Token) -> TokenSinkResult<u32> {
        match self {
            Builder::Html5ever(b) => b.process_token(token, 1),
            Builder::Own(b) => b.process_token(token.into()),
        }
    }

    /// Processes a tag; the own tree builder takes its attributes as they
    /// are, html5ever's as its own. Inlined into the feed loop (it runs
    /// for every tag); html5ever's case is kept out of line.
    #[inline]
    fn tag(&mut self, tag: OwnTag) -> TokenSinkResult<u32> {
        match self {
            Builder::Html5ever(b) => html5ever_tag(b, tag),
            Builder::Own(b) => b.process_tag(tag),
        }
    }

    /// Processes end tag `name` ([`OwnTreeBuilder::process_end_tag`]:
    /// the own tree builder makes no token for most).
    #[inline]
    fn end_tag(&mut self, name: &LocalName) -> TokenSinkResult<u32> {
        match self {
            Builder::Html5ever(b) => html5ever_tag(b, end_tag(name.clone())),
            Builder::Own(b) => b.process_end_tag(name),
        }
    }

    /// The classes of the HTML element `name` (the own tree builder
    /// remembers them for the element it makes next).
    fn html_class(&mut self, name: &LocalName) -> u16 {
        match self {
            Builder::Html5ever(_) => html_class(name),
            Builder::Own(b) => b.html_class(name),
        }
    }

    /// See [`OwnTreeBuilder::plain_characters`]; html5ever's builder
    /// always takes tokens.
    fn plain_characters(&mut self, text: &str) -> bool {
        match self {
            Builder::Html5ever(_) => false,
            Builder::Own(b) => b.plain_characters(text),
        }
    }

    fn trace_handles(&self, tracer: &dyn Tracer<Handle = u32>) {
        match self {
            Builder::Html5ever(b) => b.trace_handles(tracer),
            Builder::Own(b) => b.trace_handles(tracer),
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        match self {
            Builder::Html5ever(b) => b.adjusted_current_node_present_but_not_in_html_namespace(),
            Builder::Own(b) => b.adjusted_current_node_present_but_not_in_html_namespace(),
        }
    }

    /// Ends the parse: the sink, to finish.
    fn end(self) -> ArenaSink {
        match self {
            Builder::Html5ever(b) => {
                b.end();
                b.sink
            }
            Builder::Own(mut b) => {
                b.end();
                b.sink
            }
        }
    }
}

/// The tree builder and what is known of what it holds.
struct Feeder {
    builder: Builder,
    /// What the tree builder held at the last count.
    held: Held,
    /// Tokens fed since that can make the tree builder hold more.
    pending: usize,
    /// Formatting start tags fed since.
    pending_formatting: usize,
}

impl Feeder {
    /// `markup`: the page's `<`s, and `bytes`, its size, to reserve room
    /// for its nodes, tokens, text and attributes ([`room`]).
    fn new(options: &FeedOptions, markup: usize, bytes: usize) -> Feeder {
        let sink =
            if options.keep_everything { ArenaSink::with_details() } else { ArenaSink::new() };
        sink.reserve(room(markup, bytes));
        let builder = match options.tree_builder {
            TreeBuilderKind::Html5ever => {
                let opts =
                    TreeBuilderOpts { scripting_enabled: options.scripting, ..Default::default() };
                Builder::Html5ever(Box::new(TreeBuilder::new(sink, opts)))
            }
            TreeBuilderKind::Own => {
                Builder::Own(Box::new(OwnTreeBuilder::new(sink, options.scripting)))
            }
        };
        Feeder {
            builder,
            held: Held { other: 1, formatting: 0 },
            pending: 0,
            pending_formatting: 0,
        }
    }

    fn process(&mut self, token: Token) -> TokenSinkResult<u32> {
        self.builder.process(token)
    }

    /// The most the tree builder can hold now: each pending token can
    /// push its element and the implied ones, and reconstruct every
    /// active formatting element (WHATWG §13.2.4.3); a formatting start
    /// tag is held twice (open and listed).
    fn bound(&self) -> Held {
        let formatting = self.held.formatting.saturating_add(2 * self.pending_formatting);
        Held {
            other: self.held.other.saturating_add(self.pending.saturating_mul(IMPLIED + 1)),
            formatting: formatting.saturating_add(self.pending.saturating_mul(formatting)),
        }
    }

    /// The tree builder's state, exactly.
    fn measure(&mut self) -> Held {
        if self.pending > 0 || self.pending_formatting > 0 {
            self.count(false);
        }
        self.held
    }

    /// Counts what the tree builder holds; returns the formatting
    /// elements' names if `names`.
    fn count(&mut self, names: bool) -> Vec<LocalName> {
        if let (Builder::Own(own), false) = (&self.builder, names) {
            // The own tree builder knows its elements' classes: no sink
            // look-ups.
            let (other, formatting) = own.held_handles();
            self.held = Held { other, formatting };
            self.pending = 0;
            self.pending_formatting = 0;
            return Vec::new();
        }
        let count = HandleCount {
            sink: self.builder.sink(),
            held: Cell::new(Held::default()),
            formatting: names.then(|| RefCell::new(Vec::new())),
        };
        self.builder.trace_handles(&count);
        self.held = count.held.get();
        self.pending = 0;
        self.pending_formatting = 0;
        count.formatting.map(RefCell::into_inner).unwrap_or_default()
    }

    /// Closes every formatting element the tree builder holds, with an
    /// end tag for each: the adoption agency removes it from the list of
    /// active formatting elements, so it is not re-created again.
    fn forget_formatting(&mut self) {
        let names = self.count(true);
        for name in names.into_iter().rev() {
            let _ = self.builder.tag(end_tag(name));
        }
        self.count(false);
    }

    /// True if the tree builder may have made more than `limit` elements
    /// (measured when the bound from the last count is not enough).
    fn may_exceed(&mut self, limit: usize) -> bool {
        // It runs for most tokens: while the counts are below 2^20 (on
        // any page but floods of tags kept open), the bound is computed
        // in 64 bits without saturating, as it then never would.
        const SMALL: usize = 1 << 20;
        let small = self.pending | self.pending_formatting | self.held.formatting < SMALL;
        let over = if small && self.elements() < SMALL {
            let (pending, formatting) = (self.pending as u64, self.held.formatting as u64);
            let f = formatting + 2 * self.pending_formatting as u64;
            let per_token = (IMPLIED + 1) as u64 + f + pending * f;
            self.elements() as u64 + pending * per_token > limit as u64
        } else {
            let bound = self.bound();
            let per_token = IMPLIED + 1 + bound.formatting;
            let elements = self.elements().saturating_add(self.pending.saturating_mul(per_token));
            elements > limit
        };
        over && {
            self.measure();
            self.elements() > limit
        }
    }

    fn elements(&self) -> usize {
        self.builder.sink().elements()
    }

    /// True if a start tag would open more than the limits allow: more
    /// than [`TreeLimits::max_nesting`] non-formatting elements, or more
    /// than [`TreeLimits::max_formatting`] formatting ones (`formatting`:
    /// the tag's is one). Measures the tree builder only when the bound
    /// from the last count is not enough.
    fn too_deep(&mut self, formatting: bool, limits: &TreeLimits) -> bool {
        let over = |held: Held| {
            held.other >= limits.max_nesting
                || (formatting && held.formatting >= limits.max_formatting)
        };
        over(self.bound()) && over(self.measure())
    }
}

/// `tag` processed by html5ever's tree builder, its attributes made
/// html5ever's own.
#[inline(never)]
fn html5ever_tag(b: &TreeBuilder<u32, ArenaSink>, tag: OwnTag) -> TokenSinkResult<u32> {
    let attrs = tag.attrs.to_html5ever();
    let tag = Tag {
        kind: tag.kind,
        name: tag.name,
        self_closing: tag.self_closing,
        attrs,
        had_duplicate_attributes: false,
    };
    b.process_token(Token::TagToken(tag), 1)
}

/// The end tag `name`.
fn end_tag(name: LocalName) -> OwnTag {
    OwnTag { kind: TagKind::EndTag, name, self_closing: false, attrs: TagAttributes::default() }
}

/// The state the tree builder asked for after start tag `name`.
fn next_state(result: TokenSinkResult<u32>, name: &LocalName) -> ScanState {
    match result {
        TokenSinkResult::RawData(RawKind::Rcdata) => ScanState::RcData(name.clone()),
        TokenSinkResult::RawData(RawKind::Rawtext) => ScanState::RawText(name.clone()),
        TokenSinkResult::RawData(RawKind::ScriptData | RawKind::ScriptDataEscaped(_)) => {
            ScanState::ScriptData
        }
        TokenSinkResult::Plaintext => ScanState::PlainText,
        _ => ScanState::Data,
    }
}

/// A DOCTYPE token as html5ever's tokenizer reads it (§13.2.5.53–68: the
/// name, public and system identifiers and the force-quirks flag, which
/// decide quirks mode): the tokenizer is run on the declaration alone.
fn doctype(raw: &str) -> Option<Doctype> {
    struct Catch(RefCell<Option<Doctype>>);
    impl TokenSink for Catch {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            if let Token::DoctypeToken(d) = token {
                *self.0.borrow_mut() = Some(d);
            }
            TokenSinkResult::Continue
        }
    }
    let tokenizer = Tokenizer::new(Catch(RefCell::new(None)), Default::default());
    let input = BufferQueue::default();
    input.push_back(normalized(raw));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.0.into_inner()
}

/// Builds the tree of `text` (see the [module docs](self)).
pub(crate) fn build_tree(
    text: &str,
    options: &FeedOptions,
    deadline: &Deadline,
) -> Result<Built, Stopped> {
    let limits = &options.limits;
    let filter =
        AttributeFilter { keep_all: limits.keep_all_attributes, max: limits.max_attributes };
    // Counted with SIMD, a few instructions per kilobyte.
    let markup = memchr::memchr_iter(b'<', text.as_bytes()).count();
    let mut feeder = Feeder::new(options, markup, text.len());
    // The page once as a tendril, made when text with a NUL or a CDATA
    // section first needs it: that text goes to the tree builder as
    // slices of it, without a copy.
    let mut page: Option<StrTendril> = None;
    let mut scanner = Scanner::new(text.as_bytes());
    let mut decoded = String::new();
    let mut state = ScanState::Data;
    // Raw text read after a start tag whose content is not fed.
    let mut skip_raw = false;
    // Start tags dropped for depth, by name, whose end tags are dropped too.
    let mut dropped: Vec<(LocalName, usize)> = Vec::new();
    let mut start_tags = 0usize;
    let density = DensityLimit::of(limits.max_memory_factor, text.len());
    while scanner.advance(&state, || {
        feeder.builder.adjusted_current_node_present_but_not_in_html_namespace()
    }) {
        let scanned = scanner.current();
        let sink = feeder.builder.sink();
        let token = scanned.to_token(&mut sink.names());
        let index = sink.push_token(token) as usize;
        if deadline.expired_at(index) {
            return Err(Stopped::OutOfTime);
        }
        // Every 256 tokens, a few instructions; a token makes at most
        // `max_formatting` + 2 nodes, so the overshoot is small.
        if index % 256 == 0 && density.is_some_and(|d| d.exceeded(sink.nodes(), index)) {
            return Err(Stopped::TooDense);
        }
        state = ScanState::Data;
        let skip_this_raw = std::mem::replace(&mut skip_raw, false);
        // Deviation: when the tree builder has made more than three
        // elements for each start tag of the page, it is re-creating
        // formatting elements a flood of them left open (WHATWG
        // §13.2.4.3); they are closed, so that the tree stays a small
        // multiple of the page.
        let grows = matches!(scanned.kind, TokenKind::StartTag(_) | TokenKind::Text);
        if grows && feeder.may_exceed(3 * start_tags + RECONSTRUCTION_SLACK) {
            feeder.forget_formatting();
        }
        match (&scanned.kind, &scanned.markup) {
            (TokenKind::StartTag(name), Markup::StartTag { tag: end, .. }) if end.complete => {
                if feeder.elements() >= limits.max_elements {
                    return Err(Stopped::TooManyElements);
                }
                // One look-up of the name's classes for both questions.
                let classes = feeder.builder.html_class(name);
                let nests = !(classes & class::VOID != 0 || end.self_closing);
                let formatting = classes & class::FORMATTING != 0;
                if nests && feeder.too_deep(formatting, limits) {
                    // Its content is read as a browser would, and a
                    // raw-text element's content is dropped with it, or
                    // script code would become page text.
                    state = ScanState::guess(name);
                    skip_raw = state != ScanState::Data;
                    match dropped.iter_mut().find(|(n, _)| n == name) {
                        Some((_, count)) => *count += 1,
                        None => dropped.push((name.clone(), 1)),
                    }
                } else {
                    start_tags += 1;
                    if formatting {
                        feeder.pending_formatting += 1;
                    }
                    feeder.pending += 1;
                    let sink = feeder.builder.sink();
                    // A tag without attributes leaves the recycled list
                    // where it is.
                    let attrs = if scanner.attributes().is_empty() {
                        TagAttributes::default()
                    } else {
                        let mut attrs = sink.spare_attributes();
                        start_tag_attributes(text, scanner.attributes(), filter, &mut attrs);
                        attrs
                    };
                    sink.begin_start_tag(name, index as u32);
                    let start = OwnTag {
                        kind: TagKind::StartTag,
                        name: name.clone(),
                        self_closing: end.self_closing,
                        attrs,
                    };
                    let result = feeder.builder.tag(start);
                    feeder.builder.sink().end_start_tag();
                    state = next_state(result, name);
                    skip_raw =
                        state != ScanState::Data && !options.keep_everything && drops_content(name);
                }
            }
            (TokenKind::EndTag(name), Markup::EndTag { complete: true }) => {
                if let Some((_, count)) = dropped.iter_mut().find(|(n, c)| n == name && *c > 0) {
                    *count -= 1;
                } else {
                    // `</br>` is a `<br>` and `</p>` with no open `p` makes
                    // one (WHATWG §13.2.6.4.7): both reconstruct formatting.
                    if matches!(*name, local_name!("br") | local_name!("p")) {
                        feeder.pending += 1;
                    }
                    let _ = feeder.builder.end_tag(name);
                }
            }
            (_, Markup::Text(text_state)) if !skip_this_raw => {
                feeder.pending += 1;
                let range = scanned.start..scanned.end;
                let raw = text.get(range.clone()).unwrap_or("");
                // A token of whitespace only is mapped to no node: its
                // characters go in as any others, but the sink records
                // them for no token (so no pass over the tokens unmaps it
                // afterwards, issue 12).
                let token = if is_blank(raw) { NONE } else { index as u32 };
                feeder.builder.sink().set_text_token(token);
                let special = has_special_at(text.as_bytes(), range.clone());
                match plain_text(raw, special, *text_state, &mut decoded) {
                    Some(t) => {
                        // The one token for_each_character_token would
                        // make, if the builder takes no plain text now.
                        if !t.is_empty() && !feeder.builder.plain_characters(t) {
                            let _ =
                                feeder.process(Token::CharacterTokens(StrTendril::from_slice(t)));
                        }
                    }
                    None => {
                        let page = page.get_or_insert_with(|| StrTendril::from_slice(text));
                        for_each_character_token(page, range, *text_state, |t| {
                            let _ = feeder.process(t);
                        });
                    }
                }
            }
            (_, Markup::Comment(data)) if options.keep_everything => {
                let comment = normalized(text.get(data.clone()).unwrap_or(""));
                let _ = feeder.process(Token::CommentToken(comment));
            }
            (_, Markup::CData(data)) => {
                feeder.pending += 1;
                feeder.builder.sink().set_text_token(index as u32);
                let page = page.get_or_insert_with(|| StrTendril::from_slice(text));
                for_each_character_token(page, data.clone(), TextState::Raw, |t| {
                    let _ = feeder.process(t);
                });
            }
            (_, Markup::Doctype) => {
                let raw = text.get(scanned.start..scanned.end).unwrap_or("");
                if let Some(d) = doctype(raw) {
                    let _ = feeder.process(Token::DoctypeToken(d));
                }
            }
            // Tags the input ended inside of, `</>`.
            _ => {}
        }
    }
    let _ = feeder.process(Token::EOFToken);
    let sink = feeder.builder.end();
    let tokens = sink.take_tokens();
    Ok(Built { tree: sink.finish(), tokens })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The elements and text of `html`'s body as `<name>`/text items,
    /// with the given nesting cap; the same from both tree builders.
    fn body(html: &str, max_nesting: usize) -> String {
        let ours = body_with(html, max_nesting, TreeBuilderKind::Own);
        let theirs = body_with(html, max_nesting, TreeBuilderKind::Html5ever);
        assert_eq!(ours, theirs, "own tree builder vs html5ever on {html:?}");
        theirs
    }

    fn body_with(html: &str, max_nesting: usize, tree_builder: TreeBuilderKind) -> String {
        let options = FeedOptions {
            limits: TreeLimits {
                max_nesting,
                max_formatting: 32,
                max_elements: usize::MAX,
                max_memory_factor: 0,
                max_attributes: 256,
                keep_all_attributes: false,
            },
            scripting: true,
            keep_everything: false,
            tree_builder,
        };
        let Ok(built) = build_tree(html, &options, &Deadline::never()) else {
            unreachable!("no limit, no deadline")
        };
        let mut out = String::new();
        for (i, node) in built.tree.nodes.iter().enumerate() {
            if let (Some(index), Some(run)) = (node.name_index(), node.attribute_run()) {
                let Some(name) = built.tree.names.name(index) else { continue };
                out.push('<');
                out.push_str(name);
                let element = super::super::Element { name: name.clone() };
                for (name, _) in built.tree.attrs.of(&element, run).attrs() {
                    out.push(' ');
                    out.push_str(name);
                }
                out.push('>');
            } else if node.is_text() {
                out.push_str(built.tree.text(i as u32));
            }
        }
        out
    }

    #[test]
    fn attributes_are_slimmed() {
        assert_eq!(
            body("<a data-x='1>2' href=\"/u\" onclick=go() CLASS=big\ttitle='t'>x</a>", 512),
            "<html><head><body><a href class title>x"
        );
    }

    #[test]
    fn script_content_is_dropped_and_textarea_kept() {
        assert_eq!(
            body("<script>if(a<b){}</script><style>p{}</style><textarea>a<b></textarea>", 512),
            "<html><head><script><style><body><textarea>a<b>"
        );
    }

    #[test]
    fn double_escaped_script_is_one_script() {
        let t = body("<script><!--<script></script>--></script><p>after</p>", 512);
        assert_eq!(t, "<html><head><script><body><p>after");
    }

    #[test]
    fn style_in_svg_is_markup() {
        let t = body("<svg><style><b>x</b></style></svg>", 512);
        assert_eq!(t, "<html><head><body><svg><style><b>x");
    }

    #[test]
    fn deep_nesting_is_cut() {
        let html = "<div>".repeat(5) + "x" + &"</div>".repeat(5);
        // The document, `html`, `body` and the head pointer, then 3 divs.
        assert_eq!(body(&html, 7), "<html><head><body><div><div><div>x");
    }

    #[test]
    fn raw_text_of_a_tag_dropped_for_depth_is_dropped_too() {
        let html = "<div>".repeat(5) + "<script>if (a<b) leak()</script><p>x</p>";
        let t = body(&html, 7);
        assert!(!t.contains("leak"), "{t}");
        assert!(t.ends_with("<div><div><div>x"), "{t}");
        let anchors = "<a href=x>l ".repeat(600) + "<h1>T</h1>";
        assert!(body(&anchors, 512).ends_with("<h1>T"));
    }

    #[test]
    fn elements_left_open_count_toward_the_cap() {
        // Issue 13 item 1: an unmatched end tag closes nothing.
        let t = body(&"<div></x>".repeat(1000), 20);
        assert!(t.matches("<div>").count() < 20, "{t}");
        for tag in ["<optgroup>", "<rb>", "<li><ul>"] {
            let t = body(&tag.repeat(1000), 20);
            assert!(t.matches(tag).count() < 20, "{tag}: {t}");
        }
    }

    #[test]
    fn formatting_elements_are_capped() {
        let t = body(&"<b class=c></x>x".repeat(1000), 512);
        assert!(t.matches("<b").count() <= 32 + 3, "{t}");
        assert_eq!(t.matches('x').count(), 1000);
        // Closed ones do not count.
        let t = body(&"<b>x</b>".repeat(1000), 512);
        assert_eq!(t.matches("<b>").count(), 1000);
    }

    #[test]
    fn attributes_are_capped() {
        let html = "<p ".to_string() + &"class=x ".repeat(1000) + ">y</p>";
        assert_eq!(body(&html, 512).matches("class").count(), 1);
        let html = "<p ".to_string()
            + &(0..300).map(|i| format!("id{i}=x ")).collect::<String>()
            + "id=1 class=2>y</p>";
        assert_eq!(body(&html, 512), "<html><head><body><p id class>y");
    }

    #[test]
    fn unterminated_tags_are_dropped_at_the_end_of_input() {
        // A tag the input ends inside of is no element; a bogus comment
        // (`<?`, `<!`) takes the rest; a lone `<` is text; a tag that
        // does end keeps its name, its odd attribute names slimmed away.
        let cases = [
            ("<a href='", ""),
            ("<a href=", ""),
            ("<a b c", ""),
            ("<", "<"),
            ("<a =x>", "<a>"),
            ("<?\u{c3}\u{e1}Q\u{2019}I", ""),
            ("<!d\u{f6}\u{2019}", ""),
            ("<a \u{e9}=\u{2019} b>", "<a>"),
        ];
        for (html, after) in cases {
            assert_eq!(body(html, 512), format!("<html><head><body>{after}"), "{html:?}");
        }
    }
}
