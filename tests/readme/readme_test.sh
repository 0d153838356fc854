#!/usr/bin/env bash
# Runs the commands of a README section, as written there, so that the README cannot
# drift from what Folio does.
#
#   tests/readme/readme_test.sh BUILD_DIR try-it        the curl lines of "Try it", against
#                                                       scripts/run.sh --port 0
#   tests/readme/readme_test.sh BUILD_DIR walkthrough   every command of "From an empty data
#                                                       directory" (its ```sh blocks)
#   tests/readme/readme_test.sh BUILD_DIR cmisjs        the same, then its ```js block with
#                                                       CmisJS (exit 77 without node and npm)
#
# A section runs from "<!-- NAME:" to "<!-- end of NAME -->" in README.md. In its ```sh
# blocks every line that is not a comment is a command (a trailing backslash joins the
# next line); "# => TEXT" after a command is text its output must contain. A first
# command `folio serve ...` starts the server (with --port 0 added); the others run one
# by one in a fresh directory, with http://127.0.0.1:8080 replaced by the server's URL
# and BUILD_DIR first on the PATH (so `folio` is the build's); curl fails on an HTTP
# error. The
# output of the ```js block must be the ```text block that follows it.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR try-it|walkthrough|cmisjs}" && pwd)"
mode="${2:?usage: $0 BUILD_DIR try-it|walkthrough|cmisjs}"
# shellcheck source=../support/folio_serve.sh
source "$root/tests/support/folio_serve.sh"

section="$mode"
[[ "$mode" == cmisjs ]] && section=walkthrough
if [[ "$mode" == cmisjs ]]; then
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIPPED: node and npm are needed for the README's CmisJS example (apt-get install nodejs npm)"
    exit 77
  fi
  node_modules="$("$root/tests/clients/cmisjs/install.sh" "$build")" || exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/folio-readme-test-XXXXXX")"
trap 'folio_stop; rm -rf "$work"' EXIT

# The section's fenced blocks, one file per block: NN.sh, NN.js, NN.text.
awk -v start="<!-- $section:" -v end="<!-- end of $section -->" -v out="$work/block" '
  index($0, start) == 1 { inside = 1; next }
  index($0, end) == 1 { inside = 0 }
  !inside { next }
  /^```/ {
    if (fence != "") { fence = ""; next }
    fence = substr($0, 4); n++
    file = sprintf("%s-%02d.%s", out, n, fence == "" ? "text" : fence)
    printf "" > file
    next
  }
  fence != "" { print >> file }
' "$root/README.md"
blocks=("$work"/block-*)
if [[ ! -e "${blocks[0]}" ]]; then
  echo "FAIL: README.md has no section <!-- $section: ... <!-- end of $section -->"
  exit 1
fi

# --- commands and expectations of the ```sh blocks ------------------------------------------
commands=()
expects=()
for block in "$work"/block-*.sh; do
  pending=""
  while IFS= read -r line || [[ -n "$line" ]]; do
    if [[ -n "$pending" ]]; then
      line="$pending $line"
      pending=""
    fi
    if [[ "$line" =~ ^#\ =\>\ (.*)$ ]]; then
      expects[$((${#commands[@]} - 1))]+="${BASH_REMATCH[1]}"$'\n'
    elif [[ "$line" =~ ^[[:space:]]*(#.*)?$ ]]; then
      continue
    elif [[ "$line" == *\\ ]]; then
      pending="${line%\\}"
    else
      commands+=("$line")
    fi
  done < "$block"
done
check "the section has commands" test ${#commands[@]} -gt 0

# --- the server -------------------------------------------------------------------------------
first=0
cd "$work"
if [[ "$section" == try-it ]]; then
  # The README's quick start serves the sample data with scripts/run.sh; so do we, on a
  # free port (--port 0 replaces run.sh's default 8080), without set-up and build.
  folio_start "$work" env FOLIO_BUILD="$build" "$root/scripts/run.sh" --port 0 || exit 1
else
  serve="${commands[0]}"
  if [[ "$serve" != "folio serve "* ]]; then
    echo "FAIL: the section's first command should start the server: $serve"
    exit 1
  fi
  first=1
  read -r -a serve_args <<<"${serve#folio }"
  folio_start "$work" "$build/folio" "${serve_args[@]}" --port 0 || exit 1
  check "'$serve' starts a server on an empty data directory" test -d "$work/mydata/.folio"
fi

# --- the commands, one by one -------------------------------------------------------------------
# As the README says to run them: with the build's folio first on the PATH.
export PATH="$build:$PATH"
curl() { command curl --fail-with-body -sS "$@"; }
export -f curl
substitute() {
  printf '%s' "${1//http:\/\/127.0.0.1:8080/$FOLIO_URL}"
}
for ((i = first; i < ${#commands[@]}; i++)); do
  command="$(substitute "${commands[$i]}")"
  output="$(bash -c "$command" 2>&1)"
  status=$?
  if [[ $status -ne 0 ]]; then
    check "${commands[$i]}  (exit $status: $output)" false
    continue
  fi
  check "${commands[$i]}" true
  if [[ -n "${expects[$i]:-}" ]]; then
    while IFS= read -r expected; do
      expected="$(substitute "$expected")"
      check "  prints $expected" grep -qF -- "$expected" <<<"$output" ||
        printf '     its output was: %s\n' "$output"
    done <<<"${expects[$i]%$'\n'}"
  fi
done

# --- the CmisJS example -------------------------------------------------------------------------
if [[ "$mode" == cmisjs ]]; then
  js=("$work"/block-*.js)
  check "the section has one js block" test ${#js[@]} -eq 1
  expected_file="$(ls "$work"/block-*.text | while read -r f; do
    [[ "$f" > "${js[0]}" ]] && { echo "$f"; break; }; done)"
  substitute "$(cat "${js[0]}")" > "$work/cmis-demo.js"
  output="$(NODE_PATH="$node_modules" node "$work/cmis-demo.js" 2>&1)"
  status=$?
  check "node cmis-demo.js exits 0" test $status -eq 0
  check "node cmis-demo.js prints what the README shows" test "$output" = "$(cat "$expected_file")"
  [[ "$output" == "$(cat "$expected_file")" ]] || printf 'it printed:\n%s\n' "$output"
fi

folio_stop
check "the server stops cleanly" test $? -eq 0
summary
