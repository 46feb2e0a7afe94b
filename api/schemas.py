"""The shapes of the API's answers, for the OpenAPI schema and for checking what is sent: the
retrieve answer, the change feed's page, and the one error body every refusal uses."""

from __future__ import annotations

from datetime import datetime

from ninja import Schema


class Error(Schema):
    """Every refusal: what to change, in one sentence that names the field when there is one."""

    detail: str


# The statuses every endpoint behind a token can answer besides its own.
REFUSALS = {400: Error, 401: Error, 403: Error, 429: Error}


class RetrievedReflection(Schema):
    rank: int
    id: int
    source_path: str
    external_id: str
    content_hash: str
    state: str
    score: float
    multiplier: float
    reasons: list[str]
    title: str
    body: str
    department: str
    agent: str


class RetrieveAnswer(Schema):
    task_id: str  # the caller's task id, or the one the server made up for this answer
    reflections: list[RetrievedReflection]
    logged: int  # retrieval events written by this call (0 for a replayed or unlogged one)


class ChangedReflection(Schema):
    id: int
    source_path: str
    external_id: str
    content_hash: str
    department: str


class Change(Schema):
    cursor: str
    at: datetime
    reflection: ChangedReflection
    from_state: str
    to_state: str
    evict: bool
    by: str
    reason: str


class ChangesPage(Schema):
    changes: list[Change]
    next: str | None
    more: bool
