#!/usr/bin/env bash
# End-to-end test of the browse UI (/-/ui/) in headless Chromium, driven by puppeteer-core.
#
#   tests/browser/run.sh BUILD_DIR [--screenshots DIR] [--keep]
#
# Installs the pinned puppeteer-core with `npm ci` into BUILD_DIR/tests/browser (never
# into the source tree), then runs ui_test.js, which starts BUILD_DIR/folio serve on
# temporary copies of sample-data/ and does every action of the UI in Debian's
# chromium. Screenshots go to BUILD_DIR/tests/browser/screenshots (or DIR).
# Exit 77 (SKIPPED for CTest) when node, npm or chromium is missing.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUILD_DIR [--screenshots DIR] [--keep]" >&2
  exit 2
fi
build="$(cd "$1" && pwd)" || { echo "browser: no build directory '$1'" >&2; exit 2; }
shift

source "$root/tests/support/npm_package.sh"
require_node "the browser test"
chromium="${FOLIO_CHROMIUM:-$(command -v chromium || true)}"
if [[ -z "$chromium" || ! -x "$chromium" ]]; then
  echo "SKIPPED: chromium is needed for the browser test (scripts/setup.sh --test-packages)"
  exit 77
fi
if [[ ! -x "$build/folio" ]]; then
  echo "browser: $build/folio is missing; build the folio target first" >&2
  exit 1
fi
node_modules="$("$here/install.sh" "$build")" || exit 1
NODE_PATH="$node_modules" exec node "$here/ui_test.js" --folio "$build/folio" --chromium "$chromium" \
  --sample "$root/sample-data" --work "$build/tests/browser" "$@"
