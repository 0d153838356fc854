#!/usr/bin/env bash
# Snapshot and restore of a data directory of FILES documents (docs/API.md §14.2) against
# `cp -a` of the same tree followed by `sync`, timed in the same run, alternating, on the
# same filesystem. The snapshot shares blocks where the filesystem can (FICLONE: XFS,
# btrfs) and is a plain copy elsewhere (ext4). The tree: FILES small files (100 B - 4 KiB)
# in folders of 100, imported with folio import.
#
#   bench/snapshot_bench.sh [FOLIO_BINARY] [FILES] [ROUNDS]   (default build/folio 100000 3)
#
# Prints each round and the medians; the figures go in bench/RESULTS.md.
set -euo pipefail
folio="$(realpath "${1:-build/folio}")"
files="${2:-100000}"
rounds="${3:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-snapshot-bench-XXXXXX")"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

python3 - "$work/src" "$files" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(13)
for i in range(n):
    d = os.path.join(root, "folder%04d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    size = rng.randint(100, 4096)
    with open(os.path.join(d, "file%06d.txt" % i), "wb") as f:
        f.write(("line %d of a text file\n" % i * (size // 24 + 1)).encode()[:size])
PY
"$folio" import "$work/src" "$work/data" bench/tree --progress none > /dev/null
echo "data directory: $files documents, $(du -sb "$work/data" | cut -f1) bytes (du -sb), on $(df --output=source,fstype "$work" | tail -1)"

# The server; its start state (for /-/reset) is copied at start, timed too.
t0=$(date +%s.%N)
exec 3< <("$folio" serve --data "$work/data" --snapshot-dir "$work/snaps" --port 0 --log-level warn)
read -r ready <&3
t1=$(date +%s.%N)
pid="$(pgrep -n -f -- "--snapshot-dir $work/snaps")"
url="${ready#folio listening on }"
printf 'start (copies the start state): %.3f s\n' "$(echo "$t1 - $t0" | bc)"

now() { date +%s.%N; }
declare -a cp_times snap_times restore_times
for r in $(seq 1 "$rounds"); do
  rm -rf "$work/copy"
  curl -sf -X DELETE "${url}-/snapshots/s" > /dev/null || true
  sync
  t0=$(now); cp -a "$work/data" "$work/copy" && sync; t1=$(now)
  cp_t=$(echo "$t1 - $t0" | bc)
  sync
  t0=$(now); curl -sf -X POST "${url}-/snapshots?name=s" > /dev/null; t1=$(now)
  snap_t=$(echo "$t1 - $t0" | bc)
  sync
  t0=$(now); curl -sf -X POST "${url}-/snapshots/s/restore" > /dev/null; t1=$(now)
  restore_t=$(echo "$t1 - $t0" | bc)
  curl -sf "${url}bench/tree/folder0000/file000000.txt" > /dev/null
  printf 'round %d: cp -a + sync %.3f s   snapshot %.3f s (%.2fx)   restore %.3f s (%.2fx)\n' \
    "$r" "$cp_t" "$snap_t" "$(echo "$snap_t / $cp_t" | bc -l)" "$restore_t" "$(echo "$restore_t / $cp_t" | bc -l)"
  cp_times+=("$cp_t"); snap_times+=("$snap_t"); restore_times+=("$restore_t")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
mc=$(median "${cp_times[@]}"); ms=$(median "${snap_times[@]}"); mr=$(median "${restore_times[@]}")
printf 'median: cp -a + sync %.3f s   snapshot %.3f s (%.2fx)   restore %.3f s (%.2fx)\n' \
  "$mc" "$ms" "$(echo "$ms / $mc" | bc -l)" "$mr" "$(echo "$mr / $mc" | bc -l)"
