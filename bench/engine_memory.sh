#!/bin/sh
# Resident memory of `folio serve` under a long write load on one document: ROUNDS
# rounds of N checkOut + checkIn cycles of the sample data's README.md over one
# keep-alive connection (curl --next), VmRSS after each round. It should level off:
# a busy series grows by two versions a cycle, and what the server keeps of it must not
# grow with the square of its length (bench/RESULTS.md, "Memory under a write load").
#
# Usage: bench/engine_memory.sh [BUILD_DIR] [CYCLES] [ROUNDS]   (needs curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
needs=
rounds="${3:-6}"
. "$root/bench/cycle_lib.sh"
"$folio" serve --data "$work/data" --port "$port" --log-level warn >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
wait_listening 300 "$work/serve.out" || true
echo "start: VmRSS $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status")"
r=1
while [ "$r" -le "$rounds" ]; do
  run_cycles "$cycles"
  echo "after $((r * cycles)) cycles: VmRSS $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status")"
  r=$((r + 1))
done
