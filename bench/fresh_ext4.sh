#!/bin/bash
# Runs a command with TMPDIR on an ext4 made fresh for it: a loop-mounted image
# (needs root), so that no run inherits the inodes earlier runs freed. ext4 without a
# journal (this project's CI machines' own disk) does not reuse an inode freed in the
# last minutes and walks past each one when it allocates; every bench run deletes its
# data directory, so on a shared disk each run is slower than the one before, whatever
# it runs (bench/RESULTS.md, "Spare files"). With --journal the image has one.
#
# Usage: bench/fresh_ext4.sh [--journal] [--size 4G] COMMAND [ARGS...]
#   e.g. bench/fresh_ext4.sh build/bench/folio_bench_engine --cycles
set -euo pipefail
journal=(-O ^has_journal)
size=4G
while [ $# -gt 0 ]; do
  case "$1" in
    --journal) journal=(); shift ;;
    --size) size="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--journal] [--size 4G] COMMAND [ARGS...]" >&2; exit 2; }
img=$(mktemp /var/tmp/folio-ext4-XXXXXX.img)
mnt=$(mktemp -d /var/tmp/folio-ext4-XXXXXX)
cleanup() { umount "$mnt" 2>/dev/null || true; rmdir "$mnt" 2>/dev/null || true; rm -f "$img"; }
trap cleanup EXIT INT TERM
truncate -s "$size" "$img"
mkfs.ext4 -q -F "${journal[@]}" "$img"
mount -o loop "$img" "$mnt"
TMPDIR="$mnt" "$@"
