#!/bin/bash
# Whether a check-in costs the same at the 10,000th version as at the 10th: one
# document checked out and checked in (minor, no content) over one keep-alive
# connection, ROUNDS rounds of CYCLES cycles; prints, per round, cycles/s, the server's
# user and kernel CPU, its resident memory and the size of the document's series.json
# (docs/STORAGE.md §4: at most 1,000 labels listed, older ones archived).
#
# Usage: bench/long_series.sh [BUILD_DIR] [ROUNDS] [CYCLES]   (default build 20 500; needs curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
folio="${1:-$root/build}/folio"
rounds="${2:-20}"
cycles="${3:-500}"
label=long-series
. "$root/bench/serve_lib.sh"
head -c 1024 /dev/zero | tr '\0' x >"$work/c.txt"
curl -sf -o /dev/null -F operation=createDocument -F "name=long.txt" -F "content=@$work/c.txt" "$base"
tck=$(getconf CLK_TCK)
for r in $(seq 1 "$rounds"); do
  start=$(date +%s%N)
  read -r u0 k0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  run_cycles "$cycles" "$base/long.txt"
  read -r u1 k1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  end=$(date +%s%N)
  printf 'round %2d (%6d versions): %5d cycles/s; user %4d ms, kernel %4d ms; resident %6d kB; series.json %6d bytes\n' \
    "$r" $((r * cycles + 1)) $((cycles * 1000000000 / (end - start))) $(((u1 - u0) * 1000 / tck)) \
    $(((k1 - k0) * 1000 / tck)) "$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")" \
    "$(stat -c %s "$work/data/demo/plain/.folio/docs/long.txt/series.json")"
done
echo "server: peak resident memory $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"
