//! The evaluation crate's error type.

/// A specialised `Result` for evaluation.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong while reading datasets or scoring.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A dataset or gold file could not be read or understood.
    #[error("dataset error: {0}")]
    Dataset(String),
    /// Arguments that do not fit together (label lists of different
    /// lengths, say).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// An error of the core library: a page over the size limit, an
    /// unknown algorithm, an invalid parameter.
    #[error(transparent)]
    Core(#[from] gleaner::Error),
}
