#!/usr/bin/env python3
"""Change-log read bench (issue 10 §4): reading 10,000 events with getContentChanges in
pages of 1,000 (without and with includeProperties) against reading the same 10,000 objects by id with getObject, one request
after the other on one keep-alive connection, in the same run against the same server.

    bench/changes_bench.py BUILD_DIR [--objects N] [--page N] [--rounds N]

Starts BUILD_DIR/folio serve --ephemeral on an empty data directory, creates the objects
(documents, so that getObject builds a full document), then times each read loop
--rounds times and prints the medians and their ratio (target: at most 2x).
"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--objects", type=int, default=10000)
    ap.add_argument("--page", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    data = tempfile.mkdtemp(prefix="folio-changes-bench-")
    server = subprocess.Popen([os.path.join(a.build, "folio"), "serve", "--data", data, "--ephemeral", "--port", "0",
                               "--log-level", "off"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.rstrip().rstrip("/").rsplit(":", 1)[1])
        c = http.client.HTTPConnection("127.0.0.1", port)

        def req(method, path, body=None, headers=None):
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            payload = r.read()
            if r.status >= 300:
                sys.exit(f"{method} {path}: {r.status} {payload[:300]!r}")
            return payload

        form = {"Content-Type": "application/x-www-form-urlencoded"}
        req("POST", "/", urllib.parse.urlencode({"operation": "createDomain", "domainId": "bench"}), form)
        req("POST", "/bench", urllib.parse.urlencode({"operation": "createRepository", "repositoryId": "main"}), form)
        t0 = time.perf_counter()
        ids = []
        for i in range(a.objects):
            body = urllib.parse.urlencode({"operation": "createDocument", "name": f"d{i:05}.txt",
                                           "content": f"document {i}", "succinct": "true"})
            made = json.loads(req("POST", "/bench/main", body, form))
            ids.append(made["succinctProperties"]["cmis:objectId"])
        create_s = time.perf_counter() - t0
        first = json.loads(req("GET", "/bench/main?cmisselector=contentChanges&maxItems=1"))
        token0 = first["changeLogToken"]

        def read_changes(properties):
            token, seen = token0, 0
            while True:
                q = f"/bench/main?cmisselector=contentChanges&succinct=true&maxItems={a.page + (seen > 0)}" \
                    f"&changeLogToken={token}&includeProperties={'true' if properties else 'false'}"
                page = json.loads(req("GET", q))
                objs = page["objects"][1:] if seen > 0 else page["objects"]
                seen += len(objs)
                token = page["changeLogToken"]
                if not page["hasMoreItems"]:
                    return seen

        def read_objects():
            for i in ids:
                json.loads(req("GET", "/bench/main?cmisselector=object&succinct=true&objectId=" + urllib.parse.quote(i)))
            return len(ids)

        changes, with_props, objects = [], [], []
        for _ in range(a.rounds):
            t = time.perf_counter()
            n = read_changes(False)
            changes.append(time.perf_counter() - t)
            assert n == a.objects, n
            t = time.perf_counter()
            n = read_changes(True)
            with_props.append(time.perf_counter() - t)
            assert n == a.objects, n
            t = time.perf_counter()
            read_objects()
            objects.append(time.perf_counter() - t)
        mc, mo = statistics.median(changes), statistics.median(objects)
        mp = statistics.median(with_props)
        print(f"objects created: {a.objects} in {create_s:.1f} s")
        print(f"contentChanges, pages of {a.page}: median {mc * 1000:.1f} ms over {a.rounds} rounds "
              f"(min {min(changes) * 1000:.1f}, max {max(changes) * 1000:.1f})")
        print(f"getObject by id, one keep-alive loop: median {mo * 1000:.1f} ms "
              f"(min {min(objects) * 1000:.1f}, max {max(objects) * 1000:.1f})")
        print(f"contentChanges with includeProperties=true: median {mp * 1000:.1f} ms "
              f"(min {min(with_props) * 1000:.1f}, max {max(with_props) * 1000:.1f})")
        print(f"ratio changes/objects: {mc / mo:.2f}; with properties: {mp / mo:.2f} (target <= 2)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
