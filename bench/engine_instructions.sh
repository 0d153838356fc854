#!/bin/sh
# Instructions per write operation (machine-independent, unlike times): `folio serve`
# on a copy of the sample data under callgrind, 5 checkOut + checkIn cycles of one
# document to warm up, counters zeroed, then N cycles over one keep-alive connection
# (curl --next); prints instructions per operation on the request threads and the
# heaviest inclusive parts.
# Slow (valgrind): about 30 s for 50 cycles.
#
# Usage: bench/engine_instructions.sh [BUILD_DIR] [CYCLES]   (needs valgrind and curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
needs=valgrind
. "$root/bench/cycle_lib.sh"
valgrind --tool=callgrind --callgrind-out-file="$work/out" "$folio" serve --data "$work/data" --port "$port" \
  --threads 2 --log-level warn >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
wait_listening 300 "$work/serve.out" || true
run_cycles 5            # warm up
callgrind_control -z "$pid" >/dev/null 2>&1
run_cycles "$cycles"
callgrind_control -d "$pid" >/dev/null 2>&1
sleep 1
f=$(ls -t "$work"/out.* | head -1)
ops=$((cycles * 2))
# The request threads only (what answering costs): the query index's background
# indexing of the sample data and the idle checkpointer run on threads of their own.
total=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null | awk '/http::Reactor::Work\(/ {gsub(",","",$1); print $1; exit}')
all=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}')
echo "operations $ops ($cycles checkOut + $cycles checkIn): instructions per operation $((total / ops)) on the request threads ($((all / ops)) in all threads)"
echo "heaviest parts (inclusive, per operation):"
callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
  grep -E 'Versioning::Check(Out|In)\(|RecordFrame|ApplyChangeSet|ReportJsonWritten|Renderer::WriteObject|ChangeLogStore::Append|Committer::AcquireLocked|SerializeJson|EncodeChangeSet' |
  sed 's/(anonymous namespace):://g' |
  sed -E 's/^ *([0-9,]+) \( *[0-9.]+%\) +(\?\?\?:)?([^([]*).*/\1 \3/' |
  awk -v ops="$ops" '{gsub(",","",$1); if (!seen[$2]++) printf "  %-45s %8d\n", $2, $1 / ops}'
