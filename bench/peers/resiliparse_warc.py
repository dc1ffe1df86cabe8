#!/usr/bin/env python3
"""Resiliparse's own WARC + extraction pipeline, for bench/warc-speed.sh.

FastWARC's ArchiveIterator reads the HTTP `response` records of one
archive (gzip handled by FastWARC), keeps those whose HTTP Content-Type is
HTML, decodes each body with Resiliparse's encoding detection
(`detect_encoding` + `bytes_to_str`, the HTTP charset first) and extracts
it with `extract_plain_text(main_content=True)`. With --processes N > 1 the
extraction runs in a pool of N processes fed by the reading process.
Prints `seconds<TAB>pages`. Runs in the venv of bench/peers/run.py, which
pins FastWARC and Resiliparse.

    python resiliparse_warc.py ARCHIVE.warc.gz [--processes N]
"""

import argparse
import multiprocessing
import sys
import time

from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding


def pages(path):
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True):
            content_type = (record.http_headers.get("Content-Type") or "").lower()
            if "html" not in content_type:
                continue
            charset = None
            if "charset=" in content_type:
                charset = content_type.split("charset=", 1)[1].split(";")[0].strip().strip('"')
            yield record.reader.read(), charset


def extract(item):
    body, charset = item
    html = bytes_to_str(body, charset or detect_encoding(body))
    return len(extract_plain_text(html, main_content=True))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archive")
    ap.add_argument("--processes", type=int, default=1)
    args = ap.parse_args()
    start = time.perf_counter()
    if args.processes <= 1:
        count = sum(1 for item in pages(args.archive) if extract(item) >= 0)
    else:
        with multiprocessing.Pool(args.processes) as pool:
            count = sum(1 for n in pool.imap(extract, pages(args.archive), chunksize=16) if n >= 0)
    print(f"{time.perf_counter() - start:.3f}\t{count}")


if __name__ == "__main__":
    sys.exit(main())
