#!/usr/bin/env bash
# The node:test recipe (folio_fixture.mjs) against BUILD_DIR/folio and sample-data/.
#   tests/clients/node/run.sh BUILD_DIR
# Exit 77 (skipped) without node >= 18.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: node >= 18 is needed for the node:test recipe (apt-get install nodejs)"
  exit 77
fi
if [[ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]]; then
  echo "SKIPPED: node >= 18 is needed for the node:test recipe (found $(node --version))"
  exit 77
fi
export FOLIO="$build/folio" FOLIO_FIXTURE="$root/sample-data"
exec node --test "$here/folio_fixture.test.mjs"
