"""Small WARC files for the tests: gzip per record, HTML responses plus the
records a crawl also holds (request, revisit, a non-HTML response)."""

import gzip
import uuid


def record(warc_type, uri, block, content_type="application/http; msgtype=response"):
    head = (
        "WARC/1.0\r\n"
        f"WARC-Type: {warc_type}\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
        "WARC-Date: 2024-05-01T12:00:00Z\r\n"
        f"WARC-Target-URI: {uri}\r\n"
        f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode("ascii")
    return gzip.compress(head + block + b"\r\n\r\n")


def response(uri, body, content_type="text/html; charset=utf-8"):
    http = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return record("response", uri, http.encode("ascii") + body)


def page(title, sentences):
    body = " ".join(f"{title} sentence {k} says something of its own about the story." for k in range(sentences))
    return (
        f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<article><h1>{title}</h1><p>{body}</p></article><footer>Footer</footer></body></html>"
    ).encode("utf-8")


def write_warc(path, host, pages):
    """Writes `pages` HTML responses of `host` plus a request, a revisit and
    an image; returns the HTML pages' URLs."""
    urls = []
    with open(path, "wb") as f:
        for i in range(pages):
            uri = f"https://{host}/story-{i}.html"
            urls.append(uri)
            f.write(record("request", uri, b"GET / HTTP/1.1\r\n\r\n", "application/http; msgtype=request"))
            f.write(response(uri, page(f"{host} story {i}", 12)))
        f.write(record("revisit", f"https://{host}/story-0.html", b"HTTP/1.1 304 Not Modified\r\n\r\n"))
        f.write(response(f"https://{host}/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(32), "image/png"))
    return urls
