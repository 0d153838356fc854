#!/usr/bin/env bash
# A private MooseFS for one command: a network namespace with a veth pair and a private
# address inside it (MooseFS refuses the loopback address), a master and one chunkserver
# keeping their data in a temporary directory, and mfsmount (FUSE) mounting it; then
# COMMAND runs inside that namespace, where the mount is visible (and only there), with
#   MFS_MOUNT  the mount point (an empty MooseFS, goal 1),
#   MFS_ADDR   the namespace's private address (bind servers to 127.0.0.1 or to it),
#   MFS_WORK   a scratch directory on the local disk (logs, nginx configuration).
# Everything is removed at the end, whatever happens: the mount, the daemons, the
# namespace and the temporary directory. Exit status: COMMAND's; 77 (skipped, with the
# reason on stderr) where the machine does not allow it: not root, no /dev/fuse, no
# network namespaces, MooseFS not installed (scripts/setup.sh --test-packages).
#   tests/dfs/moosefs_env.sh COMMAND [ARGS...]
#   MFS_KEEP_LOGS=DIR keeps the daemons' logs there.
set -uo pipefail

skip() { echo "moosefs_env: skipped: $*" >&2; exit 77; }
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespace, FUSE mount)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
for tool in ip mfsmaster mfschunkserver mfsmount mfssetgoal fusermount3; do
  command -v "$tool" >/dev/null 2>&1 ||
    skip "'$tool' is missing (apt-get install moosefs-master moosefs-chunkserver moosefs-client, iproute2, fuse3)"
done
empty_meta=/var/lib/mfs/metadata.mfs.empty
[ -r "$empty_meta" ] || skip "no $empty_meta (moosefs-master's empty metadata)"

ns="folio-mfs-$$-$RANDOM"
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace (ip netns add)"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-mfs-XXXXXX")"

# The outer clean-up: whatever the inner shell left (it was killed, or timed out) goes.
cleanup() {
  local pids
  pids="$(ip netns pids "$ns" 2>/dev/null)"
  # shellcheck disable=SC2086
  [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  # The mount lived in the namespace's own mount namespace: gone with its processes.
  if [ -n "${MFS_KEEP_LOGS:-}" ]; then mkdir -p "$MFS_KEEP_LOGS" && cp "$work"/*.log "$MFS_KEEP_LOGS"/ 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# A private /24 from 10.213.0.0/16, picked by the process id: two runs side by side
# live in two namespaces anyway.
net="10.213.$(( $$ % 250 + 1 ))"
addr="$net.1"

# The inner shell: everything below runs inside the namespace.
# shellcheck disable=SC2016
inner='
set -uo pipefail
work="$1"; addr="$2"; peer="$3"; shift 3
ip link set lo up
ip link add fmfs0 type veth peer name fmfs1
ip addr add "$addr/24" dev fmfs0
ip addr add "$peer/24" dev fmfs1
ip link set fmfs0 up
ip link set fmfs1 up

mkdir -p "$work/master" "$work/cs" "$work/chunks" "$work/mnt" "$work/scratch"
cp /var/lib/mfs/metadata.mfs.empty "$work/master/metadata.mfs"
printf "*\t/\trw,alldirs,maproot=0:0\n" > "$work/exports.cfg"
: > "$work/topology.cfg"
cat > "$work/master.cfg" <<EOF
WORKING_USER = root
WORKING_GROUP = root
DATA_PATH = $work/master
EXPORTS_FILENAME = $work/exports.cfg
TOPOLOGY_FILENAME = $work/topology.cfg
MATOML_LISTEN_HOST = $addr
MATOCS_LISTEN_HOST = $addr
MATOCL_LISTEN_HOST = $addr
EOF
echo "$work/chunks" > "$work/hdd.cfg"
cat > "$work/cs.cfg" <<EOF
WORKING_USER = root
WORKING_GROUP = root
DATA_PATH = $work/cs
HDD_CONF_FILENAME = $work/hdd.cfg
HDD_LEAVE_SPACE_DEFAULT = 64MiB
MASTER_HOST = $addr
BIND_HOST = $addr
CSSERV_LISTEN_HOST = $addr
EOF

pids=()
teardown() {
  mountpoint -q "$work/mnt" && { fusermount3 -u "$work/mnt" 2>/dev/null || umount -l "$work/mnt"; }
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
}
trap teardown EXIT

mfsmaster -f -c "$work/master.cfg" start > "$work/master.log" 2>&1 & pids+=($!)
mfschunkserver -f -c "$work/cs.cfg" start > "$work/chunkserver.log" 2>&1 & pids+=($!)
# mfsmount forks into the background once mounted; it is stopped by unmounting.
ok=0
for _ in $(seq 1 100); do
  if mfsmount "$work/mnt" -H "$addr" -P 9421 > "$work/mount.log" 2>&1; then ok=1; break; fi
  sleep 0.1
done
[ "$ok" = 1 ] || { echo "moosefs_env: mfsmount failed:" >&2; cat "$work"/*.log >&2; exit 1; }
# A write needs the chunkserver registered with its disk: wait for a file to take bytes.
ok=0
for _ in $(seq 1 150); do
  if echo probe > "$work/mnt/.mfs-ready" 2>/dev/null && sync "$work/mnt/.mfs-ready" 2>/dev/null &&
     [ "$(cat "$work/mnt/.mfs-ready" 2>/dev/null)" = probe ]; then ok=1; break; fi
  sleep 0.2
done
rm -f "$work/mnt/.mfs-ready"
[ "$ok" = 1 ] || { echo "moosefs_env: the chunkserver never took a write:" >&2; cat "$work"/*.log >&2; exit 1; }
mfssetgoal -r 1 "$work/mnt" > /dev/null 2>&1
echo "moosefs_env: MooseFS $(mfsmount --version 2>&1 | sed -n "s/^MFS version: \([^ ]*\).*/\1/p") mounted at $work/mnt (master $addr)" >&2
MFS_MOUNT="$work/mnt" MFS_ADDR="$addr" MFS_WORK="$work/scratch" "$@"
'
ip netns exec "$ns" bash -c "$inner" moosefs_env "$work" "$addr" "$net.2" "$@"
