"""Reads of the task outcomes for the lift: a department's weekly (tasks, successes), and the
weekly (tasks, successes) of the tasks each of some reflections was injected into."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Q
from django.db.models.functions import TruncWeek

from reflections.models import InjectionOutcomeDay, Outcome, TaskInjection, TaskOutcomeDay, TaskRun


def _is_midnight(moment: datetime) -> bool:
    return moment.astimezone(UTC).time() == datetime.min.time()


def _as_date(value) -> date:
    return value.date() if isinstance(value, datetime) else value


def department_weeks(
    department_id: int, start: datetime, end: datetime
) -> dict[date, tuple[int, int]]:
    """ISO week (Monday, UTC) → (tasks, successes) of the department's tasks finished in
    [start, end). Whole UTC days are summed from the daily rollup (TaskOutcomeDay: a row per
    task type and day, whatever the number of tasks); other bounds group the task runs."""
    if _is_midnight(start) and _is_midnight(end):
        rows = TaskOutcomeDay.objects.filter(
            department_id=department_id,
            day__gte=start.astimezone(UTC).date(),
            day__lt=end.astimezone(UTC).date(),
        ).values_list("day", "finished", "successes")
        weeks: dict[date, list[int]] = defaultdict(lambda: [0, 0])
        for day, finished, successes in rows:
            week = weeks[day - timedelta(days=day.weekday())]
            week[0] += finished
            week[1] += successes
        return {w: (n, ok) for w, (n, ok) in weeks.items()}
    rows = (
        TaskRun.objects.filter(
            department_id=department_id, finished_at__gte=start, finished_at__lt=end
        )
        .annotate(week=TruncWeek("finished_at", tzinfo=UTC))
        .values("week")
        .annotate(tasks=Count("id"), successes=Count("id", filter=Q(outcome=Outcome.SUCCESS)))
        .order_by()
    )
    return {_as_date(r["week"]): (r["tasks"], r["successes"]) for r in rows}


def injected_weeks(
    reflection_ids, start: datetime | None = None, end: datetime | None = None
) -> dict[int, dict[date, tuple[int, int]]]:
    """Reflection → ISO week (Monday, UTC) → (tasks, successes) of the tasks it was injected
    into that finished in [start, end) (no bound: all history); reflections without any are
    left out. One query. Whole UTC days are summed from the daily rollup (InjectionOutcomeDay:
    a row per reflection and day, whatever the number of injections); other bounds join the
    injections to their task runs."""
    ids = list(reflection_ids)
    weeks: dict[int, dict[date, tuple[int, int]]] = defaultdict(dict)
    bounds = [b for b in (start, end) if b is not None]
    if all(_is_midnight(b) for b in bounds):
        days = InjectionOutcomeDay.objects.filter(reflection_id__in=ids)
        if start is not None:
            days = days.filter(day__gte=start.astimezone(UTC).date())
        if end is not None:
            days = days.filter(day__lt=end.astimezone(UTC).date())
        for pk, day, tasks, successes in days.values_list(
            "reflection_id", "day", "tasks", "successes"
        ):
            week = day - timedelta(days=day.weekday())
            before = weeks[pk].get(week, (0, 0))
            weeks[pk][week] = (before[0] + tasks, before[1] + successes)
        return dict(weeks)
    return injected_weeks_from_runs(ids, start, end)


def injected_weeks_from_runs(
    reflection_ids, start: datetime | None = None, end: datetime | None = None
) -> dict[int, dict[date, tuple[int, int]]]:
    """injected_weeks joining the injections to their task runs: for bounds that are not UTC
    midnights, and what the tests hold the rollup to."""
    rows = TaskInjection.objects.filter(reflection_id__in=list(reflection_ids))
    if start is not None:
        rows = rows.filter(task_run__finished_at__gte=start)
    if end is not None:
        rows = rows.filter(task_run__finished_at__lt=end)
    weeks: dict[int, dict[date, tuple[int, int]]] = defaultdict(dict)
    for pk, week, tasks, successes in (
        rows.annotate(week=TruncWeek("task_run__finished_at", tzinfo=UTC))
        .values_list("reflection_id", "week")
        .annotate(
            tasks=Count("task_run_id"),
            successes=Count("task_run_id", filter=Q(task_run__outcome=Outcome.SUCCESS)),
        )
        .order_by()
    ):
        weeks[pk][_as_date(week)] = (tasks, successes)
    return dict(weeks)
