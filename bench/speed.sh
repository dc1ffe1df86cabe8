#!/usr/bin/env bash
# gleaner against resiliparse, whole process, one thread (issue 12); see
# bench/speed.py for what is timed. Builds the release binary first.
#
#   bench/speed.sh ../shared/data/wceb/dragnet ../shared/data/wceb/l3s-gn1 [--passes 5]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p gleaner-cli
exec python3 bench/speed.py "$@"
