//! The library's error type.

use std::fmt;

/// A specialised `Result` for gleaner operations.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong in the library.
///
/// Malformed HTML is never an error: the HTML5 parser recovers from any
/// input, as browsers do. Errors are limits that an input exceeded, inputs
/// that are not HTML at all, and invalid configuration.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is larger than [`ParseOptions::max_bytes`](crate::ParseOptions).
    #[error("input is {size} bytes, more than the limit of {limit} bytes (raise --max-bytes)")]
    TooLarge {
        /// Size of the input in bytes.
        size: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The page would make more elements than
    /// [`ParseOptions::max_elements`](crate::ParseOptions).
    #[error("page has more than {limit} elements (the element limit)")]
    TooManyElements {
        /// The configured limit.
        limit: usize,
    },
    /// The page's markup is so dense that its nodes and tokens would need
    /// more memory than
    /// [`ParseOptions::max_memory_factor`](crate::ParseOptions) times its
    /// size (above a fixed allowance): a page of many megabytes of
    /// `<p>x</p>` or `<a>x`, never a real page.
    #[error(
        "page's markup is too dense: its {size} bytes would need more than {factor} times their \
         size in memory (raise --max-memory-factor; 0 for no limit)"
    )]
    TooDense {
        /// Size of the page in bytes.
        size: usize,
        /// The configured factor.
        factor: usize,
    },
    /// The page's work took longer than
    /// [`ParseOptions::time_budget`](crate::ParseOptions): parsing stopped,
    /// or an extractor stopped early (see
    /// [`Deadline`](crate::document::Deadline)).
    #[error("page took longer than its time budget of {budget_ms} ms (raise --time-budget-ms)")]
    TimeBudget {
        /// The configured budget in milliseconds.
        budget_ms: u64,
    },
    /// The input is binary data (an image, an archive, …), not a web page.
    #[error("input is not HTML: it looks like {kind}")]
    NotHtml {
        /// What the input looks like, e.g. `"a PNG image"` or `"binary data"`.
        kind: BinaryKind,
    },
    /// An encoding label that neither WHATWG nor encoding_rs knows.
    #[error("unknown character encoding {label:?}")]
    UnknownEncoding {
        /// The label as given.
        label: String,
    },
    /// No extractor is registered under this name.
    #[error("unknown algorithm {name:?}; `gleaner algorithms` lists them")]
    UnknownAlgorithm {
        /// The name as given.
        name: String,
    },
    /// A parameter key the algorithm does not have
    /// ([`Configure::set`](crate::extract::Configure::set)).
    #[error("{algorithm} has no parameter {key:?}; its parameters: {}", keys(.valid))]
    UnknownParam {
        /// The algorithm (or its configuration's family, `ttr`, `ccb`).
        algorithm: &'static str,
        /// The key as given.
        key: String,
        /// The keys it has, in the order of its configuration's fields.
        valid: Vec<&'static str>,
    },
    /// A parameter value that does not parse as the parameter's type or
    /// lies outside its [`Range`](crate::extract::params::Range).
    #[error("invalid parameter: {algorithm} {key}={value}: must be {expected}")]
    InvalidParam {
        /// The algorithm (or its configuration's family).
        algorithm: &'static str,
        /// The parameter.
        key: &'static str,
        /// The value as given (or as the configuration holds it).
        value: String,
        /// What it must be: `a number`, `in [0, 1]`, `one of source, blocks`.
        expected: String,
    },
    /// A configuration value is out of its valid range, or values that
    /// do not go together.
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    /// A template model that cannot be read: not a gleaner model, another
    /// version, or damaged.
    #[error("invalid template model: {0}")]
    InvalidModel(String),
    /// A learned block model ([`boost::Forest`](crate::boost::Forest))
    /// that cannot be used: not a gleaner model, another format version,
    /// damaged (truncated, checksum mismatch, inconsistent trees), or
    /// trained for another feature schema.
    #[error("invalid learned model: {0}")]
    InvalidLearnedModel(String),
    /// Training data that cannot be learned from: lengths that disagree,
    /// labels outside their range, negative or non-finite weights.
    #[error("invalid training data: {0}")]
    InvalidTrainingData(String),
    /// A layout provider could not lay the page out: the browser is
    /// missing, crashed, or ran out of time.
    #[error("layout failed: {0}")]
    Layout(String),
}

/// What a non-HTML input was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BinaryKind {
    /// A gzip stream that was not decompressed.
    Gzip,
    /// A PDF document.
    Pdf,
    /// A PNG image.
    Png,
    /// A JPEG image.
    Jpeg,
    /// A GIF image.
    Gif,
    /// A ZIP archive (also docx, xlsx, …).
    Zip,
    /// Data with many control bytes and no known signature.
    Binary,
}

impl fmt::Display for BinaryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinaryKind::Gzip => "gzip-compressed data",
            BinaryKind::Pdf => "a PDF document",
            BinaryKind::Png => "a PNG image",
            BinaryKind::Jpeg => "a JPEG image",
            BinaryKind::Gif => "a GIF image",
            BinaryKind::Zip => "a ZIP archive",
            BinaryKind::Binary => "binary data",
        })
    }
}

/// The keys of [`Error::UnknownParam`], or `none`.
fn keys(valid: &[&str]) -> String {
    if valid.is_empty() {
        "none".into()
    } else {
        valid.join(", ")
    }
}
