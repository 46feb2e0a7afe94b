"""The errors the client raises: one class per kind of refusal, each carrying the status and
the API's own words (and, when the API names them, the field, record and line to fix)."""

from __future__ import annotations

import re
from typing import Any

# "since: not a cursor this server gave" — a reason that starts with a field names it.
_FIELD = re.compile(r"^([a-z_]+(?:\[\d+\])?): ")
# "API (orchestrator), record 2: verdict: …" (judgements) and "run.jsonl, line 3: …" (runs).
_RECORD = re.compile(r", record (\d+): ")
_LINE = re.compile(r", line (\d+): ")


class ReflexionReviewError(Exception):
    """Anything the client raises."""


class ConnectionFailed(ReflexionReviewError):
    """The server could not be reached (or stopped answering) after every retry."""


class ApiError(ReflexionReviewError):
    """The API refused the request. `detail` is its message (for a 422, django-ninja's
    validation errors); `field`, `record` (from 1) and `line` are set when the message names
    them. Neither the message nor the repr ever holds the token: requests carry it in a
    header, and no header is kept here."""

    status: int
    detail: Any
    method: str
    path: str
    field: str | None
    record: int | None
    line: int | None

    def __init__(self, status: int, detail: Any, *, method: str = "", path: str = ""):
        self.status = status
        self.detail = detail
        self.method = method
        self.path = path
        self.field, self.record, self.line = _where(detail)
        super().__init__(status, detail)

    def __str__(self) -> str:
        request = f"{self.method} {self.path}: " if self.method else ""
        return f"{request}{self.status} {self.detail}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, detail={self.detail!r})"


class BadRequest(ApiError):
    """400 (a field the API names is wrong) or 422 (a missing or mistyped parameter)."""


class Unauthorized(ApiError):
    """401: no token, or an unknown, revoked or expired one."""


class Forbidden(ApiError):
    """403: the token's scope is not the one this endpoint needs."""


class TooLarge(ApiError):
    """413: the body or the number of items is over the server's limit; send smaller batches."""


class RateLimited(ApiError):
    """429 that outlasted the retries (or asked to wait longer than the client may);
    `retry_after` is the wait the server asked for, in seconds, when it said."""

    retry_after: float | None

    def __init__(self, status: int, detail: Any, *, retry_after: float | None = None, **kw: str):
        super().__init__(status, detail, **kw)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx: the server failed (after the retries, for those worth retrying)."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    413: TooLarge,
    422: BadRequest,
}


def error_for(
    status: int, detail: Any, *, method: str, path: str, retry_after: float | None = None
) -> ApiError:
    """The exception for a refused request, by its status."""
    if status == 429:
        return RateLimited(status, detail, retry_after=retry_after, method=method, path=path)
    kind = _BY_STATUS.get(status) or (ServerError if status >= 500 else ApiError)
    return kind(status, detail, method=method, path=path)


def _where(detail: Any) -> tuple[str | None, int | None, int | None]:
    """The field, record and line a 400's message names."""
    if not isinstance(detail, str):
        return None, None, None
    record = _RECORD.search(detail)
    line = _LINE.search(detail)
    ends = [found.end() for found in (record, line) if found]
    rest = detail[max(ends) :] if ends else detail
    field = _FIELD.match(rest)
    return (
        field.group(1) if field else None,
        int(record.group(1)) if record else None,
        int(line.group(1)) if line else None,
    )
