//! Single-page main-content extractors and their registry.
//!
//! Every algorithm implements [`Extractor`]: a pure function from a
//! [`Document`] to a [`Selection`]. Each has a configuration struct whose
//! `Default` holds the paper's values, and is registered in
//! [`algorithms()`] under the name the CLI's `--algorithm` takes.
//!
//! Parameters can be set by name ([`Params`]), so the CLI, the evaluation
//! sweeps and the bindings need no per-algorithm code.

pub mod article;
pub mod bte;
pub mod ccb;
pub mod cetr;
mod cluster;
pub mod comments;
pub mod crunch;
mod curve;
pub mod dsc;
mod grouped_votes;
pub mod kfe;
pub mod learned;
mod lines;
pub mod lqf;
pub mod page_kind;
pub mod plain;
pub mod preset;
mod signal;
pub mod structured;
pub mod ttr;
pub mod vce;

use std::fmt;
use std::str::FromStr;

pub use self::article::{
    Article, ArticleConfig, AttemptKind, Explanation, MarkReason, Removal, RemovalRule,
};
pub use self::bte::{Bte, BteConfig};
pub use self::ccb::{Ccb, CcbConfig, CcbVariant};
pub use self::cetr::{Cetr, CetrConfig};
pub use self::crunch::{Crunch, CrunchConfig};
pub use self::curve::Curve;
pub use self::dsc::{Dsc, DscConfig};
pub use self::kfe::{Kfe, KfeConfig};
pub use self::lines::LineMode;
pub use self::lqf::{Lqf, LqfConfig};
pub use self::plain::Plain;
pub use self::ttr::{Ttr, TtrConfig, TtrMethod};
pub use self::vce::{Vce, VceConfig};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::metadata::Metadata;
use crate::selection::Selection;

/// A main-content extractor.
pub trait Extractor: Send + Sync + fmt::Debug {
    /// Decides which text nodes of `doc` are main content.
    fn extract(&self, doc: &Document) -> Selection;

    /// [`Extractor::extract`] and, for an extractor that tells page types
    /// apart ([`learned`]), the page's type and its probability.
    fn extract_typed(&self, doc: &Document) -> Extraction {
        Extraction { selection: self.extract(doc), page_type: None, type_probabilities: None }
    }

    /// [`Extractor::extract_typed`] for a caller that has already read the
    /// page's metadata, which an extractor reading it too may reuse.
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        let _ = metadata;
        self.extract_typed(doc)
    }
}

/// What [`Extractor::extract_typed`] decided.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// The main content.
    pub selection: Selection,
    /// The page's type and its probability, when the extractor tells.
    pub page_type: Option<(learned::PageType, f32)>,
    /// Every type's probability, when a classifier (not a forced type)
    /// decided, in [`learned::PAGE_TYPES`] order.
    pub type_probabilities: Option<[f32; 7]>,
}

impl<E: Extractor + ?Sized> Extractor for Box<E> {
    fn extract(&self, doc: &Document) -> Selection {
        (**self).extract(doc)
    }

    fn extract_typed(&self, doc: &Document) -> Extraction {
        (**self).extract_typed(doc)
    }
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_typed_with(doc, metadata)
    }
}

impl<E: Extractor + ?Sized> Extractor for &E {
    fn extract(&self, doc: &Document) -> Selection {
        (**self).extract(doc)
    }

    fn extract_typed(&self, doc: &Document) -> Extraction {
        (**self).extract_typed(doc)
    }
    fn extract_typed_with(&self, doc: &Document, metadata: &Metadata) -> Extraction {
        (**self).extract_typed_with(doc, metadata)
    }
}

/// A configuration that can be set by parameter name.
pub trait Configure: Default {
    /// Sets parameter `key` from its textual `value`.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for an unknown key or an unparsable value.
    fn set(&mut self, key: &str, value: &str) -> Result<()>;

    /// Checks the values against each other and their ranges.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] naming the offending parameter.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

/// Parameter assignments `key=value`, as given on a command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// No parameters: every algorithm's defaults.
    pub fn new() -> Params {
        Params::default()
    }

    /// Adds `key=value`.
    pub fn with(mut self, key: &str, value: impl ToString) -> Params {
        self.0.push((key.to_string(), value.to_string()));
        self
    }

    /// Parses `"key=value"`.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when there is no `=`.
    pub fn push_assignment(&mut self, assignment: &str) -> Result<()> {
        let (k, v) = assignment.split_once('=').ok_or_else(|| {
            Error::InvalidConfig(format!("parameter {assignment:?} is not key=value"))
        })?;
        self.0.push((k.trim().to_string(), v.trim().to_string()));
        Ok(())
    }

    /// The assignments in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Applies the assignments to a default configuration and validates it.
    ///
    /// # Errors
    /// Whatever [`Configure::set`] or [`Configure::validate`] reports.
    pub fn build<C: Configure>(&self) -> Result<C> {
        self.apply(C::default())
    }

    /// Applies the assignments to `config` (for algorithms whose defaults
    /// depend on a variant) and validates it.
    ///
    /// # Errors
    /// Whatever [`Configure::set`] or [`Configure::validate`] reports.
    pub fn apply<C: Configure>(&self, mut config: C) -> Result<C> {
        for (k, v) in self.iter() {
            config.set(k, v)?;
        }
        config.validate()?;
        Ok(config)
    }
}

/// Parses a parameter value, naming the parameter in the error.
///
/// # Errors
/// [`Error::InvalidConfig`] when `value` does not parse as `T`.
pub fn parse_param<T: FromStr>(key: &str, value: &str) -> Result<T> {
    value.parse().map_err(|_| Error::InvalidConfig(format!("{key}: cannot parse {value:?}")))
}

/// The error for a parameter an algorithm does not have.
pub fn unknown_param(algorithm: &str, key: &str) -> Error {
    Error::InvalidConfig(format!("{algorithm} {UNKNOWN_PARAM} {key:?}"))
}

/// Is this algorithm meaningful only with a site template
/// ([`crate::template::Templated`])? `entropy` is.
pub fn needs_template(name: &str) -> bool {
    name == "entropy"
}

/// A registered algorithm.
#[derive(Clone, Copy)]
pub struct Algorithm {
    /// The name `--algorithm` takes.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// The paper it implements.
    pub paper: &'static str,
    build: fn(&Params) -> Result<Box<dyn Extractor>>,
}

impl Algorithm {
    /// Builds the extractor with these parameters.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for unknown or invalid parameters.
    pub fn build(&self, params: &Params) -> Result<Box<dyn Extractor>> {
        (self.build)(params).map_err(|e| match e {
            // An unknown key: say which keys there are (issue 11).
            Error::InvalidConfig(m) if m.contains(UNKNOWN_PARAM) => {
                let keys: Vec<String> = self.params().into_iter().map(|(k, _)| k).collect();
                let keys = if keys.is_empty() { "none".into() } else { keys.join(", ") };
                Error::InvalidConfig(format!("{m}; its parameters: {keys}"))
            }
            other => other,
        })
    }

    /// The algorithm's parameters (the keys `-p key=value` takes) with
    /// their default values, in the order of its configuration's fields.
    ///
    /// NOTE: read from the `Debug` form of the default extractor, each
    /// field kept when the configuration accepts it as a key.
    ///
    /// ```
    /// let lqf = gleaner::extract::algorithm("lqf")?;
    /// assert_eq!(lqf.params(), [("threshold".to_string(), "0.5".to_string())]);
    /// # Ok::<(), gleaner::Error>(())
    /// ```
    pub fn params(&self) -> Vec<(String, String)> {
        let Ok(extractor) = (self.build)(&Params::new()) else { return Vec::new() };
        let debug = format!("{extractor:?}");
        let mut out: Vec<(String, String)> = Vec::new();
        for (key, value) in debug_fields(&debug) {
            let is_key = match (self.build)(&Params::new().with(key, value)) {
                Ok(_) => true,
                Err(Error::InvalidConfig(m)) => !m.contains(UNKNOWN_PARAM),
                Err(_) => true,
            };
            if is_key && !out.iter().any(|(k, _)| k == key) {
                out.push((key.to_string(), value.to_string()));
            }
        }
        out
    }
}

/// What [`unknown_param`] says, to recognise its error.
const UNKNOWN_PARAM: &str = "has no parameter";

/// The `field: value` pairs of a derived `Debug` string whose values are
/// not structs (`Some(x)` read as `x`, `None` as empty).
fn debug_fields(debug: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = debug;
    while let Some(i) = rest.find(": ") {
        let key_start = rest[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |j| j + 1);
        let key = &rest[key_start..i];
        let after = &rest[i + 2..];
        let mut depth = 0i32;
        let end = after
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth > 0 => depth -= 1,
                    ',' | '}' | ')' | ']' => return true,
                    _ => {}
                }
                false
            })
            .map_or(after.len(), |(j, _)| j);
        let value = after[..end].trim();
        rest = after;
        if key.is_empty() || value.contains('{') {
            continue;
        }
        let value = match value.strip_prefix("Some(").and_then(|v| v.strip_suffix(')')) {
            Some(v) => v,
            None if value == "None" => "",
            None => value,
        };
        out.push((key, value));
    }
    out
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Algorithm").field("name", &self.name).finish()
    }
}

fn boxed<E: Extractor + 'static>(e: E) -> Box<dyn Extractor> {
    Box::new(e)
}

const ALGORITHMS: &[Algorithm] = &[
    Algorithm {
        name: "learned",
        summary: "gleaner's learned extractor: gradient-boosted trees decide each text block from \
                  its text, markup and structure, the page's type and the rule-based article's \
                  decision; trained by `gleaner train`",
        paper: "the combination Gottron's CCB paper (2008) leaves as future work, learned from \
                labelled pages (WCEB, WCXB); features after LQF, TCCB, Readability, Crunch",
        build: |p| Ok(boxed(learned::Learned::new(p.build()?)?)),
    },
    Algorithm {
        name: "article",
        summary: "gleaner's own: container search by paragraph votes weighted with link quota and \
                  content-code ratio, then boilerplate and link-list cleaning",
        paper:
            "combines Readability (Arc90 2009), LQF (HT'05), TCCB (Gottron 2008), Crunch (WWW'03)",
        build: |p| Ok(boxed(Article::new(p.build()?))),
    },
    Algorithm {
        name: "plain",
        summary: "all visible text: the papers' baseline",
        paper: "Gottron 2008, CCB evaluation baseline",
        build: |p| {
            if let Some((k, _)) = p.iter().next() {
                return Err(unknown_param("plain", k));
            }
            Ok(boxed(Plain))
        },
    },
    Algorithm {
        name: "entropy",
        summary: "the page minus its site template's text; needs a template model \
                  (--template, --site-templates), without one it keeps all text like plain",
        paper: "Gottron 2008 (EuroIMSA'08) §6: DF filter over a cluster of same-template pages",
        build: |p| {
            if let Some((k, _)) = p.iter().next() {
                return Err(unknown_param("entropy", k));
            }
            // The template is set aside by `template::Templated` around it.
            Ok(boxed(Plain))
        },
    },
    Algorithm {
        name: "bte",
        summary: "Body Text Extraction: the token window with most words inside and tags outside",
        paper: "Finn, Kushmerick, Smyth 2001, Fact or fiction",
        build: |p| Ok(boxed(Bte::new(p.build()?))),
    },
    Algorithm {
        name: "dsc",
        summary: "Document Slope Curve: several low-slope (text-rich) regions of the tag curve",
        paper: "Pinto et al. 2002; Gottron 2007 (ITA'07) multi-region adaptation",
        build: |p| Ok(boxed(Dsc::new(p.build()?))),
    },
    Algorithm {
        name: "lqf",
        summary: "Link Quota Filter: drops blocks whose text is mostly link text",
        paper: "Mantratzis, Orgun, Cassidy 2005 (HT'05)",
        build: |p| Ok(boxed(Lqf::new(p.build()?))),
    },
    Algorithm {
        name: "crunch",
        summary: "Crunch: DOM filters removing forms, link lists and text lists",
        paper: "Gupta, Kaiser, Neistadt, Grimm 2003 (WWW'03)",
        build: |p| Ok(boxed(Crunch::new(p.build()?))),
    },
    Algorithm {
        name: "ccb",
        summary: "Content Code Blurring: Gaussian-blurred character content/code vector",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        build: |p| Ok(boxed(Ccb::new(p.apply(CcbConfig::for_variant(CcbVariant::Ccb))?))),
    },
    Algorithm {
        name: "accb",
        summary: "Content Code Blurring on characters, anchor tags ignored",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        build: |p| Ok(boxed(Ccb::new(p.apply(CcbConfig::for_variant(CcbVariant::Accb))?))),
    },
    Algorithm {
        name: "tccb",
        summary: "Content Code Blurring on word/tag tokens, anchor tags ignored",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        build: |p| Ok(boxed(Ccb::new(p.apply(CcbConfig::for_variant(CcbVariant::Tccb))?))),
    },
    Algorithm {
        name: "ttr",
        summary: "Text-to-Tag Ratio per line, smoothed, threshold at λ·std (best recall)",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        build: |p| ttr_with(p, TtrMethod::Threshold),
    },
    Algorithm {
        name: "ttr-kmeans",
        summary: "Text-to-Tag Ratio per line, k-means with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        build: |p| ttr_with(p, TtrMethod::KMeans),
    },
    Algorithm {
        name: "ttr-em",
        summary: "Text-to-Tag Ratio per line, EM Gaussian mixture with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        build: |p| ttr_with(p, TtrMethod::Em),
    },
    Algorithm {
        name: "ttr-farthest-first",
        summary: "Text-to-Tag Ratio per line, farthest-first clustering with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        build: |p| ttr_with(p, TtrMethod::FarthestFirst),
    },
    Algorithm {
        name: "ttr-prediction",
        summary: "Text-to-Tag Ratio per line, jumps of the unsmoothed ratio",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        build: |p| ttr_with(p, TtrMethod::Prediction),
    },
    Algorithm {
        name: "cetr",
        summary: "Content Extraction via Tag Ratios: 2-D k-means on smoothed ratio and derivative",
        paper: "Weninger, Hsu, Han 2010 (WWW'10)",
        build: |p| Ok(boxed(Cetr::new(p.build()?))),
    },
    Algorithm {
        name: "vce",
        summary: "Visual Clustering Extractor: visual block tree from the layout (boxes, fonts, \
                  backgrounds; estimated without --layout browser), the block with the largest \
                  FactorValue",
        paper:
            "Asfia, Pedram, Rahmani, Main Content Extraction from Detailed Web Pages (IJCA 2010)",
        build: |p| Ok(boxed(Vce::new(p.build()?))),
    },
    Algorithm {
        name: "kfe",
        summary: "K-Feature Extractor: blocks' text-feature probability, k-means (k = 2), the \
                  high cluster (VCE's baseline)",
        paper: "Debnath, Mitra, Pal, Giles 2005 (IEEE TKDE 17(9))",
        build: |p| Ok(boxed(Kfe::new(p.build()?))),
    },
];

fn ttr_with(params: &Params, method: TtrMethod) -> Result<Box<dyn Extractor>> {
    Ok(boxed(Ttr::new(params.apply(TtrConfig::default().method(method))?)))
}

/// Every registered algorithm, in the order `gleaner algorithms` lists them.
pub fn algorithms() -> &'static [Algorithm] {
    ALGORITHMS
}

/// The algorithm used when none is named: the learned extractor, which
/// tells the page's type and lets its block model or `article`'s rules
/// decide (issues 30 and 32; `docs/todays-web.md`).
pub const DEFAULT_ALGORITHM: &str = "learned";

/// Looks up an algorithm by name (`"default"` is [`DEFAULT_ALGORITHM`]).
///
/// # Errors
/// [`Error::UnknownAlgorithm`].
pub fn algorithm(name: &str) -> Result<&'static Algorithm> {
    let name = if name == "default" { DEFAULT_ALGORITHM } else { name };
    ALGORITHMS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::UnknownAlgorithm { name: name.to_string() })
}

/// Builds the named extractor with its default parameters.
///
/// # Errors
/// [`Error::UnknownAlgorithm`].
pub fn by_name(name: &str) -> Result<Box<dyn Extractor>> {
    algorithm(name)?.build(&Params::new())
}

#[cfg(test)]
mod issue_11_tests {
    use super::*;

    /// See: issue 11, "`-p key=value` with an unknown key should list the
    /// valid keys".
    #[test]
    fn issue_11_unknown_keys_list_the_valid_ones_and_params_have_defaults() {
        let article = algorithm("article").expect("article");
        let err = article.build(&Params::new().with("nope", 1)).expect_err("unknown key");
        assert!(err.to_string().contains("link_quota"), "{err}");
        let params = article.params();
        assert!(params.iter().any(|(k, v)| k == "min_article_chars" && v == "250"), "{params:?}");
        assert_eq!(algorithm("plain").expect("plain").params(), []);
    }
}
