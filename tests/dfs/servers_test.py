#!/usr/bin/env python3
"""Several servers, one data directory, one address: three `folio serve` on one data
directory under MOUNT (a MooseFS mount, run by tests/dfs/moosefs_env.sh) behind nginx
configured by docs/deploy/nginx.conf itself (only its ports replaced). Writes go through
all of them, reads through any; racing check-outs give exactly one winner; a change made
through one is seen through the others at once (reads and queries); the change log is
the same, one event per change, whichever server reads it; a server killed (SIGKILL) in
the middle of writes loses nothing acknowledged while the others keep serving; fsck is
clean afterwards.

    tests/dfs/servers_test.py BUILD_DIR [MOUNT]    (MOUNT: $MFS_MOUNT by default)
    FOLIO_DFS_SOAK_SECONDS=3600: repeat the rounds (race, propagation, kill and restart)
    for that long (docs/DEPLOY.md, "Soak").
"""

import collections
import os
import random
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from folio_http import Nginx, Server, changes, check, finish, fsck, props, query, request  # noqa: E402

# Host names the servers accept behind the proxy where the build has --allowed-host.
EXTRA = []


def start_servers(binary, data, work, n=3):
    return [Server(binary, data, os.path.join(work, "server%d.log" % i), extra=EXTRA) for i in range(n)]


def writes_through_all(ngx, servers, repo_path, tag):
    """Creates documents through nginx and through each server; each is read through
    every server at once. Returns the names created."""
    names = []
    for i in range(9):
        base = ngx.url if i % 4 == 3 else servers[i % len(servers)].url
        name = "%s-%d.txt" % (tag, i)
        a = request(base + repo_path, {"operation": "createDocument", "name": name}, content=name.encode())
        if not check("create %s through %s" % (name, "nginx" if base == ngx.url else base), a.status == 201, a):
            continue
        names.append(name)
        seen = [request(s.url + repo_path + "/" + name).body == name.encode() for s in servers]
        check("  read at once through every server", all(seen), seen)
    a = request(ngx.url + repo_path + "?cmisselector=children&succinct=true&maxItems=1000")
    listed = {props(o).get("cmis:name") for o in (a.json() or {}).get("objects", [])}
    check("a listing through nginx shows every document", set(names) <= listed, sorted(set(names) - listed))
    return names


def racing_checkouts(ngx, servers, repo_path, names):
    """Nine check-outs of one document at once, three through each server (one of them
    through nginx): exactly one wins, the others get `versioning`."""
    for name in names[:4]:
        bases = [s.url for s in servers] * 3
        bases[0] = ngx.url
        results = [None] * len(bases)
        go = threading.Barrier(len(bases))

        def one(i):
            go.wait()
            results[i] = request(bases[i] + repo_path + "/" + name, {"operation": "checkOut"})

        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(bases))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [r for r in results if r.status == 201]
        lost = [r for r in results if r.status == 409 and (r.json() or {}).get("exception") == "versioning"]
        check("racing check-outs of %s: exactly one winner, the others versioning" % name,
              len(won) == 1 and len(lost) == len(bases) - 1, results)
        # Every server sees it checked out, by the one working copy.
        pwcs = {props(request(s.url + repo_path + "/" + name + "?cmisselector=object&succinct=true").json()).get(
            "cmis:versionSeriesCheckedOutId") for s in servers}
        check("  every server names the same working copy", len(pwcs) == 1 and None not in pwcs, pwcs)
        a = request(servers[-1].url + repo_path + "/" + name, {"operation": "cancelCheckOut"})
        check("  cancelled through another server", a.status == 200, a)


def propagation(servers, repo_url_of, repo_path, names):
    """A change through one server is read, and found by a query, through the others
    at once (the contract: a query reflects every change acknowledged before it)."""
    for i, name in enumerate(names[:3]):
        writer = servers[i % len(servers)]
        others = [s for s in servers if s is not writer]
        desc = "changed-%d-%d" % (i, random.randrange(1 << 30))
        a = request(writer.url + repo_path + "/" + name, {"operation": "update",
                                                          "properties": '{"cmis:description":"%s"}' % desc})
        check("update %s through one server" % name, a.status == 200, a)
        read = [props(request(s.url + repo_path + "/" + name + "?cmisselector=object&succinct=true").json()).get("cmis:description")
                for s in others]
        check("  the others read the change at once", read == [desc] * len(others), read)
        found = []
        for s in others:
            _, rows = query(repo_url_of(s), "SELECT cmis:name FROM cmis:document WHERE cmis:description = '%s'" % desc)
            found.append([r.get("cmis:name") for r in rows])
        check("  the others' queries find it at once", found == [[name]] * len(others), found)


def change_log_agrees(servers, repo_url_of):
    """The same events, in the same order, through every server; each create once."""
    logs = [changes(repo_url_of(s)) for s in servers]
    check("the change log is the same through every server (%d events)" % len(logs[0]),
          all(log == logs[0] for log in logs[1:]) and len(logs[0]) > 0,
          [len(log) for log in logs])
    created = collections.Counter(obj for obj, kind in logs[0] if kind == "created")
    twice = [obj for obj, n in created.items() if n > 1]
    check("  every object is created exactly once in it", not twice, twice[:10])
    return logs[0]


def kill_one_mid_write(binary, data, work, ngx, servers, repo_path, tag):
    """Writers through nginx and through each server; one server is killed with SIGKILL
    meanwhile. Nothing acknowledged is lost, the others keep serving, and the killed one
    starts again on the same port (nginx takes it back)."""
    acked = {}
    after_kill = collections.Counter()
    lock = threading.Lock()
    stop = threading.Event()
    killed = threading.Event()
    victim = servers[0]

    def writer(w, base_of):
        i = 0
        while not stop.is_set():
            base = base_of()
            name = "%s-w%d-%d.txt" % (tag, w, i)
            i += 1
            try:
                a = request(base + repo_path, {"operation": "createDocument", "name": name}, content=name.encode(),
                            timeout=30)
            except OSError:
                continue  # the connection broke: not acknowledged
            if a.status == 201:
                with lock:
                    acked[name] = name.encode()
                    if killed.is_set():
                        after_kill[base] += 1

    bases = [lambda: ngx.url] * 3 + [(lambda s=s: s.url) for s in servers]
    threads = [threading.Thread(target=writer, args=(w, b)) for w, b in enumerate(bases)]
    for t in threads:
        t.start()
    time.sleep(1.5 + random.random())
    victim.kill()
    killed.set()
    time.sleep(2.0)
    stop.set()
    for t in threads:
        t.join()
    survivors = servers[1:]
    check("%s: the others kept serving after the kill (%d writes through nginx, %d direct)" %
          (tag, after_kill[ngx.url], sum(after_kill[s.url] for s in survivors)),
          after_kill[ngx.url] > 0 and all(after_kill[s.url] > 0 for s in survivors), dict(after_kill))
    health = [request(s.url + "/-/health").status for s in survivors]
    check("  their /-/health is 200", health == [200] * len(survivors), health)
    lost = [n for n, body in acked.items()
            if any(request(s.url + repo_path + "/" + n).body != body for s in survivors)]
    check("  every acknowledged write is there (%d)" % len(acked), not lost and len(acked) > 10, lost[:10])
    # The killed one comes back on its port; nginx sends to it again.
    port = victim.port
    restarted = Server(binary, data, victim.log_path, extra=EXTRA, port=port)
    check("  the killed server restarts on its port", restarted.port == port, restarted.url)
    servers[0] = restarted
    missing = [n for n in acked if request(restarted.url + repo_path + "/" + n).status != 200]
    check("  and reads every acknowledged write", not missing, missing[:10])


def main():
    build = sys.argv[1]
    mount = sys.argv[2] if len(sys.argv) > 2 else os.environ["MFS_MOUNT"]
    binary = os.path.join(build, "folio")
    help_text = subprocess.run([binary, "serve", "--help"], stdout=subprocess.PIPE).stdout.decode()
    if "--allowed-host" in help_text:
        EXTRA.extend(["--allowed-host", "127.0.0.1"])
    work = os.environ.get("MFS_WORK", "/tmp")
    data = os.path.join(mount, "servers-data")
    soak = float(os.environ.get("FOLIO_DFS_SOAK_SECONDS", "0"))
    servers = start_servers(binary, data, work)
    ngx = None
    try:
        ngx = Nginx(work, [s.port for s in servers])
        a = request(ngx.url + "/", {"operation": "createDomain", "domainId": "acme"})
        check("createDomain through nginx", a.status == 201, a)
        a = request(servers[1].url + "/acme", {"operation": "createRepository", "repositoryId": "docs"})
        check("createRepository through another server", a.status == 201, a)
        repo_path = "/acme/docs"

        def repo_url_of(s):
            return s.url + repo_path

        deadline = time.time() + soak
        round_no = 0
        while True:
            tag = "r%d" % round_no
            names = writes_through_all(ngx, servers, repo_path, tag)
            racing_checkouts(ngx, servers, repo_path, names)
            propagation(servers, repo_url_of, repo_path, names)
            change_log_agrees(servers, repo_url_of)
            kill_one_mid_write(binary, data, work, ngx, servers, repo_path, tag)
            change_log_agrees(servers, repo_url_of)
            round_no += 1
            if time.time() >= deadline:
                break
            servers.append(servers.pop(0))  # another victim next round
    finally:
        if ngx is not None:
            ngx.stop()
        for s in servers:
            s.stop()
    rc, out = fsck(binary, data)
    check("folio fsck is clean afterwards", rc == 0, out)
    return finish(work, ["server%d.log" % i for i in range(3)] + ["nginx.log"])


if __name__ == "__main__":
    sys.exit(main())
