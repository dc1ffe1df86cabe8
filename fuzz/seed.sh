#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from tests/fixtures/: the pages whole and cut
# to 4 KB and 16 KB (libFuzzer mutates small inputs faster), plus inputs
# derived for the targets that do not read one page: NUL-separated page
# sets (template), WARC archives plain and gzip (warc), extract NUL gold
# pairs (metrics), a selection byte before the page (render), and a few
# hand-made hostile pages (control characters, deep nesting).
#
#   fuzz/seed.sh            # then: cd fuzz && cargo +nightly fuzz run parse
#
# The corpora are not committed (fuzz/.gitignore); the script is
# idempotent and cheap, run it again after the fixtures change.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../tests/fixtures
corpus=corpus
for t in parse extract render template warc metrics; do mkdir -p "$corpus/$t"; done

hostile() {
  printf '<title>T&#27;]0;pwned&#7;\033[2J</title><p>a\033]0;x\007b&#x9b;c</p>'
}
for page in "$fixtures"/*.html; do
  name=$(basename "$page" .html)
  for t in parse extract; do
    cp "$page" "$corpus/$t/$name.html"
    head -c 4096 "$page" > "$corpus/$t/$name.4k.html"
    head -c 16384 "$page" > "$corpus/$t/$name.16k.html"
  done
  # render: the first byte picks the selection.
  { printf '\001'; head -c 16384 "$page"; } > "$corpus/render/$name.16k"
  { printf '\302'; head -c 4096 "$page"; } > "$corpus/render/$name.4k"
  # metrics: the gold against the page's own gold cut in half, and
  # against the fixture's text.
  gold="$fixtures/$name.gold.txt"
  if [[ -f "$gold" ]]; then
    half=$(( $(wc -c < "$gold") / 2 ))
    { head -c "$half" "$gold"; printf '\000'; cat "$gold"; } > "$corpus/metrics/$name"
    { head -c 2048 "$page"; printf '\000'; head -c 2048 "$gold"; } > "$corpus/metrics/$name.page"
  fi
done
hostile > "$corpus/parse/controls.html"
hostile > "$corpus/extract/controls.html"
{ printf '\003'; hostile; } > "$corpus/render/controls"
python3 -c 'print("<div>" * 3000 + "x")' > "$corpus/parse/deep.html"
python3 -c 'print("<b id=x>" * 200 + "<p>x</p>" * 200)' > "$corpus/extract/formatting.html"

# template: pages of one site (the 4 KB heads share their template less
# than real sites do, so also three copies of one page with its story
# changed), separated by NUL.
pages=("$fixtures"/*.html)
{ for p in "${pages[@]:0:3}"; do head -c 4096 "$p"; printf '\000'; done; } > "$corpus/template/three-sites"
for p in "${pages[@]}"; do
  name=$(basename "$p" .html)
  { for s in one two three; do head -c 8192 "$p" | sed "s/<p>/<p>$s /"; printf '\000'; done; } \
    > "$corpus/template/$name"
done
printf '{"min_df":2,"pages":3,"segments":[]}' > "$corpus/template/model.json"

# warc: the fixtures as response records of one archive, a redirect, and
# the same gzipped (one member per record, as crawlers write them).
python3 - "$corpus/warc" "${pages[@]}" <<'PY'
import gzip, sys
out, pages = sys.argv[1], sys.argv[2:]
def record(uri, http):
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
            "WARC-Date: 2024-01-01T00:00:00Z\r\n"
            "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            "Content-Length: %d\r\n\r\n") % (uri, abs(hash(uri)) % 10**12, len(http))
    return head.encode() + http + b"\r\n\r\n"
records = [record("http://example.com/", b"HTTP/1.1 301 Moved\r\nLocation: /0\r\n\r\n")]
for i, p in enumerate(pages):
    body = open(p, "rb").read()[:8192]
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + body
    records.append(record("http://example.com/%d" % i, http))
open(out + "/site.warc", "wb").write(b"".join(records[:3]))
open(out + "/site.warc.gz", "wb").write(b"".join(gzip.compress(r) for r in records[:3]))
open(out + "/all.warc", "wb").write(b"".join(records))
PY
echo "seeded: $(find "$corpus" -type f | wc -l) inputs in fuzz/$corpus"
