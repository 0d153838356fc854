#!/usr/bin/env bash
# Regenerates the README's pictures of the browse UI (docs/ui-*.png) from the browser
# test (tests/browser/ui_test.js), which takes them while it uses the UI.
#
#   scripts/ui-screenshots.sh [BUILD_DIR]     (default: build)
#
# Needs what the browser test needs (scripts/setup.sh --test-packages) and a built folio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$root/tests/browser/run.sh" "$build" --screenshots "$out"
# The ones the README shows.
for name in ui-browse ui-document ui-upload ui-properties ui-search ui-changes ui-acl ui-users ui-many ui-narrow; do
  cp "$out/$name.png" "$root/docs/$name.png"
done
echo "docs/ui-*.png updated from $build/folio"
