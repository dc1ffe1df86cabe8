//! Cost of site-template detection (issue 8): structural fingerprints,
//! the distances between two pages, and single-linkage clustering from a
//! thousand real pages up to a hundred thousand synthetic ones.
//!
//! Groups (run with `cargo bench -p gleaner --bench template -- --warm-up-time 1
//! --measurement-time 3`; add a group name to run one):
//!
//! - `fingerprint`: [`Fingerprint::of`] on each fixture page, the page
//!   parsed outside the timed loop; throughput in the page's bytes. Also
//!   `ElementTree::of`, what RTDM needs instead.
//! - `distance`: one pair of real pages per size class (small, medium,
//!   large by element count; the two pages of different templates, RTDM's
//!   hard case) plus one pair of the same template: [`set_distance`] on the
//!   CP, CPS and CTSS sets against [`rtdm_distance`] on the element trees,
//!   the comparison of Gottron's Figure 1 (set distances linear in the
//!   sets, RTDM quadratic per pair).
//! - `cluster-1000`: [`cluster`] of 1 000 real pages' shapes (fingerprints
//!   made once at setup from the WCEB pages and the two real sites in
//!   `../shared/data`) with CP, CPS and CTSS at their default thresholds:
//!   the exact all-pairs path.
//! - `cluster-10000`: [`cluster`] of 10 000 synthetic shapes (real
//!   fingerprints perturbed, see [`synthesise`]): the MinHash path above
//!   [`EXACT_LIMIT`]. Before timing, a one-shot report prints the time,
//!   the peak memory and how many clusters were found against how many
//!   templates were planted.
//!
//! Setup also prints, once: parse and fingerprint time over the whole
//! corpus, and a single-linkage run with RTDM against CP on a few dozen
//! pages.
//!
//! Larger collections are too slow for criterion's repeated samples:
//! `GLEANER_BENCH_SCALE=10000,100000 cargo bench -p gleaner --bench template`
//! runs only the one-shot report at each size (seconds, MB, clusters
//! found vs planted) and exits.
//!
//! Without the data folder (`$GLEANER_WCEB_DIR`, else
//! `../shared/data/wceb` beside the repository) the 1 000 pages are the
//! fixtures replicated with perturbed fingerprints, which the output
//! says.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use gleaner::template::{
    self, page_distance, rtdm_distance, set_distance, single_linkage, Distance, ElementTree,
    Fingerprint, PageShape, DEFAULT_SHINGLE, EXACT_LIMIT,
};
use gleaner::{Document, ParseOptions};

/// The fixture pages (`tests/fixtures/*.html`), read once, by name.
fn fixtures() -> &'static [(String, Vec<u8>)] {
    static FIXTURES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut files = Vec::new();
        collect_html(&dir, &mut files);
        files.sort();
        let pages: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|path| {
                let name =
                    path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into());
                (name, std::fs::read(path).expect("fixture readable"))
            })
            .collect();
        assert!(!pages.is_empty(), "no fixture pages in {}", dir.display());
        pages
    })
}

/// Pages of the real corpus that `cluster-1000` clusters.
const CORPUS_PAGES: usize = 1_000;

/// The set distances, in the paper's order.
const SET_DISTANCES: [Distance; 3] = [Distance::Cp, Distance::Cps, Distance::Ctss];

// ---------------------------------------------------------------------
// Criterion groups
// ---------------------------------------------------------------------

/// `fingerprint`: `Fingerprint::of` (and `ElementTree::of`, RTDM's input)
/// on each fixture, parse excluded, throughput in bytes of HTML.
fn fingerprint(c: &mut Criterion) {
    let mut group = c.benchmark_group("fingerprint");
    for (name, html) in fixtures() {
        let doc = Document::parse(html, &ParseOptions::default()).expect("fixture parses");
        group.throughput(Throughput::Bytes(html.len() as u64));
        group.bench_with_input(BenchmarkId::new("sets", name), &doc, |b, doc| {
            b.iter(|| Fingerprint::of(doc, DEFAULT_SHINGLE))
        });
        group.bench_with_input(BenchmarkId::new("element-tree", name), &doc, |b, doc| {
            b.iter(|| ElementTree::of(doc))
        });
    }
    group.finish();
}

/// `distance`: one pair of pages per class, each set distance against
/// RTDM (Figure 1). The pairs are chosen at setup ([`pairs`]), which
/// prints their element counts and set sizes.
fn distance(c: &mut Criterion) {
    let mut group = c.benchmark_group("distance");
    group.sample_size(20);
    for class in PairClass::ALL {
        for d in Distance::ALL {
            let id = BenchmarkId::new(d.name(), class.name());
            group.bench_function(id, |b| {
                let Some(pair) = pairs().iter().find(|p| p.class == class) else {
                    // No such pair in this corpus: nothing to time.
                    b.iter(|| 0.0);
                    return;
                };
                b.iter(|| page_distance(d, &pair.a, &pair.b))
            });
        }
    }
    group.finish();
}

/// `cluster-1000`: all-pairs single linkage of the corpus' 1 000 shapes,
/// per set distance at its default threshold.
fn cluster_1000(c: &mut Criterion) {
    let mut group = c.benchmark_group("cluster-1000");
    group.sample_size(10);
    for d in SET_DISTANCES {
        group.bench_function(d.name(), |b| {
            let shapes = &corpus().shapes;
            b.iter(|| template::cluster(shapes, d, d.default_threshold()))
        });
    }
    group.finish();
}

/// `cluster-10000`: the MinHash path on 10 000 synthetic shapes per set
/// distance (one-shot quality and memory report first).
fn cluster_10000(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("cluster-10000");
    group.sample_size(10);
    for (k, d) in SET_DISTANCES.into_iter().enumerate() {
        group.bench_function(d.name(), |b| {
            static SYNTH: [OnceLock<Synthetic>; 3] =
                [OnceLock::new(), OnceLock::new(), OnceLock::new()];
            let synth = SYNTH[k].get_or_init(|| {
                let s = synthesise(d, N, 0x5eed_0000 + k as u64);
                report_scale(d, &s);
                s
            });
            b.iter(|| template::cluster(&synth.shapes, d, d.default_threshold()))
        });
    }
    group.finish();
}

fn main() {
    if let Some(sizes) = scale_from_env() {
        println!("one-shot clustering at scale (GLEANER_BENCH_SCALE): {sizes:?} pages");
        for n in sizes {
            for (k, d) in SET_DISTANCES.into_iter().enumerate() {
                let synth = synthesise(d, n, 0x5eed_0000 + k as u64);
                report_scale(d, &synth);
            }
        }
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    fingerprint(&mut c);
    distance(&mut c);
    cluster_1000(&mut c);
    cluster_10000(&mut c);
    c.final_summary();
}

/// The sizes in `$GLEANER_BENCH_SCALE` (comma-separated page counts).
fn scale_from_env() -> Option<Vec<usize>> {
    let value = std::env::var("GLEANER_BENCH_SCALE").ok()?;
    let sizes: Vec<usize> = value
        .split(',')
        .map(|s| s.trim().replace('_', ""))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("GLEANER_BENCH_SCALE: comma-separated page counts"))
        .collect();
    (!sizes.is_empty()).then_some(sizes)
}

// ---------------------------------------------------------------------
// The real corpus
// ---------------------------------------------------------------------

/// One parsed page of the corpus.
struct Page {
    name: String,
    html: Html,
    bytes: usize,
    elements: usize,
    fingerprint: Fingerprint,
}

/// Where a page's HTML is, to parse it again when its tree is needed.
enum Html {
    File(PathBuf),
    Fixture(&'static [u8]),
}

impl Page {
    fn document(&self) -> Document {
        let bytes = match &self.html {
            Html::File(path) => std::fs::read(path).expect("corpus page still readable"),
            Html::Fixture(b) => b.to_vec(),
        };
        Document::parse(&bytes, &ParseOptions::default()).expect("page parsed before")
    }
}

/// The pages and the 1 000 shapes clustered from them.
struct Corpus {
    /// The distinct real pages.
    pages: Vec<Page>,
    /// [`CORPUS_PAGES`] shapes: the pages' fingerprints, or perturbed
    /// copies of the fixtures' when the data folder is absent.
    shapes: Vec<PageShape>,
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(load_corpus)
}

fn data_dir() -> PathBuf {
    std::env::var_os("GLEANER_WCEB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wceb"))
}

/// The corpus' files, a mixed crawl in a fixed order: four news portals
/// (cleanportaleval), two whole sites, then the WCEB sets of many sites.
fn corpus_files(wceb: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut html_under = |dir: PathBuf| {
        let mut found = Vec::new();
        collect_html(&dir, &mut found);
        found.sort();
        files.extend(found);
    };
    html_under(wceb.join("cleanportaleval/input"));
    if let Some(shared) = wceb.parent() {
        html_under(shared.join("sites/linux-shell/site"));
        html_under(shared.join("sites/shell-novice/site"));
    }
    for set in ["cleaneval-dev", "readability", "l3s-gn1", "dragnet", "cleaneval-final"] {
        html_under(wceb.join(set).join("input"));
    }
    files
}

fn collect_html(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_html(&path, out);
        } else if path.extension().is_some_and(|e| e == "html" || e == "htm") {
            out.push(path);
        }
    }
}

fn load_corpus() -> Corpus {
    let wceb = data_dir();
    let files = corpus_files(&wceb);
    let options = ParseOptions::default();
    let (mut parse_time, mut fp_time) = (Duration::ZERO, Duration::ZERO);
    let mut pages = Vec::new();
    let mut failed = 0;
    for path in files {
        if pages.len() == CORPUS_PAGES {
            break;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let start = Instant::now();
        let Ok(doc) = Document::parse(&bytes, &options) else {
            failed += 1;
            continue;
        };
        let parsed = Instant::now();
        let fingerprint = Fingerprint::of(&doc, DEFAULT_SHINGLE);
        fp_time += parsed.elapsed();
        parse_time += parsed - start;
        let name = path.strip_prefix(&wceb).unwrap_or(&path).display().to_string();
        let elements = doc.ids().filter(|&id| doc.element(id).is_some()).count();
        pages.push(Page {
            name,
            html: Html::File(path),
            bytes: bytes.len(),
            elements,
            fingerprint,
        });
    }
    let real = pages.len();
    if real < CORPUS_PAGES {
        println!(
            "corpus: {} has {real} readable pages, fewer than {CORPUS_PAGES}: \
             using the fixtures replicated with perturbed fingerprints instead",
            wceb.display()
        );
        pages.clear();
        for (name, html) in fixtures() {
            let start = Instant::now();
            let doc = Document::parse(html, &options).expect("fixture parses");
            let parsed = Instant::now();
            let fingerprint = Fingerprint::of(&doc, DEFAULT_SHINGLE);
            fp_time += parsed.elapsed();
            parse_time += parsed - start;
            let elements = doc.ids().filter(|&id| doc.element(id).is_some()).count();
            let (bytes, html) = (html.len(), Html::Fixture(html));
            pages.push(Page { name: name.clone(), html, bytes, elements, fingerprint });
        }
    }
    let bytes: usize = pages.iter().map(|p| p.bytes).sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "corpus: {} pages, {mb:.1} MB ({failed} did not parse); \
         parse {:.0} ms ({:.2} ms/page, {:.1} ms/MB); \
         Fingerprint::of {:.0} ms ({:.3} ms/page, {:.2} ms/MB)",
        pages.len(),
        ms(parse_time),
        ms(parse_time) / pages.len() as f64,
        ms(parse_time) / mb,
        ms(fp_time),
        ms(fp_time) / pages.len() as f64,
        ms(fp_time) / mb,
    );
    let mean = |f: fn(&Fingerprint) -> usize| {
        pages.iter().map(|p| f(&p.fingerprint)).sum::<usize>() as f64 / pages.len() as f64
    };
    println!(
        "corpus: mean set sizes CP {:.0}, CPS {:.0}, CTSS {:.0}; mean elements {:.0}",
        mean(|f| f.paths.len()),
        mean(|f| f.path_shingles.len()),
        mean(|f| f.tag_shingles.len()),
        pages.iter().map(|p| p.elements).sum::<usize>() as f64 / pages.len() as f64,
    );
    let shapes: Vec<PageShape> = if pages.len() >= CORPUS_PAGES {
        pages.iter().map(|p| shape_of(p.fingerprint.clone())).collect()
    } else {
        let mut rng = Rng(0x0f1c_57e5);
        (0..CORPUS_PAGES)
            .map(|i| {
                let fp = &pages[i % pages.len()].fingerprint;
                shape_of(Fingerprint {
                    paths: perturb(&fp.paths, &mut rng),
                    path_shingles: perturb(&fp.path_shingles, &mut rng),
                    tag_shingles: perturb(&fp.tag_shingles, &mut rng),
                })
            })
            .collect()
    };
    report_real_clusters(&shapes);
    report_reference_kernels(&shapes);
    report_minhash_at_1000(&shapes);
    report_rtdm_linkage(&pages);
    Corpus { pages, shapes }
}

fn shape_of(fingerprint: Fingerprint) -> PageShape {
    PageShape { fingerprint, tree: None }
}

/// Clusters found in the 1 000 shapes, timed once per distance.
fn report_real_clusters(shapes: &[PageShape]) {
    for d in SET_DISTANCES {
        let start = Instant::now();
        let labels = template::cluster(shapes, d, d.default_threshold());
        let took = start.elapsed();
        let clusters = labels.iter().max().map_or(0, |m| m + 1);
        let sizes = template::groups(&labels);
        let multi = sizes.iter().filter(|g| g.len() > 1).count();
        println!(
            "cluster-1000 one-shot: {:>4} {:>7.1} ms, {clusters} clusters ({multi} with 2+ pages)",
            d.name(),
            ms(took),
        );
    }
}

/// Reference, not the library's code: the same all-pairs single linkage
/// with a branch-free merge for `|A ∩ B|` and a size-ratio bound (two
/// sets whose sizes differ by more than the threshold allows are apart
/// without a merge). Shows what the exact path could cost; labels must
/// equal the library's.
fn report_reference_kernels(shapes: &[PageShape]) {
    for d in SET_DISTANCES {
        let t = d.default_threshold();
        let set = |i: usize| d.set_of(&shapes[i].fingerprint).expect("a set distance");
        let skipped = Cell::new(0usize);
        let start = Instant::now();
        let labels = single_linkage(shapes.len(), t, |i, j| {
            let (a, b) = (set(i), set(j));
            let (small, large) = (a.len().min(b.len()), a.len().max(b.len()));
            if large == 0 {
                return 0.0;
            }
            // |A ∩ B| ≤ min, so the distance is at least 1 − min/max.
            if 1.0 - small as f64 / large as f64 > t {
                skipped.set(skipped.get() + 1);
                return 1.0;
            }
            1.0 - branch_free_intersection(a, b) as f64 / large as f64
        });
        let took = start.elapsed();
        let same = labels == template::cluster(shapes, d, t);
        println!(
            "cluster-1000 reference kernel: {:>4} {:>7.1} ms \
             ({} pairs skipped by size), same labels: {same}",
            d.name(),
            ms(took),
            skipped.get(),
        );
    }
}

/// Reference: the MinHash path that [`template::cluster`] takes above
/// [`EXACT_LIMIT`], run on the 1 000 real pages, against the exact labels.
fn report_minhash_at_1000(shapes: &[PageShape]) {
    for d in SET_DISTANCES {
        let t = d.default_threshold();
        let start = Instant::now();
        let signatures: Vec<_> = shapes
            .iter()
            .map(|p| template::cluster::minhash(d.set_of(&p.fingerprint).unwrap_or(&[])))
            .collect();
        let pairs = template::cluster::candidate_pairs(&signatures, 64);
        let count = pairs.len();
        let labels = template::single_linkage_over(shapes.len(), pairs, t, |i, j| {
            page_distance(d, &shapes[i], &shapes[j])
        });
        let took = start.elapsed();
        let exact = template::cluster(shapes, d, t);
        let quality = Quality::of(&exact, &labels);
        println!(
            "cluster-1000 via MinHash: {:>4} {:>7.1} ms ({count} candidate pairs), \
             {} clusters; exact clusters split: {} (into {} extra)",
            d.name(),
            ms(took),
            quality.found,
            quality.split,
            quality.pieces,
        );
    }
}

/// `|A ∩ B|` of two sorted sets without data-dependent branches.
fn branch_free_intersection(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        n += usize::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    n
}

/// Single linkage with RTDM against CP on a few dozen pages spread over
/// the corpus: RTDM's per-pair cost is what keeps it off large
/// collections.
fn report_rtdm_linkage(pages: &[Page]) {
    const N: usize = 40;
    let step = (pages.len() / N).max(1);
    let chosen: Vec<&Page> = pages.iter().step_by(step).take(N).collect();
    let trees: Vec<PageShape> = chosen
        .iter()
        .map(|p| PageShape::of(&p.document(), Distance::Rtdm, DEFAULT_SHINGLE))
        .collect();
    for d in [Distance::Rtdm, Distance::Cp] {
        let calls = Cell::new(0usize);
        let start = Instant::now();
        let labels = single_linkage(trees.len(), d.default_threshold(), |i, j| {
            calls.set(calls.get() + 1);
            page_distance(d, &trees[i], &trees[j])
        });
        let took = start.elapsed();
        let clusters = labels.iter().max().map_or(0, |m| m + 1);
        println!(
            "linkage over {} pages: {:>4} {:>9.2} ms for {} distances \
             ({:.4} ms each), {clusters} clusters",
            trees.len(),
            d.name(),
            ms(took),
            calls.get(),
            ms(took) / calls.get().max(1) as f64,
        );
    }
}

// ---------------------------------------------------------------------
// Page pairs for `distance`
// ---------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PairClass {
    Small,
    Medium,
    Large,
    SameTemplate,
}

impl PairClass {
    const ALL: [PairClass; 4] =
        [PairClass::Small, PairClass::Medium, PairClass::Large, PairClass::SameTemplate];

    fn name(self) -> &'static str {
        match self {
            PairClass::Small => "small",
            PairClass::Medium => "medium",
            PairClass::Large => "large",
            PairClass::SameTemplate => "same-template",
        }
    }
}

struct Pair {
    class: PairClass,
    a: PageShape,
    b: PageShape,
}

/// The pairs, chosen once: for the size classes, the page at the 10th,
/// 50th and 90th percentile of element count and the nearest-sized page
/// of another template (CP distance above its threshold); for
/// `same-template`, the largest two consecutive corpus pages within the
/// CP threshold of each other.
fn pairs() -> &'static [Pair] {
    static PAIRS: OnceLock<Vec<Pair>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let pages = &corpus().pages;
        let cp = |i: usize, j: usize| {
            set_distance(&pages[i].fingerprint.paths, &pages[j].fingerprint.paths)
        };
        let threshold = Distance::Cp.default_threshold();
        let mut by_size: Vec<usize> = (0..pages.len()).collect();
        by_size.sort_by_key(|&i| pages[i].elements);
        let mut chosen: Vec<(PairClass, usize, usize)> = Vec::new();
        let classes = [(PairClass::Small, 0.1), (PairClass::Medium, 0.5), (PairClass::Large, 0.9)];
        for (class, q) in classes {
            let r = ((by_size.len() - 1) as f64 * q).round() as usize;
            let i = by_size[r];
            // Nearest rank, alternating up and down, of another template.
            let other = (1..by_size.len())
                .flat_map(|off| [r.checked_add(off), r.checked_sub(off)])
                .flatten()
                .filter(|&s| s < by_size.len())
                .map(|s| by_size[s])
                .find(|&j| cp(i, j) > threshold);
            if let Some(j) = other {
                chosen.push((class, i, j));
            }
        }
        let same = (1..pages.len())
            .filter(|&i| cp(i - 1, i) <= threshold && cp(i - 1, i) > 0.0)
            .max_by_key(|&i| pages[i - 1].elements.min(pages[i].elements));
        if let Some(i) = same {
            chosen.push((PairClass::SameTemplate, i - 1, i));
        }
        chosen
            .into_iter()
            .map(|(class, i, j)| {
                let shape =
                    |p: &Page| PageShape::of(&p.document(), Distance::Rtdm, DEFAULT_SHINGLE);
                let (a, b) = (shape(&pages[i]), shape(&pages[j]));
                println!(
                    "distance pair {:<13} {} ({} elements, CP/CPS/CTSS {}/{}/{}) \
                     vs {} ({} elements, {}/{}/{}): \
                     CP {:.3} CPS {:.3} CTSS {:.3} RTDM {:.3}",
                    class.name(),
                    pages[i].name,
                    pages[i].elements,
                    a.fingerprint.paths.len(),
                    a.fingerprint.path_shingles.len(),
                    a.fingerprint.tag_shingles.len(),
                    pages[j].name,
                    pages[j].elements,
                    b.fingerprint.paths.len(),
                    b.fingerprint.path_shingles.len(),
                    b.fingerprint.tag_shingles.len(),
                    page_distance(Distance::Cp, &a, &b),
                    page_distance(Distance::Cps, &a, &b),
                    page_distance(Distance::Ctss, &a, &b),
                    rtdm_distance(a.tree.as_ref().expect("tree"), b.tree.as_ref().expect("tree")),
                );
                Pair { class, a, b }
            })
            .collect()
    })
}

// ---------------------------------------------------------------------
// Synthetic collections
// ---------------------------------------------------------------------

/// A synthetic collection for one distance: shapes carrying only that
/// distance's set, and the planted template of each page.
struct Synthetic {
    shapes: Vec<PageShape>,
    /// Planted template per page; singletons have a label of their own.
    truth: Vec<usize>,
    /// Distinct templates (with 2+ pages) and singletons planted.
    templates: usize,
    singletons: usize,
}

/// Templates planted in a synthetic collection: 300, or
/// `$GLEANER_BENCH_TEMPLATES`.
fn templates_planted() -> usize {
    std::env::var("GLEANER_BENCH_TEMPLATES")
        .ok()
        .map(|v| v.trim().parse().expect("GLEANER_BENCH_TEMPLATES: a number"))
        .filter(|&t| t > 0)
        .unwrap_or(300)
}
/// Share of synthetic pages that are singletons (one-page templates).
const SINGLETON_SHARE: f64 = 0.05;

/// `n` synthetic shapes for `distance`, deterministic in `seed`.
///
/// Prototypes: the real corpus is clustered exactly with `distance`, and
/// the first page of each cluster is a prototype (prototypes are thus
/// farther apart than the threshold, so each is a template of its own).
/// When [`templates_planted`] exceeds the clusters, further prototypes are real
/// ones with every hash salted: the same size, nothing in common with
/// anything. Template sizes are skewed (template `⌊T·u²⌋` for uniform
/// `u`), as in a crawl where a few templates have most pages; each page
/// is its prototype perturbed ([`perturb`]). [`SINGLETON_SHARE`] of the
/// pages are singletons: a real page's set salted uniquely, then
/// perturbed.
fn synthesise(distance: Distance, n: usize, seed: u64) -> Synthetic {
    let corpus = corpus();
    let templates = templates_planted();
    let sets: Vec<&[u64]> = corpus
        .shapes
        .iter()
        .map(|s| distance.set_of(&s.fingerprint).expect("a set distance"))
        .collect();
    let labels = template::cluster(&corpus.shapes, distance, distance.default_threshold());
    let representatives: Vec<&[u64]> =
        template::groups(&labels).iter().map(|g| sets[g[0]]).collect();
    let prototypes: Vec<Vec<u64>> = (0..templates)
        .map(|t| {
            let real = representatives[t % representatives.len()];
            match t / representatives.len() {
                0 => real.to_vec(),
                salt => salted(real, salt as u64),
            }
        })
        .collect();
    let mut rng = Rng(seed);
    let mut shapes = Vec::with_capacity(n);
    let mut truth = Vec::with_capacity(n);
    for i in 0..n {
        let (label, base) = if rng.unit() < SINGLETON_SHARE {
            let real = sets[rng.below(sets.len())];
            (templates + i, salted(real, 1_000_000 + i as u64))
        } else {
            let u = rng.unit();
            let t = ((templates as f64 * u * u) as usize).min(templates - 1);
            (t, prototypes[t].clone())
        };
        let set = perturb(&base, &mut rng);
        let mut fingerprint = Fingerprint::default();
        match distance {
            Distance::Cp => fingerprint.paths = set,
            Distance::Cps => fingerprint.path_shingles = set,
            _ => fingerprint.tag_shingles = set,
        }
        shapes.push(shape_of(fingerprint));
        truth.push(label);
    }
    let mut planted = truth.clone();
    planted.sort_unstable();
    planted.dedup();
    let singletons = planted.iter().filter(|&&l| l >= templates).count();
    Synthetic { shapes, truth, templates: planted.len() - singletons, singletons }
}

/// `set` with every hash remixed by `salt`: the same size, disjoint from
/// the original (but for a 2⁻⁶⁴ accident).
fn salted(set: &[u64], salt: u64) -> Vec<u64> {
    let mut out: Vec<u64> =
        set.iter().map(|&h| splitmix(h ^ salt.wrapping_mul(0xa076_1d64_78bd_642f))).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `set` with up to 3 % of its hashes dropped (none from a set of fewer
/// than 34) and up to 3 % (at least 1) random hashes added; sorted and
/// distinct, as fingerprints are.
fn perturb(set: &[u64], rng: &mut Rng) -> Vec<u64> {
    let drop = rng.below(set.len() * 3 / 100 + 1);
    let add = rng.below((set.len() * 3 / 100).max(1) + 1);
    let mut out = set.to_vec();
    for _ in 0..drop {
        let k = rng.below(out.len());
        out.swap_remove(k);
    }
    out.extend((0..add).map(|_| rng.next()));
    out.sort_unstable();
    out.dedup();
    out
}

/// Times [`template::cluster`] once on `synth`, with its peak memory, the
/// MinHash stages apart, and clusters found against templates planted.
fn report_scale(distance: Distance, synth: &Synthetic) {
    let n = synth.shapes.len();
    let set_bytes: usize = synth
        .shapes
        .iter()
        .map(|s| distance.set_of(&s.fingerprint).map_or(0, <[u64]>::len) * 8)
        .sum();
    let shape_bytes = n * std::mem::size_of::<PageShape>() + set_bytes;
    let rss_before = proc_status_kb("VmRSS");
    reset_peak_rss();
    let start = Instant::now();
    let labels = template::cluster(&synth.shapes, distance, distance.default_threshold());
    let took = start.elapsed();
    let peak = proc_status_kb("VmHWM");
    let extra = peak.zip(rss_before).map(|(p, b)| p.saturating_sub(b) as f64 / 1024.0);
    // The MinHash stages apart (the same work `cluster` does above the limit).
    let stages = (n > EXACT_LIMIT).then(|| {
        let start = Instant::now();
        let signatures: Vec<_> = synth
            .shapes
            .iter()
            .map(|p| template::cluster::minhash(distance.set_of(&p.fingerprint).unwrap_or(&[])))
            .collect();
        let signed = start.elapsed();
        let pairs = template::cluster::candidate_pairs(&signatures, 64);
        (signed, start.elapsed() - signed, pairs.len())
    });
    let quality = Quality::of(&synth.truth, &labels);
    println!(
        "scale {n:>6} {:>4}: cluster {:>8.2} s; shapes {:.0} MB ({:.0} B/page, mean set {:.0}); \
         peak RSS over the shapes during cluster: {}; RSS after {}",
        distance.name(),
        took.as_secs_f64(),
        shape_bytes as f64 / 1e6,
        shape_bytes as f64 / n as f64,
        set_bytes as f64 / 8.0 / n as f64,
        extra.map_or("n/a".to_string(), |mb| format!("{mb:.0} MB")),
        proc_status_kb("VmRSS")
            .map_or("n/a".to_string(), |kb| format!("{:.0} MB", kb as f64 / 1024.0)),
    );
    if let Some((signed, paired, count)) = stages {
        println!(
            "scale {n:>6} {:>4}: of which minhash {:.2} s, candidate_pairs {:.2} s \
             ({count} pairs, {:.1} per page)",
            distance.name(),
            signed.as_secs_f64(),
            paired.as_secs_f64(),
            count as f64 / n as f64,
        );
    }
    println!(
        "scale {n:>6} {:>4}: planted {} templates + {} singletons = {}; found {} clusters; \
         {} templates split (into {} extra clusters), {} clusters mixing templates",
        distance.name(),
        synth.templates,
        synth.singletons,
        synth.templates + synth.singletons,
        quality.found,
        quality.split,
        quality.pieces,
        quality.merged,
    );
}

/// Found clusters against planted templates.
struct Quality {
    found: usize,
    /// Planted templates spread over more than one found cluster.
    split: usize,
    /// Clusters beyond one per planted template, from those splits.
    pieces: usize,
    /// Found clusters holding pages of more than one planted template.
    merged: usize,
}

impl Quality {
    fn of(truth: &[usize], found: &[usize]) -> Quality {
        // Distinct (template, cluster) pairs: a template split over k
        // clusters has k of them, a cluster mixing m templates m.
        let mut by_template: Vec<(usize, usize)> =
            truth.iter().copied().zip(found.iter().copied()).collect();
        by_template.sort_unstable();
        by_template.dedup();
        let mut by_cluster: Vec<(usize, usize)> =
            by_template.iter().map(|&(t, c)| (c, t)).collect();
        by_cluster.sort_unstable();
        let runs = |v: &[(usize, usize)]| {
            v.chunk_by(|x, y| x.0 == y.0).map(<[_]>::len).collect::<Vec<_>>()
        };
        let clusters = runs(&by_cluster);
        let templates = runs(&by_template);
        Quality {
            pieces: templates.iter().map(|k| k - 1).sum(),
            found: clusters.len(),
            split: templates.iter().filter(|&&k| k > 1).count(),
            merged: clusters.iter().filter(|&&m| m > 1).count(),
        }
    }
}

// ---------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A field of `/proc/self/status` in kB (Linux; `None` elsewhere).
fn proc_status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line =
        status.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// Resets VmHWM to the current RSS (Linux ≥ 4.0; ignored elsewhere).
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// SplitMix64: a small deterministic generator, so runs are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        splitmix(self.0)
    }

    /// Uniform in `0..n` (`n > 0`; 0 for `n == 0`).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next() % n as u64) as usize
    }

    /// Uniform in \[0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
