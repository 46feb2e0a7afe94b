"""The shapes of the API's answers, for the OpenAPI schema and for checking what is sent: the
retrieve answer, the change feed's page, and the one error body every refusal uses."""

from __future__ import annotations

from datetime import datetime

from ninja import Schema


class Error(Schema):
    """Every refusal: what to change, in one sentence that names the field when there is one."""

    detail: str


class Invalid(Schema):
    """A 422: django-ninja's validation of a parameter's type (a list of problems, each with
    where and what), or a sentence for a well-formed request the server will not carry out."""

    detail: str | list[dict]


# The statuses every endpoint behind a token can answer besides its own.
REFUSALS = {400: Error, 401: Error, 403: Error, 422: Invalid, 429: Error}

_ERROR_JSON = {
    "type": "object",
    "required": ["detail"],
    "properties": {"detail": {"type": "string"}},
}
_INVALID_JSON = {
    "type": "object",
    "required": ["detail"],
    "properties": {
        "detail": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]}
    },
}
_WHY = {
    400: "the body or a parameter is not what the endpoint takes; `detail` names the field",
    401: "no token, or an unknown, revoked or expired one",
    403: "a token of the other scope",
    411: "a chunked body the server in front did not decode",
    413: "the body is over API_MAX_REQUEST_BYTES or holds over API_MAX_ITEMS items",
    422: "a parameter of the wrong type",
    429: "over the token's rate limit; wait Retry-After seconds",
}


def documented_refusals(*codes: int) -> dict:
    """OpenAPI `responses` entries for the refusals of an endpoint that reads its own body
    (its openapi_extra), in the shape every refusal has."""
    return {
        code: {
            "description": _WHY[code],
            "content": {
                "application/json": {"schema": _INVALID_JSON if code == 422 else _ERROR_JSON}
            },
        }
        for code in codes
    }


# What an endpoint that reads a JSON body can refuse.
BODY_REFUSALS = (400, 401, 403, 411, 413, 422, 429)


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
