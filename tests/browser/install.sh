#!/usr/bin/env bash
# Installs the pinned puppeteer-core (package-lock.json) with `npm ci` into
# BUILD_DIR/tests/browser (never into the source tree; again only when the lock file
# changes) and prints the node_modules directory to use as NODE_PATH. Downloads no
# browser: puppeteer-core drives Debian's chromium.
#   tests/browser/install.sh BUILD_DIR
# Exit 1 when npm ci fails. The caller checks for node and npm first.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
work="$build/tests/browser"
mkdir -p "$work"
lock_sum="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$work/node_modules/puppeteer-core/package.json" || "$(cat "$work/.installed" 2>/dev/null)" != "$lock_sum" ]]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  echo "browser: npm ci in $work" >&2
  if ! (cd "$work" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "browser: npm ci failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  echo "$lock_sum" > "$work/.installed"
fi
echo "$work/node_modules"
