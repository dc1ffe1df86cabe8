//! What a parse may take and how: [`ParseOptions`] and the hard limits
//! behind them (`docs/limits.md`, issue 13).

use std::time::Duration;

use encoding_rs::Encoding;

use super::tree_feed::TreeBuilderKind;

/// The largest input any [`ParseOptions::max_bytes`] admits: offsets are
/// 32-bit, and decoding can triple the size of legacy-encoded text.
pub const MAX_SUPPORTED_BYTES: usize = 1 << 30;

/// The default [`ParseOptions::time_budget`].
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(60);

/// Options for [`Document::parse`](super::Document::parse).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Largest accepted input in bytes; larger inputs are an
    /// [`Error::TooLarge`](crate::Error::TooLarge). Default 64 MiB; at most
    /// [`MAX_SUPPORTED_BYTES`] (1 GiB) whatever is set here.
    pub max_bytes: usize,
    /// The character encoding the caller says the page is in (the
    /// command line's `--encoding`, a Python `encoding=`): it wins over
    /// everything but a byte order mark. Default: detect.
    pub encoding: Option<&'static Encoding>,
    /// The character encoding a transport declared for the page (an HTTP
    /// `Content-Type` charset, live or archived in a WARC record): it wins
    /// over the page's own `<meta charset>`, unless the bytes are valid
    /// UTF-8 beyond ASCII — a server's default `iso-8859-1` over a UTF-8
    /// page, common in crawls, is not taken at its word. [`encoding`]
    /// (the caller's) wins over it. Default: none.
    ///
    /// [`encoding`]: ParseOptions::encoding
    pub transport_encoding: Option<&'static Encoding>,
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
    /// [`Error::TooManyElements`](crate::Error::TooManyElements) (an error, not a truncation: a tree cut
    /// short would pass for the whole page). Default 16 000 000, twice
    /// the elements of a 64 MiB page of `<p>x</p>`.
    pub max_elements: usize,
    /// Most memory a page may need, as a multiple of its size, above
    /// [`MEMORY_ALLOWANCE`](super::MEMORY_ALLOWANCE) (24 MiB): a page whose markup is so dense
    /// that its nodes and tokens would need more is an
    /// [`Error::TooDense`](crate::Error::TooDense) (issue 13: `<p>x</p>` makes two nodes and
    /// three tokens in eight bytes). 0 for no limit. Default 10; real
    /// pages need 4 to 8.
    pub max_memory_factor: usize,
    /// Most attributes of one element handed to the tree builder; further
    /// ones are dropped (the source view keeps them). Default 256.
    pub max_attributes: usize,
    /// The most time one page's work may take, from the start of
    /// [`Document::parse`](super::Document::parse) to the end of extraction: parsing past it is an
    /// [`Error::TimeBudget`](crate::Error::TimeBudget), and extractors stop early (the document's
    /// [`Deadline`](super::Deadline) says so; batch runs report the page as failed). `None`
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
    /// parsed (see [`Document::parse`](super::Document::parse)'s notes). Default on.
    pub render_fallbacks: bool,
    /// Put the parts of a streamed rendering where its scripts put them,
    /// as a browser shows the page (`document/streamed.rs`): React's
    /// (`<div hidden id="S:1">` after the footer, in place of its
    /// boundary's loading fallback or of its placeholder) and Marko's
    /// (`<div id="afX7" style="display:none">`, in place of its
    /// placeholder `afXph7`). Default on: the shipped model was
    /// trained on pages read this way (`docs/todays-web.md`).
    pub streamed_parts: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_bytes: 64 << 20,
            encoding: None,
            transport_encoding: None,
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
            streamed_parts: true,
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

    /// Sets [`ParseOptions::transport_encoding`].
    pub fn transport_encoding(mut self, encoding: Option<&'static Encoding>) -> ParseOptions {
        self.transport_encoding = encoding;
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

    /// Sets [`ParseOptions::streamed_parts`].
    pub fn streamed_parts(mut self, yes: bool) -> ParseOptions {
        self.streamed_parts = yes;
        self
    }

    /// Sets [`ParseOptions::url`].
    pub fn url(mut self, url: Option<String>) -> ParseOptions {
        self.url = url;
        self
    }
}
