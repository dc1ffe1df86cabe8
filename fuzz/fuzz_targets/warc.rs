//! Any bytes as a WARC archive (plain or gzip): reading never panics, and
//! every recorded URL can be fetched (following recorded redirects) and
//! its page parsed.
#![no_main]

use gleaner::{Document, ParseOptions};
use gleaner_crawl::{PageSource, WarcSource};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = WarcSource::from_reader(data) else { return };
    assert!(source.urls().len() <= source.len());
    for url in source.urls() {
        if let Ok(page) = source.fetch(url) {
            let _ = Document::parse(&page.body, &ParseOptions::default());
        }
    }
});
