#!/usr/bin/env bash
# Builds Folio and its test suite under a sanitizer and runs the tests: the check run
# before each release (README "Tests, sanitizers, benchmarks"; bench/RESULTS.md,
# "Robustness runs", holds the latest run of each: what ran and what it found).
#
#   scripts/sanitize.sh asan   # AddressSanitizer + UndefinedBehaviorSanitizer, whole suite
#   scripts/sanitize.sh tsan   # ThreadSanitizer: the tests with threads or processes
#
# Extra arguments go to folio_tests (e.g. -tc='Concurrency*'; they replace the TSan
# selection). Build trees: build-asan/, build-tsan/ (RelWithDebInfo; ccache is used
# when installed; JOBS=N for the build's parallelism, default nproc). The folio binary
# the tests start (servers, crash and two-process tests) is instrumented too. After the
# suite, the ASan run replays every fuzz target's seed corpus (ctest fuzz_*_corpus).
# Exit status: the tests'. A whole ASan run takes about an hour of CPU.
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
    # The parts with threads or processes: the HTTP server (every Http*, Auth* and ACL*
    # test starts one; the crash test kills it), group commit under concurrent writers,
    # two processes on one directory, the response and JSON caches, the password hash
    # pool and throttle, the metrics, the log writer, the query index and its watcher,
    # fsck beside a live writer, read-only adoption in memory, the test server library.
    tests=("-tc=Committer*,Http*,HTTP crash*,Auth*,ACL*,Authenticator*,HashPool*,Throttle*,Concurrency*,Two servers*,Change log*,ChangeLog*,Response cache*,ResponseCache*,JsonCache*,Histogram*,ObserveCommitLatency*,LogOutput*,RequestLog*,QueryIndex*,HandWatcher*,Fsck beside*,Read-only*,Full disk*,Hostile*,FaultyFs*,folio serve*,Serve exposed*,folio::testing::Server*")
    ;;
  *)
    echo "usage: scripts/sanitize.sh asan|tsan [folio_tests arguments]" >&2
    exit 2
    ;;
esac
if [ $# -gt 0 ]; then tests=("$@"); fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFOLIO_BUILD_BENCH=OFF "${flags[@]}" "${launcher[@]}" > /dev/null
start=$(date +%s)
cmake --build "$dir" -j"${JOBS:-$(nproc)}"
echo "sanitize: $kind build $(( $(date +%s) - start )) s"
start=$(date +%s)
status=0
"$dir/tests/folio_tests" "${tests[@]}" || status=$?
echo "sanitize: $kind folio_tests $(( $(date +%s) - start )) s, exit $status"
if [ "$kind" = asan ] && [ $# -eq 0 ]; then
  (cd "$dir" && ctest --output-on-failure -R '^fuzz_.*_corpus$') || status=$?
fi
exit $status
