"""The pytest recipe of the README, run by ctest (tests/clients/python/run.sh): tests
that use the folio_url fixture of conftest.py on the sample data."""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from conftest import FIXTURE


def get(url):
    with urllib.request.urlopen(url) as response:
        return response.status, response.read()


def test_the_demo_domain_lists_its_repositories(folio_url):
    status, body = get(folio_url + "demo")
    assert status == 200
    assert sorted(json.loads(body)) == ["cmis", "plain"]


def test_a_fixture_document_reads_back(folio_url):
    status, body = get(folio_url + "demo/cmis/README.md")
    assert status == 200
    assert body.startswith(b"# Welcome to Folio")


def test_writes_go_to_the_copy_never_to_the_fixture(folio_url):
    form = urllib.parse.urlencode({"operation": "createDocument", "name": "from-pytest.txt",
                                   "content": "hello from pytest"}).encode()
    with urllib.request.urlopen(folio_url + "demo/plain", data=form) as response:
        assert response.status == 201
    assert get(folio_url + "demo/plain/from-pytest.txt") == (200, b"hello from pytest")
    assert not os.path.exists(os.path.join(FIXTURE, "demo/plain/from-pytest.txt"))


def test_errors_are_json_with_the_cmis_exception_name(folio_url):
    try:
        urllib.request.urlopen(folio_url + "demo/plain/no-such-file.txt")
        raise AssertionError("expected HTTP 404")
    except urllib.error.HTTPError as error:
        assert error.code == 404
        assert json.loads(error.read())["exception"] == "objectNotFound"
