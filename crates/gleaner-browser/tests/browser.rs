//! `BrowserLayout` against the real Chromium, offline: a page served by a
//! local server in the test, whose stylesheet, script and image must never
//! be requested. Each test makes its own provider (its own browser and
//! profile), so the tests run in parallel.

#[path = "../../gleaner-crawl/tests/server/mod.rs"]
mod server;

use std::time::Duration;

use gleaner::layout::{Layout, LayoutOrigin, LayoutProvider};
use gleaner::{Document, Error, NodeId, ParseOptions};
use gleaner_browser::{BrowserConfig, BrowserLayout, Resource};
use server::{Reply, Server};

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>A real-looking page</title>
  <link rel="stylesheet" href="/static/site.css">
  <script src="/static/app.js"></script>
  <style>
    body { margin: 0; font-family: sans-serif; background-color: rgb(250, 250, 250); }
    h1 { font-size: 32px; margin: 10px 0; }
    p { font-size: 14px; margin: 10px 0; }
    .banner { background-color: rgba(255, 0, 0, 0.5); }
  </style>
</head>
<body>
  <header class="banner"><a href="/">Home</a> <a href="/about">About</a></header>
  <h1 id="title">The headline of the story</h1>
  <p id="first">The first paragraph of the story, long enough to wrap a line or two.</p>
  <img src="/static/photo.jpg" width="200" height="100" alt="a photo">
  <p id="second">The second paragraph.</p>
  <div id="modal" style="display:none"><p>Subscribe to our newsletter!</p></div>
  <div id="ghost" style="visibility:hidden">hidden text</div>
  <div id="clear" style="opacity:0"><span id="inside">see-through</span></div>
  <div id="fixed" style="width:300px">three hundred pixels</div>
  <script>document.getElementById('title').style.display = 'none';</script>
</body>
</html>"#;

/// Serves the page and its resources, counting every request.
fn serve() -> Server {
    Server::start(|target| match target {
        "/static/site.css" => Reply::typed("text/css", "h1 { font-size: 100px; }"),
        "/static/app.js" => Reply::typed("text/javascript", "document.body.remove();"),
        "/static/photo.jpg" => Reply::typed("image/jpeg", vec![0xff, 0xd8, 0xff]),
        _ => Reply::html(PAGE),
    })
}

fn parse(html: &str, url: Option<String>) -> Document {
    let options = ParseOptions::default().keep_all_attributes(true).url(url);
    Document::parse(html.as_bytes(), &options).expect("the page parses")
}

fn element(doc: &Document, key: &str) -> NodeId {
    doc.ids()
        .find(|&id| doc.attr(id, "id") == Some(key) || doc.name(id).is_some_and(|n| &**n == key))
        .unwrap_or_else(|| panic!("no element {key}"))
}

fn boxed(doc: &Document, layout: &Layout, key: &str) -> gleaner::layout::LayoutBox {
    *layout.get(element(doc, key)).unwrap_or_else(|| panic!("no box for {key}"))
}

#[test]
fn page_is_laid_out_offline_and_mapped_to_nodes() {
    let server = serve();
    let url = server.url("/articles/story.html");
    let doc = parse(PAGE, Some(url));
    let provider = BrowserLayout::new(BrowserConfig::default()).expect("chromium is installed");
    let layout = provider.layout(&doc).expect("the page lays out");

    // Nothing was fetched: not the page, its stylesheet, script or image.
    assert_eq!(server.requests(), Vec::<String>::new());

    assert_eq!(layout.origin(), LayoutOrigin::Browser);
    assert_eq!(layout.len(), doc.len());
    let body = boxed(&doc, &layout, "body");
    let h1 = boxed(&doc, &layout, "h1");
    let p = boxed(&doc, &layout, "first");
    assert!(body.visible && h1.visible && p.visible);
    assert_eq!(body.rect.width, 1280.0, "default viewport");
    assert_eq!(h1.font_size, 32.0, "the inline style, not the unfetched stylesheet");
    assert!(h1.font_size > p.font_size);
    assert_eq!(body.background, gleaner::layout::Rgba::rgb(250, 250, 250));
    assert_eq!(boxed(&doc, &layout, "header").background.a, 128);
    assert!(boxed(&doc, &layout, "header").visible, "the script did not run");

    // Hidden in four ways.
    let modal = element(&doc, "modal");
    assert!(layout.get(modal).is_none_or(|b| !b.visible));
    assert!(!boxed(&doc, &layout, "ghost").visible);
    assert!(!boxed(&doc, &layout, "clear").visible);
    assert!(!boxed(&doc, &layout, "inside").visible, "opacity hides descendants");

    assert_eq!(boxed(&doc, &layout, "fixed").rect.width, 300.0);
    assert_eq!(boxed(&doc, &layout, "img").rect.width, 200.0);

    // Stacked blocks: tops increase in document order.
    let tops: Vec<f32> = ["header", "h1", "first", "img", "second", "fixed"]
        .iter()
        .map(|k| boxed(&doc, &layout, k).rect.top)
        .collect();
    assert!(tops.windows(2).all(|w| w[0] < w[1]), "{tops:?}");

    // Every element of the body has a box: a visible one when rendered,
    // an invisible one for the display:none subtree and scripts.
    let hidden_end = doc.subtree_end(modal);
    for id in doc.subtree(doc.body()).skip(1) {
        let Some(name) = doc.name(id) else { continue };
        let not_rendered = &**name == "script" || (id >= modal && id < hidden_end);
        let see_through = ["ghost", "clear", "inside"].iter().any(|k| id == element(&doc, k));
        let b = layout.get(id);
        assert!(b.is_some(), "element {name} ({id:?}) has no box");
        let visible = !not_rendered && !see_through;
        assert_eq!(b.is_some_and(|b| b.visible), visible, "element {name} ({id:?})");
    }
    // Laid out, the page's hidden text is set aside.
    let laid_out = doc.clone().with_layout(layout.clone());
    // (opacity:0 is what only a layout engine sees.)
    assert!(doc.text_content(doc.body()).contains("see-through"));
    assert!(!laid_out.text_content(laid_out.body()).contains("see-through"));
    assert!(laid_out.text_content(laid_out.body()).contains("three hundred pixels"));
    assert!(layout.get(element(&doc, "head")).is_none());
    assert!(layout.page().height > 0.0);
}

#[test]
fn scripts_run_only_when_allowed_and_still_fetch_nothing() {
    let server = serve();
    let doc = parse(PAGE, Some(server.url("/story.html")));
    let config = BrowserConfig::default().scripts(true).viewport(800, 600);
    let provider = BrowserLayout::new(config).expect("chromium is installed");
    let layout = provider.layout(&doc).expect("the page lays out");
    // The inline script hid the headline; app.js (which would remove the
    // body) was not fetched.
    assert!(layout.get(element(&doc, "h1")).is_none_or(|b| !b.visible));
    assert!(boxed(&doc, &layout, "first").visible);
    assert_eq!(boxed(&doc, &layout, "body").rect.width, 800.0);
    assert_eq!(server.requests(), Vec::<String>::new());
}

#[test]
fn resources_given_in_memory_are_used() {
    let server = serve();
    let css = server.url("/static/site.css");
    let doc = parse(PAGE, Some(server.url("/story.html")));
    let resource =
        Resource { content_type: "text/css".into(), body: b"#second { font-size: 20px }".to_vec() };
    let provider = BrowserLayout::new(BrowserConfig::default().resource(css, resource))
        .expect("chromium is installed");
    let layout = provider.layout(&doc).expect("the page lays out");
    // The given stylesheet's id rule beats the page's `p` rule.
    assert_eq!(boxed(&doc, &layout, "second").font_size, 20.0);
    assert_eq!(boxed(&doc, &layout, "first").font_size, 14.0);
    assert_eq!(server.requests(), Vec::<String>::new());
}

#[test]
fn one_browser_serves_many_pages_and_parallel_callers() {
    let provider =
        BrowserLayout::new(BrowserConfig::default().pool_size(2)).expect("chromium is installed");
    std::thread::scope(|scope| {
        for t in 0..3 {
            let provider = &provider;
            scope.spawn(move || {
                for i in 0..4 {
                    let size = 10 + t * 4 + i;
                    let page = format!("<p style='font-size:{size}px'>page {t}.{i}</p>");
                    // No URL: loaded at the placeholder, one after another.
                    let doc = parse(&page, None);
                    let layout = provider.layout(&doc).expect("lays out");
                    assert_eq!(boxed(&doc, &layout, "p").font_size, size as f32);
                }
            });
        }
    });
    assert!(provider.browser_pids().len() <= 2);
}

#[test]
fn a_page_past_its_time_limit_is_an_error_and_the_next_page_works() {
    let provider =
        BrowserLayout::new(BrowserConfig::default().scripts(true).timeout(Duration::from_secs(2)))
            .expect("chromium is installed");
    let endless = parse("<p>x</p><script>for(;;){}</script>", None);
    let err = provider.layout(&endless).expect_err("never loads");
    assert!(matches!(&err, Error::Layout(m) if m.contains("too long")), "{err}");
    let doc = parse("<p>fine</p>", None);
    assert!(provider.layout(&doc).is_ok_and(|l| l.get(element(&doc, "p")).is_some()));
}

#[test]
fn missing_binary_is_a_clear_error() {
    let err = BrowserLayout::new(BrowserConfig::default().binary("/nonexistent"))
        .expect_err("no such binary");
    assert!(err.to_string().contains("/nonexistent"), "{err}");
}
