"""The pytest recipe of the README, run by ctest (tests/clients/python/run.sh): tests
that use the folio_url fixture of conftest.py on the sample data."""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from conftest import FAULT_HEADER, FIXTURE, wait_for_token


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


def test_a_reset_between_tests_removed_what_the_test_before_wrote(folio_url):
    try:
        urllib.request.urlopen(folio_url + "demo/plain/from-pytest.txt")
        raise AssertionError("expected HTTP 404")
    except urllib.error.HTTPError as error:
        assert error.code == 404


def test_an_injected_fault_fails_the_request_and_changes_nothing(folio_url):
    form = urllib.parse.urlencode({"operation": "createDocument", "name": "faulty.txt", "content": "x"}).encode()
    request = urllib.request.Request(folio_url + "demo/plain", data=form, headers={FAULT_HEADER: "status=503"})
    try:
        urllib.request.urlopen(request)
        raise AssertionError("expected HTTP 503")
    except urllib.error.HTTPError as error:
        assert error.code == 503
        assert json.loads(error.read())["exception"] == "runtime"
    try:
        urllib.request.urlopen(folio_url + "demo/plain/faulty.txt")
        raise AssertionError("expected HTTP 404")
    except urllib.error.HTTPError as error:
        assert error.code == 404


def test_waiting_on_an_event_of_a_write(folio_url):
    form = urllib.parse.urlencode({"operation": "createDocument", "name": "evented.txt", "content": "x"}).encode()
    with urllib.request.urlopen(folio_url + "demo/plain", data=form) as response:
        assert response.status == 201
        token = response.headers["Folio-Change-Token"]
        made = json.loads(response.read())
    event = wait_for_token(folio_url, token)
    assert event["changeEventInfo"]["changeType"] == "created"
    assert event["succinctProperties"]["objectId"] == made["succinctProperties"]["objectId"]
