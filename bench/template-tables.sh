#!/usr/bin/env bash
# The site-template tables of the README (issue 8), from the dev data:
#
#   bench/template-tables.sh [DATA_DIR]      # DATA_DIR: ../shared/data (wceb/ and sites/)
#
# 1. Gottron's Table 1/2 on his kind of data: the cleanportaleval pages
#    grouped by portal (host name from the file name), Dunn and Rand for
#    RTDM, CP, CPS and CTSS at their default thresholds.
# 2. The mixed collection: the portals, the two shipped sites and the
#    larger Readability test pages as singletons (one site each).
# 3. Extraction on cleanportaleval with and without site templates.
set -euo pipefail
cd "$(dirname "$0")/.."
data="$(realpath "${1:-../shared/data}")"
cargo build --release --quiet
bin=target/release/gleaner
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Portals by host: bbc.co.uk_news_01.html -> bbc.co.uk
for f in "$data"/wceb/cleanportaleval/input/*.html; do
  name=$(basename "$f"); host=${name%%_*}
  mkdir -p "$work/portals/$host"; ln -s "$f" "$work/portals/$host/$name"
done
# Singletons: Readability test pages of 30 KB or more (real sites, not the
# synthetic test cases), one per site name.
mkdir -p "$work/singletons"
for f in "$data"/wceb/readability/input/*.html; do
  name=$(basename "$f" .html); site=${name%%-[0-9]*}
  [[ $(stat -L -c %s "$f") -ge 30000 && ! -e "$work/singletons/$site.html" ]] && ln -s "$f" "$work/singletons/$site.html"
done
portals=(); for d in "$work"/portals/*; do portals+=(--input-dir "$d"); done
sites=(--input-dir "$data/sites/linux-shell/site" --input-dir "$data/sites/shell-novice/site")
row() {  # distance, args...
  local d=$1; shift
  "$bin" template cluster "$@" --distance "$d" --labels-from-input-dir --format json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
d = r.get("dunn_index")
dunn = "–" if d is None else "%.3f" % d
print("| %s | %s | %d | %s | %.3f |" % (r["distance"], r["threshold"], len(r["clusters"]), dunn, r["rand_index"]))'
}
echo "cleanportaleval: $(ls "$work"/portals | wc -l) portals, $(find -L "$work/portals" -name '*.html' | wc -l) pages"
echo
echo "| distance | threshold | clusters | Dunn | Rand |"
echo "|---|---:|---:|---:|---:|"
for d in rtdm cp cps ctss; do row "$d" "${portals[@]}"; done
echo
echo "mixed: portals + linux-shell + shell-novice + $(ls "$work/singletons" | wc -l) singletons"
echo
echo "| distance | threshold | clusters | Dunn | Rand |"
echo "|---|---:|---:|---:|---:|"
for d in cp cps ctss; do row "$d" "${portals[@]}" "${sites[@]}" --singletons "$work/singletons"; done
echo
"$bin" eval --data "$data/wceb/cleanportaleval" --algorithms article,plain,entropy,dsc,bte \
  --metric lcs,shingle --site-templates --format md --no-progress 2>/dev/null
