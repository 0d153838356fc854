"""A Folio server for a pytest suite: `folio serve` on a throw-away copy of a fixture
data directory, on a free port, stopped after the tests. Copy this fixture into your
conftest.py; it needs nothing but the standard library.

    def test_lists_repositories(folio_url):
        urllib.request.urlopen(folio_url + "demo")

--ephemeral: the fixture is never written (a copy in $TMPDIR is served and removed).
--exit-with-parent: if the test process dies without the teardown, the server stops too.
"""
import os
import subprocess

import pytest

FOLIO = os.environ.get("FOLIO", "folio")  # the program; default: folio on the PATH
FIXTURE = os.environ.get("FOLIO_FIXTURE", "tests/fixture-data")  # a data directory


@pytest.fixture(scope="session")
def folio_url():
    """Starts `folio serve` once per session; yields "http://127.0.0.1:PORT/"."""
    server = subprocess.Popen(
        [FOLIO, "serve", "--port", "0", "--ephemeral", "--exit-with-parent",
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
