//! The learned extractor's model file: a page-type forest and a block
//! forest (both [`boost::Forest`](crate::boost::Forest)), the feature set
//! they were trained with, the score a block must reach to be kept, and
//! for each page type whether the block forest or `article`'s rules
//! decide it, at which score ([`TypePolicy`], chosen out of fold by
//! `gleaner train --cv`).
//!
//! # File format
//!
//! Little-endian; every part checked on loading:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `GLEANLRN` |
//! | 4 | format version, [`MODEL_VERSION`] |
//! | 4 | feature set: bit 0 set when the seed algorithms' decisions are features |
//! | 4 | threshold (f32): blocks scoring at least this are kept |
//! | 7 × 8 | per page type, in [`PAGE_TYPES`] order: 4 bytes of flags (bit 0 set when the block forest decides, else `article`'s rules; bit 1 set when each page's threshold is drawn halfway to its own cut), the type's threshold (f32) |
//! | 4 + n | the page-type forest's bytes (`n` may be 0: no page types) |
//! | 4 + n | the block forest's bytes |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! The forests carry their feature names; loading refuses a model whose
//! names are not the features this version of gleaner computes, so a
//! model from another version is an error that says so rather than
//! wrong output.

use crate::boost::Forest;
use crate::error::{Error, Result};

use super::features::{feature_names, FeatureSet};
use super::page;
use super::PAGE_TYPES;

/// The file's first bytes.
pub const MODEL_MAGIC: &[u8; 8] = b"GLEANLRN";

/// The version of the layout this build reads and writes.
pub const MODEL_VERSION: u32 = 2;

/// Largest model file read (a shipped model is a few MB).
pub const MAX_MODEL_BYTES: usize = 256 << 20;

/// The learned extractor's models; the module documentation in
/// `extract/learned/model.rs` describes them.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnedModel {
    /// The features the block forest reads.
    pub features: FeatureSet,
    /// Blocks whose probability reaches this are kept (where a page
    /// type's policy does not say otherwise).
    pub threshold: f32,
    /// What to do with a page of each type, in [`PAGE_TYPES`] order.
    pub policies: [TypePolicy; 7],
    /// The page-type classifier over the page features, when trained:
    /// softmax over [`PAGE_TYPES`].
    pub page_types: Option<Forest>,
    /// The block classifier over the block features, the page features
    /// and the page-type probabilities.
    pub blocks: Forest,
}

/// How the model decides a page of one type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypePolicy {
    /// The block forest decides; else `article`'s rules do (for a type on
    /// which the forest did not beat them out of fold).
    pub blocks: bool,
    /// Blocks of such a page scoring at least this are kept (with
    /// `adaptive`, the page's threshold is drawn halfway to its own cut).
    pub threshold: f32,
    /// Each page gets a threshold of its own, drawn halfway to the cut
    /// that maximises its expected word F1:
    /// [`page_threshold`](super::threshold::page_threshold) (blended with
    /// the other types' by the page's type probabilities:
    /// [`blended_threshold`](super::threshold::blended_threshold)).
    pub adaptive: bool,
}

impl TypePolicy {
    /// The block forest at `threshold`.
    pub fn blocks(threshold: f32) -> TypePolicy {
        TypePolicy { blocks: true, threshold, adaptive: false }
    }
}

/// A policy's flags in a model file: bit 0 the forest decides, bit 1 the
/// threshold is adaptive (a model written before adaptive policies reads
/// as fixed thresholds).
const POLICY_BLOCKS: u32 = 1;
const POLICY_ADAPTIVE: u32 = 2;

/// The column names of the page-type probabilities in a block row.
pub fn type_columns() -> Vec<String> {
    PAGE_TYPES.iter().map(|t| format!("type_{t}")).collect()
}

/// Every column of a block forest's rows for a feature set.
pub fn block_columns(set: FeatureSet) -> Vec<String> {
    let mut names = feature_names(set);
    names.extend(type_columns());
    names
}

fn invalid(what: impl Into<String>) -> Error {
    Error::InvalidLearnedModel(what.into())
}

impl LearnedModel {
    /// Every page type's probability for a page's features
    /// ([`page::feature_names`]), in [`PAGE_TYPES`] order; `None` when the
    /// model has no page-type classifier.
    pub fn page_type_probabilities(&self, page: &[f32]) -> Option<[f32; 7]> {
        let forest = self.page_types.as_ref()?;
        let mut p = [0f32; 7];
        forest.predict_proba_multi(page, &mut p);
        Some(p)
    }

    /// Checks that the forests read the features this build computes.
    ///
    /// # Errors
    /// [`Error::InvalidLearnedModel`] naming the first difference.
    pub fn check(&self) -> Result<()> {
        self.blocks
            .check_features(&block_columns(self.features))
            .map_err(|e| invalid(format!("block model: {e}")))?;
        if let Some(types) = &self.page_types {
            types
                .check_features(&page::feature_names())
                .map_err(|e| invalid(format!("page-type model: {e}")))?;
            if types.n_outputs() != PAGE_TYPES.len() {
                return Err(invalid(format!(
                    "page-type model has {} classes, not {}",
                    types.n_outputs(),
                    PAGE_TYPES.len()
                )));
            }
        }
        let thresholds_ok = self.threshold.is_finite()
            && self.policies.iter().all(|p| (0.0..=1.0).contains(&p.threshold));
        if types_ok(self.blocks.n_outputs()) && thresholds_ok {
            Ok(())
        } else {
            Err(invalid("the block model is not a binary classifier with thresholds in [0, 1]"))
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MODEL_MAGIC);
        out.extend_from_slice(&MODEL_VERSION.to_le_bytes());
        out.extend_from_slice(&u32::from(self.features.seeds).to_le_bytes());
        out.extend_from_slice(&self.threshold.to_le_bytes());
        for p in &self.policies {
            let flags =
                (u32::from(p.blocks) * POLICY_BLOCKS) | (u32::from(p.adaptive) * POLICY_ADAPTIVE);
            out.extend_from_slice(&flags.to_le_bytes());
            out.extend_from_slice(&p.threshold.to_le_bytes());
        }
        let types = self.page_types.as_ref().map(Forest::to_bytes).unwrap_or_default();
        let blocks = self.blocks.to_bytes();
        for part in [&types, &blocks] {
            out.extend_from_slice(&(part.len() as u32).to_le_bytes());
            out.extend_from_slice(part);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a model file's bytes and checks it ([`LearnedModel::check`]).
    ///
    /// # Errors
    /// [`Error::InvalidLearnedModel`] for anything but a whole, intact
    /// model of this version for this build's features: another file, a
    /// truncated or damaged one, another version.
    pub fn from_bytes(bytes: &[u8]) -> Result<LearnedModel> {
        if bytes.len() > MAX_MODEL_BYTES {
            return Err(invalid(format!(
                "{} bytes, more than a model's {MAX_MODEL_BYTES}",
                bytes.len()
            )));
        }
        if bytes.len() < 8 || &bytes[..8] != MODEL_MAGIC {
            return Err(invalid("not a gleaner learned model (no GLEANLRN magic)"));
        }
        if bytes.len() < 8 + 4 + 4 + 4 + 7 * 8 + 4 + 4 + 4 {
            return Err(invalid("truncated"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
        let mut at = 8;
        let u32_at = |at: &mut usize| -> Result<u32> {
            let b = body.get(*at..*at + 4).ok_or_else(|| invalid("truncated"))?;
            *at += 4;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let version = u32_at(&mut at)?;
        if version != MODEL_VERSION {
            return Err(invalid(format!(
                "format version {version}; this gleaner reads version {MODEL_VERSION}"
            )));
        }
        if crc32fast::hash(body) != stored {
            return Err(invalid("damaged: its checksum does not match"));
        }
        let flags = u32_at(&mut at)?;
        let threshold = f32::from_bits(u32_at(&mut at)?);
        let mut policies = [TypePolicy::blocks(threshold); 7];
        for p in &mut policies {
            let flags = u32_at(&mut at)?;
            if flags & !(POLICY_BLOCKS | POLICY_ADAPTIVE) != 0 {
                return Err(invalid(format!("unknown policy flags {flags:#x}")));
            }
            p.blocks = flags & POLICY_BLOCKS != 0;
            p.adaptive = flags & POLICY_ADAPTIVE != 0;
            p.threshold = f32::from_bits(u32_at(&mut at)?);
        }
        let part = |at: &mut usize| -> Result<&[u8]> {
            let n = u32_at(at)? as usize;
            let p = body.get(*at..*at + n).ok_or_else(|| invalid("truncated"))?;
            *at += n;
            Ok(p)
        };
        let types = part(&mut at)?;
        let blocks = part(&mut at)?;
        if at != body.len() {
            return Err(invalid("trailing bytes after the block model"));
        }
        let page_types = if types.is_empty() {
            None
        } else {
            Some(Forest::from_bytes(types).map_err(|e| invalid(format!("page-type model: {e}")))?)
        };
        let blocks =
            Forest::from_bytes(blocks).map_err(|e| invalid(format!("block model: {e}")))?;
        let model = LearnedModel {
            features: FeatureSet { seeds: flags & 1 != 0 },
            threshold,
            policies,
            page_types,
            blocks,
        };
        model.check()?;
        Ok(model)
    }
}

fn types_ok(outputs: usize) -> bool {
    outputs == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Document, ParseOptions};
    use crate::extract::learned::{Learned, LearnedConfig};
    use std::sync::Arc;

    const PAGE: &str = "<html><head><title>Storm</title></head><body><nav><a href=/>Home</a> \
        <a href=/news>News</a></nav><article><h1>Storm</h1><p>A powerful storm reached the \
        coast on Monday, bringing heavy rain and strong winds to the towns along the shore.</p>\
        <p>Officials said thousands of homes were without power.</p></article>\
        <footer>Copyright 2025</footer></body></html>";

    // See: issue 32: a model round-trips through its file and decides the
    // same.
    #[test]
    fn the_default_model_round_trips_and_decides_the_same() {
        let model = LearnedModel::default_model().expect("the compiled-in model");
        let bytes = model.to_bytes();
        let again = LearnedModel::from_bytes(&bytes).expect("reads back");
        assert_eq!(*model, again);
        assert_eq!(bytes, again.to_bytes(), "written back byte for byte");
        let doc = Document::parse(PAGE.as_bytes(), &ParseOptions::default()).expect("parse");
        let a = Learned::with_model(model, LearnedConfig::default()).decide(&doc);
        let b = Learned::with_model(Arc::new(again), LearnedConfig::default()).decide(&doc);
        assert_eq!(a.selection, b.selection);
        assert_eq!(a.page_type, b.page_type);
        assert_eq!(a.type_probabilities, b.type_probabilities);
        assert_eq!(a.blocks.map(|b| b.1), b.blocks.map(|b| b.1), "every block's score");
    }

    // An adaptive policy survives the file; a flag this build does not know
    // is an error, not a policy read wrong.
    #[test]
    fn adaptive_policies_round_trip_and_unknown_flags_are_refused() {
        let mut model = (*LearnedModel::default_model().expect("model")).clone();
        model.policies[3] = TypePolicy { blocks: true, threshold: 0.2, adaptive: true };
        model.policies[4] = TypePolicy { blocks: false, threshold: 0.4, adaptive: true };
        let bytes = model.to_bytes();
        assert_eq!(LearnedModel::from_bytes(&bytes).expect("reads back"), model);
        // The first policy's flags follow magic, version, feature set and
        // threshold; the checksum is made again so only the flag is wrong.
        let mut odd = bytes[..bytes.len() - 4].to_vec();
        odd[20] = 4;
        let crc = crc32fast::hash(&odd);
        odd.extend_from_slice(&crc.to_le_bytes());
        let err = LearnedModel::from_bytes(&odd).expect_err("refused").to_string();
        assert!(err.contains("unknown policy flags"), "{err}");
        // Configured, a threshold is the same on every page.
        let adaptive = Arc::new(model);
        let learned = Learned::with_model(adaptive.clone(), LearnedConfig::default());
        let (scores, words) = ([0.1, 0.12, 0.02], [50, 50, 50]);
        let own = learned.page_threshold(crate::extract::learned::PageType(3), &scores, &words);
        assert!((own - 0.5 * (0.2 + 0.1)).abs() < 1e-6, "{own}");
        let fixed = Learned::with_model(
            adaptive,
            LearnedConfig { threshold: Some(0.3), ..Default::default() },
        );
        assert_eq!(
            fixed.page_threshold(crate::extract::learned::PageType(3), &scores, &words),
            0.3
        );
    }

    // See: issue 32: a damaged model is an error that says what is wrong.
    #[test]
    fn damaged_models_are_errors_that_say_so() {
        let bytes = LearnedModel::default_model().expect("model").to_bytes();
        let mut flipped = bytes.clone();
        let at = bytes.len() / 2;
        flipped[at] ^= 1;
        let mut version = bytes.clone();
        version[8] = 99;
        for (bad, says) in [
            (&flipped[..], "checksum"),
            (&bytes[..bytes.len() - 1], "checksum"),
            (&bytes[..20], "truncated"),
            (&version[..], "version 99"),
            (&b"GLEANGBM"[..], "magic"),
        ] {
            let err = LearnedModel::from_bytes(bad).expect_err("refused").to_string();
            assert!(err.contains(says), "{says}: {err}");
        }
    }
}
