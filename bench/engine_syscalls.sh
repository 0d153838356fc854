#!/bin/sh
# Syscalls per write operation (the figure that does not drift with the machine's load):
# `folio serve` on a copy of the sample data under `strace -f -c`, then N checkOut +
# checkIn cycles of one document over one keep-alive connection (curl --next). Prints
# strace's table, the calls per operation of the ones that matter (fsync family,
# renames, links, opens, stats), and the files created per operation (each an inode
# allocated: what ext4 without a journal makes slow after many frees, see
# bench/RESULTS.md "Spare files").
#
# Usage: bench/engine_syscalls.sh [BUILD_DIR] [CYCLES]   (needs strace and curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
needs=strace
. "$root/bench/cycle_lib.sh"
"$folio" serve --data "$work/data" --port "$port" --log-level warn >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
wait_listening 300 "$work/serve.out" || true
run_cycles 5            # warm up
strace -f -C -o "$work/trace" -p "$pid" &
spid=$!
sleep 0.5
run_cycles "$cycles"
sleep 0.2
kill -INT $spid
wait $spid 2>/dev/null || true
ops=$((cycles * 2))
# -C: the calls, then strace's table (from its header on).
sed -n '/^% time/,$p' "$work/trace" > "$work/strace"
cat "$work/strace"
echo
echo "per operation ($ops operations: $cycles checkOut + $cycles checkIn):"
awk -v ops="$ops" '$NF ~ /^(fsync|fdatasync|syncfs|sync_file_range|renameat|renameat2|rename|linkat|unlinkat|openat|openat2|newfstatat|statx|pwrite64|write|flock|getdents64|mkdirat|total)$/ {
  calls = ($4 ~ /^[0-9]+$/) ? $4 : $3; printf "  %-12s %6.2f\n", $NF, calls / ops }' "$work/strace"
created=$(grep -E 'O_CREAT\|O_EXCL' "$work/trace" | grep -cE '= [0-9]+' || true)
awk -v n="$created" -v ops="$ops" 'BEGIN { printf "  %-12s %6.2f\n", "files made", n / ops }'
