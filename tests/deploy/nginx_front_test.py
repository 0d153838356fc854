#!/usr/bin/env python3
"""Folio behind nginx configured by docs/deploy/nginx.conf itself (only its ports
replaced), as docs/DEPLOY.md and docs/API.md §9 describe the edge: 5,000 idle client
connections and a few slow clients (one byte a second, in the head or in a body) held
open against nginx do not starve a normal getObject (answered within 1 s, each time),
and Folio's thread count stays bounded (the idle and slow heads never reach it; a slow
body holds one thread).

    tests/deploy/nginx_front_test.py BUILD_DIR
    FOLIO_NGINX_IDLE=N: hold N idle connections (5,000 by default).

Exit status 77 (skipped, saying why) without nginx, or when it cannot start (not root). The test process holds the client
ends: it raises its soft open-files limit to the hard one, and holds fewer idle
connections (saying so) if that is still too low.
"""

import os
import resource
import shutil
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dfs"))
from folio_http import Nginx, Server, check, finish, request  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOC = "/demo/cmis/Inbox/call-notes.txt"
SLOW_HEADS = 3
SLOW_BODIES = 3
HOLD_SECONDS = 12


def threads_of(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return -1


def timed_get(url):
    """One getObject by path on a new connection: (seconds, answer)."""
    start = time.monotonic()
    a = request(url + DOC, timeout=10)
    return time.monotonic() - start, a


def slow_client(port, prefix, data, stop, sent):
    """Sends `prefix` at once, then `data` one byte a second until it is all sent or
    `stop` is set."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(prefix)
        for i in range(len(data)):
            if stop.wait(0 if i == 0 else 1.0):
                return
            s.sendall(data[i:i + 1])
            sent[0] += 1
        stop.wait()


def main():
    build = sys.argv[1]
    binary = os.path.join(build, "folio")
    if shutil.which("nginx") is None:
        print("skipped: nginx is not installed (scripts/setup.sh --test-packages)")
        return 77
    want = int(os.environ.get("FOLIO_NGINX_IDLE", "5000"))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    idle_count = min(want, soft - 200)  # the rest for the slow clients, probes and files
    if idle_count < want:
        print("note: the open-files limit is %d: holding %d idle connections, not %d" % (soft, idle_count, want))

    work = tempfile.mkdtemp(prefix="folio-nginx-")
    data = os.path.join(work, "data")
    shutil.copytree(os.path.join(ROOT, "sample-data"), data)
    expected = open(os.path.join(ROOT, "sample-data", DOC.lstrip("/")), "rb").read()
    server = Server(binary, data, os.path.join(work, "server.log"))
    ngx = None
    idle = []
    stop = threading.Event()
    slow = []
    try:
        # One server named three times: the configuration's upstream as written.
        try:
            ngx = Nginx(work, [server.port] * 3)
        except RuntimeError as e:
            if os.geteuid() == 0:
                raise
            # Debian's nginx keeps its temporary files under /var/lib/nginx.
            print("skipped: nginx does not start without root here (%s)" % e)
            return 77
        seconds, a = timed_get(ngx.url)
        check("a getObject through nginx is answered (%.3f s)" % seconds, a.status == 200 and a.body == expected, a)
        threads_before = threads_of(server.proc.pid)

        # Slow clients: heads nginx gathers itself, and bodies it passes on as they come
        # (proxy_request_buffering off), each one byte a second.
        head = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: %s\r\n\r\n" % (DOC, "x" * 40)).encode()
        body_head = ("POST /demo/cmis HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n").encode()
        for prefix, data_to_send in [(b"", head)] * SLOW_HEADS + [(body_head, b"a=" + b"x" * 198)] * SLOW_BODIES:
            sent = [0]
            t = threading.Thread(target=slow_client, args=(ngx.port, prefix, data_to_send, stop, sent), daemon=True)
            t.start()
            slow.append((t, sent))

        start = time.monotonic()
        for _ in range(idle_count):
            idle.append(socket.create_connection(("127.0.0.1", ngx.port), timeout=10))
        print("%d idle connections opened in %.1f s" % (len(idle), time.monotonic() - start), flush=True)

        # While they are all held: normal reads, each on a new connection, one every half
        # second; Folio's threads counted each time.
        worst = 0.0
        failures = []
        max_threads = threads_before
        end = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < end:
            seconds, a = timed_get(ngx.url)
            worst = max(worst, seconds)
            if a.status != 200 or a.body != expected:
                failures.append(a)
            max_threads = max(max_threads, threads_of(server.proc.pid))
            time.sleep(0.5)
        check("every getObject is answered while %d idle and %d slow clients are held (slowest %.3f s)" %
              (len(idle), len(slow), worst), not failures and worst < 1.0, failures[:3])
        # The slow bodies each hold one connection thread at most; the idle connections
        # and the slow heads none (nginx holds them). A few threads come and go besides.
        check("Folio's threads stay bounded: %d before, at most %d while held" % (threads_before, max_threads),
              max_threads <= threads_before + SLOW_BODIES + 8, max_threads)
        check("the slow clients are still sending (%s bytes each)" % [s[1][0] for s in slow],
              all(s[0].is_alive() and s[1][0] >= HOLD_SECONDS - 2 for s in slow))
        # nginx closed none of the idle connections: none is readable (EOF or reset).
        closed = 0
        for s in idle:
            s.setblocking(False)
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        check("nginx still holds every idle connection (%d closed)" % closed, closed == 0)
    finally:
        stop.set()
        for s in idle:
            s.close()
        if ngx is not None:
            ngx.stop()
        server.stop()
    rc = finish(work, ["server.log", "nginx.log", "nginx/error.log"])
    if rc == 0:
        shutil.rmtree(work, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
