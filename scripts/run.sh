#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then shows the sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/folio inspect sample-data
