/*!
The one batch path of gleaner: **inputs → records → sinks**.

Every front end — the `gleaner` command line today; the crawler, WARC
reader, Python package and server to come — hands pages to the same
code, so that limits, error reporting and the record format are the same
everywhere:

- [`input`]: where pages come from (files, folders walked recursively,
  standard input, bytes already in memory) and reading them with a size
  limit and transparent gzip;
- [`job`]: one page through the core library — parse, page-level checks
  (a frameset page is reported, not silently empty), extract, render —
  into a [`Record`], with a panic turned into that record's error so one
  page never takes a batch down;
- [`sink`]: where records go (standard output in txt, Markdown, HTML,
  JSON or JSON Lines, or one file per input);
- [`run()`]: a batch of inputs through a [`Job`] on a thread pool, with
  results handed back in input order; [`learn_site_templates`] first
  clusters a collection by template and learns a model per cluster, so
  that each page is extracted with its site's template set aside;
  [`ordered`] is the same pool and reorder window over any stream of
  items (the records of a WARC archive read as they come).

```
use gleaner_batch::{Input, Job, OutputFormat};

let job = Job::new(gleaner::extract::by_name("article")?, "article", OutputFormat::Jsonl);
let input = Input::from_bytes("mem:1", b"<p>A short page, with one sentence of text in it.</p>".to_vec());
let record = job.record(&input);
assert_eq!(record.error, None);
assert_eq!(record.text, "A short page, with one sentence of text in it.");
# Ok::<(), gleaner::Error>(())
```
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod algorithms;
pub mod corpus;
mod error;
pub mod input;
pub mod job;
mod run;
pub mod sink;
pub mod spec;
pub mod xml;

pub use crate::algorithms::{algorithm_specs, with_preset};
pub use crate::error::{Error, Result};
pub use crate::input::Input;
pub use crate::job::{
    isolate, Failure, Job, OutputFormat, Page, Record, SiteTraining, CSV_COLUMNS,
};
pub use crate::run::{
    learn_site_templates, ordered, run, summarize, summarize_all, worker_threads, Flow, Totals,
    MAX_THREADS, MAX_THREADS_PER_CORE,
};
pub use crate::sink::Sink;
pub use crate::spec::{Favor, JobSpec, ParamValue, SpecError};
