#!/bin/sh
# Instructions per request of getObject by path (succinct), the machine-independent
# figure behind bench/http/run.sh: `folio serve` under callgrind, warmed up, counters
# zeroed, then wrk with 2 connections for 10 s; prints requests and instructions/request.
# Slow (valgrind): about 30 s.
#
# Usage: bench/http/instructions.sh [BUILD_DIR [SERVE_OPTIONS...]]   (needs valgrind and wrk)
#   e.g. bench/http/instructions.sh build --response-cache 0   (every request rendered)
# INSTRUCTIONS_TOP=N also prints the N functions of largest inclusive cost, per request;
# INSTRUCTIONS_OUT=FILE keeps callgrind's output there; INSTRUCTIONS_WARMUP=S warms up for S
# seconds (3), long enough for the background work of a start (the query index) to end.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
folio="${1:-$root/build}/folio"
[ $# -gt 0 ] && shift
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
command -v valgrind >/dev/null && command -v wrk >/dev/null || { echo "needs valgrind and wrk" >&2; exit 2; }
work=$(mktemp -d /tmp/folio-instructions-XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --callgrind-out-file="$work/out" "$folio" serve --data "$root/sample-data" --ephemeral \
  --port "$port" --threads 2 --log-level warn "$@" >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
for _ in $(seq 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.3; done
url="http://127.0.0.1:$port/demo/cmis/README.md?cmisselector=object&succinct=true"
wrk -t1 -c2 -d"${INSTRUCTIONS_WARMUP:-3}"s "$url" >/dev/null
callgrind_control -z "$pid" >/dev/null 2>&1
n=$(wrk -t1 -c2 -d10s "$url" | awk '/requests in/ {print $1}')
callgrind_control -d "$pid" >/dev/null 2>&1
sleep 1
f=$(ls -S "$work"/out* | head -1)
total=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}')
echo "requests $n, instructions per request $((total / n))"
[ -z "${INSTRUCTIONS_OUT:-}" ] || cp "$f" "$INSTRUCTIONS_OUT"
if [ -n "${INSTRUCTIONS_TOP:-}" ]; then
  callgrind_annotate --inclusive=yes "$f" 2>/dev/null | awk -v n="$n" -v top="$INSTRUCTIONS_TOP" '
    /^ *[0-9,]+ \( *[0-9.]+%\) / && !/PROGRAM TOTALS/ && shown < top {
      c = $1; gsub(",", "", c); sub(/^ *[0-9,]+ \( *[0-9.]+%\) +/, ""); sub(/ \[.*\]$/, ""); sub(/^[^:]*:/, "")
      sub(/\(.*/, ""); printf "%8d  %s\n", c / n, $0; shown++ }'
fi
