"""POST /reflexion-runs: a run of the reference Reflexion implementation, imported by the same
service as `import_reflexion_run`."""

from __future__ import annotations

from datetime import date, timedelta

from django.http import HttpRequest
from ninja import Router

from api.schemas import BODY_REFUSALS, documented_refusals
from api.security import INGEST, BadBody, read_json
from reflections.importers.base import ParseError
from reflections.services.reflexion_run_import import (
    DEFAULT_STARTED_AT,
    MAX_TRIAL_DAYS,
    RunError,
    RunOptions,
    import_reflexion_run,
    read_run_texts,
    started_at_of,
)

router = Router(tags=["ingest"], auth=INGEST)

_RUN = {
    "type": "object",
    "required": ["name", "files"],
    "properties": {
        "name": {
            "type": "string",
            "description": "a programming run's file name, or an ALFWorld run's folder name",
            "example": "humaneval-py..gz_reflexion_5_gpt-4_pass_at_k_1_py.jsonl",
        },
        "files": {
            "type": "object",
            "description": "file name → text: the one .jsonl, or env_results_trial_<N>.json",
            "additionalProperties": {"type": "string"},
        },
        "department": {"type": "string"},
        "agent": {"type": "string"},
        "started_at": {"type": "string", "format": "date"},
        "trial_days": {"type": "integer", "minimum": 1, "maximum": MAX_TRIAL_DAYS, "default": 7},
    },
}


@router.post(
    "/reflexion-runs",
    summary="Import a Reflexion run",
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": _RUN}}},
        "responses": documented_refusals(*BODY_REFUSALS),
    },
)
def post_reflexion_run(request: HttpRequest):
    """One run, all or nothing: a bad line refuses it with the file, line and field; posting
    the same run again changes nothing."""
    body = read_json(request)
    if not isinstance(body, dict):
        raise BadBody("expected an object with name and files")
    name, files = body.get("name"), body.get("files")
    if not isinstance(name, str) or not name.strip():
        raise BadBody("name: required, the run's file or folder name")
    if (
        not isinstance(files, dict)
        or not files
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
    ):
        raise BadBody("files: required, an object of file name → text")
    try:
        days = int(body.get("trial_days", 7))
        if not 1 <= days <= MAX_TRIAL_DAYS:
            raise ValueError(f"trial_days: a whole number from 1 to {MAX_TRIAL_DAYS}")
        started = body.get("started_at")
        options = RunOptions(
            department=str(body.get("department") or ""),
            agent=str(body.get("agent") or ""),
            started_at=started_at_of(date.fromisoformat(started))
            if started
            else DEFAULT_STARTED_AT,
            trial_interval=timedelta(days=days),
        )
    except (TypeError, ValueError, OverflowError) as exc:
        raise BadBody(str(exc)) from None
    try:
        run, digest = read_run_texts(name.strip(), files)
    except RunError as exc:
        raise BadBody(str(exc)) from None
    except ParseError as exc:
        line = f", line {exc.line}" if exc.line else ""
        raise BadBody(f"{name}{line}: {exc.reason}") from None
    try:
        summary = import_reflexion_run(run, digest, options=options)
    except RunError as exc:  # another run under a name already taken
        raise BadBody(str(exc)) from None
    return {
        "run": summary.run,
        "created": summary.created,
        "problems": summary.problems,
        "solved_by_trial": summary.solved_by_trial,
        "notes": summary.notes,
        "reflections": {
            "created": summary.reflections.created,
            "unchanged": summary.reflections.unchanged,
        },
    }
