//! The learned extractor (issues 30 and 32): a model decides, for every
//! text block of the page, whether it is main content, from the block's
//! own facts, its surroundings, the seed algorithms' decisions and the
//! page's type.

pub mod blocks;
pub mod features;
pub mod names;
pub mod page;
pub mod text;

pub use self::blocks::{Block, Blocks};
pub use self::features::{feature_names, page_rows, FeatureSet, PageRows};
