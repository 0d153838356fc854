#!/usr/bin/env python3
"""Folio on a distributed filesystem: every operation through one `folio serve` on a
data directory under MOUNT (run by tests/dfs/moosefs_env.sh on a MooseFS mount), the
filesystem probe's line in the log, `folio fsck` clean after; then crash safety: a
server killed (SIGKILL) in the middle of writes, restarted, fsck clean, and every write
it acknowledged still there.

    tests/dfs/operations_test.py BUILD_DIR [MOUNT]    (MOUNT: $MFS_MOUNT by default)
"""

import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from folio_http import Server, changes, check, finish, fsck, props, query, recover_and_fsck, request  # noqa: E402


def operations(binary, data, logs):
    s = Server(binary, data, os.path.join(logs, "ops.log"))
    try:
        root = s.url
        a = request(root + "/", {"operation": "createDomain", "domainId": "acme"})
        check("createDomain", a.status == 201, a)
        a = request(root + "/acme", {"operation": "createRepository", "repositoryId": "docs"})
        check("createRepository", a.status == 201, a)
        repo = root + "/acme/docs"
        check("createFolder", request(repo, {"operation": "createFolder", "name": "reports"}).status == 201)
        check("createFolder (second)", request(repo, {"operation": "createFolder", "name": "archive"}).status == 201)
        a = request(repo + "/reports", {"operation": "createDocument", "succinct": "true"}, content=b"Q3 revenue: 1.2M\n",
                    filename="q3.txt")
        check("createDocument", a.status == 201, a)
        check("getObject reads the content", request(repo + "/reports/q3.txt").body == b"Q3 revenue: 1.2M\n")
        a = request(repo + "/reports/q3.txt", {"operation": "update", "properties": '{"cmis:description":"the third"}',
                                               "succinct": "true"})
        check("update", a.status == 200 and props(a.json()).get("cmis:description") == "the third", a)
        a = request(repo + "/reports/q3.txt", {"operation": "setContent"}, content=b"Q3 revenue: 1.25M\n")
        check("setContent", a.status == 201, a)
        check("  the new content is read", request(repo + "/reports/q3.txt").body == b"Q3 revenue: 1.25M\n")
        a = request(repo + "/reports/q3.txt", {"operation": "checkOut", "succinct": "true"})
        check("checkOut", a.status == 201 and props(a.json()).get("cmis:isPrivateWorkingCopy") is True, a)
        a = request(repo + "/reports/q3.txt", {"operation": "checkOut"})
        check("  a second checkOut is refused", a.status == 409, a)
        a = request(repo + "/reports/q3.txt", {"operation": "checkIn", "checkinComment": "restated", "succinct": "true"},
                    content=b"Q3 revenue: 1.3M (restated)\n")
        check("checkIn", a.status == 201 and props(a.json()).get("cmis:versionLabel") == "2.0", a)
        check("  the new version is read", request(repo + "/reports/q3.txt").body == b"Q3 revenue: 1.3M (restated)\n")
        check("  version 1.0 is kept",
              request(repo + "/reports/q3.txt?versionLabel=1.0").body == b"Q3 revenue: 1.25M\n")
        a = request(repo + "/reports/q3.txt", {"operation": "checkOut"})
        check("checkOut again", a.status == 201, a)
        a = request(repo + "/reports/q3.txt", {"operation": "cancelCheckOut"})
        check("cancelCheckOut", a.status == 200, a)
        a = request(repo + "/reports/q3.txt", {"operation": "move", "targetFolderId": "/archive"})
        check("move", a.status == 201, a)
        check("  read at the new path", request(repo + "/archive/q3.txt").status == 200)
        check("  gone from the old one", request(repo + "/reports/q3.txt").status == 404)
        for i in range(5):
            request(repo + "/reports", {"operation": "createDocument", "name": "n%d.txt" % i}, content=b"note %d\n" % i)
        a = request(repo + "/reports/n0.txt", {"operation": "delete"})
        check("delete", a.status == 200 and request(repo + "/reports/n0.txt").status == 404, a)
        a, rows = query(repo, "SELECT cmis:name FROM cmis:document WHERE cmis:name LIKE 'n%.txt' ORDER BY cmis:name")
        check("query", [r.get("cmis:name") for r in rows] == ["n1.txt", "n2.txt", "n3.txt", "n4.txt"], a)
        a, rows = query(repo, "SELECT cmis:name FROM cmis:document WHERE CONTAINS('restated')")
        check("query CONTAINS", [r.get("cmis:name") for r in rows] == ["q3.txt"], a)
        a = request(repo + "/reports", {"operation": "deleteTree"})
        check("deleteTree", a.status == 200 and request(repo + "/reports").status == 404, a)
        events = changes(repo)
        kinds = [k for _, k in events]
        check("contentChanges lists every change", len(events) >= 20 and kinds.count("deleted") >= 6, events)
        a = request(root + "/acme", {"operation": "createRepository", "repositoryId": "docs"})
        check("  an existing repository is not replaced", a.status == 409, a)
        a = request(root + "/", {"operation": "createDomain", "domainId": "acme"})
        check("  an existing domain is not replaced", a.status == 409, a)
    finally:
        check("the server stops cleanly", s.stop() == 0)
    # The log is flushed by then.
    lines = [line for line in open(s.log_path) if "] filesystem " in line]
    check("the probe's choices are logged in one line", len(lines) == 1 and "new names by" in lines[0], lines)
    rc, out = fsck(binary, data)
    check("folio fsck is clean after every operation", rc == 0, out)


def crash(binary, data, logs, rounds):
    """Writers through a server that is killed with SIGKILL at a random instant; every
    write acknowledged before the kill must be there after a restart, and fsck clean."""
    repo_path = "/acme/crash"
    s = Server(binary, data, os.path.join(logs, "crash.log"))
    request(s.url + "/acme", {"operation": "createRepository", "repositoryId": "crash"})
    s.stop()
    acked = {}  # name -> content
    lock = threading.Lock()
    rng = random.Random(33)
    for r in range(rounds):
        s = Server(binary, data, os.path.join(logs, "crash.log"))
        stop = threading.Event()

        def writer(w):
            i = 0
            while not stop.is_set():
                name = "r%d-w%d-%d.txt" % (r, w, i)
                body = ("%s %d\n" % (name, i)).encode()
                try:
                    a = request(s.url + repo_path, {"operation": "createDocument", "name": name}, content=body, timeout=20)
                except OSError:
                    return
                if a.status == 201:
                    with lock:
                        acked[name] = {body}
                    if i % 3 == 0:
                        # Changed again: until acknowledged, either content may be there
                        # (the kill may come after the commit, before the answer).
                        with lock:
                            acked[name] = {body, body + b"v2\n"}
                        try:
                            a = request(s.url + repo_path + "/" + name, {"operation": "setContent"},
                                        content=body + b"v2\n", timeout=20)
                        except OSError:
                            return
                        if a.status == 201:
                            with lock:
                                acked[name] = {body + b"v2\n"}
                i += 1

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        time.sleep(2.0 + rng.random() * 3.0)
        s.kill()
        stop.set()
        for t in threads:
            t.join()
        ok, out = recover_and_fsck(binary, data)
        check("round %d: fsck clean after SIGKILL mid-writes (%d acknowledged so far)" % (r, len(acked)), ok, out)
    s = Server(binary, data, os.path.join(logs, "crash.log"))
    try:
        missing = [n for n, bodies in acked.items() if request(s.url + repo_path + "/" + n).body not in bodies]
        check("every acknowledged write is there after the restarts (%d)" % len(acked), not missing and len(acked) > 0,
              missing[:10])
    finally:
        s.stop()
    rc, out = fsck(binary, data)
    check("fsck clean at the end", rc == 0, out)


def main():
    build = sys.argv[1]
    mount = sys.argv[2] if len(sys.argv) > 2 else os.environ["MFS_MOUNT"]
    rounds = int(os.environ.get("FOLIO_DFS_CRASH_ROUNDS", "3"))
    binary = os.path.join(build, "folio")
    data = os.path.join(mount, "data")
    logs = os.environ.get("MFS_WORK", "/tmp")
    operations(binary, data, logs)
    crash(binary, data, logs, rounds)
    return finish(logs, ("ops.log", "crash.log"))


if __name__ == "__main__":
    sys.exit(main())
