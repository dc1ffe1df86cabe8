//! The registry: every algorithm under the name `--algorithm` takes, with
//! its parameters ([`Algorithm::params`]), what it can do
//! ([`Capabilities`]) and how to build it.
//!
//! This is the one module that imports every algorithm; the algorithms
//! import only the trait ([`Extractor`]) and the
//! parameter system ([`params`](super::params)). An algorithm is added by
//! one entry of `ALGORITHMS`.

use std::fmt;

use super::extractor::Extractor;
use super::learned::Learned;
use super::params::{Configure, NoParams, Param, Params};
use super::{
    Article, ArticleConfig, Bte, BteConfig, Ccb, CcbConfig, CcbVariant, Cetr, CetrConfig, Crunch,
    CrunchConfig, Curve, Dsc, DscConfig, Kfe, KfeConfig, Lqf, LqfConfig, Plain, Ttr, TtrConfig,
    TtrMethod, Vce, VceConfig,
};
use crate::document::Document;
use crate::error::{Error, Result};

/// What an algorithm can do or needs, as data the front ends read instead
/// of matching its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Capabilities {
    /// Meaningful only with a site template
    /// ([`Templated`](crate::template::Templated)): `entropy`. Without one
    /// the front ends refuse it.
    pub needs_template: bool,
    /// Reads the source as lines and takes the `lines` parameter
    /// (`--lines`): the TTR family and CETR.
    pub line_based: bool,
    /// Has a per-position [`Curve`] ([`Algorithm::curve`]) for `gleaner
    /// inspect` and plots: CCB, TTR, CETR.
    pub curve: bool,
}

impl Capabilities {
    /// Nothing special.
    const NONE: Capabilities =
        Capabilities { needs_template: false, line_based: false, curve: false };
    /// A curve algorithm (CCB).
    const CURVE: Capabilities = Capabilities { curve: true, ..Capabilities::NONE };
    /// A line-based curve algorithm (TTR, CETR).
    const LINES: Capabilities =
        Capabilities { line_based: true, curve: true, ..Capabilities::NONE };
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
    /// What it can do or needs.
    pub capabilities: Capabilities,
    recipe: &'static dyn Recipe,
}

impl Algorithm {
    /// Builds the extractor with these parameters.
    ///
    /// # Errors
    /// [`Error::UnknownParam`] for a key it does not have (listing those
    /// it has), [`Error::InvalidParam`] or [`Error::InvalidConfig`] for a
    /// value it refuses; the learned extractor's model errors.
    pub fn build(&self, params: &Params) -> Result<Box<dyn Extractor>> {
        self.recipe.build(params).map_err(|e| self.named(e))
    }

    /// The algorithm's parameters (the keys `-p key=value` takes) with
    /// their defaults in this algorithm, in the order of its
    /// configuration's fields.
    ///
    /// ```
    /// let lqf = gleaner::extract::algorithm("lqf")?;
    /// let params = lqf.params();
    /// assert_eq!((params[0].spec.name, params[0].default.as_str()), ("threshold", "0.5"));
    /// # Ok::<(), gleaner::Error>(())
    /// ```
    pub fn params(&self) -> Vec<Param> {
        self.recipe.params()
    }

    /// The curve behind the decision on `doc` with these parameters, for
    /// the algorithms that have one ([`Capabilities::curve`]); `None` for
    /// the others.
    ///
    /// # Errors
    /// As [`Algorithm::build`].
    pub fn curve(&self, doc: &Document, params: &Params) -> Result<Option<Curve>> {
        self.recipe.curve(doc, params).map_err(|e| self.named(e))
    }

    /// A parameter error naming this algorithm rather than its
    /// configuration's family (`accb`, not `ccb`).
    fn named(&self, e: Error) -> Error {
        match e {
            Error::UnknownParam { key, valid, .. } => {
                Error::UnknownParam { algorithm: self.name, key, valid }
            }
            Error::InvalidParam { key, value, expected, .. } => {
                Error::InvalidParam { algorithm: self.name, key, value, expected }
            }
            other => other,
        }
    }
}

impl fmt::Debug for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Algorithm").field("name", &self.name).finish()
    }
}

/// How an algorithm is built from parameters, type-erased so that one
/// table holds them all.
trait Recipe: Sync {
    fn build(&self, params: &Params) -> Result<Box<dyn Extractor>>;
    fn params(&self) -> Vec<Param>;
    fn curve(&self, doc: &Document, params: &Params) -> Result<Option<Curve>>;
}

/// An extractor `E` made from a configuration `C`: the parameters are
/// applied to `base()` (the algorithm's defaults) and the result handed
/// to `make`.
struct Configured<C, E> {
    base: fn() -> C,
    make: fn(C) -> Result<E>,
    curve: Option<fn(&E, &Document) -> Curve>,
}

impl<C: Configure, E: Extractor + 'static> Recipe for Configured<C, E> {
    fn build(&self, params: &Params) -> Result<Box<dyn Extractor>> {
        Ok(Box::new((self.make)(params.apply((self.base)())?)?))
    }

    fn params(&self) -> Vec<Param> {
        Param::all_of(&(self.base)())
    }

    fn curve(&self, doc: &Document, params: &Params) -> Result<Option<Curve>> {
        let Some(curve) = self.curve else { return Ok(None) };
        let extractor = (self.make)(params.apply((self.base)())?)?;
        Ok(Some(curve(&extractor, doc)))
    }
}

const ALGORITHMS: &[Algorithm] = &[
    Algorithm {
        name: "learned",
        summary: "gleaner's learned extractor: gradient-boosted trees decide each text block from \
                  its text, markup and structure, the page's type and the rule-based article's \
                  decision; trained by `gleaner train`",
        paper: "the combination Gottron's CCB paper (2008) leaves as future work, learned from \
                labelled pages (WCEB, WCXB); features after LQF, TCCB, Readability, Crunch",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: Default::default, make: Learned::new, curve: None },
    },
    Algorithm {
        name: "article",
        summary: "gleaner's own: container search by paragraph votes weighted with link quota and \
                  content-code ratio, then boilerplate and link-list cleaning",
        paper:
            "combines Readability (Arc90 2009), LQF (HT'05), TCCB (Gottron 2008), Crunch (WWW'03)",
        capabilities: Capabilities::NONE,
        recipe: &Configured {
            base: ArticleConfig::default,
            make: |c| Ok(Article::new(c)),
            curve: None,
        },
    },
    Algorithm {
        name: "plain",
        summary: "all visible text: the papers' baseline",
        paper: "Gottron 2008, CCB evaluation baseline",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: NoParams::default, make: |_| Ok(Plain), curve: None },
    },
    Algorithm {
        name: "entropy",
        summary: "the page minus its site template's text; needs a template model \
                  (--template, --site-templates), without one it keeps all text like plain",
        paper: "Gottron 2008 (EuroIMSA'08) §6: DF filter over a cluster of same-template pages",
        capabilities: Capabilities { needs_template: true, ..Capabilities::NONE },
        // The template is set aside by `template::Templated` around it.
        recipe: &Configured { base: NoParams::default, make: |_| Ok(Plain), curve: None },
    },
    Algorithm {
        name: "bte",
        summary: "Body Text Extraction: the token window with most words inside and tags outside",
        paper: "Finn, Kushmerick, Smyth 2001, Fact or fiction",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: BteConfig::default, make: |c| Ok(Bte::new(c)), curve: None },
    },
    Algorithm {
        name: "dsc",
        summary: "Document Slope Curve: several low-slope (text-rich) regions of the tag curve",
        paper: "Pinto et al. 2002; Gottron 2007 (ITA'07) multi-region adaptation",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: DscConfig::default, make: |c| Ok(Dsc::new(c)), curve: None },
    },
    Algorithm {
        name: "lqf",
        summary: "Link Quota Filter: drops blocks whose text is mostly link text",
        paper: "Mantratzis, Orgun, Cassidy 2005 (HT'05)",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: LqfConfig::default, make: |c| Ok(Lqf::new(c)), curve: None },
    },
    Algorithm {
        name: "crunch",
        summary: "Crunch: DOM filters removing forms, link lists and text lists",
        paper: "Gupta, Kaiser, Neistadt, Grimm 2003 (WWW'03)",
        capabilities: Capabilities::NONE,
        recipe: &Configured {
            base: CrunchConfig::default,
            make: |c| Ok(Crunch::new(c)),
            curve: None,
        },
    },
    Algorithm {
        name: "ccb",
        summary: "Content Code Blurring: Gaussian-blurred character content/code vector",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::CURVE,
        recipe: &Configured {
            base: || CcbConfig::for_variant(CcbVariant::Ccb),
            make: |c| Ok(Ccb::new(c)),
            curve: Some(Ccb::curve),
        },
    },
    Algorithm {
        name: "accb",
        summary: "Content Code Blurring on characters, anchor tags ignored",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::CURVE,
        recipe: &Configured {
            base: || CcbConfig::for_variant(CcbVariant::Accb),
            make: |c| Ok(Ccb::new(c)),
            curve: Some(Ccb::curve),
        },
    },
    Algorithm {
        name: "tccb",
        summary: "Content Code Blurring on word/tag tokens, anchor tags ignored",
        paper: "Gottron 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::CURVE,
        recipe: &Configured {
            base: || CcbConfig::for_variant(CcbVariant::Tccb),
            make: |c| Ok(Ccb::new(c)),
            curve: Some(Ccb::curve),
        },
    },
    Algorithm {
        name: "ttr",
        summary: "Text-to-Tag Ratio per line, smoothed, threshold at λ·std (best recall)",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: || TtrConfig::default().method(TtrMethod::Threshold),
            make: |c| Ok(Ttr::new(c)),
            curve: Some(Ttr::curve),
        },
    },
    Algorithm {
        name: "ttr-kmeans",
        summary: "Text-to-Tag Ratio per line, k-means with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: || TtrConfig::default().method(TtrMethod::KMeans),
            make: |c| Ok(Ttr::new(c)),
            curve: Some(Ttr::curve),
        },
    },
    Algorithm {
        name: "ttr-em",
        summary: "Text-to-Tag Ratio per line, EM Gaussian mixture with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: || TtrConfig::default().method(TtrMethod::Em),
            make: |c| Ok(Ttr::new(c)),
            curve: Some(Ttr::curve),
        },
    },
    Algorithm {
        name: "ttr-farthest-first",
        summary: "Text-to-Tag Ratio per line, farthest-first clustering with K = 1..3",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: || TtrConfig::default().method(TtrMethod::FarthestFirst),
            make: |c| Ok(Ttr::new(c)),
            curve: Some(Ttr::curve),
        },
    },
    Algorithm {
        name: "ttr-prediction",
        summary: "Text-to-Tag Ratio per line, jumps of the unsmoothed ratio",
        paper: "Weninger & Hsu 2008 (DEXA'08 workshops, TIR)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: || TtrConfig::default().method(TtrMethod::Prediction),
            make: |c| Ok(Ttr::new(c)),
            curve: Some(Ttr::curve),
        },
    },
    Algorithm {
        name: "cetr",
        summary: "Content Extraction via Tag Ratios: 2-D k-means on smoothed ratio and derivative",
        paper: "Weninger, Hsu, Han 2010 (WWW'10)",
        capabilities: Capabilities::LINES,
        recipe: &Configured {
            base: CetrConfig::default,
            make: |c| Ok(Cetr::new(c)),
            curve: Some(Cetr::curve),
        },
    },
    Algorithm {
        name: "vce",
        summary: "Visual Clustering Extractor: visual block tree from the layout (boxes, fonts, \
                  backgrounds; estimated without --layout browser), the block with the largest \
                  FactorValue",
        paper:
            "Asfia, Pedram, Rahmani, Main Content Extraction from Detailed Web Pages (IJCA 2010)",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: VceConfig::default, make: |c| Ok(Vce::new(c)), curve: None },
    },
    Algorithm {
        name: "kfe",
        summary: "K-Feature Extractor: blocks' text-feature probability, k-means (k = 2), the \
                  high cluster (VCE's baseline)",
        paper: "Debnath, Mitra, Pal, Giles 2005 (IEEE TKDE 17(9))",
        capabilities: Capabilities::NONE,
        recipe: &Configured { base: KfeConfig::default, make: |c| Ok(Kfe::new(c)), curve: None },
    },
];

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
mod tests {
    use super::*;
    use crate::ParseOptions;

    /// See: issue 11, "`-p key=value` with an unknown key should list the
    /// valid keys".
    #[test]
    fn issue_11_unknown_keys_list_the_valid_ones_and_params_have_defaults() {
        let article = algorithm("article").expect("article");
        let err = article.build(&Params::new().with("nope", 1)).expect_err("unknown key");
        assert!(err.to_string().contains("link_quota"), "{err}");
        assert!(matches!(&err, Error::UnknownParam { algorithm: "article", .. }), "{err}");
        let params = article.params();
        assert!(
            params.iter().any(|p| p.spec.name == "min_article_chars" && p.default == "250"),
            "{params:?}"
        );
        assert_eq!(algorithm("plain").expect("plain").params(), []);
        let err = algorithm("accb").expect("accb").build(&Params::new().with("nope", 1));
        assert!(matches!(err, Err(Error::UnknownParam { algorithm: "accb", .. })));
    }

    /// Every default round-trips: setting each parameter to its listed
    /// default gives the algorithm's default configuration, hence the
    /// same extractor.
    #[test]
    fn every_default_round_trips_through_set() {
        for a in algorithms() {
            let mut given = Params::new();
            for p in a.params() {
                given = given.with(p.spec.name, &p.default);
            }
            let default = format!("{:?}", a.build(&Params::new()).expect(a.name));
            let round = format!("{:?}", a.build(&given).expect(a.name));
            assert_eq!(default, round, "{}", a.name);
        }
    }

    #[test]
    fn capabilities_agree_with_the_parameters_and_curves() {
        let doc = crate::Document::parse(
            b"<div>\n<a href=/>x</a>\n</div>\n<p>\nSome article text here.\n</p>",
            &ParseOptions::default(),
        )
        .expect("parse");
        for a in algorithms() {
            let takes_lines = a.params().iter().any(|p| p.spec.name == "lines");
            assert_eq!(a.capabilities.line_based, takes_lines, "{}", a.name);
            let curve = a.curve(&doc, &Params::new()).expect(a.name);
            assert_eq!(a.capabilities.curve, curve.is_some(), "{}", a.name);
        }
        let names: Vec<&str> =
            algorithms().iter().filter(|a| a.capabilities.needs_template).map(|a| a.name).collect();
        assert_eq!(names, ["entropy"]);
    }
}
