# Shell helpers for tests that run `folio serve` as a process (source this file).
#
#   folio_start OUT_DIR COMMAND [ARGS...]   runs COMMAND ARGS in the background (a folio
#                                           serve, or a script that execs one), its
#                                           stdout in OUT_DIR/server.out and stderr in
#                                           OUT_DIR/server.log; sets FOLIO_PID and
#                                           FOLIO_URL (from the ready line, no trailing
#                                           slash); returns 1 if no ready line comes
#   folio_stop                              SIGTERM, then waits; returns its exit status
#
# Callers stop it in their EXIT trap (folio_stop is safe to call more than once).

folio_start() {
  local dir="$1"
  shift
  : > "$dir/server.out"
  "$@" > "$dir/server.out" 2> "$dir/server.log" &
  FOLIO_PID=$!
  FOLIO_URL=""
  local _
  for _ in $(seq 1 600); do  # up to a minute on a busy machine
    FOLIO_URL="$(sed -n 's|^folio listening on \(http://[^ ]*\)/$|\1|p' "$dir/server.out" | head -n1)"
    [[ -n "$FOLIO_URL" ]] && return 0
    kill -0 "$FOLIO_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "folio serve did not print its ready line; its output:" >&2
  cat "$dir/server.out" "$dir/server.log" >&2
  return 1
}

folio_stop() {
  local status=0
  if [[ -n "${FOLIO_PID:-}" ]]; then
    if kill -0 "$FOLIO_PID" 2>/dev/null; then kill -TERM "$FOLIO_PID" 2>/dev/null; fi
    wait "$FOLIO_PID" 2>/dev/null || status=$?
    FOLIO_PID=""
  fi
  return $status
}

# Test bookkeeping: `check DESCRIPTION COMMAND...` runs COMMAND and prints one line
# (returning COMMAND's success);
# `summary` prints "N passed, N failed" and returns non-zero if any failed.
CHECKS_PASSED=0
CHECKS_FAILED=0
check() {
  local what="$1"
  shift
  if "$@"; then
    echo "ok   $what"
    CHECKS_PASSED=$((CHECKS_PASSED + 1))
  else
    echo "FAIL $what"
    CHECKS_FAILED=$((CHECKS_FAILED + 1))
    return 1
  fi
}
summary() {
  echo "$CHECKS_PASSED passed, $CHECKS_FAILED failed"
  [[ $CHECKS_FAILED -eq 0 ]]
}
