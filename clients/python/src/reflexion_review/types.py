"""The shapes of what the API takes and answers (docs/api.md), as TypedDicts: plain dicts at
run time, checked by a type checker."""

from __future__ import annotations

from typing import Literal, TypedDict

Verdict = Literal["keep", "echo_chamber", "outdated", "duplicate"]
Outcome = Literal["success", "partial", "failure"]
State = Literal["active", "promoted", "archived", "deprecated", "quarantined"]


# --- What the ingest endpoints take ------------------------------------------------------


class ReflectionFile(TypedDict):
    """A reflection file as it would sit in the workspace: its relative path decides its
    format and is its identity."""

    path: str
    content: str


class _RetrievalRequired(TypedDict):
    reflection: str  # source path, content hash or id
    retrieved_at: str  # ISO 8601 date-time
    task_id: str
    agent: str


class Retrieval(_RetrievalRequired, total=False):
    """One retrieval event, with the retrieval log's fields."""

    department: str
    rank: int
    score: float


class _TaskRequired(TypedDict):
    task_id: str
    agent: str
    department: str
    task_type: str
    finished_at: str  # ISO 8601 date-time
    outcome: Outcome


class Task(_TaskRequired, total=False):
    """One finished task, with the task log's fields."""

    failure_mode: str
    confidence_at_start: float
    reflections_injected: list[str]
    tools_used: list[str]


class _JudgementRequired(TypedDict):
    reflection: str  # id or source path
    verdict: Verdict
    confidence: float  # 0 to 1
    judge: str


class Judgement(_JudgementRequired, total=False):
    """A judge's suggested verdict on one reflection."""

    duplicate_of: str  # id or source path, for a duplicate verdict


# --- What they answer ----------------------------------------------------------------------


class Rejection(TypedDict):
    """An item the import refused; the rest of the batch was imported."""

    index: int | None  # the item's position in the request, from 0
    path: str
    line: int | None  # the line inside a heuristic JSONL file or a log
    field: str | None  # the field the reason names
    reason: str


class Notice(TypedDict):
    """Something an import accepted but a person should look at (an unknown section kept)."""

    path: str
    line: int | None
    message: str


class KindCounts(TypedDict):
    created: int
    updated: int
    unchanged: int


class _SummaryRequired(TypedDict):
    created: int
    updated: int
    unchanged: int
    quarantined: int
    rejected: list[Rejection]


class ImportSummary(_SummaryRequired, total=False):
    """What POST /reflections, /retrievals and /tasks answer (the import commands' --json);
    the event imports add per-kind counts (`retrievals`, `tasks`), and `warnings` appear
    only when there are some."""

    retrievals: KindCounts
    tasks: KindCounts
    warnings: list[Notice]


class JudgementCounts(TypedDict):
    """What POST /judgements answers."""

    created: int
    updated: int
    unchanged: int


class RunReflections(TypedDict):
    created: int
    unchanged: int


class RunSummary(TypedDict):
    """What POST /reflexion-runs answers."""

    run: str
    created: bool
    problems: int
    solved_by_trial: list[int]
    reflections: RunReflections


class RetrievedReflection(TypedDict):
    """One of the top-k reflections for a task, best first."""

    rank: int
    id: int
    source_path: str
    external_id: str
    content_hash: str
    state: State
    score: float
    multiplier: float
    reasons: list[str]
    title: str
    body: str
    department: str
    agent: str


class RetrieveAnswer(TypedDict):
    """What GET /retrieve answers; `logged` counts the retrieval events it recorded."""

    reflections: list[RetrievedReflection]
    logged: int


class ChangedReflection(TypedDict):
    id: int
    source_path: str  # masked for a quarantined reflection
    external_id: str
    content_hash: str
    department: str


class Change(TypedDict):
    """One state change of a reflection, from the change feed. A runtime drops the
    reflection when `evict` is true (to deprecated or quarantined)."""

    cursor: str  # resume after this change
    at: str  # ISO 8601 date-time
    reflection: ChangedReflection
    from_state: State
    to_state: State
    evict: bool
    by: str
    reason: str


class ChangesPage(TypedDict):
    """One answer of GET /changes."""

    changes: list[Change]
    next: str | None
    more: bool
