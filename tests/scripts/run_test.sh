#!/usr/bin/env bash
# scripts/run.sh as the README uses it: its options reach `folio serve` and replace the
# defaults they name (the port, the data directory), and a port in use is named with
# what to do. FOLIO_BUILD=BUILD_DIR skips the set-up and build.
#   tests/scripts/run_test.sh BUILD_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
# shellcheck source=../support/folio_serve.sh
source "$root/tests/support/folio_serve.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-run-test-XXXXXX")"
trap 'folio_stop; rm -rf "$work"' EXIT
export FOLIO_BUILD="$build"
run="$root/scripts/run.sh"

# --port 0 and --port=0 replace 8080; the sample data is served from a copy.
for port in "--port 0" "--port=0"; do
  # shellcheck disable=SC2086
  if check "run.sh $port starts" folio_start "$work" "$run" $port --log-level warn; then
    check "  it serves the sample data" bash -c "curl -sS '$FOLIO_URL/demo' | grep -q '\"repositoryId\":\"plain\"'"
    check "  a write goes to a copy" bash -c "curl -sS -o /dev/null -w '%{http_code}' -d operation=createFolder \
      -d name=run-test '$FOLIO_URL/demo/plain' | grep -qx 201 && test ! -e '$root/sample-data/demo/plain/run-test'"
    folio_stop
    check "  it stops cleanly" test $? -eq 0
  fi
done

# --variant goes through; --data serves that directory itself (no copy).
if check "run.sh --data DIR --variant A --port 0 starts" \
     folio_start "$work" "$run" --data "$work/mine" --variant A --port 0 --log-level warn; then
  curl -sS -o /dev/null -d operation=createDomain -d domainId=acme "$FOLIO_URL/"
  check "  repositories get variant A" bash -c "curl -sS -d operation=createRepository -d repositoryId=docs \
    '$FOLIO_URL/acme' | grep -q '\"variant\":\"A\"'"
  check "  the data is written to DIR" test -d "$work/mine/acme/docs"
  folio_stop
fi

# Relative --data paths are the caller's, not the checkout's.
mkdir -p "$work/cwd"
if check "run.sh --data rel (relative to the caller) starts" \
     bash -c "cd '$work/cwd' && source '$root/tests/support/folio_serve.sh' && \
       folio_start '$work' '$run' --data rel --port 0 --log-level warn && folio_stop"; then
  check "  rel was made in the caller's directory" test -d "$work/cwd/rel/.folio"
fi

# A port in use: exit 1, the port named, what to do said.
folio_start "$work" "$build/folio" serve --data "$work/busy" --port 0 --log-level warn
busy_port="${FOLIO_URL##*:}"
"$run" --port "$busy_port" > "$work/second.out" 2> "$work/second.err"
status=$?
check "run.sh --port BUSY exits 1" test $status -eq 1
check "  it names the port" grep -q "cannot listen on 127.0.0.1:$busy_port" "$work/second.err"
check "  and says what to do" grep -q "choose another port: --port N (--port 0 picks a free one)" "$work/second.err"
folio_stop

check "run.sh --help describes run.sh and folio serve" \
  bash -c "'$run' --help | grep -q 'scripts/run.sh --port 9090' && '$run' --help | grep -q -- '--exit-with-parent'"

summary
