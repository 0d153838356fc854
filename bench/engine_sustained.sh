#!/bin/bash
# Whether a write load keeps its pace: CONNS connections, each cycling its own 1 KiB
# document (checkOut, then checkIn without content; with CLOSE=cancel, cancelCheckOut:
# the series do not grow) in batches of 20 cycles, for SECONDS; prints, for every
# INTERVAL seconds, the cycles/s and the server's CPU per operation (/proc/PID/stat). A server that frees inodes as it writes slows down as it
# runs on a filesystem that does not reuse a freed inode for minutes and walks past it
# (ext4 without a journal; docs/STORAGE.md §8.5, spare files). Put the data on another
# filesystem with TMPDIR.
#
# Usage: [CLOSE=cancel] bench/engine_sustained.sh [BUILD_DIR] [CONNS] [SECONDS] [INTERVAL]
#        (default build 8 240 30; needs curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
folio="${1:-$root/build}/folio"
conns="${2:-8}"
seconds="${3:-240}"
interval="${4:-30}"
label=sustained
close="operation=checkIn&major=false"
[ "${CLOSE:-}" = cancel ] && close="operation=cancelCheckOut"
. "$root/bench/serve_lib.sh"
head -c 1024 /dev/zero | tr '\0' x >"$work/c.txt"
for i in $(seq 0 $((conns - 1))); do
  curl -sf -o /dev/null -F operation=createDocument -F "name=cyc-$i.txt" -F "content=@$work/c.txt" "$base"
done
end=$(( $(date +%s) + seconds ))
loops=""
for i in $(seq 0 $((conns - 1))); do
  (
    while [ "$(date +%s)" -lt "$end" ]; do
      run_cycles 20 "$base/cyc-$i.txt" "$close"
      echo >>"$work/done.$i"  # one line per batch of 20 cycles
    done
  ) &
  loops="$loops $!"
done
batches() { cat "$work"/done.* 2>/dev/null | wc -l; }
tck=$(getconf CLK_TCK)
prev_b=0
read -r prev_u prev_k < <(awk '{print $14, $15}' "/proc/$pid/stat")
prev_t=$(date +%s%N)
elapsed=0
while [ "$elapsed" -lt "$seconds" ]; do
  sleep "$interval"
  elapsed=$((elapsed + interval))
  b=$(batches)
  read -r u k < <(awk '{print $14, $15}' "/proc/$pid/stat")
  t=$(date +%s%N)
  python3 -c "
cycles = ($b - $prev_b) * 20
wall = ($t - $prev_t) / 1e9
ops = max(cycles * 2, 1)
ms = lambda ticks: ticks * 1000 / $tck / ops
print(f'{$elapsed:4d} s: {cycles / wall:6.0f} cycles/s; server CPU {ms($u - $prev_u + $k - $prev_k):.3f} ms per operation (user {ms($u - $prev_u):.3f}, kernel {ms($k - $prev_k):.3f})')"
  prev_b=$b; prev_u=$u; prev_k=$k; prev_t=$t
done
for p in $loops; do wait "$p"; done
echo "server: peak resident memory $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status"), spare files $(ls "$work/data/demo/plain/.folio/spare" 2>/dev/null | wc -l)"
