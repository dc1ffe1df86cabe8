//! The batch crate's error type.

use std::path::PathBuf;

/// A specialised `Result` for batches.
pub type Result<T> = std::result::Result<T, Error>;

/// What can go wrong around a page: finding, reading and writing it.
/// What goes wrong *with* a page is that page's record's `error`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading an input or writing an output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A directory given as input could not be read.
    #[error("cannot read directory {}: {cause}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// Why (in the message, so not a `source` the chain repeats).
        cause: std::io::Error,
    },
    /// Writing an output file (or creating its folder) failed.
    #[error("cannot write {}: {cause}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// An input read as a stream (standard input, a pipe, a gzip
    /// stream) went on past the size limit; its full size is unknown.
    #[error("input is more than the limit of {limit} bytes (raise --max-bytes)")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// An input that is not a regular file (a FIFO, a device, a socket,
    /// a directory): it is never opened for reading.
    #[error("not a regular file: it is {kind} (give a pipe's bytes as - on standard input)")]
    NotRegularFile {
        /// The path as given (or found).
        path: PathBuf,
        /// What it is instead: `a FIFO`, `a device`, `a socket`, …
        kind: &'static str,
    },
    /// A gzip stream that does not decompress.
    #[error("invalid gzip data: {0}")]
    Gzip(std::io::Error),
    /// A template model file that cannot be used: not a regular file
    /// (a device such as `/dev/zero`, a FIFO), larger than
    /// [`gleaner::template::MAX_MODEL_BYTES`], or not a model.
    #[error("template model {}: {reason}", path.display())]
    Model {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Standard input was named twice.
    #[error("standard input (-) given more than once")]
    StdinTwice,
    /// A record could not be serialised.
    #[error("cannot serialise a record: {0}")]
    Json(#[from] serde_json::Error),
    /// A record could not be written as CSV.
    #[error("cannot write a record as CSV: {0}")]
    Csv(String),
    /// An error of the core library (an input over the size limit, say).
    #[error(transparent)]
    Core(#[from] gleaner::Error),
}

impl Error {
    /// Is this a write to a closed pipe (`gleaner … | head`)? Front ends
    /// end quietly then.
    pub fn is_broken_pipe(&self) -> bool {
        let io = match self {
            Error::Io(e) | Error::Write { cause: e, .. } => e,
            _ => return false,
        };
        io.kind() == std::io::ErrorKind::BrokenPipe
    }
}
