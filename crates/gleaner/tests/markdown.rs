//! Markdown that LLM pipelines can trust (issue 35): a handmade page per
//! feature in `tests/markdown/NAME.html`, written for these tests, and the
//! exact Markdown the renderer must write for the whole page in
//! `tests/markdown/NAME.md`: a highlighted code block with a line-number
//! gutter and a copy button, a table with spans and pipes, KaTeX and
//! MathML formulas, nested ordered lists with starts, layout tables, text
//! full of Markdown syntax characters, lazily loaded images, and the
//! structures the round trip over the development sets found cut
//! differently (a table row with a cell left out, a table of tables, a
//! heading holding rules or a list, a link around a heading).
//!
//! Elements of class `unselected` are left out of the selection, as an
//! extractor leaves out a link-only cell.

use gleaner::render::{self, RenderOptions};
use gleaner::{Document, ParseOptions, Selection};

/// The page's Markdown (every node selected but the subtrees of class
/// `unselected`, links and images kept) and the expected Markdown.
fn rendered_and_expected(name: &str) -> (String, String) {
    let dir = format!("{}/tests/markdown", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read(format!("{dir}/{name}.html")).expect("the page");
    let expected = std::fs::read_to_string(format!("{dir}/{name}.md")).expect("its Markdown");
    let doc = Document::parse(&html, &ParseOptions::default()).expect("parses");
    let options = RenderOptions::default().links(true).images(true);
    let mut selection = Selection::all(&doc);
    for id in doc.ids() {
        if doc.attr(id, "class") == Some("unselected") {
            selection.deselect_subtree(&doc, id);
        }
    }
    let md = render::markdown(&doc, &selection, options);
    (md, expected.trim_end_matches('\n').to_string())
}

fn check(name: &str) {
    let (md, expected) = rendered_and_expected(name);
    assert!(md == expected, "{name}: the Markdown written:\n{md}\n---- expected:\n{expected}");
}

#[test]
fn code_blocks_keep_language_and_whitespace_without_gutters_or_buttons() {
    check("code");
}

#[test]
fn tables_have_a_header_row_and_expanded_spans() {
    check("table");
}

#[test]
fn formulas_are_written_as_tex() {
    check("math");
}

#[test]
fn lists_keep_nesting_starts_and_paragraphs() {
    check("lists");
}

#[test]
fn layout_tables_are_not_written_as_tables() {
    check("layout");
}

#[test]
fn syntax_characters_in_text_are_escaped() {
    check("escaping");
}

#[test]
fn lazy_images_take_their_real_source() {
    check("images");
}

#[test]
fn rows_headings_and_links_keep_their_structure() {
    check("structure");
}
