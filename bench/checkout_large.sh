#!/bin/bash
# checkOut of a large document: the time over HTTP against the baseline of copying its
# bytes (`cp` then `sync` of the same file), and how much the data directory grows
# (docs/STORAGE.md §4.2 Rule V3: the working copy's content is a file of its own, a
# FICLONE where the filesystem shares blocks, else a copy; before, a hard link).
#
# Usage: bench/checkout_large.sh [BUILD_DIR] [MB]   (default build, 200 MB; needs curl)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
folio="${1:-$root/build}/folio"
mb="${2:-200}"
label=checkout
. "$root/bench/serve_lib.sh"
head -c "$((mb * 1000 * 1000))" /dev/urandom >"$work/big.bin"
curl -sf -o /dev/null -F operation=createDocument -F name=big.bin -F "content=@$work/big.bin" "$base"
sync
for round in 1 2 3; do
  start=$(date +%s%N)
  cp "$work/big.bin" "$work/copy.bin" && sync
  copy_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rm "$work/copy.bin"
  before=$(du -sk "$work/data" | cut -f1)
  start=$(date +%s%N)
  curl -sf -o /dev/null -d operation=checkOut "$base/big.bin"
  out_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  grown=$(( ($(du -sk "$work/data" | cut -f1) - before) / 1024 ))
  curl -sf -o /dev/null -d operation=cancelCheckOut "$base/big.bin"
  python3 -c "print(f'round $round: checkOut of $mb MB {$out_ms} ms vs cp + sync {$copy_ms} ms: ratio {$out_ms / max($copy_ms, 1):.3f}; data directory grew by $grown MiB')"
done
