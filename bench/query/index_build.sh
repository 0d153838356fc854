#!/bin/bash
# Query benchmark helper (bench/RESULTS.md, Query): one first start of folio serve on DATA.
# usage: bench/query/index_build.sh FOLIO DATA [PREFIX...] (PREFIX: e.g. perf record -g --)
# Removes the index of bench/text, starts the server,
# waits for the "built" line; prints it, the wall time from start, the server's CPU time and peak RSS.
FOLIO=$1; DATA=$2; shift 2
R=$DATA/bench/text/.folio
rm -f $R/query.sqlite $R/query.sqlite-wal $R/query.sqlite-shm
LOG=$(mktemp)
start=$(date +%s.%N)
"$@" $FOLIO serve --data $DATA --port 0 --log-level info --threads 2 > /dev/null 2> $LOG &
PID=$!
while ! grep -q "built:\|failed" $LOG; do sleep 0.1; if ! kill -0 $PID 2>/dev/null; then break; fi; done
end=$(date +%s.%N)
FPID=$(pgrep -P $PID folio || echo $PID); [ -d /proc/$FPID ] || FPID=$PID
grep "query index" $LOG | grep -v "so far"
read ut st <<< $(awk '{print $14, $15}' /proc/$FPID/stat)
T=$(getconf CLK_TCK)
echo "wall from start: $(echo "$end - $start" | bc) s; cpu user $(echo "scale=2; $ut/$T" | bc) s sys $(echo "scale=2; $st/$T" | bc) s; $(grep VmHWM /proc/$FPID/status | tr -s ' \t' ' '); loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
kill -INT $FPID; wait $PID 2>/dev/null
rm -f $LOG
