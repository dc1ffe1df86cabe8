#!/usr/bin/env bash
# gleaner against resiliparse, whole process, one thread (issue 12); see
# bench/speed.py for what is timed. Builds the binary first: with
# profile-guided optimisation (bench/pgo.sh, as a release is built), or
# with a plain `cargo build --release` when `--plain` is given.
#
#   bench/speed.sh ../shared/data/wceb/dragnet ../shared/data/wceb/l3s-gn1 [--passes 5] [--plain]
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
plain=0
for arg in "$@"; do
  if [ "$arg" = "--plain" ]; then plain=1; else args+=("$arg"); fi
done
if [ "$plain" = 1 ]; then
  cargo build --release --quiet -p gleaner-cli
  bin=target/release/gleaner
else
  bin=$(bench/pgo.sh | tail -1)
  # The measured binary extracts what the tested one does.
  .ci/pgo-check "$bin"
fi
exec python3 bench/speed.py --bin "$bin" "${args[@]}"
