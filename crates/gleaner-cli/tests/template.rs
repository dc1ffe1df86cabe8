//! The command-line contract of site templates, driven through the real
//! binary on small synthetic sites: `template cluster | learn | show`,
//! `extract --template`, `extract --site-templates` and
//! `eval --site-templates`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::{gleaner, jsonl, put, run, run_ok, stderr, stdout};

// ---------------------------------------------------------------------------
// Synthetic sites: two templates with clearly different markup and repeated
// navigation and footer text, and article paragraphs that differ per page.

/// Pages per synthetic site.
const SITE_PAGES: usize = 5;

/// Template text of site A (the Harbor Gazette), on every one of its pages.
const A_NAV: &str = "Tide tables and harbour notices";
const A_FOOTER: &str =
    "The Harbor Gazette is published by the Harbor Press Cooperative since 1921.";
/// Template text of site B (the Alpine Tech Journal).
const B_NAV: &str = "Firmware downloads and release notes";
const B_FOOTER: &str =
    "Alpine Tech Journal, independent reviews of mountain electronics since 2004.";

const TOPICS: [&str; 10] = [
    "lighthouse",
    "ferry",
    "fish market",
    "sea wall",
    "regatta",
    "avalanche beacon",
    "ski lift",
    "altimeter",
    "satellite phone",
    "snow radar",
];
const PLACES: [&str; 10] = [
    "Northport",
    "Kelby",
    "Saltmarsh",
    "Wexcombe",
    "Dunmore",
    "Brixen",
    "Zermatt",
    "Lienz",
    "Davos",
    "Bormio",
];
const MONTHS: [&str; 10] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
];

/// Three article paragraphs for page `n` (0..10): no sentence repeats on
/// another page.
fn article(n: usize) -> [String; 3] {
    let (topic, place, month) = (TOPICS[n], PLACES[n], MONTHS[n]);
    [
        format!(
            "The {topic} of {place} drew an unusual crowd in {month}, when residents gathered \
             to hear the council explain why the old plans had been set aside for good."
        ),
        format!(
            "Engineers working on the {topic} said the {month} schedule in {place} was tight, \
             but that the budget of {} thousand would cover the repairs and the survey.",
            120 + 17 * n
        ),
        format!(
            "Several families in {place} wrote to say that the {topic} mattered more to them \
             than any new road, and asked that the work begin before the end of {month}."
        ),
    ]
}

/// The first sentence of page `n`'s article: kept by any extraction.
fn lead(n: usize) -> String {
    article(n)[0].clone()
}

fn paragraphs(n: usize) -> String {
    article(n).iter().map(|p| format!("<p>{p}</p>")).collect()
}

/// A page of site A: a `div` layout with a link list on top and a two-line
/// footer.
fn site_a_page(n: usize) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>{title} | Harbor Gazette</title></head><body>\
         <div id=top><div class=brand>Harbor Gazette</div><ul class=nav>\
         <li><a href=/>Front page</a></li><li><a href=/local>Local news</a></li>\
         <li><a href=/tides>{A_NAV}</a></li><li><a href=/letters>Letters to the editor</a></li>\
         </ul></div><div class=main><div class=story><h1>{title}</h1>{photo}{body}</div>\
         <div class=side><h3>Most read this week</h3>\
         <ul><li><a href=/r1>Council votes on parking</a></li>\
         <li><a href=/r2>Harbour dredging delayed again</a></li></ul></div></div>\
         <div id=foot><p>{A_FOOTER}</p>\
         <p>Subscribe for unlimited access to the coastal archive.</p></div>\
         </body></html>",
        title = format!("News of the {} in {}", TOPICS[n], PLACES[n]),
        photo = if n % 2 == 1 {
            let place = PLACES[n];
            format!("<figure><img src=/p{n}.jpg><figcaption>Photo: {place}</figcaption></figure>")
        } else {
            String::new()
        },
        body = paragraphs(n)
    )
}

/// A page of site B: HTML5 sectioning elements, a table of specifications
/// and a footer with its own text.
fn site_b_page(n: usize) -> String {
    format!(
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>\
         <title>Review: {title}</title></head><body>\
         <header><span class=logo>Alpine Tech Journal</span><nav><a href=/reviews>Reviews</a> \
         <a href=/guides>Buying guides</a> <a href=/fw>{B_NAV}</a></nav></header>\
         <main><article><header><h2>{title}</h2><time>2024</time></header>\
         <section>{body}</section><section><table><tr><th>Weight</th><td>{w} g</td></tr>\
         <tr><th>Battery</th><td>{b} h</td></tr>{extra}</table></section></article>\
         <aside><form><input name=q><button>Search the journal</button></form></aside></main>\
         <footer><small>{B_FOOTER}</small><em>All prices include VAT.</em></footer>\
         </body></html>",
        title = format!("the {} from {}", TOPICS[n], PLACES[n]),
        body = paragraphs(n),
        w = 100 + n,
        b = 10 + n,
        extra = "<tr><th>Option</th><td>yes</td></tr>".repeat(n % 3)
    )
}

/// The text of the stray page, which shares no template with either site.
const STRAY_TEXT: &str = "My grandmother kept bees behind the orchard, and every autumn the \
    whole village came to taste the heather honey she had saved in stone jars.";

/// A personal page in an old table layout, shared with no site; `text` is
/// its story.
fn stray_page(text: &str) -> String {
    format!(
        "<html><body><table width=100%>\
         <tr><td bgcolor=#eee><font size=5>Personal pages</font></td></tr>\
         <tr><td><center><font face=serif><b>A story</b><br>{text}<br><br>She never sold a \
         single jar, though the baker offered twice what the market paid.</font></center>\
         </td></tr>\
         </table></body></html>"
    )
}

/// The synthetic corpus: `a/` and `b/` with [`SITE_PAGES`] pages each
/// (articles 0..5 for A, 5..10 for B), and `stray/` with one page.
struct Corpus {
    dir: tempfile::TempDir,
}

impl Corpus {
    fn new() -> Corpus {
        let dir = tempfile::tempdir().expect("tempdir");
        for i in 0..SITE_PAGES {
            put(dir.path(), &format!("a/page{i}.html"), site_a_page(i));
            put(dir.path(), &format!("b/page{i}.html"), site_b_page(SITE_PAGES + i));
        }
        put(dir.path(), "stray/honey.html", stray_page(STRAY_TEXT));
        Corpus { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// The source name gleaner gives `rel` when reading its folder.
    fn source(&self, rel: &str) -> String {
        self.path(rel).display().to_string()
    }

    /// These folders of the corpus.
    fn dirs(&self, rels: &[&str]) -> Vec<PathBuf> {
        rels.iter().map(|r| self.path(r)).collect()
    }

    /// The sources of one site's pages (`a` or `b`), in order.
    fn site(&self, site: &str) -> Vec<String> {
        (0..SITE_PAGES).map(|i| self.source(&format!("{site}/page{i}.html"))).collect()
    }

    /// Every page of the corpus in gleaner's reading order, with its
    /// article lead (the stray page: its story).
    fn pages(&self) -> Vec<(String, String)> {
        let a = self.site("a").into_iter().zip((0..SITE_PAGES).map(lead));
        let b = self.site("b").into_iter().zip((SITE_PAGES..2 * SITE_PAGES).map(lead));
        let stray = (self.source("stray/honey.html"), STRAY_TEXT.to_string());
        a.chain(b).chain(std::iter::once(stray)).collect()
    }

    /// Learns site `site`'s model into the corpus folder (outside the
    /// sites' folders) and returns its path.
    fn learn(&self, site: &str) -> PathBuf {
        let model = self.path(&format!("{site}.model"));
        run_ok(
            gleaner()
                .args(["template", "learn", "--input-dir"])
                .arg(self.path(site))
                .arg("-o")
                .arg(&model),
        );
        model
    }
}

/// `template cluster` with an `--input-dir` for each of `dirs`.
fn cluster_cmd(dirs: &[PathBuf]) -> Command {
    let mut cmd = gleaner();
    cmd.args(["template", "cluster"]);
    for dir in dirs {
        cmd.arg("--input-dir").arg(dir);
    }
    cmd
}

/// The JSON report of `template cluster` over `dirs` with `extra` flags.
fn cluster_json(dirs: &[PathBuf], extra: &[&dyn AsRef<OsStr>]) -> serde_json::Value {
    let out = run_ok(cluster_cmd(dirs).args(["--format", "json"]).args(extra));
    serde_json::from_slice(&out.stdout).expect("cluster prints JSON")
}

/// The clusters of a report, each as a sorted list, in a sorted list.
fn clusters(report: &serde_json::Value) -> Vec<Vec<String>> {
    let mut all: Vec<Vec<String>> = report["clusters"]
        .as_array()
        .expect("clusters array")
        .iter()
        .map(|c| {
            let mut members: Vec<String> = c
                .as_array()
                .expect("a cluster is an array")
                .iter()
                .map(|m| m.as_str().expect("a member is a path").to_string())
                .collect();
            members.sort();
            members
        })
        .collect();
    all.sort();
    all
}

fn cluster_count(report: &serde_json::Value) -> usize {
    report["clusters"].as_array().map_or(0, Vec::len)
}

/// The keys of a JSON object, sorted.
fn keys(v: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = v.as_object().expect("object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

fn number(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

const LABELS: &str = "--labels-from-input-dir";

// ---------------------------------------------------------------------------
// template cluster

#[test]
fn cluster_json_finds_the_two_sites_with_perfect_indices() {
    let corpus = Corpus::new();
    let report = cluster_json(&corpus.dirs(&["a", "b"]), &[&LABELS]);
    assert_eq!(keys(&report), ["clusters", "distance", "dunn_index", "rand_index", "threshold"]);
    assert_eq!(clusters(&report), [corpus.site("a"), corpus.site("b")]);
    assert_eq!(number(&report, "rand_index"), 1.0);
    assert!(number(&report, "dunn_index") > 1.0, "{report}");
    assert_eq!(report["distance"], "cp");
    assert_eq!(number(&report, "threshold"), 0.7);
}

#[test]
fn cluster_without_labels_has_no_indices() {
    let corpus = Corpus::new();
    let report = cluster_json(&corpus.dirs(&["a", "b", "stray"]), &[]);
    assert_eq!(keys(&report), ["clusters", "distance", "threshold"]);
    let stray = vec![corpus.source("stray/honey.html")];
    assert_eq!(clusters(&report), [corpus.site("a"), corpus.site("b"), stray]);
    let md = stdout(&run_ok(&mut cluster_cmd(&corpus.dirs(&["a", "b"]))));
    assert!(md.starts_with("2 clusters of 10 pages"), "{md}");
    assert!(!md.contains("Rand index") && !md.contains("Dunn index"), "{md}");
}

#[test]
fn every_distance_separates_the_sites_and_echoes_its_threshold() {
    let corpus = Corpus::new();
    for (distance, threshold) in [("cp", 0.7), ("cps", 0.6), ("ctss", 0.85), ("rtdm", 0.2)] {
        let report = cluster_json(&corpus.dirs(&["a", "b"]), &[&LABELS, &"--distance", &distance]);
        assert_eq!(report["distance"], distance);
        assert_eq!(number(&report, "threshold"), threshold, "{distance}");
        assert_eq!(clusters(&report), [corpus.site("a"), corpus.site("b")], "{distance}");
        assert_eq!(number(&report, "rand_index"), 1.0, "{distance}");
        assert!(number(&report, "dunn_index") > 1.0, "{distance}: {report}");
    }
}

#[test]
fn a_given_threshold_is_echoed_and_used() {
    let corpus = Corpus::new();
    // Pages of the two sites are 0.9 or more apart by cp: 0.95 joins them.
    let report = cluster_json(&corpus.dirs(&["a", "b"]), &[&LABELS, &"--threshold", &"0.95"]);
    assert_eq!(number(&report, "threshold"), 0.95);
    assert_eq!(cluster_count(&report), 1, "{report}");
    let rand = number(&report, "rand_index");
    assert!(rand < 0.6, "one cluster for two classes: Rand {rand}");
}

#[test]
fn cluster_markdown_lists_every_cluster_and_page() {
    let corpus = Corpus::new();
    let out = run_ok(cluster_cmd(&corpus.dirs(&["a", "b"])).args(["--format", "md", LABELS]));
    let md = stdout(&out);
    assert!(md.starts_with("2 clusters of 10 pages (cp distance, threshold 0.7)\n"), "{md}");
    assert!(md.contains("Rand index 1.0000\n"), "{md}");
    assert!(md.contains("\nDunn index "), "{md}");
    for (i, site) in ["a", "b"].into_iter().enumerate() {
        let heading = format!("## Cluster {} (5 pages)\n\n", i + 1);
        let start = md.find(&heading).unwrap_or_else(|| panic!("{heading} missing: {md}"));
        let list: Vec<String> = corpus.site(site).iter().map(|p| format!("- {p}")).collect();
        assert!(md[start + heading.len()..].starts_with(&list.join("\n")), "{site}: {md}");
    }
}

/// Checks a `--distances` file: tab-separated `a b d` lines, one for each
/// pair of `sources`, `d` in [0, 1], small within a folder and large
/// across folders.
fn check_distances(tsv: &Path, sources: &[String]) {
    let text = std::fs::read_to_string(tsv).expect("distances written");
    let folder = |s: &str| Path::new(s).parent().map(Path::to_path_buf);
    let mut pairs = std::collections::BTreeSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let known = |f: &str| sources.iter().any(|s| s == f);
        assert!(known(fields[0]) && known(fields[1]) && fields[0] != fields[1], "{line}");
        let d: f64 = fields[2].parse().expect("a number");
        assert!((0.0..=1.0).contains(&d), "{line}");
        if folder(fields[0]) == folder(fields[1]) {
            assert!(d < 0.5, "{line}");
        } else {
            assert!(d > 0.7, "{line}");
        }
        let mut pair = [fields[0], fields[1]];
        pair.sort_unstable();
        assert!(pairs.insert(pair), "pair twice: {line}");
    }
    let n = sources.len();
    assert_eq!(pairs.len(), n * (n - 1) / 2);
}

#[test]
fn distances_file_has_one_line_per_pair() {
    let corpus = Corpus::new();
    let tsv = corpus.path("distances.tsv");
    cluster_json(&corpus.dirs(&["a", "b", "stray"]), &[&"--distances", &tsv]);
    let sources: Vec<String> = corpus.pages().into_iter().map(|(s, _)| s).collect();
    check_distances(&tsv, &sources);
}

#[test]
fn singletons_are_each_a_class_of_their_own() {
    let corpus = Corpus::new();
    // Two personal pages in the same table layout.
    let twins = corpus.path("twins");
    put(&twins, "one.html", stray_page(STRAY_TEXT));
    put(
        &twins,
        "two.html",
        stray_page(
            "The mill by the river ground corn for three parishes until the flood took its wheel.",
        ),
    );
    // As one --input-dir, the twins are one class: the clustering is right.
    let together = cluster_json(&corpus.dirs(&["a", "twins"]), &[&LABELS]);
    assert_eq!(cluster_count(&together), 2, "{together}");
    assert_eq!(number(&together, "rand_index"), 1.0);
    // As --singletons, each is its own class: clustering them together
    // (they share a layout) now disagrees with the truth on that pair.
    let apart = cluster_json(&corpus.dirs(&["a"]), &[&LABELS, &"--singletons", &twins]);
    assert_eq!(clusters(&apart), clusters(&together));
    let rand = number(&apart, "rand_index");
    // 7 pages, 21 pairs: only the twins' pair disagrees.
    assert!((rand - 20.0 / 21.0).abs() < 1e-9, "Rand {rand}");
}

#[test]
fn an_unreadable_page_is_reported_and_left_out() {
    let corpus = Corpus::new();
    let broken = put(corpus.root(), "a/broken.html", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10");
    let tsv = corpus.path("distances.tsv");
    let out = run_ok(
        cluster_cmd(&corpus.dirs(&["a", "b"]))
            .args(["--format", "json", LABELS, "--distances"])
            .arg(&tsv),
    );
    let broken = broken.display().to_string();
    assert!(stderr(&out).contains(&format!("{broken}: cannot be read")), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(clusters(&report), [corpus.site("a"), corpus.site("b")]);
    assert_eq!(number(&report, "rand_index"), 1.0);
    check_distances(&tsv, &[corpus.site("a"), corpus.site("b")].concat());
}

#[test]
fn an_empty_or_missing_input_dir_is_an_error() {
    let corpus = Corpus::new();
    std::fs::create_dir(corpus.path("empty")).expect("mkdir");
    let out = run(&mut cluster_cmd(&corpus.dirs(&["empty"])));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no pages"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let out = run(&mut cluster_cmd(&corpus.dirs(&["missing"])));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let missing = corpus.source("missing");
    assert!(stderr(&out).contains(&format!("cannot read directory {missing}")), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_input_dir_names_its_cause_once() {
    let corpus = Corpus::new();
    let out = run(&mut cluster_cmd(&corpus.dirs(&["missing"])));
    let err = stderr(&out);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn dunn_index_of_identical_layouts_is_not_null() {
    let corpus = Corpus::new();
    // Articles 0, 2, 4 of site A and 5, 8 of site B: the same markup
    // within each site.
    for n in [0, 2, 4] {
        put(corpus.root(), &format!("same-a/{n}.html"), site_a_page(n));
    }
    for n in [5, 8] {
        put(corpus.root(), &format!("same-b/{n}.html"), site_b_page(n));
    }
    let report = cluster_json(&corpus.dirs(&["same-a", "same-b"]), &[&LABELS]);
    assert_eq!(number(&report, "rand_index"), 1.0);
    assert!(!report["dunn_index"].is_null(), "a perfect separation reads as undefined: {report}");
}

// ---------------------------------------------------------------------------
// template learn | show

/// `template show MODEL` with `extra` arguments, as HTML.
fn show(model: &Path, extra: &[&dyn AsRef<OsStr>]) -> String {
    stdout(&run_ok(gleaner().args(["template", "show"]).arg(model).args(extra)))
}

#[test]
fn learn_writes_a_model_that_show_lays_out() {
    let corpus = Corpus::new();
    let model = corpus.learn("a");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&model).expect("model written")).expect("JSON");
    assert_eq!(json["pages"], 5, "{json}");
    let html = show(&model, &[]);
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    for text in [A_NAV, A_FOOTER, "Letters to the editor"] {
        assert!(html.contains(&format!("<td>{text}</td>")), "{text} missing: {html}");
    }
    assert!(!html.contains("<mark"), "no page, nothing marked: {html}");
    assert!(!html.contains(&lead(2)), "an article is no template: {html}");
    // -o writes the same page to a file.
    let file = corpus.path("a.html");
    let out = run_ok(gleaner().args(["template", "show"]).arg(&model).arg("-o").arg(&file));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).expect("written"), html);
}

#[test]
fn show_with_a_page_marks_its_template_text() {
    let corpus = Corpus::new();
    let model = corpus.learn("a");
    let html = show(&model, &[&"--page", &corpus.path("a/page2.html")]);
    for text in [A_NAV, A_FOOTER, "Front page"] {
        assert!(html.contains(&format!("<p><mark class=t>{text}</mark></p>")), "{text}: {html}");
    }
    for paragraph in article(2) {
        assert!(html.contains(&format!("<p>{paragraph}</p>")), "{paragraph} marked: {html}");
    }
    // The same model on a page of the other site marks nothing of it.
    let html = show(&model, &[&"--page", &corpus.path("b/page0.html")]);
    let page = &html[html.find("<div class=page>").expect("page shown")..];
    assert!(
        page.contains(B_NAV) && page.contains(&format!("<p>{}</p>", lead(SITE_PAGES))),
        "{page}"
    );
    assert!(!page.contains("<mark"), "{page}");
    // The page is parsed with the command's limits (issue 13).
    let out = run(gleaner()
        .args(["template", "show"])
        .arg(&model)
        .args(["--max-elements", "3"])
        .arg("--page")
        .arg(corpus.path("a/page2.html")));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("elements"), "{}", stderr(&out));
}

#[test]
fn show_keeps_the_space_between_links() {
    let corpus = Corpus::new();
    let model = corpus.learn("b");
    let html = show(&model, &[&"--page", &corpus.path("b/page0.html")]);
    let nav = format!("<mark class=t>Reviews Buying guides {B_NAV}</mark>");
    assert!(html.contains(&nav), "{html}");
}

#[test]
fn learning_from_one_page_is_an_error() {
    let corpus = Corpus::new();
    let model = corpus.path("stray.model");
    let out = run(gleaner()
        .args(["template", "learn", "--input-dir"])
        .arg(corpus.path("stray"))
        .arg("-o")
        .arg(&model));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 readable page(s) is too few"), "{}", stderr(&out));
    assert!(!model.exists());
}

/// Broken model files in `dir`, each with what the error says about it.
fn broken_models(dir: &Path, good: &Path) -> Vec<(PathBuf, &'static str)> {
    let json = std::fs::read_to_string(good).expect("model");
    assert!(json.contains("\"version\":1"), "{json}");
    vec![
        (put(dir, "cut.model", &json[..json.len() / 2]), "not a gleaner template model"),
        (put(dir, "other.json", r#"{"clusters": [["a.html"]]}"#), "not a gleaner template model"),
        (put(dir, "future.model", json.replace("\"version\":1", "\"version\":99")), "version"),
        (dir.join("missing.model"), "cannot read template model"),
    ]
}

#[test]
fn a_broken_model_is_a_clear_error() {
    let corpus = Corpus::new();
    let good = corpus.learn("a");
    let page = corpus.path("a/page0.html");
    for (model, says) in broken_models(corpus.root(), &good) {
        let name = model.display().to_string();
        for (what, mut cmd) in [("show", gleaner()), ("extract", gleaner())] {
            match what {
                "show" => cmd.args(["template", "show"]).arg(&model),
                _ => cmd.arg("extract").arg(&page).arg("--template").arg(&model),
            };
            let out = run(&mut cmd);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{what} {name}: {err}");
            assert!(err.contains(&name) && err.contains(says), "{what} {name}: {err}");
            assert!(out.stdout.is_empty(), "{what} {name}");
        }
    }
}

#[test]
fn a_wrong_version_is_named_as_a_number() {
    let corpus = Corpus::new();
    let good = corpus.learn("a");
    let (model, _) = broken_models(corpus.root(), &good).swap_remove(2);
    let out = run(gleaner().args(["template", "show"]).arg(&model));
    let err = stderr(&out);
    assert!(err.contains("version 99") && !err.contains("Some("), "{err}");
}

// ---------------------------------------------------------------------------
// extract --template

/// `extract PAGE -a ALGORITHM` with `extra` arguments.
fn extract(page: &Path, algorithm: &str, extra: &[&dyn AsRef<OsStr>]) -> Output {
    run(gleaner().arg("extract").arg(page).args(["-a", algorithm]).args(extra))
}

/// The text `extract` prints for `page` with `extra` arguments.
fn extract_text(page: &Path, algorithm: &str, extra: &[&dyn AsRef<OsStr>]) -> String {
    let out = extract(page, algorithm, extra);
    assert!(out.status.success(), "{algorithm}: {}", stderr(&out));
    stdout(&out)
}

/// Asserts `text` holds none of `gone` and all of `kept`.
fn assert_text(text: &str, gone: &[&str], kept: &[&str], what: &str) {
    for g in gone {
        assert!(!text.contains(g), "{what}: {g:?} should be gone: {text}");
    }
    for k in kept {
        assert!(text.contains(k), "{what}: {k:?} should be kept: {text}");
    }
}

#[test]
fn a_template_is_set_aside_before_plain_and_entropy() {
    let corpus = Corpus::new();
    let model = corpus.learn("a");
    let page = corpus.path("a/page2.html");
    let template = [A_NAV, A_FOOTER, "Front page", "Most read this week"];
    let article = article(2);
    let article: Vec<&str> = article.iter().map(String::as_str).collect();
    // Without a template, plain keeps the template text.
    let text = extract_text(&page, "plain", &[]);
    assert_text(&text, &[], &[template.as_slice(), &article].concat(), "plain alone");
    for algorithm in ["plain", "entropy"] {
        let text = extract_text(&page, algorithm, &[&"--template", &model]);
        assert_text(&text, &template, &article, algorithm);
    }
}

#[test]
fn entropy_without_a_template_is_a_usage_error() {
    let corpus = Corpus::new();
    let out = extract(&corpus.path("a/page0.html"), "entropy", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("entropy needs a template"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_model_keeps_the_text_of_an_unrelated_page() {
    let corpus = Corpus::new();
    let model = corpus.learn("a");
    let text = extract_text(&corpus.path("stray/honey.html"), "entropy", &[&"--template", &model]);
    assert_text(&text, &[], &["Personal pages", STRAY_TEXT], "stray page");
    let out =
        extract(&corpus.path("b/page0.html"), "entropy", &[&"--template", &model, &"-f", &"jsonl"]);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let text = record["text"].as_str().expect("text");
    assert_text(text, &[], &[B_NAV, B_FOOTER, &lead(SITE_PAGES)], "site B page");
    assert_eq!(record["template_applied"], true, "{record}");
    assert!(record["template_cluster_size"].is_null(), "{record}");
}

// ---------------------------------------------------------------------------
// extract --site-templates

/// `extract --input-dir CORPUS -a ALGORITHM` with `extra` arguments.
fn extract_corpus(corpus: &Corpus, algorithm: &str, extra: &[&str]) -> Output {
    run_ok(
        gleaner()
            .args(["extract", "--no-progress", "-a", algorithm, "--input-dir"])
            .arg(corpus.root())
            .args(extra),
    )
}

/// The template text of the site a source belongs to (none for the
/// stray page).
fn template_of(corpus: &Corpus, source: &str) -> Vec<&'static str> {
    if source.starts_with(&corpus.source("a/")) {
        vec![A_NAV, A_FOOTER]
    } else if source.starts_with(&corpus.source("b/")) {
        vec![B_NAV, B_FOOTER]
    } else {
        vec![]
    }
}

/// Checks jsonl records against the corpus pages, in order: the source,
/// the article lead kept, the cluster size and whether a model was
/// applied (`applied` for the site pages; never for the stray page).
fn check_site_records(corpus: &Corpus, records: &[serde_json::Value], applied: bool) {
    let pages = corpus.pages();
    assert_eq!(records.len(), pages.len());
    for (record, (source, lead)) in records.iter().zip(&pages) {
        assert_eq!(record["source"], source.as_str());
        let text = record["text"].as_str().expect("text");
        let template = template_of(corpus, source);
        let size = if template.is_empty() { 1 } else { SITE_PAGES };
        assert_eq!(record["template_cluster_size"], size, "{record}");
        assert_eq!(record["template_applied"], applied && size > 1, "{record}");
        let (gone, kept) = if applied { (template, vec![]) } else { (vec![], template) };
        assert_text(text, &gone, &[kept.as_slice(), &[lead.as_str()]].concat(), source);
    }
}

#[test]
fn site_templates_records_carry_cluster_size_and_applied() {
    let corpus = Corpus::new();
    let out = extract_corpus(&corpus, "plain", &["-f", "jsonl", "--site-templates"]);
    check_site_records(&corpus, &jsonl(&out), true);
    assert!(stderr(&out).contains("3 template clusters"), "{}", stderr(&out));
    // Without the flag, both null (every key is always there: issue 33).
    let out = extract_corpus(&corpus, "plain", &["-f", "jsonl"]);
    let records = jsonl(&out);
    assert_eq!(records.len(), 11);
    for record in &records {
        assert!(record["template_cluster_size"].is_null(), "{record}");
        assert!(record["template_applied"].is_null(), "{record}");
    }
}

#[test]
fn min_cluster_above_every_cluster_applies_no_template() {
    let corpus = Corpus::new();
    let out = extract_corpus(
        &corpus,
        "plain",
        &["-f", "jsonl", "--site-templates", "--min-cluster", "10"],
    );
    check_site_records(&corpus, &jsonl(&out), false);
}

/// Splits text output of several inputs at its `==> source <==` headers.
fn sections(text: &str) -> Vec<(String, String)> {
    text.split("==> ")
        .skip(1)
        .map(|part| {
            let (source, body) = part.split_once(" <==\n").expect("header");
            (source.to_string(), body.to_string())
        })
        .collect()
}

#[test]
fn site_templates_work_in_every_output_format() {
    let corpus = Corpus::new();
    let pages = corpus.pages();
    for format in ["txt", "markdown", "html", "json", "jsonl"] {
        let out = extract_corpus(&corpus, "entropy", &["-f", format, "--site-templates"]);
        let body = stdout(&out);
        let texts: Vec<(String, String)> = match format {
            "json" | "jsonl" => {
                let records = match format {
                    "json" => serde_json::from_str::<Vec<serde_json::Value>>(&body).expect("array"),
                    _ => jsonl(&out),
                };
                records
                    .iter()
                    .map(|r| {
                        (
                            r["source"].as_str().expect("source").to_string(),
                            r["text"].as_str().expect("text").to_string(),
                        )
                    })
                    .collect()
            }
            _ => sections(&body),
        };
        assert_eq!(texts.len(), pages.len(), "{format}: {body}");
        for ((source, text), (expected, lead)) in texts.iter().zip(&pages) {
            assert_eq!(source, expected, "{format}");
            assert_text(
                text,
                &template_of(&corpus, source),
                &[lead],
                &format!("{format} {source}"),
            );
        }
    }
}

#[test]
fn site_templates_output_does_not_depend_on_threads() {
    let corpus = Corpus::new();
    let outputs: Vec<Vec<u8>> = ["1", "2"]
        .into_iter()
        .map(|n| {
            extract_corpus(
                &corpus,
                "default",
                &["-f", "jsonl", "--site-templates", "--parallel", n],
            )
            .stdout
        })
        .collect();
    assert_eq!(String::from_utf8_lossy(&outputs[0]), String::from_utf8_lossy(&outputs[1]));
    assert_eq!(outputs[0].iter().filter(|&&b| b == b'\n').count(), 11);
}

// ---------------------------------------------------------------------------
// eval --site-templates

/// A dataset in the plain layout of both sites' pages: `input/ID.html`
/// and plain-text gold `GoldStandard/ID.txt`, the article paragraphs.
fn site_dataset(corpus: &Corpus) -> PathBuf {
    let data = corpus.path("synthetic");
    for n in 0..2 * SITE_PAGES {
        let html = if n < SITE_PAGES { site_a_page(n) } else { site_b_page(n) };
        put(&data, &format!("input/{n}.html"), html);
        put(&data, &format!("GoldStandard/{n}.txt"), article(n).join("\n\n"));
    }
    data
}

/// `eval --format json --metric lcs` on `data` with `extra` arguments: the
/// rows as (algorithm, row).
fn eval_rows(data: &Path, extra: &[&str]) -> Vec<(String, serde_json::Value)> {
    let out = run_ok(
        gleaner()
            .args(["eval", "--no-progress", "--format", "json", "--metric", "lcs", "--data"])
            .arg(data)
            .args(extra),
    );
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON rows");
    rows.into_iter().map(|r| (r["algorithm"].as_str().expect("algorithm").to_string(), r)).collect()
}

fn algorithms_of(rows: &[(String, serde_json::Value)]) -> Vec<&str> {
    rows.iter().map(|(a, _)| a.as_str()).collect()
}

#[test]
fn eval_site_templates_scores_template_rows() {
    let corpus = Corpus::new();
    let data = site_dataset(&corpus);
    let rows = eval_rows(&data, &["--algorithms", "plain,entropy", "--site-templates"]);
    assert_eq!(algorithms_of(&rows), ["plain", "plain+templates", "entropy"]);
    let precision = |i: usize| number(&rows[i].1, "precision");
    for (name, row) in &rows {
        assert_eq!(row["pages"], 10, "{name}: {row}");
        assert_eq!(row["failed"], 0, "{name}: {row}");
        assert!(number(row, "recall") > 0.99, "{name} loses article text: {row}");
    }
    // The templates are a third of the text of these pages.
    assert!(
        precision(2) > precision(0) + 0.15,
        "entropy {} vs plain {}",
        precision(2),
        precision(0)
    );
    assert!(
        precision(1) > precision(0) + 0.15,
        "plain+templates {} vs plain {}",
        precision(1),
        precision(0)
    );
}

#[test]
fn eval_all_has_entropy_only_with_site_templates() {
    let corpus = Corpus::new();
    let data = site_dataset(&corpus);
    let rows = eval_rows(&data, &["--algorithms", "all"]);
    let names = algorithms_of(&rows);
    assert!(names.contains(&"plain") && names.contains(&"article"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("entropy") || n.contains("+templates")), "{names:?}");
    let rows = eval_rows(&data, &["--algorithms", "all", "--site-templates"]);
    let names = algorithms_of(&rows);
    for name in ["plain", "plain+templates", "article", "article+templates", "entropy"] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    assert!(!names.contains(&"entropy+templates"), "{names:?}");
}

#[test]
fn eval_entropy_without_site_templates_is_refused_or_left_out() {
    let corpus = Corpus::new();
    let data = site_dataset(&corpus);
    let out = run(gleaner()
        .args(["eval", "--no-progress", "--format", "json", "--algorithms", "entropy", "--data"])
        .arg(&data));
    if out.status.success() {
        let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
        assert!(rows.iter().all(|r| r["algorithm"] != "entropy"), "{}", stdout(&out));
    } else {
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("template"), "{}", stderr(&out));
    }
}

/// See: issue 31 (item 8): `--template /dev/zero` grew until the machine
/// ran out of memory. A model path that is a device, a FIFO or a file
/// larger than a model may be (256 MiB) is refused from its metadata,
/// before it is read. Each run is bounded: a 1 GiB address-space limit
/// on the child, killed after 30 s.
#[test]
fn issue_31_a_model_that_is_a_device_or_too_large_is_refused_before_it_is_read() {
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};

    let corpus = Corpus::new();
    let page = corpus.path("a/page0.html");
    let huge = corpus.path("huge.model");
    // Sparse: 300 MiB of length, no data written.
    std::fs::File::create(&huge).and_then(|f| f.set_len(300 << 20)).expect("huge file");
    let fifo = corpus.path("fifo.model");
    let name = std::ffi::CString::new(fifo.to_str().expect("utf-8 path")).expect("no NUL");
    // SAFETY: a valid C string; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
    for (model, says) in [
        (PathBuf::from("/dev/zero"), "it is a device, not a regular file"),
        (huge, "more than the 256 MiB a model may be"),
        (fifo, "it is a FIFO, not a regular file"),
    ] {
        let mut cmd = gleaner();
        cmd.arg("extract").arg(&page).arg("--template").arg(&model);
        // SAFETY: setrlimit is async-signal-safe; nothing else runs here.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: 1 << 30, rlim_max: 1 << 30 };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let started = Instant::now();
        let mut child = cmd
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("gleaner starts");
        while child.try_wait().expect("wait").is_none() {
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("{}: still running after 30 s", model.display());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let out = child.wait_with_output().expect("output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", model.display());
        assert!(err.contains(says), "{}: {err}", model.display());
        assert!(started.elapsed() < Duration::from_secs(10), "{}: at once", model.display());
    }
}
