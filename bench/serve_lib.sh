# Sourced by the bench scripts that drive one `folio serve` over curl
# (checkout_large.sh, engine_cpu.sh): a copy of the sample data in a temp directory
# (under $TMPDIR: put it on another filesystem that way), the server started on a free
# port and waited for, and stopped with the directory removed at exit.
#
# Before sourcing: $root (the repository), $folio (the binary) and $label (names the
# temp directory). After: $work (holds data/), $port, $pid (the server) and $base, the
# URL of the sample repository demo/plain.
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
command -v curl >/dev/null || { echo "needs curl" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/folio-$label-XXXXXX")
cp -a "$root/sample-data" "$work/data"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$folio" serve --data "$work/data" --port "$port" --log-level warn >"$work/out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT INT TERM
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port/demo/plain"
