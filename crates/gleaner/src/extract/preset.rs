//! `--precision` and `--recall`: presets that move the default
//! extractor's decision the way trafilatura's `favor_precision` and
//! `favor_recall` do — fewer doubtful blocks kept, or more — as
//! assignments to [`ArticleConfig`](super::article::ArticleConfig)'s
//! existing parameters (no other rules).
//!
//! The values and their measured effect on precision and recall over the
//! development sets are in the README ("Precision and recall presets").
//!
//! ```
//! use gleaner::extract::{algorithm, preset::Preset};
//! let params = Preset::Precision.params();
//! assert!(algorithm("article")?.build(&params).is_ok());
//! # Ok::<(), gleaner::Error>(())
//! ```

use super::Params;

/// Which way to move the default extractor's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Preset {
    /// Keep fewer doubtful blocks: stricter link and sibling rules, no
    /// secondary containers.
    Precision,
    /// Keep more: looser link and sibling rules, more secondary
    /// containers, a retry on shorter results.
    Recall,
}

impl Preset {
    /// The preset's name, as its flag spells it (`precision`, `recall`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Precision => "precision",
            Preset::Recall => "recall",
        }
    }

    /// The preset as `article` parameters, each an existing
    /// [`ArticleConfig`](super::article::ArticleConfig) field (defaults in
    /// brackets). Assignments given after these override them.
    pub fn params(self) -> Params {
        let assignments: &[(&str, &str)] = match self {
            Preset::Precision => PRECISION,
            Preset::Recall => RECALL,
        };
        assignments.iter().fold(Params::new(), |p, (k, v)| p.with(k, v))
    }
}

/// `--precision` \[I\].
const PRECISION: &[(&str, &str)] = &[
    // Other containers join only when nearly as strong as the winner [0.7].
    ("secondary_share", "0.9"),
    // A sibling joins with a larger share of the container's votes [0.2].
    ("sibling_share", "0.3"),
    // Link-heavy segments and lists go sooner [0.5, 1].
    ("link_quota", "0.35"),
    ("link_list_ratio", "0.5"),
];

/// `--recall` \[I\].
const RECALL: &[(&str, &str)] = &[
    ("secondary_share", "0.5"),
    ("sibling_share", "0.1"),
    ("link_quota", "0.65"),
    ("link_list_ratio", "2"),
    // Retry with weaker boilerplate marks below this many characters [250].
    ("min_article_chars", "500"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_article_parameters() {
        for preset in [Preset::Precision, Preset::Recall] {
            let built = super::super::algorithm("article").and_then(|a| a.build(&preset.params()));
            assert!(built.is_ok(), "{preset:?}");
        }
    }
}
