#!/bin/sh
# Peak resident memory of `folio serve` for one large urlencoded form body: a createDocument
# whose cmis:description is SIZE_MB megabytes of text (default 200), sent with curl.
# Prints the HTTP status, the exception, and folio's VmHWM (peak RSS) before and after.
# The limit of 1 MiB per property value refuses it; what matters is the memory it costs.
#
# Usage: bench/http/form_rss.sh [BUILD_DIR] [SIZE_MB]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
size_mb=${2:-200}
folio="$build/folio"
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
work=$(mktemp -d /tmp/folio-form-rss-XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT INT TERM

"$folio" serve --data "$root/sample-data" --ephemeral --port 0 --log-level warn --max-body 1073741824 \
  >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's/^folio listening on //p' "$work/out")
[ -n "$url" ] || { echo "folio serve did not start" >&2; cat "$work/err" >&2; exit 1; }

{
  printf 'cmisaction=createDocument&propertyId%%5B0%%5D=cmis%%3Aname&propertyValue%%5B0%%5D=big.txt'
  printf '&propertyId%%5B1%%5D=cmis%%3AobjectTypeId&propertyValue%%5B1%%5D=cmis%%3Adocument'
  printf '&propertyId%%5B2%%5D=cmis%%3Adescription&propertyValue%%5B2%%5D='
  head -c $((size_mb * 1024 * 1024)) /dev/zero | tr '\0' 'a'
} >"$work/body"

hwm() { awk '/^VmHWM:/ {printf "%.1f MB", $2 / 1024}' "/proc/$pid/status"; }
echo "body: $(wc -c <"$work/body") bytes, urlencoded, one property value of $size_mb MiB"
echo "peak RSS before the request: $(hwm)"
curl -s -o "$work/response" -w '%{http_code}' -H 'Content-Type: application/x-www-form-urlencoded' \
  --data-binary @"$work/body" "${url}demo/cmis" >"$work/status" || true
echo "status $(cat "$work/status"): $(head -c 300 "$work/response")"
echo "peak RSS after the request:  $(hwm)"
