//! Alarte et al.'s menu-based template (S-1; `docs/algorithms.md#menu-based-templates`) on
//! two real sites in `../shared/data/sites` beside the repository (or
//! `$GLEANER_SITES_DIR`): Algorithm 1 finds the pages of the menu by
//! loading pages from disk, Algorithm 2 maps the key page into them, and
//! the template must hold the site's navigation and footer and none of the
//! key page's article text (the regions of each site's SOURCE.md).
//!
//! The sites are data outside the repository: without them the tests are
//! skipped by name, and under `GLEANER_REQUIRE_DATA=1` (CI) they fail
//! (`tests/support/shared_data.rs`).

#[path = "../../../tests/support/shared_data.rs"]
mod shared_data;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use gleaner::template::{
    complete_subdigraph, links, menu_template, template_html, EtdmConfig, MenuConfig,
};
use gleaner::{Document, NodeId, ParseOptions};

/// Where the site's pages are served from, for the loader.
const ORIGIN: &str = "http://site.test/";

/// The `site/` folder of a site, or `None` when the data is absent (the
/// test is then skipped, or fails under `GLEANER_REQUIRE_DATA=1`).
fn site_dir(name: &str) -> Option<PathBuf> {
    shared_data::require(shared_data::path("GLEANER_SITES_DIR", "sites").join(name).join("site"))
}

/// The file of a URL under [`ORIGIN`]: `x/` is `x/index.html`.
fn file_of(dir: &Path, url: &str) -> Option<PathBuf> {
    let path = url.strip_prefix(ORIGIN)?;
    let path = path.split(['?', '#']).next().unwrap_or("");
    if path.split('/').any(|part| part == "..") {
        return None;
    }
    let file = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    Some(dir.join(file))
}

fn parse(dir: &Path, url: &str) -> Option<Document> {
    let bytes = std::fs::read(file_of(dir, url)?).ok()?;
    let options = ParseOptions::default().url(Some(url.to_string())).keep_all_attributes(true);
    Document::parse(&bytes, &options).ok()
}

/// The first element whose name is `tag` and whose attribute `attr`
/// contains the word `value` (or equals it); any `tag` for no `attr`.
fn find(doc: &Document, tag: &str, attr: &str, value: &str) -> NodeId {
    doc.ids()
        .find(|&id| {
            doc.element(id).is_some_and(|e| {
                let has = |v: &str| v == value || v.split_whitespace().any(|w| w == value);
                &*e.name == tag && (attr.is_empty() || e.attr(attr).is_some_and(has))
            })
        })
        .unwrap_or_else(|| panic!("no <{tag} {attr}={value}> in {:?}", doc.url()))
}

/// Whitespace-normalised text.
fn normal(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words of the text nodes under `region` whose text passes `only`, and
/// how many of them are in `mask`.
fn words(
    doc: &Document,
    region: NodeId,
    mask: &[bool],
    only: impl Fn(&str) -> bool,
) -> (usize, usize) {
    let (mut all, mut kept) = (0, 0);
    for id in doc.subtree(region) {
        if doc.is_text(id) && only(&normal(doc.text(id))) {
            let n = doc.text(id).split_whitespace().count();
            all += n;
            if mask.get(id.index()).copied().unwrap_or(false) {
                kept += n;
            }
        }
    }
    (all, kept)
}

struct Site {
    name: &'static str,
    key: &'static str,
    /// (tag, attribute, value) of the content region.
    content: (&'static str, &'static str, &'static str),
    /// Regions of the template: navigation and footer.
    chrome: &'static [(&'static str, &'static str, &'static str)],
    /// Phrases that must be in the rendered template.
    phrases: &'static [&'static str],
}

/// Runs both algorithms on a site; prints and checks the figures.
fn check(site: &Site) {
    let Some(dir) = site_dir(site.name) else { return };
    let key_url = format!("{ORIGIN}{}", site.key);
    let key = parse(&dir, &key_url).unwrap_or_else(|| panic!("cannot load {key_url}"));
    let key_links = links(&key, &key_url);

    // Algorithm 1: load pages from disk until 4 of them link each other.
    let mut pages: HashMap<String, Document> = HashMap::new();
    let cs = complete_subdigraph(&key_links, &MenuConfig::default(), |url| {
        let doc = parse(&dir, url)?;
        let out = links(&doc, url);
        pages.insert(url.to_string(), doc);
        Some(out)
    });
    assert!(cs.complete, "{}: no 4-CS in {} loads: {cs:?}", site.name, cs.loaded);
    assert!(cs.loaded <= 10, "{}: {} loads", site.name, cs.loaded);

    // Algorithm 2: the template of the key page.
    let others: Vec<&Document> = cs.pages.iter().filter_map(|u| pages.get(u)).collect();
    assert_eq!(others.len(), 4);
    let mask = menu_template(&key, &others, &EtdmConfig::default());

    let significant = |id: &NodeId| key.element(*id).is_some() || !key.text(*id).trim().is_empty();
    let page_nodes = key.ids().filter(significant).count();
    let template_nodes = key.ids().filter(significant).filter(|id| mask[id.index()]).count();
    let (page_words, template_words) = words(&key, key.root(), &mask, |_| true);
    let content = find(&key, site.content.0, site.content.1, site.content.2);
    let (content_words, content_in) = words(&key, content, &mask, |_| true);
    // Texts on every page of the CS: the part of the chrome that is the
    // same on all pages, not the current page's sub-menu. (The current
    // page's own menu entry still counts, though it is a different node
    // on the others: shell-novice shows it as a <span>, not a link.)
    let texts = |d: &Document| -> HashSet<String> {
        d.ids().filter(|&id| d.is_text(id)).map(|id| normal(d.text(id))).collect()
    };
    let shared = others
        .iter()
        .map(|d| texts(d))
        .reduce(|a, b| a.intersection(&b).cloned().collect())
        .unwrap_or_default();
    let (mut chrome_words, mut chrome_in, mut shared_words, mut shared_in) = (0, 0, 0, 0);
    for &(tag, attr, value) in site.chrome {
        let region = find(&key, tag, attr, value);
        let (all, kept) = words(&key, region, &mask, |_| true);
        chrome_words += all;
        chrome_in += kept;
        let (all, kept) = words(&key, region, &mask, |t| shared.contains(t));
        shared_words += all;
        shared_in += kept;
    }
    let share = |part: usize, whole: usize| 100.0 * part as f64 / whole.max(1) as f64;
    eprintln!(
        "{}: key {}, {} loads, CS {:?}\n  template {} of {} nodes \
         (elements and non-blank text), {} of {} words\n  \
         content region: {} of {} words NOT in the template ({:.1}%)\n  \
         navigation + footer: {} of {} words in the template ({:.1}%); \
         of those on all CS pages: {} of {} ({:.1}%)",
        site.name,
        site.key,
        cs.loaded,
        cs.pages,
        template_nodes,
        page_nodes,
        template_words,
        page_words,
        content_words - content_in,
        content_words,
        share(content_words - content_in, content_words),
        chrome_in,
        chrome_words,
        share(chrome_in, chrome_words),
        shared_in,
        shared_words,
        share(shared_in, shared_words),
    );
    assert!(content_words > 200, "{}: content region too small", site.name);
    assert!(
        share(content_words - content_in, content_words) >= 97.0,
        "{}: {content_in} content words are in the template",
        site.name
    );
    assert!(
        share(chrome_in, chrome_words) >= 75.0,
        "{}: only {chrome_in} of {chrome_words} navigation words are in the template",
        site.name
    );
    assert!(
        share(shared_in, shared_words) >= 90.0,
        "{}: only {shared_in} of {shared_words} shared navigation words are in the template",
        site.name
    );
    let html = template_html(&key, &mask);
    if let Some(out) = std::env::var_os("GLEANER_TEMPLATE_OUT") {
        let path = Path::new(&out).join(format!("{}.template.html", site.name));
        std::fs::write(&path, &html).expect("write the template");
    }
    for phrase in site.phrases {
        assert!(html.contains(phrase), "{}: {phrase:?} not in the template", site.name);
    }
    // The HTML is a page again, and parses to the template's text.
    let again = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
    let (rendered, _) = words(&again, again.root(), &[], |_| true);
    assert!(rendered + 20 >= template_words, "{rendered} vs {template_words}");
}

#[test]
fn linux_shell_template_is_the_read_the_docs_chrome() {
    check(&Site {
        name: "linux-shell",
        key: "loops/",
        content: ("div", "itemprop", "articleBody"),
        chrome: &[("nav", "class", "wy-nav-side"), ("footer", "", "")],
        phrases: &["Built with", "Sphinx", "Read the Docs", "Variables, functions, environment"],
    });
}

#[test]
fn shell_novice_template_is_the_workbench_chrome() {
    check(&Site {
        name: "shell-novice",
        key: "03-create.html",
        content: ("main", "id", "main-content"),
        chrome: &[("div", "id", "sidebar"), ("footer", "class", "footer")],
        phrases: &["Pipes and Filters", "Loops", "Finding Things", "Code of Conduct"],
    });
}
