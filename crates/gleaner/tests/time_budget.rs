//! The per-document time budget (issue 13): parsing past it is an error,
//! and extractors stop early on a page whose budget is spent, leaving the
//! [`Deadline`] marked so that callers report the page instead of passing
//! a cut-short extraction for its content.

use std::time::Duration;

use gleaner::document::Deadline;
use gleaner::extract::{self, Params};
use gleaner::{Document, ParseOptions};

fn fixture() -> Document {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/ars-1.html");
    let bytes = std::fs::read(path).expect("fixture");
    Document::parse(&bytes, &ParseOptions::default()).expect("parse")
}

fn spent() -> Deadline {
    Deadline::starting_now(Some(Duration::ZERO))
}

#[test]
fn every_extractor_returns_on_a_page_out_of_time() {
    let page = fixture();
    for algorithm in extract::algorithms() {
        let Ok(extractor) = algorithm.build(&Params::new()) else { continue };
        let doc = page.clone().with_deadline(spent());
        // Returns (no hang, no panic); the page reads as out of time.
        let _ = extractor.extract(&doc);
        assert!(doc.deadline().expired(), "{}", algorithm.name);
    }
}

#[test]
fn article_stops_before_its_passes_when_out_of_time() {
    let page = fixture();
    let article = extract::by_name("article").unwrap();
    let whole = article.extract(&page);
    assert!(whole.count() > 0);
    assert!(!page.deadline().was_hit());
    let late = page.clone().with_deadline(spent());
    assert_eq!(article.extract(&late).count(), 0);
    assert!(late.deadline().was_hit());
}

#[test]
fn iterative_clusterings_stop_when_out_of_time() {
    let page = fixture();
    for name in ["ttr-kmeans", "ttr-em", "cetr"] {
        let extractor = extract::by_name(name).unwrap();
        let _ = extractor.extract(&page);
        assert!(!page.deadline().was_hit(), "{name} with time to spare");
        let late = page.clone().with_deadline(spent());
        let _ = extractor.extract(&late);
        assert!(late.deadline().was_hit(), "{name} checked its deadline");
    }
}
