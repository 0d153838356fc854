#!/usr/bin/env bash
# Sets up and builds the server alone (scripts/setup.sh --target folio: the tests and
# benchmarks are not compiled), then serves the sample data on http://127.0.0.1:8080/
# from a temporary copy (--ephemeral): the files in the checkout never change.
#
#   scripts/run.sh [folio serve options]
#
# Options go to `folio serve` and replace the defaults they name:
#   scripts/run.sh --port 9090          another port (--port 0: any free one)
#   scripts/run.sh --variant A          repositories created without a variant get A
#   scripts/run.sh --data ./mydata      serve ./mydata itself (no copy unless --ephemeral)
# Stop it with Ctrl-C. FOLIO_BUILD=DIR serves with DIR/folio as it is (no set-up, no build).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"  # no cd: relative --data paths stay the caller's

port=(--port 8080)
host=(--host 127.0.0.1)
data=(--data "$root/sample-data" --ephemeral)
for arg in "$@"; do
  case "$arg" in
    --port|--port=*) port=() ;;
    --host|--host=*) host=() ;;
    --data|--data=*) data=() ;;
    -h|--help) exec_help=1 ;;
  esac
done

if [[ -n "${FOLIO_BUILD:-}" ]]; then
  folio="$FOLIO_BUILD/folio"
else
  "$root/scripts/setup.sh" --target folio
  folio="$root/build/folio"
fi
if [[ -n "${exec_help:-}" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
  exec "$folio" serve --help
fi
exec "$folio" serve ${data[@]+"${data[@]}"} ${host[@]+"${host[@]}"} ${port[@]+"${port[@]}"} "$@"
