#!/usr/bin/env bash
# End-to-end test of Folio with CmisJS (npm `cmis`), a standard CMIS Browser Binding client.
#
#   tests/clients/cmisjs/run.sh BUILD_DIR [extra arguments for cmisjs_test.js]
#
# Installs the pinned client with `npm ci` into BUILD_DIR/tests/clients/cmisjs (never into
# the source tree; reinstalled only when package-lock.json changes), starts
# `BUILD_DIR/folio serve` on a temporary copy of sample-data/, runs cmisjs_test.js against
# it and returns its status. Exit 77 (SKIPPED for CTest) when node or npm is missing.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUILD_DIR [--keep-going] [--variant A|B] [--verbose]" >&2
  exit 2
fi
build="$(cd "$1" && pwd)" || { echo "cmisjs: no build directory '$1'" >&2; exit 2; }
shift

source "$root/tests/support/npm_package.sh"
require_node "the CmisJS client test"

folio="$build/folio"
if [[ ! -x "$folio" ]]; then
  echo "cmisjs: $folio is missing; build the folio target first" >&2
  exit 1
fi

# --- the client, installed outside the source tree ----------------------------------------
work="$build/tests/clients/cmisjs"
node_modules="$("$here/install.sh" "$build")" || exit 1

# --- the server -----------------------------------------------------------------------------
out="$work/server.out"
log="$work/server.log"
: > "$out"
"$folio" serve --data "$root/sample-data" --ephemeral --port 0 --log-level info >"$out" 2>"$log" &
server=$!
stop_server() {
  if kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$server" 2>/dev/null && kill -KILL "$server" 2>/dev/null
  fi
  wait "$server" 2>/dev/null
}
trap stop_server EXIT
trap 'exit 130' INT TERM

url=""
for _ in $(seq 1 200); do
  url="$(sed -n 's|^folio listening on \(http://[^ ]*\)$|\1|p' "$out" | head -n1)"
  [[ -n "$url" ]] && break
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.05
done
if [[ -z "$url" ]]; then
  echo "cmisjs: folio serve did not print its ready line" >&2
  cat "$out" "$log" >&2
  exit 1
fi
echo "cmisjs: folio serving sample-data at $url (request log: $log)"

# --- the client test ------------------------------------------------------------------------
NODE_PATH="$node_modules" node "$here/cmisjs_test.js" "$url" "$@"
status=$?
if [[ $status -ne 0 ]]; then
  echo "--- last lines of the server log ($log) ---"
  tail -n 20 "$log"
fi
exit $status
