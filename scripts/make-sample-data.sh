#!/bin/sh
# Regenerates sample-data/ with tools/make_sample_data.cc: builds the generator in
# build/ (or $BUILD_DIR), removes the old sample-data/ and writes a new one.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target folio_make_sample_data -j "$(nproc)"
rm -rf "$root/sample-data"
"$build/tools/folio_make_sample_data" "$root/sample-data"
