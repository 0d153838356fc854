# Shared by the bench scripts that drive `folio serve` over curl (sourced, through
# cycle_lib.sh or serve_lib.sh): a work directory holding a copy of the sample data,
# a free port, waiting for the ready line, and checkOut + checkIn cycles over one
# keep-alive connection. Before sourcing: $root (the repository).

# The directory work directories are made in: $TMPDIR/folio-bench (default /tmp),
# flagged as the top of a directory hierarchy where the filesystem has that flag, as the
# C++ benches' MakeTempDir does (bench/README.md: ext4 without a journal).
bench_tmp() {
  local dir="${TMPDIR:-/tmp}/folio-bench"
  mkdir -p "$dir" && { chattr +T "$dir" 2>/dev/null || true; }
  echo "$dir"
}

# Sets $work (a new directory in bench_tmp: set TMPDIR to put it on another filesystem)
# holding data/, a copy of the sample data, and $port, a free TCP port.
bench_work() {
  work=$(mktemp -d "$(bench_tmp)/folio-$1-XXXXXX")
  cp -a "$root/sample-data" "$work/data"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
}

# wait_listening TRIES FILE: waits (0.1 s a try) until the server's output FILE says it
# is listening; fails after TRIES tries.
wait_listening() {
  for _ in $(seq "$1"); do grep -q listening "$2" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# run_cycles N [URL] [CLOSE]: N checkOut + checkIn (minor, no content) cycles of the
# document at URL ($url by default) over one keep-alive connection (curl --next).
# CLOSE replaces the second request's form ("operation=cancelCheckOut": no version is
# added, the series stays the same size).
run_cycles() {
  local i=0 target="${2:-$url}" close="${3:-operation=checkIn&major=false}"
  while [ "$i" -lt "$1" ]; do
    printf '%s\n' -s -o /dev/null -d operation=checkOut "$target" --next \
      -s -o /dev/null -d "$close" "$target" --next
    i=$((i + 1))
  done | sed '$ d' | xargs curl >/dev/null
}
