"""Small HTTP helpers for the distributed-filesystem tests (tests/dfs/): start and stop
`folio serve`, send CMIS browser-binding requests, check results. Standard library only."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

PASSED = 0
FAILED = 0


def check(what, ok, detail=""):
    """Counts and prints one check; returns `ok`."""
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print("ok   " + what, flush=True)
    else:
        FAILED += 1
        print("FAIL " + what + (": " + str(detail) if detail != "" else ""), flush=True)
    return ok


def finish(log_dir, names):
    """Prints the summary (and the servers' logs when a check failed); the exit status."""
    if FAILED:
        for name in names:
            p = os.path.join(log_dir, name)
            if os.path.exists(p):
                print("---- %s (last 40 lines)" % name)
                print("".join(open(p, errors="replace").readlines()[-40:]), flush=True)
    print("%d passed, %d failed" % (PASSED, FAILED), flush=True)
    return 0 if FAILED == 0 else 1


class Server:
    """One `folio serve` process; its ready line gives the URL."""

    def __init__(self, binary, data, log_path, extra=(), env=None, port=0):
        self.log_path = log_path
        self.log = open(log_path, "ab")
        e = dict(os.environ)
        e.update(env or {})
        self.proc = subprocess.Popen([binary, "serve", "--data", data, "--port", str(port), "--threads", "4"] + list(extra),
                                     stdout=subprocess.PIPE, stderr=self.log, env=e)
        line = self.proc.stdout.readline().decode()
        m = re.match(r"folio listening on (http://\S+)/$", line.strip())
        if not m:
            self.proc.wait(timeout=30)
            raise RuntimeError("folio serve did not start: %r; log:\n%s" % (line, open(log_path).read()))
        self.url = m.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()


NGINX_CONF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "deploy", "nginx.conf")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx running docs/deploy/nginx.conf with its ports replaced: 8080 by a free port,
    8081-8083 by `backends` (three ports; one may be named three times)."""

    def __init__(self, work, backends):
        self.prefix = os.path.join(work, "nginx")
        os.makedirs(self.prefix, exist_ok=True)
        self.port = free_port()
        conf = open(NGINX_CONF).read()
        for placeholder in ("127.0.0.1:8081", "127.0.0.1:8082", "127.0.0.1:8083", "127.0.0.1:8080"):
            if placeholder not in conf:
                raise RuntimeError("docs/deploy/nginx.conf no longer names " + placeholder)
        conf = conf.replace("127.0.0.1:8080", "127.0.0.1:%d" % self.port)
        for i, port in enumerate(backends):
            conf = conf.replace("127.0.0.1:%d" % (8081 + i), "127.0.0.1:%d" % port)
        self.conf = os.path.join(self.prefix, "nginx.conf")
        open(self.conf, "w").write(conf)
        self.proc = subprocess.Popen(
            ["nginx", "-p", self.prefix, "-c", self.conf, "-g",
             "daemon off; pid %s/nginx.pid; error_log %s/error.log; user root;" % (self.prefix, self.prefix)],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "nginx.log"), "ab"))
        self.url = "http://127.0.0.1:%d" % self.port
        for _ in range(100):
            try:
                if request(self.url + "/-/health", timeout=2).status == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("nginx did not start; see nginx.log and error.log in " + work)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


class Answer:
    def __init__(self, status, body, headers):
        self.status = status
        self.body = body
        self.headers = headers

    def json(self):
        try:
            return json.loads(self.body.decode() or "null")
        except ValueError:
            return None

    def __repr__(self):
        return "%d %s" % (self.status, self.body[:300].decode(errors="replace"))


def request(url, fields=None, content=None, method=None, timeout=60, filename="f.txt", headers=None):
    """GET `url` (no fields), or POST the `fields` (urlencoded, or multipart with
    `content` bytes as the file part). Returns an Answer (any status)."""
    data = None
    hdrs = dict(headers or {})
    if content is not None:
        boundary = "folio" + uuid.uuid4().hex
        parts = []
        for k, v in (fields or {}).items():
            parts.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (boundary, k, v)).encode())
        parts.append(("--%s\r\nContent-Disposition: form-data; name=\"content\"; filename=\"%s\"\r\n"
                      "Content-Type: text/plain\r\n\r\n" % (boundary, filename)).encode() + content + b"\r\n")
        parts.append(("--%s--\r\n" % boundary).encode())
        data = b"".join(parts)
        hdrs["Content-Type"] = "multipart/form-data; boundary=" + boundary
    elif fields is not None:
        data = urllib.parse.urlencode(fields).encode()
        hdrs["Content-Type"] = "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"), headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return Answer(r.status, r.read(), dict(r.headers))
    except urllib.error.HTTPError as e:
        return Answer(e.code, e.read(), dict(e.headers))


def props(obj):
    """The succinct or full properties of an object answer, as {id: value}."""
    if obj is None:
        return {}
    if "succinctProperties" in obj:
        return obj["succinctProperties"]
    if "object" in obj:
        return props(obj["object"])
    return {k: (v.get("value") if isinstance(v, dict) else v) for k, v in obj.get("properties", {}).items()}


def query(repo_url, statement):
    a = request(repo_url + "?" + urllib.parse.urlencode({"cmisselector": "query", "q": statement, "succinct": "true",
                                                         "maxItems": "10000"}))
    return a, [props(r) for r in (a.json() or {}).get("results", [])]


def changes(repo_url, token=None, max_items=1000):
    """Every change event of the repository from `token` (or the oldest) on, following
    the log's tokens; returns [(objectId, changeType)]."""
    out = []
    while True:
        q = {"cmisselector": "contentChanges", "succinct": "true", "maxItems": str(max_items)}
        if token:
            q["changeLogToken"] = token
        a = request(repo_url + "?" + urllib.parse.urlencode(q))
        j = a.json()
        if a.status != 200 or not isinstance(j, dict):
            raise RuntimeError("contentChanges: %r" % a)
        objs = j.get("objects", [])
        # The event named by the token comes first (inclusive): skip it after the first page.
        page = [(props(o).get("cmis:objectId"), o["changeEventInfo"]["changeType"]) for o in objs]
        if token and out:
            page = page[1:]
        out.extend(page)
        if not j.get("hasMoreItems") or not objs:
            return out
        token = j.get("changeLogToken")


def fsck(binary, data, repair=False):
    p = subprocess.run([binary, "fsck", data] + (["--repair"] if repair else []), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace")


# What a process killed mid-write leaves for the next writer (docs/STORAGE.md §10): never
# damage.
LEFT_BY_A_KILL = ("log-pending", "trash-leftover", "upload-leftover", "leftover-temp-file")


def recover_and_fsck(binary, data):
    """After a kill: `fsck --repair` completes what the killed writer left (as the next
    writer would), finding nothing but what a kill leaves (and what completing the
    pending changes resolves); then `fsck` is clean.
    Returns (ok, output)."""
    _, repaired = fsck(binary, data, repair=True)
    damage = [line for line in repaired.splitlines()
              if line.startswith(("error ", "warning ")) and line.split()[1] not in LEFT_BY_A_KILL and
              not line.endswith("-> resolved by the other repairs")]
    rc, out = fsck(binary, data)
    return rc == 0 and not damage, repaired + "\n" + out


def die(msg):
    print("FAIL " + msg, flush=True)
    sys.exit(1)
