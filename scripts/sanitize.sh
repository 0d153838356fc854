#!/usr/bin/env bash
# Builds Folio and its test suite under a sanitizer and runs the tests: the check run
# before each release (docs: bench/RESULTS.md records the runs).
#
#   scripts/sanitize.sh asan   # AddressSanitizer + UndefinedBehaviorSanitizer, whole suite
#   scripts/sanitize.sh tsan   # ThreadSanitizer: the server, concurrency and commit tests
#
# Extra arguments go to folio_tests (e.g. -tc='Concurrency*'). Build trees: build-asan/,
# build-tsan/ (ccache is used when installed). Exit status: the tests'.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-}"
shift || true
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
case "$kind" in
  asan)
    dir=build-asan
    flags=(-DFOLIO_SANITIZE=ON)
    # Leaks are real findings; every UB report stops the test (-fno-sanitize-recover).
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    tests=()
    ;;
  tsan)
    dir=build-tsan
    flags=(-DFOLIO_TSAN=ON)
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
    # The parts with threads: the HTTP server, the commit path and group commit,
    # concurrency, the test server library, and fsck beside a live server.
    tests=("-tc=Http*,Concurrency*,Committer*,Commit*,Server*,folio serve*,Testing*,Fsck beside*,Two*,Read-only*")
    ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan [folio_tests arguments]" >&2
    exit 2
    ;;
esac
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFOLIO_BUILD_BENCH=OFF "${flags[@]}" "${launcher[@]}" > /dev/null
cmake --build "$dir" -j"$(nproc)" --target folio folio_tests
"$dir/tests/folio_tests" "${tests[@]}" "$@"
