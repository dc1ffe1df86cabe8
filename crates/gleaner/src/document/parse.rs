//! The parse pipeline: the checks before decoding (size, binary data),
//! decoding (`encoding`), the tokenizer feeding a tree builder
//! (`tree_feed`), the tree laid out in document order (`sink`), the
//! source's tokens mapped to the nodes they made (`source`), and the
//! statistics (`stats`); then, for a page that shows almost nothing, the
//! readings a browser would show once its scripts ran
//! (`docs/architecture.md`, "One tokenizer").

use encoding_rs::Encoding;

use super::sniff::{binary_kind, utf16_without_bom};
use super::{
    encoding, stats, streamed, tree_feed, Deadline, Document, Element, EncodingSource,
    ParseOptions, Source, MAX_SUPPORTED_BYTES,
};
use crate::error::{Error, Result};

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
        let decoded = encoding::decode(bytes, given, options.transport_encoding);
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
        let decoded = encoding::decode_vec(bytes, given, options.transport_encoding);
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
        let declared = given.is_some() || options.transport_encoding.is_some();
        if !declared && Encoding::for_bom(bytes).is_none() {
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
        // React's streamed parts where its scripts put them.
        let text = match options.streamed_parts.then(|| streamed::place(&text)).flatten() {
            Some(placed) => placed,
            None => text,
        };
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
}
