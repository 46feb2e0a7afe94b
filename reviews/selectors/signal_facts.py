"""The facts the outdated and duplicate signals are scored from (reviews.signals; the
echo-chamber facts are in echo_facts.py): one selector per signal, each a handful of
aggregate queries over index ranges, whatever the volume of events.

Everything is read as of the cycle's window end: a signal says what a reviewer could have
known when the window closed, so reopening an old cycle gives the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.db.models import Count, Max, Min, Q

from reflections.models import Neighbour, Reflection, State, TaskRun
from reflections.similarity.text import document_text
from reflections.tool_names import ToolMatcher, family_of, key_of
from reviews.models import ReviewItem

# How far back the department's task log is read for a tool's history.
TOOL_HISTORY_DAYS = 365


# ------------------------------------------------------------------ outdated


@dataclass(frozen=True)
class ToolUse:
    """One tool in the department's task log, up to the window's end (a versioned tool's
    family, "ledger api" for `ledger-api-v1` and `ledger-api-v2`, is one more ToolUse with
    every version's tasks)."""

    name: str  # as the task log spells it (its first spelling read)
    tasks: int
    first: datetime
    last: datetime
    key: str = ""  # reflections.tool_names.key_of(name)
    # How many of those tasks were of each task type: what the tool is used for.
    task_types: dict[str, int] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class ToolHistory:
    """The department's tools: when its tasks used each one, and the vocabulary a reflection's
    text is matched against (the task log's names, and the names reflections of the department
    carry in their own `tools` and `skills` fields)."""

    uses: dict[str, ToolUse]  # by key
    matcher: ToolMatcher

    def get(self, key: str) -> ToolUse | None:
        return self.uses.get(key)


@dataclass(frozen=True)
class OutdatedFacts:
    named: list[str]  # keys of the tools the reflection names, in order
    created_at: datetime  # when the reflection was written
    until: datetime  # the window's end: "now" for this signal
    history: ToolHistory
    # successor key → (newer reflections of the department naming it, newer reflections in all)
    named_by_newer: dict[str, tuple[int, int]] = field(default_factory=dict)


def _task_tools(department_id: int, until: datetime) -> dict[str, ToolUse]:
    """Per tool key: how many of the department's tasks used it, first and last, and of which
    task types, in the year before `until` (one query: tasks grouped by their list of tools
    and task type, a few hundred rows)."""
    rows = (
        TaskRun.objects.filter(
            department_id=department_id,
            finished_at__gte=until - timedelta(days=TOOL_HISTORY_DAYS),
            finished_at__lt=until,
        )
        .values("tools_used", "task_type")
        .annotate(n=Count("id"), first=Min("finished_at"), last=Max("finished_at"))
        .order_by()
    )
    uses: dict[str, ToolUse] = {}
    families: dict[str, ToolUse] = {}
    for row in rows:
        for raw in dict.fromkeys(row["tools_used"] or []):
            if not isinstance(raw, str) or not (key := key_of(raw)):
                continue
            types = {row["task_type"] or "": row["n"]}
            use = ToolUse(raw.strip(), row["n"], row["first"], row["last"], key, types)
            uses[key] = _merged(uses.get(key), use)
    for key, use in uses.items():
        family = family_of(key)
        if family and family not in uses:
            families[family] = _merged(families.get(family), replace(use, name=family, key=family))
    return uses | families


def _merged(seen: ToolUse | None, use: ToolUse) -> ToolUse:
    if seen is None:
        return use
    types = dict(seen.task_types)
    for task_type, n in use.task_types.items():
        types[task_type] = types.get(task_type, 0) + n
    return replace(
        seen,
        tasks=seen.tasks + use.tasks,
        first=min(seen.first, use.first),
        last=max(seen.last, use.last),
        task_types=types,
    )


def tool_history(department_id: int, until: datetime) -> ToolHistory:
    """The department's tool history and vocabulary as of `until` (two queries)."""
    uses = _task_tools(department_id, until)
    carried: set[str] = set()
    for tools, skills in Reflection.objects.filter(
        department_id=department_id, created_at__lt=until
    ).values_list("tools", "skills"):
        carried.update(t for t in (tools or []) + (skills or []) if isinstance(t, str))
    names = [*(u.name for u in uses.values()), *carried]
    return ToolHistory(uses, ToolMatcher(names, aliases=_aliases(carried, uses)))


def _aliases(carried: set[str], uses: dict[str, ToolUse]) -> dict[str, str]:
    """A one-word name reflections carry in their own fields that no task used, which is the
    first word of exactly one tool of the task log: how the agents call that tool (`medstock`
    for `medstock-classic`). Two tools that start with it leave it unresolved."""
    aliases = {}
    for raw in carried:
        key = key_of(raw)
        if not key or " " in key or key in uses:
            continue
        tools = [k for k in uses if k.split(" ")[0] == key]
        if len(tools) == 1:
            aliases[key] = tools[0]
    return aliases


def named_tools(reflection: Reflection, history: ToolHistory) -> list[str]:
    """The keys of the tools a reflection names: in its text, in any written form, and in its
    own `tools` and `skills` fields."""
    found = history.matcher.keys_in(f"{reflection.title}\n{reflection.body}")
    for raw in [*(reflection.tools or []), *(reflection.skills or [])]:
        key = history.matcher.key_for(raw) if isinstance(raw, str) else None
        if key and key not in found:
            found.append(key)
    return found


def outdated_facts(
    item: ReviewItem, *, history: ToolHistory | None = None, successors=None
) -> OutdatedFacts:
    """What the outdated signal weighs: the tools the reflection names, the department's tool
    history, and how many newer reflections name each possible successor.

    `history` may be passed in when scoring a whole cycle (one department, one window end);
    `successors(named, facts)` says which (successor key, since) pairs to count in newer
    reflections."""
    reflection, until = item.reflection, item.cycle.window_end
    if history is None:
        history = tool_history(reflection.department_id, until)
    facts = OutdatedFacts(
        named=named_tools(reflection, history),
        created_at=reflection.created_at,
        until=until,
        history=history,
    )
    candidates = successors(facts) if (successors and facts.named) else []
    if not candidates:
        return facts
    return replace(facts, named_by_newer=_named_by_newer(reflection, candidates, history, until))


def _named_by_newer(reflection, candidates, history: ToolHistory, until) -> dict:
    """successor key → (reflections of the department written since the old tool's last use
    that name it, all reflections written since): one query per successor, its longest word
    as a first sieve, the matcher deciding."""
    found = {}
    for key, since in candidates:
        newer = Reflection.objects.filter(
            department_id=reflection.department_id, created_at__gte=since, created_at__lt=until
        ).exclude(state=State.QUARANTINED)
        word = max(key.split(" "), key=len)
        sieve = newer.filter(
            Q(title__icontains=word)
            | Q(body__icontains=word)
            | Q(tools__icontains=word)
            | Q(skills__icontains=word)
        )
        naming = sum(
            key in named_tools(r, history) for r in sieve.only("title", "body", "tools", "skills")
        )
        found[key] = (naming, newer.count())
    return found


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
    # What the duplicate rule reads names and figures from: the text it is compared by
    # (reflections.similarity.document_text), so not a problem statement it only quotes.
    text: str = ""
    lift: float | None = None
    kind: str = ""  # failure, partial, success or decision ("" when not read)
    task: str = ""  # the task it reflects on (Reflection.task_key; "" when unknown)
    task_type: str = ""  # "" when the reflection does not say


# What a Twin is made of, beside the similarity.
TWIN_FIELDS = (
    "source_path",
    "state",
    "created_at",
    "retrieval_count",
    "title",
    "body",
    "sections",
    "kind",
    "task_id",
    "format",
    "external_id",
    "task_type",
)


def _twin(reflection: Reflection, similarity: float, key: str) -> Twin:
    return Twin(
        key=key,
        reflection_id=reflection.pk,
        state=reflection.state,
        created_at=reflection.created_at,
        retrievals=reflection.retrieval_count,
        similarity=similarity,
        text=document_text(
            title=reflection.title, sections=reflection.sections or [], body=reflection.body
        ),
        kind=reflection.kind,
        task=reflection.task_key,
        task_type=reflection.task_type or "",
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
