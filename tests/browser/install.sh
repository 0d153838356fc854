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
source "$here/../support/npm_package.sh"
npm_install "$here" "$build/tests/browser" puppeteer-core PUPPETEER_SKIP_DOWNLOAD=1 || exit 1
