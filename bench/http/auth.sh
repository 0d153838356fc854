#!/bin/sh
# Authentication benchmark (users, groups and authentication §5), all ratios timed in the
# same run against `folio serve` on loopback:
#  1. getObject by path (succinct) with HTTP Basic credentials against the same request
#     to a domain without users, wrk at 2 and 64 connections, alternating, ROUNDS times;
#  2. one user's requests/s (Basic, wrk 8 connections) alone, then while 1,000 requests
#     with wrong passwords for another user run (an asyncio client, 100 at a time).
# The two domains are made alike through the API (a repository "cmis" holding
# README.md). Prints a table and writes it to bench/http/last-auth-run.md (not tracked).
#
# Usage: bench/http/auth.sh [BUILD_DIR] [SECONDS] [ROUNDS]   (defaults: build, 10, 3)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
duration=${2:-10}
rounds=${3:-3}
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

"$folio" serve --data "$work/data" --port 0 --log-level warn >"$work/folio.out" 2>"$work/folio.err" &
folio_pid=$!
for _ in $(seq 100); do grep -q "folio listening" "$work/folio.out" && break; sleep 0.05; done
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

# Runs wrk; prints requests/s. Extra arguments go to wrk (headers).
rps() {
  target=$1; conns=$2; shift 2
  wrk -t2 -c"$conns" -d"${duration}s" "$@" "$target" | awk '/^Requests\/sec:/ {print $2}'
}

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
alone=$(rps "$auth_target" 8 -H "Authorization: $(basic "$bob")")
python3 "$work/attack.py" 127.0.0.1 "$port" 1000 100 >"$work/attack.out" 2>&1 &
attack=$!
sleep 1  # the attack is under way (and mallory slowed down) before the measurement starts
during=$(rps "$auth_target" 8 -H "Authorization: $(basic "$bob")")
still=$(kill -0 "$attack" 2>/dev/null && echo yes || echo no)
wait "$attack" || true
after=$(rps "$auth_target" 8 -H "Authorization: $(basic "$bob")")

report=$(printf '%s' "$rows" | awk -v alone="$alone" -v during="$during" -v after="$after" -v still="$still" \
    -v attack="$(cat "$work/attack.out")" -v dur="$duration" '
  BEGIN {
    print "| round | connections | anonymous req/s | Basic req/s | ratio (goal >= 0.95) |"
    print "|---|---|---|---|---|"
  }
  NF == 4 {
    printf "| %d | %d | %.0f | %.0f | %.3f |\n", $1, $2, $3, $4, $4 / $3
    sum[$2] += $4 / $3; n[$2]++
  }
  END {
    for (c in sum) printf "\nmean ratio at %d connections: %.3f", c, sum[c] / n[c]
    print ""
    print ""
    print "| bob (Basic, 8 connections) | req/s | vs alone |"
    print "|---|---|---|"
    printf "| alone | %.0f | 1.000 |\n", alone
    printf "| during 1,000 wrong passwords for mallory | %.0f | %.3f (goal >= 0.90) |\n", during, during / alone
    printf "| after | %.0f | %.3f |\n", after, after / alone
    printf "\nattack: %s; still running when the measurement ended: %s\n", attack, still
    printf "wrk -t2, %s s per run, loopback; request: getObject by path, succinct\n", dur
  }')
{
  echo "# Authentication benchmark (bench/http/auth.sh)"
  echo
  echo "Run $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "$report"
} >"$root/bench/http/last-auth-run.md"
cat "$root/bench/http/last-auth-run.md"
