#!/usr/bin/env bash
# Regenerates the README's evaluation tables: every gleaner algorithm and
# every peer on every dev dataset, with the shingle and LCS metrics.
#
#   bench/eval-tables.sh [WCEB_DIR] > tables.md
#
# WCEB_DIR defaults to ../shared/data/wceb. Peer outputs are computed once
# into bench/peers/out (delete it to recompute; see bench/peers/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
wceb=${1:-../shared/data/wceb}
datasets=(cleaneval-dev cleaneval-final cleanportaleval dragnet l3s-gn1 readability)
args=()
for d in "${datasets[@]}"; do args+=(--data "$wceb/$d"); done
missing=()
for d in "${datasets[@]}"; do [ -f "bench/peers/out/$d/trafilatura.json" ] || missing+=(--data "$wceb/$d"); done
if [ ${#missing[@]} -gt 0 ]; then
  python3 bench/peers/run.py "${missing[@]}" --out bench/peers/out >&2
fi
# The Rust peers (bench/peers/rust, built by cargo on first use).
missing=()
for d in "${datasets[@]}"; do [ -f "bench/peers/out/$d/rs-trafilatura.json" ] || missing+=(--data "$wceb/$d"); done
if [ ${#missing[@]} -gt 0 ]; then
  python3 bench/peers/run.py "${missing[@]}" --peers rs-trafilatura,dom_smoothie --out bench/peers/out >&2
fi
cargo run --release --quiet -- eval "${args[@]}" --algorithms all --metric shingle,lcs \
  --peers-dir bench/peers/out --format pivot --no-progress
