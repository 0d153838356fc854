#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/CMakeLists.txt) with clang 14 under ASan and UBSan
# into BUILD_DIR and runs each for SECONDS, starting from its seed corpus in
# fuzz/corpus/<name>/ (new inputs go to BUILD_DIR/corpus/<name>/: the repository's seeds
# stay as they are). A crash stops the run with its reproducer in BUILD_DIR/findings/.
#
#   fuzz/run.sh                      # CI smoke: build-fuzz/, 5 s per target
#   fuzz/run.sh build-fuzz 600       # a longer run: 10 minutes per target
#   FUZZ_TARGETS="multipart" fuzz/run.sh build-fuzz 3600   # one target for an hour
#
# Prints one line per target: executions, coverage and corpus size at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
seconds=${2:-5}
targets=${FUZZ_TARGETS:-"request_head percent_decode urlencoded multipart properties_form json_input datetime query_parser object_record series_record index_entry adoption_table type_definition commit_log change_log"}
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 -DFOLIO_BUILD_FUZZ=ON \
  -DFOLIO_BUILD_TESTS=OFF -DFOLIO_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target folio_fuzz >/dev/null
mkdir -p "$build/findings"
for name in $targets; do
  corpus="$build/corpus/$name"
  mkdir -p "$corpus"
  log="$build/findings/$name.log"
  if ! "$build/fuzz/fuzz_$name" "$corpus" "fuzz/corpus/$name" -max_total_time="$seconds" -max_len=65536 \
       -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$build/findings/$name-" -print_final_stats=1 \
       >"$log" 2>&1; then
    echo "fuzz: $name FOUND A CRASH (reproducer in $build/findings/, log $log):"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -20
    exit 1
  fi
  execs=$(grep -E "^stat::number_of_executed_units" "$log" | awk '{print $2}')
  cov=$(grep -E "^#[0-9]+.*(DONE|cov:)" "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+).*/\1/')
  echo "fuzz: $name ${seconds}s: ${execs:-?} executions, cov ${cov:-?}, corpus $(ls "$corpus" | wc -l) new + $(ls "fuzz/corpus/$name" | wc -l) seeds, no finding"
done
