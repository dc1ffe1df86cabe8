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

use gleaner::extract as extractors;
use gleaner::template::{ModelBuilder, TemplateModel, DEFAULT_SHARE};
use gleaner::{Document, ParseOptions};
use gleaner_batch::{
    Engine, Failure, Flow, Job, JobSpec, OutputFormat, Page, Record, Sink, SpecError, Unit, Work,
};
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

impl Settings {
    /// The settings a [`JobSpec`] in JSON describes (the Python half
    /// writes it from the keyword arguments, under the same names), with
    /// a site's template model.
    fn new(spec: &str, template: Option<Arc<TemplateModel>>) -> PyResult<Settings> {
        let spec: JobSpec =
            serde_json::from_str(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let format = spec.format().map_err(spec_error)?;
        if matches!(format, OutputFormat::Jsonl | OutputFormat::Csv) {
            return Err(PyValueError::new_err(format!(
                "output_format={:?}: one of txt, markdown, html, json, xml, xmltei (a list of \
                 records is extract_batch's, as dicts)",
                spec.output_format.as_deref().unwrap_or_default()
            )));
        }
        let mut job = spec.build().map_err(spec_error)?;
        if let Some(model) = template {
            job = job.template(model);
        }
        Ok(Settings { job, url: spec.url, format })
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
        if let (Some(error), Some(_)) = (&record.error, record.printed(self.format)) {
            return Err((record.failure.unwrap_or(Failure::Other), error.clone()));
        }
        Ok(match record.printed(self.format) {
            Some(text) => text.to_string(),
            None => self.json(&record),
        })
    }
}

/// The page limits a Python call may set, with the command line's flag
/// for each: the library's messages name the flag, and [`python_words`]
/// names the parameter instead.
const LIMITS: [(&str, &str); 3] = [
    ("max_bytes", "--max-bytes"),
    ("time_budget_ms", "--time-budget-ms"),
    ("max_memory_factor", "--max-memory-factor"),
];

/// A spec Python cannot use: a `ValueError` with the spec's message.
fn spec_error(e: SpecError) -> PyErr {
    PyValueError::new_err(e.to_string())
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

/// Extracts one page. See `gleaner.extract` for the arguments (`spec`:
/// a [`JobSpec`] as JSON). Returns the text, the Markdown/HTML body, or
/// (`json`) the record as JSON text.
#[pyfunction]
#[pyo3(signature = (html, spec="{}", template=None))]
fn extract(
    py: Python<'_>,
    html: Html,
    spec: &str,
    template: Option<&Template>,
) -> PyResult<String> {
    let settings = Settings::new(spec, template.map(|t| t.model.clone()))?;
    py.detach(|| settings.output(settings.record(&html, "<page>"))).map_err(exception)
}

/// Extracts many pages in parallel, the GIL released. Returns one entry
/// per page, in order: like [`extract`], with `None` for a page that
/// failed (in `json` the record says why instead).
#[pyfunction]
#[pyo3(signature = (pages, parallel=None, urls=None, spec="{}", template=None))]
fn extract_batch(
    py: Python<'_>,
    pages: Vec<Bound<'_, PyAny>>,
    parallel: Option<usize>,
    urls: Option<Vec<Option<String>>>,
    spec: &str,
    template: Option<&Template>,
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
    let settings = Settings::new(spec, template.map(|t| t.model.clone()))?;
    // All cores: rayon's global pool, started once per process rather
    // than a pool per call (datatrove calls once per small batch); or a
    // pool of `parallel` threads.
    let engine = match parallel {
        None => Engine::on_global_pool(&settings.job),
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
            Engine::new(&settings.job, threads).map_err(|e| PyOSError::new_err(e.to_string()))?
        }
    };
    let urls = urls.unwrap_or_default().into_iter().chain(std::iter::repeat(None));
    let items = pages.into_iter().zip(urls).map(|(html, url)| Item { html, url });
    let mut sink = Outputs { settings: &settings, out: Vec::new() };
    py.detach(|| engine.run(items, &mut sink)).map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok(sink.out)
}

/// A page of `extract_batch` with its URL: a [`Unit::Page`] named
/// `<page N>`.
struct Item {
    html: Html,
    url: Option<String>,
}

impl Work for Item {
    type Tag = ();

    fn unit(self, position: usize, _job: &Job) -> Unit<()> {
        let encoding = self.html.encoding();
        let bytes = match self.html {
            Html::Text(s) => s.into_bytes(),
            Html::Bytes(b) => b,
        };
        let source = format!("<page {position}>");
        Unit::Page { source, bytes, url: self.url, encoding, site: None, tag: () }
    }
}

/// What `extract_batch` hands back, in order: each page's output, `None`
/// for one that failed.
struct Outputs<'a> {
    settings: &'a Settings,
    out: Vec<Option<String>>,
}

impl Sink<()> for Outputs<'_> {
    fn write(&mut self, _: Option<()>, record: Option<Record>) -> gleaner_batch::Result<Flow> {
        if let Some(record) = record {
            self.out.push(self.settings.output(python_words(record)).ok());
        }
        Ok(Flow::Continue)
    }
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

/// The parameters of the algorithm named `algorithm`, as JSON: what
/// `gleaner algorithms --json` lists for it
/// ([`gleaner_batch::parameter_specs`]), for `gleaner.parameters`. An
/// unknown name is a `ValueError`.
#[pyfunction]
fn parameter_specs_json(algorithm: &str) -> PyResult<String> {
    gleaner_batch::parameter_specs(algorithm)
        .map(|specs| specs.to_string())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymodule]
fn _gleaner(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_batch, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(parameter_specs_json, m)?)?;
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
