"""Reads for the memory-health page: states, the active set by week, retrievals, next changes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncWeek

from reflections.caching import cached
from reflections.models import (
    Department,
    Kind,
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    State,
)
from reflections.policies import DEFAULT_CONFIG, PolicyConfig, boundaries
from reflections.selectors.active_set import active_set_at_midnights, all_midnights
from reflections.selectors.dates import as_date, param, week_start
from reflections.services.decay import decay_reason, decay_transitions

HEALTH_WEEKS = 12  # the range shown when none is asked for
MAX_HEALTH_WEEKS = 520  # the longest range one page reads: ten years of weeks
ACTIVE_SET_CHUNK = 200  # weeks per active-set query
RETRIEVAL_WINDOW_DAYS = 30
TOP_RETRIEVED = 20
CHANGE_EXAMPLES = 10


# --------------------------------------------------------------------------- memory health


@dataclass(frozen=True)
class StateCount:
    state: str
    label: str
    multiplier: float
    count: int


@dataclass(frozen=True)
class WeekRow:
    week_start: date
    counts: list[int]  # reflections written that week, per kind in Kind order
    total: int
    active_set: int  # active + promoted at the end of the week (see active_set_by_week)


@dataclass(frozen=True)
class ChangeExample:
    reflection_id: int
    title: str
    reason: str


@dataclass
class Transition:
    from_state: str
    to_state: str
    count: int = 0
    examples: list[ChangeExample] = field(default_factory=list)


@dataclass(frozen=True)
class TopReflection:
    reflection_id: int
    title: str
    state: str
    department: str
    agent: str
    retrievals: int


@dataclass
class MemoryHealth:
    as_of: date
    departments: list[Department]  # the ones this page covers
    states: list[StateCount]
    weeks: list[WeekRow]
    week_max: int
    active_set_max: int
    transitions: list[Transition]
    retrievals_total: int
    retrievals_cross_agent: int
    top: list[TopReflection]
    window_start: date
    since: date | None = None  # the first week shown (its Monday)

    @property
    def reflections_total(self) -> int:
        return sum(s.count for s in self.states)

    @property
    def changes_total(self) -> int:
        return sum(t.count for t in self.transitions)

    @property
    def cross_agent_share(self) -> float | None:
        return (
            self.retrievals_cross_agent / self.retrievals_total if self.retrievals_total else None
        )

    @property
    def kinds(self) -> list[tuple[str, str]]:
        return Kind.choices


def _scoped(qs: QuerySet, department_ids: list[int] | None, path: str = "department_id"):
    return qs if department_ids is None else qs.filter(**{f"{path}__in": department_ids})


ACTIVE_SET_SQL = """
WITH weeks AS ({weeks}),
moments AS (
    -- A reflection's first state (active, or quarantined/deprecated by its import) holds from
    -- when it was written, not from when a later import happened to load it.
    SELECT h.id, h.reflection_id, h.to_state,
           CASE WHEN h.change = %(created)s THEN r.created_at ELSE h.at END AS at
    FROM {history} h
    JOIN {reflections} r ON r.id = h.reflection_id {scope}
    WHERE h.to_state <> ''
),
latest AS (
    SELECT w.week_end, m.reflection_id, m.to_state,
           ROW_NUMBER() OVER (PARTITION BY w.week_end, m.reflection_id
                              ORDER BY m.at DESC, m.id DESC) AS rn
    FROM weeks w
    JOIN moments m ON m.at < w.week_end
)
SELECT w.week_end, COUNT(r.id)
FROM weeks w
JOIN {reflections} r ON r.created_at < w.week_end {scope}
LEFT JOIN latest l ON l.week_end = w.week_end AND l.reflection_id = r.id AND l.rn = 1
WHERE COALESCE(l.to_state, %(active)s) IN (%(active)s, %(promoted)s)
GROUP BY w.week_end
"""


def active_set_by_week(week_ends: list[datetime], department_ids: list[int] | None) -> list[int]:
    """How many reflections were active or promoted at each of ``week_ends``, in one query.

    A reflection's state at a moment is the to_state of its latest state-bearing history row
    before that moment; the row its import wrote counts from the reflection's created_at (a
    year of memory imported today was not all created today). A reflection created earlier
    without such a row counts as active. This is only as good as the history: decay runs that
    never happened are not reconstructed — a new installation replays them with
    `apply_policies --backfill-from` (what `make demo` does).
    """
    if all_midnights(week_ends):
        # Every week end the page shows is a UTC midnight: summed from the rollup, which
        # replays the same history once, when it is written (tests hold the two equal).
        per_department = active_set_at_midnights(week_ends, department_ids)
        return [sum(counts[i] for counts in per_department.values()) for i in range(len(week_ends))]
    return active_set_by_week_replayed(week_ends, department_ids)


def active_set_by_week_replayed(
    week_ends: list[datetime], department_ids: list[int] | None
) -> list[int]:
    """active_set_by_week replaying the history in SQL: one query, any moments."""
    if len(week_ends) > ACTIVE_SET_CHUNK:
        # SQLite caps a compound SELECT at 500 terms: long ranges go a few hundred weeks a query.
        return [
            n
            for i in range(0, len(week_ends), ACTIVE_SET_CHUNK)
            for n in active_set_by_week_replayed(
                week_ends[i : i + ACTIVE_SET_CHUNK], department_ids
            )
        ]
    q = connection.ops.quote_name
    weeks = " UNION ALL ".join(f"SELECT %(w{i})s AS week_end" for i in range(len(week_ends)))
    params: dict = {f"w{i}": param(w) for i, w in enumerate(week_ends)}
    params |= {
        "active": State.ACTIVE.value,
        "promoted": State.PROMOTED.value,
        "created": ReflectionHistory.Change.CREATED.value,
    }
    scope = ""
    if department_ids is not None:
        names = [f"d{i}" for i in range(len(department_ids))] or ["d_none"]
        params |= dict(zip(names, department_ids or [-1], strict=True))
        scope = "AND r.department_id IN (" + ", ".join(f"%({n})s" for n in names) + ")"
    sql = ACTIVE_SET_SQL.format(
        weeks=weeks,
        history=q(ReflectionHistory._meta.db_table),
        reflections=q(Reflection._meta.db_table),
        scope=scope,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    by_end = {}
    for week_end, count in rows:
        # SQLite returns the compared literal as text; PostgreSQL a datetime.
        key = week_end if isinstance(week_end, str) else param(week_end)
        by_end[str(key)] = int(count)
    return [by_end.get(str(param(w)), 0) for w in week_ends]


def _next_run_transitions(
    as_of: date, department_ids: list[int] | None, config: PolicyConfig
) -> list[Transition]:
    by_transition = decay_transitions(
        as_of=as_of, config=config, department_ids=department_ids, examples=CHANGE_EXAMPLES
    )
    transitions: dict[tuple[str, str], Transition] = {}
    picked = []
    for (from_state, to_state), (count, examples) in by_transition.items():
        t = Transition(from_state, to_state, count)
        for d in examples:
            t.examples.append(ChangeExample(d.reflection_id, "", decay_reason(d, as_of, config)))
            picked.append(d.reflection_id)
        transitions[(from_state, to_state)] = t
    if picked:
        titles = dict(Reflection.objects.filter(pk__in=picked).values_list("id", "title"))
        for t in transitions.values():
            t.examples = [
                ChangeExample(e.reflection_id, titles.get(e.reflection_id, ""), e.reason)
                for e in t.examples
            ]
    return sorted(transitions.values(), key=lambda t: (-t.count, t.from_state, t.to_state))


def health_weeks(since: date | None, as_of: date) -> list[date]:
    """The Mondays of the ISO weeks from the one `since` is in (default: 12 weeks) to the one
    `as_of` is in; ValueError naming the problem when the range is backwards or too long."""
    last = week_start(as_of)
    first = week_start(since) if since else last - timedelta(weeks=HEALTH_WEEKS - 1)
    if first > last:
        raise ValueError(f"from ({since:%Y-%m-%d}) is after to ({as_of:%Y-%m-%d})")
    n = (last - first).days // 7 + 1
    if n > MAX_HEALTH_WEEKS:
        raise ValueError(f"the range covers {n} weeks; at most {MAX_HEALTH_WEEKS} are shown")
    return [first + timedelta(weeks=i) for i in range(n)]


def memory_health(
    *,
    departments: list[Department],
    all_departments: bool,
    as_of: date,
    since: date | None = None,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> MemoryHealth:
    """The memory health of ``departments`` (every department when ``all_departments``),
    week by week from the week `since` is in (default: the last 12 weeks) to `as_of`.

    A fixed number of queries whatever the data: states, weekly writes, active set, next-run
    decisions (+ example titles), cross-agent share, top retrieved (+ their titles).
    """
    kwargs = dict(
        departments=departments, all_departments=all_departments, as_of=as_of, since=since
    )
    # Cached under the data's version: imports, policy runs and state changes bump it, so
    # the figures are recomputed once after each change rather than on every view.
    key = (sorted(d.pk for d in departments), all_departments, as_of, since, repr(config))
    return cached("memory-health", key, lambda: _memory_health_uncached(kwargs, config))


def _memory_health_uncached(kwargs: dict, config: PolicyConfig) -> MemoryHealth:
    if connection.vendor != "postgresql":
        return _memory_health(**kwargs, config=config)
    with transaction.atomic():
        # These plans cost enough to be JIT-compiled, and compiling takes longer (~0.9 s for
        # the decay decision at 100,000 reflections) than running them.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
        return _memory_health(**kwargs, config=config)


def _memory_health(
    *,
    departments: list[Department],
    all_departments: bool,
    as_of: date,
    since: date | None,
    config: PolicyConfig,
) -> MemoryHealth:
    department_ids = None if all_departments else [d.pk for d in departments]
    b = boundaries(as_of, config)
    reflections = _scoped(Reflection.objects.all(), department_ids)

    by_state = dict(reflections.values_list("state").annotate(n=Count("id")).order_by())
    states = [
        StateCount(s.value, s.label, float(Reflection(state=s).multiplier), by_state.get(s, 0))
        for s in State
    ]

    # ISO weeks (Monday start, UTC) up to and including the one as_of is in.
    week_starts = health_weeks(since, as_of)
    first = datetime.combine(week_starts[0], datetime.min.time(), tzinfo=UTC)
    written = (
        reflections.filter(created_at__gte=first, created_at__lt=b.end)
        .annotate(week=TruncWeek("created_at", tzinfo=UTC))
        .values_list("week", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    per_week: dict[date, dict[str, int]] = defaultdict(dict)
    for week, kind, n in written:
        per_week[as_date(week)][kind] = n
    # A week's end is the Monday after it, or the end of as_of for the week still running.
    week_ends = [
        min(datetime.combine(w + timedelta(weeks=1), datetime.min.time(), tzinfo=UTC), b.end)
        for w in week_starts
    ]
    active = active_set_by_week(week_ends, department_ids)
    weeks = [
        WeekRow(
            week_start=w,
            counts=[per_week[w].get(k, 0) for k in Kind.values],
            total=sum(per_week[w].values()),
            active_set=a,
        )
        for w, a in zip(week_starts, active, strict=True)
    ]

    # Retrievals in the window come from the daily rollup: the window is whole UTC days, so
    # the sums are exact, and they read ~30 days of rollup rows rather than raw events.
    window_start = b.end - timedelta(days=RETRIEVAL_WINDOW_DAYS)
    days = _scoped(
        RetrievalDay.objects.filter(day__gte=window_start.date(), day__lte=as_of), department_ids
    )
    shares = days.aggregate(
        total=Coalesce(Sum("retrievals"), 0), cross=Coalesce(Sum("cross_agent"), 0)
    )
    # Rank by id first, then fetch the few rows shown: grouping by titles and names would
    # join every rollup row of the window to its reflection, agent and department.
    # Quarantined ones are excluded by id (a handful, through the state index): joining to
    # check each row's state would scan the wide reflection table.
    quarantined = Reflection.objects.filter(state=State.QUARANTINED).values("id")
    ranked = list(
        days.exclude(reflection_id__in=quarantined)
        .values_list("reflection_id")
        .annotate(n=Sum("retrievals"))
        .order_by("-n", "reflection_id")[:TOP_RETRIEVED]
    )
    shown = {}
    if ranked:
        shown = {
            row[0]: row
            for row in Reflection.objects.filter(pk__in=[pk for pk, _ in ranked]).values_list(
                "id", "title", "state", "department__slug", "agent__name"
            )
        }
    top = [
        TopReflection(pk, shown[pk][1], shown[pk][2], shown[pk][3], shown[pk][4] or "", n)
        for pk, n in ranked
    ]

    return MemoryHealth(
        as_of=as_of,
        departments=departments,
        states=states,
        weeks=weeks,
        week_max=max([w.total for w in weeks] + [1]),
        active_set_max=max([w.active_set for w in weeks] + [1]),
        transitions=_next_run_transitions(as_of, department_ids, config),
        retrievals_total=shares["total"],
        retrievals_cross_agent=shares["cross"],
        top=top,
        window_start=window_start.date(),
        since=week_starts[0],
    )
