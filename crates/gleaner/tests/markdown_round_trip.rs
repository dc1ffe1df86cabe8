//! Round trip (issue 35): the Markdown gleaner writes for a page, read
//! back by a GFM parser (pulldown-cmark, tables on), has the block
//! structure of the HTML gleaner writes for the same selection: the same
//! sequence of headings (level and words), text blocks, list items (depth,
//! ordered or not), code blocks (exact text), block quotes, tables (rows
//! and columns) and rules.
//!
//! Text blocks are compared as blocks, not by their words (a formula is
//! TeX in Markdown and glyphs in HTML), and consecutive ones count as one:
//! HTML keeps a `<br>` between runs of text that Markdown writes as
//! paragraphs. Text inside list items is the item's.
//!
//! Every fixture must agree; over the development sets in
//! `../shared/data/wceb` (skipped when absent), at least 99 % of the pages,
//! the others listed.

#[path = "../../../tests/support/shared_data.rs"]
mod shared_data;

use std::path::{Path, PathBuf};

use gleaner::render::{self, RenderOptions};
use gleaner::{Document, NodeId, ParseOptions, Selection};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// A block of either output.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Block {
    Heading(u8, String),
    Text,
    Item { depth: usize, ordered: bool },
    Code(String),
    QuoteStart,
    QuoteEnd,
    Table { rows: usize, columns: usize },
    Rule,
}

/// Appends a block; a text block after a text block is the same one.
fn push(blocks: &mut Vec<Block>, b: Block) {
    if b == Block::Text && blocks.last() == Some(&Block::Text) {
        return;
    }
    blocks.push(b);
}

/// Lower-case letters and digits, for comparing heading text.
fn words(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The blocks of Markdown, as a GFM parser reads them.
fn markdown_blocks(md: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lists: Vec<bool> = Vec::new();
    let mut items = 0usize;
    let mut collecting: Option<String> = None;
    let mut heading = 0u8;
    let mut table = (0usize, 0usize);
    let mut images = 0usize;
    let mut html: Option<String> = None;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = level as u8;
                collecting = Some(String::new());
            }
            Event::End(TagEnd::Heading(_)) => {
                let text = collecting.take().unwrap_or_default();
                push(&mut blocks, Block::Heading(heading, words(&text)));
            }
            Event::Start(Tag::CodeBlock(_)) => collecting = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => {
                let text = collecting.take().unwrap_or_default();
                push(&mut blocks, Block::Code(text.strip_suffix('\n').unwrap_or(&text).into()));
            }
            // An image's alt text is not text of the HTML.
            Event::Start(Tag::Image { .. }) => images += 1,
            Event::End(TagEnd::Image) => images = images.saturating_sub(1),
            Event::Text(t) | Event::Code(t) if images == 0 => {
                if let Some(c) = collecting.as_mut() {
                    c.push_str(&t);
                }
            }
            // A table too complex for GFM is written as HTML: its
            // blocks are the HTML's.
            Event::Html(h) if h.trim_start().starts_with("<table") || html.is_some() => {
                let block = html.get_or_insert_with(String::new);
                block.push_str(&h);
            }
            Event::End(TagEnd::HtmlBlock) if html.is_some() => {
                for b in html_blocks(&html.take().unwrap_or_default()) {
                    push(&mut blocks, b);
                }
            }
            Event::Start(Tag::Paragraph) | Event::Html(_) if items == 0 => {
                push(&mut blocks, Block::Text)
            }
            Event::Start(Tag::List(first)) => lists.push(first.is_some()),
            Event::End(TagEnd::List(_)) => {
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                items += 1;
                let ordered = lists.last().copied().unwrap_or(false);
                push(&mut blocks, Block::Item { depth: lists.len(), ordered });
            }
            Event::End(TagEnd::Item) => items = items.saturating_sub(1),
            Event::Start(Tag::BlockQuote(_)) => push(&mut blocks, Block::QuoteStart),
            Event::End(TagEnd::BlockQuote(_)) => push(&mut blocks, Block::QuoteEnd),
            Event::Start(Tag::Table(columns)) => table = (0, columns.len()),
            Event::Start(Tag::TableHead | Tag::TableRow) => table.0 += 1,
            Event::End(TagEnd::Table) => {
                push(&mut blocks, Block::Table { rows: table.0, columns: table.1 })
            }
            Event::Rule => push(&mut blocks, Block::Rule),
            _ => {}
        }
    }
    blocks
}

/// The blocks of gleaner's HTML output, read with gleaner's parser.
fn html_blocks(html: &str) -> Vec<Block> {
    let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
    let mut blocks = Vec::new();
    let mut lists = Vec::new();
    html_walk(&doc, NodeId(0), &mut lists, 0, &mut blocks);
    blocks
}

/// Reads the HTML as a browser lays out lists: an item's depth is the
/// number of items around it plus one (a `<ul>` directly in a `<ul>`
/// adds no depth, an `<li>` outside a list is a list item).
fn html_walk(
    doc: &Document,
    id: NodeId,
    lists: &mut Vec<bool>,
    items: usize,
    out: &mut Vec<Block>,
) {
    if doc.is_text(id) {
        if items == 0 && !doc.text(id).trim().is_empty() {
            push(out, Block::Text);
        }
        return;
    }
    let name = doc.name(id).map(|n| n.to_string()).unwrap_or_default();
    let children = |lists: &mut Vec<bool>, items: usize, out: &mut Vec<Block>| {
        for c in doc.children(id) {
            html_walk(doc, c, lists, items, out);
        }
    };
    match name.as_str() {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
            let level = name.as_bytes()[1] - b'0';
            push(out, Block::Heading(level, words(&doc.text_content(id))));
        }
        "ul" | "ol" => {
            lists.push(name == "ol");
            children(lists, items, out);
            lists.pop();
        }
        "li" => {
            let ordered = lists.last().copied().unwrap_or(false);
            push(out, Block::Item { depth: items + 1, ordered });
            children(lists, items + 1, out);
        }
        "pre" => {
            let text: String = doc
                .subtree(id)
                .map(|n| if doc.name(n).is_some_and(|t| &**t == "br") { "\n" } else { doc.text(n) })
                .collect();
            push(out, Block::Code(text.strip_suffix('\n').unwrap_or(&text).into()));
        }
        "blockquote" => {
            push(out, Block::QuoteStart);
            children(lists, items, out);
            push(out, Block::QuoteEnd);
        }
        "table" => {
            let rows: Vec<NodeId> =
                doc.subtree(id).filter(|&n| doc.name(n).is_some_and(|t| &**t == "tr")).collect();
            let columns = rows
                .iter()
                .map(|&r| {
                    doc.children(r)
                        .filter(|&c| doc.name(c).is_some_and(|t| &**t == "td" || &**t == "th"))
                        .map(|c| {
                            doc.attr(c, "colspan").and_then(|v| v.parse().ok()).unwrap_or(1usize)
                        })
                        .sum::<usize>()
                })
                .max()
                .unwrap_or(0);
            push(out, Block::Table { rows: rows.len(), columns });
        }
        "hr" => push(out, Block::Rule),
        "img" if items == 0 => push(out, Block::Text),
        _ => children(lists, items, out),
    }
}

/// The page's Markdown and HTML blocks for the default extractor's
/// selection.
fn both(html: &[u8]) -> (Vec<Block>, Vec<Block>, String) {
    let doc = Document::parse(html, &ParseOptions::default()).expect("parses");
    let extractor = gleaner::extract::by_name("default").expect("the default extractor");
    let sel: Selection = extractor.extract(&doc);
    let options = RenderOptions::default().links(true).images(true);
    let md = render::markdown(&doc, &sel, options);
    let html = render::html(&doc, &sel, options);
    (markdown_blocks(&md), html_blocks(&html), md)
}

/// Where two block sequences first differ, for a message.
fn first_difference(a: &[Block], b: &[Block]) -> String {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    format!("block {i}: Markdown {:?} / HTML {:?}", a.get(i), b.get(i))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn every_fixture_round_trips() {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty());
    for page in pages {
        let (md, html, text) = both(&std::fs::read(&page).expect("read"));
        assert!(md == html, "{}: {}\n{text}", page.display(), first_difference(&md, &html));
    }
}

#[test]
fn handmade_pages_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/markdown");
    for name in ["code", "table", "lists", "layout", "escaping", "images", "structure"] {
        let html = std::fs::read(dir.join(format!("{name}.html"))).expect("read");
        let doc = Document::parse(&html, &ParseOptions::default()).expect("parses");
        let all = Selection::all(&doc);
        let options = RenderOptions::default().links(true).images(true);
        let md = markdown_blocks(&render::markdown(&doc, &all, options));
        let out = html_blocks(&render::html(&doc, &all, options));
        assert!(md == out, "{name}: {}", first_difference(&md, &out));
    }
}

/// Over the development sets: at least 99 % of the pages round-trip;
/// the others are printed.
#[test]
fn dev_sets_round_trip() {
    // Skipped by name without ../shared, a failure under
    // GLEANER_REQUIRE_DATA=1 (CI).
    let Some(root) = shared_data::require(shared_data::path("GLEANER_WCEB_DIR", "wceb")) else {
        return;
    };
    let mut pages: Vec<PathBuf> = Vec::new();
    for set in std::fs::read_dir(&root).expect("datasets").filter_map(Result::ok) {
        if let Ok(inputs) = std::fs::read_dir(set.path().join("input")) {
            pages.extend(inputs.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    pages.sort();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    let chunks: Vec<&[PathBuf]> = pages.chunks(pages.len().div_ceil(threads).max(1)).collect();
    let failed: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    let mut failed = Vec::new();
                    for page in *chunk {
                        let Ok(bytes) = std::fs::read(page) else { continue };
                        let (md, html, _) = both(&bytes);
                        if md != html {
                            failed.push(format!(
                                "{}: {}",
                                page.display(),
                                first_difference(&md, &html)
                            ));
                        }
                    }
                    failed
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("no panic")).collect()
    });
    let rate = 1.0 - failed.len() as f64 / pages.len().max(1) as f64;
    eprintln!(
        "dev_sets_round_trip: {} of {} pages equal ({:.2} %)",
        pages.len() - failed.len(),
        pages.len(),
        100.0 * rate
    );
    for f in &failed {
        eprintln!("  {f}");
    }
    assert!(rate >= 0.99, "{} pages differ", failed.len());
}
