//! Reading WARC archives: gleaner's streaming reader against the `warc`
//! crate's `StreamingIter`, on the same archive held in memory (plain and
//! gzipped one member per record), reading every record's block. The
//! record count is asserted inside the loop.

use std::io::{BufReader, Read, Write};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gleaner_crawl::warc::WarcReader;

/// 2,000 captures (request, response with a 10 kB page, metadata).
fn archive() -> Vec<Vec<u8>> {
    let page = "<p>Some words of a page, repeated to the size of a real one.</p>".repeat(160);
    let record = |kind: &str, n: usize, block: &str| {
        format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012}>\r\n\
             WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://e.com/{n}\r\n\
             Content-Type: application/http\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        )
        .into_bytes()
    };
    (0..2000)
        .flat_map(|n| {
            [
                record("request", n, "GET / HTTP/1.1\r\nHost: e.com\r\n\r\n"),
                record(
                    "response",
                    n,
                    &format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{page}"),
                ),
                record("metadata", n, "fetchTimeMs: 5\r\n"),
            ]
        })
        .collect()
}

fn gleaner_reader(bytes: &[u8]) -> (usize, usize) {
    let mut reader = WarcReader::new(std::io::Cursor::new(bytes)).expect("reader");
    let (mut records, mut block_bytes) = (0, 0);
    while let Some(record) = reader.next_record(|_| u64::MAX) {
        block_bytes += record.expect("record").block.len();
        records += 1;
    }
    (records, block_bytes)
}

fn warc_crate(bytes: &[u8], gzip: bool) -> (usize, usize) {
    let input: Box<dyn std::io::BufRead> = if gzip {
        Box::new(BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(bytes)))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, bytes))
    };
    let mut reader = warc::WarcReader::new(input);
    let mut stream = reader.stream_records();
    let (mut records, mut block_bytes) = (0, 0);
    let mut block = Vec::new();
    while let Some(record) = stream.next_item() {
        let mut record = record.expect("record");
        block.clear();
        record.read_to_end(&mut block).expect("block");
        block_bytes += block.len();
        records += 1;
    }
    (records, block_bytes)
}

fn read(c: &mut Criterion) {
    let records = archive();
    let plain = records.concat();
    let gzipped: Vec<u8> = records
        .iter()
        .flat_map(|r| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(r).expect("gzip");
            gz.finish().expect("gzip")
        })
        .collect();
    let expected = gleaner_reader(&plain);
    assert_eq!(expected.0, 6000);
    let mut group = c.benchmark_group("warc_read");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(plain.len() as u64));
    group.bench_function("gleaner/plain", |b| {
        b.iter(|| assert_eq!(gleaner_reader(&plain), expected))
    });
    group.bench_function("warc-crate/plain", |b| {
        b.iter(|| assert_eq!(warc_crate(&plain, false), expected))
    });
    group.bench_function("gleaner/gzip-per-record", |b| {
        b.iter(|| assert_eq!(gleaner_reader(&gzipped), expected))
    });
    group.bench_function("warc-crate/gzip-per-record", |b| {
        b.iter(|| assert_eq!(warc_crate(&gzipped, true), expected))
    });
    group.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
