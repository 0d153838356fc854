#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then Folio as its users meet it there: the
# installed folio serves the installed sample data; the man page names every option of
# every sub-command; bash completion completes sub-commands and options; the example
# test of folio/testing.h builds with pkg-config and with CMake's find_package(folio),
# and passes.
#
#   tests/packaging/install_test.sh BUILD_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
# shellcheck source=../support/folio_serve.sh
source "$root/tests/support/folio_serve.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/folio-install-test-XXXXXX")"
trap 'folio_stop; rm -rf "$work"' EXIT
prefix="$work/prefix"

if ! cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1; then
  cat "$work/install.log"
  echo "FAIL cmake --install"
  exit 1
fi
folio="$prefix/bin/folio"
libdir="$(dirname "$(find "$prefix" -name libfolio-testing.a | head -n1)")"

# --- the files ---------------------------------------------------------------------------
for f in bin/folio share/man/man1/folio.1 share/bash-completion/completions/folio \
         share/folio/sample-data/.folio/folio.json share/folio/sample-data/demo/cmis/README.md \
         include/folio/testing.h share/doc/folio/examples/server_example_test.cc; do
  check "installed $f" test -f "$prefix/$f"
done
check "installed libfolio-testing.a, folio-testing.pc, folioConfig.cmake" \
  test -f "$libdir/libfolio-testing.a" -a -f "$libdir/pkgconfig/folio-testing.pc" -a -f "$libdir/cmake/folio/folioConfig.cmake"

# --- the installed folio serves the installed sample data ----------------------------------
if folio_start "$work" "$folio" serve --data "$prefix/share/folio/sample-data" --ephemeral --port 0; then
  check "GET /demo lists the sample repositories" bash -c "curl -sS '$FOLIO_URL/demo' | grep -q '\"repositoryId\":\"plain\"'"
  check "GET /demo/cmis/README.md is the sample README" \
    bash -c "curl -sS '$FOLIO_URL/demo/cmis/README.md' | head -n1 | grep -qx '# Welcome to Folio'"
  folio_stop
  check "SIGTERM stops it cleanly" test $? -eq 0
else
  check "the installed folio starts on the installed sample data" false
fi

# --- the man page names every option of every sub-command --------------------------------
man_page="$prefix/share/man/man1/folio.1"
for sub in serve inspect fsck; do
  options="$("$folio" "$sub" --help | awk '/^Options:$/ {on=1; next} /^[A-Z].*:$/ {on=0} on && /^  -/ {print $1}' |
             tr ',' '\n' | grep '^--' | grep -v '^--help$')"
  check "folio $sub --help lists options" test -n "$options"
  for opt in $options; do
    check "folio.1 describes folio $sub $opt" grep -qF "\\fB${opt//-/\\-}\\fR" "$man_page"
  done
done
check "folio.1 describes DIR and PATH" bash -c "grep -qF '\\fIDIR\\fR' '$man_page' && grep -qF '\\fIPATH\\fR' '$man_page'"
if command -v groff >/dev/null; then
  check "folio.1 renders without groff warnings" \
    bash -c "groff -man -Tutf8 -ww -z '$man_page' 2>'$work/groff.err' && ! test -s '$work/groff.err'"
fi

# --- bash completion ---------------------------------------------------------------------
completion="$prefix/share/bash-completion/completions/folio"
complete_words() {  # the words bash would offer for the command line "$@" (last word: being typed)
  PATH="$prefix/bin:$PATH" bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _folio
                                    printf "%s\n" "${COMPREPLY[@]}"' "$completion" "$@"
}
check "completes the sub-commands" test "$(complete_words folio '' | sort | tr '\n' ' ')" = "fsck inspect serve "
check "completes 'folio in' to inspect" test "$(complete_words folio in)" = "inspect"
for sub in serve inspect fsck; do
  offered="$(complete_words folio "$sub" --)"
  for opt in $("$folio" "$sub" --help | awk '/^Options:$/ {on=1; next} /^[A-Z].*:$/ {on=0} on && /^  -/ {print $1}' | tr ',' '\n' | grep '^--'); do
    check "completes folio $sub $opt" grep -qx -- "$opt" <<<"$offered"
  done
done
check "completes --variant values" test "$(complete_words folio serve --variant '' | tr '\n' ' ')" = "A B "
check "completes --data with directories" bash -c "cd '$prefix/share/folio' && test \"\$(PATH='$prefix/bin':\$PATH bash -c 'source \"\$0\"; COMP_WORDS=(folio serve --data sam); COMP_CWORD=3; _folio; echo \"\${COMPREPLY[*]}\"' '$completion')\" = sample-data"

# --- the example test of folio/testing.h, built as a consumer would ----------------------
example="$prefix/share/doc/folio/examples/server_example_test.cc"
sample="$prefix/share/folio/sample-data"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
if g++ -std=c++17 -DDOCTEST_CONFIG_IMPLEMENT_WITH_MAIN -DFOLIO_SAMPLE_DATA="\"$sample\"" \
     $(pkg-config --cflags folio-testing) "$example" $(pkg-config --libs folio-testing) -o "$work/example-pc" \
     > "$work/pc.log" 2>&1; then
  check "the example built with pkg-config passes" "$work/example-pc"
else
  cat "$work/pc.log"
  check "the example builds with pkg-config --cflags --libs folio-testing" false
fi
mkdir -p "$work/consumer"
cat > "$work/consumer/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(consumer CXX)
find_package(folio REQUIRED)
find_package(doctest REQUIRED)
add_executable(example "$example")
target_compile_definitions(example PRIVATE DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN FOLIO_SAMPLE_DATA="$sample")
target_link_libraries(example PRIVATE folio::testing doctest::doctest)
CMAKE
if cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake.log" 2>&1 &&
   cmake --build "$work/consumer/build" >> "$work/cmake.log" 2>&1; then
  check "the example built with find_package(folio) passes" "$work/consumer/build/example"
else
  cat "$work/cmake.log"
  check "the example builds with find_package(folio) and folio::testing" false
fi

summary
