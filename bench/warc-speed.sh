#!/usr/bin/env bash
# WARC -> JSONL throughput of `gleaner warc` with the default extractor, on
# a WARC built from the development pages (bench/make-warc.py: request,
# response and metadata records per page, one gzip member per record), on
# one core (--parallel 1) and on all cores. With --peers, also resiliparse's
# own pipeline on the same archive (FastWARC ArchiveIterator + Resiliparse
# extract_plain_text(main_content=True)), from the venv of bench/peers/run.py.
#
#   bench/warc-speed.sh [--peers] [--repeat N]
#
# Prints one line per run: tool, cores, wall seconds, CPU seconds (user +
# system), MB/s of archive (gzipped, as on disk), of uncompressed WARC and
# of HTML by the wall clock, MB/s of HTML per CPU second (the figure that
# stays put when other work shares the machine), pages.
set -euo pipefail
cd "$(dirname "$0")/.."
peers=0
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --peers) peers=1 ;;
    --repeat) repeat="$2"; shift ;;
    *) echo "usage: $0 [--peers] [--repeat N]" >&2; exit 2 ;;
  esac
  shift
done
work="${TMPDIR:-/tmp}/gleaner-warc-speed"
mkdir -p "$work"
warc="$work/dev-x$repeat.warc.gz"
cargo build --release -q -p gleaner-cli
[ -s "$warc" ] || python3 bench/make-warc.py "$warc" --repeat "$repeat"
gz_bytes=$(stat -c %s "$warc")
warc_bytes=$(gzip -dc "$warc" | wc -c)
html_bytes=$(python3 - "$warc" <<'PY'
import gzip, sys
n = 0
with gzip.open(sys.argv[1], "rb") as f:
    data = f.read()
# Sum of response bodies: the HTTP body follows the first blank line of
# each response block.
for part in data.split(b"WARC-Type: response")[1:]:
    head_end = part.index(b"\r\n\r\n")
    length = int(part[:head_end].split(b"Content-Length: ")[1].split(b"\r\n")[0])
    block = part[head_end + 4: head_end + 4 + length]
    n += len(block) - block.index(b"\r\n\r\n") - 4
print(n)
PY
)
echo "archive: $warc: $gz_bytes bytes gzipped, $warc_bytes bytes of WARC, $html_bytes bytes of HTML" >&2
printf 'tool\tcores\twall_s\tcpu_s\tarchive_MB/s\twarc_MB/s\thtml_MB/s\thtml_MB/cpu_s\tpages\n'
line() { # tool cores wall cpu pages
  awk -v t="$1" -v c="$2" -v s="$3" -v u="$4" -v p="$5" -v g="$gz_bytes" -v w="$warc_bytes" -v h="$html_bytes" \
    'BEGIN { printf "%s\t%s\t%.2f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\n", t, c, s, u, g/1e6/s, w/1e6/s, h/1e6/s, h/1e6/u, p }'
}
timed() { # OUT command...: runs command >OUT, prints "wall cpu"
  local out="$1"
  shift
  /usr/bin/time -f "%e %U %S" -o "$work/time.txt" "$@" >"$out"
  awk '{ printf "%s %.2f", $1, $2 + $3 }' "$work/time.txt"
}
for cores in 1 "$(nproc)"; do
  t=$(timed "$work/out.jsonl" ./target/release/gleaner warc --no-progress --parallel "$cores" "$warc" 2>"$work/err.txt")
  line gleaner "$cores" ${t% *} ${t#* } "$(wc -l <"$work/out.jsonl")"
done
if [ "$peers" = 1 ]; then
  py=bench/peers/.venv/bin/python
  [ -x "$py" ] || python3 -c "import sys; from pathlib import Path; sys.path.insert(0, 'bench/peers'); import run; run.ensure_venv(Path('bench/peers/.venv').resolve())"
  for cores in 1 "$(nproc)"; do
    t=$(timed "$work/peer.txt" "$py" bench/peers/resiliparse_warc.py "$warc" --processes "$cores")
    line resiliparse "$cores" ${t% *} ${t#* } "$(cut -f2 "$work/peer.txt")"
  done
fi
