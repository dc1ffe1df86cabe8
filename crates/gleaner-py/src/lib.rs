//! The native half of the `gleaner` Python package (issue 14): extraction
//! of one page or many (the GIL released, every core used), site template
//! models, and the library's errors as Python exceptions.
//!
//! The Python half (`python/gleaner/__init__.py`) gives these functions
//! their keyword arguments and turns JSON records into dicts; `__init__.pyi`
//! types them. A page goes through [`gleaner_batch::Job`], as every page of
//! the command line does, so records carry the same keys as `gleaner
//! extract -f json`.

use std::path::PathBuf;
use std::sync::Arc;

use gleaner::extract::{self as extractors, Params};
use gleaner::template::{ModelBuilder, TemplateModel, DEFAULT_SHARE};
use gleaner::{Document, ParseOptions};
use gleaner_batch::{Failure, Job, OutputFormat, Page, Record};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

mod warc;

create_exception!(_gleaner, GleanerError, PyException, "Base class of gleaner's errors.");
create_exception!(_gleaner, InputTooLarge, GleanerError, "The page is larger than max_bytes.");
create_exception!(_gleaner, NotHtml, GleanerError, "The input is binary data, not a web page.");
create_exception!(
    _gleaner,
    TooManyElements,
    GleanerError,
    "The page would make more elements than the element limit."
);
create_exception!(
    _gleaner,
    TimeBudgetExceeded,
    GleanerError,
    "The page took longer than its time budget."
);
create_exception!(
    _gleaner,
    ExtractionError,
    GleanerError,
    "Extraction failed for another reason (the message says which)."
);
create_exception!(_gleaner, InvalidModel, GleanerError, "A template model that cannot be read.");

/// A page as Python gives it: text (taken as UTF-8) or raw bytes (the
/// encoding detected as for a file).
#[derive(FromPyObject)]
enum Html {
    Text(String),
    Bytes(Vec<u8>),
}

impl Html {
    /// The pages of a Python list, each `str` or `bytes`: a `TypeError`
    /// naming the first item that is neither (`pages[3] is NoneType`),
    /// where PyO3 would say only that the list is not one of pages.
    fn list(pages: &[Bound<'_, PyAny>]) -> PyResult<Vec<Html>> {
        pages
            .iter()
            .enumerate()
            .map(|(i, page)| {
                page.extract::<Html>().map_err(|_| {
                    let kind = page
                        .get_type()
                        .name()
                        .map_or_else(|_| "another type".to_string(), |n| n.to_string());
                    PyTypeError::new_err(format!(
                        "pages[{i}] is {kind}: each page must be str or bytes"
                    ))
                })
            })
            .collect()
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Html::Text(s) => s.as_bytes(),
            Html::Bytes(b) => b,
        }
    }

    fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        match self {
            Html::Text(_) => Some(encoding_rs::UTF_8),
            Html::Bytes(_) => None,
        }
    }
}

/// What to extract and how: everything but the page.
struct Settings {
    job: Job,
    url: Option<String>,
    format: OutputFormat,
}

/// The learned extractor's own arguments: a model file (`model=`) and a
/// forced page type (`page_type=`).
#[derive(Default)]
struct LearnedArgs {
    model: Option<std::path::PathBuf>,
    page_type: Option<String>,
}

impl LearnedArgs {
    fn given(&self) -> bool {
        self.model.is_some() || self.page_type.is_some()
    }
}

impl Settings {
    fn new(
        algorithm: Option<&str>,
        output_format: &str,
        mut params: Vec<(String, String)>,
        url: Option<String>,
        template: Option<Arc<TemplateModel>>,
        learned: LearnedArgs,
    ) -> PyResult<Settings> {
        let format = match output_format {
            "txt" | "text" => OutputFormat::Txt,
            "markdown" | "md" => OutputFormat::Markdown,
            "html" => OutputFormat::Html,
            "json" | "dict" => OutputFormat::Json,
            other => {
                return Err(PyValueError::new_err(format!(
                    "output_format {other:?}: one of txt, markdown, html, json"
                )))
            }
        };
        // `model=` and `page_type=` are the learned extractor's: they
        // select it, and no other algorithm takes them.
        let algorithm = match (algorithm, learned.given()) {
            (None, true) => "learned",
            (Some(a), true) if a != "learned" => {
                return Err(PyValueError::new_err(format!(
                    "model= and page_type= are the learned extractor's, not {a:?}'s"
                )))
            }
            (a, _) => a.unwrap_or(extractors::DEFAULT_ALGORITHM),
        };
        let algorithm =
            extractors::algorithm(algorithm).map_err(|e| PyValueError::new_err(e.to_string()))?;
        if let Some(t) = learned.page_type {
            params.push(("page_type".to_string(), t));
        }
        let (parse, params) = limits(params)?;
        let mut p = Params::new();
        for (key, value) in params {
            p.push_assignment(&format!("{key}={value}"))
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        let extractor = match learned.model {
            Some(path) => learned_with_model(&path, &p)?,
            None => algorithm.build(&p).map_err(|e| PyValueError::new_err(e.to_string()))?,
        };
        let mut job = Job::new(extractor, algorithm.name, format).parse_options(parse);
        if let Some(model) = template {
            job = job.template(model);
        }
        Ok(Settings { job, url, format })
    }

    /// The record of one page.
    fn record(&self, html: &Html, source: &str) -> Record {
        self.record_at(html, source, self.url.clone())
    }

    /// The record of one page at `url` (the base of its links).
    fn record_at(&self, html: &Html, source: &str, url: Option<String>) -> Record {
        let page =
            Page { source, bytes: html.bytes(), url: url.as_deref(), encoding: html.encoding() };
        python_words(self.job.record_for_page(&page, None))
    }

    /// A record as JSON text (the Python side makes it a dict).
    fn json(&self, record: &Record) -> String {
        serde_json::to_string(record)
            .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the record: {e}\"}}"))
    }

    /// What Python gets for a record: the text, the rendered body, or the
    /// JSON record; `Err` for a failed page.
    fn output(&self, record: Record) -> Result<String, (Failure, String)> {
        if let (Some(error), OutputFormat::Txt | OutputFormat::Markdown | OutputFormat::Html) =
            (&record.error, self.format)
        {
            return Err((record.failure.unwrap_or(Failure::Other), error.clone()));
        }
        Ok(match self.format {
            OutputFormat::Txt => record.text,
            OutputFormat::Markdown | OutputFormat::Html => record.rendered,
            _ => self.json(&record),
        })
    }
}

/// The page limits a Python call may set among its keyword parameters,
/// with the command line's flag for each: the library's messages name the
/// flag, and [`python_words`] names the parameter instead.
const LIMITS: [(&str, &str); 3] = [
    ("max_bytes", "--max-bytes"),
    ("time_budget_ms", "--time-budget-ms"),
    ("max_memory_factor", "--max-memory-factor"),
];

/// Takes the page limits ([`LIMITS`]) out of the keyword parameters: the
/// parse options they set, and the algorithm's own parameters.
fn limits(params: Vec<(String, String)>) -> PyResult<(ParseOptions, Vec<(String, String)>)> {
    let mut parse = ParseOptions::default();
    let mut rest = Vec::with_capacity(params.len());
    for (key, value) in params {
        let number = || {
            value.trim().parse::<u64>().map_err(|_| {
                PyValueError::new_err(format!("{key}={value}: a whole number of 0 or more"))
            })
        };
        match key.as_str() {
            "max_bytes" => {
                let most = gleaner::document::MAX_SUPPORTED_BYTES;
                let bytes = usize::try_from(number()?).unwrap_or(usize::MAX);
                if bytes == 0 || bytes > most {
                    return Err(PyValueError::new_err(format!(
                        "max_bytes={value}: between 1 and {most} (1 GiB)"
                    )));
                }
                parse = parse.max_bytes(bytes);
            }
            "time_budget_ms" => {
                let ms = number()?;
                parse = parse.time_budget((ms > 0).then(|| std::time::Duration::from_millis(ms)));
            }
            "max_memory_factor" => {
                parse = parse.max_memory_factor(usize::try_from(number()?).unwrap_or(usize::MAX));
            }
            _ => rest.push((key, value)),
        }
    }
    Ok((parse, rest))
}

/// A record whose error names the Python parameter of a limit
/// (`max_bytes`) where the library names the command line's flag
/// (`--max-bytes`): a Python user has no flags.
fn python_words(mut record: Record) -> Record {
    if let Some(error) = record.error.as_mut() {
        for (parameter, flag) in LIMITS {
            if error.contains(flag) {
                *error = error.replace(flag, &format!("the {parameter} parameter"));
            }
        }
    }
    record
}

/// The Python exception for a failed page.
fn exception((failure, message): (Failure, String)) -> PyErr {
    match failure {
        Failure::TooLarge => InputTooLarge::new_err(message),
        Failure::NotHtml => NotHtml::new_err(message),
        Failure::TooManyElements => TooManyElements::new_err(message),
        Failure::TimeBudget => TimeBudgetExceeded::new_err(message),
        _ => ExtractionError::new_err(message),
    }
}

/// The learned extractor with the model in the file at `path`.
fn learned_with_model(
    path: &std::path::Path,
    params: &Params,
) -> PyResult<Box<dyn gleaner::extract::Extractor>> {
    use gleaner::extract::learned::{Learned, LearnedModel, MAX_MODEL_BYTES};
    let bad = |e: String| PyValueError::new_err(format!("model {}: {e}", path.display()));
    let bytes = gleaner_batch::input::read_regular_file(path, MAX_MODEL_BYTES)
        .map_err(|e| bad(e.to_string()))?;
    let model = LearnedModel::from_bytes(&bytes).map_err(|e| bad(e.to_string()))?;
    let config = params.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Box::new(Learned::with_model(Arc::new(model), config)))
}

/// Extracts one page. See `gleaner.extract` for the arguments. Returns the
/// text, the Markdown/HTML body, or (`json`) the record as JSON text.
#[pyfunction]
#[pyo3(signature = (html, url=None, algorithm=None, output_format="txt", params=Vec::new(), template=None, model=None, page_type=None))]
#[allow(clippy::too_many_arguments)]
fn extract(
    py: Python<'_>,
    html: Html,
    url: Option<String>,
    algorithm: Option<&str>,
    output_format: &str,
    params: Vec<(String, String)>,
    template: Option<&Template>,
    model: Option<std::path::PathBuf>,
    page_type: Option<String>,
) -> PyResult<String> {
    let settings = Settings::new(
        algorithm,
        output_format,
        params,
        url,
        template.map(|t| t.model.clone()),
        LearnedArgs { model, page_type },
    )?;
    py.detach(|| settings.output(settings.record(&html, "<page>"))).map_err(exception)
}

/// Extracts many pages in parallel, the GIL released. Returns one entry
/// per page, in order: like [`extract`], with `None` for a page that
/// failed (in `json` the record says why instead).
#[pyfunction]
#[pyo3(signature = (pages, parallel=None, urls=None, algorithm=None, output_format="txt", params=Vec::new(), template=None, model=None, page_type=None))]
#[allow(clippy::too_many_arguments)]
fn extract_batch(
    py: Python<'_>,
    pages: Vec<Bound<'_, PyAny>>,
    parallel: Option<usize>,
    urls: Option<Vec<Option<String>>>,
    algorithm: Option<&str>,
    output_format: &str,
    params: Vec<(String, String)>,
    template: Option<&Template>,
    model: Option<std::path::PathBuf>,
    page_type: Option<String>,
) -> PyResult<Vec<Option<String>>> {
    let pages = Html::list(&pages)?;
    if let Some(urls) = &urls {
        if urls.len() != pages.len() {
            return Err(PyValueError::new_err(format!(
                "{} urls for {} pages: give one per page (or None)",
                urls.len(),
                pages.len()
            )));
        }
    }
    let settings = Settings::new(
        algorithm,
        output_format,
        params,
        None,
        template.map(|t| t.model.clone()),
        LearnedArgs { model, page_type },
    )?;
    let extract_all = || -> Vec<Option<String>> {
        pages
            .par_iter()
            .enumerate()
            .map(|(i, html)| {
                let url = urls.as_ref().and_then(|u| u.get(i).cloned().flatten());
                let source = format!("<page {i}>");
                settings.output(settings.record_at(html, &source, url)).ok()
            })
            .collect()
    };
    // All cores: rayon's global pool, started once per process rather
    // than a pool per call (datatrove calls once per small batch).
    let out = match parallel {
        None => py.detach(extract_all),
        Some(requested) => {
            // The CLI's cap (issue 31: 10**6 threads were still starting
            // after 9 minutes): refused rather than silently lowered, so the
            // caller learns the number it gets.
            let (threads, capped) = gleaner_batch::worker_threads(requested);
            if capped {
                return Err(PyValueError::new_err(format!(
                    "parallel={requested}: give 1 to {threads} worker threads ({} per core, \
                     {} in all), or None for one per core",
                    gleaner_batch::MAX_THREADS_PER_CORE,
                    gleaner_batch::MAX_THREADS
                )));
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| PyOSError::new_err(format!("cannot start worker threads: {e}")))?;
            py.detach(|| pool.install(extract_all))
        }
    };
    Ok(out)
}

/// A site's template model (Gottron's template text, learned from pages of
/// one template): learn it from pages, save and load it, and extract pages
/// with their template text set aside.
#[pyclass(frozen, module = "gleaner._gleaner")]
struct Template {
    model: Arc<TemplateModel>,
}

#[pymethods]
impl Template {
    /// Learns a model from pages of one site: a text is template text when
    /// it occurs on more than `share` of them (default a third).
    #[staticmethod]
    #[pyo3(signature = (pages, share=None))]
    fn learn(
        py: Python<'_>,
        pages: Vec<Bound<'_, PyAny>>,
        share: Option<f64>,
    ) -> PyResult<Template> {
        let pages = Html::list(&pages)?;
        let share = share.unwrap_or(DEFAULT_SHARE);
        if !(0.0..=1.0).contains(&share) {
            return Err(PyValueError::new_err(format!("share {share}: between 0 and 1")));
        }
        let model = py.detach(|| {
            let docs: Vec<Document> = pages
                .par_iter()
                .filter_map(|html| {
                    let parse = ParseOptions::default().encoding(html.encoding());
                    Document::parse(html.bytes(), &parse).ok()
                })
                .collect();
            let mut builder = ModelBuilder::new();
            for doc in &docs {
                builder.add(doc, None);
            }
            builder.finish(share)
        });
        Ok(Template { model: Arc::new(model) })
    }

    /// Reads a model written by `save` or `gleaner template learn`: a
    /// regular file of at most 256 MiB, checked before it is read (so
    /// `/dev/zero` is an `InvalidModel` at once, not a growing buffer).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Template> {
        let model = py.detach(|| gleaner_batch::input::read_model(&path)).map_err(|e| match e {
            gleaner_batch::Error::Io(e) => PyOSError::new_err(format!("{}: {e}", path.display())),
            other => InvalidModel::new_err(other.to_string()),
        })?;
        Ok(Template { model: Arc::new(model) })
    }

    /// A model from its JSON form.
    #[staticmethod]
    fn from_json(json: &[u8]) -> PyResult<Template> {
        let model =
            TemplateModel::from_json(json).map_err(|e| InvalidModel::new_err(e.to_string()))?;
        Ok(Template { model: Arc::new(model) })
    }

    /// The model's JSON form (what `save` writes).
    fn to_json(&self) -> PyResult<String> {
        self.model.to_json().map_err(|e| GleanerError::new_err(e.to_string()))
    }

    /// Writes the model to `path` (readable by `load` and by `gleaner
    /// extract --template`).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.to_json()?)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// How many pages the model was learned from.
    #[getter]
    fn pages(&self) -> u32 {
        self.model.pages
    }

    /// The template texts (segments on more than `share` of the pages).
    #[getter]
    fn segments(&self) -> Vec<String> {
        self.model.template_segments().map(|s| s.text.clone()).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Template(pages={}, segments={})",
            self.model.pages,
            self.model.template_segments().count()
        )
    }
}

/// The names of the extractors (`gleaner algorithms`).
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    extractors::algorithms().iter().map(|a| a.name).collect()
}

#[pymodule]
fn _gleaner(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_batch, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_class::<Template>()?;
    m.add_class::<warc::WarcRecords>()?;
    m.add("GleanerError", py.get_type::<GleanerError>())?;
    m.add("InputTooLarge", py.get_type::<InputTooLarge>())?;
    m.add("NotHtml", py.get_type::<NotHtml>())?;
    m.add("TooManyElements", py.get_type::<TooManyElements>())?;
    m.add("TimeBudgetExceeded", py.get_type::<TimeBudgetExceeded>())?;
    m.add("ExtractionError", py.get_type::<ExtractionError>())?;
    m.add("InvalidModel", py.get_type::<InvalidModel>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
