//! Concurrency stress: every registered extractor (`entropy` inside
//! `Templated` with a shared model) runs from many threads at once on
//! shared `Document`s, and every result equals the single-threaded one:
//! the same `Selection` (nodes and scores) and the same rendered text.
//! Extractors, documents and the model hold no interior mutability that
//! a race could corrupt; this test keeps it so.
//! See: issue 13 ("Concurrency").

use std::sync::{Arc, Barrier};

use gleaner::extract::{self, Extractor, Params};
use gleaner::render::{self, Format, RenderOptions};
use gleaner::template::{TemplateModel, Templated};
use gleaner::{Document, ParseOptions, Selection};

/// Threads extracting at once.
const THREADS: usize = 8;

/// The fixture pages cut to this many bytes, so that the debug build
/// runs every extractor on every page eight times in seconds.
const PAGE_BYTES: usize = 24 * 1024;

/// The fixture pages (cut) and four pages of one synthetic site, whose
/// navigation and footer the template model learns (a segment on more
/// than a third of the pages).
fn documents() -> Vec<Document> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    paths.sort();
    let mut docs: Vec<Document> = paths
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).expect("read fixture");
            let cut = &bytes[..bytes.len().min(PAGE_BYTES)];
            Document::parse(cut, &ParseOptions::default()).expect("parse fixture")
        })
        .collect();
    let stories =
        ["The first story of the site.", "A second story.", "And a third one.", "The last."];
    for story in stories {
        let html = format!(
            "<nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav>\
             <h1>{story}</h1><p>{story} It goes on for a while, with several sentences of \
             text, as a story does.</p><footer>© Example site</footer>"
        );
        docs.push(Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse"));
    }
    docs
}

/// Every registered algorithm by name, built with its defaults; the ones
/// that need a template model wrapped in `Templated` with `model`.
fn extractors(model: &Arc<TemplateModel>) -> Vec<(&'static str, Box<dyn Extractor>)> {
    extract::algorithms()
        .iter()
        .map(|a| {
            let inner = a.build(&Params::new()).expect("defaults are valid");
            let e: Box<dyn Extractor> = if a.capabilities.needs_template {
                Box::new(Templated::new(inner, Arc::clone(model)))
            } else {
                inner
            };
            (a.name, e)
        })
        .collect()
}

/// What one extraction gives: the selection and its rendered text and
/// Markdown.
#[derive(Debug, PartialEq)]
struct Outcome {
    selection: Selection,
    text: String,
    markdown: String,
}

fn run(extractor: &dyn Extractor, doc: &Document) -> Outcome {
    let selection = extractor.extract(doc);
    let text = render::text(doc, &selection);
    let options = RenderOptions::default().links(true).images(true);
    let markdown = render::render(doc, &selection, Format::Markdown, options);
    Outcome { selection, text, markdown }
}

#[test]
fn every_extractor_gives_the_same_result_from_many_threads() {
    let docs = Arc::new(documents());
    let model = Arc::new(TemplateModel::learn(docs.iter()));
    assert!(model.template_segments().count() > 0, "the model learned no template");
    let extractors = Arc::new(extractors(&model));
    let pairs: Vec<(usize, usize)> =
        (0..extractors.len()).flat_map(|e| (0..docs.len()).map(move |d| (e, d))).collect();
    let expected: Vec<Outcome> =
        pairs.iter().map(|&(e, d)| run(&*extractors[e].1, &docs[d])).collect();
    assert!(
        expected.iter().any(|o| !o.text.is_empty()),
        "the extractors select nothing: the comparison would be vacuous"
    );

    // All threads start together and walk the pairs from different
    // offsets, so that different extractors and the same document are in
    // flight at once.
    let barrier = Barrier::new(THREADS);
    let mismatches: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (docs, extractors, pairs, expected, barrier) =
                    (&docs, &extractors, &pairs, &expected, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    let offset = t * pairs.len() / THREADS;
                    let mut bad = Vec::new();
                    for k in 0..pairs.len() {
                        let i = (k + offset) % pairs.len();
                        let (e, d) = pairs[i];
                        let got = run(&*extractors[e].1, &docs[d]);
                        if got != expected[i] {
                            bad.push(format!("thread {t}: {} on page {d}", extractors[e].0));
                        }
                    }
                    bad
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no thread panics")).collect()
    });
    assert!(
        mismatches.is_empty(),
        "results differ from the single-threaded ones:\n{mismatches:#?}"
    );
}
