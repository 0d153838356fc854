#!/usr/bin/env bash
# The JVM recipe (FolioServer.java) against BUILD_DIR/folio and sample-data/, compiled
# with javac into BUILD_DIR/tests/clients/java.
#   tests/clients/java/run.sh BUILD_DIR
# Exit 77 (skipped) without a JDK (javac and java, 11 or later).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
if ! command -v javac >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1; then
  echo "SKIPPED: a JDK (javac, java 11+) is needed for the JVM recipe (apt-get install default-jdk-headless)"
  exit 77
fi
classes="$build/tests/clients/java"
mkdir -p "$classes"
javac -d "$classes" "$here/FolioServer.java" "$here/FolioServerTest.java" || exit 1
exec java -cp "$classes" FolioServerTest "$build/folio" "$root/sample-data"
