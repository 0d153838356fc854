"""A Folio server for a pytest suite: `folio serve` on a throw-away copy of a fixture
data directory, on a free port, stopped after the tests. Copy this fixture into your
conftest.py; it needs nothing but the standard library.

    def test_lists_repositories(folio_url):
        urllib.request.urlopen(folio_url + "demo")

--ephemeral: the fixture is never written (a copy in $TMPDIR is served and removed).
--exit-with-parent: if the test process dies without the teardown, the server stops too.
--faults: a request may ask for its own failure (FAULT_HEADER, docs/API.md §14.4).

Between and during tests (docs/API.md §14): the autouse fixture `folio_reset` returns the
copy to the fixture's state after each test; `wait_for_token(folio_url, token)` waits
until the change a write's Folio-Change-Token header names reaches GET /-/events.
"""
import json
import os
import subprocess
import urllib.request

import pytest

FOLIO = os.environ.get("FOLIO", "folio")  # the program; default: folio on the PATH
FIXTURE = os.environ.get("FOLIO_FIXTURE", "tests/fixture-data")  # a data directory


@pytest.fixture(scope="session")
def folio_url():
    """Starts `folio serve` once per session; yields "http://127.0.0.1:PORT/"."""
    server = subprocess.Popen(
        [FOLIO, "serve", "--port", "0", "--ephemeral", "--exit-with-parent", "--faults",
         "--log-level", "warn", "--data", FIXTURE],
        stdout=subprocess.PIPE, text=True)
    ready = server.stdout.readline()  # "folio listening on http://127.0.0.1:PORT/"
    if not ready.startswith("folio listening on "):
        server.kill()
        server.wait()
        pytest.fail(f"folio serve did not start (status {server.returncode}): {ready!r}")
    yield ready.removeprefix("folio listening on ").strip()
    server.terminate()  # SIGTERM: a clean stop; requests in flight finish, the copy is removed
    assert server.wait(timeout=60) == 0


@pytest.fixture(autouse=True)
def folio_reset(folio_url):
    """After each test, the data directory returns to the fixture's state (POST /-/reset)."""
    yield
    with urllib.request.urlopen(urllib.request.Request(folio_url + "-/reset", method="POST")) as response:
        assert response.status == 200


FAULT_HEADER = "Folio-Fault"  # e.g. {FAULT_HEADER: "status=503"}, "delay=200", "truncate=10", "reset"


def wait_for_token(folio_url, token, timeout=10):
    """Returns the event `token` ("domain/repository/N", a write's Folio-Change-Token) once
    GET /-/events has it; raises TimeoutError (socket.timeout) after `timeout` seconds."""
    base, _, n = token.rpartition("/")
    request = urllib.request.Request(folio_url + "-/events", headers={"Last-Event-ID": f"{base}/{int(n) - 1}"})
    with urllib.request.urlopen(request, timeout=timeout) as stream:
        fields = {}
        for raw in stream:  # one line at a time, as the server sends them
            line = raw.decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            if fields.get("id") == token:
                return json.loads(fields["data"])
            fields = {}
    raise AssertionError(f"the event stream ended before {token}")
