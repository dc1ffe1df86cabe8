//! The parsed page: an arena DOM in document order, per-node statistics,
//! and the source token stream, each token mapped to the node it made.
//!
//! A [`Document`] is built once per page by [`Document::parse`] and then
//! only read: every extractor, renderer and metric works on it.
//!
//! Nodes are stored in document order (pre-order), so the descendants of
//! node `n` are exactly the ids `n+1 .. end(n)`; walking a subtree is
//! walking a slice, and no traversal needs recursion.

mod attributes;
mod character_tokens;
mod deadline;
mod density;
mod encoding;
mod entities;
mod script_data;
mod sink;
mod source;
mod stats;
mod tag_attributes;
pub mod tags;
mod tree_builder;
mod tree_dump;
mod tree_feed;

use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};
use html5ever::tendril::TendrilSink;
use html5ever::{local_name, LocalName};

pub use self::attributes::ElementRef;
pub(crate) use self::attributes::{AttributeNs, AttributeTable, TagAttributes};
pub use self::deadline::Deadline;
pub use self::density::MEMORY_ALLOWANCE;
pub use self::encoding::{encoding_for_label, EncodingSource};
pub use self::entities::{decode as decode_entities, for_each_decoded_char};
use self::sink::{ArenaSink, NONE};
pub use self::source::{split_words, Source, SourceToken, TokenKind, Unit};
pub(crate) use self::stats::{count_text, is_ascii_blank};
pub use self::stats::{NodeFlags, NodeStats};
pub(crate) use self::tree_feed::drops_content;
pub use self::tree_feed::TreeBuilderKind;
use crate::error::{BinaryKind, Error, Result};
use crate::layout::Layout;

/// Identifies a node of a [`Document`]: its index in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The largest input any [`ParseOptions::max_bytes`] admits: offsets are
/// 32-bit, and decoding can triple the size of legacy-encoded text.
pub const MAX_SUPPORTED_BYTES: usize = 1 << 30;

/// The default [`ParseOptions::time_budget`].
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(60);

/// Options for [`Document::parse`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Largest accepted input in bytes; larger inputs are an
    /// [`Error::TooLarge`]. Default 64 MiB; at most
    /// [`MAX_SUPPORTED_BYTES`] (1 GiB) whatever is set here.
    pub max_bytes: usize,
    /// The character encoding if known from outside the page (an HTTP
    /// header, a WARC record, the command line). Default: detect.
    pub encoding: Option<&'static Encoding>,
    /// Most elements the tree builder may hold open, not counting
    /// formatting elements (those count against
    /// [`ParseOptions::max_formatting`]); deeper start tags are ignored,
    /// with their end tags. Counted as the tree builder holds them, so
    /// elements left open (`<div></x>`, `<optgroup>`, `<rb>`) count too.
    /// Default 512, Chromium's parser limit.
    pub max_nesting: usize,
    /// Most formatting elements (`a`, `b`, `font`, `i`, …: WHATWG
    /// §13.2.4.3) the tree builder may hold, counting each once in the
    /// stack of open elements and once in the list of active formatting
    /// elements; further formatting start tags are ignored (their text
    /// stays). The tree builder re-creates every active formatting element
    /// a paragraph closed at the next text, so without a cap 500 unclosed
    /// `<b>`s make each later paragraph 500 elements deep. Default 32.
    pub max_formatting: usize,
    /// Most elements in the tree. A page that would make more is an
    /// [`Error::TooManyElements`] (an error, not a truncation: a tree cut
    /// short would pass for the whole page). Default 16 000 000, twice
    /// the elements of a 64 MiB page of `<p>x</p>`.
    pub max_elements: usize,
    /// Most memory a page may need, as a multiple of its size, above
    /// [`MEMORY_ALLOWANCE`] (24 MiB): a page whose markup is so dense
    /// that its nodes and tokens would need more is an
    /// [`Error::TooDense`] (issue 13: `<p>x</p>` makes two nodes and
    /// three tokens in eight bytes). 0 for no limit. Default 10; real
    /// pages need 4 to 8.
    pub max_memory_factor: usize,
    /// Most attributes of one element handed to the tree builder; further
    /// ones are dropped (the source view keeps them). Default 256.
    pub max_attributes: usize,
    /// The most time one page's work may take, from the start of
    /// [`Document::parse`] to the end of extraction: parsing past it is an
    /// [`Error::TimeBudget`], and extractors stop early (the document's
    /// [`Deadline`] says so; batch runs report the page as failed). `None`
    /// for no limit. Default 60 s: the densest accepted page (64 MiB of
    /// `<p>x</p>`) takes about 24 s on one core; a real page takes
    /// milliseconds.
    pub time_budget: Option<Duration>,
    /// The page's URL, used to resolve links in output.
    pub url: Option<String>,
    /// Keep every attribute in the DOM. By default only the attributes
    /// the library reads are kept (`id`, `class`, `href`, `src`, `style`,
    /// …), which makes tree building much faster.
    pub keep_all_attributes: bool,
    /// Which tree builder builds the tree: gleaner's own (the default,
    /// issue 12) or html5ever's.
    pub tree_builder: TreeBuilderKind,
    /// Read a page without visible text again for the content a browser
    /// shows once its scripts ran: hidden wrappers shown, `<noscript>`
    /// parsed (see [`Document::parse`]'s notes). Default on.
    pub render_fallbacks: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_bytes: 64 << 20,
            encoding: None,
            max_nesting: 512,
            max_formatting: 32,
            max_elements: 16_000_000,
            max_memory_factor: 10,
            max_attributes: 256,
            time_budget: Some(DEFAULT_TIME_BUDGET),
            url: None,
            keep_all_attributes: false,
            tree_builder: TreeBuilderKind::Own,
            render_fallbacks: true,
        }
    }
}

impl ParseOptions {
    /// Sets [`ParseOptions::max_bytes`].
    pub fn max_bytes(mut self, bytes: usize) -> ParseOptions {
        self.max_bytes = bytes;
        self
    }

    /// Sets [`ParseOptions::encoding`].
    pub fn encoding(mut self, encoding: Option<&'static Encoding>) -> ParseOptions {
        self.encoding = encoding;
        self
    }

    /// Sets [`ParseOptions::max_nesting`].
    pub fn max_nesting(mut self, depth: usize) -> ParseOptions {
        self.max_nesting = depth;
        self
    }

    /// Sets [`ParseOptions::max_formatting`].
    pub fn max_formatting(mut self, count: usize) -> ParseOptions {
        self.max_formatting = count;
        self
    }

    /// Sets [`ParseOptions::max_elements`].
    pub fn max_elements(mut self, count: usize) -> ParseOptions {
        self.max_elements = count;
        self
    }

    /// Sets [`ParseOptions::max_memory_factor`].
    pub fn max_memory_factor(mut self, factor: usize) -> ParseOptions {
        self.max_memory_factor = factor;
        self
    }

    /// Sets [`ParseOptions::max_attributes`].
    pub fn max_attributes(mut self, count: usize) -> ParseOptions {
        self.max_attributes = count;
        self
    }

    /// Sets [`ParseOptions::time_budget`].
    pub fn time_budget(mut self, budget: Option<Duration>) -> ParseOptions {
        self.time_budget = budget;
        self
    }

    /// Sets [`ParseOptions::tree_builder`].
    pub fn tree_builder(mut self, kind: TreeBuilderKind) -> ParseOptions {
        self.tree_builder = kind;
        self
    }

    /// Sets [`ParseOptions::keep_all_attributes`].
    pub fn keep_all_attributes(mut self, yes: bool) -> ParseOptions {
        self.keep_all_attributes = yes;
        self
    }

    /// Sets [`ParseOptions::url`].
    pub fn url(mut self, url: Option<String>) -> ParseOptions {
        self.url = url;
        self
    }
}

/// An element's name, kept once by the document for all its elements of
/// that name (their nodes index it); [`ElementRef`] dereferences to it,
/// so `e.name` is an element's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// The local name (`div`, `a`, …; lower-case but for SVG's and
    /// MathML's adjusted names, such as `foreignObject`).
    pub name: LocalName,
}

/// What a node is, as [`Document::kind`] gives it.
#[derive(Debug, Clone)]
pub enum NodeKind<'a> {
    /// The document root.
    Document,
    /// `<!DOCTYPE …>`.
    Doctype,
    /// A comment or processing instruction.
    Comment,
    /// An element, with its attributes.
    Element(ElementRef<'a>),
    /// A text node; the range indexes the document's text buffer.
    Text(Range<u32>),
}

/// One node of the arena: 24 bytes with its share of the statistics
/// (issue 13: a page of `<p>x</p>` has a node for every 4 bytes). An
/// element keeps the index of its name in the document's names rather
/// than the name itself, whose single niche value left an enum of names
/// and ranges 24 bytes and the node 32; a text node keeps its statistics
/// itself (its counts in `stats`, its flags in `name_or_kind`), and so
/// does a node without children or whose only child is text (a
/// [`stats::Derived`] code in `stats`: its sums are read from that
/// child), so that only the other nodes have a [`NodeStats`] of 28 bytes.
/// What the node is, is [`Document::kind`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    parent: u32,
    end: u32,
    /// An element's name: its index in the document's names; for other
    /// nodes one of the kind codes above any index (`Node::TEXT` with the
    /// text node's [`NodeFlags`] in the low byte, …).
    name_or_kind: u32,
    /// An element's run of the attribute table, a text node's range of
    /// the text; empty for other nodes.
    start: u32,
    stop: u32,
    /// Set by the statistics ([`stats::compute`]): a text node's counts
    /// (see [`stats::TextCounts`]), a [`stats::Derived`] code, or the
    /// index of the node's [`NodeStats`]. Before that, while the tree is
    /// built, the node's previous sibling plus one (0: none; see
    /// [`sink::prev_sibling`]), and 0 once [`sink::BuiltTree::lay_out`]
    /// has put the nodes in document order, until the statistics set it.
    stats: u32,
}

// See `Node`'s docs (issue 13).
const _: () = assert!(std::mem::size_of::<Node>() == 24);

impl Node {
    const DOCUMENT: u32 = u32::MAX;
    const DOCTYPE: u32 = u32::MAX - 1;
    const COMMENT: u32 = u32::MAX - 2;
    /// Text nodes' codes: this, with the node's flags in the low byte.
    const TEXT: u32 = 0xFFFF_FE00;

    /// A node of a kind without a payload (`kind`: one of the codes).
    const fn of(kind: u32) -> Node {
        Node { parent: NONE, end: NONE, name_or_kind: kind, start: 0, stop: 0, stats: 0 }
    }

    /// The document root (also a `<template>`'s contents).
    pub(crate) const fn document() -> Node {
        Node::of(Node::DOCUMENT)
    }

    /// A doctype.
    pub(crate) const fn doctype() -> Node {
        Node::of(Node::DOCTYPE)
    }

    /// A comment.
    pub(crate) const fn comment() -> Node {
        Node::of(Node::COMMENT)
    }

    /// An element whose name is `name` of the document's names, with the
    /// attribute run `attrs`.
    pub(crate) fn element(name: u32, attrs: Range<u32>) -> Node {
        // Indexes are far below the codes (a name per tag of a page of at
        // most 1 GiB); were one not, it would stay an element.
        let code = name.min(Node::TEXT - 1);
        Node { start: attrs.start, stop: attrs.end, ..Node::of(code) }
    }

    /// A text node holding `range` of the text buffer.
    pub(crate) fn text(range: Range<u32>) -> Node {
        Node { start: range.start, stop: range.end, ..Node::of(Node::TEXT) }
    }

    /// True for a text node.
    #[inline]
    pub(crate) fn is_text(&self) -> bool {
        self.name_or_kind & !0xFF == Node::TEXT
    }

    /// A text node's flags (as [`stats::compute`] set them).
    #[inline]
    fn text_flags(&self) -> NodeFlags {
        NodeFlags::from_byte(self.name_or_kind as u8)
    }

    /// The index of an element's name in the document's names.
    #[inline]
    pub(crate) fn name_index(&self) -> Option<u32> {
        (self.name_or_kind < Node::TEXT).then_some(self.name_or_kind)
    }

    /// A text node's range of the text buffer.
    #[inline]
    pub(crate) fn text_range(&self) -> Option<Range<u32>> {
        self.is_text().then_some(self.start..self.stop)
    }

    /// An element's attribute run.
    #[inline]
    pub(crate) fn attribute_run(&self) -> Option<Range<u32>> {
        self.name_index().map(|_| self.start..self.stop)
    }

    /// Points a text node at `range` (for other nodes, nothing).
    pub(crate) fn set_text_range(&mut self, range: Range<u32>) {
        if self.is_text() {
            (self.start, self.stop) = (range.start, range.end);
        }
    }

    /// Gives an element the attribute run `run` (for other nodes,
    /// nothing).
    pub(crate) fn set_attribute_run(&mut self, run: Range<u32>) {
        if self.name_index().is_some() {
            (self.start, self.stop) = (run.start, run.end);
        }
    }
}

/// A parsed page. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Document {
    nodes: Vec<Node>,
    /// The elements' names, indexed by their nodes: the source's tag
    /// names (the tree builder's own elements, such as `tbody`, among
    /// them), copied — a few dozen.
    names: Vec<Element>,
    text: String,
    attrs: AttributeTable,
    /// The statistics of the nodes that do not keep theirs in their node
    /// (text nodes and [`stats::Derived`] ones do), by the node's `stats`.
    stats: Vec<NodeStats>,
    /// The counts of text nodes too long for their node.
    long_texts: Vec<stats::LongText>,
    source: Source,
    encoding: &'static Encoding,
    encoding_source: EncodingSource,
    url: Option<String>,
    input_bytes: usize,
    layout: Option<Arc<Layout>>,
    deadline: Deadline,
    /// What counts as hidden: not hidden elements on a page whose content
    /// waits hidden for its scripts, `<noscript>` shown on a page read
    /// without scripting ([`Document::rendered_fallback`]).
    visibility: stats::Visibility,
}

/// Bytes inside `<noscript>` elements of a page's source: what a reader
/// without scripts would be shown (the tree built with scripting on keeps
/// none of it).
fn noscript_bytes(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut total = 0;
    let mut at = 0;
    let opens =
        |i: usize| bytes.get(i..i + 9).is_some_and(|w| w.eq_ignore_ascii_case(b"<noscript"));
    while let Some(i) = memchr::memchr(b'<', bytes.get(at..).unwrap_or(&[])).map(|i| at + i) {
        if !opens(i) {
            at = i + 1;
            continue;
        }
        let body = i + 9;
        let end = memchr::memmem::find_iter(bytes.get(body..).unwrap_or(&[]), b"</")
            .map(|j| body + j)
            .find(|&j| {
                bytes.get(j + 2..j + 10).is_some_and(|w| w.eq_ignore_ascii_case(b"noscript"))
            })
            .unwrap_or(bytes.len());
        total += end - body;
        at = end + 1;
    }
    total
}

/// Below this many characters of visible text, a page is read again for
/// content a browser would show once its scripts ran
/// (`Document::rendered_fallback`, internal) \[I\].
pub const RENDERED_MIN_CHARS: u32 = 250;

/// … and the other reading is kept when it shows this many times the
/// text \[I\].
pub const RENDERED_GAIN: u32 = 4;

impl Document {
    /// Parses a page from raw bytes: detects the encoding, tokenizes the
    /// page and builds the DOM with html5ever's tree builder from those
    /// tokens (each token mapped to the node it made), and computes node
    /// statistics.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when `bytes` exceeds `options.max_bytes`,
    /// [`Error::TooManyElements`] when the tree would have more than
    /// `options.max_elements` elements, and [`Error::NotHtml`] for recognisable binary data (images, archives,
    /// PDFs, data full of control bytes). Malformed HTML is never an error.
    ///
    /// ```
    /// use gleaner::{Document, ParseOptions};
    /// let doc = Document::parse(b"<p>Hello <b>world</b></p>", &ParseOptions::default())?;
    /// assert_eq!(doc.text_nodes().count(), 2);
    /// # Ok::<(), gleaner::Error>(())
    /// ```
    pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<Document> {
        let deadline = Deadline::starting_now(options.time_budget);
        let given = Document::accept(bytes, options)?;
        let decoded = encoding::decode(bytes, given);
        Document::from_bytes_decoded(decoded, bytes.len(), options, deadline)
    }

    /// As [`Document::parse`], taking the bytes over: a page in UTF-8
    /// (most pages) becomes the document's text without a copy, so the
    /// page is not held twice while it is parsed.
    ///
    /// # Errors
    /// As [`Document::parse`].
    pub fn parse_vec(bytes: Vec<u8>, options: &ParseOptions) -> Result<Document> {
        let deadline = Deadline::starting_now(options.time_budget);
        let given = Document::accept(&bytes, options)?;
        let size = bytes.len();
        let decoded = encoding::decode_vec(bytes, given);
        Document::from_bytes_decoded(decoded, size, options, deadline)
    }

    /// The checks before decoding: the size limit and binary data. Gives
    /// the encoding known from outside the page, if any.
    fn accept(bytes: &[u8], options: &ParseOptions) -> Result<Option<&'static Encoding>> {
        let limit = options.max_bytes.min(MAX_SUPPORTED_BYTES);
        if bytes.len() > limit {
            return Err(Error::TooLarge { size: bytes.len(), limit });
        }
        let given = options.encoding.or_else(|| utf16_without_bom(bytes));
        // A byte order mark settles the question: UTF-16 text is half NULs.
        if given.is_none() && Encoding::for_bom(bytes).is_none() {
            if let Some(kind) = binary_kind(bytes) {
                return Err(Error::NotHtml { kind });
            }
        }
        Ok(given)
    }

    fn from_bytes_decoded(
        (text, encoding, encoding_source): (String, &'static Encoding, EncodingSource),
        input_bytes: usize,
        options: &ParseOptions,
        deadline: Deadline,
    ) -> Result<Document> {
        let mut doc = Document::from_decoded(text, options, deadline)?;
        doc.encoding = encoding;
        doc.encoding_source = encoding_source;
        doc.input_bytes = input_bytes;
        Ok(doc)
    }

    /// Parses an already decoded page.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the text exceeds `options.max_bytes`, and
    /// [`Error::TooManyElements`] when the tree would have more than
    /// `options.max_elements` elements.
    pub fn parse_str(html: &str, options: &ParseOptions) -> Result<Document> {
        let deadline = Deadline::starting_now(options.time_budget);
        let limit = options.max_bytes.min(MAX_SUPPORTED_BYTES);
        if html.len() > limit {
            return Err(Error::TooLarge { size: html.len(), limit });
        }
        Document::from_decoded(html.to_owned(), options, deadline)
    }

    fn from_decoded(text: String, options: &ParseOptions, deadline: Deadline) -> Result<Document> {
        let feed = tree_feed::FeedOptions::of(options);
        let doc = Document::build(text, options, &feed, deadline)?;
        if doc.stats(doc.root()).chars >= RENDERED_MIN_CHARS || !options.render_fallbacks {
            return Ok(doc);
        }
        doc.rendered_fallback(options)
    }

    /// The tree and statistics of a decoded page, read as `feed` says.
    fn build(
        text: String,
        options: &ParseOptions,
        feed: &tree_feed::FeedOptions,
        deadline: Deadline,
    ) -> Result<Document> {
        let input_bytes = text.len();
        let visibility =
            stats::Visibility { noscript: !feed.scripting, ..stats::Visibility::BROWSER };
        let built = match tree_feed::build_tree(&text, feed, &deadline) {
            Ok(built) => built,
            Err(tree_feed::Stopped::TooManyElements) => {
                return Err(Error::TooManyElements { limit: options.max_elements })
            }
            Err(tree_feed::Stopped::TooDense) => {
                return Err(Error::TooDense {
                    size: input_bytes,
                    factor: options.max_memory_factor,
                })
            }
            Err(tree_feed::Stopped::OutOfTime) => return Err(deadline.error()),
        };
        deadline.check()?;
        let tree_feed::Built { tree, tokens } = built;
        // The tree's links are freed here, before the statistics.
        let (mut nodes, names, dom_text, attrs, position) = tree.lay_out();
        let mut source = Source::new(text, tokens, names);
        let names: Vec<Element> =
            source.tag_names().iter().map(|name| Element { name: name.clone() }).collect();
        source.map_nodes(position.as_deref());
        drop(position);
        let (stats, long_texts) =
            stats::compute(&mut nodes, &names, &dom_text, &attrs, None, visibility);
        let doc = Document {
            visibility,
            nodes,
            names,
            text: dom_text,
            attrs,
            stats,
            long_texts,
            source,
            encoding: encoding_rs::UTF_8,
            encoding_source: EncodingSource::Given,
            url: options.url.clone(),
            input_bytes,
            layout: None,
            deadline,
        };
        doc.deadline.check()?;
        Ok(doc)
    }

    /// A page with almost no visible text whose content a browser would
    /// show once its scripts ran \[I\] (issue 30: 2 % of today's pages in
    /// WCXB-dev, most of them forum threads): the content held in
    /// elements hidden until then (`<div hidden>` of React's streamed
    /// rendering, a `visibility:hidden` wrapper of the whole page), or in
    /// `<noscript>` for readers without scripts (Discourse's threads). The
    /// page is read again without hiding those elements, then with the
    /// scripting flag off (`<noscript>` parsed as markup, WHATWG
    /// §13.2.6.4.4), and the first reading that shows at least
    /// [`RENDERED_GAIN`] times the text, and [`RENDERED_MIN_CHARS`], is
    /// kept. Pages with visible text cost nothing more.
    fn rendered_fallback(mut self, options: &ParseOptions) -> Result<Document> {
        let visible = self.stats(self.root()).chars;
        let enough = |chars: u32| {
            chars >= RENDERED_MIN_CHARS && chars >= visible.saturating_mul(RENDERED_GAIN)
        };
        // Hidden elements shown.
        self = self.with_hidden_honoured(false);
        if enough(self.stats(self.root()).chars) {
            return Ok(self);
        }
        if noscript_bytes(self.source.text()) < RENDERED_MIN_CHARS as usize {
            return Ok(self.with_hidden_honoured(true));
        }
        // `<noscript>` read as markup, from the same decoded text.
        let feed =
            tree_feed::FeedOptions { scripting: false, ..tree_feed::FeedOptions::of(options) };
        let text = self.source.text().to_owned();
        let (encoding, encoding_source, input_bytes) =
            (self.encoding, self.encoding_source, self.input_bytes);
        let deadline = std::mem::take(&mut self.deadline);
        match Document::build(text, options, &feed, deadline) {
            Ok(mut again) if enough(again.stats(again.root()).chars) => {
                again.encoding = encoding;
                again.encoding_source = encoding_source;
                again.input_bytes = input_bytes;
                Ok(again)
            }
            Ok(again) => {
                self.deadline = again.deadline;
                Ok(self.with_hidden_honoured(true))
            }
            Err(e) => Err(e),
        }
    }

    /// The statistics recomputed with hidden elements hidden (`true`, the
    /// first reading) or shown (`false`), for
    /// [`Document::rendered_fallback`].
    fn with_hidden_honoured(mut self, honour: bool) -> Document {
        self.visibility.honour_hidden = honour;
        let (stats, long_texts) = stats::compute(
            &mut self.nodes,
            &self.names,
            &self.text,
            &self.attrs,
            None,
            self.visibility,
        );
        self.stats = stats;
        self.long_texts = long_texts;
        self
    }

    /// The time budget of this page's work, started when parsing began
    /// ([`ParseOptions::time_budget`]). Extractors check it in their loops
    /// and stop early once it is spent; callers ask
    /// [`Deadline::was_hit`] after extracting.
    pub fn deadline(&self) -> &Deadline {
        &self.deadline
    }

    /// The document with its time budget replaced: to give extraction a
    /// budget of its own, or to lift the limit for a page parsed under one.
    pub fn with_deadline(mut self, deadline: Deadline) -> Document {
        self.deadline = deadline;
        self
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a document has at least its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// All node ids in document order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The node with this id.
    ///
    /// Ids come from this document, so they are in range; a foreign id
    /// out of range returns the root rather than panic.
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id.index()).unwrap_or(&self.nodes[0])
    }

    /// What the node is.
    pub fn kind(&self, id: NodeId) -> NodeKind<'_> {
        let node = self.node(id);
        match node.name_or_kind {
            Node::DOCUMENT => NodeKind::Document,
            Node::DOCTYPE => NodeKind::Doctype,
            Node::COMMENT => NodeKind::Comment,
            _ if node.is_text() => NodeKind::Text(node.start..node.stop),
            _ => self.element(id).map_or(NodeKind::Comment, NodeKind::Element),
        }
    }

    /// The element with its attributes, if the node is an element.
    pub fn element(&self, id: NodeId) -> Option<ElementRef<'_>> {
        let node = self.node(id);
        let name = self.names.get(node.name_index()? as usize)?;
        Some(self.attrs.of(name, node.start..node.stop))
    }

    /// The element name, if the node is an element.
    #[inline]
    pub fn name(&self, id: NodeId) -> Option<&LocalName> {
        let index = self.node(id).name_index()?;
        self.names.get(index as usize).map(|e| &e.name)
    }

    /// True if the node is an element with this name.
    pub fn is(&self, id: NodeId, name: LocalName) -> bool {
        self.name(id) == Some(&name)
    }

    /// An attribute of an element node.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.element(id)?.attr(name)
    }

    /// The text of a text node (raw, whitespace as in the page); empty for
    /// other nodes.
    pub fn text(&self, id: NodeId) -> &str {
        match self.node(id).text_range() {
            Some(r) => self.text.get(r.start as usize..r.end as usize).unwrap_or(""),
            None => "",
        }
    }

    /// True for text nodes.
    #[inline]
    pub fn is_text(&self, id: NodeId) -> bool {
        self.node(id).is_text()
    }

    /// The parent, `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.node(id).parent;
        (p != NONE).then_some(NodeId(p))
    }

    /// The ancestors, nearest first.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.parent(id), move |&n| self.parent(n))
    }

    /// Distance from the root (the root is 0): the number of ancestors.
    pub fn depth(&self, id: NodeId) -> u32 {
        self.ancestors(id).count() as u32
    }

    /// One past the last descendant: the descendants are `id+1 .. end`.
    pub fn subtree_end(&self, id: NodeId) -> NodeId {
        NodeId(self.node(id).end)
    }

    /// The node and its descendants, in document order.
    pub fn subtree(&self, id: NodeId) -> impl DoubleEndedIterator<Item = NodeId> {
        (id.0..self.node(id).end).map(NodeId)
    }

    /// True if `descendant` is in the subtree of `ancestor` (or equal).
    pub fn contains(&self, ancestor: NodeId, descendant: NodeId) -> bool {
        ancestor <= descendant && descendant.0 < self.node(ancestor).end
    }

    /// The children, in order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let end = self.node(id).end;
        let first = id.0 + 1;
        std::iter::successors((first < end).then_some(NodeId(first)), move |&c| {
            let next = self.node(c).end;
            (next < end).then_some(NodeId(next))
        })
    }

    /// Statistics of the node's subtree (see [`NodeStats`]). Inlined
    /// always: most callers read a field or two, which the inlined reads
    /// narrow to those.
    #[inline(always)]
    pub fn stats(&self, id: NodeId) -> NodeStats {
        let node = self.node(id);
        if node.is_text() {
            self.text_node_stats(id.0, node)
        } else if let Some(derived) = stats::Derived::of(node.stats) {
            let child = derived.has_text_child().then(|| {
                let child = id.0.wrapping_add(1);
                self.text_node_stats(child, self.node(NodeId(child)))
            });
            derived.stats(child)
        } else {
            self.stats.get(node.stats as usize).copied().unwrap_or_default()
        }
    }

    /// The statistics a text node keeps in `node`, its node `index`.
    #[inline(always)]
    fn text_node_stats(&self, index: u32, node: &Node) -> NodeStats {
        let (chars, words) = stats::TextCounts(node.stats).get(index, &self.long_texts);
        stats::text_stats(chars, words, node.text_flags())
    }

    /// The node's flags: its [`Document::stats`]' `flags`, read without
    /// the counts.
    #[inline]
    pub fn flags(&self, id: NodeId) -> NodeFlags {
        let node = self.node(id);
        if node.is_text() {
            node.text_flags()
        } else if let Some(derived) = stats::Derived::of(node.stats) {
            derived.flags()
        } else {
            self.stats.get(node.stats as usize).map_or(NodeFlags::default(), |s| s.flags)
        }
    }

    /// The visible text nodes with some non-whitespace text, in order.
    pub fn text_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids().filter(move |&id| self.is_visible_text(id))
    }

    /// Is the node one of [`Document::text_nodes`]: visible text with
    /// some non-whitespace?
    #[inline]
    pub fn is_visible_text(&self, id: NodeId) -> bool {
        // From the node alone, which keeps a text node's statistics.
        let node = self.node(id);
        node.is_text()
            && node.text_flags().contains(NodeFlags::VISIBLE)
            && stats::TextCounts(node.stats).has_chars()
    }

    /// The `<body>` element (html5ever always creates one, except for
    /// frameset pages, where this is the root).
    pub fn body(&self) -> NodeId {
        self.ids()
            .find(|&id| self.is(id, local_name!("body")) || self.is(id, local_name!("frameset")))
            .unwrap_or(NodeId(0))
    }

    /// The source view: decoded text and its tokens, each with the node it
    /// made.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The encoding the page was decoded with.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Where the encoding came from.
    pub fn encoding_source(&self) -> EncodingSource {
        self.encoding_source
    }

    /// The URL given in the parse options.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The document base URL (WHATWG §4.2.3): the first `<base>` with an
    /// `href`, resolved against the page's [`url`](Document::url), else
    /// that URL; `None` when neither gives an absolute URL. Renderers
    /// resolve relative links and image sources against it.
    ///
    /// ```
    /// use gleaner::{Document, ParseOptions};
    /// let opts = ParseOptions::default().url(Some("https://example.org/a/b.html".into()));
    /// let doc = Document::parse(b"<base href=/docs/><p>x</p>", &opts)?;
    /// assert_eq!(doc.base_url().map(String::from).as_deref(), Some("https://example.org/docs/"));
    /// # Ok::<(), gleaner::Error>(())
    /// ```
    pub fn base_url(&self) -> Option<url::Url> {
        let page = self.url().and_then(|u| url::Url::parse(u.trim()).ok());
        let href = self
            .ids()
            .find(|&id| self.is(id, local_name!("base")) && self.attr(id, "href").is_some())
            .and_then(|id| self.attr(id, "href"))
            .map(str::trim);
        match (href, page) {
            (Some(h), Some(p)) => p.join(h).ok().or(Some(p)),
            (Some(h), None) => url::Url::parse(h).ok(),
            (None, page) => page,
        }
    }

    /// Size of the input in bytes.
    pub fn input_bytes(&self) -> usize {
        self.input_bytes
    }

    /// A copy of this page with the nodes marked in `aside` (indexed by
    /// node id; with their subtrees) set aside: their text is invisible to
    /// every algorithm — not counted in the node statistics, not
    /// [`NodeFlags::VISIBLE`], and gone from the source's content tokens —
    /// while node ids stay the same, so a [`Selection`](crate::Selection)
    /// made on the copy applies to this document too. This is how a site
    /// template's text is kept out of any extractor
    /// ([`template`](crate::template)).
    pub fn set_aside(&self, aside: &[bool]) -> Document {
        let mut doc = self.clone();
        doc.hide(aside);
        doc
    }

    /// [`Document::set_aside`] in place.
    fn hide(&mut self, aside: &[bool]) {
        let mut hidden = vec![false; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let inherited = node.parent != sink::NONE && hidden[node.parent as usize];
            hidden[i] = inherited || aside.get(i).copied().unwrap_or(false);
        }
        // What an earlier call set aside stays aside: the statistics are
        // computed afresh, so every node invisible now is marked too (for
        // one invisible by its name or attributes, a no-op). The source
        // keeps what it set aside itself.
        let invisible: Vec<bool> = (0..self.nodes.len() as u32)
            .map(|i| hidden[i as usize] || !self.flags(NodeId(i)).contains(NodeFlags::VISIBLE))
            .collect();
        (self.stats, self.long_texts) = stats::compute(
            &mut self.nodes,
            &self.names,
            &self.text,
            &self.attrs,
            Some(&invisible),
            self.visibility,
        );
        self.source.set_aside(&hidden);
    }

    /// The document with `layout` attached: every extractor that reads
    /// boxes or font sizes ([`Document::layout`]) uses it, and text the
    /// layout hides (`display:none`, `visibility:hidden`, `opacity:0`,
    /// clipped to nothing — closed modals, cookie dialogs, off-canvas
    /// menus) is set aside for every extractor, as with
    /// [`Document::set_aside`]. A text node is hidden when an element
    /// above it has an invisible box. A layout made
    /// for another document (a different node count) is ignored.
    ///
    /// A page that hides most of its own text is one that scripts reveal
    /// (`html {display:none}` against clickjacking, `body
    /// {visibility:hidden}` until an A/B test loads), laid out with
    /// scripts off: when more than half of the words would be hidden,
    /// nothing is, and every box counts as visible
    /// ([`Layout::show_all`]).
    pub fn with_layout(self, mut layout: Layout) -> Document {
        if layout.len() != self.nodes.len() {
            return self;
        }
        let mut hidden = vec![false; self.nodes.len()];
        let (mut hidden_words, mut words) = (0u64, 0u64);
        for (i, node) in self.nodes.iter().enumerate() {
            let inherited = node.parent != sink::NONE && hidden[node.parent as usize];
            let own = layout.get(NodeId(i as u32)).is_some_and(|b| !b.visible);
            hidden[i] = inherited || own;
            if node.is_text() {
                let w = u64::from(self.stats(NodeId(i as u32)).words);
                words += w;
                if hidden[i] {
                    hidden_words += w;
                }
            }
        }
        let revealed_by_script = hidden_words * 2 > words;
        if revealed_by_script {
            layout.show_all();
        }
        let mut doc = self;
        if hidden_words > 0 && !revealed_by_script {
            let text_only: Vec<bool> =
                doc.nodes.iter().zip(&hidden).map(|(n, &h)| h && n.is_text()).collect();
            doc.hide(&text_only);
        }
        doc.layout = Some(Arc::new(layout));
        doc
    }

    /// The layout attached with [`Document::with_layout`], if any.
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_deref()
    }

    /// The text content of a subtree, whitespace-collapsed, visible text
    /// only.
    pub fn text_content(&self, id: NodeId) -> String {
        let mut out = String::new();
        for n in self.subtree(id) {
            if self.is_text(n) && self.flags(n).contains(NodeFlags::VISIBLE) {
                push_collapsed(&mut out, self.text(n));
            }
        }
        out.trim_end().to_string()
    }

    /// A label for people, CSS-like: the tag, `#id` and up to three
    /// `.class`es (`div#main.story.wide`); `#text` for a text node.
    pub fn selector(&self, id: NodeId) -> String {
        let Some(e) = self.element(id) else { return "#text".into() };
        let mut s = e.name.to_string();
        if let Some(v) = e.attr("id").map(str::trim).filter(|v| !v.is_empty()) {
            s.push('#');
            s.push_str(v);
        }
        for class in e.attr("class").unwrap_or_default().split_ascii_whitespace().take(3) {
            s.push('.');
            s.push_str(class);
        }
        s
    }
}

/// Tree building alone, for the parse benchmark's reference figure: runs
/// html5ever (its tokenizer and tree builder) with gleaner's arena sink
/// over `html` as given (no encoding detection, statistics or source
/// mapping) and returns the node count.
#[doc(hidden)]
pub fn bench_tree_building(html: &str) -> usize {
    html5ever::parse_document(ArenaSink::new(), Default::default()).one(html).len()
}

/// The html5lib tree-construction test format of a page's tree, built by
/// gleaner's parse and by html5ever alone, for the conformance test
/// (`tests/html5lib_tree.rs`). Not part of the API.
#[doc(hidden)]
pub mod conformance {
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
}

/// The parse's stages one at a time, for the per-stage benchmarks
/// (`cargo bench -p gleaner --bench parse`, issue 12). Not part of the API.
#[doc(hidden)]
pub mod stages {
    use super::{encoding, source, stats, tree_feed, Deadline, Document, ParseOptions, Source};

    /// Encoding detection and decoding.
    pub fn decode(bytes: &[u8]) -> String {
        encoding::decode(bytes, None).0
    }

    /// The source tokenizer on its own (content models guessed from tag
    /// names; the parse lets the tree builder decide).
    pub fn tokenize(text: String) -> Source {
        source::tokenize(text)
    }

    /// Tree construction: the source tokenizer feeding html5ever's tree
    /// builder, with the token↔node records. The number of nodes built.
    pub fn tree(text: &str) -> usize {
        let options = tree_feed::FeedOptions::of(&ParseOptions::default());
        tree_feed::build_tree(text, &options, &Deadline::never()).map_or(0, |b| b.tree.len())
    }

    /// Node statistics over a parsed document, computed again in place
    /// (its text nodes and derived nodes keep theirs): the number of nodes.
    pub fn stats(doc: &mut Document) -> usize {
        let (stats, long_texts) =
            stats::compute(&mut doc.nodes, &doc.names, &doc.text, &doc.attrs, None, doc.visibility);
        (doc.stats, doc.long_texts) = (stats, long_texts);
        doc.nodes.len()
    }
}

/// Appends `text` to `out` with runs of whitespace collapsed to one space
/// and no leading space at the start of `out`.
pub fn push_collapsed(out: &mut String, text: &str) {
    let mut space = out.ends_with(' ') || out.is_empty();
    for c in text.chars() {
        if c.is_whitespace() {
            if !space {
                out.push(' ');
                space = true;
            }
        } else {
            out.push(c);
            space = false;
        }
    }
}

/// UTF-16 without a BOM: `<\0` or `\0<` at the start.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head: Vec<u8> = bytes.iter().take(2).copied().collect();
    match head.as_slice() {
        [b'<', 0] => Some(UTF_16LE),
        [0, b'<'] => Some(UTF_16BE),
        _ => None,
    }
}

/// The bytes of a page's head that [`binary_kind`] reads.
const SNIFF_HEAD: usize = 8192;

/// What kind of binary data `bytes` are, or `None` for text: a known
/// signature (gzip, PDF, PNG, JPEG, GIF, ZIP), or a head (the first 8 KiB)
/// that is not text in any encoding. Two tests, either enough:
///
/// - **control bytes** (C0 other than TAB, LF, FF, CR and ESC): random
///   data has 27 in 256 (10.5 %); the real pages of every corpus at hand
///   (the WCEB datasets and the WCXB dev set, 4 484 pages, checked by
///   `gleaner-eval`'s `issue_31_no_real_page_is_taken_for_binary`) have
///   at most 0.16 %. More than 1 % (at least 8 of them), or more than a
///   tenth of a short head, is binary: a margin of six over the pages,
///   and twenty standard deviations under random data of 4 KiB.
/// - **byte entropy** of a head of 1 KiB or more that is not UTF-8:
///   compressed and random data are at 7.95 bits a byte over 4 KiB, the
///   corpus's heads at most 6.13, and text in legacy multi-byte encodings
///   (GBK, Shift_JIS, Big5: two bytes a character from a few thousand)
///   stays near 7 even without markup; 7.5 bits or more is binary. UTF-8
///   is exempt: its continuation bytes take 64 values only, so no text
///   reaches it, and a valid UTF-8 head is text by construction.
///
/// Deviation from the WHATWG MIME Sniffing Standard §7.2 ("binary data
/// byte" = any of those control bytes makes a resource binary): one stray
/// control byte is common in real pages (a 0x0B from a word processor,
/// a 0x1F in a tracking script), so a density is used, not a presence.
///
/// Text in UTF-16 or with a byte order mark is never sniffed (see
/// [`Document::parse`]).
pub fn binary_kind(bytes: &[u8]) -> Option<BinaryKind> {
    const SIGNATURES: &[(&[u8], BinaryKind)] = &[
        (b"\x1f\x8b", BinaryKind::Gzip),
        (b"%PDF-", BinaryKind::Pdf),
        (b"\x89PNG", BinaryKind::Png),
        (b"\xff\xd8\xff", BinaryKind::Jpeg),
        (b"GIF8", BinaryKind::Gif),
        (b"PK\x03\x04", BinaryKind::Zip),
    ];
    if let Some((_, kind)) = SIGNATURES.iter().find(|(sig, _)| bytes.starts_with(sig)) {
        return Some(*kind);
    }
    let head = &bytes[..bytes.len().min(SNIFF_HEAD)];
    if head.len() < 16 {
        return None;
    }
    let mut counts = [0usize; 256];
    for &b in head {
        counts[usize::from(b)] += 1;
    }
    let control: usize = (0u8..0x20)
        .filter(|b| !matches!(b, b'\n' | b'\r' | b'\t' | 0x0C | 0x1B))
        .map(|b| counts[usize::from(b)])
        .sum();
    if control * 10 > head.len() || (control >= 8 && control * 100 > head.len()) {
        return Some(BinaryKind::Binary);
    }
    if head.len() >= 1024 && !is_utf8_prefix(head) && entropy(&counts, head.len()) >= 7.5 {
        return Some(BinaryKind::Binary);
    }
    None
}

/// Whether `bytes` are UTF-8, but for a character cut at the end.
fn is_utf8_prefix(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// Shannon entropy of a byte histogram over `n` bytes, in bits a byte.
fn entropy(counts: &[usize; 256], n: usize) -> f64 {
    let n = n as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    #[test]
    fn a_page_taken_over_parses_as_a_borrowed_one() {
        let pages: [&[u8]; 5] = [
            b"<p>plain \xc3\xa9t\xc3\xa9</p>",
            b"<p>broken \xff utf-8</p>",
            b"\xef\xbb\xbf<p>with a byte order mark</p>",
            b"<meta charset=latin1><p>caf\xe9</p>",
            b"",
        ];
        for page in pages {
            let options = ParseOptions::default();
            let (borrowed, owned) = (
                Document::parse(page, &options).expect("parse"),
                Document::parse_vec(page.to_vec(), &options).expect("parse_vec"),
            );
            assert_eq!(borrowed.source().text(), owned.source().text(), "{page:?}");
            assert_eq!(borrowed.text_content(borrowed.root()), owned.text_content(owned.root()));
            assert_eq!(borrowed.encoding(), owned.encoding());
            assert_eq!(borrowed.input_bytes(), owned.input_bytes());
        }
    }

    // Text set aside stays aside when more is set aside later (a layout's
    // hidden text, then a template's): the statistics are recomputed with
    // both, and the source keeps both out.
    #[test]
    fn setting_aside_twice_keeps_both() {
        let d = doc("<div><p>menu one</p><p>ad two</p><p>story three four</p></div>");
        let p = |text: &str| {
            d.ids().find(|&id| d.text_content(id) == text && d.element(id).is_some()).expect(text)
        };
        let mask = |id: NodeId| (0..d.len()).map(|i| i == id.index()).collect::<Vec<bool>>();
        let twice = d.set_aside(&mask(p("menu one"))).set_aside(&mask(p("ad two")));
        assert_eq!(twice.text_content(twice.root()), "story three four");
        assert_eq!(twice.stats(twice.root()).words, 3);
        let source_text: Vec<&str> = twice
            .source()
            .content_tokens()
            .filter(|(_, t)| t.is_text())
            .map(|(_, t)| twice.source().token_text(t).trim())
            .collect();
        assert_eq!(source_text, ["story three four"]);
    }

    #[test]
    fn nodes_are_in_document_order_with_subtree_ranges() {
        let d = doc("<div><p>a<b>b</b></p><p>c</p></div>");
        let div = d.ids().find(|&i| d.is(i, local_name!("div"))).expect("div");
        let texts: Vec<&str> =
            d.subtree(div).filter(|&i| d.is_text(i)).map(|i| d.text(i)).collect();
        assert_eq!(texts, ["a", "b", "c"]);
        let kids: Vec<_> = d.children(div).map(|c| d.name(c).cloned()).collect();
        assert_eq!(kids, [Some(local_name!("p")), Some(local_name!("p"))]);
    }

    #[test]
    fn misnested_markup_is_repaired() {
        let d = doc("<p><b>bold <i>both</b> italic</i></p>");
        assert_eq!(d.text_content(d.body()), "bold both italic");
    }

    /// The text each text token of `d` was mapped to.
    fn mapped_text(d: &Document) -> Vec<&str> {
        d.source()
            .tokens()
            .iter()
            .filter(|t| t.is_text())
            .filter_map(|t| t.node().map(|n| d.text(n)))
            .collect()
    }

    #[test]
    fn source_tokens_map_to_text_nodes() {
        let d = doc("<html><body><p>Fish &amp; chips</p><table><tr><td>cell</td></tr></table></body></html>");
        assert_eq!(mapped_text(&d), ["Fish & chips", "cell"]);
        assert_eq!(d.source().mapped_share(), 1.0);
        // Text split by an ignored tag is one text node, made by both tokens.
        let d = doc("<p>one </x> two</p>");
        assert_eq!(mapped_text(&d), ["one  two", "one  two"]);
    }

    #[test]
    fn start_tags_map_to_their_elements() {
        // The second `<b>` re-creates the first (WHATWG §13.2.4.3) before
        // making its own element: the token maps to its own.
        let d = doc("<p><b>x</p><b id=own>y</b><br/><a href=/u>z</a>");
        let made: Vec<String> = d
            .source()
            .tokens()
            .iter()
            .filter(|&t| matches!(d.source().kind(t), TokenKind::StartTag(_)))
            .map(|t| t.node().map_or("-".to_string(), |n| d.selector(n)))
            .collect();
        assert_eq!(made, ["p", "b", "b#own", "br", "a"]);
    }

    #[test]
    fn foster_parented_text_maps_to_where_it_went() {
        let d = doc("<table><tr><td>A</td></tr>XX<tr><td>B</td></tr></table>");
        assert_eq!(mapped_text(&d), ["A", "XX", "B"]);
        let table = d.ids().find(|&i| d.is(i, local_name!("table"))).expect("table");
        let xx = d.text_nodes().find(|&n| d.text(n) == "XX").expect("XX");
        assert!(xx < table, "foster-parented before the table");
    }

    #[test]
    fn script_escapes_and_foreign_raw_text_follow_the_tree_builder() {
        // `<!--<script>` inside a script double-escapes: the `</script>`
        // in the string does not end it (WHATWG §13.2.5.27).
        let d = doc("<script><!--<script>x='</script>'--></script><p>after</p>");
        assert_eq!(d.text_content(d.body()), "after");
        // In SVG, `<style>` is not raw text: its markup is parsed.
        let d = doc("<p>a<svg><style><![CDATA[x<y]]></style></svg></p>");
        let texts: Vec<&str> = d.ids().filter(|&n| d.is_text(n)).map(|n| d.text(n)).collect();
        assert_eq!(texts, ["a", "x<y"]);
        // Outside foreign content CDATA is a bogus comment to the first `>`.
        let d = doc("<p>a<![CDATA[x>y]]></p>");
        assert_eq!(d.text_content(d.body()), "ay]]>");
        // Scripting is on: `<noscript>` is raw text, and left out.
        let d = doc("<body><noscript><p>enable JS</p></noscript><p>x</p>");
        assert_eq!(d.text_content(d.body()), "x");
    }

    #[test]
    fn attribute_values_are_decoded_and_a_slash_before_gt_closes() {
        let d = doc("<img alt=\"Share\" /><a href=\"/s?a=1&amp;b=2&copy=3\" title=x/>t</a>");
        let img = d.ids().find(|&i| d.is(i, local_name!("img"))).expect("img");
        assert_eq!(d.attr(img, "alt"), Some("Share"));
        let a = d.ids().find(|&i| d.is(i, local_name!("a"))).expect("a");
        assert_eq!(d.attr(a, "href"), Some("/s?a=1&b=2&copy=3"));
        assert_eq!(d.attr(a, "title"), Some("x/"));
        assert_eq!(d.text_content(a), "t");
    }

    #[test]
    fn deep_nesting_is_capped_not_quadratic() {
        let depth = 100_000;
        let html = "<div>".repeat(depth) + "deep text" + &"</div>".repeat(depth);
        let d = doc(&html);
        assert_eq!(d.text_content(d.body()), "deep text");
        let max_depth = d.ids().map(|i| d.depth(i)).max().unwrap_or(0);
        assert!(max_depth <= 520, "{max_depth}");
    }

    fn max_depth(d: &Document) -> u32 {
        d.ids().map(|i| d.depth(i)).max().unwrap_or(0)
    }

    // See: issue 13, item 1 (quadratic tree building past the nesting
    // cap: the depth counter fell on any end tag and missed the elements
    // the tree builder leaves open).
    #[test]
    fn issue_13_elements_left_open_are_capped() {
        for (unit, text) in
            [("<div></x>", ""), ("<optgroup>", ""), ("<rb>", ""), ("<b class=c></x>x", "x")]
        {
            let d = doc(&unit.repeat(100_000));
            assert!(max_depth(&d) <= 520, "{unit}: {}", max_depth(&d));
            assert_eq!(d.text_content(d.body()).len(), text.len() * 100_000, "{unit}");
        }
    }

    // See: issue 13, item 2 (each paragraph re-created 500 unclosed `<b>`s).
    #[test]
    fn issue_13_reconstructed_formatting_is_capped() {
        let bs: String = (0..500).map(|i| format!("<b id={i}>")).collect();
        let d = doc(&(format!("<p>{bs}") + &"<p>x</p>".repeat(30_000)));
        assert_eq!(d.text_content(d.body()).len(), 30_000);
        // Three elements a start tag, and the text nodes.
        assert!(d.len() < 30_000 * 5, "{} nodes", d.len());
    }

    #[test]
    fn issue_13_a_spent_time_budget_is_an_error_not_a_short_tree() {
        let html = "<p>x</p>".repeat(50_000);
        let spent = ParseOptions::default().time_budget(Some(Duration::ZERO));
        assert!(matches!(
            Document::parse(html.as_bytes(), &spent),
            Err(Error::TimeBudget { budget_ms: 0 })
        ));
        let unlimited = ParseOptions::default().time_budget(None);
        let d = Document::parse(html.as_bytes(), &unlimited).unwrap();
        assert_eq!(d.text_content(d.body()).len(), 50_000);
        assert!(!d.deadline().expired());
    }

    #[test]
    fn element_limit_is_an_error() {
        let opts = ParseOptions::default().max_elements(100);
        let html = "<p>x</p>".repeat(200);
        assert!(matches!(
            Document::parse(html.as_bytes(), &opts),
            Err(Error::TooManyElements { limit: 100 })
        ));
        assert!(Document::parse(html.as_bytes(), &opts.max_elements(1000)).is_ok());
    }

    #[test]
    fn binary_input_is_an_error() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert!(matches!(
            Document::parse(png, &ParseOptions::default()),
            Err(Error::NotHtml { kind: BinaryKind::Png })
        ));
        let junk: Vec<u8> = (0..200u8).map(|i| i % 7).collect();
        assert!(Document::parse(&junk, &ParseOptions::default()).is_err());
    }

    /// Issue 31: random bytes passed as text when their head happened to
    /// hold fewer than 10 % control bytes (random data has 10.5 %).
    #[test]
    fn issue_31_random_bytes_are_binary_and_text_in_any_encoding_is_not() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 24) as u8
                })
                .collect()
        };
        for size in [256, 1000, 4096, 8192, 100_000] {
            for _ in 0..50 {
                let bytes = random(size);
                assert_eq!(binary_kind(&bytes), Some(BinaryKind::Binary), "{size} random bytes");
                assert!(Document::parse(&bytes, &ParseOptions::default()).is_err());
                // Random bytes without a control byte: the entropy test.
                let printable: Vec<u8> =
                    bytes.iter().map(|&b| if b < 0x20 { b | 0x20 } else { b }).collect();
                if size >= 1024 {
                    assert_eq!(binary_kind(&printable), Some(BinaryKind::Binary), "{size}");
                }
            }
        }
        // Text in legacy encodings, markup-free to be hardest: accepted.
        let han: String = (0..3000u32)
            .map(|i| char::from_u32(0x4E00 + (i * 7919) % 6000).unwrap_or('字'))
            .collect();
        let latin: String =
            (0..2000u32).map(|i| char::from_u32(0xC0 + (i * 31) % 64).unwrap_or('é')).collect();
        let russian = "Съешь же ещё этих мягких французских булок, да выпей чаю. ".repeat(80);
        for (encoding, text) in [
            (encoding_rs::GBK, han.as_str()),
            (encoding_rs::BIG5, han.as_str()),
            (encoding_rs::SHIFT_JIS, han.as_str()),
            (encoding_rs::EUC_KR, "다람쥐 헌 쳇바퀴에 타고파 ".repeat(200).as_str()),
            (encoding_rs::WINDOWS_1252, latin.as_str()),
            (encoding_rs::KOI8_R, russian.as_str()),
            (encoding_rs::WINDOWS_1251, russian.as_str()),
            (encoding_rs::UTF_8, han.as_str()),
        ] {
            let (bytes, _, _) = encoding.encode(text);
            assert!(bytes.len() >= 1024, "{}", encoding.name());
            assert_eq!(binary_kind(&bytes), None, "{}", encoding.name());
        }
        // A stray control byte or two in a page is not binary.
        let mut page = b"<p>".repeat(100);
        page.extend_from_slice(b"\x0b\x1f\x00");
        assert_eq!(binary_kind(&page), None);
    }

    #[test]
    fn size_limit_is_an_error() {
        let opts = ParseOptions::default().max_bytes(10);
        assert!(matches!(
            Document::parse(b"<p>more than ten bytes</p>", &opts),
            Err(Error::TooLarge { size: 26, limit: 10 })
        ));
    }

    #[test]
    fn empty_input_is_an_empty_document() {
        let d = doc("");
        assert_eq!(d.text_nodes().count(), 0);
    }

    #[test]
    fn utf16_with_bom_is_not_binary() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("<p>hé</p>".encode_utf16().flat_map(|u| u.to_le_bytes()));
        let d = Document::parse(&bytes, &ParseOptions::default()).expect("parse");
        assert_eq!(d.text_content(d.body()), "hé");
    }

    #[test]
    fn utf16_without_bom_is_detected() {
        let bytes: Vec<u8> = "<p>hé</p>".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let d = Document::parse(&bytes, &ParseOptions::default()).expect("parse");
        assert_eq!(d.text_content(d.body()), "hé");
    }
}
