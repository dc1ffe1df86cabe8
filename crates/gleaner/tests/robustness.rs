//! Hostile input never panics or hangs: random bytes, random tag soup,
//! huge and deeply nested pages, framesets, wrong encodings. Every
//! extractor and renderer runs on each.

use gleaner::render::{self, Format, RenderOptions};
use gleaner::{extract, Document, ParseOptions};
use proptest::prelude::*;

/// Runs every registered extractor and every renderer over a page.
fn run_everything(bytes: &[u8]) {
    let Ok(doc) = Document::parse(bytes, &ParseOptions::default()) else { return };
    let _ = gleaner::metadata::title(&doc);
    for algorithm in extract::algorithms() {
        let extractor = algorithm.build(&Default::default()).expect("defaults are valid");
        let sel = extractor.extract(&doc);
        for format in [Format::Text, Format::Markdown, Format::Html] {
            let _ = render::render(
                &doc,
                &sel,
                format,
                RenderOptions::default().links(true).images(true),
            );
        }
    }
}

fn tag_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<div>".to_string()),
        Just("</div>".to_string()),
        Just("<p>".to_string()),
        Just("</p>".to_string()),
        Just("<a href='x'>".to_string()),
        Just("</a>".to_string()),
        Just("<table><tr><td>".to_string()),
        Just("</td></tr>".to_string()),
        Just("<script>".to_string()),
        Just("</script>".to_string()),
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("<pre>".to_string()),
        Just("<ul><li>".to_string()),
        Just("<br>".to_string()),
        Just("&amp;&#x0;&bogus;".to_string()),
        Just("<h1>".to_string()),
        Just("<b><i></b></i>".to_string()),
        Just("<title>".to_string()),
        Just("<frameset>".to_string()),
        "[a-z ]{0,20}",
        "[\\PC]{0,8}",
    ];
    proptest::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        run_everything(&bytes);
    }

    #[test]
    fn random_tag_soup_never_panics(html in tag_soup()) {
        run_everything(html.as_bytes());
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
