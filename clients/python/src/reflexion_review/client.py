"""The client of the agents' API: one method per endpoint, each one request (retried when the
server asks to wait or does not answer), answers as typed dicts, refusals as ApiError."""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date
from typing import Any, cast

import httpx

from reflexion_review.errors import ConnectionFailed, error_for
from reflexion_review.retries import backoff, retry_after_seconds, should_retry
from reflexion_review.types import (
    Change,
    ChangesPage,
    ImportSummary,
    Judgement,
    JudgementCounts,
    ReflectionFile,
    Retrieval,
    RetrieveAnswer,
    RunSummary,
    Task,
)

__version__ = "0.1.0"
logger = logging.getLogger("reflexion_review")

# Failures of a request that never reached the server: always safe to send again.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


class Client:
    """`Client("http://127.0.0.1:8000", token)`: the server's address (with or without
    `/api/v1`) and a token from the API tokens page. A token has one scope: `ingest` for the
    ingest_* methods, `retrieve` for retrieve() and changes().

    A 429 is retried after the Retry-After the server sends (seconds or an HTTP date) unless it
    asks for more than `max_retry_wait`; a 503, and a connection that fails before the request
    was sent, after a growing pause; a timeout or a 502/504 only for requests that are safe to
    repeat (every ingest is: posting the same content again changes nothing; a logged
    retrieve is not). At most `max_retries` retries; no other 4xx is ever retried."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not token:
            raise ValueError("token: required (create one under API tokens, /api-tokens/)")
        if max_retries < 0:
            raise ValueError("max_retries: at least 0")
        root = base_url.rstrip("/")
        self.base_url = root if root.endswith("/api/v1") else f"{root}/api/v1"
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self._http = httpx.Client(
            base_url=self.base_url,
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/json",
                "User-Agent": f"reflexion-review-client/{__version__}",
            },
            timeout=timeout,
            transport=transport,
        )

    def __repr__(self) -> str:  # never the token
        return f"Client({self.base_url!r})"

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # --- ingest (scope `ingest`) -------------------------------------------------------------

    def ingest_reflections(
        self,
        files: ReflectionFile | Iterable[ReflectionFile],
        *,
        default_department: str | None = None,
    ) -> ImportSummary:
        """POST /reflections: files as they would sit in the workspace (their path decides the
        format). A refused file is in the answer's `rejected`, with its index; the others are
        imported."""
        body = [files] if isinstance(files, Mapping) else list(files)
        params = {"default_department": default_department} if default_department else None
        return cast(ImportSummary, self._request("POST", "/reflections", json=body, params=params))

    def ingest_retrievals(self, records: Iterable[Retrieval]) -> ImportSummary:
        """POST /retrievals: retrieval events (a record posted twice is `unchanged`)."""
        return cast(ImportSummary, self._request("POST", "/retrievals", json=list(records)))

    def ingest_tasks(self, records: Iterable[Task]) -> ImportSummary:
        """POST /tasks: finished tasks and their outcomes."""
        return cast(ImportSummary, self._request("POST", "/tasks", json=list(records)))

    def ingest_judgements(self, records: Iterable[Judgement]) -> JudgementCounts:
        """POST /judgements: a judge's suggested verdicts, all or nothing (a bad record raises
        BadRequest with its `record`, from 1, and `field`)."""
        return cast(JudgementCounts, self._request("POST", "/judgements", json=list(records)))

    def ingest_reflexion_run(
        self,
        name: str,
        files: Mapping[str, str],
        *,
        department: str | None = None,
        agent: str | None = None,
        started_at: date | str | None = None,
        trial_days: int | None = None,
    ) -> RunSummary:
        """POST /reflexion-runs: a run of the reference Reflexion implementation, whole (a
        programming run's one .jsonl, or an ALFWorld run's env_results_trial_<N>.json files)."""
        body: dict[str, Any] = {"name": name, "files": dict(files)}
        if department:
            body["department"] = department
        if agent:
            body["agent"] = agent
        if started_at is not None:
            body["started_at"] = (
                started_at.isoformat() if isinstance(started_at, date) else started_at
            )
        if trial_days is not None:
            body["trial_days"] = trial_days
        return cast(RunSummary, self._request("POST", "/reflexion-runs", json=body))

    # --- read (scope `retrieve`) -------------------------------------------------------------

    def retrieve(
        self,
        task: str,
        *,
        agent: str | None = None,
        task_type: str | None = None,
        department: str | None = None,
        k: int = 3,
        task_id: str | None = None,
        log: bool = True,
    ) -> RetrieveAnswer:
        """GET /retrieve: the top-k reflections to inject for `task`, best first. The answer
        is logged as retrieval events for `agent` (required unless `log=False`)."""
        params: dict[str, str | int] = {"task": task, "k": k, "log": "true" if log else "false"}
        for key, value in (
            ("agent", agent),
            ("task_type", task_type),
            ("department", department),
            ("task_id", task_id),
        ):
            if value:
                params[key] = value
        answer = self._request("GET", "/retrieve", params=params, idempotent=not log)
        return cast(RetrieveAnswer, answer)

    def changes_page(
        self, since: str | None = None, *, limit: int = 100, department: str | None = None
    ) -> ChangesPage:
        """GET /changes: one page of state changes after the cursor `since`."""
        params: dict[str, str | int] = {"limit": limit}
        if since:
            params["since"] = since
        if department:
            params["department"] = department
        return cast(ChangesPage, self._request("GET", "/changes", params=params))

    def changes(
        self, since: str | None = None, *, limit: int = 100, department: str | None = None
    ) -> ChangeFeed:
        """Every state change after `since` (from the first without it), oldest first,
        following the cursor page by page until the feed has no more. The feed's `cursor` is
        where to resume: after the last change handed out (the same cursor while nothing
        happens)."""
        return ChangeFeed(self, since, limit=limit, department=department)

    # --- one request, retried ----------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        json: object = None,
        idempotent: bool = True,
    ) -> Any:
        attempt = 0
        while True:
            try:
                response = self._http.request(method, path, params=params, json=json)
            except httpx.TransportError as exc:
                if attempt >= self.max_retries or not (idempotent or isinstance(exc, _NOT_SENT)):
                    raise ConnectionFailed(
                        f"{method} {path}: {type(exc).__name__}: {exc}"
                        + (f" (after {attempt} retries)" if attempt else "")
                    ) from exc
                wait, why = backoff(attempt), type(exc).__name__
            else:
                if response.is_success:
                    return response.json()
                status = response.status_code
                asked = retry_after_seconds(response.headers.get("Retry-After"))
                if (
                    attempt >= self.max_retries
                    or not should_retry(status, idempotent=idempotent)
                    or (asked is not None and asked > self.max_retry_wait)
                ):
                    raise error_for(
                        status, _detail(response), method=method, path=path, retry_after=asked
                    )
                wait, why = (asked if asked is not None else backoff(attempt)), str(status)
            logger.info("%s %s: %s; retrying in %.1f s", method, path, why, wait)
            self._sleep(wait)
            attempt += 1


class ChangeFeed(Iterator[Change]):
    """The change feed from a cursor on: iterating asks for the next page when one is used up
    and stops when the API says there are no more. `cursor` resumes after the last change
    handed out (`client.changes(since=feed.cursor)`)."""

    def __init__(
        self, client: Client, since: str | None, *, limit: int, department: str | None
    ) -> None:
        self.cursor = since
        self._client = client
        self._limit = limit
        self._department = department
        self._waiting: deque[Change] = deque()
        self._more = True

    def __iter__(self) -> ChangeFeed:
        return self

    def __next__(self) -> Change:
        while not self._waiting:
            if not self._more:
                raise StopIteration
            page = self._client.changes_page(
                self.cursor, limit=self._limit, department=self._department
            )
            self._waiting.extend(page["changes"])
            # A page that says "more" but holds nothing would ask for itself forever.
            self._more = page["more"] and bool(page["changes"])
            if not page["changes"]:
                self.cursor = page["next"]
        change = self._waiting.popleft()
        self.cursor = change["cursor"]
        return change


def _detail(response: httpx.Response) -> Any:
    """The API's explanation: its `detail` (a string, or django-ninja's list for a 422)."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:500] or response.reason_phrase
    return body.get("detail", body) if isinstance(body, dict) else body
