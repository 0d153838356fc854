#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure --timeout 900
