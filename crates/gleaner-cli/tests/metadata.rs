//! Issue 11, "a complete extractor", through the real binary: the page
//! metadata in json/jsonl records, `--with-metadata`, `--comments`,
//! `is_article` (on handmade pages, the shipped fixtures and the served
//! sites' index and list pages) and the `--precision` / `--recall`
//! presets.

use std::path::{Path, PathBuf};

#[path = "../../../tests/support/shared_data.rs"]
mod shared_data;
mod support;
use support::{gleaner, jsonl, put, run, run_ok, stderr, stdout};

const PARA: &str = "The council voted on Tuesday to rebuild the old bridge over the river, \
    after two years of debate about its cost, its design and the traffic it would carry once \
    the work was done.";

/// A news page with JSON-LD, OpenGraph and a comment section.
fn news_page() -> String {
    format!(
        r#"<html lang="en-GB"><head><title>Bridge to be rebuilt | City Gazette</title>
        <link rel="canonical" href="/news/bridge">
        <meta property="og:site_name" content="City Gazette">
        <meta property="og:type" content="article">
        <meta property="og:image" content="/img/bridge.jpg">
        <meta name="description" content="The council says yes.">
        <script type="application/ld+json">{{"@context": "https://schema.org", "@graph": [
          {{"@type": "NewsArticle", "headline": "Bridge to be rebuilt",
            "author": [{{"@type": "Person", "name": "Jane Roe"}}, {{"@type": "Person", "name": "John Doe"}}],
            "datePublished": "2024-05-01T09:30:00+01:00", "articleSection": "City",
            "keywords": ["bridge", "council"]}}]}}</script></head>
        <body><nav><a href="/">Home</a> <a href="/city">City</a></nav>
        <article><h1>Bridge to be rebuilt</h1><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p></article>
        <section id="comments"><h2>2 comments</h2><ol class="comment-list">
          <li class="comment"><p>About time too, the old one was falling apart.</p></li>
          <li class="comment"><p>What will it cost the taxpayers of this town?</p></li></ol>
          <div id="respond"><form><p>Leave a reply</p><textarea></textarea></form></div>
        </section></body></html>"#
    )
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

fn record(args: &[&str], page: &Path) -> serde_json::Value {
    let out = run_ok(gleaner().args(["extract", "-f", "jsonl"]).args(args).arg(page));
    jsonl(&out).into_iter().next().expect("one record")
}

#[test]
fn jsonl_records_carry_the_page_metadata_and_keep_their_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = put(dir.path(), "news.html", news_page());
    let r = record(&["--url", "https://gazette.example/news/bridge?from=rss"], &page);
    assert_eq!(r["title"], "Bridge to be rebuilt");
    assert_eq!(r["author"], "Jane Roe; John Doe");
    assert_eq!(r["date"], "2024-05-01T09:30:00+01:00");
    assert_eq!(r["site_name"], "City Gazette");
    assert_eq!(r["language"], "en-GB");
    // `url` stays the URL the page came from; the canonical one is apart.
    assert_eq!(r["url"], "https://gazette.example/news/bridge?from=rss");
    assert_eq!(r["canonical_url"], "https://gazette.example/news/bridge");
    assert_eq!(r["description"], "The council says yes.");
    assert_eq!(r["image"], "https://gazette.example/img/bridge.jpg");
    assert_eq!(r["categories"], serde_json::json!(["City"]));
    assert_eq!(r["tags"], serde_json::json!(["bridge", "council"]));
    assert_eq!(r["is_article"], true);
    assert_eq!(r["comments"], serde_json::Value::Null, "only with --comments");
    for key in ["source", "text", "algorithm", "error", "encoding", "bytes"] {
        assert!(r.get(key).is_some(), "{key} kept: {r}");
    }
    // A page that says nothing: nulls and empty lists, every key present.
    let bare = put(dir.path(), "bare.html", "<p>Just a line.</p>");
    let r = record(&[], &bare);
    for key in ["author", "date", "site_name", "language", "canonical_url", "description", "image"]
    {
        assert_eq!(r[key], serde_json::Value::Null, "{key}: {r}");
    }
    assert_eq!(r["categories"], serde_json::json!([]));
    assert_eq!(r["tags"], serde_json::json!([]));
    assert_eq!(r["is_article"], false, "nothing worth the name extracted");
}

#[test]
fn language_is_detected_when_not_declared_and_the_text_is_long_enough() {
    let dir = tempfile::tempdir().expect("tempdir");
    let french = "Le conseil municipal a voté mardi la reconstruction du vieux pont sur la \
        rivière, après deux années de débats sur son coût, sa forme et la circulation qu'il \
        devra porter une fois les travaux terminés. Les habitants attendent depuis longtemps \
        ce moment, et les commerçants du quartier espèrent que le chantier sera court.";
    let page = put(dir.path(), "fr.html", format!("<article><p>{french}</p></article>"));
    assert_eq!(record(&[], &page)["language"], "fr");
    let short =
        put(dir.path(), "short.html", "<article><p>Le pont sera reconstruit.</p></article>");
    assert_eq!(record(&[], &short)["language"], serde_json::Value::Null);
}

#[test]
fn shipped_fixtures_metadata() {
    let ars = record(&[], &fixture("ars-1.html"));
    assert_eq!(ars["site_name"], "Ars Technica");
    assert_eq!(ars["author"], "Dan Goodin");
    assert_eq!(ars["language"], "en-us");
    assert_eq!(ars["is_article"], true);
    let medium = record(&[], &fixture("medium-2.html"));
    assert_eq!(medium["author"], "Courtney Kirchoff");
    assert_eq!(medium["date"], "2015-02-24T19:56:33Z");
    let herald = record(&[], &fixture("herald-sun-1.html"));
    assert_eq!(herald["author"], "Laurie Oakes");
}

#[test]
fn with_metadata_opens_txt_and_markdown_with_front_matter() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = put(dir.path(), "news.html", news_page());
    let header = "---\ntitle: Bridge to be rebuilt\nauthor: Jane Roe; John Doe\n\
        url: https://gazette.example/news/bridge\nhostname: gazette.example\n\
        description: The council says yes.\nsitename: City Gazette\n\
        date: 2024-05-01T09:30:00+01:00\ncategories: City\ntags: bridge; council\n---\n";
    let url = ["--url", "https://gazette.example/news/bridge"];
    // The header is put in front of the text the page gives without it,
    // which is left as it is.
    let extract = |format: &str, with: bool| {
        let mut cmd = gleaner();
        cmd.args(["extract", "-f", format]).args(url);
        if with {
            cmd.arg("--with-metadata");
        }
        stdout(&run_ok(cmd.arg(&page)))
    };
    for format in ["txt", "markdown"] {
        let plain = extract(format, false);
        assert!(plain.contains("The council voted"), "{plain}");
        assert!(!plain.contains("---\n"), "without the flag, no header: {plain}");
        assert_eq!(extract(format, true), format!("{header}{plain}"), "{format}");
    }
}

#[test]
fn comments_are_extracted_apart_and_never_in_the_main_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = put(dir.path(), "news.html", news_page());
    let without = record(&[], &page);
    let with = record(&["--comments"], &page);
    for r in [&without, &with] {
        let text = r["text"].as_str().expect("text");
        assert!(text.contains("The council voted"), "{text}");
        assert!(!text.contains("About time"), "comments stay out of the text: {text}");
    }
    assert_eq!(without["text"], with["text"]);
    assert_eq!(
        with["comments"],
        "2 comments\n\nAbout time too, the old one was falling apart.\n\n\
         What will it cost the taxpayers of this town?"
    );
    let txt = stdout(&run_ok(gleaner().args(["extract", "--comments"]).arg(&page)));
    let (main, comments) =
        txt.split_once("\n\n----- Comments -----\n\n").expect("a separator before the comments");
    assert!(main.contains("The council voted") && !main.contains("About time"), "{txt}");
    assert!(comments.contains("About time") && !comments.contains("Leave a reply"), "{txt}");
    let md =
        stdout(&run_ok(gleaner().args(["extract", "-f", "markdown", "--comments"]).arg(&page)));
    assert!(md.contains("\n\n---\n\n## Comments\n\n## 2 comments\n"), "{md}");
    // A page without comments prints no separator and has null comments.
    let bare = put(dir.path(), "bare.html", format!("<article><p>{PARA}</p></article>"));
    let txt = stdout(&run_ok(gleaner().args(["extract", "--comments"]).arg(&bare)));
    assert!(!txt.contains("Comments"), "{txt}");
    assert_eq!(record(&["--comments"], &bare)["comments"], serde_json::Value::Null);
}

/// The served sites' pages (`../shared/data/sites/<site>/site/<page>`),
/// data outside the repository (`tests/support/shared_data.rs`).
fn site_page(site: &str, page: &str) -> PathBuf {
    shared_data::path("GLEANER_SITES_DIR", "sites").join(site).join("site").join(page)
}

#[test]
fn is_article_is_false_on_index_list_and_search_pages_and_true_on_articles() {
    if shared_data::require(shared_data::path("GLEANER_SITES_DIR", "sites")).is_none() {
        return;
    }
    // Index, list and search pages of the served sites (see each site's
    // SOURCE.md): Sphinx's generated index and search pages (nearly
    // empty), the lesson's key-points summary (a run of linked episode
    // titles, each with its list) and its image list, and the near-empty
    // placeholder, resources and not-found pages.
    let listings = [
        ("linux-shell", "genindex/index.html"),
        ("linux-shell", "search/index.html"),
        ("shell-novice", "key-points.html"),
        ("shell-novice", "images.html"),
        ("shell-novice", "profiles.html"),
        ("shell-novice", "404.html"),
        ("shell-novice", "resources.html"),
    ];
    let articles = [
        ("linux-shell", "loops/index.html"),
        ("linux-shell", "processes/index.html"),
        ("shell-novice", "03-create.html"),
        ("shell-novice", "05-loop.html"),
    ];
    // `is_article` is `page_type == article` (issue 30): the lessons are
    // documentation pages, content pages that are not articles; the
    // listings are neither.
    for (site, page) in listings.iter().chain(&articles) {
        let path = site_page(site, page);
        assert!(path.is_file(), "missing site page {}", path.display());
        let r = record(&[], &path);
        let t = r["page_type"].as_str().expect("page_type").to_string();
        assert_eq!(r["is_article"], t == "article", "{site}/{page}: {t}");
        if articles.contains(&(site, page)) {
            assert!(t == "article" || t == "documentation", "{site}/{page}: {t}");
        } else {
            assert_eq!(r["is_article"], false, "{site}/{page}: {t}");
        }
    }
    for name in ["ars-1", "heise", "herald-sun-1", "lemonde-1", "medium-2"] {
        let r = record(&[], &fixture(&format!("{name}.html")));
        assert_eq!(
            (&r["page_type"], &r["is_article"]),
            (&"article".into(), &true.into()),
            "{name}"
        );
    }
    // An online book's chapter: an article or documentation.
    let r = record(&[], &fixture("google-sre-book-1.html"));
    assert!(r["page_type"] == "article" || r["page_type"] == "documentation", "{r}");
}

#[test]
fn precision_and_recall_presets_move_the_decision_and_exclude_each_other() {
    // Doubtful blocks inside the article: a paragraph with 40 % of its
    // text in links (kept by default, left out by --precision) and one
    // with 60 % (left out by default, kept by --recall).
    let dir = tempfile::tempdir().expect("tempdir");
    let body: String = (1..=4).map(|i| format!("<p>Part {i}. {PARA}</p>")).collect();
    let forty =
        "<p>Unlinked words of this one here <a href=/x>and the linked words here</a> ok.</p>";
    let sixty =
        "<p>Some unlinked words <a href=/y>then linked words of this paragraph</a> end.</p>";
    let page = put(dir.path(), "doubt.html", format!("<article>{body}{forty}{sixty}</article>"));
    // The presets over `article`'s parameters.
    let text = |flags: &[&str]| -> String {
        stdout(&run_ok(gleaner().args(["extract", "-a", "article"]).args(flags).arg(&page)))
    };
    let kept = |t: &str| (t.contains("Unlinked words"), t.contains("Some unlinked words"));
    assert_eq!(kept(&text(&[])), (true, false), "{}", text(&[]));
    assert_eq!(kept(&text(&["--precision"])), (false, false), "{}", text(&["--precision"]));
    assert_eq!(kept(&text(&["--recall"])), (true, true), "{}", text(&["--recall"]));
    // -p after a preset overrides it.
    assert_eq!(kept(&text(&["--precision", "-p", "link_quota=0.5"])), (true, false));
    // The default's: a shift of every page type's threshold.
    let default = |flags: &[&str]| -> String {
        stdout(&run_ok(gleaner().arg("extract").args(flags).arg(&page)))
    };
    assert_eq!(default(&["--precision"]), default(&["-p", "shift=0.15"]));
    assert_eq!(default(&["--recall"]), default(&["-p", "shift=-0.15"]));
    let both = run(gleaner().args(["extract", "--precision", "--recall"]).arg(&page));
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    let other = run(gleaner().args(["extract", "-a", "ttr", "--precision"]).arg(&page));
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("--precision tunes the default extractor"),
        "{}",
        stderr(&other)
    );
    let eval = run(gleaner().args(["eval", "--algorithms", "plain", "--recall"]));
    assert_eq!(eval.status.code(), Some(2), "{}", stderr(&eval));
}
