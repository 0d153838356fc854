#!/bin/bash
# Query benchmark helper (bench/RESULTS.md, Query): a data directory with domain bench,
# repository text, and FOLDERS*PER_FOLDER files written by hand (nothing adopted yet),
# the same words as folio_bench_query's fixture.
# usage: bench/query/make_hand_tree.sh FOLIO DIR FOLDERS PER_FOLDER
set -e
FOLIO=$1; DIR=$2; NF=$3; NP=$4
rm -rf $DIR; mkdir -p $DIR
$FOLIO serve --data $DIR --port 0 > $DIR.out 2>/dev/null &
PID=$!
while ! grep -q ":" $DIR.out 2>/dev/null; do sleep 0.1; done
PORT=$(head -1 $DIR.out | sed 's/.*://')
curl -s -X POST -d operation=createDomain -d domainId=bench http://127.0.0.1:$PORT/ >/dev/null
curl -s -X POST -d operation=createRepository -d repositoryId=text http://127.0.0.1:$PORT/bench >/dev/null
kill $PID; wait $PID || true
rm -f $DIR.out
python3 - "$DIR/bench/text" $NF $NP <<'PY'
import os, sys
root, nf, np_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for f in range(nf):
    d = os.path.join(root, "folder-%04d" % f)
    os.makedirs(d, exist_ok=True)
    for j in range(np_):
        i = f * np_ + j
        with open(os.path.join(d, "doc-%06d.txt" % i), "w") as fh:
            fh.write("note %d about w%03d and the %s box\n" % (i, i % 1000, "red" if i % 2 else "blue"))
PY
ls $DIR/bench/text | wc -l
