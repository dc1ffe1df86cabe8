/*!
gleaner finds the main content of web pages.

A page is parsed once into a [`Document`]: an arena DOM in document order,
per-node statistics, and the source token stream mapped to the DOM's
text nodes. An [`Extractor`](extract::Extractor) (one per algorithm of the
papers, see [`extract::algorithms`]) decides which text nodes are main
content and returns a [`Selection`]. A renderer in [`render`] turns the
selection into text, Markdown or clean HTML; [`metadata`] reads what the
page says about itself (title, author, date, site, language, canonical
URL, …, from JSON-LD, `<meta>` and the markup) and page-level facts such
as a frameset's frames; [`extract::comments`] finds the comment section
and [`extract::page_kind`] tells articles from list pages. The curve algorithms
(CCB, TTR, CETR) also expose their per-position data
([`extract::Curve`]).

This crate is the core: bytes in, `Document`, `Selection` and text out.
It reads no files, opens no connections and starts no threads, so every
front end (the `gleaner` command line through `gleaner-batch`, later the
crawler, WARC, Python and server) shares it as it is. The papers'
evaluation (metrics, dataset readers, plots, reports) is the
`gleaner-eval` crate.

# Example

```
use gleaner::{extract, render, Document, ParseOptions};

let html = b"<html><head><title>Hello world | Site</title></head><body>
  <ul><li><a href=/>Home</a></li><li><a href=/about>About</a></li></ul>
  <p>The quick brown fox jumps over the lazy dog, again and again.</p>
</body></html>";
let doc = Document::parse(html, &ParseOptions::default())?;
let selection = extract::by_name("lqf")?.extract(&doc);
assert_eq!(render::text(&doc, &selection), "The quick brown fox jumps over the lazy dog, again and again.");
assert_eq!(gleaner::metadata::title(&doc).as_deref(), Some("Hello world"));
# Ok::<(), gleaner::Error>(())
```
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod boost;
mod controls;
pub mod document;
mod error;
pub mod extract;
pub mod hash;
pub mod layout;
pub mod metadata;
mod rank_bits;
pub mod render;
mod selection;
pub mod template;

pub use crate::document::{Document, NodeId, ParseOptions, TreeBuilderKind};
pub use crate::error::{BinaryKind, Error, Result};
pub use crate::selection::Selection;
