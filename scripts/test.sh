#!/usr/bin/env bash
# Sets up (scripts/setup.sh, with the packages the tests use) and builds everything,
# then runs every test with ctest. Extra arguments go to ctest (e.g. -R readme).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test-packages
cd build
ctest --output-on-failure --timeout 900 "$@"
