#!/bin/bash
# folio_bench_engine's rows 1 and 2 on a slower disk: every fsync, fdatasync and syncfs
# of the server (and of the floor loop) takes SLOW_SYNC_US microseconds more (default
# 2000, a SATA SSD's flush with a journal), through the LD_PRELOAD shim slow_sync.c.
# Shows what group commit saves where a flush costs that much; this machine's virtual
# disk flushes in about 0.2 ms, where two shared cores bound row 2 instead.
#
# Usage: bench/slow_sync/run.sh [BUILD_DIR] [SLOW_SYNC_US]   (needs cc)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build="${1:-$root/build-bench}"
export SLOW_SYNC_US="${2:-2000}"
[ -x "$build/bench/folio_bench_engine" ] || { echo "no $build/bench/folio_bench_engine: build first" >&2; exit 2; }
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
cc -O2 -shared -fPIC -o "$shim/slow_sync.so" "$root/bench/slow_sync/slow_sync.c" -ldl
echo "every flush takes ${SLOW_SYNC_US} us more"
LD_PRELOAD="$shim/slow_sync.so" "$build/bench/folio_bench_engine" --cycles --folio "$build/folio"
