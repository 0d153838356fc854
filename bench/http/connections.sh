#!/bin/sh
# The 10,000-connection case (docs: README "Limits"), too long and too many file
# descriptors for the test suite: `folio serve` and a client in separate processes. The
# client opens N connections (default 10,100), each with a request head it never
# finishes (a slowloris client: held until the 30 s request timeout); then checks that
# the server holds exactly 10,000 of them (its /-/metrics, asked on one of them), that a
# request on a connection beyond the limit is answered only once another one closes, and
# reports folio's resident memory. Exit 0 when all holds.
#
# Usage: bench/http/connections.sh [BUILD_DIR] [N]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
n=${2:-10100}
folio="$build/folio"
[ -x "$folio" ] || { echo "no $folio: build first" >&2; exit 2; }
work=$(mktemp -d /tmp/folio-connections-XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT INT TERM
ulimit -n "$(ulimit -H -n)"
"$folio" serve --data "$root/sample-data" --ephemeral --port 0 --log-level warn >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.05; done
port=$(sed -n 's|^folio listening on http://127.0.0.1:\([0-9]*\)/|\1|p' "$work/out")
[ -n "$port" ] || { echo "folio serve did not start" >&2; cat "$work/err" >&2; exit 1; }
echo "folio serve: pid $pid, port $port, RSS $(awk '/^VmRSS:/ {print $2 " kB"}' /proc/$pid/status)"
python3 - "$port" "$n" "$pid" <<'PY'
import re, resource, select, socket, sys, time

port, n, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
limit = 10000

def rss():
    with open(f"/proc/{pid}/status") as f:
        return next(l.split()[1] for l in f if l.startswith("VmRSS:")) + " kB"

def response(s, timeout=10):
    s.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(body) < length:
        body += s.recv(65536)
    return head.decode(), body.decode()

start = time.time()
socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /-/health HTTP/1.1\r\n")  # never finished: held until the request timeout
    socks.append(s)
print(f"client: {n} connections opened in {time.time() - start:.1f} s")
# Ask on the first connection (accepted first) until the server holds its limit.
first = socks[0]
first.sendall(b"Host: localhost\r\n\r\n")
print("first connection:", response(first)[1])
ok = True
deadline = time.time() + 20
while True:
    first.sendall(b"GET /-/metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")
    text = response(first)[1]
    open_now = int(re.search(r"^folio_http_open_connections (\d+)$", text, re.M).group(1))
    if open_now >= min(n, limit) or time.time() > deadline:
        break
    time.sleep(0.2)
print(f"server: {open_now} connections open (limit {limit}); folio RSS {rss()}")
ok &= open_now == min(n, limit)
if n > limit:
    last = socks[-1]
    last.sendall(b"Host: localhost\r\n\r\n")
    poller = select.poll()
    poller.register(last, select.POLLIN)
    waiting = not poller.poll(1000)
    print(f"a request beyond the limit waits: {waiting}")
    ok &= waiting
    for s in socks[1:1 + (n - limit)]:
        s.close()
    t = time.time()
    status = response(last)[0].split("\r\n")[0]
    print(f"after {n - limit} others closed it is answered in {time.time() - t:.2f} s: {status}")
    ok &= status.endswith("200 OK")
for s in socks:
    s.close()
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
