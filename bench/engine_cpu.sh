#!/bin/bash
# Where a write load's time goes: CONNS curl loops, each cycling its own 1 KiB document
# (checkOut, then checkIn without content) CYCLES times over one keep-alive connection,
# against `folio serve` on a copy of the sample data. Prints cycles/s, the server's CPU
# per operation split into user and kernel time (/proc/PID/stat), its peak resident
# memory and threads, and what the whole machine's cores did meanwhile (/proc/stat:
# user, sys, idle, iowait, ...). Put the data on another filesystem with TMPDIR.
#
# Usage: bench/engine_cpu.sh [BUILD_DIR] [CONNS] [CYCLES]   (default build 8 60; needs curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
folio="${1:-$root/build}/folio"
conns="${2:-8}"
cycles="${3:-60}"
label=cpu
. "$root/bench/serve_lib.sh"
head -c 1024 /dev/zero | tr '\0' x >"$work/c.txt"
for i in $(seq 0 $((conns - 1))); do
  curl -sf -o /dev/null -F operation=createDocument -F "name=cyc-$i.txt" -F "content=@$work/c.txt" "$base"
done
for i in $(seq 0 $((conns - 1))); do run_cycles 5 "$base/cyc-$i.txt"; done  # warm up
read -r u0 k0 < <(awk '{print $14, $15}' "/proc/$pid/stat")
machine0=$(head -1 /proc/stat)
start=$(date +%s%N)
loops=""
for i in $(seq 0 $((conns - 1))); do
  run_cycles "$cycles" "$base/cyc-$i.txt" &
  loops="$loops $!"
done
for p in $loops; do wait "$p"; done
end=$(date +%s%N)
machine1=$(head -1 /proc/stat)
read -r u1 k1 < <(awk '{print $14, $15}' "/proc/$pid/stat")
echo "server: peak resident memory $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status"), threads $(awk '/Threads/ {print $2}' "/proc/$pid/status") at the end"
python3 - "$conns" "$cycles" "$start" "$end" "$u0" "$k0" "$u1" "$k1" "$(getconf CLK_TCK)" "$machine0" "$machine1" <<'PY'
import sys
conns, cycles, start, end, u0, k0, u1, k1, tck = map(int, sys.argv[1:10])
wall = (end - start) / 1e9
ops = conns * cycles * 2
ms = lambda ticks: ticks * 1000 / tck / ops
print(f"{conns} connections: {conns * cycles / wall:.0f} cycles/s; server CPU {ms(u1 - u0 + k1 - k0):.3f} ms per "
      f"operation (user {ms(u1 - u0):.3f}, kernel {ms(k1 - k0):.3f})")
names = ["user", "nice", "sys", "idle", "iowait", "irq", "softirq", "steal"]
a, b = sys.argv[10].split()[1:], sys.argv[11].split()[1:]
print("machine, in cores: " + ", ".join(f"{n} {(int(y) - int(x)) / tck / wall:.2f}" for n, x, y in zip(names, a, b)))
PY
