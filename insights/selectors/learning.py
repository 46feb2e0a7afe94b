"""Reads for the learning-curves page: weekly success, partials and repeat failures (DOMAIN §7),
reflections written by kind, and the review deprecations marked on the time axis."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db import connection
from django.db.models import Count, Sum
from django.db.models.functions import TruncWeek

from insights import metrics
from insights.metrics import WeekStats, week_start
from insights.selectors.common import as_date, scoped, start_of
from reflections.models import (
    Department,
    Kind,
    Reflection,
    TaskOutcomeDay,
)
from reflections.services.task_rollup import outcome_counts_sql
from reviews.models import ReviewCycle, ReviewItem, Verdict

DEFAULT_RANGE_WEEKS = 52


# --------------------------------------------------------------------------- learning curves


# Monday (UTC) of a timestamp's ISO week. SQLite stores UTC text; "weekday 0" moves to the
# coming Sunday (or stays on one), six days back is that week's Monday.
WEEK_SQL = {
    "postgresql": "(date_trunc('week', t.finished_at AT TIME ZONE 'UTC'))::date",
    "sqlite": "date(t.finished_at, 'weekday 0', '-6 days')",
}


def learning_rows(
    *, since: datetime, until: datetime, department_ids: list[int] | None = None
) -> dict[int, dict[date, WeekStats]]:
    """Per department and ISO week, the tasks finished in [since, until): outcomes, eligible
    tasks and repeat failures, summed from the daily rollup TaskOutcomeDay (a few hundred rows
    whatever the number of tasks). Bounds that are not UTC midnights are recounted from the
    task runs (learning_rows_recount), which the tests hold equal to the rollup's answer."""
    if not (_is_midnight(since) and _is_midnight(until)):
        return learning_rows_recount(since=since, until=until, department_ids=department_ids)
    # Summed over the task types in SQL: one row per department and day reaches Python.
    days = (
        scoped(
            TaskOutcomeDay.objects.filter(
                day__gte=since.astimezone(UTC).date(), day__lt=until.astimezone(UTC).date()
            ),
            department_ids,
        )
        .values_list("department_id", "day")
        .annotate(**{f"sum_{c}": Sum(c) for c in DAY_COUNTS})
        .order_by()
    )
    result: dict[int, dict[date, WeekStats]] = defaultdict(dict)
    for dept, day, *counts in days:
        w = week_start(as_date(day))
        result[dept][w] = result[dept].get(w, WeekStats(w)) + WeekStats(w, *counts)
    return dict(result)


DAY_COUNTS = ("finished", "successes", "partials", "failures", "eligible", "repeats")


def _is_midnight(moment: datetime) -> bool:
    return moment.astimezone(UTC).time() == datetime.min.time()


def learning_rows_recount(
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
    count from the start of history, not from ``since``. metrics.learning_weeks_reference is
    the same definition in Python, and the tests hold the two equal.
    """
    ops = connection.ops
    # The kinds of reflection that make a task eligible are the failure and partial ones.
    assert tuple(metrics.LESSON_KINDS) == (Kind.FAILURE.value, Kind.PARTIAL.value)
    scope, ids = "", {}
    if department_ids is not None:
        names = [f"d{i}" for i in range(len(department_ids))] or ["d_none"]
        ids = dict(zip(names, department_ids or [-1], strict=True))
        scope = "AND t.department_id IN (" + ", ".join(f"%({n})s" for n in names) + ")"
    sql, params = outcome_counts_sql(
        buckets=f"{WEEK_SQL[connection.vendor]} AS week",
        groups="week",
        where=f"t.finished_at >= %(since)s AND t.finished_at < %(until)s {scope}",
    )
    params |= ids | {
        "since": ops.adapt_datetimefield_value(since),
        "until": ops.adapt_datetimefield_value(until),
    }
    result: dict[int, dict[date, WeekStats]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for dept, week, *counts in cursor.fetchall():
            w = week if isinstance(week, date) else date.fromisoformat(str(week)[:10])
            w = as_date(w)
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
    since, until = learning_window(start, end)
    rows = learning_rows(since=since, until=until, department_ids=department_ids)
    per_department = {d.slug: metrics.series(rows.get(d.pk, {}), weeks) for d in departments}
    overall = [
        metrics.sum_weeks((s[i] for s in per_department.values()), w) for i, w in enumerate(weeks)
    ]

    written_rows = (
        scoped(
            Reflection.objects.filter(created_at__gte=since, created_at__lt=until), department_ids
        )
        .annotate(week=TruncWeek("created_at", tzinfo=UTC))
        .values_list("week", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    by_week: dict[date, dict[str, int]] = defaultdict(dict)
    for week, kind, n in written_rows:
        by_week[as_date(week)][kind] = n
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


def learning_window(start: date, end: date) -> tuple[datetime, datetime]:
    """[since, until): the ISO weeks from ``start``'s to ``end``'s, as UTC instants."""
    weeks = metrics.weeks_between(start, end)
    return start_of(weeks[0]), start_of(weeks[-1] + timedelta(weeks=1))


def review_markers(
    *, since: datetime, until: datetime, department_ids: list[int] | None
) -> list[Marker]:
    """Deprecating verdicts per ISO week and department (the current verdict of each item,
    dated by its decided_at), and each cycle's closing, in two queries."""
    deprecations = (
        scoped(
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
        Marker(as_date(week), slug, "deprecations", n, f"{slug} {quarter}")
        for week, slug, quarter, n in deprecations
    ]
    closed = scoped(
        ReviewCycle.objects.filter(closed_at__gte=since, closed_at__lt=until),
        department_ids,
    ).values_list("closed_at", "department__slug", "quarter")
    markers += [
        Marker(week_start(at), slug, "cycle closed", 1, f"{slug} {quarter}")
        for at, slug, quarter in closed
    ]
    return sorted(markers, key=lambda m: (m.week, m.department, m.what))
