"""Reads for the managers' insights pages (DOMAIN §7): SQL aggregates, a fixed number of
queries per page whatever the volume of tasks, reflections or retrievals."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce, TruncDate, TruncWeek

from insights import metrics
from insights.metrics import Change, Usefulness, WeekStats, week_start
from reflections.models import (
    Department,
    Kind,
    Outcome,
    Reflection,
    ReflectionHistory,
    RetrievalDay,
    RetrievalFlowDay,
    State,
    TaskInjection,
    TaskRun,
)
from reviews.evidence import Lift, week_weighted_lift
from reviews.models import ReviewCycle, ReviewItem, Verdict
from rubric.models import Rating, RatingAssignment

# The overview's "now" is the last 4 ISO weeks, compared with the 4 weeks a quarter earlier.
CURRENT_WEEKS = 4
QUARTER_WEEKS = 13
SPARKLINE_WEEKS = 26
DEFAULT_RANGE_WEEKS = 52
LIFT_TOP = 20
# Below this many injected tasks the lift table shows counts but no rate: a Wilson interval
# over fewer than ten tasks is wider than any lift worth reading.
LIFT_MIN_TASKS = 10
ACTIVE_SET_STATES = (State.ACTIVE.value, State.PROMOTED.value)


def start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _as_date(value) -> date:
    # TruncWeek / TruncDate give datetimes or dates depending on the backend.
    return value.date() if isinstance(value, datetime) else value


def _scoped(qs, department_ids: list[int] | None, path: str = "department_id"):
    return qs if department_ids is None else qs.filter(**{f"{path}__in": department_ids})


# --------------------------------------------------------------------------- learning curves


LEARNING_SQL = """
WITH first_lesson AS (
    SELECT department_id, task_type, MIN(created_at) AS at
    FROM {reflections}
    WHERE kind IN (%(failure)s, %(partial)s)
    GROUP BY department_id, task_type
),
first_failure AS (
    SELECT department_id, task_type, failure_mode, MIN(finished_at) AS at
    FROM {tasks}
    WHERE outcome = %(failure)s AND failure_mode <> ''
    GROUP BY department_id, task_type, failure_mode
),
marked AS (
    SELECT t.department_id, {week} AS week, t.outcome,
           CASE WHEN l.at < t.finished_at THEN 1 ELSE 0 END AS eligible,
           CASE WHEN f.at < t.finished_at THEN 1 ELSE 0 END AS seen_before
    FROM {tasks} t
    LEFT JOIN first_lesson l
           ON l.department_id = t.department_id AND l.task_type = t.task_type
    LEFT JOIN first_failure f
           ON f.department_id = t.department_id AND f.task_type = t.task_type
          AND f.failure_mode = t.failure_mode AND t.outcome = %(failure)s
    WHERE t.finished_at >= %(since)s AND t.finished_at < %(until)s {scope}
)
SELECT department_id, week, COUNT(*),
       SUM(CASE WHEN outcome = %(success)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN outcome = %(partial)s THEN 1 ELSE 0 END),
       SUM(CASE WHEN outcome = %(failure)s THEN 1 ELSE 0 END),
       SUM(eligible),
       SUM(eligible * seen_before)
FROM marked
GROUP BY department_id, week
"""

# Monday (UTC) of a timestamp's ISO week. SQLite stores UTC text; "weekday 0" moves to the
# coming Sunday (or stays on one), six days back is that week's Monday.
WEEK_SQL = {
    "postgresql": "(date_trunc('week', t.finished_at AT TIME ZONE 'UTC'))::date",
    "sqlite": "date(t.finished_at, 'weekday 0', '-6 days')",
}


def learning_rows(
    *, since: datetime, until: datetime, department_ids: list[int] | None = None
) -> dict[int, dict[date, WeekStats]]:
    """Per department and ISO week, the tasks finished in [since, until): outcomes, and the
    eligible tasks and repeat failures of DOMAIN §7, in one query.

    Both conditions are "something happened strictly before this task finished", so each
    reduces to a first occurrence: a task is eligible when the first failure/partial
    reflection of its department and type was created before it finished; a failure with a
    mode is a repeat when the first failed task of its department, type and mode finished
    before it (the task itself, the first, is not a repeat). Two grouped scans and two hash
    joins, where per-task EXISTS probes took 12 s on the demo. Earlier tasks and reflections
    count from the start of history, not from ``since``. metrics.learning_weeks is the same
    definition in Python, and the tests hold the two equal.
    """
    q = connection.ops.quote_name
    ops = connection.ops
    params = {
        "since": ops.adapt_datetimefield_value(since),
        "until": ops.adapt_datetimefield_value(until),
        "success": Outcome.SUCCESS.value,
        "partial": Outcome.PARTIAL.value,
        "failure": Outcome.FAILURE.value,
    }
    # The kinds of reflection that make a task eligible are the failure and partial ones.
    assert tuple(metrics.LESSON_KINDS) == (Kind.FAILURE.value, Kind.PARTIAL.value)
    scope = ""
    if department_ids is not None:
        names = [f"d{i}" for i in range(len(department_ids))] or ["d_none"]
        params |= dict(zip(names, department_ids or [-1], strict=True))
        scope = "AND t.department_id IN (" + ", ".join(f"%({n})s" for n in names) + ")"
    sql = LEARNING_SQL.format(
        reflections=q(Reflection._meta.db_table),
        tasks=q(TaskRun._meta.db_table),
        week=WEEK_SQL[connection.vendor],
        scope=scope,
    )
    result: dict[int, dict[date, WeekStats]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for dept, week, *counts in cursor.fetchall():
            w = week if isinstance(week, date) else date.fromisoformat(str(week)[:10])
            w = _as_date(w)
            result[dept][w] = WeekStats(w, *(int(c or 0) for c in counts))
    return dict(result)


@dataclass(frozen=True)
class KindWeek:
    week: date
    counts: list[int]  # in Kind order

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True)
class Marker:
    """Something that happened on the time axis: review-cycle deprecations, a cycle closing."""

    week: date
    department: str
    what: str  # "deprecations" or "cycle closed"
    count: int
    label: str


@dataclass
class LearningCurves:
    start: date  # Monday of the first week
    end: date  # Monday of the last week
    weeks: list[date]
    departments: list[Department]  # the ones covered
    per_department: dict[str, list[WeekStats]]  # slug → one row per week
    overall: list[WeekStats]
    written: list[KindWeek]
    markers: list[Marker] = field(default_factory=list)

    @property
    def kinds(self) -> list[tuple[str, str]]:
        return Kind.choices


def learning_curves(
    *, departments: list[Department], department_ids: list[int] | None, start: date, end: date
) -> LearningCurves:
    """Weekly learning curves over the ISO weeks from ``start``'s to ``end``'s, in four
    queries: task weeks, reflections written, deprecations, cycle closings."""
    weeks = metrics.weeks_between(start, end)
    since, until = start_of(weeks[0]), start_of(weeks[-1] + timedelta(weeks=1))
    rows = learning_rows(since=since, until=until, department_ids=department_ids)
    per_department = {d.slug: metrics.series(rows.get(d.pk, {}), weeks) for d in departments}
    overall = [
        metrics.sum_weeks((s[i] for s in per_department.values()), w) for i, w in enumerate(weeks)
    ]

    written_rows = (
        _scoped(
            Reflection.objects.filter(created_at__gte=since, created_at__lt=until), department_ids
        )
        .annotate(week=TruncWeek("created_at", tzinfo=UTC))
        .values_list("week", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    by_week: dict[date, dict[str, int]] = defaultdict(dict)
    for week, kind, n in written_rows:
        by_week[_as_date(week)][kind] = n
    written = [KindWeek(w, [by_week[w].get(k, 0) for k in Kind.values]) for w in weeks]

    return LearningCurves(
        start=weeks[0],
        end=weeks[-1],
        weeks=weeks,
        departments=departments,
        per_department=per_department,
        overall=overall,
        written=written,
        markers=review_markers(since=since, until=until, department_ids=department_ids),
    )


def review_markers(
    *, since: datetime, until: datetime, department_ids: list[int] | None
) -> list[Marker]:
    """Deprecating verdicts per ISO week and department (the current verdict of each item,
    dated by its decided_at), and each cycle's closing, in two queries."""
    deprecations = (
        _scoped(
            ReviewItem.objects.filter(decided_at__gte=since, decided_at__lt=until)
            .exclude(verdict="")
            .exclude(verdict=Verdict.KEEP),
            department_ids,
            "cycle__department_id",
        )
        .annotate(week=TruncWeek("decided_at", tzinfo=UTC))
        .values_list("week", "cycle__department__slug", "cycle__quarter")
        .annotate(n=Count("id"))
        .order_by()
    )
    markers = [
        Marker(_as_date(week), slug, "deprecations", n, f"{slug} {quarter}")
        for week, slug, quarter, n in deprecations
    ]
    closed = _scoped(
        ReviewCycle.objects.filter(closed_at__gte=since, closed_at__lt=until),
        department_ids,
    ).values_list("closed_at", "department__slug", "quarter")
    markers += [
        Marker(week_start(at), slug, "cycle closed", 1, f"{slug} {quarter}")
        for at, slug, quarter in closed
    ]
    return sorted(markers, key=lambda m: (m.week, m.department, m.what))


# --------------------------------------------------------------------------- overview


@dataclass(frozen=True)
class OverviewMetric:
    change: Change
    series: list[float | None]  # weekly points, oldest first

    @property
    def spark(self) -> list[float]:
        """The series for a sparkline: a week without data repeats the week before, so a
        gap does not read as a drop to zero."""
        points, last = [], None
        for v in self.series:
            last = v if v is not None else last
            if last is not None:
                points.append(last)
        return points


@dataclass(frozen=True)
class OverviewRow:
    label: str
    slug: str  # "" for the overall row
    success: OverviewMetric
    success_tasks: int  # the tasks the current success rate rests on
    repeat: OverviewMetric
    eligible_tasks: int
    active_set: OverviewMetric
    quality: OverviewMetric
    open_review: OverviewMetric
    open_rating: OverviewMetric


@dataclass
class Overview:
    as_of: date
    rows: list[OverviewRow]  # one per department, then the overall row
    current_since: date
    before_since: date
    before_until: date


ACTIVE_SET_BY_DEPARTMENT_SQL = """
WITH cutoffs AS ({cutoffs}),
latest AS (
    SELECT c.cutoff, h.reflection_id, h.to_state,
           ROW_NUMBER() OVER (PARTITION BY c.cutoff, h.reflection_id
                              ORDER BY h.at DESC, h.id DESC) AS rn
    FROM cutoffs c
    JOIN {history} h ON h.at < c.cutoff AND h.to_state <> ''
)
SELECT c.i, r.department_id, COUNT(r.id)
FROM cutoffs c
JOIN {reflections} r ON r.created_at < c.cutoff
LEFT JOIN latest l ON l.cutoff = c.cutoff AND l.reflection_id = r.id AND l.rn = 1
WHERE COALESCE(l.to_state, %(active)s) IN (%(active)s, %(promoted)s)
GROUP BY c.i, r.department_id
"""


def active_set_at(cutoffs: list[datetime]) -> dict[int, list[int]]:
    """Per department, the reflections active or promoted at each cutoff, from the state
    history, in one query: reflections.selectors.health.active_set_by_week grouped by
    department as well (same reading of the history and the same caveat about it)."""
    q = connection.ops.quote_name
    params: dict = {
        f"c{i}": connection.ops.adapt_datetimefield_value(c) for i, c in enumerate(cutoffs)
    }
    params |= {"active": State.ACTIVE.value, "promoted": State.PROMOTED.value}
    sql = ACTIVE_SET_BY_DEPARTMENT_SQL.format(
        cutoffs=" UNION ALL ".join(
            f"SELECT {i} AS i, %(c{i})s AS cutoff" for i in range(len(cutoffs))
        ),
        history=q(ReflectionHistory._meta.db_table),
        reflections=q(Reflection._meta.db_table),
    )
    result: dict[int, list[int]] = defaultdict(lambda: [0] * len(cutoffs))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for i, dept, n in cursor.fetchall():
            result[dept][int(i)] = int(n)
    return result


def _at_cutoffs(rows, cutoffs: list[datetime], is_open) -> dict[int | None, list[int]]:
    """Per department, how many counted rows are open at each cutoff: rows are
    (department, count, *facts) and ``is_open(cutoff, *facts)`` says whether they are."""
    result: dict[int | None, list[int]] = defaultdict(lambda: [0] * len(cutoffs))
    for dept, n, *facts in rows:
        for i, cutoff in enumerate(cutoffs):
            if is_open(cutoff, *facts):
                result[dept][i] += n
    return result


def _day_before(day: date | datetime | None, cutoff: datetime) -> bool:
    """A day-truncated timestamp fell before a midnight cutoff."""
    return day is not None and _as_date(day) < cutoff.date()


def _review_work(cutoffs: list[datetime], first: datetime) -> dict[int | None, list[int]]:
    """Open cycles' undecided items at each cutoff (current verdicts dated by decided_at)."""
    rows = (
        ReviewItem.objects.filter(Q(cycle__closed_at__isnull=True) | Q(cycle__closed_at__gte=first))
        .filter(cycle__opened_at__lt=cutoffs[-1])
        .annotate(day=TruncDate("decided_at", tzinfo=UTC))
        .values_list("cycle__department_id", "cycle__opened_at", "cycle__closed_at", "day")
        .annotate(n=Count("id"))
        .values_list("cycle__department_id", "n", "cycle__opened_at", "cycle__closed_at", "day")
        .order_by()
    )

    def is_open(cutoff, opened_at, closed_at, decided_day):
        cycle_open = opened_at < cutoff and (closed_at is None or closed_at >= cutoff)
        return cycle_open and not _day_before(decided_day, cutoff)

    return _at_cutoffs(rows, cutoffs, is_open)


def _rating_work(cutoffs: list[datetime], first: datetime) -> dict[int | None, list[int]]:
    """Unsubmitted assignments of open rating rounds at each cutoff, by the rated
    reflection's department."""
    rows = (
        RatingAssignment.objects.filter(
            Q(item__rating_round__closed_at__isnull=True)
            | Q(item__rating_round__closed_at__gte=first)
        )
        .filter(item__rating_round__created_at__lt=cutoffs[-1])
        .annotate(day=TruncDate("submitted_at", tzinfo=UTC))
        .values_list(
            "item__reflection__department_id",
            "item__rating_round__created_at",
            "item__rating_round__closed_at",
            "day",
        )
        .annotate(n=Count("id"))
        .values_list(
            "item__reflection__department_id",
            "n",
            "item__rating_round__created_at",
            "item__rating_round__closed_at",
            "day",
        )
        .order_by()
    )

    def is_open(cutoff, created_at, closed_at, submitted_day):
        round_open = created_at < cutoff and (closed_at is None or closed_at >= cutoff)
        return round_open and not _day_before(submitted_day, cutoff)

    return _at_cutoffs(rows, cutoffs, is_open)


def _quality(cutoffs: list[datetime]) -> dict[int | None, list[float | None]]:
    """Mean aggregate rubric score of the rated reflections at each cutoff, per department.

    A reflection's score is the mean of all its levels given before the cutoff: with every
    rater scoring all four criteria that is the mean over raters of the mean of the four
    (DOMAIN §6). A department's quality is the mean of its reflections' scores.
    """
    rows = (
        Rating.objects.filter(rated_at__lt=cutoffs[-1])
        .annotate(day=TruncDate("rated_at", tzinfo=UTC))
        .values_list("reflection__department_id", "reflection_id", "day")
        .annotate(total=Sum("level"), n=Count("id"))
        .order_by()
    )
    per_reflection: dict[tuple, list[tuple[date, float, int]]] = defaultdict(list)
    for dept, reflection_id, day, total, n in rows:
        per_reflection[(dept, reflection_id)].append((_as_date(day), float(total), int(n)))
    result: dict[int | None, list[float | None]] = {}
    scores: dict[int | None, list[list[float]]] = defaultdict(lambda: [[] for _ in cutoffs])
    for (dept, _), days in per_reflection.items():
        for i, cutoff in enumerate(cutoffs):
            seen = [(t, n) for day, t, n in days if day < cutoff.date()]
            if seen:
                scores[dept][i].append(sum(t for t, _ in seen) / sum(n for _, n in seen))
    for dept, per_cutoff in scores.items():
        result[dept] = [metrics.mean(s) for s in per_cutoff]
    # Everyone: every rated reflection's score, whatever its department.
    result[None] = [
        metrics.mean(score for per_cutoff in scores.values() for score in per_cutoff[i])
        for i in range(len(cutoffs))
    ]
    return result


def overview(*, departments: list[Department], as_of: date) -> Overview:
    """One row per department and one overall: success and repeat-failure rates over the last
    4 weeks, active set, quality, open review and rating work; each against the value a
    quarter earlier, with its weekly series. Seven queries whatever the data."""
    end = start_of(as_of + timedelta(days=1))  # as_of counts whole
    weeks = metrics.weeks_between(week_start(as_of) - timedelta(weeks=SPARKLINE_WEEKS - 1), as_of)
    task_rows = learning_rows(since=start_of(weeks[0]), until=end)
    # Weekly snapshots ending with now, 13 of them a quarter apart from the last.
    cutoffs = [end - timedelta(weeks=QUARTER_WEEKS - i) for i in range(QUARTER_WEEKS + 1)]
    first = cutoffs[0]

    active_now = dict(
        Reflection.objects.filter(state__in=ACTIVE_SET_STATES)
        .values_list("department_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    active_series = active_set_at(cutoffs[:-1])
    quality = _quality(cutoffs)
    review = _review_work(cutoffs, first)
    rating = _rating_work(cutoffs, first)

    def rates(by_week: dict[date, WeekStats]) -> tuple:
        stats = metrics.series(by_week, weeks)
        now = stats[-CURRENT_WEEKS:]
        before = stats[-CURRENT_WEEKS - QUARTER_WEEKS : -QUARTER_WEEKS]
        success_now, success_n = metrics.window_rate(now, "successes", "finished")
        success_before, _ = metrics.window_rate(before, "successes", "finished")
        repeat_now, eligible_n = metrics.window_rate(now, "repeats", "eligible")
        repeat_before, _ = metrics.window_rate(before, "repeats", "eligible")
        return (
            OverviewMetric(Change(success_now, success_before), [w.success_rate for w in stats]),
            success_n,
            OverviewMetric(
                Change(repeat_now, repeat_before), [w.repeat_failure_rate for w in stats]
            ),
            eligible_n,
        )

    def counts(series: list[int]) -> OverviewMetric:
        return OverviewMetric(Change(series[-1], series[0]), list(series))

    def quality_metric(series: list[float | None]) -> OverviewMetric:
        return OverviewMetric(Change(series[-1], series[0]), list(series))

    empty_counts = [0] * len(cutoffs)
    empty_quality: list[float | None] = [None] * len(cutoffs)
    rows = []
    for d in departments:
        success, success_n, repeat, eligible_n = rates(task_rows.get(d.pk, {}))
        rows.append(
            OverviewRow(
                label=d.name,
                slug=d.slug,
                success=success,
                success_tasks=success_n,
                repeat=repeat,
                eligible_tasks=eligible_n,
                active_set=counts(
                    [*active_series.get(d.pk, empty_counts[:-1]), active_now.get(d.pk, 0)]
                ),
                quality=quality_metric(quality.get(d.pk, empty_quality)),
                open_review=counts(review.get(d.pk, empty_counts)),
                open_rating=counts(rating.get(d.pk, empty_counts)),
            )
        )
    everyone: dict[date, WeekStats] = {
        w: metrics.sum_weeks((by_week[w] for by_week in task_rows.values() if w in by_week), w)
        for w in weeks
    }
    success, success_n, repeat, eligible_n = rates(everyone)

    def total(per_dept: dict) -> list[int]:
        return [sum(s[i] for s in per_dept.values()) for i in range(len(cutoffs))]

    active_total = [sum(s[i] for s in active_series.values()) for i in range(len(cutoffs) - 1)]
    rows.append(
        OverviewRow(
            label="All departments",
            slug="",
            success=success,
            success_tasks=success_n,
            repeat=repeat,
            eligible_tasks=eligible_n,
            active_set=counts([*active_total, sum(active_now.values())]),
            quality=quality_metric(quality.get(None, empty_quality)),
            open_review=counts(total(review)),
            open_rating=counts(total(rating)),
        )
    )
    return Overview(
        as_of=as_of,
        rows=rows,
        current_since=weeks[-CURRENT_WEEKS],
        before_since=weeks[-CURRENT_WEEKS - QUARTER_WEEKS],
        before_until=weeks[-QUARTER_WEEKS - 1] + timedelta(days=6),
    )


# --------------------------------------------------------------------------- usefulness


@dataclass(frozen=True)
class LiftRow:
    reflection_id: int
    title: str
    department: str
    agent: str
    kind: str
    injections: int  # all-time, the ranking
    lift: Lift
    interval: tuple[float, float] | None  # Wilson 95 % of the injected rate

    @property
    def lift_interval(self) -> tuple[float, float] | None:
        """The Wilson interval shifted by the department's rate: the lift's 95 % interval,
        treating the department's rate (hundreds of tasks) as known."""
        if self.interval is None or self.lift.department_rate is None or self.lift.lift is None:
            return None
        base = self.lift.department_rate
        return self.interval[0] - base, self.interval[1] - base


@dataclass(frozen=True)
class Flow:
    retriever_department: str
    reflection_department: str
    retrievals: int

    @property
    def is_cross_department(self) -> bool:
        return self.retriever_department != self.reflection_department


@dataclass
class UsefulnessReport:
    usefulness: Usefulness
    retrievals_total: int
    retrievals_cross_agent: int
    flows: list[Flow]
    lift: list[LiftRow]
    lift_min_tasks: int

    @property
    def cross_agent_share(self) -> float | None:
        return metrics.cross_agent_share(self.retrievals_total, self.retrievals_cross_agent)

    @property
    def flows_total(self) -> int:
        return sum(f.retrievals for f in self.flows)


def usefulness_report(
    *, departments: list[Department], department_ids: list[int] | None
) -> UsefulnessReport:
    """Usefulness by source outcome, cross-agent share and flows, and the lift of the most
    injected reflections, over all history, in eight queries."""
    # Useful retrievals are the maintained per-reflection counter (reflections.services keeps
    # it equal to joining every retrieval to its task's outcome, 9 s at 10M events).
    stored, useful = {}, {}
    for kind, n, n_useful in (
        _scoped(Reflection.objects.all(), department_ids)
        .values_list("kind")
        .annotate(n=Count("id"), useful=Coalesce(Sum("useful_retrieval_count"), 0))
        .order_by()
    ):
        stored[kind] = n
        if n_useful:
            useful[kind] = n_useful
    shares = _scoped(RetrievalDay.objects.all(), department_ids).aggregate(
        total=Coalesce(Sum("retrievals"), 0), cross=Coalesce(Sum("cross_agent"), 0)
    )
    return UsefulnessReport(
        usefulness=metrics.usefulness(stored, useful),
        retrievals_total=shares["total"],
        retrievals_cross_agent=shares["cross"],
        flows=department_flows(departments=departments, department_ids=department_ids),
        lift=lift_table(department_ids=department_ids),
        lift_min_tasks=LIFT_MIN_TASKS,
    )


def department_flows(
    *, departments: list[Department], department_ids: list[int] | None
) -> list[Flow]:
    """Retrievals per (retriever's department, reflection's department), most first. The
    retriever's department is the one the log states, else the retrieving agent's.
    ``departments`` names the ids (every department: a flow may leave the ones filtered).
    Summed from the daily flow rollup, which the imports and the daily job keep equal to
    grouping the events."""
    qs = RetrievalFlowDay.objects.all()
    if department_ids is not None:
        qs = qs.filter(
            Q(retriever_department_id__in=department_ids)
            | Q(reflection_department_id__in=department_ids)
        )
    rows = (
        qs.values_list("retriever_department_id", "reflection_department_id")
        .annotate(n=Sum("retrievals"))
        .order_by()
    )
    slugs = {d.pk: d.slug for d in departments}
    flows = [
        Flow(slugs.get(src, "—") if src else "—", slugs.get(dst, "—"), n) for src, dst, n in rows
    ]
    return sorted(
        flows, key=lambda f: (-f.retrievals, f.retriever_department, f.reflection_department)
    )


def lift_table(*, department_ids: list[int] | None, top: int = LIFT_TOP) -> list[LiftRow]:
    """The ``top`` reflections by injections with their lift (reviews.evidence: success of the
    tasks they were injected into against their department's rate in the same ISO weeks,
    week-weighted), over all history; three queries."""
    # The ranking reads the maintained per-reflection count (reflections.services keeps it equal
    # to counting the injections, which grouped 2.3M rows in 3 s); the index refl_injections
    # yields the top rows in order.
    shown = {
        row[0]: row
        for row in _scoped(
            Reflection.objects.exclude(state=State.QUARANTINED).filter(injection_count__gt=0),
            department_ids,
        )
        .order_by("-injection_count", "id")
        .values_list(
            "id", "title", "department_id", "department__slug", "agent__name", "kind",
            "injection_count",
        )[:top]
    }  # fmt: skip
    if not shown:
        return []
    ranked = [(pk, row[6]) for pk, row in shown.items()]
    ids = list(shown)
    injected: dict[int, dict[date, tuple[int, int]]] = defaultdict(dict)
    for pk, week, tasks, ok in (
        TaskInjection.objects.filter(reflection_id__in=ids)
        .annotate(week=TruncWeek("task_run__finished_at", tzinfo=UTC))
        .values_list("reflection_id", "week")
        .annotate(tasks=Count("id"), ok=Count("id", filter=Q(task_run__outcome=Outcome.SUCCESS)))
        .order_by()
    ):
        injected[pk][_as_date(week)] = (tasks, ok)
    all_weeks = [w for by_week in injected.values() for w in by_week]
    department: dict[int, dict[date, tuple[int, int]]] = defaultdict(dict)
    if all_weeks:
        for dept, week, tasks, ok in (
            TaskRun.objects.filter(
                department_id__in={row[2] for row in shown.values()},
                finished_at__gte=start_of(min(all_weeks)),
                finished_at__lt=start_of(max(all_weeks) + timedelta(weeks=1)),
            )
            .annotate(week=TruncWeek("finished_at", tzinfo=UTC))
            .values_list("department_id", "week")
            .annotate(tasks=Count("id"), ok=Count("id", filter=Q(outcome=Outcome.SUCCESS)))
            .order_by()
        ):
            department[dept][_as_date(week)] = (tasks, ok)
    rows = []
    for pk, n in ranked:
        _, title, dept_id, slug, agent, kind, _ = shown[pk]
        lift = week_weighted_lift(injected[pk], department[dept_id], min_tasks=LIFT_MIN_TASKS)
        interval = None
        if lift.injected_rate is not None:
            interval = metrics.wilson_interval(lift.injected_successes, lift.injected_tasks)
        rows.append(LiftRow(pk, title, slug, agent or "", kind, n, lift, interval))
    return rows
