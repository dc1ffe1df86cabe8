#!/usr/bin/env bash
# Digests of gleaner's extraction output on every dev page, to show that a
# refactoring changed nothing (issue 7: "byte-identical before and after").
#
#   bench/output-digests.sh [DATA_DIR] > new.txt     # DATA_DIR: ../shared/data/wceb
#   bench/output-digests.sh --check [DATA_DIR]       # compare with bench/output-digests.txt
#   GLEANER_BIN=target/pgo/release/gleaner bench/output-digests.sh --check
#                                                    # a binary built otherwise (bench/pgo.sh)
#
# One line per algorithm × output format: the SHA-256 of `gleaner extract
# --input-dir DATA_DIR` output (jsonl for every algorithm: text, title,
# encoding, errors; markdown and html with links and images for the
# default). With --check, differing algorithms are listed with the first
# pages whose records differ (the jsonl of the run is kept in $OUT_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then check=1; shift; fi
data="${1:-../shared/data/wceb}"
[[ -d "$data" ]] || { echo "no data at $data" >&2; exit 2; }
if [[ -n "${GLEANER_BIN:-}" ]]; then
  bin="$GLEANER_BIN"
else
  cargo build --release --quiet
  bin=target/release/gleaner
fi
# The outputs (about 440 MB over the dev pages) are kept only in OUT_DIR
# when one is given; a temporary folder is removed on exit unless the
# outputs differ.
if [[ -n "${OUT_DIR:-}" ]]; then
  out_dir="$OUT_DIR"
else
  out_dir="$(mktemp -d)"
  trap 'rm -rf "$out_dir"' EXIT
fi
mkdir -p "$out_dir"
digests="$out_dir/digests.txt"
: > "$digests"
# Algorithms that need a site template (entropy) are left out: their
# output depends on the model, not on the page alone.
algorithms=$("$bin" algorithms --json | python3 -c 'import json,sys; print(" ".join(a["name"] for a in json.load(sys.stdin) if not a.get("needs_template")))')
for a in $algorithms; do
  "$bin" extract --input-dir "$data" -a "$a" -f jsonl --no-progress > "$out_dir/$a.jsonl" 2>/dev/null || true
  echo "$a jsonl $(sha256sum < "$out_dir/$a.jsonl" | cut -d' ' -f1)" >> "$digests"
done
for f in markdown html; do
  "$bin" extract --input-dir "$data" -f "$f" --links --images --no-progress > "$out_dir/default.$f" 2>/dev/null || true
  echo "default $f $(sha256sum < "$out_dir/default.$f" | cut -d' ' -f1)" >> "$digests"
done
if [[ $check == 0 ]]; then cat "$digests"; exit 0; fi
if diff -q bench/output-digests.txt "$digests" > /dev/null; then
  echo "identical: $(wc -l < "$digests") outputs over $data"
  exit 0
fi
trap - EXIT # kept for a look at what changed
echo "outputs differ from bench/output-digests.txt (runs kept in $out_dir):"
diff bench/output-digests.txt "$digests" | grep '^>' | while read -r _ a fmt _; do
  echo "  $a $fmt"
done
exit 1
