"""What the client sends for each call and how it reads the answers, against a mock
transport: paths, parameters and bodies as docs/api.md gives them, and a change feed that
stops when the API says there is no more."""

from __future__ import annotations

import json
from datetime import date

import httpx
import pytest

from reflexion_review import Client


class Recorder:
    """A server that answers each request with the next of its pages (or `{}`)."""

    def __init__(self, *pages: dict):
        self.pages = list(pages)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, json=self.pages.pop(0) if self.pages else {})

    def client(self, base_url: str = "http://api.test") -> Client:
        return Client(base_url, "rrapi_t", transport=httpx.MockTransport(self))

    def body(self, n: int = 0):
        return json.loads(self.requests[n].content)


@pytest.mark.parametrize(
    "base_url", ["http://api.test", "http://api.test/", "http://api.test/api/v1/"]
)
def test_the_server_address_may_be_given_with_or_without_the_api_prefix(base_url):
    server = Recorder()
    server.client(base_url).ingest_tasks([])
    assert str(server.requests[0].url) == "http://api.test/api/v1/tasks"


def test_one_reflection_file_is_posted_as_a_list_with_its_default_department():
    server = Recorder()
    one = {"path": "memory/reflexions/2026-05/14-x.md", "content": "---\n"}
    server.client().ingest_reflections(one, default_department="finance")
    assert server.requests[0].url.params["default_department"] == "finance"
    assert server.body() == [one]


def test_a_run_is_posted_with_only_the_options_given():
    server = Recorder()
    server.client().ingest_reflexion_run(
        "run.jsonl", {"run.jsonl": "{}"}, started_at=date(2023, 3, 20), trial_days=1
    )
    assert server.requests[0].url.path == "/api/v1/reflexion-runs"
    assert server.body() == {
        "name": "run.jsonl",
        "files": {"run.jsonl": "{}"},
        "started_at": "2023-03-20",
        "trial_days": 1,
    }


def test_retrieve_sends_what_was_given_and_log_as_the_api_reads_it():
    server = Recorder()
    server.client().retrieve("export invoices", task_type="invoice-export", k=5, log=False)
    params = dict(server.requests[0].url.params)
    assert params == {
        "task": "export invoices",
        "task_type": "invoice-export",
        "k": "5",
        "log": "false",
    }


def change(n: int) -> dict:
    return {"cursor": f"c{n}", "reflection": {"id": n}, "evict": True}


def test_the_feed_asks_for_the_next_page_with_the_cursor_of_the_last():
    server = Recorder(
        {"changes": [change(1), change(2)], "next": "c2", "more": True},
        {"changes": [change(3)], "next": "c3", "more": False},
    )
    feed = server.client().changes(since="c0", limit=2, department="sales")
    assert [c["reflection"]["id"] for c in feed] == [1, 2, 3]
    assert [r.url.params["since"] for r in server.requests] == ["c0", "c2"]
    assert server.requests[0].url.params["department"] == "sales"
    assert feed.cursor == "c3"


def test_an_empty_feed_keeps_its_cursor_and_asks_once():
    server = Recorder({"changes": [], "next": None, "more": False})
    feed = server.client().changes()
    assert list(feed) == [] and feed.cursor is None
    assert len(server.requests) == 1 and "since" not in server.requests[0].url.params


def test_a_page_that_says_more_but_holds_nothing_ends_the_feed():
    server = Recorder({"changes": [], "next": "c9", "more": True})
    feed = server.client().changes(since="c9")
    assert list(feed) == [] and feed.cursor == "c9" and len(server.requests) == 1
