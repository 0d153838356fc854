#!/usr/bin/env bash
# Writes the folio(1) man page: the hand-written parts of folio.1.in, with each
# sub-command's options and arguments taken from `folio COMMAND --help` (so the page
# lists every option the program has, as the program describes it).
#
#   packaging/make-manpage.sh FOLIO_BINARY TEMPLATE OUTPUT
set -euo pipefail
folio="$1"
template="$2"
output="$3"

# The options and positionals of `folio ARGS --help` as roff .TP entries. Hyphens are
# escaped (\-) so that they print, and can be searched for, as ASCII minus signs.
options_of() {
  "$folio" "$@" --help | awk '
    function roff(text) { gsub(/\\/, "\\e", text); gsub(/-/, "\\-", text); return text }
    function flush() {
      if (spec == "") return
      name = spec; arg = ""; def = ""
      sp = index(spec, " ")
      if (sp > 0) { name = substr(spec, 1, sp - 1); arg = substr(spec, sp + 1) }
      eq = index(arg, "=")
      if (eq > 0) { def = substr(arg, eq + 1); arg = substr(arg, 1, eq - 1) }
      sub(/:.*/, "", arg)                    # "INT:INT in [0 - 65535]" -> "INT"
      sub(/ *REQUIRED$/, "", arg)
      if (name != "-h,--help" && name != "--version") {
        print ".TP"
        if (name ~ /^-/) {
          line = "\\fB" roff(name) "\\fR"
          if (arg != "") line = line " \\fI" arg "\\fR"
        } else {
          line = "\\fI" name "\\fR"    # a positional argument
        }
        print line
        if (def != "") desc = desc " (default: " def ")"
        print roff(desc)
      }
      spec = ""; desc = ""
    }
    /^(Options|Positionals):$/ { section = 1; next }
    /^[A-Z][A-Za-z ]*:$/ { flush(); section = 0; next }
    section && /^  [^ ]/ {
      flush()
      line = substr($0, 3)
      # The spec ends at the first run of two or more spaces; the description follows.
      if (match(line, /  +/)) {
        spec = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH)
      } else {
        spec = line; desc = ""
      }
      next
    }
    section && /^      +[^ ]/ { d = $0; sub(/^ +/, "", d); desc = (desc == "" ? d : desc " " d); next }
    /^$/ { flush(); next }
    END { flush() }
  '
}

version="$("$folio" --version | sed 's/^folio //')"
serve="$(options_of serve)"
inspect="$(options_of inspect)"
fsck="$(options_of fsck)"

# (ENVIRON, not awk -v: -v would turn the "\f" of "\fB" into a form feed.)
VERSION="$version" SERVE="$serve" INSPECT="$inspect" FSCK="$fsck" awk '
  /^@SERVE_OPTIONS@$/ { print ENVIRON["SERVE"]; next }
  /^@INSPECT_OPTIONS@$/ { print ENVIRON["INSPECT"]; next }
  /^@FSCK_OPTIONS@$/ { print ENVIRON["FSCK"]; next }
  { gsub(/@VERSION@/, ENVIRON["VERSION"]); print }
' "$template" > "$output.tmp"
mv "$output.tmp" "$output"
