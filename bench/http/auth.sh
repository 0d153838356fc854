#!/bin/sh
# Authentication benchmark (users, groups and authentication §5), all ratios timed in the
# same run against `folio serve` on loopback:
#  1. getObject by path (succinct) with HTTP Basic credentials against the same request
#     to a domain without users, wrk at 2 and 64 connections: ROUNDS pairs of short runs,
#     alternating, and the median of the pairs' ratios (on a shared machine one run can
#     be off by half; the median of many short pairs is what holds still);
#  2. one user's requests/s (Basic, wrk 8 connections) alone, then while 1,000 requests
#     with wrong passwords for another user run (an asyncio client, 100 at a time), ROUNDS
#     pairs again.
# The two domains are made alike through the API (a repository "cmis" holding
# README.md). Prints a table and writes it to bench/http/last-auth-run.md (not tracked).
#
# With AUTH_BENCH_INSTRUCTIONS=1 the server runs under callgrind instead (slow), and the
# table gives instructions per request of each (a figure that does not depend on the
# load of the machine); part 2 is then skipped.
#
# Usage: bench/http/auth.sh [BUILD_DIR] [SECONDS] [ROUNDS]   (defaults: build, 3, 10)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
duration=${2:-3}
rounds=${3:-10}
folio="$build/folio"
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 2; }

work=$(mktemp -d /tmp/folio-bench-auth-XXXXXX)
folio_pid=""
cleanup() {
  [ -n "$folio_pid" ] && kill "$folio_pid" 2>/dev/null && wait "$folio_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

instructions=${AUTH_BENCH_INSTRUCTIONS:-0}
if [ "$instructions" = 1 ]; then
  command -v valgrind >/dev/null || { echo "valgrind is needed for AUTH_BENCH_INSTRUCTIONS=1" >&2; exit 2; }
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$folio" serve --data "$work/data" --port 0 \
    --threads 2 --log-level warn >"$work/folio.out" 2>"$work/folio.err" &
else
  "$folio" serve --data "$work/data" --port 0 --log-level warn >"$work/folio.out" 2>"$work/folio.err" &
fi
folio_pid=$!
for _ in $(seq 300); do grep -q "folio listening" "$work/folio.out" && break; sleep 0.1; done
url=$(sed -n 's/^folio listening on //p' "$work/folio.out" | sed 's|/$||')
[ -n "$url" ] || { echo "folio serve did not start:" >&2; cat "$work/folio.err" >&2; exit 1; }

alice="alice:alice-bench-pw"
bob="bob:bob-bench-pw"
post() { curl -sf -o /dev/null -X POST "$@"; }
post "$url/?operation=createDomain&domainId=open"
post "$url/?operation=createDomain&domainId=secure&adminUserId=alice&adminPassword=alice-bench-pw"
post "$url/secure?operation=createUser&userId=bob&password=bob-bench-pw" -u "$alice"
post "$url/secure?operation=createUser&userId=mallory&password=not-guessed" -u "$alice"
for d in open secure; do
  post "$url/$d?operation=createRepository&repositoryId=cmis" -u "$alice"
  post "$url/$d/cmis" -u "$alice" -F content=@"$root/README.md" -F cmisaction=createDocument \
    -F 'propertyId[0]=cmis:name' -F 'propertyValue[0]=README.md'
done
post "$url/secure?operation=updateGroup&groupId=repository_cmis&members=alice,bob" -u "$alice"
query="cmisselector=object&succinct=true"
anon_target="$url/open/cmis/README.md?$query"
auth_target="$url/secure/cmis/README.md?$query"
basic() { printf 'Basic %s' "$(printf '%s' "$1" | base64 | tr -d '\n')"; }
curl -sf "$anon_target" >/dev/null || { echo "no answer from $anon_target" >&2; exit 1; }
curl -sf -H "Authorization: $(basic "$bob")" "$auth_target" >/dev/null || { echo "bob cannot read $auth_target" >&2; exit 1; }

# "median q1 q3" of the numbers on stdin.
quartiles() { sort -n | awk '{v[NR] = $1} END { printf "%.3f %.3f %.3f", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 1) / 4)] }'; }

# Runs wrk; prints requests/s. Extra arguments go to wrk (headers).
rps() {
  target=$1; conns=$2; shift 2
  wrk -t2 -c"$conns" -d"${duration}s" "$@" "$target" | awk '/^Requests\/sec:/ {print $2}'
}

# Instructions per request: counters zeroed, N requests with wrk, counters dumped.
instr() {
  target=$1; shift
  wrk -t1 -c2 -d2s "$@" "$target" >/dev/null
  callgrind_control -z "$folio_pid" >/dev/null 2>&1
  n=$(wrk -t1 -c2 -d"${duration}s" "$@" "$target" | awk '/requests in/ {print $1}')
  rm -f "$work"/callgrind.out.*
  callgrind_control -d "$folio_pid" >/dev/null 2>&1
  sleep 1
  f=$(ls -t "$work"/callgrind.out.* | head -1)
  total=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}')
  echo $((total / n))
}
if [ "$instructions" = 1 ]; then
  a=$(instr "$anon_target")
  b=$(instr "$auth_target" -H "Authorization: $(basic "$bob")")
  {
    echo "# Authentication benchmark (bench/http/auth.sh, instructions)"
    echo
    echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) under callgrind, wrk -t1 -c2 for $duration s each."
    echo
    echo "| request | instructions per request |"
    echo "|---|---|"
    echo "| anonymous | $a |"
    echo "| HTTP Basic | $b |"
    awk -v a="$a" -v b="$b" 'BEGIN { printf "\nanonymous / Basic: %.3f (the requests/s ratio a CPU-bound server would show)\n", a / b }'
  } >"$root/bench/http/last-auth-run.md"
  cat "$root/bench/http/last-auth-run.md"
  exit 0
fi

rows=""
for r in $(seq "$rounds"); do
  for conns in 2 64; do
    a=$(rps "$anon_target" "$conns")
    b=$(rps "$auth_target" "$conns" -H "Authorization: $(basic "$bob")")
    rows="$rows$r $conns $a $b
"
  done
done

# 1,000 wrong passwords for mallory, 100 at a time, over keep-alive connections.
cat >"$work/attack.py" <<'PY'
import asyncio, base64, sys, time
host, port, total, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
auth = base64.b64encode(b"mallory:wrong-guess").decode()
request = (f"GET /secure/cmis/README.md?cmisselector=object HTTP/1.1\r\nHost: {host}:{port}\r\n"
           f"Authorization: Basic {auth}\r\n\r\n").encode()
left = total
statuses = {}
async def worker():
    global left
    reader, writer = await asyncio.open_connection(host, port)
    while left > 0:
        left -= 1
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1].decode()
        statuses[status] = statuses.get(status, 0) + 1
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        await reader.readexactly(length)
    writer.close()
async def main():
    start = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    print(f"{sum(statuses.values())} requests in {time.monotonic() - start:.1f} s: {statuses}")
asyncio.run(main())
PY
port=$(echo "$url" | sed 's/.*://')
# Alternating: bob alone, then bob while 1,000 wrong passwords for mallory run (the
# attack outlasts the measurement; it is stopped before the next round).
attack_rows=""
for r in $(seq "$rounds"); do
  alone=$(rps "$auth_target" 8 -H "Authorization: $(basic "$bob")")
  python3 "$work/attack.py" 127.0.0.1 "$port" 1000 100 >"$work/attack.out" 2>&1 &
  attack=$!
  sleep 1  # the attack is under way (and mallory slowed down) before the measurement starts
  during=$(rps "$auth_target" 8 -H "Authorization: $(basic "$bob")")
  still=$(kill -0 "$attack" 2>/dev/null && echo yes || echo no)
  kill "$attack" 2>/dev/null || true
  wait "$attack" 2>/dev/null || true
  attack_rows="$attack_rows$r $alone $during $still
"
done

attack_ratios=$(printf '%s' "$attack_rows" | awk 'NF == 4 { print $3 / $2 }' | quartiles)
attack_report=$(printf '%s' "$attack_rows" | awk -v q="$attack_ratios" '
  BEGIN {
    print "| bob alone req/s (mean) | bob during 1,000 wrong passwords for mallory (mean) | median ratio of the pairs (goal >= 0.90) | quartiles | attack running to the end of each pair |"
    print "|---|---|---|---|---|"
  }
  NF == 4 { a += $2; d += $3; n++; if ($4 != "yes") all = "no" }
  END {
    split(q, r, " ")
    printf "| %.0f | %.0f | %.3f | %.3f - %.3f | %s |\n", a / n, d / n, r[1], r[2], r[3], all == "no" ? "no" : "yes"
  }')
summary=""
for conns in 2 64; do
  ratios=$(printf '%s' "$rows" | awk -v c="$conns" '$2 == c { print $4 / $3 }' | quartiles)
  means=$(printf '%s' "$rows" | awk -v c="$conns" '$2 == c { a += $3; b += $4; n++ } END { printf "%.0f %.0f", a / n, b / n }')
  summary="$summary$conns $ratios $means
"
done
report=$(printf '%s' "$summary" | awk -v dur="$duration" -v rounds="$rounds" '
  BEGIN {
    print "| connections | anonymous req/s (mean) | Basic req/s (mean) | median ratio of the pairs (goal >= 0.95) | quartiles |"
    print "|---|---|---|---|---|"
  }
  NF == 6 { printf "| %d | %.0f | %.0f | %.3f | %.3f - %.3f |\n", $1, $5, $6, $2, $3, $4 }
  END { printf "\n%d pairs per row, wrk -t2, %s s per run, loopback; request: getObject by path, succinct\n", rounds, dur }')
{
  echo "# Authentication benchmark (bench/http/auth.sh)"
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "$report"
  echo
  echo "$attack_report"
  echo
  echo "bob: wrk -t2 -c8 with Basic credentials; mallory: an asyncio client, 100 connections, 1,000 requests"
} >"$root/bench/http/last-auth-run.md"
cat "$root/bench/http/last-auth-run.md"
