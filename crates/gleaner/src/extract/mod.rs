//! Single-page main-content extractors and their registry.
//!
//! Every algorithm implements [`Extractor`] ([`extractor`]): a pure
//! function from a [`Document`](crate::Document) to a
//! [`Selection`](crate::Selection). Each has a configuration struct
//! declared once in the parameter system ([`params`]), whose `Default`
//! holds the paper's values, and is registered in [`algorithms()`]
//! ([`registry`]) under the name the CLI's `--algorithm` takes.
//!
//! Parameters can be set by name ([`Params`]), so the CLI, the evaluation
//! sweeps and the bindings need no per-algorithm code: they read each
//! algorithm's [`ParamSpec`]s and [`Capabilities`].

pub mod article;
pub mod bte;
pub mod ccb;
pub mod cetr;
mod cluster;
pub mod comments;
pub mod crunch;
mod curve;
pub mod dsc;
pub mod extractor;
mod grouped_votes;
pub mod kfe;
pub mod learned;
mod lines;
pub mod lqf;
mod name_table;
pub mod page_kind;
pub mod params;
pub mod plain;
pub mod preset;
pub mod registry;
mod signal;
pub mod structured;
pub mod ttr;
pub mod vce;

pub use self::article::{
    Article, ArticleConfig, AttemptKind, Explanation, MarkReason, Removal, RemovalRule,
};
pub use self::bte::{Bte, BteConfig};
pub use self::ccb::{Ccb, CcbConfig, CcbVariant};
pub use self::cetr::{Cetr, CetrConfig};
pub use self::crunch::{Crunch, CrunchConfig};
pub use self::curve::Curve;
pub use self::dsc::{Dsc, DscConfig};
pub use self::extractor::{Extraction, Extractor};
pub use self::kfe::{Kfe, KfeConfig};
pub use self::lines::LineMode;
pub use self::lqf::{Lqf, LqfConfig};
pub use self::params::{Configure, Param, ParamSpec, Params};
pub use self::plain::Plain;
pub use self::registry::{
    algorithm, algorithms, by_name, Algorithm, Capabilities, DEFAULT_ALGORITHM,
};
pub use self::ttr::{Ttr, TtrConfig, TtrMethod};
pub use self::vce::{Vce, VceConfig};
