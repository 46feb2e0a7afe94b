"""The client's retries, against a mock transport: a 429 waits the Retry-After the server
asked for, a server that does not answer gets a bounded number of growing pauses, and a
refusal is never sent twice."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import httpx
import pytest

from reflexion_review import (
    ApiError,
    BadRequest,
    Client,
    ConnectionFailed,
    RateLimited,
    ServerError,
    Unauthorized,
)
from reflexion_review.retries import backoff, retry_after_seconds

TOKEN = "rrapi_unit-test-secret"


class Server:
    """Answers in turn from a script; records every request and every pause."""

    def __init__(self, *answers: httpx.Response | Exception):
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []
        self.sleeps: list[float] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def client(self, **kwargs) -> Client:
        return Client(
            "http://api.test",
            TOKEN,
            transport=httpx.MockTransport(self),
            sleep=self.sleeps.append,
            **kwargs,
        )


OK = httpx.Response(200, json={"changes": [], "next": None, "more": False})


def too_many(retry_after: str | None) -> httpx.Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return httpx.Response(429, json={"detail": "too many requests"}, headers=headers)


def test_a_429_waits_the_seconds_the_server_asked_for_then_succeeds():
    server = Server(too_many("7"), OK)
    assert server.client().changes_page()["more"] is False
    assert server.sleeps == [7.0]
    assert len(server.requests) == 2


def test_a_429_with_an_http_date_waits_until_that_date():
    when = datetime.now(timezone.utc) + timedelta(seconds=30)
    server = Server(too_many(format_datetime(when, usegmt=True)), OK)
    server.client().changes_page()
    assert len(server.sleeps) == 1 and 27 <= server.sleeps[0] <= 30


def test_a_429_that_asks_to_wait_longer_than_allowed_raises_at_once_with_the_wait():
    server = Server(too_many("3600"))
    with pytest.raises(RateLimited) as caught:
        server.client(max_retry_wait=60).changes_page()
    assert caught.value.retry_after == 3600 and caught.value.status == 429
    assert server.sleeps == []


def test_retries_stop_after_max_retries_and_the_last_refusal_is_raised():
    server = Server(too_many("1"), too_many("1"), too_many("1"))
    with pytest.raises(RateLimited):
        server.client(max_retries=2).changes_page()
    assert server.sleeps == [1.0, 1.0]
    assert len(server.requests) == 3


@pytest.mark.parametrize("status", [400, 401, 403, 404, 413, 422])
def test_a_refusal_other_than_429_is_never_retried(status):
    server = Server(httpx.Response(status, json={"detail": "no"}))
    with pytest.raises(ApiError) as caught:
        server.client().ingest_tasks([])
    assert caught.value.status == status
    assert len(server.requests) == 1 and server.sleeps == []


def test_a_503_is_retried_after_a_growing_pause():
    server = Server(httpx.Response(503), httpx.Response(503), OK)
    server.client().changes_page()
    assert len(server.sleeps) == 2
    assert 0.25 <= server.sleeps[0] <= 0.5 and 0.5 <= server.sleeps[1] <= 1.0


def test_a_500_is_not_retried_and_raises_a_server_error():
    server = Server(httpx.Response(500, text="boom"))
    with pytest.raises(ServerError) as caught:
        server.client().changes_page()
    assert caught.value.detail == "boom" and len(server.requests) == 1


def test_a_connection_refused_is_retried_then_reported():
    refused = httpx.ConnectError("connection refused")
    server = Server(refused, refused, OK)
    server.client().ingest_tasks([])
    assert len(server.requests) == 3

    down = Server(refused, refused)
    with pytest.raises(ConnectionFailed, match="after 1 retries"):
        down.client(max_retries=1).changes_page()


def test_a_timeout_retries_a_safe_request_but_not_a_logged_retrieve():
    timeout = httpx.ReadTimeout("read timed out")
    safe = Server(timeout, OK)
    safe.client().changes_page()
    assert len(safe.requests) == 2

    # The server may have logged the answer as retrieval events already: never twice.
    logged = Server(timeout)
    with pytest.raises(ConnectionFailed):
        logged.client().retrieve("a task", agent="finance-agent")
    assert len(logged.requests) == 1


def test_a_400_names_the_record_and_field_the_api_named():
    detail = "API (orchestrator), record 2: verdict: 'great' is not one of keep, outdated"
    server = Server(httpx.Response(400, json={"detail": detail}))
    with pytest.raises(BadRequest) as caught:
        server.client().ingest_judgements([])
    assert (caught.value.record, caught.value.field, caught.value.line) == (2, "verdict", None)
    assert str(caught.value).startswith("POST /judgements: 400 API (orchestrator)")


def test_a_run_refusal_names_its_line_and_a_cursor_refusal_its_field():
    run = BadRequest(400, "run.jsonl, line 3: is_solved: expected true or false")
    assert (run.line, run.field) == (3, "is_solved")
    assert BadRequest(400, "since: not a cursor this server gave").field == "since"
    assert BadRequest(400, "the body is not JSON").field is None


def test_the_token_is_in_no_error_and_no_repr():
    server = Server(httpx.Response(401, json={"detail": "Unauthorized"}))
    client = server.client()
    with pytest.raises(Unauthorized) as caught:
        client.changes_page()
    assert server.requests[0].headers["Authorization"] == f"Bearer {TOKEN}"
    for text in (str(caught.value), repr(caught.value), repr(client)):
        assert TOKEN not in text


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("120", 120.0), ("1.5", 1.5), (" 0 ", 0.0), ("-1", None), ("soon", None), ("", None)],
)
def test_retry_after_reads_seconds_and_refuses_what_is_not_a_wait(header, seconds):
    assert retry_after_seconds(header) == seconds


def test_retry_after_in_the_past_means_no_wait():
    now = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("Sun, 29 Nov 2026 11:59:00 GMT", now=now) == 0.0
    assert retry_after_seconds("Sun, 29 Nov 2026 12:00:10 GMT", now=now) == 10.0


def test_backoff_doubles_up_to_its_ceiling():
    for attempt, ceiling in enumerate([0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]):
        assert ceiling / 2 <= backoff(attempt) <= ceiling
