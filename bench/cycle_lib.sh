# Shared by bench/engine_syscalls.sh, engine_instructions.sh and engine_memory.sh (sourced): a copy of
# the sample data, a free port, and the curl arguments of checkOut + checkIn cycles of
# one document over one keep-alive connection (curl --next).
#
# Before sourcing: $root (the repository) and $needs (the tools besides curl the script
# runs the server under). Reads the script's arguments [BUILD_DIR] [CYCLES] and exits 2
# when the binary or a tool is missing.
# After sourcing: $folio, $cycles, $work (a temp dir holding data/), $port, $url; then
# start the server with --data "$work/data" --port "$port" writing to
# "$work/serve.out", and call wait_listening N (tries, 0.3 s apart) and run_cycles N.
folio="${1:-$root/build}/folio"
cycles="${2:-50}"
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
for tool in $needs curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
work=$(mktemp -d /tmp/folio-cycles-XXXXXX)
cp -a "$root/sample-data" "$work/data"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port/demo/plain/README.md"

wait_listening() {
  for _ in $(seq "$1"); do grep -q listening "$work/serve.out" 2>/dev/null && return 0; sleep 0.3; done
  return 1
}

# `n` cycles on one connection.
run_cycles() {
  i=0
  while [ "$i" -lt "$1" ]; do
    printf '%s\n' -s -o /dev/null -d operation=checkOut "$url" --next -s -o /dev/null -d "operation=checkIn&major=false" "$url" --next
    i=$((i + 1))
  done | sed "$ d" | xargs curl >/dev/null
}
