//! The pages that share a key page's template, found through its menu:
//! Algorithm 1 of Alarte, Insa, Silva and Tamarit, "Web Template
//! Extraction Based on Hyperlink Analysis" (WWV 2015; S-1 §4.1;
//! `docs/algorithms.md#menu-based-templates`).
//!
//! Reads the **DOM's links** only. A site's main menu is on every page
//! of the site, so the pages it links to all link to each other: they
//! form a *complete subdigraph* (CS) of the site's link graph. Starting
//! from the key page's links ([`links`]), pages are loaded one at a time
//! in document order; after each load, the largest set of loaded pages
//! that contains the page just loaded and is pairwise mutually linked
//!
//! ```text
//! CS = { ls ⊆ processed | link ∈ ls ∧ ∀ l, l′ ∈ ls. (l → l′), (l′ → l) }
//! ```
//!
//! is a clique of the mutual-link graph that contains the new node. The
//! search stops at the first clique of `n` pages (n = 4, "empirically
//! optimal" \[S-1\]); otherwise the largest clique seen is returned. The
//! paper reports 7 loads on average \[S-1 §6\].
//!
//! The crate does no I/O: the caller's `load` closure fetches a page and
//! returns its links (usually [`links`] of the parsed page).
//!
//! ```
//! use gleaner::template::menu::{complete_subdigraph, MenuConfig};
//!
//! // Four section pages that all link to each other, and a page that
//! // links nowhere.
//! let menu = ["/a", "/b", "/c", "/d"];
//! let key: Vec<String> =
//!     ["/lonely", "/a", "/b", "/c", "/d"].iter().map(|s| s.to_string()).collect();
//! let load = |url: &str| {
//!     let links = if url == "/lonely" { vec![] } else { menu.to_vec() };
//!     Some(links.into_iter().map(String::from).collect())
//! };
//! let cs = complete_subdigraph(&key, &MenuConfig::default(), load);
//! assert_eq!(cs.pages, ["/a", "/b", "/c", "/d"]);
//! assert!(cs.complete);
//! assert_eq!(cs.loaded, 5);
//! ```

use std::collections::{HashMap, HashSet};

use html5ever::local_name;
use url::Url;

use crate::document::Document;
use crate::error::{Error, Result};

/// Parameters of [`complete_subdigraph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MenuConfig {
    /// Size `n` of the complete subdigraph searched for: the search stops
    /// at the first clique of this many pages. Default 4 \[S-1 §4.1\],
    /// the paper's empirical optimum. Values below 1 count as 1.
    pub n: usize,
    /// Most calls of the `load` closure (failed loads included). The
    /// paper's loop may load every link of the key page; this caps it.
    /// Default 30 \[I\].
    pub max_loads: usize,
    /// Most extension steps of one clique search (the search after each
    /// load), so that a page with thousands of mutual links costs a
    /// bounded time; when spent, the best clique found so far is used.
    /// Default 100 000 \[I\].
    pub max_search_steps: usize,
}

impl Default for MenuConfig {
    fn default() -> MenuConfig {
        MenuConfig { n: 4, max_loads: 30, max_search_steps: 100_000 }
    }
}

impl MenuConfig {
    /// Sets [`MenuConfig::n`].
    pub fn n(mut self, n: usize) -> MenuConfig {
        self.n = n;
        self
    }

    /// Sets [`MenuConfig::max_loads`].
    pub fn max_loads(mut self, loads: usize) -> MenuConfig {
        self.max_loads = loads;
        self
    }

    /// Sets [`MenuConfig::max_search_steps`].
    pub fn max_search_steps(mut self, steps: usize) -> MenuConfig {
        self.max_search_steps = steps;
        self
    }

    /// Checks the values.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `n` or `max_loads` is 0.
    pub fn validate(&self) -> Result<()> {
        if self.n == 0 {
            return Err(Error::InvalidConfig("menu: n must be ≥ 1".into()));
        }
        if self.max_loads == 0 {
            return Err(Error::InvalidConfig("menu: max_loads must be ≥ 1".into()));
        }
        Ok(())
    }
}

/// The outcome of [`complete_subdigraph`] (Alarte et al. 2015, S-1 Algorithm 1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Subdigraph {
    /// The pages of the complete subdigraph, pairwise mutually linked,
    /// in the key page's link order. Empty when no page could be loaded.
    pub pages: Vec<String>,
    /// How many times `load` was called (failed loads included).
    pub loaded: usize,
    /// True when `pages` has the `n` pages asked for; false when it is
    /// the best smaller one (the paper's m-CS, m < n).
    pub complete: bool,
}

/// The links of a page, as Algorithm 1's `getLinks` (Alarte et al. 2015, S-1 §4.1 and
/// its footnote): the `href` of every `<a>`, resolved against the page's
/// URL `base_url` (or its `<base href>`, WHATWG §4.2.3), without
/// fragment, unique, in document order; only `http`/`https` links to the
/// page's own host, and no link to the page itself.
///
/// Returns nothing when `base_url` is not an absolute URL. Links are
/// compared as the `url` crate serialises them (WHATWG URL parsing):
/// `x/` and `x/index.html` stay two links, as on the web.
pub fn links(doc: &Document, base_url: &str) -> Vec<String> {
    let Ok(mut page) = Url::parse(base_url) else { return Vec::new() };
    page.set_fragment(None);
    // WHATWG §4.2.3: the first <base> with an href sets the base URL.
    let base = doc
        .ids()
        .find(|&id| doc.is(id, local_name!("base")) && doc.attr(id, "href").is_some())
        .and_then(|id| doc.attr(id, "href"))
        .and_then(|href| page.join(href.trim()).ok())
        .unwrap_or_else(|| page.clone());
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for id in doc.ids() {
        if !doc.is(id, local_name!("a")) {
            continue;
        }
        let Some(href) = doc.attr(id, "href") else { continue };
        let Ok(mut url) = base.join(href.trim()) else { continue };
        url.set_fragment(None);
        let same_host = url.host_str().is_some() && url.host_str() == page.host_str();
        if !matches!(url.scheme(), "http" | "https") || !same_host || url == page {
            continue;
        }
        let url = String::from(url);
        if seen.insert(url.clone()) {
            out.push(url);
        }
    }
    out
}

/// Algorithm 1 of Alarte et al. 2015, S-1 (§4.1): the `n` pages linked from the key page
/// that are pairwise mutually linked — the pages of the site's menu.
///
/// `key_links` are the key page's links ([`links`]); `load` returns the
/// links of the page at a URL, or `None` when it cannot be loaded (such a
/// page is skipped: it has no links, so it is in no clique). Pages are
/// loaded in the order of `key_links`, at most
/// [`MenuConfig::max_loads`] times; the search stops as soon as a clique
/// of [`MenuConfig::n`] pages containing the page just loaded exists.
/// Otherwise the largest clique found is returned, the first one found
/// among equals.
pub fn complete_subdigraph(
    key_links: &[String],
    config: &MenuConfig,
    mut load: impl FnMut(&str) -> Option<Vec<String>>,
) -> Subdigraph {
    let n = config.n.max(1);
    // Step 1 [S-1]: reachableLinks, unique (the caller's list may repeat).
    let mut reachable: Vec<&str> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for link in key_links {
        if !index.contains_key(link.as_str()) {
            index.insert(link, reachable.len());
            reachable.push(link);
        }
    }
    // Out-links of each processed page, as indices into `reachable`.
    let mut out: Vec<Option<HashSet<usize>>> = vec![None; reachable.len()];
    let mut processed: Vec<usize> = Vec::new();
    let mut best: Vec<usize> = Vec::new();
    let mut loaded = 0;
    for (i, &link) in reachable.iter().enumerate() {
        if loaded >= config.max_loads {
            break;
        }
        loaded += 1;
        let Some(page_links) = load(link) else { continue };
        // Step 2 [S-1]: connections link → l′ for l′ ∈ getLinks(page) ∩
        // reachable, self-links ignored.
        let targets: HashSet<usize> =
            page_links.iter().filter_map(|l| index.get(l.as_str()).copied()).collect();
        out[i] = Some(targets.into_iter().filter(|&j| j != i).collect());
        processed.push(i);
        // Step 3 [S-1]: the largest mutually linked set of processed links
        // that contains the current link = a maximum clique containing `i`
        // of the mutual-link graph, searched among i's neighbours.
        let mutual = |a: usize, b: usize| {
            let has = |x: usize, y: usize| {
                out.get(x).and_then(Option::as_ref).is_some_and(|s| s.contains(&y))
            };
            has(a, b) && has(b, a)
        };
        let neighbours: Vec<usize> =
            processed.iter().copied().filter(|&j| j != i && mutual(i, j)).collect();
        let mut search = CliqueSearch {
            mutual: &mutual,
            limit: n - 1,
            steps: config.max_search_steps,
            best: Vec::new(),
        };
        search.extend(&mut Vec::new(), &neighbours);
        let mut clique = search.best;
        clique.push(i);
        clique.sort_unstable();
        // Step 4 [S-1]: an n-CS ends the search; else keep the largest.
        if clique.len() >= n {
            return Subdigraph {
                pages: clique.iter().map(|&j| reachable[j].to_string()).collect(),
                loaded,
                complete: true,
            };
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    Subdigraph {
        pages: best.iter().map(|&j| reachable[j].to_string()).collect(),
        loaded,
        complete: false,
    }
}

/// A depth-bounded search for a largest clique among `candidates`, all
/// already adjacent to the node the clique is built around.
struct CliqueSearch<'a, F> {
    mutual: &'a F,
    /// Largest clique wanted (n − 1: the node itself makes n).
    limit: usize,
    /// Steps left.
    steps: usize,
    best: Vec<usize>,
}

impl<F: Fn(usize, usize) -> bool> CliqueSearch<'_, F> {
    /// Extends `clique` by candidates in order; the recursion is at most
    /// `limit` deep.
    fn extend(&mut self, clique: &mut Vec<usize>, candidates: &[usize]) {
        if clique.len() > self.best.len() {
            self.best = clique.clone();
        }
        for (k, &c) in candidates.iter().enumerate() {
            // Prune: stop when done, out of steps, or when even every
            // remaining candidate could not beat the best clique.
            let done = self.best.len() >= self.limit;
            let hopeless = clique.len() + candidates.len() - k <= self.best.len();
            if done || hopeless || self.steps == 0 {
                return;
            }
            self.steps -= 1;
            let rest: Vec<usize> =
                candidates[k + 1..].iter().copied().filter(|&d| (self.mutual)(c, d)).collect();
            clique.push(c);
            self.extend(clique, &rest);
            clique.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    /// A loader over a fixed link graph; records what was loaded.
    fn graph<'a>(
        edges: &'a [(&'a str, &'a [&'a str])],
        log: &'a mut Vec<String>,
    ) -> impl FnMut(&str) -> Option<Vec<String>> + 'a {
        move |url: &str| {
            log.push(url.to_string());
            edges.iter().find(|(from, _)| *from == url).map(|(_, to)| strings(to))
        }
    }

    #[test]
    fn links_are_absolute_unique_same_host_in_order() {
        let d = doc(
            r##"<a href="../b/">B</a><a href="/c#top">C</a><a href="http://other.test/x">X</a>
            <a href="../b/#s">B again</a><a href="#frag">self</a><a href="">self</a>
            <a href="mailto:a@site.test">mail</a><a>no href</a><a href="https://site.test/d?q=1">D</a>"##,
        );
        assert_eq!(
            links(&d, "http://site.test/a/"),
            ["http://site.test/b/", "http://site.test/c", "https://site.test/d?q=1",]
        );
    }

    #[test]
    fn links_follow_base_href_but_self_is_the_page_url() {
        let d =
            doc(r#"<head><base href="/docs/"></head><a href="x.html">X</a><a href="/page">P</a>"#);
        assert_eq!(links(&d, "http://site.test/page"), ["http://site.test/docs/x.html"]);
    }

    #[test]
    fn links_of_a_relative_base_url_are_none() {
        let d = doc(r#"<a href="/x">X</a>"#);
        assert!(links(&d, "not a url").is_empty());
    }

    #[test]
    fn a_complete_subdigraph_is_found_and_the_search_stops_at_n() {
        // a, b, c, d link to each other; e would too, but is never loaded.
        let menu: &[&str] = &["a", "b", "c", "d", "e"];
        let edges: &[(&str, &[&str])] =
            &[("a", menu), ("b", menu), ("c", menu), ("d", menu), ("e", menu)];
        let mut log = Vec::new();
        let cs = complete_subdigraph(
            &strings(&["a", "b", "c", "d", "e"]),
            &MenuConfig::default(),
            graph(edges, &mut log),
        );
        assert_eq!(
            cs,
            Subdigraph { pages: strings(&["a", "b", "c", "d"]), loaded: 4, complete: true }
        );
        assert_eq!(log, ["a", "b", "c", "d"]);
    }

    #[test]
    fn one_way_links_do_not_count() {
        // x links to all but nobody links back to x; a, b, c, d do.
        let all: &[&str] = &["x", "a", "b", "c", "d"];
        let not_x: &[&str] = &["a", "b", "c", "d"];
        let edges: &[(&str, &[&str])] =
            &[("x", all), ("a", not_x), ("b", not_x), ("c", not_x), ("d", not_x)];
        let mut log = Vec::new();
        let cs = complete_subdigraph(&strings(all), &MenuConfig::default(), graph(edges, &mut log));
        assert_eq!(cs.pages, ["a", "b", "c", "d"]);
        assert_eq!(cs.loaded, 5);
    }

    #[test]
    fn the_best_smaller_clique_is_returned() {
        // A triangle a-b-c and an edge d-e: no 4-clique.
        let edges: &[(&str, &[&str])] = &[
            ("a", &["b", "c"]),
            ("b", &["a", "c"]),
            ("c", &["a", "b", "d"]),
            ("d", &["e"]),
            ("e", &["d"]),
        ];
        let mut log = Vec::new();
        let cs = complete_subdigraph(
            &strings(&["a", "b", "c", "d", "e"]),
            &MenuConfig::default(),
            graph(edges, &mut log),
        );
        assert_eq!(cs, Subdigraph { pages: strings(&["a", "b", "c"]), loaded: 5, complete: false });
    }

    #[test]
    fn the_load_cap_is_respected() {
        let menu: &[&str] = &["a", "b", "c", "d"];
        let edges: &[(&str, &[&str])] = &[("a", menu), ("b", menu), ("c", menu), ("d", menu)];
        let mut log = Vec::new();
        let config = MenuConfig::default().max_loads(2);
        let cs = complete_subdigraph(&strings(menu), &config, graph(edges, &mut log));
        assert_eq!(cs, Subdigraph { pages: strings(&["a", "b"]), loaded: 2, complete: false });
        assert_eq!(log.len(), 2);
    }

    #[test]
    fn unloadable_pages_are_skipped() {
        // "gone" cannot be loaded; the others form the clique around it.
        let menu: &[&str] = &["a", "gone", "b", "c", "d"];
        let edges: &[(&str, &[&str])] = &[("a", menu), ("b", menu), ("c", menu), ("d", menu)];
        let mut log = Vec::new();
        let cs =
            complete_subdigraph(&strings(menu), &MenuConfig::default(), graph(edges, &mut log));
        assert_eq!(
            cs,
            Subdigraph { pages: strings(&["a", "b", "c", "d"]), loaded: 5, complete: true }
        );
    }

    #[test]
    fn nothing_loadable_is_an_empty_subdigraph() {
        let cs = complete_subdigraph(&strings(&["a", "b"]), &MenuConfig::default(), |_| None);
        assert_eq!(cs, Subdigraph { pages: vec![], loaded: 2, complete: false });
        let cs = complete_subdigraph(&[], &MenuConfig::default(), |_| None);
        assert_eq!(cs, Subdigraph::default());
    }

    #[test]
    fn the_clique_contains_the_current_link() {
        // Cliques {a, b, c} and later {d, e, f, g}: the 4-clique is found
        // when g (the last of it) is loaded, and contains g.
        let abc: &[&str] = &["a", "b", "c"];
        let defg: &[&str] = &["d", "e", "f", "g"];
        let edges: &[(&str, &[&str])] = &[
            ("a", abc),
            ("b", abc),
            ("c", abc),
            ("d", defg),
            ("e", defg),
            ("f", defg),
            ("g", defg),
        ];
        let mut log = Vec::new();
        let cs = complete_subdigraph(
            &strings(&["a", "b", "c", "d", "e", "f", "g"]),
            &MenuConfig::default(),
            graph(edges, &mut log),
        );
        assert_eq!(cs, Subdigraph { pages: strings(defg), loaded: 7, complete: true });
    }

    #[test]
    fn a_search_step_budget_still_returns_a_clique() {
        let menu: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let links = menu.clone();
        let config = MenuConfig::default().n(40).max_search_steps(5);
        let cs = complete_subdigraph(&menu, &config, |_| Some(links.clone()));
        assert!(!cs.complete);
        assert_eq!(cs.loaded, 30);
        assert!(cs.pages.len() >= 2);
    }

    #[test]
    fn config_validation() {
        assert!(MenuConfig::default().validate().is_ok());
        assert!(MenuConfig::default().n(0).validate().is_err());
        assert!(MenuConfig::default().max_loads(0).validate().is_err());
        // n = 0 is treated as 1: the first loaded page.
        let cs =
            complete_subdigraph(&strings(&["a"]), &MenuConfig::default().n(0), |_| Some(vec![]));
        assert_eq!(cs.pages, ["a"]);
        assert!(cs.complete);
    }
}
