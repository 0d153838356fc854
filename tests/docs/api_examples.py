#!/usr/bin/env python3
"""Runs every example request of docs/API.md against a real server and checks the
answers the document shows, so that the reference cannot drift from what Folio does.

    tests/docs/api_examples.py BUILD_DIR [--list | --show]

--list prints the examples found and the answers they show; --show prints each answer
the server gave as well.

An example is a `curl` command in a fenced block of docs/API.md (a ```sh block, or a
plain block whose lines start with `$ curl`). A command continues on the next line after
a trailing backslash or while a quote is open. The lines after a command, up to the
next command or the end of the block, are its shown answer:

- none: the command must succeed (curl runs with --fail-with-body: any status >= 400
  fails the example, unless the answer shown is an error body with "exception");
- JSON: the answer must be JSON and match it: every member shown must be there with a
  matching value (members not shown may be there too), arrays element by element with
  the same length, a string with `...` in it matches any text in its place;
- other text: its pieces between `...` must appear in the answer in order, whitespace
  ignored.

The examples run in document order, each in a fresh shell in one working directory
(holding README.md and plan.pdf, the files they upload), against `folio serve
--ephemeral --faults sample-data` with http://127.0.0.1:8080 replaced by its URL. Before the first
example that uses domain `acme`, the data directory is set up as the examples of §11
assume: domain `acme` with
administrator `alice` (password `secret`) and her repository `docs` with a folder
`reports`. Exit status 0 when every example passes, 1 otherwise.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "API.md")
DOC_URL = "http://127.0.0.1:8080"


class Example:
    def __init__(self, line, command):
        self.line = line          # 1-based line of docs/API.md where the command starts
        self.command = command    # as written, continuation lines joined
        self.shown = []           # the lines of the answer shown after it


def complete(text):
    """Whether `text` is a whole shell command: no trailing backslash, quotes closed."""
    if text.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(text, comments=True)
        return True
    except ValueError:
        return False


def read_examples(path):
    examples = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        fence = lines[i]
        if not fence.startswith("```"):
            i += 1
            continue
        lang = fence[3:].strip()
        body = []
        start = i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if lang not in ("sh", ""):
            continue
        current = None
        j = 0
        while j < len(body):
            raw = body[j]
            text = raw[2:] if raw.startswith("$ curl") else raw
            if text.startswith("curl ") and (lang == "sh" or raw.startswith("$ ")):
                first = start + j + 1
                command = text
                while not complete(command) and j + 1 < len(body):
                    j += 1
                    command = command.rstrip()
                    if command.endswith("\\"):
                        command = command[:-1] + body[j]  # as the shell: backslash-newline goes
                    else:
                        command += "\n" + body[j]
                current = Example(first, command)
                examples.append(current)
            elif current is not None and raw.strip():
                current.shown.append(raw)
            j += 1
    return examples


def pattern_of(shown):
    """A regex for a shown string: `...` matches any text."""
    return "^" + ".*".join(re.escape(p) for p in shown.split("...")) + "$"


def match(shown, actual, where="answer"):
    """Problems found comparing `actual` with the `shown` JSON value (empty: it matches)."""
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {json.dumps(actual)[:200]}"]
        problems = []
        for key, value in shown.items():
            if key not in actual:
                problems.append(f"{where}: member '{key}' is missing")
            else:
                problems += match(value, actual[key], f"{where}.{key}")
        return problems
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return [f"{where}: expected an array, got {json.dumps(actual)[:200]}"]
        if len(shown) != len(actual):
            return [f"{where}: expected {len(shown)} elements, got {len(actual)}: {json.dumps(actual)[:300]}"]
        problems = []
        for n, (s, a) in enumerate(zip(shown, actual)):
            problems += match(s, a, f"{where}[{n}]")
        return problems
    if isinstance(shown, str) and "..." in shown:
        if isinstance(actual, str) and re.match(pattern_of(shown), actual, re.S):
            return []
        return [f"{where}: {json.dumps(actual)} does not match {json.dumps(shown)}"]
    if shown != actual:
        return [f"{where}: expected {json.dumps(shown)}, got {json.dumps(actual)[:200]}"]
    return []


def check(example, output):
    shown = "\n".join(example.shown).strip()
    if not shown:
        return []
    try:
        expected = json.loads(shown)
    except ValueError:
        expected = None
    if expected is not None:
        try:
            actual = json.loads(output)
        except ValueError:
            return [f"the answer is not JSON: {output[:300]}"]
        return match(expected, actual)
    squeezed = re.sub(r"\s+", "", output)
    at = 0
    for piece in shown.split("..."):
        piece = re.sub(r"\s+", "", piece)
        found = squeezed.find(piece, at)
        if found < 0:
            return [f"'{piece}' is not in the answer (after what matched before): {output[:400]}"]
        at = found + len(piece)
    return []


def post(url, fields, auth=None):
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=data, method="POST")
    if auth:
        import base64
        request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def set_up(url):
    """What the examples of §11 assume exists."""
    post(url + "/", {"operation": "createDomain", "domainId": "acme", "adminUserId": "alice",
                     "adminPassword": "secret"})
    post(url + "/acme", {"operation": "createRepository", "repositoryId": "docs"}, "alice:secret")
    post(url + "/acme/docs", {"operation": "createFolder", "propertyId[0]": "cmis:name",
                              "propertyValue[0]": "reports"}, "alice:secret")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    examples = read_examples(DOC)
    if "--list" in sys.argv:
        for e in examples:
            print(f"API.md:{e.line}: {e.command}")
            for s in e.shown:
                print(f"    | {s}")
        return 0
    if not examples:
        print("FAIL: no example found in docs/API.md")
        return 1
    work = tempfile.mkdtemp(prefix="folio-api-examples-")
    server = None
    try:
        with open(os.path.join(work, "README.md"), "w") as f:
            f.write("# Folio\n\nThe new intro.\n")
        with open(os.path.join(work, "plan.pdf"), "wb") as f:
            f.write(b"%PDF-1.4\n% a plan\n")
        log = open(os.path.join(work, "server.log"), "w")
        server = subprocess.Popen([os.path.join(build, "folio"), "serve", "--data", os.path.join(ROOT, "sample-data"),
                                   "--ephemeral", "--port", "0", "--exit-with-parent", "--log-level", "warn",
                                   "--faults"],  # §14.4's example asks for a fault
                                  stdout=subprocess.PIPE, stderr=log, text=True)
        url = None
        deadline = time.time() + 60
        while time.time() < deadline:
            line = server.stdout.readline()
            m = re.match(r"^folio listening on (http://\S+?)/?$", line.strip())
            if m:
                url = m.group(1)
                break
            if not line and server.poll() is not None:
                break
        if url is None:
            print("FAIL: folio serve printed no ready line")
            return 1
        failed = 0
        ready = False
        for e in examples:
            if not ready and DOC_URL + "/acme" in e.command:
                set_up(url)  # just before the first example that needs it
                ready = True
            command = e.command.replace(DOC_URL, url)
            command = re.sub(r"^curl ", "curl -sS --fail-with-body ", command)
            run = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True, timeout=120)
            # An example that shows an error answer fails with curl's status 22 (>= 400).
            shows_error = '"exception"' in "\n".join(e.shown)
            ok = run.returncode == 0 or (run.returncode == 22 and shows_error)
            problems = [] if ok else [f"curl exited with {run.returncode}: {run.stderr.strip()} {run.stdout[:300]}"]
            if not problems:
                problems = check(e, run.stdout)
            first_line = e.command.split("\n")[0][:100]
            if "--show" in sys.argv:
                print(f"---- API.md:{e.line} answered:\n{run.stdout[:20000]}")
            if problems:
                failed += 1
                print(f"FAIL API.md:{e.line}: {first_line}")
                for p in problems:
                    print(f"     {p}")
            else:
                print(f"ok   API.md:{e.line}: {first_line}")
        print(f"{len(examples) - failed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
