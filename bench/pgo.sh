#!/usr/bin/env bash
# Builds the `gleaner` binary with profile-guided optimisation (issue 12):
# an instrumented build runs the shipped pages (tests/fixtures) through the
# commands users run, and the release build is then compiled with that
# profile, so the compiler lays out and inlines the code by how often each
# branch is taken. The binary is target/pgo/release/gleaner.
#
#   bench/pgo.sh [--train-dir DIR]...
#
# `--train-dir` adds folders of pages to the training run. The default,
# the six fixture pages, is what a clean clone has; on 300 dragnet pages
# the profile it gives removes 7 % of the instructions and 40 % of the
# instruction-cache misses (README "Speed", ninth round).
#
# Needs `llvm-profdata` of the compiler's own LLVM: the rustup component
# llvm-tools, installed here when it is missing.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

# Training folders, relative to where the script is run from.
train_dirs=("$ROOT/tests/fixtures")
while [ $# -gt 0 ]; do
  case "$1" in
    --train-dir) train_dirs+=("$(cd "${2:?--train-dir needs a folder}" && pwd)"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "pgo.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
cd "$ROOT"

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  echo "pgo.sh: installing the rustup component llvm-tools (for llvm-profdata)" >&2
  rustup component add llvm-tools >&2
fi
[ -x "$profdata" ] || { echo "pgo.sh: $profdata not found" >&2; exit 1; }

work="$ROOT/target/pgo-train"
profiles="$work/profiles"
rm -rf "$work"
mkdir -p "$profiles" "$work/wceb/fixtures/input" "$work/wceb/fixtures/GoldStandard" "$work/out"

echo "pgo.sh: instrumented build (target/pgo-generate)" >&2
RUSTFLAGS="-Cprofile-generate=$profiles" \
  cargo build --release --quiet -p gleaner-cli --target-dir "$ROOT/target/pgo-generate"
bin="$ROOT/target/pgo-generate/release/gleaner"

# The fixtures as a dataset (page + gold), for `eval` and the WARC.
for page in "$ROOT"/tests/fixtures/*.html; do
  id=$(basename "$page" .html)
  cp "$page" "$work/wceb/fixtures/input/$id.html"
  gold="$ROOT/tests/fixtures/$id.gold.txt"
  [ -f "$gold" ] && cp "$gold" "$work/wceb/fixtures/GoldStandard/$id.txt"
done

echo "pgo.sh: training run (log: target/pgo-train/training.log)" >&2
# A step that fails is reported and the rest go on: the profile is then
# thinner, the binary as correct.
run() {
  "$bin" "$@" > /dev/null 2>> "$work/training.log" \
    || echo "pgo.sh: training step failed: gleaner $*" >&2
}
model="$work/out/site.model"
run template learn --input-dir "$ROOT/tests/fixtures" -o "$model"
for dir in "${train_dirs[@]}"; do
  # The default extractor in every output format, then every algorithm.
  for format in jsonl txt markdown html json; do
    run extract --input-dir "$dir" -f "$format" --parallel 1 --no-progress
  done
  for algorithm in $("$bin" algorithms | awk '/^[a-z]/ {print $1}'); do
    run extract --input-dir "$dir" -a "$algorithm" --template "$model" -f jsonl --parallel 1 --no-progress
  done
  run template cluster --input-dir "$dir"
done
run eval --data "$work/wceb/fixtures" --algorithms all --metric all
run template show "$model"
run blocks "$ROOT/tests/fixtures/ars-1.html"
if python3 bench/make-warc.py "$work/out/pages.warc.gz" --data "$work/wceb" > /dev/null 2>&1; then
  run warc "$work/out/pages.warc.gz" --parallel 1
fi

"$profdata" merge -o "$work/merged.profdata" "$profiles"

echo "pgo.sh: optimised build (target/pgo)" >&2
RUSTFLAGS="-Cprofile-use=$work/merged.profdata" \
  cargo build --release --quiet -p gleaner-cli --target-dir "$ROOT/target/pgo"
echo "$ROOT/target/pgo/release/gleaner"
