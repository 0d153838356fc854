#!/usr/bin/env bash
# Installs the pinned CmisJS (npm `cmis`, package-lock.json) with `npm ci` into
# BUILD_DIR/tests/clients/cmisjs (never into the source tree; again only when the lock
# file changes) and prints the node_modules directory to use as NODE_PATH.
#   tests/clients/cmisjs/install.sh BUILD_DIR
# Exit 1 when npm ci fails. The caller checks for node and npm first.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
source "$here/../../support/npm_package.sh"
npm_install "$here" "$build/tests/clients/cmisjs" cmis || exit 1
