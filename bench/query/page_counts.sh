#!/bin/bash
# Counts of one query page that do not drift with the machine's load (bench/RESULTS.md,
# Query): `folio serve` on DATA (as for pages.sh), 3 warm pages of QUERY (IN_FOLDER,
# LIKE or eq: pages.sh's three, maxItems 100, succinct), then N pages (default 20)
# measured by MODE:
#   strace     system calls of the server over the N pages (`strace -c -f`; divide by N)
#   callgrind  instructions of the server over the N pages (`valgrind --tool=callgrind`,
#              zeroed before and dumped after; read with callgrind_annotate
#              OUT/callgrind.out.1, divide by N)
#   cpu        the server's user + system CPU time per page (from /proc; coarse: ticks)
# usage: [N=20] [OUT=/tmp] bench/query/page_counts.sh FOLIO DATA MODE [QUERY]
set -e
FOLIO=$1; DATA=$2; MODE=$3; WHICH=${4:-IN_FOLDER}; N=${N:-20}; OUT=${OUT:-/tmp}
LOG=$(mktemp)
if [ "$MODE" = callgrind ]; then
  rm -f "$OUT"/callgrind.out*
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" $FOLIO serve --data $DATA --port 0 \
    --threads 2 >$LOG 2>/dev/null &
else
  $FOLIO serve --data $DATA --port 0 --threads 2 >$LOG 2>/dev/null &
fi
PID=$!
trap 'kill $PID 2>/dev/null; rm -f $LOG' EXIT
while ! grep -q ":" $LOG 2>/dev/null; do sleep 0.2; done
B="http://127.0.0.1:$(head -1 $LOG | sed 's/.*://; s,/.*,,')/bench/text"
enc() { python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
FID=$(curl -s "$B/folder-0050?cmisselector=object&succinct=true" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["succinctProperties"]["cmis:objectId"])')
case $WHICH in
  IN_FOLDER) Q="SELECT * FROM cmis:document WHERE IN_FOLDER('$FID')" ;;
  LIKE) Q="SELECT * FROM cmis:document WHERE cmis:name LIKE 'doc-0050%'" ;;
  eq) Q="SELECT * FROM cmis:document WHERE cmis:name = 'doc-005045.txt'" ;;
  *) echo "QUERY is IN_FOLDER, LIKE or eq" >&2; exit 2 ;;
esac
U="$B?cmisselector=query&maxItems=100&succinct=true&q=$(enc "$Q")"
for i in 1 2 3; do curl -s -o /dev/null "$U"; done
args=()
for i in $(seq $N); do args+=(-o /dev/null "$U"); done
case $MODE in
  cpu)
    t0=$(awk '{print $14 + $15}' /proc/$PID/stat)
    curl -s "${args[@]}"
    t1=$(awk '{print $14 + $15}' /proc/$PID/stat)
    echo "$WHICH: server CPU per page $(((t1 - t0) * 1000000 / $(getconf CLK_TCK) / N)) us ($N pages)" ;;
  callgrind)
    callgrind_control -z $PID >/dev/null 2>&1
    curl -s "${args[@]}"
    callgrind_control -d $PID >/dev/null 2>&1
    sleep 1
    echo "$WHICH: $N pages; callgrind_annotate $OUT/callgrind.out.1 | grep TOTALS" ;;
  strace)
    strace -c -f -p $PID -o "$OUT/page_counts.strace" &
    SP=$!
    sleep 1
    curl -s "${args[@]}"
    sleep 0.5
    kill -INT $SP
    wait $SP || true
    echo "$WHICH: $N pages"
    cat "$OUT/page_counts.strace" ;;
  *) echo "MODE is strace, callgrind or cpu" >&2; exit 2 ;;
esac
