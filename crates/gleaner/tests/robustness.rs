//! Hostile input never panics or hangs: random bytes, random tag soup,
//! huge and deeply nested pages, framesets, wrong encodings. Every
//! extractor and renderer runs on each.

mod support;

use gleaner::render;
use gleaner::{extract, Document, ParseOptions};
use proptest::prelude::*;

thread_local! {
    static EXTRACTORS: Vec<(String, Box<dyn extract::Extractor>)> = support::extractors();
}

/// Runs every extractor and renderer over a page with the invariants of
/// [`support::check_page`]; binary input may be refused.
fn run_everything(bytes: &[u8]) {
    let checked = EXTRACTORS.with(|e| support::check_page(bytes, false, e));
    if let Err(e) = checked {
        panic!("{e}");
    }
}

/// [`run_everything`] inside a proptest, for pages that must parse.
fn check_parsing_page(bytes: &[u8]) -> Result<(), TestCaseError> {
    EXTRACTORS.with(|e| support::check_page(bytes, true, e))
}

fn tag_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        20 => any_of(&[
            "<div>",
            "</div>",
            "<p>",
            "</p>",
            "<a href='x'>",
            "</a>",
            "<table><tr><td>",
            "</td></tr>",
            "<script>",
            "</script>",
            "<!--",
            "-->",
            "<pre>",
            "<ul><li>",
            "<br>",
            "&amp;&#x0;&bogus;",
            "<h1>",
            "<b><i></b></i>",
            "<title>",
            "<frameset>",
        ]),
        1 => "[a-z ]{0,20}",
        1 => "[\\PC]{0,8}",
    ];
    proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

/// Words of visible text: ASCII prose, accented, right-to-left, CJK,
/// entities, one very long word, and nothing.
fn words() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z]{1,10}( [a-z]{1,10}){0,12}[.,]?",
        7 => any_of(&[
            "café naïve Ærøskøbing",
            "مرحبا بالعالم שלום עולם",
            "\u{202E}reversed\u{202C} text",
            "東京の天気は晴れです。明日も良い天気。",
            "Tom &amp; Jerry &lt;3 &copy; &#169; &#x1F600; &bogus; &",
            "",
            "   \n\t  ",
        ]),
        1 => "[a-z]{300,600}",
        1 => "[\\PC&&[^<&]]{1,20}",
    ]
}

/// `class` and `id` values, many of them words that boilerplate filters
/// look for.
fn class_names() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "sidebar",
        "comment",
        "comments",
        "share",
        "no-sidebar",
        "content",
        "article-body",
        "main",
        "nav",
        "menu",
        "footer",
        "header",
        "ad",
        "advert",
        "promo",
        "related",
        "post",
        "entry-content",
        "hidden",
        "social",
        "widget",
        "caption",
        "byline",
        "meta",
    ]);
    prop::collection::vec(word, 1..4).prop_map(|w| w.join(" "))
}

/// Attributes of an element: class, id, hiding, links and image sources
/// (safe and unsafe).
fn attributes() -> impl Strategy<Value = String> {
    let attr = prop_oneof![
        3 => class_names().prop_map(|c| format!(" class=\"{c}\"")),
        2 => class_names().prop_map(|c| format!(" id=\"{}\"", c.replace(' ', "-"))),
        6 => any_of(&[
            " style=\"display:none\"",
            " hidden",
            " aria-hidden=\"true\"",
            " role=\"navigation\"",
            " lang=\"ar\" dir=\"rtl\"",
            " data-x='1' title=\"a &quot;title&quot;\"",
            " class=unquoted-sidebar",
        ]),
    ];
    prop::collection::vec(attr, 0..3).prop_map(|a| a.concat())
}

/// One of these strings.
fn any_of(items: &[&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(items.to_vec()).prop_map(str::to_string)
}

fn href() -> impl Strategy<Value = String> {
    any_of(&[
        "https://example.com/story",
        "/relative/path?q=1&amp;r=2",
        "#top",
        "",
        "mailto:editor@example.com",
        "javascript:alert(1)",
        " JavaScript:void(0)",
        "java\tscript:alert(2)",
        "vbscript:msgbox",
        "data:text/html,<b>x</b>",
        "https://example.com/a (b)",
    ])
}

/// Content without children: text, comments, void elements, stray end
/// tags and start tags that are never closed.
fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => words(),
        1 => words().prop_map(|w| format!("<!-- {w} -->")),
        1 => (href(), words()).prop_map(|(src, alt)| format!("<img src=\"{src}\" alt=\"{alt}\">")),
        1 => any_of(&["</p>", "</div>", "</table>", "</li>", "</body>", "</html>", "</a>"]),
        1 => any_of(&["<p>", "<b>", "<li>", "<td>", "<div class=sidebar>", "<i>"]),
        12 => any_of(&[
            "<!-- unterminated <p>comment",
            "<br>",
            "<hr>",
            "<script>var s = '</div>'; if (a < b) { x(); }</script>",
            "<style>p { color: red } .sidebar { display: none }</style>",
            "<select><option>One</option><option selected>Two</select>",
            "<iframe src=\"https://example.com/embed\">fallback text</iframe>",
            "<frameset cols=\"50%,50%\"><frame src=a.html><frame src=b.html></frameset>",
            "<textarea>typed <b>text</b></textarea>",
            "<noscript><p>Enable scripts</p></noscript>",
            "<template><p>inert</p></template>",
            "<svg><title>icon</title><text>svg text</text></svg>",
        ]),
    ]
}

/// Wraps children in an element drawn from real tags, with attributes.
fn element(children: Vec<String>, attrs: String, tag: usize, href: String) -> String {
    let inner = children.concat();
    let cells = || children.iter().map(|c| format!("<td{attrs}>{c}</td>")).collect::<String>();
    match tag {
        0 => format!("<a href=\"{href}\"{attrs}>{inner}</a>"),
        1 => format!(
            "<ul{attrs}>{}</ul>",
            children.iter().map(|c| format!("<li>{c}</li>")).collect::<String>()
        ),
        2 => format!(
            "<ol start=\"3\">{}</ol>",
            children.iter().map(|c| format!("<li>{c}")).collect::<String>()
        ),
        3 => format!("<table{attrs}><tr>{}</tr><tr>{}</tr></table>", cells(), cells()),
        4 => format!("<table><caption>{inner}</caption><tr><th>h</th><td>{inner}</td></tr></table>"),
        5 => format!("<form action=\"/s\"{attrs}><input name=q value=\"v\">{inner}<button>Go</button></form>"),
        6 => format!("<dl><dt>{inner}</dt><dd>{inner}</dd></dl>"),
        _ => {
            const TAGS: &[&str] = &[
                "div", "p", "span", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "code",
                "nav", "footer", "header", "article", "section", "aside", "main", "blockquote",
                "b", "i", "em", "strong", "small", "center", "font", "figure", "figcaption",
                "details", "summary", "button", "label", "sub", "sup", "u", "div", "p",
            ];
            let name = TAGS[(tag - 7) % TAGS.len()];
            format!("<{name}{attrs}>{inner}</{name}>")
        }
    }
}

/// Random but well-formed-ish HTML: nested real elements with
/// boilerplate-like attributes around mixed text, with some unclosed and
/// stray tags; sometimes a whole document, sometimes a fragment.
fn html_page() -> impl Strategy<Value = String> {
    let body = leaf().prop_recursive(5, 96, 6, |inner| {
        (prop::collection::vec(inner, 0..6), attributes(), 0usize..45, href())
            .prop_map(|(children, attrs, tag, href)| element(children, attrs, tag, href))
    });
    let title = prop_oneof![
        Just(String::new()),
        words().prop_map(|w| format!("<title>{w} | Example News</title>")),
        words().prop_map(|w| format!("<meta property=\"og:title\" content=\"{w}\">")),
    ];
    (prop::collection::vec(body, 1..5), title, any::<bool>()).prop_map(|(body, title, whole)| {
        let body = body.concat();
        if whole {
            format!(
                "<!DOCTYPE html><html><head><meta charset=\"utf-8\">{title}</head><body>{body}</body></html>"
            )
        } else {
            format!("{title}{body}")
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        EXTRACTORS.with(|e| support::check_page(&bytes, false, e))?;
    }

    #[test]
    fn random_tag_soup_never_panics(html in tag_soup()) {
        check_parsing_page(html.as_bytes())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Pages that parse, through every extractor (also with
    /// `lines=blocks`) and renderer, with the invariants of
    /// [`support::check_page`].
    #[test]
    fn generated_html_keeps_every_invariant(html in html_page()) {
        check_parsing_page(html.as_bytes())?;
    }
}

#[test]
fn empty_and_whitespace_pages() {
    for page in ["", " ", "\n\n", "<html></html>", "<!DOCTYPE html>"] {
        run_everything(page.as_bytes());
        let doc = Document::parse(page.as_bytes(), &ParseOptions::default()).expect("parse");
        let text = render::text(&doc, &extract::by_name("default").expect("default").extract(&doc));
        assert_eq!(text, "");
    }
}

#[test]
fn frameset_page() {
    let html = b"<html><frameset cols='50%,50%'><frame src=a.html><frame src=b.html></frameset>\
                 <noframes><p>Your browser does not support frames.</p></noframes></html>";
    run_everything(html);
}

#[test]
fn unclosed_tags_keep_their_text() {
    let html = b"<html><body><div><p>First paragraph<p>Second <b>bold<i>both <table><tr><td>cell";
    let doc = Document::parse(html, &ParseOptions::default()).expect("parse");
    let text = render::text(&doc, &gleaner::Selection::all(&doc));
    for word in ["First", "Second", "bold", "both", "cell"] {
        assert!(text.contains(word), "{word} lost in {text:?}");
    }
}

#[test]
fn deep_nesting_of_every_kind() {
    for tag in ["div", "b", "span", "table", "a", "li", "blockquote"] {
        let n = 100_000;
        let html = format!("<{tag}>").repeat(n) + "core" + &format!("</{tag}>").repeat(n);
        run_everything(html.as_bytes());
    }
}

#[test]
fn invalid_utf8_under_a_wrong_declared_charset() {
    let mut html = b"<meta charset=utf-8><p>caf\xe9 na\xefve \xff\xfe</p>".to_vec();
    html.extend(std::iter::repeat_n(b'x', 100));
    let doc = Document::parse(&html, &ParseOptions::default()).expect("parse");
    let text = render::text(&doc, &gleaner::Selection::all(&doc));
    assert!(text.starts_with("café naïve"), "{text}");
}

#[test]
fn fifty_megabyte_page() {
    let para = "<div class=c><p>Lorem ipsum dolor sit amet, <a href=/x>consectetur</a> adipiscing elit.</p></div>\n";
    let html = para.repeat(50 * 1024 * 1024 / para.len());
    assert!(html.len() > 49 << 20);
    let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
    let _ = extract::by_name("default").expect("default").extract(&doc);
    let sel = extract::by_name("lqf").expect("lqf").extract(&doc);
    assert!(sel.count() > 400_000, "the paragraphs are kept");
    let too_small = ParseOptions::default().max_bytes(1 << 20);
    assert!(matches!(
        Document::parse(html.as_bytes(), &too_small),
        Err(gleaner::Error::TooLarge { .. })
    ));
}

#[test]
fn text_around_a_dropped_block_stays_apart() {
    // Bare text in a container around a block the extractor drops (an
    // advert, share buttons); found by `generated_html_keeps_every_invariant`
    // with ttr-prediction[lines=blocks] selecting around a <form>.
    let html = b"<div>Before the advert<div class=ad>Buy now</div>After the advert</div>";
    let doc = Document::parse(html, &ParseOptions::default()).expect("parse");
    let mut sel = gleaner::Selection::all(&doc);
    let ad = doc.ids().find(|&id| doc.attr(id, "class") == Some("ad")).expect("the advert");
    sel.deselect_subtree(&doc, ad);
    let options = render::RenderOptions::default();
    assert_eq!(render::text(&doc, &sel), "Before the advert\n\nAfter the advert");
    assert_eq!(render::markdown(&doc, &sel, options), "Before the advert\n\nAfter the advert");
    assert!(!render::html(&doc, &sel, options).contains("advertAfter"));
}

/// Does `s` have the shape of [`gleaner::metadata::normalise_date`]'s
/// output: `YYYY-MM-DD`, optionally `Thh:mm:ss` and `Z` or `±hh:mm`?
fn is_iso_shape(s: &str) -> bool {
    let digits_at = |range: std::ops::Range<usize>| {
        s.get(range).is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
    };
    let date = digits_at(0..4) && digits_at(5..7) && digits_at(8..10) && s.get(4..5) == Some("-");
    match s.len() {
        10 => date,
        19 | 20 | 25 => {
            date && s.get(10..11) == Some("T") && digits_at(11..13) && digits_at(14..16)
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any text where dates are expected is a well-formed ISO 8601 date
    /// or nothing, without a panic.
    #[test]
    fn any_date_text_is_iso_or_none(text in "\\PC{0,40}", digits in "[0-9 :./,TZ+-]{0,30}") {
        for s in [text.as_str(), digits.as_str()] {
            if let Some(iso) = gleaner::metadata::normalise_date(s) {
                prop_assert!(is_iso_shape(&iso), "{s:?} -> {iso:?}");
            }
        }
    }

    /// Random text in every metadata source (JSON-LD, `<meta>`, `<time>`,
    /// comment regions) never panics the metadata, the comment finder,
    /// `is_article` or the front matter.
    #[test]
    fn random_metadata_never_panics(json in "\\PC{0,80}", value in "\\PC{0,40}", html in tag_soup()) {
        let page = format!(
            "<html lang='{value}'><script type=application/ld+json>{json}</script>\
             <script type=application/ld+json>{{\"@graph\": [{{\"@type\": \"Article\", \
             \"author\": {{\"@id\": \"{value}\"}}, \"datePublished\": \"{value}\"}}]}}</script>\
             <meta property=og:url content='{value}'><meta name=date content='{value}'>\
             <link rel=canonical href='{value}'><time datetime='{value}'>x</time>\
             <div id=comments>{html}</div>{html}"
        );
        let doc = Document::parse(page.as_bytes(), &ParseOptions::default().url(Some("https://a.example/b".into())))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let meta = gleaner::metadata::Metadata::extract(&doc);
        if let Some(date) = &meta.date {
            prop_assert!(is_iso_shape(date), "{date:?}");
        }
        let all = gleaner::Selection::all(&doc);
        let _ = extract::page_kind::is_article(&doc, &all, &meta);
        let _ = render::text(&doc, &extract::comments::comments(&doc, &all));
        let header = render::front_matter(&meta, doc.url());
        prop_assert!(header.starts_with("---\n") && header.ends_with("---\n"));
        prop_assert_eq!(header.lines().count(), header.lines().filter(|l| !l.is_empty()).count());
    }
}
