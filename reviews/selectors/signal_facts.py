"""The facts the outdated and duplicate signals are scored from (reviews.signals; the
echo-chamber facts are in echo_facts.py): one selector per signal, each a handful of
aggregate queries over index ranges, whatever the volume of events.

Everything is read as of the cycle's window end: a signal says what a reviewer could have
known when the window closed, so reopening an old cycle gives the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max, Min, Q

from reflections.models import Neighbour, Reflection, TaskRun
from reviews.models import ReviewItem

# How far back the department's task log is read for a tool's history.
TOOL_HISTORY_DAYS = 365


# ------------------------------------------------------------------ outdated


@dataclass(frozen=True)
class ToolUse:
    """One tool in the department's task log, up to the window's end."""

    name: str  # lowercased
    tasks: int
    first: datetime
    last: datetime


@dataclass(frozen=True)
class OutdatedFacts:
    named: list[str]  # tools the reflection names, lowercased, in order
    until: datetime  # the window's end: "now" for this signal
    history: dict[str, ToolUse]  # every tool of the department's tasks, by name
    named_by_newer: dict[str, int]  # tool → newer reflections of the department naming it


def tool_history(department_id: int, until: datetime) -> dict[str, ToolUse]:
    """Per tool: how many of the department's tasks used it, first and last, in the year
    before `until` (one query: tasks grouped by their list of tools, a few dozen rows)."""
    rows = (
        TaskRun.objects.filter(
            department_id=department_id,
            finished_at__gte=until - timedelta(days=TOOL_HISTORY_DAYS),
            finished_at__lt=until,
        )
        .values("tools_used")
        .annotate(n=Count("id"), first=Min("finished_at"), last=Max("finished_at"))
        .order_by()
    )
    history: dict[str, ToolUse] = {}
    for row in rows:
        for raw in row["tools_used"] or []:
            if not isinstance(raw, str) or not raw.strip():
                continue
            name = raw.strip().lower()
            seen = history.get(name)
            if seen is None:
                history[name] = ToolUse(name, row["n"], row["first"], row["last"])
            else:
                history[name] = ToolUse(
                    name,
                    seen.tasks + row["n"],
                    min(seen.first, row["first"]),
                    max(seen.last, row["last"]),
                )
    return history


def outdated_facts(
    item: ReviewItem, *, history: dict[str, ToolUse] | None = None, successors=None
) -> OutdatedFacts:
    """What the outdated signal weighs: the tools the reflection names, the department's tool
    history, and how many newer reflections name each possible successor.

    `history` may be passed in when scoring a whole cycle (one department, one window end);
    `successors(named, history, until)` says which tools to count in newer reflections."""
    reflection, until = item.reflection, item.cycle.window_end
    named = [
        t.strip().lower()
        for t in dict.fromkeys(reflection.tools or [])
        if isinstance(t, str) and t.strip()
    ]
    if history is None:
        history = tool_history(reflection.department_id, until)
    candidates = successors(named, history, until) if (successors and named) else []
    named_by_newer: dict[str, int] = {}
    if candidates:
        since = min(start for _, start in candidates)
        counts = Reflection.objects.filter(
            department_id=reflection.department_id,
            created_at__gte=since,
            created_at__lt=until,
        ).aggregate(
            **{
                f"t{i}": Count("id", filter=Q(tools__icontains=f'"{name}"'))
                for i, (name, _) in enumerate(candidates)
            }
        )
        named_by_newer = {name: counts[f"t{i}"] for i, (name, _) in enumerate(candidates)}
    return OutdatedFacts(named=named, until=until, history=history, named_by_newer=named_by_newer)


# ------------------------------------------------------------------ duplicate


@dataclass(frozen=True)
class Twin:
    """The reviewed reflection or one of its close neighbours, as the keep rule reads it."""

    key: str  # source path
    reflection_id: int
    state: str
    created_at: datetime
    retrievals: int
    similarity: float  # to the reviewed reflection (1.0 for itself)
    text: str = ""  # title and body: what the duplicate rule reads names and figures from
    lift: float | None = None
    kind: str = ""  # failure, partial, success or decision ("" when not read)
    task: str = ""  # the task it reflects on ("" when unknown)


# What a Twin is made of, beside the similarity.
TWIN_FIELDS = (
    "source_path",
    "state",
    "created_at",
    "retrieval_count",
    "title",
    "body",
    "kind",
    "task_id",
)


def _twin(reflection: Reflection, similarity: float, key: str) -> Twin:
    return Twin(
        key=key,
        reflection_id=reflection.pk,
        state=reflection.state,
        created_at=reflection.created_at,
        retrievals=reflection.retrieval_count,
        similarity=similarity,
        text=f"{reflection.title}\n{reflection.body}",
        kind=reflection.kind,
        task=reflection.task_id or "",
    )


def duplicate_cluster(item: ReviewItem, *, similarity: float) -> list[Twin]:
    """The reviewed reflection and its stored neighbours at or above `similarity` that
    existed when the window closed, quarantined ones left out (one query)."""
    reflection = item.reflection
    rows = (
        Neighbour.objects.filter(reflection_id=reflection.pk, similarity__gte=similarity)
        .exclude(neighbour__state="quarantined")
        .exclude(neighbour__created_at__gte=item.cycle.window_end)
        .select_related("neighbour")
        .only("similarity", *(f"neighbour__{name}" for name in TWIN_FIELDS))
        .order_by("rank", "neighbour_id")
    )
    own = _twin(reflection, 1.0, reflection.shown_path)
    return [own] + [_twin(r.neighbour, r.similarity, r.neighbour.source_path) for r in rows]


def cluster_of_candidates(item: ReviewItem, candidates, *, similarity: float) -> list[Twin]:
    """duplicate_cluster from the neighbours the queue has read already
    (reviews.selectors.evidence.neighbour_candidates: quarantined ones left out), no query."""
    reflection = item.reflection
    own = _twin(reflection, 1.0, reflection.shown_path)
    return [own] + [
        _twin(c.reflection, c.similarity, c.reflection.source_path)
        for c in candidates
        if c.similarity >= similarity and c.reflection.created_at < item.cycle.window_end
    ]
