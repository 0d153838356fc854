#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then serves the sample data on
# http://127.0.0.1:8080/ from a temporary copy (--ephemeral): the files in the checkout
# never change. Extra arguments go to `folio serve` (e.g. --port 9090, --variant A).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/folio serve --data sample-data --ephemeral --host 127.0.0.1 --port 8080 "$@"
