//! One page through the core library, into a [`Record`].

use std::sync::Arc;

use gleaner::extract::Extractor;
use gleaner::layout::LayoutProvider;
use gleaner::metadata::Metadata;
use gleaner::render::{self, Format, RenderOptions};
use gleaner::template::{SiteTemplates, TemplateModel, Templated};
use gleaner::{Document, ParseOptions, Selection};
use serde::Serialize;

use crate::input::{self, Input};

/// The output formats of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Plain text with paragraph breaks.
    Txt,
    /// Markdown.
    Markdown,
    /// A clean HTML fragment.
    Html,
    /// One JSON object per input (an array for several), pretty-printed.
    Json,
    /// One JSON object per input per line.
    Jsonl,
    /// One row per input under a header row, the JSON record's keys as
    /// columns ([`CSV_COLUMNS`]), RFC 4180 quoting.
    Csv,
    /// trafilatura's XML: `<doc>` with the metadata as attributes,
    /// `<main>` and `<comments>` ([`crate::xml`]).
    Xml,
    /// TEI P5: a `teiHeader` and the text in `<body>` ([`crate::xml`]).
    XmlTei,
}

/// The columns of [`OutputFormat::Csv`], in order: every key of the JSON
/// record (the ones JSON leaves out when absent included). A null is an
/// empty cell, `true`/`false` and numbers are written as JSON writes
/// them, lists and objects as their JSON text.
pub const CSV_COLUMNS: &[&str] = &[
    "source",
    "title",
    "text",
    "algorithm",
    "error",
    "encoding",
    "bytes",
    "url",
    "author",
    "date",
    "published_date",
    "site_name",
    "language",
    "canonical_url",
    "description",
    "image",
    "categories",
    "tags",
    "is_article",
    "page_type",
    "page_type_confidence",
    "fingerprint",
    "comments",
    "template_cluster_size",
    "template_applied",
    "site_training",
];

impl OutputFormat {
    /// Every format with its name and a line of help, in the order
    /// `--help` lists them. `OutputFormat::from_str` reads these names
    /// (and a few aliases): the one mapping from strings that the command
    /// line, `gleaner warc`, Python and the server share.
    pub const NAMES: &'static [(&'static str, OutputFormat, &'static str)] = &[
        ("txt", OutputFormat::Txt, "Plain text with paragraph breaks"),
        ("markdown", OutputFormat::Markdown, "Markdown"),
        ("html", OutputFormat::Html, "A clean HTML fragment"),
        (
            "json",
            OutputFormat::Json,
            "One JSON object, pretty-printed (an array when the command line can name several \
             pages)",
        ),
        ("jsonl", OutputFormat::Jsonl, "One JSON object per input per line"),
        (
            "csv",
            OutputFormat::Csv,
            "One row per input under a header row: the JSON record's keys as columns (RFC 4180 \
             quoting; lists as JSON text, null as empty)",
        ),
        (
            "xml",
            OutputFormat::Xml,
            "trafilatura's XML: `<doc>` with the metadata as attributes, `<main>`, `<comments>`",
        ),
        (
            "xmltei",
            OutputFormat::XmlTei,
            "TEI P5 XML: a `teiHeader` with the metadata, the text in `<body>`",
        ),
    ];

    /// The format's name, as `OutputFormat::from_str` reads it.
    pub fn name(self) -> &'static str {
        OutputFormat::NAMES.iter().find(|(_, f, _)| *f == self).map_or("txt", |(n, _, _)| n)
    }

    /// The file extension for one file per input.
    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Txt => "txt",
            OutputFormat::Markdown => "md",
            OutputFormat::Html => "html",
            OutputFormat::Json => "json",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Csv => "csv",
            OutputFormat::Xml | OutputFormat::XmlTei => "xml",
        }
    }
}

/// A name that is no [`OutputFormat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown output format {name:?}: one of txt, markdown, html, json, jsonl, csv, xml or xmltei"
)]
pub struct UnknownFormat {
    /// The name given.
    pub name: String,
}

impl std::str::FromStr for OutputFormat {
    type Err = UnknownFormat;

    /// A format by its name ([`OutputFormat::NAMES`]) or an alias: `text`,
    /// `md`, `dict` (Python's word for JSON), `tei`.
    fn from_str(name: &str) -> std::result::Result<OutputFormat, UnknownFormat> {
        let alias = match name {
            "text" => "txt",
            "md" => "markdown",
            "dict" => "json",
            "tei" => "xmltei",
            other => other,
        };
        OutputFormat::NAMES
            .iter()
            .find(|(n, _, _)| *n == alias)
            .map(|(_, f, _)| *f)
            .ok_or_else(|| UnknownFormat { name: name.to_string() })
    }
}

impl std::fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One output record: what became of one input. Its JSON form is the
/// contract of every front end (`-f json`/`jsonl`, `warc`, Python, the
/// server): every key always present, null when unknown (`categories`,
/// `tags`: empty), in the order of [`CSV_COLUMNS`]; `schema/record.schema.json`
/// in the repository is its JSON Schema.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Record {
    /// The input's name: the path as given, or `-`.
    pub source: String,
    /// The page title.
    pub title: Option<String>,
    /// The main content as plain text (in every format; the one printed
    /// in txt and JSON).
    pub text: String,
    /// The algorithm that produced it.
    pub algorithm: String,
    /// Why this input failed, or null.
    pub error: Option<String>,
    /// The character encoding the page was decoded with.
    pub encoding: Option<String>,
    /// Size of the input in bytes (after gzip decompression).
    pub bytes: usize,
    /// The page's URL (`--url`, or the URL it was fetched from), the base
    /// of its relative links; absent when unknown.
    pub url: Option<String>,
    /// The author or authors (`; ` between names).
    pub author: Option<String>,
    /// The publication date, ISO 8601 (`2024-05-01`, or with the time
    /// and offset when the page gives them). In `gleaner warc` records:
    /// the capture date (`WARC-Date`), the page's own in `published_date`.
    pub date: Option<String>,
    /// In `gleaner warc` records: the page's publication date (what `date`
    /// is elsewhere), `Some(None)` — null — when the page gives none, so
    /// that the key is always there like every other; `None` outside WARC
    /// records, where the key is absent.
    pub published_date: Option<Option<String>>,
    /// The site's or publisher's name.
    pub site_name: Option<String>,
    /// The page's language: as declared (`<html lang>`, `<meta>`,
    /// `og:locale`, JSON-LD `inLanguage`; a BCP 47 tag), else detected
    /// from the extracted text when there is enough of it (ISO 639-1).
    pub language: Option<String>,
    /// The canonical URL the page names (`<link rel=canonical>`, `og:url`,
    /// JSON-LD `url`/`mainEntityOfPage`), made absolute. Not `url`, which
    /// stays the URL the page came from and the base of its links.
    pub canonical_url: Option<String>,
    /// The page's summary of itself.
    pub description: Option<String>,
    /// The page's representative image, absolute when resolvable.
    pub image: Option<String>,
    /// Sections or categories.
    pub categories: Vec<String>,
    /// Tags or keywords.
    pub tags: Vec<String>,
    /// Whether the page is an article: its `page_type` is `article`, which
    /// the classifier says only where
    /// [`gleaner::extract::page_kind::is_article`] agrees (without a
    /// type, that rule alone).
    pub is_article: bool,
    /// What kind of page it is: `article`, `forum`, `product`,
    /// `collection`, `listing`, `documentation` or `service`, by the
    /// learned extractor's classifier (`other` when it cannot tell: a
    /// page of more blocks than it reads).
    pub page_type: String,
    /// The classifier's probability of that type (1 when forced with
    /// `--page-type`, 0 for `other`).
    pub page_type_confidence: f32,
    /// The text's SimHash, 16 hex digits (null without text): documents
    /// whose fingerprints differ in at most 3 bits are near-duplicates
    /// (see [`crate::corpus`]; fixed across runs and versions).
    pub fingerprint: Option<String>,
    /// With comments asked for ([`Job::comments`]): the page's comment
    /// section as plain text, null when there is none (and always null
    /// otherwise).
    pub comments: Option<String>,
    /// With site templates: how many pages the page's template cluster
    /// has (absent otherwise).
    pub template_cluster_size: Option<usize>,
    /// With a template model or site templates: whether a model set the
    /// template text aside on this page (absent otherwise).
    pub template_applied: Option<bool>,
    /// With `--site-training`: how it went (absent otherwise).
    pub site_training: Option<SiteTraining>,
    /// The printed body in Markdown or HTML, when that is the output
    /// format; in txt, when a metadata header or comments are added to the
    /// text (empty otherwise: `text` is printed).
    #[serde(skip)]
    pub rendered: String,
    /// The body in Markdown when asked for besides the output format
    /// ([`Job::also_render`]); not part of the JSON record.
    #[serde(skip)]
    pub markdown: Option<String>,
    /// The body as a clean HTML fragment when asked for besides the
    /// output format ([`Job::also_render`]); not part of the JSON record.
    #[serde(skip)]
    pub html: Option<String>,
    /// The input could not be read at all (as opposed to read and failed).
    #[serde(skip)]
    pub unreadable: bool,
    /// What kind of failure `error` is, for front ends that map failures
    /// to types (the Python package's exceptions); `None` when it did not
    /// fail. Not part of the JSON record: `error` says it in words.
    #[serde(skip)]
    pub failure: Option<Failure>,
}

/// The kinds of [`Record::error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// The input could not be read, or was over the size limit while
    /// reading.
    Unreadable,
    /// Over [`ParseOptions::max_bytes`](gleaner::ParseOptions).
    TooLarge,
    /// Binary data, not a web page.
    NotHtml,
    /// More elements than the element limit, or markup denser than the
    /// memory limit admits.
    TooManyElements,
    /// Out of the page's time budget.
    TimeBudget,
    /// The layout provider failed.
    Layout,
    /// Nothing to extract where the page says its content is elsewhere
    /// (a frameset).
    NoContent,
    /// A bug: a panic caught on this page.
    Internal,
    /// Anything else.
    Other,
}

impl Failure {
    /// The kind of a library error.
    pub fn of(error: &gleaner::Error) -> Failure {
        match error {
            gleaner::Error::TooLarge { .. } => Failure::TooLarge,
            gleaner::Error::NotHtml { .. } => Failure::NotHtml,
            gleaner::Error::TooManyElements { .. } | gleaner::Error::TooDense { .. } => {
                Failure::TooManyElements
            }
            gleaner::Error::TimeBudget { .. } => Failure::TimeBudget,
            gleaner::Error::Layout(_) => Failure::Layout,
            _ => Failure::Other,
        }
    }
}

impl Record {
    /// What a text format prints for this record: in txt the `text`, or
    /// `rendered` when a metadata header or comments were added to it; in
    /// Markdown, HTML and the XML formats `rendered`. `None` for the
    /// record formats (JSON, JSON Lines, CSV), which print the record.
    pub fn printed(&self, format: OutputFormat) -> Option<&str> {
        match format {
            OutputFormat::Txt if self.rendered.is_empty() => Some(&self.text),
            OutputFormat::Txt
            | OutputFormat::Markdown
            | OutputFormat::Html
            | OutputFormat::Xml
            | OutputFormat::XmlTei => Some(&self.rendered),
            OutputFormat::Json | OutputFormat::Jsonl | OutputFormat::Csv => None,
        }
    }

    pub(crate) fn new(source: &str, algorithm: &str) -> Record {
        Record {
            source: source.to_string(),
            title: None,
            text: String::new(),
            algorithm: algorithm.to_string(),
            error: None,
            encoding: None,
            bytes: 0,
            url: None,
            author: None,
            date: None,
            published_date: None,
            site_name: None,
            language: None,
            canonical_url: None,
            description: None,
            image: None,
            categories: Vec::new(),
            tags: Vec::new(),
            is_article: false,
            page_type: String::from("other"),
            page_type_confidence: 0.0,
            fingerprint: None,
            comments: None,
            template_cluster_size: None,
            template_applied: None,
            site_training: None,
            rendered: String::new(),
            markdown: None,
            html: None,
            unreadable: false,
            failure: None,
        }
    }
}

/// How a page's template was learned from the pages it links to
/// (`--site-training`), for its record.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SiteTraining {
    /// `links` (Gottron: the linked pages clustered by structure) or
    /// `menu` (Alarte et al.: the menu's complete subdigraph and ETDM).
    pub mode: String,
    /// Pages fetched to learn the template, the key page not counted.
    pub pages_fetched: usize,
    /// `links`: pages in the key page's cluster, the key page included.
    pub cluster_size: Option<usize>,
    /// `menu`: the pages of the complete subdigraph found.
    pub subdigraph: Option<Vec<String>>,
    /// Whether a template was found and set aside (otherwise the page was
    /// extracted alone).
    pub template_applied: bool,
}

/// A page in memory with what is known of it from outside: its name in
/// records, its URL and the encoding its server declared.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The record's `source`.
    pub source: &'a str,
    /// The page's bytes (no gzip: already decoded).
    pub bytes: &'a [u8],
    /// Its URL: the base of its relative links and the record's `url`.
    pub url: Option<&'a str>,
    /// The encoding the server declared (the HTTP `charset`), which wins
    /// over the page's own declaration unless the bytes are valid UTF-8
    /// beyond ASCII ([`ParseOptions::transport_encoding`]); the job's own
    /// encoding (`--encoding`) wins over it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
}

impl Page<'_> {
    /// `base` with this page's URL and declared encoding.
    pub fn parse_options(&self, base: &ParseOptions) -> ParseOptions {
        let parse = base.clone().url(self.url.map(str::to_string));
        match self.encoding {
            Some(_) => parse.transport_encoding(self.encoding),
            None => parse,
        }
    }
}

/// Which template, if any, a page is extracted with.
#[derive(Clone, Copy)]
enum TemplateUse<'a> {
    /// None: the extractor alone.
    None,
    /// One model for every page (`--template`).
    Model(&'a Arc<TemplateModel>),
    /// The model of the page's cluster, if it has one.
    Site { model: Option<&'a Arc<TemplateModel>>, cluster_size: usize },
}

/// What is set aside on a page before extraction.
enum Aside<'a> {
    Nothing,
    Model(&'a Arc<TemplateModel>),
    Nodes(&'a [bool]),
}

/// A page's bytes, borrowed, or owned and given to the document.
enum PageBytes<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl PageBytes<'_> {
    fn len(&self) -> usize {
        match self {
            PageBytes::Borrowed(b) => b.len(),
            PageBytes::Owned(b) => b.len(),
        }
    }
}

/// What to do with each page: the extractor, the parse and render
/// options, the output format, the size limit.
pub struct Job {
    extractor: Box<dyn Extractor>,
    algorithm: String,
    /// What the registry says of the algorithm, looked up once: template
    /// prose is kept in the content unless the algorithm needs a template
    /// (entropy), and only the default extractor's text is completed
    /// from the page's structured data.
    needs_template: bool,
    is_default: bool,
    parse: ParseOptions,
    format: OutputFormat,
    render: RenderOptions,
    max_bytes: usize,
    template: Option<Arc<TemplateModel>>,
    layout: Option<Arc<dyn LayoutProvider>>,
    with_metadata: bool,
    comments: bool,
    also_markdown: bool,
    also_html: bool,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("algorithm", &self.algorithm)
            .field("format", &self.format)
            .field("max_bytes", &self.max_bytes)
            .field("template", &self.template.is_some())
            .field("layout", &self.layout.is_some())
            .field("with_metadata", &self.with_metadata)
            .field("comments", &self.comments)
            .finish_non_exhaustive()
    }
}

impl Job {
    /// A job with default parse and render options and the default size
    /// limit of [`ParseOptions`].
    pub fn new(
        extractor: Box<dyn Extractor>,
        algorithm: impl Into<String>,
        format: OutputFormat,
    ) -> Job {
        let parse = ParseOptions::default();
        let algorithm = algorithm.into();
        let registered = gleaner::extract::algorithm(&algorithm).ok();
        Job {
            extractor,
            needs_template: registered.is_some_and(|a| a.capabilities.needs_template),
            is_default: registered.is_some_and(|a| a.name == gleaner::extract::DEFAULT_ALGORITHM),
            algorithm,
            max_bytes: parse.max_bytes,
            parse,
            format,
            render: RenderOptions::default(),
            template: None,
            layout: None,
            with_metadata: false,
            comments: false,
            also_markdown: false,
            also_html: false,
        }
    }

    /// Renders the body in Markdown and/or HTML besides the output format,
    /// into the record's `markdown` and `html`: one extraction, several
    /// outputs (the server's `formats`).
    pub fn also_render(mut self, markdown: bool, html: bool) -> Job {
        self.also_markdown = markdown;
        self.also_html = html;
        self
    }

    /// Opens txt and Markdown output with a metadata header (trafilatura's
    /// front matter, [`render::front_matter`]).
    pub fn with_metadata(mut self, yes: bool) -> Job {
        self.with_metadata = yes;
        self
    }

    /// Extracts the page's comment section apart
    /// ([`gleaner::extract::comments`]): the record's `comments`, and in
    /// txt, Markdown and HTML output after the main content under a
    /// "Comments" separator.
    pub fn comments(mut self, yes: bool) -> Job {
        self.comments = yes;
        self
    }

    /// Extracts every page with `model`'s template text set aside.
    pub fn template(mut self, model: Arc<TemplateModel>) -> Job {
        self.template = Some(model);
        self
    }

    /// Lays every page out with `provider` before extraction, so the
    /// algorithms that read boxes (vce) use its layout instead of their
    /// estimate. Pages are then parsed with every attribute kept: the
    /// layout engine needs `style`, `width`, `bgcolor` and the rest.
    pub fn layout(mut self, provider: Arc<dyn LayoutProvider>) -> Job {
        self.layout = Some(provider);
        self.parse = self.parse.keep_all_attributes(true);
        self
    }

    /// Parse options (forced encoding, size limit); the size limit also
    /// bounds reading.
    pub fn parse_options(mut self, parse: ParseOptions) -> Job {
        self.max_bytes = parse.max_bytes;
        let keep_all = parse.keep_all_attributes || self.layout.is_some();
        self.parse = parse.keep_all_attributes(keep_all);
        self
    }

    /// Render options (links, images) for Markdown and HTML output.
    pub fn render_options(mut self, render: RenderOptions) -> Job {
        self.render = render;
        self
    }

    /// The algorithm's name, as records carry it.
    pub fn algorithm(&self) -> &str {
        &self.algorithm
    }

    /// The output format.
    pub fn format(&self) -> OutputFormat {
        self.format
    }

    /// Reads, parses and extracts one input. Never fails and never
    /// panics: what went wrong is the record's `error` (a panic inside
    /// the library becomes "internal error, please report it").
    pub fn record(&self, input: &Input) -> Record {
        let template = self.template.as_ref().map_or(TemplateUse::None, TemplateUse::Model);
        self.record_using(input, template)
    }

    /// [`Job::record`] for page `index` of a collection whose templates
    /// were learned ([`Engine::learn_sites`](crate::engine::Engine::learn_sites)):
    /// with its cluster's model when it has one.
    pub fn record_in_site(&self, input: &Input, site: &SiteTemplates, index: usize) -> Record {
        let template = TemplateUse::Site {
            model: site.model_of(index),
            cluster_size: site.cluster_size(index),
        };
        self.record_using(input, template)
    }

    /// The parse options (size limit, forced encoding).
    pub fn parse(&self) -> &ParseOptions {
        &self.parse
    }

    fn record_using(&self, input: &Input, template: TemplateUse<'_>) -> Record {
        guarded(&input.source, &self.algorithm, || match input::read(input, self.max_bytes) {
            Ok(bytes) => {
                // The document takes the page's bytes over: a UTF-8 page
                // becomes its text, not held twice (issue 13).
                let page = PageBytes::Owned(bytes);
                self.record_from_bytes(&input.source, page, &self.parse, template)
            }
            Err(e) => {
                let mut record = Record::new(&input.source, &self.algorithm);
                record.error = Some(e.to_string());
                record.unreadable = true;
                record.failure = Some(Failure::Unreadable);
                record
            }
        })
    }

    /// Parses and extracts a page already in memory (no gzip, no
    /// reading), with the same guarantees as [`Job::record`].
    pub fn record_for_bytes(&self, source: &str, bytes: &[u8]) -> Record {
        let template = self.template.as_ref().map_or(TemplateUse::None, TemplateUse::Model);
        guarded(source, &self.algorithm, || {
            self.record_from_bytes(source, PageBytes::Borrowed(bytes), &self.parse, template)
        })
    }

    /// Parses and extracts a page already in memory whose URL and
    /// character encoding are known from outside the page (an archived
    /// HTTP response: its `Content-Type` charset wins over the page's
    /// `<meta charset>`), with the model of page `index` of `site` when
    /// given. The record carries `url`. Same guarantees as
    /// [`Job::record`].
    pub fn record_for_page(
        &self,
        page: &Page<'_>,
        site: Option<(&SiteTemplates, usize)>,
    ) -> Record {
        let template = match site {
            Some((site, index)) => TemplateUse::Site {
                model: site.model_of(index),
                cluster_size: site.cluster_size(index),
            },
            None => self.template.as_ref().map_or(TemplateUse::None, TemplateUse::Model),
        };
        let parse = page.parse_options(&self.parse);
        guarded(page.source, &self.algorithm, || {
            let bytes = PageBytes::Borrowed(page.bytes);
            let mut record = self.record_from_bytes(page.source, bytes, &parse, template);
            if record.url.is_none() {
                record.url = page.url.map(str::to_string);
            }
            record
        })
    }

    fn record_from_bytes(
        &self,
        source: &str,
        bytes: PageBytes<'_>,
        parse: &ParseOptions,
        template: TemplateUse<'_>,
    ) -> Record {
        let mut record = Record::new(source, &self.algorithm);
        record.bytes = bytes.len();
        let model = match template {
            TemplateUse::None => None,
            TemplateUse::Model(m) => Some(m),
            TemplateUse::Site { model, cluster_size } => {
                record.template_cluster_size = Some(cluster_size);
                model
            }
        };
        if !matches!(template, TemplateUse::None) {
            record.template_applied = Some(model.is_some());
        }
        let parsed = match bytes {
            PageBytes::Borrowed(b) => Document::parse(b, parse),
            PageBytes::Owned(b) => Document::parse_vec(b, parse),
        };
        let doc = match parsed.and_then(|d| self.laid_out(d)) {
            Ok(d) => d,
            Err(e) => {
                record.error = Some(e.to_string());
                record.failure = Some(Failure::of(&e));
                return record;
            }
        };
        let aside = model.map_or(Aside::Nothing, Aside::Model);
        self.fill(&mut record, &doc, aside);
        record
    }

    /// `doc` with the job's layout attached, when the job has a provider.
    fn laid_out(&self, doc: Document) -> gleaner::Result<Document> {
        match &self.layout {
            Some(provider) => {
                let layout = provider.layout(&doc)?;
                Ok(doc.with_layout(layout))
            }
            None => Ok(doc),
        }
    }

    /// The record of an input that failed before extraction (it could
    /// not be fetched, say): `error` set, nothing else.
    pub fn failed_record(&self, source: &str, error: &str) -> Record {
        let mut record = Record::new(source, &self.algorithm);
        record.error = Some(error.to_string());
        record.unreadable = true;
        record.failure = Some(Failure::Unreadable);
        record
    }

    /// A record for a page parsed by the caller (a fetched page, with its
    /// own parse options), with `aside` (text nodes by id) set aside
    /// before extraction when given, and `training` in the record. Never
    /// panics.
    pub fn record_for_document(
        &self,
        source: &str,
        doc: &Document,
        aside: Option<&[bool]>,
        training: Option<SiteTraining>,
    ) -> Record {
        guarded(source, &self.algorithm, || {
            let mut record = Record::new(source, &self.algorithm);
            record.bytes = doc.input_bytes();
            record.site_training = training;
            self.fill(&mut record, doc, aside.map_or(Aside::Nothing, Aside::Nodes));
            record
        })
    }

    /// Whether [`Job::text_for_document`] reads the page's metadata: the
    /// default extractor's does (its features, the page type, the
    /// structured data's supplement); the papers' algorithms read the page
    /// alone, so a caller may hand them [`Metadata::default`].
    pub fn reads_metadata(&self) -> bool {
        self.is_default
    }

    /// The text a record of `doc` carries (its `text`), with `model`'s
    /// template text set aside when given; `meta` is the page's metadata,
    /// read once by the caller (see [`Job::reads_metadata`]). `gleaner eval` scores every contender on
    /// one parse of a page with this, so that it scores exactly what
    /// `extract` writes.
    ///
    /// # Errors
    /// The page's time budget ran out during extraction
    /// ([`gleaner::Error::TimeBudget`]).
    pub fn text_for_document(
        &self,
        doc: &Document,
        meta: &Metadata,
        model: Option<&Arc<TemplateModel>>,
    ) -> gleaner::Result<String> {
        let aside = model.map_or(Aside::Nothing, Aside::Model);
        // The page type matters to the text only where structured data
        // completes it (the default extractor's product pages).
        let typed = self.is_default;
        Ok(self.content(doc, meta, aside, typed)?.text)
    }

    /// What `doc` holds for this job: the selection (with `aside` set
    /// aside), the comment section apart, the page's type when `typed`
    /// (always for a record; only the default extractor's text depends on
    /// it) and the plain text.
    fn content<'m>(
        &self,
        doc: &Document,
        meta: &'m Metadata,
        aside: Aside<'_>,
        typed: bool,
    ) -> gleaner::Result<Content<'m>> {
        let keep_prose = !self.needs_template;
        let (mut selection, page_type, type_probabilities) = match aside {
            Aside::Model(m) => (
                Templated::new(&*self.extractor, Arc::clone(m))
                    .keep_content_prose(keep_prose)
                    .extract(doc),
                None,
                None,
            ),
            Aside::Nodes(marks) => (
                gleaner::template::extract_set_aside(&*self.extractor, doc, marks, keep_prose),
                None,
                None,
            ),
            Aside::Nothing => {
                let typed = if typed {
                    self.extractor.extract_classified_with(doc, meta)
                } else {
                    self.extractor.extract_typed_with(doc, meta)
                };
                (typed.selection, typed.page_type, typed.type_probabilities)
            }
        };
        // An extractor that ran out of the page's time budget stopped
        // early: its selection is not the page's content (issue 13).
        if doc.deadline().expired() {
            return Err(doc.deadline().error());
        }
        // With --comments the comment section is printed apart and is not
        // main content (unless it is all the page has). The default
        // extractor leaves comment sections out by itself, but on forums.
        let comments = if self.comments {
            let found = gleaner::extract::comments::comments(doc, &Selection::none(doc));
            gleaner::extract::comments::set_apart(doc, &found, &mut selection);
            Some(gleaner::extract::comments::comments(doc, &selection)).filter(|c| c.count() > 0)
        } else {
            None
        };
        // The classifier's type, unless `article`'s rules see a list,
        // index or search page where it says article (then its next
        // guess); a forced type as it is; `other` without a classifier.
        let (page_type, rules_article) = if typed {
            let rules_article = gleaner::extract::page_kind::is_article(doc, &selection, meta);
            let probabilities = match (page_type, type_probabilities) {
                (_, Some(p)) => Some(p),
                (None, None) => gleaner::extract::learned::classify(doc, meta),
                (Some(_), None) => None,
            };
            let page_type = match probabilities {
                Some(p) => Some(gleaner::extract::learned::most_probable(&p, !rules_article)),
                None => page_type,
            };
            (page_type, rules_article)
        } else {
            (None, false)
        };
        // The plain text, in every format: the fingerprint and the
        // corpus filters read it.
        let mut text = render::text(doc, &selection);
        // A product page whose description is only in its JSON-LD (the
        // default extractor's output; the papers' algorithms give theirs
        // as they are).
        let type_name = page_type.map_or("other", |(t, _)| t.name());
        let supplement = match self.is_default {
            true => gleaner::extract::structured::complete(&mut text, type_name, meta),
            false => None,
        };
        Ok(Content { selection, comments, page_type, rules_article, text, supplement })
    }

    /// Extracts `doc` and fills in the record's text, title and checks.
    fn fill(&self, record: &mut Record, doc: &Document, aside: Aside<'_>) {
        let meta = Metadata::extract(doc);
        let content = match self.content(doc, &meta, aside, true) {
            Ok(content) => content,
            Err(e) => {
                record.error = Some(e.to_string());
                record.failure = Some(Failure::of(&e));
                return;
            }
        };
        let Content { selection, comments, page_type, rules_article, text, supplement } = content;
        if selection.count() == 0 {
            if let Some(frames) = gleaner::metadata::frameset_sources(doc) {
                let frames =
                    if frames.is_empty() { "no frame sources".into() } else { frames.join(", ") };
                record.failure = Some(Failure::NoContent);
                record.error = Some(format!(
                    "frameset page: its content is in the frames ({frames}); extract those pages"
                ));
            }
        }
        record.title = meta.title.clone();
        record.url = doc.url().map(str::to_string);
        record.encoding = Some(doc.encoding().name().to_string());
        record.author = meta.author.clone();
        record.date = meta.date.clone();
        record.site_name = meta.site_name.clone();
        record.canonical_url = meta.url.clone();
        record.description = meta.description.clone();
        record.image = meta.image.clone();
        record.categories = meta.categories.clone();
        record.tags = meta.tags.clone();
        match page_type {
            Some((t, p)) => {
                record.page_type = t.name().to_string();
                record.page_type_confidence = p;
                record.is_article = t.name() == "article";
            }
            None => {
                record.page_type = String::from("other");
                record.page_type_confidence = 0.0;
                record.is_article = rules_article;
            }
        }
        record.comments = comments.as_ref().map(|c| render::text(doc, c));
        record.fingerprint = crate::corpus::fingerprint(&text).map(|f| format!("{f:016x}"));
        record.language = meta
            .language
            .clone()
            .or_else(|| gleaner::metadata::detect_language(&text).map(str::to_string));
        record.text = text;
        let header = match self.with_metadata {
            true => render::front_matter(&meta, record.url.as_deref()),
            false => String::new(),
        };
        let body = Body {
            doc,
            selection: &selection,
            comments: comments.as_ref(),
            header: &header,
            supplement,
        };
        if self.also_markdown {
            record.markdown = Some(self.render_as(OutputFormat::Markdown, record, &body));
        }
        if self.also_html {
            record.html = Some(self.render_as(OutputFormat::Html, record, &body));
        }
        record.rendered = self.render_as(self.format, record, &body);
    }

    /// The printed body of `record` in `format`: Markdown and HTML with
    /// the comments after the main content, the XML formats, txt with the
    /// metadata header or comments (empty otherwise: `text` is printed).
    fn render_as(&self, format: OutputFormat, record: &Record, body: &Body<'_>) -> String {
        let Body { doc, selection, comments, header, supplement } = *body;
        match format {
            OutputFormat::Markdown => {
                // The title first, once, whether or not the page's
                // headline is in the selection (issue 11).
                let main = render::render(doc, selection, Format::Markdown, self.render);
                let main = with_supplement(main, supplement, Format::Markdown);
                let main = match &record.title {
                    Some(title) => render::markdown_with_title(&main, title),
                    None => main,
                };
                let comments =
                    comments.map(|c| render::render(doc, c, Format::Markdown, self.render));
                with_comments(
                    header.to_string() + &main,
                    comments.as_deref(),
                    "\n\n---\n\n## Comments\n\n",
                )
            }
            OutputFormat::Html => {
                let main = render::render(doc, selection, Format::Html, self.render);
                let main = with_supplement(main, supplement, Format::Html);
                let comments = comments.map(|c| render::render(doc, c, Format::Html, self.render));
                match comments {
                    Some(c) => format!("{main}\n<section class=\"comments\">\n{c}\n</section>"),
                    None => main,
                }
            }
            OutputFormat::Xml | OutputFormat::XmlTei => {
                let main = render::render(doc, selection, Format::Html, self.render);
                let main = with_supplement(main, supplement, Format::Html);
                let comments = comments.map(|c| render::render(doc, c, Format::Html, self.render));
                if format == OutputFormat::Xml {
                    crate::xml::doc_xml(record, &main, comments.as_deref())
                } else {
                    crate::xml::tei_xml(record, &main, comments.as_deref())
                }
            }
            OutputFormat::Txt if self.with_metadata || comments.is_some() => with_comments(
                header.to_string() + &record.text,
                record.comments.as_deref(),
                "\n\n----- Comments -----\n\n",
            ),
            _ => String::new(),
        }
    }
}

/// `body`, then the paragraphs of `supplement` (text from the page's
/// structured data, [`gleaner::extract::structured`]) rendered as
/// `format` by the same renderer as the body, so that they are escaped
/// alike.
fn with_supplement(body: String, supplement: Option<&str>, format: Format) -> String {
    let Some(text) = supplement else { return body };
    let mut html = String::from("<body>");
    for paragraph in text.split("\n\n") {
        html.push_str("<p>");
        render::escape_into(&mut html, paragraph);
        html.push_str("</p>");
    }
    html.push_str("</body>");
    let Ok(doc) = Document::parse(html.as_bytes(), &ParseOptions::default()) else { return body };
    let more = render::render(&doc, &Selection::all(&doc), format, RenderOptions::default());
    match (body.is_empty(), format) {
        (true, _) => more,
        (false, Format::Html) => format!("{body}\n{more}"),
        (false, _) => format!("{body}\n\n{more}"),
    }
}

/// What a job makes of a parsed page ([`Job::content`]), before the
/// record describes it.
struct Content<'m> {
    selection: Selection,
    /// The comment section, apart (with `--comments`).
    comments: Option<Selection>,
    /// The page's type and its confidence (`None`: `other`).
    page_type: Option<(gleaner::extract::learned::PageType, f32)>,
    /// Whether `article`'s rules take the page for an article.
    rules_article: bool,
    /// The plain text, structured data's supplement included.
    text: String,
    /// What the page's structured data added to the text.
    supplement: Option<&'m str>,
}

/// What a page's outputs are rendered from.
#[derive(Clone, Copy)]
struct Body<'a> {
    doc: &'a Document,
    selection: &'a Selection,
    comments: Option<&'a Selection>,
    header: &'a str,
    /// Text the page's structured data adds ([`gleaner::extract::structured`]).
    supplement: Option<&'a str>,
}

/// `body`, then `separator` and `comments` when there are comments.
fn with_comments(body: String, comments: Option<&str>, separator: &str) -> String {
    match comments {
        Some(c) => body + separator + c,
        None => body,
    }
}

/// `make()`, with a panic turned into a record whose error says so.
fn guarded(source: &str, algorithm: &str, make: impl FnOnce() -> Record) -> Record {
    isolate(make).unwrap_or_else(|what| {
        let mut record = Record::new(source, algorithm);
        record.error = Some(format!("internal error, please report it: {what}"));
        record.failure = Some(Failure::Internal);
        record
    })
}

/// Runs `work`, turning a panic into `Err` with the panic's message, so
/// that a bug met on one page costs that page and nothing else. Every
/// front end that runs the library over many pages goes through this (or
/// through [`Job::record`], which does).
pub fn isolate<T>(work: impl FnOnce() -> T) -> std::result::Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|panic| {
        panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shop page whose description is only in its JSON-LD.
    const SHOP: &str = r#"<html><head><title>Dark Roast</title>
        <script type="application/ld+json">{"@type": "Product", "name": "Dark Roast",
        "description": "<p>A bold & smooth dark roast, with arabica beans for flavour and robusta for strength.</p><p>Fair *Trade* and organic.</p>"}</script>
        </head><body><nav><a href="/">Shop</a></nav><main><h1>Dark Roast</h1>
        <p class="price">$19.99</p><button>Add to cart</button></main></body></html>"#;

    #[test]
    fn issue_30_a_product_description_only_in_json_ld_is_added_once() {
        let spec = |format: &str, algorithm: &str| {
            crate::JobSpec {
                algorithm: Some(algorithm.into()),
                page_type: (algorithm == "learned").then(|| "product".into()),
                output_format: Some(format.into()),
                ..crate::JobSpec::default()
            }
            .build()
            .unwrap()
        };
        let page = Page { source: "shop", bytes: SHOP.as_bytes(), url: None, encoding: None };
        let txt = spec("json", "learned").record_for_page(&page, None);
        assert_eq!(txt.page_type, "product");
        assert!(
            txt.text.ends_with("robusta for strength.\n\nFair *Trade* and organic."),
            "{}",
            txt.text
        );
        assert_eq!(txt.text.matches("bold & smooth").count(), 1);
        let md = spec("markdown", "learned").record_for_page(&page, None);
        assert!(md.rendered.contains("Fair \\*Trade\\* and organic."), "{}", md.rendered);
        let html = spec("html", "learned").record_for_page(&page, None);
        assert!(html.rendered.contains("<p>A bold &amp; smooth dark roast"), "{}", html.rendered);
        // The papers' algorithms give their output as it is.
        let plain = spec("json", "plain").record_for_page(&page, None);
        assert!(!plain.text.contains("bold & smooth"), "{}", plain.text);
    }

    #[test]
    fn frameset_pages_are_reported_with_their_frames() {
        let job = Job::new(
            gleaner::extract::by_name("article").expect("article"),
            "article",
            OutputFormat::Txt,
        );
        let html = b"<html><frameset cols='20%,80%'><frame src=menu.html><frame src=main.html></frameset></html>";
        let record = job.record_for_bytes("f.html", html);
        assert_eq!(
            record.error.as_deref(),
            Some("frameset page: its content is in the frames (menu.html, main.html); extract those pages")
        );
    }

    #[test]
    fn oversized_and_binary_inputs_are_failed_records() {
        let job = Job::new(
            gleaner::extract::by_name("plain").expect("plain"),
            "plain",
            OutputFormat::Jsonl,
        )
        .parse_options(ParseOptions::default().max_bytes(10));
        let record = job.record(&Input::from_bytes("big", vec![b'a'; 100]));
        assert!(
            record.error.as_deref().is_some_and(|e| e.contains("more than the limit of 10 bytes")),
            "{record:?}"
        );
        let job = Job::new(
            gleaner::extract::by_name("plain").expect("plain"),
            "plain",
            OutputFormat::Jsonl,
        );
        let record =
            job.record(&Input::from_bytes("png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()));
        assert_eq!(record.error.as_deref(), Some("input is not HTML: it looks like a PNG image"));
    }

    #[test]
    fn every_format_carries_the_text_and_renders_only_what_it_prints() {
        let extractor = || gleaner::extract::by_name("plain").expect("plain");
        let md = Job::new(extractor(), "plain", OutputFormat::Markdown)
            .record_for_bytes("p", b"<h1>Title here</h1><p>Body</p>");
        // The text in every format: the fingerprint and the corpus
        // filters read it.
        assert_eq!(
            (md.text.as_str(), md.rendered.as_str()),
            ("Title here\n\nBody", "# Title here\n\nBody")
        );
        assert!(md.fingerprint.is_some());
        let txt = Job::new(extractor(), "plain", OutputFormat::Txt)
            .record_for_bytes("p", b"<h1>Title here</h1><p>Body</p>");
        assert_eq!((txt.text.as_str(), txt.rendered.as_str()), ("Title here\n\nBody", ""));
    }

    #[test]
    fn other_formats_are_rendered_besides_the_output_format_when_asked() {
        let job = Job::new(
            gleaner::extract::by_name("plain").expect("plain"),
            "plain",
            OutputFormat::Jsonl,
        )
        .also_render(true, true);
        let record = job.record_for_bytes("p", b"<h1>Title here</h1><p>Body</p>");
        assert_eq!(record.markdown.as_deref(), Some("# Title here\n\nBody"));
        assert_eq!(
            record.html.as_deref(),
            Some("<article><h1>Title here</h1>\n<p>Body</p>\n</article>")
        );
        assert_eq!(record.rendered, "");
    }
}
