#!/bin/bash
# Query benchmark helper (bench/RESULTS.md, Query): the median time of 21 pages
# (maxItems 100, succinct) of equality on cmis:name, IN_FOLDER and LIKE 'prefix%' over
# HTTP, against the median of 5 warm `find -name` over the repository, same run.
# DATA: a data directory with domain bench, repository text (folio_bench_query's
# fixture, DIR/full, or bench/query/make_hand_tree.sh's), its index built.
# usage: bench/query/pages.sh FOLIO DATA
set -e
FOLIO=$1; DATA=$2
R=$DATA/bench/text
OUT=$(mktemp)
$FOLIO serve --data $DATA --port 0 --threads 2 > $OUT 2>/dev/null &
PID=$!
trap 'kill $PID 2>/dev/null; rm -f $OUT' EXIT
while ! grep -q ":" $OUT 2>/dev/null; do sleep 0.1; done
B="http://127.0.0.1:$(head -1 $OUT | sed 's/.*://; s,/.*,,')/bench/text"
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
enc() { python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
FID=$(curl -s "$B/folder-0050?cmisselector=object&succinct=true" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["succinctProperties"]["cmis:objectId"])')
find $R -type f -name doc-005045.txt >/dev/null
F=$(for i in 1 2 3 4 5; do
  s=$(date +%s%N); find $R -type f -name doc-005045.txt >/dev/null; e=$(date +%s%N); echo $(((e - s) / 1000))
done | med)
echo "find -name: $F us; load average $(cut -d' ' -f1 /proc/loadavg)"
run() {
  local U="$B?cmisselector=query&maxItems=100&succinct=true&q=$(enc "$2")" args=()
  for i in 1 2 3; do curl -s -o /dev/null "$U"; done
  for i in $(seq 21); do args+=(-o /dev/null "$U"); done
  local T=$(curl -s -w '%{time_total}\n' "${args[@]}" | awk '{print int($1 * 1e6)}' | med)
  echo "$1: $T us, $(echo "scale=4; $T / $F" | bc) of find"
}
run "equality" "SELECT * FROM cmis:document WHERE cmis:name = 'doc-005045.txt'"
run "IN_FOLDER" "SELECT * FROM cmis:document WHERE IN_FOLDER('$FID')"
run "LIKE" "SELECT * FROM cmis:document WHERE cmis:name LIKE 'doc-0050%'"
