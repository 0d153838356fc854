#!/usr/bin/env bash
# What a first listing of files added by hand costs the server, in figures that do not
# drift with the machine's load: FILES files (200 B each) in 10 folders are copied into
# an empty repository, `folio serve` starts, every page of every folder is listed once,
# and after WAIT seconds (the query index's first build, which adopts and reads them too,
# is then over) the server stops. Printed: the server's CPU time (task-clock: user and
# kernel) and its newfstatat, getdents64 and openat2 calls over its whole life (perf stat
# with the syscall tracepoints).
#
#   bench/adoption_counts.sh [FOLIO_BINARY] [FILES] [WAIT]   (default build/folio 10000 25)
set -euo pipefail
folio="$(realpath "${1:-build/folio}")"
files="${2:-10000}"
wait_s="${3:-25}"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-adoption-counts-XXXXXX")"
perf_pid=""
trap '[[ -n "$perf_pid" ]] && kill "$perf_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT

python3 - "$work/src" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "folder-%d" % (i % 10))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "note-%d.txt" % i), "w") as f:
        f.write("a" * 200 + str(i) + "\n")
PY
mkdir "$work/empty"
"$folio" import "$work/empty" "$work/data" demo/main --progress none > /dev/null
cp -a "$work/src/." "$work/data/demo/main/"
sync

perf stat -x, -e task-clock,syscalls:sys_enter_newfstatat,syscalls:sys_enter_getdents64,syscalls:sys_enter_openat2 \
  -o "$work/stat.txt" "$folio" serve --data "$work/data" --port 0 --log-level warn > "$work/ready.txt" &
perf_pid=$!
for _ in $(seq 300); do grep -q listening "$work/ready.txt" && break; sleep 0.1; done
url="$(sed -n 's/^folio listening on //p' "$work/ready.txt")"
python3 - "$url" <<'PY'
import json, sys, urllib.request
url, listed = sys.argv[1], 0
for f in range(10):
    skip = 0
    while True:
        page = json.load(urllib.request.urlopen(
            f"{url}demo/main/folder-{f}?cmisselector=children&succinct=true&maxItems=1000&skipCount={skip}"))
        listed += len(page["objects"])
        skip += 1000
        if not page.get("hasMoreItems"):
            break
print(f"listed {listed} objects")
PY
sleep "$wait_s"
kill -TERM "$(pgrep -P "$perf_pid")"
wait "$perf_pid" || true
perf_pid=""
grep -v '^#' "$work/stat.txt" | grep -v '^$' | awk -F, '{ printf "%s %s\n", $3, $1 }'
