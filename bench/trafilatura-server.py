"""A minimal HTTP server around trafilatura, for bench/serve-load.sh: POST
/extract with a page's HTML as the body answers trafilatura's JSON (text
and metadata); GET /healthz answers ok. Threaded, as a small deployment
would run it."""

import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import trafilatura


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()
        self.wfile.write(b"ok")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        html = self.rfile.read(min(length, 16 << 20)).decode("utf-8", "replace")
        out = trafilatura.extract(html, output_format="json", with_metadata=True) or "{}"
        body = out.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
