# Shared by bench/engine_syscalls.sh, engine_instructions.sh and engine_memory.sh
# (sourced), which start the server themselves (under strace, valgrind, or plain).
#
# Before sourcing: $root (the repository) and $needs (the tools besides curl the script
# runs the server under). Reads the script's arguments [BUILD_DIR] [CYCLES] and exits 2
# when the binary or a tool is missing.
# After sourcing: $folio, $cycles, $work (a temp dir holding data/), $port, $url (the
# sample data's demo/plain/README.md); then start the server with --data "$work/data"
# --port "$port" writing to "$work/serve.out", and call wait_listening N "$work/serve.out"
# and run_cycles N (bench/bench_lib.sh).
folio="${1:-$root/build}/folio"
cycles="${2:-50}"
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
for tool in $needs curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
. "$root/bench/bench_lib.sh"
bench_work cycles
url="http://127.0.0.1:$port/demo/plain/README.md"
