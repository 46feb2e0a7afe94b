"""Reads for the insights overview: each department's now against a quarter earlier, sparklines,
review and rating work, quality."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate

from insights import metrics
from insights.metrics import Change, WeekStats, week_start
from insights.selectors.common import as_date, start_of
from insights.selectors.learning import learning_rows
from reflections.caching import MEMORY, cached
from reflections.models import (
    ACTIVE_SET_STATES,
    Department,
    Reflection,
    ReflectionHistory,
    State,
)
from reflections.selectors.active_set import active_set_at_midnights, all_midnights
from reviews.models import ReviewItem
from rubric.models import Rating, RatingAssignment

# The overview's "now" is the last 4 ISO weeks, compared with the 4 weeks a quarter earlier.
CURRENT_WEEKS = 4
QUARTER_WEEKS = 13
SPARKLINE_WEEKS = 26


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
    if all_midnights(cutoffs):
        # The overview's cutoffs are midnights: summed from the rollup (ActiveSetChange).
        return defaultdict(lambda: [0] * len(cutoffs), active_set_at_midnights(cutoffs))
    return active_set_at_replayed(cutoffs)


def active_set_at_replayed(cutoffs: list[datetime]) -> dict[int, list[int]]:
    """active_set_at replaying the history in SQL, for any cutoffs."""
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
    return day is not None and as_date(day) < cutoff.date()


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
        per_reflection[(dept, reflection_id)].append((as_date(day), float(total), int(n)))
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


def _active_sets(cutoffs: list[datetime]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Per department, the active set now and at each cutoff but the last. Both grow with the
    reflections and their history (a count over every reflection, a sum over every change), so
    they are cached under the memory's version, which every state change bumps."""

    def compute() -> tuple[dict[int, int], dict[int, list[int]]]:
        now = dict(
            Reflection.objects.filter(state__in=ACTIVE_SET_STATES)
            .values_list("department_id")
            .annotate(n=Count("id"))
            .order_by()
        )
        return now, dict(active_set_at(cutoffs[:-1]))

    return cached("overview-active-set", tuple(cutoffs), compute, name=MEMORY)


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

    active_now, active_series = _active_sets(cutoffs)
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
