//! Markdown read back as text is the text output (issue 35): for
//! generated pages of paragraphs, headings, nested lists (ordered, with
//! starts), block quotes, code blocks and inline formatting over words
//! full of Markdown syntax characters (`* _ [ ] # > | \` < & 1.`), the
//! words a CommonMark parser (pulldown-cmark) reads from gleaner's
//! Markdown are the words of gleaner's text output, in order: every
//! character that would read as syntax is escaped, and nothing is lost.
//!
//! A second property glues emphasis to its neighbours, as pages do
//! (`<b>Weight:</b>5 kg`, `<b>Local Moving</b><b>:</b>`, `top<b>.</b>`):
//! runs of one kind written back to back are one run, punctuation ending
//! an emphasis before a word goes after it, and emphasis of punctuation
//! alone is left out, and punctuation starting one right after a word goes
//! before it, so that CommonMark's flanking rules read them back. A
//! known limit, not generated here: nested emphasis glued to emphasis of
//! the same delimiter (`<em>A</em><b><em>0</em></b>`) can meet as one run
//! of asterisks that CommonMark pairs otherwise.

use gleaner::render::{self, RenderOptions};
use gleaner::{Document, ParseOptions, Selection};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// A word: letters, digits and Markdown's syntax characters.
fn word() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[a-z0-9*_\[\]#>|`<&;.)+=!\\~-]{1,6}").expect("regex")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn words(n: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(word(), 1..n).prop_map(|w| escape(&w.join(" ")))
}

/// Inline content: words, emphasis, strong, code spans, line breaks, with
/// spaces between.
fn inline() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => words(5),
        1 => words(3).prop_map(|w| format!("<em>{w}</em>")),
        1 => words(3).prop_map(|w| format!("<strong>{w}</strong>")),
        1 => words(3).prop_map(|w| format!("<code>{w}</code>")),
        1 => Just("<br>".to_string()),
    ];
    proptest::collection::vec(piece, 1..5).prop_map(|p| p.join(" "))
}

fn list(depth: u32) -> BoxedStrategy<String> {
    let item = if depth == 0 {
        inline().prop_map(|i| format!("<li>{i}</li>")).boxed()
    } else {
        (inline(), proptest::option::of(list(depth - 1)))
            .prop_map(|(i, nested)| format!("<li>{i}{}</li>", nested.unwrap_or_default()))
            .boxed()
    };
    (any::<bool>(), 0u32..20, proptest::collection::vec(item, 1..4))
        .prop_map(|(ordered, start, items)| {
            let items = items.concat();
            if ordered {
                format!("<ol start={start}>{items}</ol>")
            } else {
                format!("<ul>{items}</ul>")
            }
        })
        .boxed()
}

fn block() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => inline().prop_map(|i| format!("<p>{i}</p>")),
        1 => (1u8..7, inline()).prop_map(|(l, i)| format!("<h{l}>{i}</h{l}>")),
        2 => list(2),
        1 => proptest::collection::vec(inline(), 1..3)
            .prop_map(|ps| format!("<blockquote><p>{}</p></blockquote>", ps.join("</p><p>"))),
        1 => proptest::collection::vec(words(4), 1..4)
            .prop_map(|lines| format!("<pre><code>{}</code></pre>", lines.join("\n  "))),
    ]
}

fn page() -> impl Strategy<Value = String> {
    proptest::collection::vec(block(), 1..6).prop_map(|b| format!("<body>{}</body>", b.concat()))
}

/// The words of Markdown as a CommonMark parser reads them.
fn markdown_words(md: &str) -> Vec<String> {
    let mut text = String::new();
    for event in Parser::new_ext(md, Options::empty()) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            // `<sup>`/`<sub>` are written as HTML: their tags are no words.
            Event::InlineHtml(t) if matches!(&*t, "<sup>" | "</sup>" | "<sub>" | "</sub>") => {}
            Event::InlineHtml(t) | Event::Html(t) => text.push_str(&t),
            // Emphasis splits no word: `*a*a` reads `aa`.
            Event::Start(Tag::Emphasis | Tag::Strong)
            | Event::End(TagEnd::Emphasis | TagEnd::Strong) => {}
            _ => text.push(' '),
        }
    }
    text.split_whitespace().map(str::to_string).collect()
}

/// A word of letters, maybe between punctuation.
fn plain_word() -> impl Strategy<Value = String> {
    proptest::string::string_regex(r"[(“]?[a-zA-Z0-9]{1,5}[.,:;!?)/]?").expect("regex")
}

/// Emphasis glued to its neighbours or not: words, emphasis and strong of
/// words between punctuation or of punctuation alone, and superscript
/// marks, each piece joined to the next with or without a space.
fn glued_inline() -> impl Strategy<Value = String> {
    let inside = prop_oneof![
        3 => proptest::collection::vec(plain_word(), 1..3).prop_map(|w| w.join(" ")),
        1 => proptest::string::string_regex(r"[.,:;!?®“]{1,2}").expect("regex"),
        1 => (plain_word(), proptest::string::string_regex(r"[(.,“]{1,2}").expect("regex"))
            .prop_map(|(w, p)| format!("{w} {p}")),
    ];
    let piece = prop_oneof![
        3 => plain_word(),
        2 => inside.clone().prop_map(|w| format!("<em>{w}</em>")),
        2 => inside.prop_map(|w| format!("<strong>{w}</strong>")),
        // Marks (`®`, `*`, `†`): a letter or digit before a capital is
        // split in the text but not in `<sup>` (`H<sub>2</sub>O`).
        1 => proptest::string::string_regex(r"[®*†.]{1,2}").expect("regex")
            .prop_map(|m| format!("<sup>{m}</sup>")),
    ];
    proptest::collection::vec((piece, any::<bool>()), 1..8).prop_map(|pieces| {
        let mut html = String::new();
        for (i, (piece, space)) in pieces.into_iter().enumerate() {
            if i > 0 && space {
                html.push(' ');
            }
            html.push_str(&piece);
        }
        format!("<body><p>x {html}</p></body>")
    })
}

/// Checks that the words read back from `html`'s Markdown are its text's.
fn reads_back_as_the_text(html: &str) -> Result<(), TestCaseError> {
    let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
    let all = Selection::all(&doc);
    let text = render::text(&doc, &all);
    let md = render::markdown(&doc, &all, RenderOptions::default());
    let want: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    prop_assert_eq!(markdown_words(&md), want, "page:\n{}\nMarkdown:\n{}", html, md);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn markdown_read_back_is_the_text(html in page()) {
        reads_back_as_the_text(&html)?;
    }

    #[test]
    fn glued_emphasis_reads_back_as_the_text(html in glued_inline()) {
        reads_back_as_the_text(&html)?;
    }
}
