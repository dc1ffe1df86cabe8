#!/usr/bin/env python3
"""Builds a WARC archive from the development pages, for `bench/warc-speed.sh`.

Every page of ../shared/data/wceb/*/input/*.html becomes a capture as a
crawler writes it: a `request` record, a `response` record (an HTTP/1.1
200 response with `Content-Type: text/html` and the page as its body) and a
`metadata` record, each its own gzip member (`.warc.gz`), or the whole file
one gzip stream (`--whole-gzip`), or plain (`.warc`). Standard library only.

    bench/make-warc.py OUT.warc.gz [--data DIR] [--repeat N] [--whole-gzip]
"""

import argparse
import gzip
import hashlib
import pathlib
import sys
import uuid

DATE = "2024-01-01T00:00:00Z"


def record(kind, uri, content_type, block, extra=()):
    rid = uuid.UUID(bytes=hashlib.md5(f"{kind} {uri}".encode()).digest(), version=4)
    head = [
        "WARC/1.0",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:{rid}>",
        f"WARC-Date: {DATE}",
        f"WARC-Target-URI: {uri}",
        *extra,
        f"Content-Type: {content_type}",
        f"Content-Length: {len(block)}",
    ]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def captures(data, repeat):
    pages = sorted(data.glob("*/input/*.html"))
    if not pages:
        sys.exit(f"no pages under {data}/*/input/")
    for round_ in range(repeat):
        for page in pages:
            body = page.read_bytes()
            uri = f"http://{page.parent.parent.name}.example/{round_}/{page.name}"
            host = f"{page.parent.parent.name}.example"
            request = f"GET /{round_}/{page.name} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
            response = (
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            yield record("request", uri, "application/http; msgtype=request", request)
            yield record("response", uri, "application/http; msgtype=response", response)
            yield record("metadata", uri, "application/warc-fields", b"fetchTimeMs: 100\r\n")


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--data", type=pathlib.Path, default=here.parent.parent / "shared/data/wceb")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--whole-gzip", action="store_true")
    args = parser.parse_args()
    gz = args.out.suffix == ".gz"
    with open(args.out, "wb") as out:
        if gz and args.whole_gzip:
            with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6) as z:
                for r in captures(args.data, args.repeat):
                    z.write(r)
        else:
            for r in captures(args.data, args.repeat):
                out.write(gzip.compress(r, compresslevel=6) if gz else r)


if __name__ == "__main__":
    main()
