"""POST /judgements: a judge's pre-tags, imported by the same service as `import_judgements`."""

from __future__ import annotations

from dataclasses import asdict

from django.conf import settings
from django.http import HttpRequest
from ninja import Router

from api.schemas import BODY_REFUSALS, documented_refusals
from api.security import INGEST, BadBody, TooLarge, read_json
from reviews.services.judgements import JudgementError, import_judgements

router = Router(tags=["ingest"], auth=INGEST)

_JUDGEMENT = {
    "type": "object",
    "required": ["reflection", "verdict", "confidence", "judge"],
    "properties": {
        "reflection": {"type": "string", "description": "id or source path"},
        "verdict": {"type": "string", "enum": ["keep", "echo_chamber", "outdated", "duplicate"]},
        "duplicate_of": {"type": "string", "description": "id or source path"},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "judge": {"type": "string"},
    },
}


@router.post(
    "/judgements",
    summary="Import a judge's suggested verdicts",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "array", "items": _JUDGEMENT, "maxItems": 10_000}
                }
            },
        },
        "responses": documented_refusals(*BODY_REFUSALS),
    },
)
def post_judgements(request: HttpRequest):
    """A list of judgements; all or nothing: a bad record refuses the request with the record's
    position and field, and posting the same list again changes nothing."""
    body = read_json(request)
    records = body if isinstance(body, list) else [body]
    if len(records) > settings.API_MAX_ITEMS:
        raise TooLarge(f"at most {settings.API_MAX_ITEMS:,} items in one request")
    if not all(isinstance(r, dict) for r in records):
        raise BadBody("expected a list of objects")
    try:
        counts = import_judgements(records, source=f"API ({request.api_token.name})")
    except JudgementError as exc:
        # "API (name), line N: field: reason": N is the record's position, from 1.
        raise BadBody(str(exc).replace(", line ", ", record ", 1)) from None
    return asdict(counts)
