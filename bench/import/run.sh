#!/usr/bin/env bash
# folio import against `cp -a` of the same tree followed by `sync` (issue 13 §2: at most
# 3x), and folio export against the same copy, timed in the same run, alternating, on
# the same filesystem. The tree: FILES small files (100 B - 4 KiB, random bytes and
# text) in folders of 100.
#
#   bench/import/run.sh [FOLIO_BINARY] [FILES] [ROUNDS]     (default build/folio 10000 5)
#
# Prints each round and the medians; the figures go in bench/RESULTS.md.
set -euo pipefail
folio="${1:-build/folio}"
files="${2:-10000}"
rounds="${3:-5}"
folio="$(realpath "$folio")"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-import-bench-XXXXXX")"
trap 'rm -rf "$work"' EXIT

python3 - "$work/src" "$files" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(13)
for i in range(n):
    d = os.path.join(root, "folder%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    size = rng.randint(100, 4096)
    if i % 2:
        data = bytes(rng.getrandbits(8) for _ in range(size))
        name = "file%05d.bin" % i
    else:
        data = ("line %d of a text file\n" % i * (size // 24 + 1)).encode()[:size]
        name = "file%05d.txt" % i
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
PY
bytes="$(du -sb "$work/src" | cut -f1)"
echo "tree: $files files in $(( (files + 99) / 100 )) folders, $bytes bytes (du -sb), on $(df --output=source,fstype "$work" | tail -1)"

now() { date +%s.%N; }
declare -a cp_times import_times export_times
for r in $(seq 1 "$rounds"); do
  rm -rf "$work/copy" "$work/data" "$work/out"
  sync
  t0=$(now); cp -a "$work/src" "$work/copy" && sync; t1=$(now)
  cp_t=$(echo "$t1 - $t0" | bc)
  sync
  t0=$(now); "$folio" import "$work/src" "$work/data" bench/tree --progress none > /dev/null; t1=$(now)
  imp_t=$(echo "$t1 - $t0" | bc)
  sync
  t0=$(now); "$folio" export "$work/data" bench/tree "$work/out" --progress none > /dev/null; t1=$(now)
  exp_t=$(echo "$t1 - $t0" | bc)
  diff -r "$work/src" "$work/out" > /dev/null || { echo "round $r: the export differs from the source" >&2; exit 1; }
  printf 'round %d: cp -a + sync %.3f s   folio import %.3f s (%.2fx)   folio export %.3f s (%.2fx)\n' \
    "$r" "$cp_t" "$imp_t" "$(echo "$imp_t / $cp_t" | bc -l)" "$exp_t" "$(echo "$exp_t / $cp_t" | bc -l)"
  cp_times+=("$cp_t"); import_times+=("$imp_t"); export_times+=("$exp_t")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
mc=$(median "${cp_times[@]}"); mi=$(median "${import_times[@]}"); me=$(median "${export_times[@]}")
printf 'median: cp -a + sync %.3f s   folio import %.3f s (%.2fx, target <= 3x)   folio export %.3f s (%.2fx)\n' \
  "$mc" "$mi" "$(echo "$mi / $mc" | bc -l)" "$me" "$(echo "$me / $mc" | bc -l)"
