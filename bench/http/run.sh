#!/bin/sh
# HTTP benchmark (issue 3 §7; engine-rework issue §3): getObject by path (succinct) on `folio serve` against
# nginx serving that object's sidecar JSON as a static file, both on loopback, with wrk
# at 2 and 64 connections; reports requests/s and p99 of each and their ratios, and the
# resident memory of folio serve idle and under load. Prints the table and writes it to
# bench/http/last-run.md (not tracked): bench/RESULTS.md's rows take the figures you keep.
#
# Usage: [PIN=1] bench/http/run.sh [BUILD_DIR] [DURATION_SECONDS]
#   BUILD_DIR defaults to build/ (needs build/folio); DURATION defaults to 10.
#   PIN=1 (needs taskset and 2 or more cores) runs the servers on the first core and wrk
#   on the others, so that a tail latency is the server's and not wrk's threads and the
#   server's workers taking turns on the same cores.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
duration=${2:-10}
folio="$build/folio"
[ -x "$folio" ] || { echo "no $folio: build first (cmake -S . -B build && make -C build)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install nginx)" >&2; exit 2; }
[ -d "$root/sample-data/demo/cmis" ] || { echo "no sample-data: run scripts/make-sample-data.sh" >&2; exit 2; }

server_cpu=""
client_cpu=""
if [ "${PIN:-0}" = 1 ]; then
  command -v taskset >/dev/null || { echo "PIN=1 needs taskset (util-linux)" >&2; exit 2; }
  [ "$(nproc)" -ge 2 ] || { echo "PIN=1 needs 2 or more cores" >&2; exit 2; }
  server_cpu="taskset -c 0"
  client_cpu="taskset -c 1-$(($(nproc) - 1))"
fi

work=$(mktemp -d /tmp/folio-bench-http-XXXXXX)
folio_pid=""
nginx_pid=""
cleanup() {
  [ -n "$folio_pid" ] && kill "$folio_pid" 2>/dev/null && wait "$folio_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

object_path="demo/cmis/README.md"
sidecar="$root/sample-data/demo/cmis/.folio/docs/README.md/1.0.json"

# folio serve on a free port (ephemeral: the sample data stays untouched); $1: extra options.
start_folio() {
  # The old output goes first: the background job truncates its file only once it runs,
  # and the wait below must not find the previous server's ready line there.
  rm -f "$work/folio.out" "$work/folio.err"
  $server_cpu "$folio" serve --data "$root/sample-data" --ephemeral --port 0 --log-level warn "$@" >"$work/folio.out" 2>"$work/folio.err" &
  folio_pid=$!
  for _ in $(seq 100); do grep -q "folio listening" "$work/folio.out" && break; sleep 0.05; done
  folio_url=$(sed -n 's/^folio listening on //p' "$work/folio.out")
  [ -n "$folio_url" ] || { echo "folio serve did not start:" >&2; cat "$work/folio.err" >&2; exit 1; }
  folio_target="${folio_url}${object_path}?cmisselector=object&succinct=true"
  curl -sf "$folio_target" >/dev/null || { echo "folio does not answer $folio_target" >&2; exit 1; }
}
stop_folio() {
  kill "$folio_pid" 2>/dev/null && wait "$folio_pid" 2>/dev/null || true
  folio_pid=""
}
start_folio

# nginx on loopback serving the very bytes folio answers, as a static file.
mkdir -p "$work/www" "$work/nginx"
curl -sf "$folio_target" >"$work/www/object.json"
nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  server {
    listen 127.0.0.1:$nginx_port;
    location / { root $work/www; default_type application/json; }
  }
}
CONF
$server_cpu nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" 2>"$work/nginx/stderr" &
nginx_pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$nginx_port/object.json" >/dev/null && break; sleep 0.05; done
nginx_target="http://127.0.0.1:$nginx_port/object.json"
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$folio_pid/status"; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$folio_pid/status"; }

# Runs wrk; prints "requests_per_second p99_ms".
run_wrk() {
  out=$($client_cpu wrk -t2 -c"$2" -d"${duration}s" --latency "$1")
  rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}')
  echo "$rps $p99"
}

# Each configuration of folio against nginx in the same run: the response cache off
# (--response-cache 0: every request parsed, resolved and rendered), then on (default).
idle_rss=0
peak_rss=0
results=""
for config in off on; do
  stop_folio
  if [ "$config" = off ]; then start_folio --response-cache 0; else start_folio; fi
  rss=$(rss_kb)
  [ "$rss" -gt "$idle_rss" ] && idle_rss=$rss
  curl -sf "$folio_target" >/dev/null
  for conns in 2 64; do
    nginx_res=$(run_wrk "$nginx_target" "$conns")
    folio_res=$(run_wrk "$folio_target" "$conns")
    # The peak under load is the kernel's high-water mark, read once afterwards: a shell
    # loop sampling VmRSS forks several processes a second, which took turns with folio
    # on its cores (and not with nginx) and doubled folio's p99 at 2 connections.
    load_peak=$(hwm_kb)
    [ -n "$load_peak" ] && [ "$load_peak" -gt "$peak_rss" ] && peak_rss=$load_peak
    results="$results$config $conns $folio_res $nginx_res
"
  done
done

# A process's high-water mark is never below its resident size at any moment.
[ "$idle_rss" -gt "$peak_rss" ] && peak_rss=$idle_rss
report=$(printf '%s' "$results" | awk -v pin="$([ -n "$server_cpu" ] && echo "; servers on core 0, wrk on the others (PIN=1)")" -v idle="$idle_rss" -v peak="$peak_rss" -v dur="$duration" '
  BEGIN {
    print "| response cache | connections | folio req/s | nginx req/s | req/s ratio (goal >= 0.75) | folio p99 ms | nginx p99 ms | p99 ratio (goal <= 2) |"
    print "|---|---|---|---|---|---|---|---|"
  }
  NF == 6 {
    printf "| %s | %d | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f |\n", $1, $2, $3, $5, $3 / $5, $4, $6, ($6 > 0 ? $4 / $6 : 0)
  }
  END {
    printf "\nfolio serve resident memory: idle %.1f MB, under load (peak) %.1f MB (goal < 30 MB)\n", idle / 1024, peak / 1024
    printf "wrk -t2, %s s per run, loopback; request: getObject by path, succinct%s\n", dur, pin
  }')
{
  echo "# HTTP benchmark (bench/http/run.sh)"
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores; folio: $folio_target; nginx: a static copy of the bytes folio answers ($(wc -c <"$work/www/object.json") B)."
  echo
  echo "$report"
} >"$root/bench/http/last-run.md"
cat "$root/bench/http/last-run.md"
