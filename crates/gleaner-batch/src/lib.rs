/*!
The one batch engine of gleaner: **source → job → records → sink**.

Every batch front end — `gleaner extract` (files, folders, standard
input, URLs), `gleaner warc`, Python's `extract_batch` and `iter_warc` —
runs through [`Engine::run`], so that limits, the time budget, error
reporting, ordering and the record format are the same everywhere:

- [`engine`]: the [`Engine`] — one worker pool, a source of [`Work`]
  items pulled lazily (an archive of millions of records is never held
  whole), each made a [`Unit`] and a [`Record`] on the pool and handed
  to a [`Sink`] in source order through a bounded reorder window; a
  [`Fetch`] supplied by the front end for URLs (this crate has no
  network); [`Engine::learn_sites`], the one pre-pass that clusters a
  batch's pages by template and learns a model per cluster;
- [`input`]: where pages come from (files, folders walked recursively,
  standard input, bytes already in memory) and reading them with a size
  limit and transparent gzip;
- [`job`]: one page through the core library — parse, page-level checks
  (a frameset page is reported, not silently empty), extract, render —
  into a [`Record`], with a panic turned into that record's error so one
  page never takes a batch down; [`OutputFormat`] and its one `FromStr`;
- [`sink`]: [`OutputSink`], records to standard output (txt, Markdown,
  HTML, JSON, JSON Lines, CSV, XML) or one file per input;
- [`spec`]: [`JobSpec`], the options every front end shares by name.

```
use gleaner_batch::{Engine, Input, Job, OutputFormat, OutputSink};

let job = Job::new(gleaner::extract::by_name("article")?, "article", OutputFormat::Txt);
let pages = vec![
    Input::from_bytes("mem:1", b"<p>A short page, with one sentence of text in it.</p>".to_vec()),
    Input::from_bytes("mem:2", b"<p>Another page, which says something else again.</p>".to_vec()),
];
let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Txt, true);
let totals = Engine::new(&job, 2)?.run(pages, &mut sink)?;
assert_eq!((totals.pages, totals.failed), (2, 0));
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod algorithms;
pub mod corpus;
pub mod engine;
mod error;
pub mod input;
pub mod job;
mod run;
pub mod sink;
pub mod spec;
pub mod xml;

pub use crate::algorithms::{algorithm_specs, parameter_specs, with_preset};
pub use crate::engine::{Engine, Fetch, Sink, SiteKey, Sites, Unit, Work};
pub use crate::error::{Error, Result};
pub use crate::input::Input;
pub use crate::job::{
    isolate, Failure, Job, OutputFormat, Page, Record, SiteTraining, UnknownFormat, CSV_COLUMNS,
};
pub use crate::run::{
    summarize, summarize_all, worker_threads, Flow, Totals, WorkerPool, MAX_THREADS,
    MAX_THREADS_PER_CORE,
};
pub use crate::sink::OutputSink;
pub use crate::spec::{Favor, JobSpec, ParamValue, SpecError};
