"""Reads for the memory-hygiene pages: memory health, retention, and a reflection's policy panel."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncWeek

from reflections import access
from reflections.models import (
    Agent,
    Department,
    Kind,
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    ScanFinding,
    State,
)
from reflections.policies import DEFAULT_CONFIG, PolicyConfig, boundaries, decay_state
from reflections.services.policies import decay_reason, decay_transitions, retention_candidates

HEALTH_WEEKS = 12
RETRIEVAL_WINDOW_DAYS = 30
TOP_RETRIEVED = 20
CHANGE_EXAMPLES = 10
RETENTION_CANDIDATES_SHOWN = 20
# The working memory: what the orchestrator injects at full weight or more.
ACTIVE_SET_STATES = (State.ACTIVE, State.PROMOTED)


def today() -> date:
    """The default as_of: today in UTC, the calendar the policies use."""
    return datetime.now(UTC).date()


def parse_as_of(value: str | None) -> date | None:
    """``?as_of=YYYY-MM-DD``; today (UTC) when absent; None when it is not a date."""
    if not value:
        return today()
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def _param(value: datetime):
    return connection.ops.adapt_datetimefield_value(value)


def _week_start(day: date) -> date:
    """Monday of the ISO week ``day`` is in."""
    return day - timedelta(days=day.weekday())


def _as_date(value) -> date:
    # TruncWeek yields a datetime on PostgreSQL and SQLite alike; be lenient with dates.
    return value.date() if isinstance(value, datetime) else value


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
    q = connection.ops.quote_name
    weeks = " UNION ALL ".join(f"SELECT %(w{i})s AS week_end" for i in range(len(week_ends)))
    params: dict = {f"w{i}": _param(w) for i, w in enumerate(week_ends)}
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
        key = week_end if isinstance(week_end, str) else _param(week_end)
        by_end[str(key)] = int(count)
    return [by_end.get(str(_param(w)), 0) for w in week_ends]


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


def memory_health(
    *,
    departments: list[Department],
    all_departments: bool,
    as_of: date,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> MemoryHealth:
    """The memory health of ``departments`` (every department when ``all_departments``).

    A fixed number of queries whatever the data: states, weekly writes, active set, next-run
    decisions (+ example titles), cross-agent share, top retrieved (+ their titles).
    """
    kwargs = dict(departments=departments, all_departments=all_departments, as_of=as_of)
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

    # The last 12 ISO weeks up to and including the one as_of is in (Monday start, UTC).
    first_week = _week_start(as_of) - timedelta(weeks=HEALTH_WEEKS - 1)
    first = datetime.combine(first_week, datetime.min.time(), tzinfo=UTC)
    written = (
        reflections.filter(created_at__gte=first, created_at__lt=b.end)
        .annotate(week=TruncWeek("created_at", tzinfo=UTC))
        .values_list("week", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    per_week: dict[date, dict[str, int]] = defaultdict(dict)
    for week, kind, n in written:
        per_week[_as_date(week)][kind] = n
    week_starts = [first_week + timedelta(weeks=i) for i in range(HEALTH_WEEKS)]
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
    )


# --------------------------------------------------------------------------- retention


@dataclass(frozen=True)
class CandidateRow:
    position: int
    reflection: Reflection | None  # None: in a department this person does not see


@dataclass
class AgentRetentionRow:
    agent: Agent
    retained: int
    oldest_retained: Reflection | None
    candidates_total: int
    would_archive: int
    candidates: list[CandidateRow]

    @property
    def candidates_hidden(self) -> int:
        return self.candidates_total - len(self.candidates)


@dataclass
class RetentionReport:
    as_of: date
    agents: list[AgentRetentionRow]
    keep: int

    @property
    def would_archive(self) -> int:
        return sum(a.would_archive for a in self.agents)

    @property
    def candidates_total(self) -> int:
        return sum(a.candidates_total for a in self.agents)


def retention_report(
    *,
    user,
    departments: list[Department],
    all_departments: bool,
    as_of: date,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> RetentionReport:
    """Per agent of the departments shown: the retained count and the archive candidates.

    Agents belong to the page through their own department (retention counts an agent's
    reflections wherever they were filed); agents without a department are listed on the
    all-departments view only.
    """
    agents = Agent.objects.order_by("name")
    if not all_departments:
        agents = agents.filter(department__in=[d.pk for d in departments])
    agents = list(agents.select_related("department"))
    ranking = retention_candidates(as_of=as_of, config=config)
    ranking = {a.pk: ranking[a.pk] for a in agents if a.pk in ranking}

    shown_ids = set()
    for entry in ranking.values():
        if entry.retained:
            shown_ids.add(entry.retained[-1])
        shown_ids.update(entry.candidates[:RETENTION_CANDIDATES_SHOWN])
    shown = {}
    if shown_ids:
        shown = {
            r.pk: r
            for r in access.visible_reflections(user)
            .filter(pk__in=shown_ids)
            .only("id", "title", "created_at", "state", "retrieval_count", "agent_id")
        }
    # What archive_retention_candidates would change: candidates still active or promoted.
    archivable = set()
    if ranking:
        archivable = set(
            Reflection.objects.filter(
                agent_id__in=list(ranking), state__in=[State.ACTIVE, State.PROMOTED]
            ).values_list("id", flat=True)
        )

    rows = []
    for agent in agents:
        entry = ranking.get(agent.pk)
        if entry is None:
            continue
        keep = config.retention_keep
        rows.append(
            AgentRetentionRow(
                agent=agent,
                retained=len(entry.retained),
                oldest_retained=shown.get(entry.retained[-1]) if entry.retained else None,
                candidates_total=len(entry.candidates),
                would_archive=sum(1 for pk in entry.candidates if pk in archivable),
                candidates=[
                    CandidateRow(keep + i + 1, shown.get(pk))
                    for i, pk in enumerate(entry.candidates[:RETENTION_CANDIDATES_SHOWN])
                ],
            )
        )
    # Agents with something to archive first, then by name.
    rows.sort(key=lambda r: (-r.candidates_total, r.agent.name))
    return RetentionReport(as_of=as_of, agents=rows, keep=config.retention_keep)


# --------------------------------------------------------------------------- detail: policy


@dataclass(frozen=True)
class ReflectionPolicy:
    as_of: date
    state: str
    multiplier: float
    policy_state: str  # what decay would say today (== state unless a run is due)
    reason: str
    archive_on: date | None  # the day decay archives it if nothing retrieves it
    retention_position: int | None
    retention_total: int | None
    keep: int
    salience_source: str  # "imported", "computed", "too young", "pending", "none"
    salience: float | None
    deprecated_entry: ReflectionHistory | None
    retrievals_in_window: int
    last_retrieved: datetime | None

    @property
    def will_change(self) -> bool:
        return self.policy_state != self.state

    @property
    def is_retained(self) -> bool:
        return self.retention_position is not None and self.retention_position <= self.keep

    @property
    def archive_is_due(self) -> bool:
        return self.archive_on is not None and self.archive_on <= self.as_of


def archive_date(
    created_at: datetime, last_retrieved: datetime | None, config: PolicyConfig = DEFAULT_CONFIG
) -> date:
    """The first as_of on which decay archives a reflection nobody retrieves any more.

    From policies.boundaries: created_at < as_of - 90 d (midnight) holds from
    created day + 91 on; no retrieval in [as_of + 1 - 30 d, as_of + 1) holds from
    last-retrieved day + 30 on.
    """
    created_day = created_at.astimezone(UTC).date()
    day = created_day + timedelta(days=config.archive_after_days + 1)
    if last_retrieved is not None:
        day = max(day, last_retrieved.astimezone(UTC).date() + timedelta(days=config.idle_days))
    return day


def window_stat_aggregates(as_of: date, config: PolicyConfig = DEFAULT_CONFIG) -> dict:
    """Aggregates over a reflection's retrievals for decay at as_of (joined into one query)."""
    b = boundaries(as_of, config)
    seen = Q(retrieved_at__lt=b.end)
    return {
        "policy_window": Count("id", filter=seen & Q(retrieved_at__gte=b.promote_window_since)),
        "policy_idle": Count("id", filter=seen & Q(retrieved_at__gte=b.idle_since)),
        "policy_last": Max("retrieved_at", filter=seen),
    }


def reflection_policy(
    *,
    reflection: Reflection,
    stats: dict,
    history: list[ReflectionHistory],
    as_of: date,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> ReflectionPolicy:
    """The policy panel, from values already fetched by selectors.reflection_detail."""
    last = stats.get("policy_last")
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=UTC)
    policy_state, reason = decay_state(
        created_at=reflection.created_at,
        last_retrieved_before_as_of=last,
        retrievals_in_window=stats.get("policy_window", 0),
        retrievals_in_idle_window=stats.get("policy_idle", 0),
        as_of=as_of,
        current_state=reflection.state,
        retention_archived_at=reflection.retention_archived_at,
        config=config,
    )
    deprecated_entry = None
    if reflection.state == State.DEPRECATED:
        deprecated_entry = next(
            (h for h in reversed(history) if h.to_state == State.DEPRECATED), None
        )
    if reflection.salience is not None:
        salience_source, salience = "imported", reflection.salience
    elif reflection.salience_computed is not None:
        salience_source, salience = "computed", reflection.salience_computed
    elif reflection.created_at >= boundaries(as_of, config).salience_created_before:
        salience_source, salience = "too young", None
    else:
        salience_source, salience = "pending", None
    decaying = reflection.state in (State.ACTIVE, State.PROMOTED)
    position = getattr(reflection, "retention_position", None)
    return ReflectionPolicy(
        as_of=as_of,
        state=reflection.state,
        multiplier=reflection.multiplier,
        policy_state=policy_state,
        reason=reason,
        archive_on=archive_date(reflection.created_at, last, config) if decaying else None,
        retention_position=position,
        retention_total=getattr(reflection, "retention_total", None) if position else None,
        keep=config.retention_keep,
        salience_source=salience_source,
        salience=salience,
        deprecated_entry=deprecated_entry,
        retrievals_in_window=stats.get("policy_window", 0),
        last_retrieved=last,
    )


# --------------------------------------------------------------------------- detail: findings


def reflection_findings(reflection: Reflection) -> list[ScanFinding]:
    """The scan findings of one reflection, oldest first, with who resolved them.

    A finding stores where and what kind, never the matched value (models.ScanFinding), so
    every field here is safe to show to anyone who may open the reflection.
    """
    return list(
        reflection.findings.select_related("resolved_by").order_by("detected_at", "start", "id")
    )
