# Sourced by the bench scripts that drive one plain `folio serve` over curl
# (checkout_large.sh, engine_cpu.sh, engine_sustained.sh, long_series.sh): a copy of the
# sample data in a temp directory (under $TMPDIR: put it on another filesystem that
# way), the server started on a free port and waited for, and stopped with the directory
# removed at exit.
#
# Before sourcing: $root (the repository), $folio (the binary) and $label (names the
# temp directory). After: $work (holds data/), $port, $pid (the server), $base, the
# URL of the sample repository demo/plain, and run_cycles (bench/bench_lib.sh).
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
command -v curl >/dev/null || { echo "needs curl" >&2; exit 2; }
. "$root/bench/bench_lib.sh"
bench_work "$label"
"$folio" serve --data "$work/data" --port "$port" --log-level warn >"$work/out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
wait_listening 100 "$work/out" || true
base="http://127.0.0.1:$port/demo/plain"
