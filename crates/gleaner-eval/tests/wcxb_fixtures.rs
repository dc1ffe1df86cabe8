//! A page of each WCXB type, copied from `../shared/data/wcxb-dev` into
//! `tests/fixtures/wcxb/` (CC-BY-4.0, attribution in its README.md), so
//! that a clone of the repository alone checks the default extractor on
//! today's pages: a floor of the benchmark's word F1 per page (issue 30),
//! 0.02 under what the shipped model scores, and the page's type. (The
//! retrain of November 29, after the glue rule changed Readability's gold
//! text, moved two: 0274 0.876 → 0.750 and 4852 0.93 → 0.875, while the
//! in-sample means of their types rose, listings 0.783 → 0.793 and
//! collections 0.688 → 0.706. The page's own threshold for listings and
//! collections, which raised them out of fold 0.641 → 0.685 and 0.606 →
//! 0.621, moved 0274 again, 0.750 → 0.721, and 4852 0.875 → 0.863.)

use gleaner::extract::{self, Extractor};
use gleaner::{render, Document};
use gleaner_eval::dataset::Dataset;
use gleaner_eval::word_prf;

/// Page id, its labelled type, the word F1 floor.
const FLOORS: &[(&str, &str, f64)] = &[
    ("4451", "article", 0.90),
    ("4852", "collection", 0.85),
    ("0239", "documentation", 0.94),
    // 0.911 before the model was retrained with React's streamed parts in
    // place (November 30), 0.896 since: the same posts, and the thread's
    // title repeated over the first post and its author's post count
    // kept (word precision 0.964 -> 0.930).
    ("0525", "forum", 0.88),
    ("0274", "listing", 0.70),
    ("4107", "product", 0.87),
    ("4854", "service", 0.90),
];

#[test]
fn the_default_reaches_its_floor_on_a_page_of_every_type() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wcxb");
    let data = Dataset::open(&dir).expect("the WCXB fixtures");
    assert!(data.has_page_types(), "read as WCXB");
    assert_eq!(data.len(), FLOORS.len(), "a floor for every fixture");
    let extractor = extract::by_name(extract::DEFAULT_ALGORITHM).expect("default");
    let mut types = Vec::new();
    let mut failures = Vec::new();
    for i in 0..data.len() {
        let page = data.load(i).expect("page");
        let (_, page_type, floor) = FLOORS
            .iter()
            .find(|f| f.0 == page.id)
            .unwrap_or_else(|| panic!("no floor for {}", page.id));
        assert_eq!(page.labels.page_type.as_deref(), Some(*page_type), "{}", page.id);
        types.push(*page_type);
        let options = data.parse_options().clone().url(page.url.clone());
        let doc = Document::parse(&page.html, &options).expect("parses");
        let text = render::text(&doc, &extractor.extract(&doc));
        let f1 = word_prf(&text, &page.gold).f1;
        println!("{} {page_type}: word F1 {f1:.3} (floor {floor})", page.id);
        if f1 < *floor {
            failures.push(format!("{} ({page_type}): F1 {f1:.3} < floor {floor}", page.id));
        }
    }
    types.sort_unstable();
    types.dedup();
    assert_eq!(types.len(), 7, "one page of each type at least: {types:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
