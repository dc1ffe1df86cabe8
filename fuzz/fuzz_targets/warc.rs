//! Any bytes as a WARC archive (plain or gzip): reading never panics and
//! ends (every damaged stretch is skipped once, issue 31), and every
//! recorded URL can be fetched (following recorded redirects) and its
//! page parsed.
#![no_main]

use std::io::Cursor;

use gleaner::{Document, ParseOptions};
use gleaner_crawl::warc::WarcReader;
use gleaner_crawl::{PageSource, WarcSource};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut reader) = WarcReader::new(Cursor::new(data)) {
        let mut items = 0usize;
        while reader.next_record(|_| u64::MAX).is_some() {
            items += 1;
            // A record or a damaged stretch takes at least one byte.
            assert!(items <= data.len() + 1, "the reader goes on without reading");
        }
    }
    let Ok(source) = WarcSource::from_reader(Cursor::new(data.to_vec())) else { return };
    assert!(source.urls().len() <= source.len());
    for url in source.urls() {
        if let Ok(page) = source.fetch(url) {
            let _ = Document::parse(&page.body, &ParseOptions::default());
        }
    }
});
