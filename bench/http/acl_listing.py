#!/usr/bin/env python3
# Access control benchmark (docs/API.md §11.3): a folder of 1,000 documents
# of which bob may read half, listed with maxItems=1000 by alice (a domain administrator:
# nothing is checked) and by bob (each child checked, the unreadable half left out before
# paging), in alternating pairs of 10 listings; prints the median of the pairs' time ratio
# (goal <= 1.5). Usage: bench/http/acl_listing.py BUILD_DIR/folio
import base64, json, os, statistics, subprocess, sys, tempfile, time, urllib.parse, urllib.request
folio = sys.argv[1]
work = tempfile.mkdtemp(prefix="folio-bench-acl-")
data = os.path.join(work, "data")
p = subprocess.Popen([folio, "serve", "--data", data, "--port", "0", "--log-level", "off"], stdout=subprocess.PIPE, text=True)
line = p.stdout.readline()
port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
base = f"http://127.0.0.1:{port}"
def req(path, user=None, pw=None, fields=None):
    h = {}
    if user: h["Authorization"] = "Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode()
    body = None
    if fields is not None:
        body = urllib.parse.urlencode(fields).encode(); h["Content-Type"] = "application/x-www-form-urlencoded"
    r = urllib.request.urlopen(urllib.request.Request(base + path, data=body, headers=h))
    return r.read()
try:
    req("/", fields={"operation": "createDomain", "domainId": "acme", "adminUserId": "alice", "adminPassword": "alice-pw-123456"})
    A = ("alice", "alice-pw-123456"); B = ("bob", "bob-pw-1234567")
    req("/acme", *A, fields={"operation": "createRepository", "repositoryId": "docs"})
    req("/acme", *A, fields={"operation": "createUser", "userId": "bob", "password": B[1]})
    req("/acme", *A, fields={"operation": "updateGroup", "groupId": "repository_docs", "members": "alice,bob"})
    req("/acme/docs", *A, fields={"cmisaction": "createFolder", "propertyId[0]": "cmis:objectTypeId", "propertyValue[0]": "cmis:folder",
        "propertyId[1]": "cmis:name", "propertyValue[1]": "big", "removeACEPrincipal[0]": "repository_docs",
        "removeACEPermission[0][0]": "cmis:all", "addACEPrincipal[0]": "bob", "addACEPermission[0][0]": "cmis:read"})
    for i in range(1000):
        f = {"cmisaction": "createDocument", "propertyId[0]": "cmis:objectTypeId", "propertyValue[0]": "cmis:document",
             "propertyId[1]": "cmis:name", "propertyValue[1]": f"d{i:04d}.txt", "content": "x"}
        if i % 2: f.update({"removeACEPrincipal[0]": "bob", "removeACEPermission[0][0]": "cmis:read"})
        req("/acme/docs/big", *A, fields=f)
    path = "/acme/docs/big?cmisselector=children&maxItems=1000&succinct=true"
    n_a = json.loads(req(path, *A))["numItems"]; n_b = json.loads(req(path, *B))["numItems"]
    ratios = []
    for _ in range(7):
        t = time.perf_counter(); [req(path, *A) for _ in range(10)]; ta = time.perf_counter() - t
        t = time.perf_counter(); [req(path, *B) for _ in range(10)]; tb = time.perf_counter() - t
        ratios.append(tb / ta)
    print(f"children: alice (administrator) sees {n_a}, bob {n_b}; bob/alice time per listing, median of 7 pairs of 10: "
          f"{statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f}); goal <= 1.5")
finally:
    p.terminate(); p.wait()
    subprocess.run(["rm", "-rf", work])
