"""POST /reflections, /retrievals, /tasks: what an orchestrator posts as it happens, imported
by the same services, scanning and idempotence as the import commands."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja import Router

from api.answers import line_index, reflection_index, rejection, summary_answer
from api.schemas import BODY_REFUSALS, documented_refusals
from api.security import INGEST, BadBody, TooLarge, read_json
from reflections.importers.base import Rejection
from reflections.importers.workspace import SourceText, check_source_path
from reflections.services.batches import ImportSummary
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections

router = Router(tags=["ingest"], auth=INGEST)

_SUMMARY = {
    "type": "object",
    "properties": {
        "created": {"type": "integer"},
        "updated": {"type": "integer"},
        "unchanged": {"type": "integer"},
        "quarantined": {"type": "integer"},
        "rejected": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "index": {"type": ["integer", "null"]},
                    "path": {"type": "string"},
                    "line": {"type": ["integer", "null"]},
                    "field": {"type": ["string", "null"]},
                    "reason": {"type": "string"},
                },
            },
        },
    },
}
_FILE = {
    "type": "object",
    "required": ["path", "content"],
    "properties": {
        "path": {"type": "string", "example": "memory/reflections/2026-11-20-deploy.md"},
        "content": {"type": "string"},
    },
}


def _body(schema: dict) -> dict:
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}},
        "responses": {
            200: {"description": "OK", "content": {"application/json": {"schema": _SUMMARY}}},
            **documented_refusals(*BODY_REFUSALS),
        },
    }


def _as_list(body) -> list:
    items = body if isinstance(body, list) else [body]
    if len(items) > settings.API_MAX_ITEMS:
        raise TooLarge(f"at most {settings.API_MAX_ITEMS:,} items in one request")
    return items


@router.post(
    "/reflections",
    summary="Import reflection files given as text",
    openapi_extra=_body({"oneOf": [_FILE, {"type": "array", "items": _FILE}]}),
)
def post_reflections(request: HttpRequest, default_department: str | None = None):
    """One file or a list of files, each `{"path": <workspace-relative path>, "content":
    <file text>}`, in any of the four formats (a heuristic JSONL file: one line per item)."""
    items = _as_list(read_json(request))
    texts: list[SourceText] = []
    paths: dict[str, int] = {}  # path → its position in the request
    early: list[dict] = []
    for index, item in enumerate(items):
        path = item.get("path") if isinstance(item, dict) else None
        content = item.get("content") if isinstance(item, dict) else None
        shown = path if isinstance(path, str) else f"[{index}]"
        problem = (
            check_source_path(path)
            if isinstance(item, dict)
            else ("expected an object with path and content")
        )
        if problem is None and not isinstance(content, str):
            problem = "content: required, the file's text"
        if problem is None and path in paths:
            problem = "path: appears more than once in this request"
        if problem:
            early.append(rejection(index, Rejection(shown, None, problem)))
            continue
        paths[path] = index
        texts.append(SourceText(path, content.encode("utf-8", "surrogatepass")))
    try:
        summary = import_reflections(texts=texts, default_department=default_department or None)
    except ValueError as exc:  # an invalid default department
        raise BadBody(str(exc)) from None
    answer = summary_answer(summary, reflection_index(paths))
    if early:
        # Masked like the rest: a path can hold a token too.
        masked = ImportSummary(rejected=[Rejection(e["path"], None, e["reason"]) for e in early])
        masked.withhold_unsafe()
        answer["rejected"] = [
            {**e, "path": m.path, "reason": m.reason}
            for e, m in zip(early, masked.rejected, strict=True)
        ] + answer["rejected"]
    return answer


_RETRIEVAL = {
    "type": "object",
    "required": ["reflection", "retrieved_at", "task_id", "agent"],
    "properties": {
        "reflection": {"type": "string", "description": "source path, content hash or id"},
        "retrieved_at": {"type": "string", "format": "date-time"},
        "task_id": {"type": "string"},
        "agent": {"type": "string"},
        "department": {"type": "string"},
        "rank": {"type": "integer"},
        "score": {"type": "number"},
    },
}
_TASK = {
    "type": "object",
    "required": ["task_id", "agent", "department", "task_type", "finished_at", "outcome"],
    "properties": {
        "task_id": {"type": "string"},
        "agent": {"type": "string"},
        "department": {"type": "string"},
        "task_type": {"type": "string"},
        "finished_at": {"type": "string", "format": "date-time"},
        "outcome": {"type": "string", "enum": ["success", "partial", "failure"]},
        "failure_mode": {"type": "string"},
        "confidence_at_start": {"type": "number"},
        "reflections_injected": {"type": "array", "items": {"type": "string"}},
        "tools_used": {"type": "array", "items": {"type": "string"}},
    },
}


def _events(request: HttpRequest, kind: str) -> dict:
    records = _as_list(read_json(request))
    label = f"API {kind}s ({request.api_token.name})"
    summary = import_events(records=[(label, kind, records)])
    return summary_answer(summary, line_index)


@router.post(
    "/retrievals",
    summary="Import retrieval events",
    openapi_extra=_body({"type": "array", "items": _RETRIEVAL, "maxItems": 10_000}),
)
def post_retrievals(request: HttpRequest):
    """A list of retrieval events with the retrieval log's fields."""
    return _events(request, "retrieval")


@router.post(
    "/tasks",
    summary="Import task outcomes",
    openapi_extra=_body({"type": "array", "items": _TASK, "maxItems": 10_000}),
)
def post_tasks(request: HttpRequest):
    """A list of task outcomes with the task log's fields."""
    return _events(request, "task")
