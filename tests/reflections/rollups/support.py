"""What the rollup tests share: log lines and tasks to import, and each rollup next to a recount."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

from reflections.models import (
    Agent,
    Department,
    Reflection,
    RetrievalDay,
    RetrievalEvent,
    RetrievalFlowDay,
    TaskInjection,
    TaskRun,
)
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
FINANCE = "memory/reflexions/2026-05/14-fin-20260514-0031.md"  # by finance-agent
SALES = "memory/reflexions/2026-05/21-sal-20260521-0107.md"  # by sales-agent


def imported_samples(tmp_path, samples) -> Path:
    """The sample inputs' reflections, with an empty retrieval log the tests write to."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    for log in (ws / "logs").iterdir():
        log.unlink()
    import_reflections(create_departments=True, paths=[ws], default_department="research", now=NOW)
    return ws


def line(reflection: str, at: str, task: str, agent: str = "finance-agent") -> dict:
    return {"reflection": reflection, "retrieved_at": at, "task_id": task, "agent": agent}


def append(ws: Path, *lines: dict) -> None:
    log = ws / "logs" / "retrievals.jsonl"
    with log.open("a") as f:
        for item in lines:
            f.write(json.dumps(item) + "\n")


def import_log(ws: Path):
    return import_events(create_departments=True, paths=[ws / "logs" / "retrievals.jsonl"], now=NOW)


def recount() -> dict[tuple[int, date, int], tuple[int, int]]:
    """(reflection, UTC day, department) → (retrievals, cross-agent), counted in Python."""
    authors = dict(Reflection.objects.values_list("id", "agent_id"))
    departments = dict(Reflection.objects.values_list("id", "department_id"))
    total: Counter = Counter()
    cross: Counter = Counter()
    for reflection_id, at, agent_id in RetrievalEvent.objects.values_list(
        "reflection_id", "retrieved_at", "agent_id"
    ):
        key = (reflection_id, at.astimezone(UTC).date(), departments[reflection_id])
        total[key] += 1
        author = authors[reflection_id]
        cross[key] += author is not None and agent_id != author
    return {key: (n, cross[key]) for key, n in total.items()}


def rollup() -> dict[tuple[int, date, int], tuple[int, int]]:
    return {
        (r, day, dept): (n, c)
        for r, day, dept, n, c in RetrievalDay.objects.values_list(
            "reflection_id", "day", "department_id", "retrievals", "cross_agent"
        )
    }


def days_of(source_path: str) -> dict[date, tuple[int, int]]:
    return {
        day: (n, c)
        for day, n, c in RetrievalDay.objects.filter(
            reflection__source_path=source_path
        ).values_list("day", "retrievals", "cross_agent")
    }


def task(task_id: str, outcome: str, agent: str = "finance-agent", dept: str = "finance") -> dict:
    return {
        "task_id": task_id,
        "agent": agent,
        "department": dept,
        "task_type": "reconciliation",
        "finished_at": "2026-05-29T12:00:00Z",
        "outcome": outcome,
    }


def write_tasks(ws: Path, *tasks: dict) -> Path:
    """The task log, as it is now: a later write states the tasks' outcomes afresh."""
    log = ws / "logs" / "tasks.jsonl"
    log.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return log


def import_tasks(ws: Path):
    return import_events(create_departments=True, paths=[ws / "logs" / "tasks.jsonl"], now=NOW)


def useful_recount() -> dict[int, int]:
    """Reflection → retrievals whose task succeeded, counted in Python."""
    succeeded = set(TaskRun.objects.filter(outcome="success").values_list("task_id", flat=True))
    counts = Counter(
        reflection_id
        for reflection_id, task_id in RetrievalEvent.objects.values_list("reflection_id", "task_id")
        if task_id in succeeded
    )
    return {pk: counts[pk] for pk in Reflection.objects.values_list("id", flat=True)}


def useful() -> dict[int, int]:
    return dict(Reflection.objects.values_list("id", "useful_retrieval_count"))


def flows_recount() -> dict[tuple[date, int | None, int], int]:
    """(UTC day, retriever's department, reflection's department) → retrievals, in Python."""
    agents = dict(Agent.objects.values_list("id", "department_id"))
    departments = dict(Reflection.objects.values_list("id", "department_id"))
    counts: Counter = Counter()
    for reflection_id, at, agent_id, department_id in RetrievalEvent.objects.values_list(
        "reflection_id", "retrieved_at", "agent_id", "department_id"
    ):
        retriever = department_id or agents[agent_id]
        counts[(at.astimezone(UTC).date(), retriever, departments[reflection_id])] += 1
    return dict(counts)


def flows() -> dict[tuple[date, int | None, int], int]:
    return {
        (day, src, dst): n
        for day, src, dst, n in RetrievalFlowDay.objects.values_list(
            "day", "retriever_department_id", "reflection_department_id", "retrievals"
        )
    }


def useful_of(source_path: str) -> int:
    return Reflection.objects.get(source_path=source_path).useful_retrieval_count


def dept(slug: str) -> int:
    return Department.objects.get(slug=slug).pk


RETRIEVALS = (
    line(FINANCE, "2026-05-20T09:12:00Z", "ok1"),
    line(FINANCE, "2026-05-20T10:00:00Z", "bad"),
    line(FINANCE, "2026-05-21T10:00:00Z", "gone"),  # no such task: never useful
    line(FINANCE, "2026-05-21T11:00:00Z", "ok2", agent="sales-agent"),
    {**line(SALES, "2026-05-28T08:03:00Z", "ok1", agent="delivery-agent"), "department": "finance"},
)
TASKS = (task("ok1", "success"), task("ok2", "success"), task("bad", "failure"))


def injected(task_id: str, *reflections: str, outcome: str = "success") -> dict:
    return {**task(task_id, outcome), "reflections_injected": list(reflections)}


def injections_recount() -> dict[int, int]:
    """Reflection → tasks it was injected into, counted in Python."""
    counts = Counter(TaskInjection.objects.values_list("reflection_id", flat=True))
    return {pk: counts[pk] for pk in Reflection.objects.values_list("id", flat=True)}


def injections() -> dict[int, int]:
    return dict(Reflection.objects.values_list("id", "injection_count"))


def injections_of(source_path: str) -> int:
    return Reflection.objects.get(source_path=source_path).injection_count
