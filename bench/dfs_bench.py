#!/usr/bin/env python3
"""Scale figures on a distributed filesystem (docs/DEPLOY.md), inside a private MooseFS:

1. getObject throughput (wrk, GET of one document's content and of its properties
   through nginx configured by docs/deploy/nginx.conf): three servers behind nginx
   against one server behind the same nginx (its three upstream lines naming that one
   server), same data directory on the same mount, same run; the ratio.
2. The check-in cycle (checkOut + checkIn with 1 KiB of content, one client) on the
   MooseFS mount against its own fsync floor (create + write 1 KiB + fsync + rename of a
   file on the mount, the least a durable write costs there).

    bench/dfs_bench.py BUILD_DIR [SECONDS]     (run inside tests/dfs/moosefs_env.sh)
    tests/dfs/moosefs_env.sh python3 bench/dfs_bench.py build 10

wrk is Debian's `wrk` (scripts/setup.sh --test-packages).
"""

import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "dfs"))
from folio_http import Server, request  # noqa: E402
from servers_test import Nginx  # noqa: E402


def wrk(url, seconds, connections=32, threads=2):
    out = subprocess.run(["wrk", "-t%d" % threads, "-c%d" % connections, "-d%ds" % seconds, url],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if not m or errors:
        raise RuntimeError("wrk failed: " + out)
    return float(m.group(1))


def fsync_floor(mount, n=200):
    d = os.path.join(mount, "fsync-floor")
    os.makedirs(d, exist_ok=True)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        tmp, dst = os.path.join(d, ".t%d" % i), os.path.join(d, "f%d" % (i % 10))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"x" * 1024)
        os.fsync(fd)
        os.close(fd)
        os.rename(tmp, dst)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def checkin_cycle(url, n=100):
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        a = request(url, {"operation": "checkOut"})
        b = request(url, {"operation": "checkIn", "major": "false"}, content=b"y" * 1024)
        if a.status != 201 or b.status != 201:
            raise RuntimeError("check-in cycle failed: %r %r" % (a, b))
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main():
    build = sys.argv[1]
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    mount = os.environ["MFS_MOUNT"]
    work = os.environ.get("MFS_WORK", "/tmp")
    binary = os.path.join(build, "folio")
    data = os.path.join(mount, "bench-data")
    servers = [Server(binary, data, os.path.join(work, "bench%d.log" % i), extra=["--log-level", "warn"])
               for i in range(3)]
    three = one = None
    try:
        base = servers[0].url
        request(base + "/", {"operation": "createDomain", "domainId": "acme"})
        request(base + "/acme", {"operation": "createRepository", "repositoryId": "docs"})
        for i in range(20):
            request(base + "/acme/docs", {"operation": "createDocument", "name": "d%d.txt" % i}, content=b"z" * 4096)
        three = Nginx(os.path.join(work, "three"), [s.port for s in servers])
        one = Nginx(os.path.join(work, "one"), [servers[0].port] * 3)
        rows = []
        for what, path in (("content", "/acme/docs/d7.txt"),
                           ("properties", "/acme/docs/d7.txt?cmisselector=object&succinct=true")):
            # Alternated, twice each, so that a slow moment of the machine falls on both.
            r3, r1 = [], []
            for _ in range(2):
                r3.append(wrk(three.url + path, seconds))
                r1.append(wrk(one.url + path, seconds))
            rows.append((what, max(r3), max(r1)))
        floor = fsync_floor(mount)
        cycle = checkin_cycle(base + "/acme/docs/d3.txt")
        for what, r3, r1 in rows:
            print("getObject (%s): three servers %.0f req/s, one server %.0f req/s, ratio %.2f" % (what, r3, r1, r3 / r1))
        print("check-in cycle on MooseFS: median %.1f ms; fsync floor (1 KiB write+fsync+rename) %.1f ms; %.1f floors"
              % (cycle, floor, cycle / floor))
    finally:
        for n in (three, one):
            if n is not None:
                n.stop()
        for s in servers:
            s.stop()


if __name__ == "__main__":
    main()
