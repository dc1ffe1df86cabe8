//! Small handmade pages of each kind the web is made of (issue 30): a
//! forum thread of three posts, a grid of six cards beside a facet
//! sidebar, a four-section service page, a product page (with its offer's
//! data as JSON in a hidden element, and one whose
//! specifications wait in hidden tabs), a documentation
//! page with a sidebar and code, an article under which readers comment,
//! a thread whose first post quotes a long log, a grid of six cards
//! built of `<div>`s, a script-rendered shell whose only text is its
//! footer.
//! For each, what the learned extractor (with the compiled-in model) must
//! keep and must leave out.
//!
//! The pages are in `tests/pages/`, written for these tests (no real
//! site's text).

use gleaner::extract::learned::{Learned, LearnedConfig};
use gleaner::{render, Document, ParseOptions};

fn page(name: &str) -> Document {
    let path = format!("{}/tests/pages/{name}.html", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Document::parse(&html, &ParseOptions::default()).expect("parses")
}

/// The page's text by the learned extractor and its page type.
fn learned(name: &str) -> (String, &'static str) {
    let doc = page(name);
    let decision = Learned::new(LearnedConfig::default()).expect("model").decide(&doc);
    (render::text(&doc, &decision.selection), decision.page_type.name())
}

fn check(name: &str, kept: &[&str], left_out: &[&str]) -> String {
    let (text, _) = learned(name);
    for k in kept {
        assert!(text.contains(k), "{name}: {k:?} is content and was left out:\n{text}");
    }
    for l in left_out {
        assert!(!text.contains(l), "{name}: {l:?} is not content and was kept:\n{text}");
    }
    text
}

#[test]
fn a_thread_keeps_every_post_and_not_the_nav_or_footer() {
    check(
        "forum",
        &[
            "Boiler pressure drops overnight",
            "Every morning the pressure gauge on my combi boiler reads 0.5 bar",
            "should I look for a hidden leak somewhere under the floor?",
            "almost always the expansion vessel losing its air charge",
            "the relief valve is passing and needs replacing",
            "the pressure has held at 1.4 bar since",
            "plumbdave",
        ],
        // Known gap: the sidebar's rules paragraph ("Be kind. No
        // adverts.") and the "similar threads" titles are kept when the
        // page is taken for a listing (`docs/todays-web.md`).
        &["Electrics", "Sign Up", "Terms of Service", "HomeFix Community.", "Community rules"],
    );
}

#[test]
fn a_listing_keeps_every_card_and_not_sorting_or_pagination() {
    let text = check(
        "listing",
        &[
            "Walking Boots",
            "Ridgeline GTX Mid Boot",
            "A light waterproof boot with a grippy sole for rocky paths.",
            "Fellwalker Leather Classic",
            "Ridgeline Winter Pro",
            "Fellwalker Vegan Hiker",
            "Tough, easy to lace and made for puddles.",
        ],
        // Known gap: the facet sidebar's values ("Under £100") are kept.
        &["Sort by", "Price: low to high", "Next", "newsletter", "Cart (0)", "Returns"],
    );
    // Known gap: the cards' prices score at the page's cut. The model of
    // December 1, later, takes this page for a service page (0.49) over
    // a collection (0.36) and a listing (0.11), and cuts at 0.28: every
    // title (0.41-0.50) and blurb is kept, and the prices, scored
    // 0.22-0.40 and lower the further down the grid, from the third card
    // on are not. (The model before kept every price and four titles.)
    // Keeping a grid's cards alike (a kind of block kept on most cards
    // kept on all) was measured twice on WCXB-dev and the WCEB sets and
    // changed nothing there (`docs/todays-web.md`).
    for title in [
        "Ridgeline GTX Mid Boot",
        "Fellwalker Leather Classic",
        "Summit Trail Lite",
        "Ridgeline Winter Pro",
        "Fellwalker Vegan Hiker",
        "Summit Kids Explorer",
    ] {
        assert!(text.contains(title), "every card's title: {title}\n{text}");
    }
    let prices = ["£129.00", "£159.00", "£99.00", "£189.00", "£139.00", "£59.00"];
    let kept = prices.iter().filter(|p| text.contains(*p)).count();
    assert!(kept >= 2, "{kept} of the six prices kept:\n{text}");
}

#[test]
fn a_service_page_keeps_every_section_and_not_the_cookie_banner() {
    check(
        "service",
        &[
            "Backups you never have to think about",
            "Hourly snapshots",
            "not even our staff can read it",
            "$9 per device per month",
            "Where is my data stored?",
            "you can export all your backups before you leave",
        ],
        &["We use cookies", "Accept all", "Careers", "All rights reserved", "Log in"],
    );
    assert_eq!(learned("service").1, "service");
}

#[test]
fn a_product_page_keeps_its_name_price_and_specifications() {
    check(
        "product",
        &[
            "Copper Kettle 1.7 L",
            "£89.00",
            "Copper with an oak handle",
            "Gas, electric and induction",
        ],
        // Not the offer's data either, a script's JSON that the style
        // sheet hides.
        &["Dining", "Set of Four Mugs", "Oak Trivet", "© 2025 Hearth", "displayPrice"],
    );
    assert_eq!(learned("product").1, "product");
}

#[test]
fn a_product_page_keeps_what_its_hidden_tabs_hold() {
    // The specifications and care tabs are `hidden` until a reader
    // clicks them: content all the same (`document::stats`'s
    // disclosure panels), read and scored like the details tab. A
    // hidden modal is not read at all.
    let text = check(
        "product-tabs",
        &[
            "Trailhead 28 Daypack",
            "back panel is a ventilated mesh",
            "Hand wash in cool water with a mild soap",
        ],
        &["Summit 18 Daypack", "Sign up for 10% off", "© 2025 Ridgeline", "Footwear"],
    );
    // Known gap: a specifications table is scored cell by cell, each
    // between 0.3 and 0.6, and part of it is kept (`docs/todays-web.md`).
    let specs = ["28 litres", "910 grams", "Recycled ripstop nylon", "Fits torsos from 40"];
    assert!(specs.iter().any(|s| text.contains(s)), "no specification kept:\n{text}");
    assert_eq!(learned("product-tabs").1, "product");
}

#[test]
fn a_docs_page_keeps_its_body_and_code_and_not_its_navigation() {
    check(
        "docs",
        &[
            "Configuring retries",
            "Fetchkit retries a request that failed",
            "client = Client(retry=Retry(attempts=5, max_wait=10.0))",
            "Retry(attempts=3, methods={\"GET\", \"HEAD\", \"PUT\"})",
            "A retried request is sent with the same headers",
        ],
        &[
            "Installation",
            "Proxies",
            "Edit this page",
            "Was this page helpful",
            "On this page",
            "Built with Sphinx",
        ],
    );
}

#[test]
fn an_article_keeps_its_body_and_not_its_comment_section() {
    let (text, page_type) = learned("article-comments");
    assert_eq!(page_type, "article");
    for kept in [
        "Why sourdough starters go sluggish in winter",
        "The culprit is almost always temperature.",
        "let the dough tell you when it is ready",
    ] {
        assert!(text.contains(kept), "{kept:?} is content and was left out:\n{text}");
    }
    // The comment section (its heading, its comments, the reply form) is
    // not the article's content; `--comments` gives it apart.
    for left_out in ["thoughts on", "radiator", "cool box", "Leave a Reply", "The Crumb Journal."] {
        assert!(!text.contains(left_out), "{left_out:?} is not content and was kept:\n{text}");
    }
}

#[test]
fn a_thread_keeps_the_log_a_post_quotes() {
    // The forest reads a long log as boilerplate (separators, symbols, no
    // sentences) and scores it under the page's threshold; code in
    // `article`'s container is kept whatever its score
    // (`PageRows::is_chosen_code`).
    let text = check(
        "forum-log",
        &[
            "This is the part of the log where it fails:",
            "2025-03-11 09:58:12.408 INFO  [main] tally.sync: starting worker pool (size=4, attempt=1)",
            "tally.sync: too many restarts; stopping pool",
            "Do I have to run something by hand after the upgrade?",
            "sudo -u tally tally-admin migrate --ledger /var/lib/tally/ledger.db",
            "the service has been running since",
        ],
        &["Categories", "Sign Up", "Privacy Policy", "Tally Project."],
    );
    assert_eq!(text.matches("cannot open ledger").count(), 41, "every line of the log:\n{text}");
}

/// The page's Markdown and HTML by the learned extractor.
/// Where the shell page gets a body: none, before its footer, or inside
/// it (a footer a broken template left open around the page).
#[derive(PartialEq)]
enum Body {
    None,
    Before,
    Inside,
}

/// The shell page's decision with every block kept (threshold 0), with
/// `<main>` holding a headline and a paragraph where `body` says.
fn shell(body: Body) -> (String, bool) {
    let path = format!("{}/tests/pages/shell.html", env!("CARGO_MANIFEST_DIR"));
    let mut html = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let main = "<main><h1>Enamel Camp Mug 12 oz</h1><p>A speckled enamel mug for coffee at \
                camp, light enough for a day pack and tough enough for the fire.</p></main>";
    let open = "<footer class=\"site-footer\">";
    match body {
        Body::None => {}
        Body::Before => html = html.replacen(open, &format!("{main}{open}"), 1),
        Body::Inside => html = html.replacen(open, &format!("{open}{main}"), 1),
    }
    let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
    let config = LearnedConfig { threshold: Some(0.0), ..LearnedConfig::default() };
    let decision = Learned::new(config).expect("model").decide(&doc);
    (render::text(&doc, &decision.selection), decision.footer_dropped)
}

#[test]
fn a_shell_whose_only_text_is_its_footer_gives_no_text() {
    // Every block kept: all of them lie in the footer, so none is content.
    let (text, dropped) = shell(Body::None);
    assert!(dropped && text.trim().is_empty(), "the footer was kept:\n{text}");
    // The same footer beside a body, or around it, is kept with it at
    // this threshold: a footer holding the page's headline is not one.
    for body in [Body::Before, Body::Inside] {
        let inside = body == Body::Inside;
        let (text, dropped) = shell(body);
        assert!(!dropped, "a page with a body is not its footer alone (inside: {inside})");
        assert!(text.contains("A speckled enamel") && text.contains("Quarry Lane"), "{text}");
    }
}

fn rendered(name: &str) -> (String, String, String) {
    let doc = page(name);
    let decision = Learned::new(LearnedConfig::default()).expect("model").decide(&doc);
    let options = render::RenderOptions::default();
    let sel = &decision.selection;
    (
        render::markdown(&doc, sel, options),
        render::html(&doc, sel, options),
        render::text(&doc, sel),
    )
}

#[test]
fn a_threads_posts_are_set_apart_in_markdown_and_html() {
    // Issue 30: one item or section per post. The posts are `<div>`s,
    // which the renderers unwrap: without records the three run on.
    let (md, html, text) = rendered("forum");
    let posts: Vec<&str> = md.split("\n\n---\n\n").collect();
    assert_eq!(posts.len(), 3, "a rule between each two posts:\n{md}");
    assert!(posts[0].contains("Every morning the pressure gauge"), "{md}");
    assert!(posts[1].contains("plumbdave") && posts[1].contains("relief valve is passing"), "{md}");
    assert!(posts[2].contains("the pressure has held at 1.4 bar since"), "{md}");
    assert_eq!(html.matches("<article>").count(), 4, "the fragment and a post each:\n{html}");
    assert_eq!(html.matches("<hr>").count(), 2, "{html}");
    assert!(!text.contains("---"), "text output is the words alone:\n{text}");
}

#[test]
fn a_grids_cards_are_list_items_in_markdown_and_html() {
    // Six cards as `<div class="product-tile">`: each card one list
    // item, its blurb and price inside it, whatever parts of it the
    // model kept.
    let (md, html, text) = rendered("grid");
    let items: Vec<&str> = md.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(items.len(), 6, "one item per card:\n{md}");
    for price in ["£68.00", "£94.00", "£52.00", "£75.00"] {
        assert!(md.contains(&format!("\n  {price}")), "{price} inside its card's item:\n{md}");
    }
    assert_eq!(html.matches("<ul>").count(), 1, "{html}");
    assert_eq!(html.matches("<li>").count(), 6, "{html}");
    assert!(!md.contains("Sort by") && !md.contains("Next"), "{md}");
    assert!(!text.lines().any(|l| l.starts_with("- ")), "text output has no bullets:\n{text}");
}

/// `article` reads the page once for its selection and the page's type:
/// the same selection as its `extract`, the same probabilities as the
/// classifier run on its own.
#[test]
fn article_classified_in_one_reading_is_article_and_the_classifier() {
    use gleaner::extract::{learned, Article, Extractor};
    use gleaner::metadata::Metadata;
    for name in ["forum", "listing", "service", "product", "docs", "article-comments"] {
        let doc = page(name);
        let meta = Metadata::extract(&doc);
        let once = Article::default().extract_classified_with(&doc, &meta);
        let selection = Article::default().extract(&doc);
        assert_eq!(render::text(&doc, &once.selection), render::text(&doc, &selection), "{name}");
        let probabilities = learned::classify(&doc, &meta).expect("the model has a classifier");
        assert_eq!(once.type_probabilities, Some(probabilities), "{name}");
        assert!(once.page_type.is_none(), "{name}: article forces no type");
    }
}
