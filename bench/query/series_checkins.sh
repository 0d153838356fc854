#!/bin/bash
# What the query index's catch-up costs after check-ins on one long series: one document
# checked out and checked in (minor, no content) ROUNDS times CYCLES times; after each
# round one query (cmis:name equality, the document) applies the round's change events
# to the index. Prints, per round, the series' size, that query's time and the server's
# CPU time for it. The catch-up's cost per check-in should not grow with the series.
#
# Usage: bench/query/series_checkins.sh [BUILD_DIR] [ROUNDS] [CYCLES]   (default build 5 200)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
folio="${1:-$root/build}/folio"
rounds="${2:-5}"
cycles="${3:-200}"
label=series-checkins
. "$root/bench/serve_lib.sh"
head -c 1024 /dev/zero | tr '\0' x >"$work/c.txt"
curl -sf -o /dev/null -F operation=createDocument -F "name=long.txt" -F "content=@$work/c.txt" "$base"
query="$base?cmisselector=query&succinct=true&q=SELECT%20*%20FROM%20cmis%3Adocument%20WHERE%20cmis%3Aname%20%3D%20%27long.txt%27"
curl -sf -o /dev/null "$query"  # waits for the index's first build
tck=$(getconf CLK_TCK)
for r in $(seq 1 "$rounds"); do
  run_cycles "$cycles" "$base/long.txt"
  read -r u0 k0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  t=$(curl -sf -o /dev/null -w '%{time_total}' "$query")
  read -r u1 k1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
  printf 'round %2d (%6d versions): catch-up query %7.1f ms, server CPU %5d ms\n' "$r" $((r * cycles + 1)) \
    "$(echo "$t * 1000" | bc)" $(((u1 - u0 + k1 - k0) * 1000 / tck))
done
echo "load average $(cut -d' ' -f1 /proc/loadavg)"
