"""Reads for the memory pages: the reflection list, one reflection in context, filter choices."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db import connection
from django.db.models import BooleanField, Count, Max, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.http import QueryDict

from reflections import access
from reflections.caching import EVENTS, cached
from reflections.models import (
    Agent,
    Department,
    InjectionOutcomeDay,
    Kind,
    Outcome,
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    RetrievalEvent,
    State,
    TaskInjection,
    TaskRun,
)
from reflections.policies import DEFAULT_CONFIG, STICKY_STATES, boundaries
from reflections.search import SEARCH_DOCUMENT_SQL
from reflections.selectors.dates import parse_as_of
from reflections.selectors.injection_audit import (
    AuditWeek,
    audit_weeks,
    outcome_totals,
    weekly_injections,
)
from reflections.selectors.policy import (
    ReflectionPolicy,
    reflection_policy,
)
from reflexion_site.keyset import Key

# Sort key in the URL → the keys of its keyset order (reflexion_site.keyset). Every order ends
# on the id, in the same direction, so pages never overlap or skip rows that share a value
# (many reflections have 0 retrievals and the same import date), and each one is an index
# range: refl_created, refl_retrievals (and their department twins).
LIST_SORTS: dict[str, tuple[str, tuple[Key, ...]]] = {
    "-created_at": ("Newest first", (Key("created_at"), Key("id"))),
    "created_at": ("Oldest first", (Key("created_at", False), Key("id", False))),
    "-retrieval_count": ("Most retrieved", (Key("retrieval_count"), Key("id"))),
    "retrieval_count": ("Least retrieved", (Key("retrieval_count", False), Key("id", False))),
    # Never-retrieved ones last.
    "-last_retrieved_at": (
        "Recently retrieved",
        (Key("last_retrieved_at", nullable=True), Key("id")),
    ),
}
DEFAULT_SORT = "-created_at"

# The columns the list shows: the texts (original_text, body, sections) stay in the table.
LIST_FIELDS = (
    "id",
    "title",
    "source_path",
    "kind",
    "outcome",
    "state",
    "retrieval_count",
    "last_retrieved_at",
    "created_at",
    "department__slug",
    "department__name",
    "agent__name",
)

RETRIEVAL_HISTORY_LIMIT = 200
INJECTION_LIMIT = 100


@dataclass(frozen=True)
class ReflectionFilters:
    """What the list's filter bar asks for; unknown values are dropped, never trusted."""

    department: str = ""
    agent: str = ""
    kind: str = ""
    outcome: str = ""
    state: str = ""
    q: str = ""
    sort: str = DEFAULT_SORT

    @classmethod
    def from_query(cls, query: QueryDict | dict) -> ReflectionFilters:
        def pick(name: str, allowed=None) -> str:
            value = (query.get(name) or "").strip()
            return value if allowed is None or value in allowed else ""

        return cls(
            department=pick("department")[:64],
            agent=pick("agent")[:128],
            kind=pick("kind", Kind.values),
            outcome=pick("outcome", Outcome.values),
            state=pick("state", State.values),
            q=pick("q")[:200],
            sort=pick("sort", LIST_SORTS) or DEFAULT_SORT,
        )

    def as_query(self) -> dict[str, str]:
        """The non-default filters, for links and the pushed URL."""
        values = {
            "department": self.department,
            "agent": self.agent,
            "kind": self.kind,
            "outcome": self.outcome,
            "state": self.state,
            "q": self.q,
            "sort": "" if self.sort == DEFAULT_SORT else self.sort,
        }
        return {k: v for k, v in values.items() if v}

    @property
    def is_filtered(self) -> bool:
        return any(v for k, v in self.as_query().items() if k != "sort")


def search_text(qs: QuerySet[Reflection], q: str) -> QuerySet[Reflection]:
    """The list's search box: words in the title, text or source path.

    PostgreSQL: full-text search (stemmed words, "quoted phrases", -exclusions) served by the
    GIN index of migration 0004, whose expression this must match character for character.
    SQLite: a case-insensitive substring match.
    """
    if not q:
        return qs
    if connection.vendor == "postgresql":
        return qs.filter(
            RawSQL(  # noqa: S611 - q is a bound parameter; the SQL is a constant
                f"{SEARCH_DOCUMENT_SQL} @@ websearch_to_tsquery('english'::regconfig, %s)",
                [q],
                output_field=BooleanField(),
            )
        )
    return qs.filter(Q(title__icontains=q) | Q(body__icontains=q) | Q(source_path__icontains=q))


def list_keys(filters: ReflectionFilters) -> tuple[Key, ...]:
    return LIST_SORTS.get(filters.sort, LIST_SORTS[DEFAULT_SORT])[1]


def reflection_list(*, user, filters: ReflectionFilters) -> QuerySet[Reflection]:
    """The reflections the filters select, unordered: the view pages them by `list_keys`."""
    qs = access.visible_reflections(user)
    if filters.department:
        qs = qs.filter(department__slug=filters.department)
    if filters.agent:
        qs = qs.filter(agent__name=filters.agent)
    if filters.kind:
        qs = qs.filter(kind=filters.kind)
    if filters.outcome:
        qs = qs.filter(outcome=filters.outcome)
    if filters.state:
        qs = qs.filter(state=filters.state)
    qs = search_text(qs, filters.q)
    return qs.select_related("department", "agent").only(*LIST_FIELDS)


@dataclass(frozen=True)
class FilterOptions:
    departments: QuerySet[Department]
    agents: QuerySet[Agent]
    kinds: list[tuple[str, str]]
    outcomes: list[tuple[str, str]]
    states: list[tuple[str, str]]
    sorts: list[tuple[str, str]]


def filter_options(user) -> FilterOptions:
    """The choices the filter bar offers this user: only what they could find anyway."""
    departments = access.visible_departments(user).only("slug", "name")
    agents = Agent.objects.only("name").order_by("name")
    if not access.sees_all_departments(user):
        # An agent may write into a department it is not mapped to: offer the authors
        # of visible reflections as well as the agents mapped to visible departments.
        authors = Reflection.objects.filter(department__in=access.visible_departments(user))
        agents = agents.filter(
            Q(department__in=access.visible_departments(user))
            | Q(pk__in=authors.values("agent_id"))
        )
    states = State.choices
    if access.ADMIN not in access.user_roles(user):
        states = [c for c in states if c[0] != State.QUARANTINED]
    return FilterOptions(
        departments=departments,
        agents=agents,
        kinds=Kind.choices,
        outcomes=Outcome.choices,
        states=states,
        sorts=[(key, label) for key, (label, _) in LIST_SORTS.items()],
    )


@dataclass
class ReflectionDetail:
    reflection: Reflection
    retrievals: list[RetrievalEvent]
    retrieval_total: int
    retrieval_distinct_tasks: int
    # None when the author is unknown: then nobody can say who shares whose memory.
    retrieval_cross_agent: int | None
    injections: list[TaskInjection]
    injection_counts: dict[str, int]
    history: list[ReflectionHistory]
    policy: ReflectionPolicy | None = field(default=None)
    # The injection audit: runs and outcomes per week beside the state changes.
    injection_weeks: list[AuditWeek] = field(default_factory=list)

    @property
    def cross_agent_share(self) -> float | None:
        if self.retrieval_cross_agent is None or not self.retrieval_total:
            return None
        return self.retrieval_cross_agent / self.retrieval_total

    @property
    def injection_total(self) -> int:
        return sum(self.injection_counts.values())

    @property
    def injection_success_rate(self) -> float | None:
        total = self.injection_total
        return self.injection_counts[Outcome.SUCCESS] / total if total else None


def _retention_rank(as_of: date) -> dict:
    """A reflection's place among its agent's reflections as retention ranks them.

    Equal to ROW_NUMBER() OVER (PARTITION BY agent ORDER BY created_at DESC, id DESC) of
    services_policies.RETENTION_SQL, written as correlated counts so that it rides along in
    the query that fetches the reflection (the detail page's query count stays fixed).
    """
    ranked = Reflection.objects.filter(
        agent_id=OuterRef("agent_id"), created_at__lt=boundaries(as_of).end
    ).exclude(state__in=STICKY_STATES)

    def count(qs):
        return Coalesce(
            Subquery(qs.order_by().values("agent_id").annotate(n=Count("id")).values("n")), 0
        )

    # Newer, or as new with a higher id: two counts rather than one with OR, so that each is a
    # range of the (agent, created_at, id) index (an OR turns it into a heap scan).
    newer = ranked.filter(created_at__gt=OuterRef("created_at"))
    tied = ranked.filter(created_at=OuterRef("created_at"), id__gt=OuterRef("id"))
    return {
        "retention_ahead": count(newer) + count(tied),
        "retention_total": count(ranked),
    }


def _event_figures(reflection: Reflection, author_id: int | None, as_of: date) -> tuple:
    days = _retrieval_days(reflection)
    counts = retrieval_figures(reflection, author_id, as_of, days=days)
    recent = latest_retrievals(reflection, author_id, RETRIEVAL_HISTORY_LIMIT, days=days)
    injected = latest_injections(reflection.pk, INJECTION_LIMIT)
    return counts, recent, injected, weekly_injections(reflection)  # outcomes per week


def _retrieval_days(reflection: Reflection) -> list[tuple[date, int, int]]:
    """(day, retrievals, cross-agent) of each day the reflection was retrieved on."""
    return list(
        RetrievalDay.objects.filter(reflection_id=reflection.pk).values_list(
            "day", "retrievals", "cross_agent"
        )
    )


def latest_retrievals(
    reflection: Reflection, author_id: int | None, limit: int, *, days=None
) -> list[RetrievalEvent]:
    """The reflection's `limit` newest retrievals, each with its task's outcome. Read from the
    day the rollup says the newest `limit` begin, so that only the partitions (months) from
    then on are searched; should that read find fewer (a rollup behind its events), from the
    beginning. Either way the answer is the newest `limit`: any retrieval before that day is
    older than every one read."""
    days = _retrieval_days(reflection) if days is None else days
    seen, since = 0, None
    for day, n, _ in sorted(days, reverse=True):
        if seen >= limit:
            break
        seen, since = seen + n, day
    task_outcome = TaskRun.objects.filter(task_id=OuterRef("task_id")).values("outcome")[:1]
    newest = (
        reflection.retrievals.select_related("agent")
        .annotate(task_outcome=Subquery(task_outcome))
        .order_by("-retrieved_at", "-id")
    )
    recent = []
    if since is not None and seen >= limit:
        start = datetime.combine(since, datetime.min.time(), tzinfo=UTC)
        recent = list(newest.filter(retrieved_at__gte=start)[:limit])
    if len(recent) < limit:
        recent = list(newest[:limit])
    for event in recent:
        event.is_cross_agent = author_id is not None and event.agent_id != author_id
    return recent


def retrieval_figures(
    reflection: Reflection, author_id: int | None, as_of: date, *, days=None
) -> dict:
    """What the reflection page counts over every retrieval of the reflection, and the decay
    policy's inputs for it at as_of (reflections.selectors.policy.window_stat_aggregates), read
    from its days in the retrieval rollup (a few hundred rows however often it was retrieved)
    rather than its events (~36,000 for the most retrieved at 10M events). Two reads stay on the
    events, each an index range of the reflection: the distinct tasks (the natural key's index
    holds the task, so nothing else is read) and the newest retrieval's time, on its day."""
    b = boundaries(as_of)
    window_day, idle_day, end_day = (
        b.promote_window_since.date(),
        b.idle_since.date(),
        b.end.date(),
    )
    days = _retrieval_days(reflection) if days is None else days
    counts = {
        "total": sum(n for _, n, _ in days),
        "policy_window": sum(n for day, n, _ in days if window_day <= day < end_day),
        "policy_idle": sum(n for day, n, _ in days if idle_day <= day < end_day),
        "policy_last": None,
        "distinct_tasks": reflection.retrievals.aggregate(n=Count("task_id", distinct=True))["n"],
    }
    if author_id is not None:
        counts["cross_agent"] = sum(cross for _, _, cross in days)
    last_day = max((day for day, n, _ in days if n and day < end_day), default=None)
    if last_day is not None:
        start = datetime.combine(last_day, datetime.min.time(), tzinfo=UTC)
        counts["policy_last"] = reflection.retrievals.filter(
            retrieved_at__gte=start, retrieved_at__lt=start + timedelta(days=1)
        ).aggregate(last=Max("retrieved_at"))["last"]
    return counts


def latest_injections(reflection_id: int, limit: int) -> list[TaskInjection]:
    """The reflection's `limit` injections whose tasks finished last, newest first.

    Joined and sorted in SQL, the planner either reads every injection's run or walks the
    runs by their end hoping to meet the reflection's: 0.1-6 s for a reflection injected
    into 30,000 tasks among 2.3M runs. Instead the rollup tells on which day the newest
    `limit` begin and how many injections finished from that day on; the reflection's own
    injections are then read by its index, newest run first (runs are stored about in the
    order they finished, so this is usually one batch), their runs by primary key, until that
    many have been met. The answer does not depend on that order: a late-imported old run is
    read later, and the reading goes on until every injection from that day on is in hand.
    Should the rollup disagree with the injections (its total is checked against the
    reflection's own injection counter), every injection is read instead."""
    total, seen, since = 0, 0, None
    for day, tasks in (
        InjectionOutcomeDay.objects.filter(reflection_id=reflection_id)
        .order_by("-day")
        .values_list("day", "tasks")
    ):
        total += tasks
        if seen < limit:
            seen, since = seen + tasks, day
    counted = Reflection.objects.filter(pk=reflection_id).values_list("injection_count", flat=True)
    trusted = since is not None and seen >= limit and total == counted.first()
    start = datetime.combine(since, datetime.min.time(), tzinfo=UTC) if trusted else None
    mine = (
        TaskInjection.objects.filter(reflection_id=reflection_id)
        .order_by("-task_run_id", "-id")
        .values_list("id", "task_run_id", "position")
    )
    # Keys only while searching: (finished_at, injection id, run id, position) of each read.
    recent: list[tuple] = []  # finished on or after `since`
    older: list[tuple] = []
    # Enough for every injection from `since` on, plus a margin for runs stored out of order.
    batch, last = (seen + limit if start is not None else 1000), None
    while True:
        rows = list((mine.filter(task_run_id__lt=last) if last is not None else mine)[:batch])
        if not rows:
            break
        ends = dict(
            TaskRun.objects.filter(pk__in={row[1] for row in rows}).values_list("id", "finished_at")
        )
        for pk, run, position in rows:
            key = (ends[run], pk, run, position)
            (recent if start is not None and ends[run] >= start else older).append(key)
        if start is not None and len(recent) >= seen:
            break
        # The next batch starts below this one's last run: a run holds one injection of a
        # reflection (the (task run, reflection) pair is unique).
        last, batch = rows[-1][1], batch * 2
    pool = recent if start is not None and len(recent) >= seen else recent + older
    newest = sorted(pool, reverse=True)[:limit]
    runs = TaskRun.objects.select_related("agent").in_bulk([key[2] for key in newest])
    fields = ["id", "task_run_id", "reflection_id", "position"]
    injections = []
    for _, pk, run, position in newest:
        injection = TaskInjection.from_db("default", fields, (pk, run, reflection_id, position))
        injection.task_run = runs[run]
        injections.append(injection)
    return injections


def reflection_detail(*, user, pk: int, as_of: date | None = None) -> ReflectionDetail:
    """One reflection in context; raises PermissionDenied / Http404 like access does."""
    as_of = as_of or parse_as_of(None)
    reflection = access.get_reflection_for_user(
        user,
        pk,
        queryset=Reflection.objects.select_related("department", "agent").annotate(
            **_retention_rank(as_of)
        ),
    )
    ranked = (
        reflection.agent_id is not None
        and reflection.state not in STICKY_STATES
        and reflection.created_at < boundaries(as_of).end
    )
    reflection.retention_position = reflection.retention_ahead + 1 if ranked else None
    author_id = reflection.agent_id
    # What happened to it (its newest retrievals and injections, counts over all of them, its
    # injections week by week) is read from the rollups' days and index ranges of the
    # reflection; cached under the events' version, which imports and recounts bump and
    # verdicts do not.
    counts, recent, injected, weekly = cached(
        "reflection-evidence",  # (counts, retrievals, injections, weeks)
        (reflection.pk, author_id, as_of),
        lambda: _event_figures(reflection, author_id, as_of),
        name=EVENTS,
    )

    history = list(
        ReflectionHistory.objects.filter(reflection=reflection)
        .select_related("actor")
        .order_by("at", "id")
    )
    return ReflectionDetail(
        reflection=reflection,
        retrievals=recent,
        retrieval_total=counts["total"],
        retrieval_distinct_tasks=counts["distinct_tasks"],
        retrieval_cross_agent=counts.get("cross_agent"),
        injections=injected,
        injection_counts=outcome_totals(weekly),
        history=history,
        injection_weeks=audit_weeks(weekly, history),
        policy=reflection_policy(
            reflection=reflection, stats=counts, history=history, as_of=as_of, config=DEFAULT_CONFIG
        ),
    )
