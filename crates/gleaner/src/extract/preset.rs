//! `--precision` and `--recall`: presets that move the default
//! extractor's decision the way trafilatura's `favor_precision` and
//! `favor_recall` do — fewer doubtful blocks kept, or more — as
//! assignments to [`ArticleConfig`](super::article::ArticleConfig)'s
//! existing parameters, among them the rules that are off by default
//! (`captions`).
//!
//! The values and their measured effect on precision and recall over the
//! development sets are in `docs/evaluation.md#precision-and-recall-presets`.
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
    /// Keep fewer doubtful blocks: stricter link quota, longer voting
    /// blocks, fewer secondary containers, a shorter climb, no captions.
    Precision,
    /// Keep more: looser link quota and link-list rule, more secondary
    /// containers and siblings, a retry on longer results.
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

    /// The preset as parameters of `algorithm`: `article`'s
    /// ([`Preset::params`]), or for `learned` a shift of every page
    /// type's threshold ([`LearnedConfig::shift`](super::learned::LearnedConfig::shift)):
    /// up for precision, down for recall. `None` for another algorithm.
    pub fn params_for(self, algorithm: &str) -> Option<Params> {
        match algorithm {
            "article" => Some(self.params()),
            "learned" => Some(Params::new().with(
                "shift",
                match self {
                    Preset::Precision => LEARNED_PRECISION_SHIFT,
                    Preset::Recall => LEARNED_RECALL_SHIFT,
                },
            )),
            _ => None,
        }
    }
}

/// `--precision` \[I\]: each value moved one step of a `--sweep` the
/// way that raised macro LCS precision on the dev sets.
/// `learned --precision`: every type's threshold this much higher.
const LEARNED_PRECISION_SHIFT: &str = "0.15";
/// `learned --recall`: every type's threshold this much lower.
const LEARNED_RECALL_SHIFT: &str = "-0.15";

const PRECISION: &[(&str, &str)] = &[
    // A text segment with more than this link quota is left out [0.5].
    ("link_quota", "0.3"),
    // Blocks need more characters to vote [25].
    ("min_paragraph_chars", "45"),
    // Other containers join only when nearly as strong as the winner [0.7].
    ("secondary_share", "0.9"),
    // The climb from the winner stops sooner [3].
    ("climb_divisor", "2"),
    // Captions, photo credits and repeated captions go [off].
    ("captions", "true"),
];

/// `--recall` \[I\]: the same, towards recall.
const RECALL: &[(&str, &str)] = &[
    ("link_quota", "0.7"),
    ("secondary_share", "0.5"),
    // Lists and tables need more linked words to go [1] …
    ("link_list_ratio", "2"),
    // … short paragraph-like siblings join [80] …
    ("sibling_paragraph_chars", "40"),
    // … and a result under this many characters is retried with weaker
    // boilerplate marks [250].
    ("min_article_chars", "400"),
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
