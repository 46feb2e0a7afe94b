"""Reads for the memory pages: the reflection list, one reflection in context, filter choices."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db import connection
from django.db.models import BooleanField, Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.http import QueryDict

from reflections import access
from reflections.caching import EVENTS, cached
from reflections.models import (
    Agent,
    Department,
    Kind,
    Outcome,
    Reflection,
    ReflectionHistory,
    State,
)
from reflections.policies import DEFAULT_CONFIG, STICKY_STATES, boundaries
from reflections.search import SEARCH_DOCUMENT_SQL
from reflections.selectors.dates import parse_as_of
from reflections.selectors.injection_audit import (
    AuditWeek,
    audit_weeks,
    outcome_totals,
)
from reflections.selectors.policy import (
    ReflectionPolicy,
    reflection_policy,
)
from reflections.selectors.reflection_events import event_figures
from reflexion_site import keyset
from reflexion_site.keyset import Key

# Sort key in the URL → the keys of its keyset order (reflexion_site.keyset). Every order ends
# on the id, in the same direction, so pages never overlap or skip rows that share a value
# (many reflections have 0 retrievals and the same import date), and each one is an index
# range: refl_created, refl_retrievals, refl_last_retrieved (and department twins of the
# first two).
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
    agents: list[str]  # names
    kinds: list[tuple[str, str]]
    outcomes: list[tuple[str, str]]
    states: list[tuple[str, str]]
    sorts: list[tuple[str, str]]


def filter_options(user) -> FilterOptions:
    """The choices the filter bar offers this user: only what they could find anyway."""
    departments = access.visible_departments(user).only("slug", "name")
    roles = access.user_roles(user)
    states = State.choices
    if access.ADMIN not in roles:
        states = [c for c in states if c[0] != State.QUARANTINED]
    sees_all = access.sees_all_departments(user)
    visible = () if sees_all else tuple(sorted(departments.values_list("pk", flat=True)))
    # Three semi-joins over every reflection (200 ms at 100,000 reflections): kept under the
    # memory's version, which imports and state changes move.
    agents = cached(
        "filter-agents",
        (sees_all, visible, access.ADMIN in roles),
        lambda: _agent_names(visible, sees_all=sees_all, admin=access.ADMIN in roles),
    )
    return FilterOptions(
        departments=departments,
        agents=agents,
        kinds=Kind.choices,
        outcomes=Outcome.choices,
        states=states,
        sorts=[(key, label) for key, (label, _) in LIST_SORTS.items()],
    )


def _agent_names(visible: tuple[int, ...], *, sees_all: bool, admin: bool) -> list[str]:
    agents = Agent.objects.order_by("name")
    if not sees_all:
        # An agent may write into a department it is not mapped to: offer the authors
        # of visible reflections as well as the agents mapped to visible departments.
        authors = Reflection.objects.filter(department__in=visible)
        agents = agents.filter(Q(department__in=visible) | Q(pk__in=authors.values("agent_id")))
    if not admin:
        # An agent known only from quarantined reflections, or stored under a masked name,
        # would tell a non-admin that something unsafe was filed (and show its mask).
        authored = Reflection.objects.filter(agent__isnull=False)
        quarantined = authored.filter(state=State.QUARANTINED).values("agent_id")
        shown = authored.exclude(state=State.QUARANTINED).values("agent_id")
        agents = agents.exclude(name__contains="[REDACTED:").exclude(
            Q(pk__in=quarantined) & ~Q(pk__in=shown)
        )
    return list(agents.values_list("name", flat=True))


@dataclass
class ReflectionDetail:
    reflection: Reflection
    retrievals: keyset.Page  # the newest; older ones a page at a time
    retrieval_total: int
    retrieval_distinct_tasks: int
    # None when the author is unknown: then nobody can say who shares whose memory.
    retrieval_cross_agent: int | None
    injections: keyset.Page
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
    reflections.services.policy_runs.RETENTION_SQL, written as correlated counts so that it
    rides along in the query that fetches the reflection (the detail page's query count stays
    fixed).
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
        lambda: event_figures(reflection, author_id, as_of),
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
