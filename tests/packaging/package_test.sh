#!/usr/bin/env bash
# `cpack -G DEB` makes the packages folio and folio-dev; their contents and control
# fields are checked with dpkg-deb, and the folio they install (extracted into a
# temporary root) serves the sample data it installs.
#
#   tests/packaging/package_test.sh BUILD_DIR
# Exit 77 (skipped) without dpkg-deb and dpkg-shlibdeps (not a Debian machine).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
# shellcheck source=../support/folio_serve.sh
source "$root/tests/support/folio_serve.sh"
for tool in dpkg-deb dpkg-shlibdeps cpack; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool is needed to build and read the Debian packages (apt-get install dpkg-dev)"
    exit 77
  fi
done
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-package-test-XXXXXX")"
trap 'folio_stop; rm -rf "$work"' EXIT

if ! (cd "$build" && cpack --config CPackConfig.cmake -G DEB -B "$work/out") > "$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"
  echo "FAIL cpack -G DEB"
  exit 1
fi
server_deb="$(ls "$work"/out/folio_*.deb)"
dev_deb="$(ls "$work"/out/folio-dev_*.deb)"
check "two packages: folio and folio-dev" test -f "$server_deb" -a -f "$dev_deb"

contents() { dpkg-deb -c "$1" | awk '{print $NF}' | sed 's|^\./|/|'; }
server_files="$(contents "$server_deb")"
dev_files="$(contents "$dev_deb")"
for f in /usr/bin/folio /usr/share/man/man1/folio.1 /usr/share/bash-completion/completions/folio \
         /usr/share/folio/sample-data/.folio/folio.json /usr/share/folio/sample-data/demo/plain/.folio/repository.json \
         /usr/share/folio/sample-data/demo/cmis/README.md; do
  check "folio ships $f" grep -qx -- "$f" <<<"$server_files"
done
for f in /usr/include/folio/testing.h /usr/lib/pkgconfig/folio-testing.pc /usr/lib/cmake/folio/folioConfig.cmake \
         /usr/share/doc/folio/examples/server_example_test.cc; do
  check "folio-dev ships $f" grep -qx -- "$f" <<<"$dev_files"
done
check "folio-dev ships libfolio-testing.a" grep -q '/libfolio-testing\.a$' <<<"$dev_files"
check "folio ships none of folio-dev's files" bash -c "! grep -q 'include/folio\|libfolio-testing' <<<'$server_files'"
check "every sample data file is in folio" \
  test "$(cd "$root/sample-data" && find . -type f | wc -l)" = "$(grep -c '^/usr/share/folio/sample-data/.*[^/]$' <<<"$server_files")"
check "folio: Package folio, Depends from the libraries it loads" \
  bash -c "dpkg-deb -f '$server_deb' Package | grep -qx folio && dpkg-deb -f '$server_deb' Depends | grep -q 'libc6'"
check "folio: Depends on libmagic-mgc (libmagic is linked in, its database is read at run time)" \
  bash -c "dpkg-deb -f '$server_deb' Depends | grep -q 'libmagic-mgc'"
check "folio-dev: Depends on folio of the same version" \
  bash -c "dpkg-deb -f '$dev_deb' Depends | grep -q 'folio (= $(dpkg-deb -f "$server_deb" Version))'"

# --- what it installs runs the sample data it installs ---------------------------------------
dpkg-deb -x "$server_deb" "$work/root"
if folio_start "$work" "$work/root/usr/bin/folio" serve --data "$work/root/usr/share/folio/sample-data" \
     --ephemeral --port 0; then
  check "the packaged folio lists the sample repositories" \
    bash -c "curl -sS '$FOLIO_URL/demo' | grep -q '\"repositoryId\":\"cmis\"'"
  check "the packaged folio serves a sample document" \
    bash -c "curl -sS '$FOLIO_URL/demo/plain/Projects/Apollo/mission-plan.md' | grep -q ."
  folio_stop
  check "and stops cleanly" test $? -eq 0
else
  check "the packaged folio starts on the packaged sample data" false
fi
check "the packaged sample data is clean for fsck" "$work/root/usr/bin/folio" fsck "$work/root/usr/share/folio/sample-data"

summary
