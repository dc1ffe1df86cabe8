//! Differential tests of gleaner's own tree builder (issue 12) against
//! html5ever's, over every page of the dev datasets
//! (`../shared/data/wceb/*/input/`) and every prefix of every html5lib
//! tree-construction input (the end of input in every state): both fed by
//! gleaner's tokenizer, every attribute and comment kept, the trees
//! compared in the html5lib dump format. Slow in a debug build, so
//! ignored by default:
//!
//! ```text
//! cargo test --release -p gleaner --test own_tree_builder -- --ignored --nocapture
//! ```
//!
//! The data is outside the repository (`../shared/data` beside the
//! clone): without it the tests are skipped by name, and under
//! `GLEANER_REQUIRE_DATA=1` they fail (`tests/support/shared_data.rs`).

#[path = "../../../tests/support/shared_data.rs"]
mod shared_data;

use std::path::PathBuf;

use gleaner::document::conformance::{gleaner_tree, own_tree};
use gleaner::document::stages::decode;

fn datasets() -> PathBuf {
    shared_data::path("GLEANER_WCEB_DIR", "wceb")
}

#[test]
#[ignore = "3 000 pages: run with --release -- --ignored"]
fn own_tree_builder_builds_html5evers_trees_on_the_dev_pages() {
    let Some(root) = shared_data::require(datasets()) else { return };
    let sets = std::fs::read_dir(root).expect("the datasets' folder reads");
    let mut pages: Vec<PathBuf> = sets
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_dir(e.path().join("input")).ok())
        .flat_map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())))
        .collect();
    pages.sort();
    let mut different = Vec::new();
    for page in &pages {
        let Ok(bytes) = std::fs::read(page) else { continue };
        let text = decode(&bytes);
        if own_tree(&text, true) != gleaner_tree(&text, true) {
            different.push(page.display().to_string());
        }
    }
    println!(
        "own tree builder: {} of {} dev pages build html5ever's tree",
        pages.len() - different.len(),
        pages.len()
    );
    assert!(different.is_empty(), "trees differ on {} pages: {different:?}", different.len());
}

#[test]
#[ignore = "150 000 parses: run with --release -- --ignored"]
fn own_tree_builder_builds_html5evers_trees_on_every_prefix_of_the_html5lib_inputs() {
    let dir = shared_data::path("GLEANER_HTML5LIB_DIR", "html5lib-tests/tree-construction");
    let Some(dir) = shared_data::require(dir) else { return };
    let entries = std::fs::read_dir(&dir).expect("the html5lib suite's folder reads");
    let (mut total, mut different) = (0usize, Vec::new());
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_none_or(|x| x != "dat") {
            continue;
        }
        let Ok(content) = std::fs::read_to_string(&path) else { continue };
        let content = format!("\n{content}");
        for block in content.split("\n#data\n").skip(1) {
            let Some(at) = block.find("\n#errors\n") else { continue };
            let data = &block[..at];
            for end in data.char_indices().map(|(i, _)| i).chain([data.len()]) {
                let prefix = &data[..end];
                for scripting in [true, false] {
                    total += 1;
                    if own_tree(prefix, scripting) != gleaner_tree(prefix, scripting) {
                        different.push(prefix.to_string());
                    }
                }
            }
        }
    }
    println!(
        "own tree builder: {} of {total} prefixes build html5ever's tree",
        total - different.len()
    );
    // html5ever does not make an `annotation-xml` with an HTML encoding an
    // HTML integration point (its 4 failures of the suite); the own
    // builder does, as WHATWG §13.2.6 says.
    let unexplained: Vec<_> = different.iter().filter(|d| !d.contains("annotation-xml")).collect();
    assert!(unexplained.is_empty(), "trees differ on {unexplained:?}");
}

/// Markup for the tag-soup test: every insertion mode's tags, misnested.
const SOUP: &[&str] = &[
    "<table>",
    "</table>",
    "<tr>",
    "</tr>",
    "<td>",
    "</td>",
    "<th>",
    "<tbody>",
    "</tbody>",
    "<caption>",
    "</caption>",
    "<colgroup>",
    "<col>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href=x>",
    "</a>",
    "<nobr>",
    "</nobr>",
    "<font color=red>",
    "</font>",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<li>",
    "<ul>",
    "</ul>",
    "<dd>",
    "<dt>",
    "<select>",
    "</select>",
    "<option>",
    "</option>",
    "<optgroup>",
    "<input>",
    "<input type=hidden>",
    "<hr>",
    "<textarea>",
    "</textarea>",
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<mi>",
    "<mtext>",
    "<foreignObject>",
    "</foreignObject>",
    "<desc>",
    "<template>",
    "</template>",
    "<frameset>",
    "</frameset>",
    "<frame>",
    "<body>",
    "</body>",
    "</html>",
    "<html>",
    "<head>",
    "</head>",
    "<title>t</title>",
    "<script>s</script>",
    "<style>x</style>",
    "<noscript>",
    "</noscript>",
    "<form>",
    "</form>",
    "<button>",
    "</button>",
    "<h1>",
    "</h1>",
    "<h2>",
    "<pre>",
    "\n",
    "x",
    "  ",
    "<br>",
    "</br>",
    "<marquee>",
    "</marquee>",
    "<object>",
    "</object>",
    "<ruby>",
    "<rt>",
    "<rp>",
    "<rb>",
    "<plaintext>",
    "<xmp>",
    "<iframe>",
    "<!-- c -->",
    "<!DOCTYPE html>",
    "\0",
    "<image>",
    "<menu>",
    "<main>",
    "<address>",
    "<span>",
    "</span>",
    "<em>",
    "<code>",
    "<strong>",
    "</strong>",
    "<s>",
    "<u>",
    "<applet>",
    "<keygen>",
    "<listing>",
    "<embed>",
    "<meta>",
    "<link>",
    "<base>",
    "<noframes>",
    "<noembed>",
    "<summary>",
    "<details>",
    "<big>",
    "<tt>",
    "<small>",
    "<strike>",
];

#[test]
#[ignore = "100 000 parses: run with --release -- --ignored"]
fn own_tree_builder_builds_html5evers_trees_from_tag_soup() {
    // xorshift64: the same pages on every run.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut different = Vec::new();
    let pages = 100_000;
    for _ in 0..pages {
        let tokens = (next() % 25) as usize + 1;
        let page: String =
            (0..tokens).map(|_| SOUP[(next() % SOUP.len() as u64) as usize]).collect();
        let scripting = next() % 2 == 0;
        if own_tree(&page, scripting) != gleaner_tree(&page, scripting) {
            different.push(page);
        }
    }
    println!(
        "own tree builder: {} of {pages} tag soups build html5ever's tree",
        pages - different.len()
    );
    // Where html5ever departs from WHATWG §13.2.4.2 and the own builder
    // does not: html5ever's "special" category has only HTML elements
    // (not MathML `mi`…`mtext`, `annotation-xml`, SVG `foreignObject`,
    // `desc`, `title`), so `<dt>` in an SVG `desc` or `</option>` in a
    // `foreignObject` close elements outside them. Seen on 2 pages of the
    // 100 000.
    assert!(different.len() <= 2, "trees differ on {} pages: {different:?}", different.len());
}
