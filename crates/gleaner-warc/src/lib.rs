/*!
WARC archives for gleaner, without a network stack: a streaming reader
([`WarcReader`]) for archives of any size (gzip per record, whole-file
gzip, zstd, damaged stretches skipped and reported), the choice of which
records are pages ([`select`]: HTML `response` records, by content type
and sniffing), the record writer, and the resumable batch that extracts
the pages of many archives in parallel into JSON Lines or a WARC of
`conversion` records ([`run_warc`], `gleaner warc`).

The crawler (`gleaner-crawl`) records and replays crawls with these, and
re-exports them as `gleaner_crawl::warc`; the Python package reads
archives (`iter_warc`) through this crate alone.
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod batch;
pub mod decode;
mod page;
mod read;
pub mod sniff;
mod source;
pub mod write;

pub use crate::batch::{
    learn_host_templates, manifest_path, run_archives, run_warc, WarcBatchError, WarcEvent,
    WarcOptions, WarcOutputFormat, WarcTotals,
};
pub use crate::page::{block_bytes_to_keep, select, Selected, WarcPage, HTTP_HEAD_ALLOWANCE};
pub use crate::read::{
    header, RecordOffset, Skip, WarcError, WarcReader, WarcRecord, MAX_GZIP_NAME_BYTES,
    MAX_HEADER_BYTES,
};
pub use crate::sniff::{looks_like_html, parse_content_type, NotHtml};
pub use crate::source::{
    damage_message, failed_record, ArchiveItem, ArchiveItems, ArchiveSource, ArchiveTag,
};
