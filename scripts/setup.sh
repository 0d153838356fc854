#!/usr/bin/env bash
# Installs what Folio needs from Debian 12 packages (only what is missing, so a second
# run takes a second) and builds it in Release into build/.
#
#   scripts/setup.sh [--target NAME]... [--test-packages] [extra cmake args...]
#
# --target NAME   build only NAME (repeatable; e.g. folio); default: everything
# --test-packages also install what the tests use beyond the build (curl, pytest, and for
#                 the browser test chromium, node and npm, then puppeteer-core by npm ci)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=()
# SQLite, libsodium and libmagic are linked from their static archives; libmagic's needs
# those of liblzma, libbz2 and zlib, which libmagic-dev does not depend on.
packages=(g++ cmake make pkg-config libcpp-httplib-dev nlohmann-json3-dev
          libspdlog-dev doctest-dev librapidcheck-dev libcli11-dev libsodium-dev libsqlite3-dev libmagic-dev
          liblzma-dev libbz2-dev zlib1g-dev)
cmake_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --target) targets+=(--target "$2"); shift 2 ;;
    --target=*) targets+=(--target "${1#--target=}"); shift ;;
    # The README walkthrough test runs curl; the pytest recipe runs pytest; the package
    # test reads the .deb with dpkg-deb (dpkg-dev: cpack's dependency scan); the
    # distributed-filesystem tests run MooseFS and nginx (tests/dfs/), the bench wrk;
    # the browse UI's test drives Debian's chromium with puppeteer-core (tests/browser/).
    --test-packages)
      packages+=(curl python3-pytest dpkg-dev moosefs-master moosefs-chunkserver
                 moosefs-client moosefs-cli fuse3 iproute2 nginx wrk chromium nodejs)
      command -v npm >/dev/null 2>&1 || packages+=(npm)  # NodeSource's nodejs carries its own
      test_packages=1; shift ;;
    *) cmake_args+=("$1"); shift ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${cmake_args[@]+"${cmake_args[@]}"} >/dev/null
cmake --build build -j"$(nproc)" ${targets[@]+"${targets[@]}"}
if [[ -n "${test_packages:-}" ]]; then
  tests/browser/install.sh build >/dev/null  # puppeteer-core, pinned by its package-lock.json
fi
