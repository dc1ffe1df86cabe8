//! The parse's stages one at a time, for the per-stage benchmarks
//! (`cargo bench -p gleaner --bench parse`, issue 12). Not part of the
//! API: built with the `internals` feature.

use html5ever::tendril::TendrilSink;

use super::sink::ArenaSink;
use super::{encoding, scan, stats, tree_feed, Deadline, Document, ParseOptions, Source};

/// Tree building alone, for the parse benchmark's reference figure: runs
/// html5ever (its tokenizer and tree builder) with gleaner's arena sink
/// over `html` as given (no encoding detection, statistics or source
/// mapping) and returns the node count.
pub fn html5ever_tree(html: &str) -> usize {
    html5ever::parse_document(ArenaSink::new(), Default::default()).one(html).len()
}

/// Encoding detection and decoding.
pub fn decode(bytes: &[u8]) -> String {
    encoding::decode(bytes, None, None).0
}

/// The source tokenizer on its own (content models guessed from tag
/// names; the parse lets the tree builder decide).
pub fn tokenize(text: String) -> Source {
    scan::tokenize(text)
}

/// Tree construction: the source tokenizer feeding html5ever's tree
/// builder, with the token↔node records. The number of nodes built.
pub fn tree(text: &str) -> usize {
    let options = tree_feed::FeedOptions::of(&ParseOptions::default());
    tree_feed::build_tree(text, &options, &Deadline::never()).map_or(0, |b| b.tree.len())
}

/// Node statistics over a parsed document, computed again in place
/// (its text nodes and derived nodes keep theirs): the number of nodes.
pub fn stats(doc: &mut Document) -> usize {
    let (stats, long_texts) =
        stats::compute(&mut doc.nodes, &doc.names, &doc.text, &doc.attrs, None, doc.visibility);
    (doc.stats, doc.long_texts) = (stats, long_texts);
    doc.nodes.len()
}
