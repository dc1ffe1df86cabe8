//! What to extract and how, as one value: a [`JobSpec`].
//!
//! Every front end takes the same options under the same names (issue 33):
//! Python's keyword arguments (`extract(html, links=True, comments=True,
//! favor="precision")`), the server's JSON body, a TOML file. They all
//! fill a `JobSpec` and [`JobSpec::build`] turns it into the [`Job`] that
//! extracts each page; the command line's flags are the same options
//! spelled as flags (`--links`, `--precision`, `--page-type`).
//!
//! The spec is data (`serde`): unknown keys are refused by name, so a
//! misspelt option is an error rather than silently ignored.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use gleaner::extract::learned::{Learned, LearnedModel, MAX_MODEL_BYTES};
use gleaner::extract::preset::Preset;
use gleaner::extract::{self as extractors, Extractor, Params};
use gleaner::render::RenderOptions;
use gleaner::ParseOptions;
use serde::{Deserialize, Serialize};

use crate::job::{Job, OutputFormat};

/// Which way to lean on doubtful blocks: the `--precision` / `--recall`
/// presets ([`gleaner::extract::preset`]) or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema, schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Favor {
    /// Keep fewer doubtful blocks.
    Precision,
    /// The extractor's own balance.
    #[default]
    Balanced,
    /// Keep more doubtful blocks.
    Recall,
}

impl Favor {
    /// The preset, if any.
    pub fn preset(self) -> Option<Preset> {
        match self {
            Favor::Precision => Some(Preset::Precision),
            Favor::Balanced => None,
            Favor::Recall => Some(Preset::Recall),
        }
    }
}

impl std::str::FromStr for Favor {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Favor, SpecError> {
        match s {
            "precision" => Ok(Favor::Precision),
            "balanced" => Ok(Favor::Balanced),
            "recall" => Ok(Favor::Recall),
            other => Err(SpecError::Value {
                key: "favor",
                value: other.to_string(),
                expected: "precision, balanced or recall",
            }),
        }
    }
}

/// A parameter value as JSON or Python gives it: text, a number or a
/// boolean, passed to the algorithm as text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema, schemars::JsonSchema))]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// Text.
    Text(String),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Float(x) => write!(f, "{x}"),
            ParamValue::Text(s) => f.write_str(s),
        }
    }
}

/// Everything but the page: the algorithm and its parameters, the output
/// and what it keeps, the page limits. `JobSpec::default()` is the
/// default extractor writing plain text with the default limits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JobSpec {
    /// The extraction algorithm (`gleaner algorithms`); `None`: the
    /// default one, or `learned` when `model` or `page_type` is given.
    pub algorithm: Option<String>,
    /// The algorithm's parameters by name (`threshold`, `link_quota`, …);
    /// they override the `favor` preset's.
    pub params: BTreeMap<String, ParamValue>,
    /// A learned model file (`gleaner train -o`) for the `learned`
    /// extractor instead of the compiled-in model.
    pub model: Option<PathBuf>,
    /// Decide the page as this type instead of the classifier's guess
    /// (`learned` only).
    pub page_type: Option<String>,
    /// Lean towards precision or recall.
    pub favor: Favor,
    /// `txt`, `markdown`, `html`, `json`, `jsonl`, `csv`, `xml` or
    /// `xmltei`.
    #[serde(alias = "format")]
    pub output_format: Option<String>,
    /// Keep hyperlinks in Markdown and HTML output.
    pub links: bool,
    /// Keep images in Markdown and HTML output.
    pub images: bool,
    /// Extract the comment section apart (the record's `comments`).
    pub comments: bool,
    /// Open txt and Markdown output with a metadata header.
    pub with_metadata: bool,
    /// Decode pages given as bytes with this encoding (a WHATWG label)
    /// instead of detecting it.
    pub encoding: Option<String>,
    /// The page's URL: the base of its relative links.
    pub url: Option<String>,
    /// The largest page, in bytes (default 64 MiB, at most 1 GiB).
    pub max_bytes: Option<u64>,
    /// Milliseconds a page may take (default 60 000; 0: no limit).
    pub time_budget_ms: Option<u64>,
    /// The most memory a page's tree may take, as a multiple of its
    /// size (default 10; 0: no limit).
    pub max_memory_factor: Option<u64>,
}

/// What is wrong with a [`JobSpec`]. Messages name the spec's keys
/// (`page_type`, `favor`), as Python and JSON users write them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// An unknown algorithm or parameter, or a value the algorithm
    /// refuses (the library's message).
    #[error(transparent)]
    Library(#[from] gleaner::Error),
    /// An option's value out of its range or set.
    #[error("{key}={value}: {expected}")]
    Value {
        /// The option.
        key: &'static str,
        /// Its value as given.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
    /// `model` or `page_type` with an algorithm other than `learned`.
    #[error("model and page_type are the learned extractor's options, not {algorithm}'s")]
    LearnedOnly {
        /// The algorithm named.
        algorithm: String,
    },
    /// `favor` with an algorithm it does not tune.
    #[error("favor={favor}: it tunes learned and article, not {algorithm}")]
    Favor {
        /// `precision` or `recall`.
        favor: &'static str,
        /// The algorithm named.
        algorithm: String,
    },
    /// A model file that cannot be used.
    #[error("model {}: {reason}", path.display())]
    Model {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl JobSpec {
    /// The output format named by `output_format` (default `txt`).
    ///
    /// # Errors
    /// A name that is no format.
    pub fn format(&self) -> Result<OutputFormat, SpecError> {
        let Some(name) = &self.output_format else { return Ok(OutputFormat::Txt) };
        name.parse().map_err(|_| SpecError::Value {
            key: "output_format",
            value: name.clone(),
            expected: "txt, markdown, html, json, jsonl, csv, xml or xmltei",
        })
    }

    /// The algorithm the spec names: `algorithm`, else `learned` when a
    /// learned option is given, else the default.
    ///
    /// # Errors
    /// An unknown name, or a learned option with another algorithm.
    pub fn resolved_algorithm(&self) -> Result<&'static extractors::Algorithm, SpecError> {
        let learned_options = self.model.is_some() || self.page_type.is_some();
        let name = match (self.algorithm.as_deref(), learned_options) {
            (None | Some("default"), true) => "learned",
            (Some(a), _) => a,
            (None, false) => extractors::DEFAULT_ALGORITHM,
        };
        let algorithm = extractors::algorithm(name)?;
        if learned_options && algorithm.name != "learned" {
            return Err(SpecError::LearnedOnly { algorithm: algorithm.name.to_string() });
        }
        Ok(algorithm)
    }

    /// The algorithm's parameters: the `favor` preset's first, then
    /// `page_type`, then `params` (which override both).
    ///
    /// # Errors
    /// As [`JobSpec::resolved_algorithm`], and `favor` for an algorithm
    /// without presets.
    pub fn algorithm_params(&self) -> Result<(&'static extractors::Algorithm, Params), SpecError> {
        let algorithm = self.resolved_algorithm()?;
        let mut params = Params::new();
        if let Some(t) = &self.page_type {
            params = params.with("page_type", t);
        }
        for (key, value) in &self.params {
            params = params.with(key, value);
        }
        let params = match self.favor.preset() {
            None => params,
            Some(preset) => {
                crate::with_preset(preset, algorithm.name, &params).ok_or_else(|| {
                    SpecError::Favor { favor: preset.name(), algorithm: algorithm.name.to_string() }
                })?
            }
        };
        Ok((algorithm, params))
    }

    /// The extractor: the algorithm built with its parameters (with the
    /// spec's model file for `learned`).
    ///
    /// # Errors
    /// As [`JobSpec::algorithm_params`], parameters the algorithm
    /// refuses, and a model file that cannot be read.
    pub fn extractor(
        &self,
    ) -> Result<(&'static extractors::Algorithm, Box<dyn Extractor>), SpecError> {
        let (algorithm, params) = self.algorithm_params()?;
        let extractor = match &self.model {
            Some(path) => learned_with_model(path, &params)?,
            None => algorithm.build(&params)?,
        };
        Ok((algorithm, extractor))
    }

    /// The parse options: the limits and the forced encoding.
    ///
    /// # Errors
    /// A limit out of range, or an unknown encoding label.
    pub fn parse_options(&self) -> Result<ParseOptions, SpecError> {
        let mut parse = ParseOptions::default();
        if let Some(bytes) = self.max_bytes {
            let most = gleaner::document::MAX_SUPPORTED_BYTES;
            let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
            if bytes == 0 || bytes > most {
                return Err(SpecError::Value {
                    key: "max_bytes",
                    value: bytes.to_string(),
                    expected: "between 1 and 1073741824 (1 GiB)",
                });
            }
            parse = parse.max_bytes(bytes);
        }
        if let Some(ms) = self.time_budget_ms {
            parse = parse.time_budget((ms > 0).then(|| std::time::Duration::from_millis(ms)));
        }
        if let Some(factor) = self.max_memory_factor {
            parse = parse.max_memory_factor(usize::try_from(factor).unwrap_or(usize::MAX));
        }
        if let Some(label) = &self.encoding {
            let encoding = gleaner::document::encoding_for_label(label)
                .ok_or_else(|| gleaner::Error::UnknownEncoding { label: label.clone() })?;
            parse = parse.encoding(Some(encoding));
        }
        Ok(parse.url(self.url.clone()))
    }

    /// The render options: links and images.
    pub fn render_options(&self) -> RenderOptions {
        RenderOptions::default().links(self.links).images(self.images)
    }

    /// The job this spec describes.
    ///
    /// # Errors
    /// Any of the checks above; nothing is read but a model file.
    pub fn build(&self) -> Result<Job, SpecError> {
        let format = self.format()?;
        let parse = self.parse_options()?;
        let (algorithm, extractor) = self.extractor()?;
        Ok(Job::new(extractor, algorithm.name, format)
            .parse_options(parse)
            .render_options(self.render_options())
            .with_metadata(self.with_metadata)
            .comments(self.comments))
    }
}

/// The learned extractor with the model in the file at `path` and these
/// parameters.
///
/// # Errors
/// A file that is not a regular file, is larger than a model can be, or
/// is not a model for this gleaner; parameters `learned` refuses.
pub fn learned_with_model(
    path: &std::path::Path,
    params: &Params,
) -> Result<Box<dyn Extractor>, SpecError> {
    let model = read_learned_model(path)?;
    let config = params.build()?;
    Ok(Box::new(Learned::with_model(Arc::new(model), config)))
}

/// Reads a learned model file.
///
/// # Errors
/// As [`learned_with_model`].
pub fn read_learned_model(path: &std::path::Path) -> Result<LearnedModel, SpecError> {
    let bad = |reason: String| SpecError::Model { path: path.to_path_buf(), reason };
    let bytes =
        crate::input::read_regular_file(path, MAX_MODEL_BYTES).map_err(|e| bad(e.to_string()))?;
    LearnedModel::from_bytes(&bytes).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: &str) -> Result<JobSpec, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn the_default_spec_is_the_default_extractor_writing_text() {
        let job = JobSpec::default().build().unwrap();
        assert_eq!(job.algorithm(), extractors::DEFAULT_ALGORITHM);
        assert_eq!(job.format(), OutputFormat::Txt);
    }

    #[test]
    fn json_options_take_the_python_names() {
        let s = spec(
            r#"{"links": true, "comments": true, "favor": "precision", "output_format": "markdown",
                "params": {"threshold": 0.4}, "page_type": "forum", "max_bytes": 1000}"#,
        )
        .unwrap();
        assert!(s.links && s.comments);
        assert_eq!(s.favor, Favor::Precision);
        let (algorithm, params) = s.algorithm_params().unwrap();
        assert_eq!(algorithm.name, "learned");
        let assigned: Vec<(&str, &str)> = params.iter().collect();
        assert!(assigned.contains(&("page_type", "forum")));
        assert!(assigned.contains(&("threshold", "0.4")));
        let job = s.build().unwrap();
        assert_eq!(job.format(), OutputFormat::Markdown);
        assert_eq!(job.parse().max_bytes, 1000);
    }

    #[test]
    fn params_override_the_preset() {
        let s = JobSpec {
            algorithm: Some("article".into()),
            favor: Favor::Recall,
            params: [("link_quota".to_string(), ParamValue::Float(0.9))].into(),
            ..JobSpec::default()
        };
        let (_, params) = s.algorithm_params().unwrap();
        let quota: Vec<&str> =
            params.iter().filter(|(k, _)| *k == "link_quota").map(|(_, v)| v).collect();
        assert_eq!(quota.last(), Some(&"0.9"));
        assert!(s.build().is_ok());
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused_by_name() {
        let e = spec(r#"{"linkz": true}"#).unwrap_err().to_string();
        assert!(e.contains("linkz"), "{e}");
        let e = spec(r#"{"favor": "both"}"#).unwrap_err().to_string();
        assert!(e.contains("both"), "{e}");
        let bad_format = JobSpec { output_format: Some("pdf".into()), ..JobSpec::default() };
        assert!(bad_format.build().unwrap_err().to_string().contains("output_format=pdf"));
        let learned_only = JobSpec {
            algorithm: Some("bte".into()),
            page_type: Some("forum".into()),
            ..JobSpec::default()
        };
        assert!(matches!(learned_only.build(), Err(SpecError::LearnedOnly { .. })));
        let favor =
            JobSpec { algorithm: Some("bte".into()), favor: Favor::Recall, ..JobSpec::default() };
        assert!(favor.build().unwrap_err().to_string().contains("favor=recall"));
        let unknown_param = JobSpec {
            params: [("colour".to_string(), ParamValue::Text("red".into()))].into(),
            ..JobSpec::default()
        };
        assert!(unknown_param.build().unwrap_err().to_string().contains("colour"));
        let encoding = JobSpec { encoding: Some("klingon".into()), ..JobSpec::default() };
        assert!(encoding.build().unwrap_err().to_string().contains("klingon"));
        let size = JobSpec { max_bytes: Some(0), ..JobSpec::default() };
        assert!(size.build().unwrap_err().to_string().contains("max_bytes=0"));
    }

    #[test]
    fn a_built_job_extracts_with_its_options() {
        let html = b"<html><head><title>T</title></head><body><nav><a href='/x'>Home</a></nav>\
            <article><h1>T</h1><p>A paragraph long enough to be the main content of this page, \
            with a <a href='https://example.org/more'>link</a> in it and more words after it.</p>\
            </article></body></html>";
        let s = JobSpec {
            algorithm: Some("article".into()),
            output_format: Some("markdown".into()),
            links: true,
            ..JobSpec::default()
        };
        let job = s.build().unwrap();
        let page = crate::Page { source: "mem", bytes: html, url: None, encoding: None };
        let record = job.record_for_page(&page, None);
        assert!(record.rendered.contains("](https://example.org/more)"), "{}", record.rendered);
    }
}
