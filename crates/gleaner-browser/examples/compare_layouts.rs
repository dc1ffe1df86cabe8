//! How close the heuristic layout comes to the browser's: lays dev-set
//! pages out with both [`HeuristicLayout`] and [`BrowserLayout`] and
//! compares, element by element, the boxes both show as visible. Prints a
//! Markdown report (the source of `bench/layout-agreement.md`).
//!
//! ```sh
//! cargo run --release -p gleaner-browser --example compare_layouts -- [PAGES] [DATA_DIR] [REPS]
//! ```
//! PAGES (default 200) pages are spread evenly over every
//! `DATA_DIR/*/input/*.html` set (default `../shared/data/wceb`): the sets
//! take turns, each contributing pages evenly spaced through its sorted
//! file list. The heuristic is timed over REPS (default 5) repetitions per
//! page, the browser once (after one untimed warm-up page that starts it).
//! Without the data or without Chromium it says so and exits 0. A page
//! that fails to read, parse or lay out is counted and skipped.
//!
//! Measures, over the elements below `<body>` (not `body` itself):
//! - visibility: share of elements whose `visible` flag agrees (an element
//!   without a box counts as invisible), and the two kinds of disagreement;
//! - over elements both layouts show: font size within ±1 px and mean
//!   absolute error; width relative error |h − b| / max(b, 1) (median,
//!   share within 10 %); left within 10 px; height relative error median;
//!   vertical order: share of concordant pairs of tops among sampled pairs
//!   of elements whose tops differ by at least 1 px in both layouts (a
//!   Kendall-tau-like agreement: 1 is the same order, 0.5 chance);
//! - page height ratio heuristic / browser (median; share within ×1.5).
//!
//! Broken down by dataset, by tag group and by how the page is styled
//! (external style sheets are blocked offline, `<style>` in the page is
//! applied by the browser and ignored by the heuristic).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use gleaner::layout::{HeuristicLayout, Layout, LayoutBox, LayoutProvider};
use gleaner::{Document, ParseOptions};
use gleaner_browser::{BrowserConfig, BrowserLayout};

/// Pairs of elements sampled per page for the vertical order (all
/// elements), and per tag group.
const PAIRS_ALL: usize = 4000;
const PAIRS_GROUP: usize = 1000;

const GROUPS: &[&str] = &["headings", "p", "li", "td/th", "div", "a/span", "other"];
const STYLES: &[&str] = &["no CSS", "external CSS only", "<style> in page"];

fn group_of(tag: &str) -> usize {
    match tag {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => 0,
        "p" => 1,
        "li" => 2,
        "td" | "th" => 3,
        "div" => 4,
        "a" | "span" => 5,
        _ => 6,
    }
}

/// Agreement counts over a set of elements.
#[derive(Default)]
struct Acc {
    pages: usize,
    vis_n: u64,
    vis_agree: u64,
    browser_hides: u64,
    heuristic_hides: u64,
    both: u64,
    font1: u64,
    font_abs: f64,
    width_rel: Vec<f32>,
    width10: u64,
    left10: u64,
    height_rel: Vec<f32>,
    concordant: u64,
    discordant: u64,
    height_ratio: Vec<f32>,
}

impl Acc {
    fn add_visibility(&mut self, b: bool, h: bool) {
        self.vis_n += 1;
        self.vis_agree += u64::from(b == h);
        self.browser_hides += u64::from(!b && h);
        self.heuristic_hides += u64::from(b && !h);
    }

    fn add_box(&mut self, b: &LayoutBox, h: &LayoutBox) {
        self.both += 1;
        let df = (h.font_size - b.font_size).abs();
        self.font1 += u64::from(df <= 1.0);
        self.font_abs += f64::from(df);
        let wr = (h.rect.width - b.rect.width).abs() / b.rect.width.max(1.0);
        self.width_rel.push(wr);
        self.width10 += u64::from(wr <= 0.10);
        self.left10 += u64::from((h.rect.left - b.rect.left).abs() <= 10.0);
        self.height_rel.push((h.rect.height - b.rect.height).abs() / b.rect.height.max(1.0));
    }

    fn add_order(&mut self, boxes: &[(LayoutBox, LayoutBox)], pairs: usize, rng: &mut u64) {
        let n = boxes.len();
        if n < 2 {
            return;
        }
        let all = n * (n - 1) / 2;
        let mut visit = |i: usize, j: usize| {
            let (bi, hi) = &boxes[i];
            let (bj, hj) = &boxes[j];
            let db = bi.rect.top - bj.rect.top;
            let dh = hi.rect.top - hj.rect.top;
            if db.abs() < 1.0 || dh.abs() < 1.0 {
                return;
            }
            if (db > 0.0) == (dh > 0.0) {
                self.concordant += 1;
            } else {
                self.discordant += 1;
            }
        };
        if all <= pairs {
            for i in 0..n {
                for j in i + 1..n {
                    visit(i, j);
                }
            }
        } else {
            for _ in 0..pairs {
                let i = next(rng) as usize % n;
                let j = next(rng) as usize % n;
                if i != j {
                    visit(i, j);
                }
            }
        }
    }

    fn row(&mut self, label: &str) -> String {
        let share = |a: u64, n: u64| if n == 0 { f64::NAN } else { 100.0 * a as f64 / n as f64 };
        let order = share(self.concordant, self.concordant + self.discordant);
        let ratio_mid = median(&mut self.height_ratio);
        let ratio_in = share(
            self.height_ratio.iter().filter(|&&r| (1.0 / 1.5..=1.5).contains(&r)).count() as u64,
            self.height_ratio.len() as u64,
        );
        let pages = if self.pages == 0 { "–".to_owned() } else { self.pages.to_string() };
        let page_cols = if self.height_ratio.is_empty() {
            "– | –".to_owned()
        } else {
            format!("{ratio_mid:.2} | {ratio_in:.0} %")
        };
        format!(
            "| {label} | {pages} | {} | {:.1} % | {} / {} | {} | {:.1} % | {:.2} | {:.2} | {:.1} % | {:.1} % | {:.2} | {:.1} % | {page_cols} |",
            self.vis_n,
            share(self.vis_agree, self.vis_n),
            self.browser_hides,
            self.heuristic_hides,
            self.both,
            share(self.font1, self.both),
            if self.both == 0 { f64::NAN } else { self.font_abs / self.both as f64 },
            median(&mut self.width_rel),
            share(self.width10, self.both),
            share(self.left10, self.both),
            median(&mut self.height_rel),
            order,
        )
    }
}

const HEADER: &str = "| | pages | elements | visible agrees | browser hides / heuristic hides | both visible | font ±1 px | font MAE px | width rel. err. median | width ±10 % | left ±10 px | height rel. err. median | top order concordant | page height ratio median | page height within ×1.5 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

fn median(v: &mut [f32]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f32::total_cmp);
    f64::from(v[v.len() / 2])
}

/// xorshift64: a fixed, reproducible sample.
fn next(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

/// How the page is styled, from its bytes: 0 no CSS, 1 external style
/// sheets only, 2 a `<style>` element (or `<style>` plus sheets).
fn style_kind(bytes: &[u8]) -> usize {
    let lower = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    if lower.contains("<style") {
        2
    } else if lower.match_indices("<link").any(|(i, _)| {
        let tag = &lower[i..lower[i..].find('>').map_or(lower.len(), |e| i + e)];
        tag.contains("stylesheet")
    }) {
        1
    } else {
        0
    }
}

fn times_row(label: &str, v: &mut [f64]) -> String {
    if v.is_empty() {
        return format!("| {label} | 0 | – | – | – | – |");
    }
    v.sort_by(f64::total_cmp);
    let pct = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    format!(
        "| {label} | {} | {mean:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
        v.len(),
        pct(0.5),
        pct(0.95),
        pct(1.0)
    )
}

/// The pages: sets take turns, each giving pages evenly spaced through
/// its sorted list, until `pages` are chosen or the sets run out.
fn choose(data: &Path, pages: usize) -> Vec<(String, PathBuf)> {
    let mut sets: Vec<(String, Vec<PathBuf>)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(data) {
        for set in entries.flatten() {
            let Ok(inputs) = std::fs::read_dir(set.path().join("input")) else { continue };
            let mut files: Vec<PathBuf> = inputs
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "html"))
                .collect();
            if files.is_empty() {
                continue;
            }
            files.sort();
            sets.push((set.file_name().to_string_lossy().into_owned(), files));
        }
    }
    sets.sort_by(|a, b| a.0.cmp(&b.0));
    // Quotas: round-robin, a set that runs out leaves its turn to others.
    let mut quota = vec![0usize; sets.len()];
    let mut left = pages;
    while left > 0 {
        let mut gave = false;
        for (q, (_, files)) in quota.iter_mut().zip(&sets) {
            if left > 0 && *q < files.len() {
                *q += 1;
                left -= 1;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    let mut chosen = Vec::new();
    for ((name, files), q) in sets.iter().zip(quota) {
        for k in 0..q {
            let i = k * files.len() / q.max(1);
            chosen.push((name.clone(), files[i].clone()));
        }
    }
    chosen
}

struct PageResult {
    set: String,
    file: String,
    style: usize,
    elements: usize,
    width10: f64,
    height_ratio: f32,
    vis_agree: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let pages: usize = args.next().map_or(Ok(200), |a| a.parse())?;
    let data = args.next().map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wceb"),
        PathBuf::from,
    );
    let reps: usize = args.next().map_or(Ok(5), |a| a.parse())?.max(1);
    let dump = std::env::var("COMPARE_DUMP").ok();
    let chosen = choose(&data, pages);
    if chosen.is_empty() {
        println!("no pages under {}: nothing to compare", data.display());
        return Ok(());
    }
    let browser = match BrowserLayout::new(BrowserConfig::default()) {
        Ok(b) => b,
        Err(e) => {
            println!("no browser ({e}): nothing to compare");
            return Ok(());
        }
    };
    let heuristic = HeuristicLayout::default();
    let options = ParseOptions::default().keep_all_attributes(true);
    // Start the browser outside the timed loop.
    let warm = Document::parse(b"<p>warm up</p>", &options)?;
    if let Err(e) = browser.layout(&warm) {
        println!("the browser does not lay out a trivial page ({e}): nothing to compare");
        return Ok(());
    }

    let mut total = Acc::default();
    let mut by_set: BTreeMap<String, Acc> = BTreeMap::new();
    let mut by_group: Vec<Acc> = GROUPS.iter().map(|_| Acc::default()).collect();
    let mut by_style: Vec<Acc> = STYLES.iter().map(|_| Acc::default()).collect();
    let mut vis_tags: HashMap<String, (u64, u64)> = HashMap::new();
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let mut t_heur: Vec<f64> = Vec::new();
    let mut t_browser: Vec<f64> = Vec::new();
    let mut t_set: BTreeMap<String, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    let mut results: Vec<PageResult> = Vec::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let started = Instant::now();

    for (n, (set, path)) in chosen.iter().enumerate() {
        let file = path.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        let fail = |failed: &mut BTreeMap<String, usize>, why: String| {
            eprintln!("{set}/{file}: {why}");
            *failed.entry(set.clone()).or_default() += 1;
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                fail(&mut failed, format!("read: {e}"));
                continue;
            }
        };
        let doc = match Document::parse(&bytes, &options) {
            Ok(d) => d,
            Err(e) => {
                fail(&mut failed, format!("parse: {e}"));
                continue;
            }
        };
        let t = Instant::now();
        let mut h_layout: Option<gleaner::Result<Layout>> = None;
        for _ in 0..reps {
            h_layout = Some(std::hint::black_box(heuristic.layout(&doc)));
        }
        let th = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        let h_layout = match h_layout {
            Some(Ok(l)) => l,
            Some(Err(e)) => {
                fail(&mut failed, format!("heuristic: {e}"));
                continue;
            }
            None => continue,
        };
        let t = Instant::now();
        let b_layout = match browser.layout(&doc) {
            Ok(l) => l,
            Err(e) => {
                fail(&mut failed, format!("browser: {e}"));
                continue;
            }
        };
        let tb = t.elapsed().as_secs_f64() * 1e3;
        t_heur.push(th);
        t_browser.push(tb);
        let ts = t_set.entry(set.clone()).or_default();
        ts.0.push(th);
        ts.1.push(tb);

        let style = style_kind(&bytes);
        let mut page = Acc::default();
        let mut shown: Vec<(LayoutBox, LayoutBox)> = Vec::new();
        let mut shown_group: Vec<Vec<(LayoutBox, LayoutBox)>> =
            GROUPS.iter().map(|_| Vec::new()).collect();
        let body = doc.body();
        for id in doc.subtree(body).filter(|&id| id != body) {
            let Some(tag) = doc.name(id) else { continue };
            let g = group_of(tag);
            let b = b_layout.get(id);
            let h = h_layout.get(id);
            let bv = b.is_some_and(|x| x.visible);
            let hv = h.is_some_and(|x| x.visible);
            page.add_visibility(bv, hv);
            by_group[g].add_visibility(bv, hv);
            if bv != hv {
                let e = vis_tags.entry(tag.to_string()).or_default();
                if hv {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
            if let (Some(b), Some(h), true, true) = (b, h, bv, hv) {
                page.add_box(b, h);
                by_group[g].add_box(b, h);
                shown.push((*b, *h));
                shown_group[g].push((*b, *h));
            }
        }
        if dump.as_deref() == Some(file.as_str()) {
            dump_page(&doc, &b_layout, &h_layout);
        }
        page.add_order(&shown, PAIRS_ALL, &mut rng);
        for (acc, boxes) in by_group.iter_mut().zip(&shown_group) {
            acc.add_order(boxes, PAIRS_GROUP, &mut rng);
        }
        let bh = b_layout.page().height;
        let ratio = if bh > 0.0 { h_layout.page().height / bh } else { f32::NAN };
        results.push(PageResult {
            set: set.clone(),
            file: file.clone(),
            style,
            elements: page.both as usize,
            width10: if page.both == 0 { f64::NAN } else { page.width10 as f64 / page.both as f64 },
            height_ratio: ratio,
            vis_agree: if page.vis_n == 0 {
                f64::NAN
            } else {
                page.vis_agree as f64 / page.vis_n as f64
            },
        });
        if ratio.is_finite() {
            page.height_ratio.push(ratio);
        }
        for acc in [&mut total, by_set.entry(set.clone()).or_default(), &mut by_style[style]] {
            merge(acc, &page);
        }
        if (n + 1) % 50 == 0 {
            eprintln!(
                "{} / {} pages, {:.0} s",
                n + 1,
                chosen.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }

    let failures: usize = failed.values().sum();
    println!("## Layout agreement: heuristic vs browser\n");
    println!(
        "{} pages chosen from {} ({} datasets), {} compared, {failures} failed{}; heuristic timed over {reps} repetitions; {:.0} s in all.\n",
        chosen.len(),
        data.display(),
        by_set.len().max(t_set.len()),
        results.len(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                failed.iter().map(|(s, n)| format!("{s}: {n}")).collect::<Vec<_>>().join(", ")
            )
        },
        started.elapsed().as_secs_f64()
    );
    println!("### Per-page time\n");
    println!("| layout | pages | mean | median | p95 | max |\n|---|---:|---:|---:|---:|---:|");
    println!("{}", times_row("heuristic", &mut t_heur));
    println!("{}", times_row("browser", &mut t_browser));
    for (set, (h, b)) in &mut t_set {
        println!("{}", times_row(&format!("heuristic, {set}"), h));
        println!("{}", times_row(&format!("browser, {set}"), b));
    }
    println!("\n### Agreement by dataset\n");
    println!("{HEADER}");
    println!("{}", total.row("**all**"));
    for (set, acc) in &mut by_set {
        println!("{}", acc.row(set));
    }
    println!("\n### Agreement by how the page is styled\n");
    println!("{HEADER}");
    for (label, acc) in STYLES.iter().zip(&mut by_style) {
        println!("{}", acc.row(label));
    }
    println!("\n### Agreement by tag group (all pages)\n");
    println!("{HEADER}");
    for (label, acc) in GROUPS.iter().zip(&mut by_group) {
        println!("{}", acc.row(label));
    }
    println!("\n### Visibility disagreements by tag (top 12)\n");
    println!("| tag | browser hides, heuristic shows | heuristic hides, browser shows |\n|---|---:|---:|");
    let mut tags: Vec<_> = vis_tags.into_iter().collect();
    tags.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(&b.0)));
    for (tag, (bh, hh)) in tags.iter().take(12) {
        println!("| {tag} | {bh} | {hh} |");
    }
    println!("\n### Pages furthest apart\n");
    println!("| page | style | both visible | width ±10 % | visible agrees | page height ratio |\n|---|---|---:|---:|---:|---:|");
    let mut worst: Vec<&PageResult> = results.iter().filter(|r| r.elements >= 20).collect();
    worst.sort_by(|a, b| a.width10.total_cmp(&b.width10));
    let mut by_ratio: Vec<&PageResult> =
        results.iter().filter(|r| r.height_ratio.is_finite()).collect();
    by_ratio.sort_by(|a, b| a.height_ratio.total_cmp(&b.height_ratio));
    let low_vis: Vec<&PageResult> = results.iter().filter(|r| r.vis_agree < 0.8).take(4).collect();
    let extremes = worst
        .iter()
        .take(6)
        .chain(by_ratio.iter().take(3))
        .chain(by_ratio.iter().rev().take(3))
        .chain(low_vis.iter());
    let mut seen = Vec::new();
    for r in extremes {
        let key = format!("{}/{}", r.set, r.file);
        if seen.contains(&key) {
            continue;
        }
        println!(
            "| {key} | {} | {} | {:.0} % | {:.0} % | {:.2} |",
            STYLES[r.style],
            r.elements,
            100.0 * r.width10,
            100.0 * r.vis_agree,
            r.height_ratio
        );
        seen.push(key);
    }
    Ok(())
}

/// Prints (to stderr) the boxes of one page's elements side by side, for
/// looking into a disagreement: `COMPARE_DUMP=<file name>`.
fn dump_page(doc: &Document, b: &Layout, h: &Layout) {
    let (bp, hp) = (b.page(), h.page());
    eprintln!(
        "page: browser {:.0}x{:.0}, heuristic {:.0}x{:.0}",
        bp.width, bp.height, hp.width, hp.height
    );
    let body = doc.body();
    for id in doc.subtree(body) {
        let (Some(tag), Some(e)) = (doc.name(id), doc.element(id)) else { continue };
        let depth = doc.ancestors(id).take_while(|&a| a != body).count();
        let show = |x: Option<&LayoutBox>| {
            x.map_or("-".to_owned(), |x| {
                let r = x.rect;
                format!(
                    "{}{:.0},{:.0} {:.0}x{:.0} f{:.0}",
                    if x.visible { "" } else { "HIDDEN " },
                    r.left,
                    r.top,
                    r.width,
                    r.height,
                    x.font_size
                )
            })
        };
        let mut label = e.id_and_class();
        label.truncate(30);
        eprintln!(
            "{:indent$}{tag} [{}] b: {} | h: {}",
            "",
            label.trim(),
            show(b.get(id)),
            show(h.get(id)),
            indent = depth.min(30)
        );
    }
}

/// Adds one page's counts to an aggregate.
fn merge(acc: &mut Acc, page: &Acc) {
    acc.pages += 1;
    acc.vis_n += page.vis_n;
    acc.vis_agree += page.vis_agree;
    acc.browser_hides += page.browser_hides;
    acc.heuristic_hides += page.heuristic_hides;
    acc.both += page.both;
    acc.font1 += page.font1;
    acc.font_abs += page.font_abs;
    acc.width_rel.extend_from_slice(&page.width_rel);
    acc.width10 += page.width10;
    acc.left10 += page.left10;
    acc.height_rel.extend_from_slice(&page.height_rel);
    acc.concordant += page.concordant;
    acc.discordant += page.discordant;
    acc.height_ratio.extend_from_slice(&page.height_ratio);
}
