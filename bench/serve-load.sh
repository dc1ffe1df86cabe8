#!/usr/bin/env bash
# Load benchmark of `gleaner serve` (issue 34): wrk against loopback,
# POSTing the fixture pages (tests/fixtures/*.html, round robin) as raw
# text/html bodies to /v1/extract, at 1, 8 and 64 concurrent clients;
# requests/s, p50/p99 latency and the server's peak RSS per level, then a
# long run at the highest level sampling RSS (memory must stay flat). The
# same runs against a minimal Python server around trafilatura
# (bench/trafilatura-server.py, in a venv under target/) when PyPI can be
# reached. Bounded: every run has its duration, the servers are stopped
# on exit.
#
# Usage: bench/serve-load.sh [SECONDS_PER_LEVEL] [LONG_RUN_SECONDS]
#   defaults 10 and 300; GLEANER=path/to/gleaner (default: a release
#   build, made with thin LTO if missing); LEVELS="1 8 64".
# Needs wrk (apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${1:-10}"
LONG="${2:-300}"
LEVELS="${LEVELS:-1 8 64}"
PORT_G=18181
PORT_T=18182
command -v wrk >/dev/null || { echo "serve-load: needs wrk (apt-get install wrk)" >&2; exit 2; }
if [ -z "${GLEANER:-}" ]; then
  GLEANER=target/release/gleaner
  if [ ! -x "$GLEANER" ]; then
    CARGO_PROFILE_RELEASE_LTO=thin CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
      cargo build --release -p gleaner-cli >&2
  fi
fi
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# wrk sends the fixtures in turn; it reports latency percentiles itself.
pages=$(ls tests/fixtures/*.html)
{
  echo 'local bodies = {}'
  for p in $pages; do
    printf 'do local f = io.open("%s", "rb"); bodies[#bodies+1] = f:read("*a"); f:close() end\n' "$PWD/$p"
  done
  cat <<'LUA'
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/html"
request = function()
  i = i % #bodies + 1
  return wrk.format(nil, wrk.path, nil, bodies[i])
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.2f %.2f %d %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
} > "$work/post.lua"

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }

wait_up() {
  for _ in $(seq 600); do
    curl -fs "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "serve-load: server on port $1 did not start" >&2; return 1
}

# run NAME PORT PID PATH
run_levels() {
  local name=$1 port=$2 pid=$3 path=$4
  for c in $LEVELS; do
    local threads=$(( c < 2 ? 1 : 2 ))
    local out
    out=$(wrk -t"$threads" -c"$c" -d"${SECS}s" --timeout 30s -s "$work/post.lua" "http://127.0.0.1:$port$path" | grep '^RESULT')
    read -r _ rps p50 p99 errors n <<<"$out"
    printf '| %s | %d | %s | %s | %s | %s | %d MiB |\n' "$name" "$c" "$rps" "$p50" "$p99" "$errors" $(( $(hwm_kb "$pid") / 1024 ))
  done
}

long_run() {
  local name=$1 port=$2 pid=$3 path=$4 c=${LEVELS##* }
  wrk -t2 -c"$c" -d"${LONG}s" --timeout 30s -s "$work/post.lua" "http://127.0.0.1:$port$path" >/dev/null &
  local w=$!
  local samples=()
  local step=$(( LONG / 10 > 0 ? LONG / 10 : 1 ))
  for _ in $(seq 10); do sleep "$step"; samples+=($(( $(rss_kb "$pid") / 1024 ))); done
  wait "$w" || true
  echo "$name RSS over ${LONG} s at $c clients (MiB, every ${step} s): ${samples[*]}"
}

echo "Machine: $(nproc) cores, $(uname -m); pages: $(echo $pages | wc -w) fixtures, $(cat $pages | wc -c) bytes"
echo
echo '| server | clients | requests/s | p50 ms | p99 ms | errors | peak RSS |'
echo '|---|---|---|---|---|---|---|'
"$GLEANER" serve --bind "127.0.0.1:$PORT_G" --max-concurrency 1024 2>/dev/null &
gpid=$!; pids+=("$gpid")
wait_up "$PORT_G"
run_levels gleaner "$PORT_G" "$gpid" /v1/extract

venv=target/bench-trafilatura-venv
tpid=""
if [ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q trafilatura lxml_html_clean; } >/dev/null 2>&1; then
  "$venv/bin/python" bench/trafilatura-server.py "$PORT_T" 2>/dev/null &
  tpid=$!; pids+=("$tpid")
  wait_up "$PORT_T"
  run_levels "trafilatura (Python)" "$PORT_T" "$tpid" /extract
else
  echo "(trafilatura venv could not be made: no comparison)"
fi
echo
if [ "$LONG" -gt 0 ]; then
  long_run gleaner "$PORT_G" "$gpid" /v1/extract
  [ -n "$tpid" ] && long_run trafilatura "$PORT_T" "$tpid" /extract
fi
