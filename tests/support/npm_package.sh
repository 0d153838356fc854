# Shared by the tests that run npm packages (tests/clients/cmisjs/, tests/browser/);
# source it from bash.
#
# require_node WHAT: exits 77 (SKIPPED for CTest) unless node >= 18 and npm are present,
#   saying that WHAT needs them.
# npm_install SOURCE_DIR WORK_DIR PACKAGE [ENV...]: installs SOURCE_DIR's package.json and
#   package-lock.json with `npm ci` into WORK_DIR (never into the source tree; again only
#   when the lock changes; PACKAGE is one it installs, to see that it is there) and prints
#   WORK_DIR/node_modules. ENV (NAME=VALUE) is set for npm. Returns 1 when npm ci fails.
require_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIPPED: node and npm are needed for $1 (scripts/setup.sh --test-packages)"
    exit 77
  fi
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [[ "$major" -lt 18 ]]; then
    echo "SKIPPED: node >= 18 is needed for $1 (found $(node --version))"
    exit 77
  fi
}

npm_install() {
  local source="$1" work="$2" package="$3"
  shift 3
  mkdir -p "$work"
  local lock_sum
  lock_sum="$(cat "$source/package.json" "$source/package-lock.json" | sha256sum | cut -d' ' -f1)"
  if [[ ! -f "$work/node_modules/$package/package.json" || "$(cat "$work/.installed" 2>/dev/null)" != "$lock_sum" ]]; then
    cp "$source/package.json" "$source/package-lock.json" "$work/"
    echo "npm ci in $work" >&2
    if ! (cd "$work" && env "$@" npm ci --no-audit --no-fund --loglevel=error >&2); then
      echo "npm ci failed in $work (is the npm registry reachable?)" >&2
      return 1
    fi
    echo "$lock_sum" > "$work/.installed"
  fi
  echo "$work/node_modules"
}
