"""Weekly task success for the projection page: one read of the daily task-outcome rollup."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from reflections.models import Department, ReflexionRun, TaskOutcomeDay


@dataclass(frozen=True)
class WeekRow:
    week: dt.date  # Monday of the ISO week (UTC)
    finished: int
    successes: int
    partials: int

    @property
    def failures(self) -> int:
        return self.finished - self.successes - self.partials

    @property
    def success_rate(self) -> float:
        # Partial is not success (DOMAIN §7); it is counted apart for the table.
        return self.successes / self.finished


def weekly_success(*, department: Department | None = None) -> list[WeekRow]:
    """Finished tasks per ISO week (Monday start, UTC), oldest first; every department pooled
    when `department` is None, but for the departments of imported Reflexion runs: a benchmark
    run (dated from the paper's week, its first trials mostly failing) is not the agents'
    learning, and pooled in it bent the fit (the demo's: "A = 1.11 is not a success rate").
    Weeks without a finished task are absent, not zero."""
    days = TaskOutcomeDay.objects.all()
    if department is not None:
        days = days.filter(department=department)
    else:
        days = days.exclude(department__in=ReflexionRun.objects.values("department"))
    # Summed from the daily task-outcome rollup: a row per department, task type and day.
    weeks: dict[dt.date, list[int]] = {}
    for day, finished, successes, partials in days.values_list(
        "day", "finished", "successes", "partials"
    ):
        week = weeks.setdefault(day - dt.timedelta(days=day.weekday()), [0, 0, 0])
        week[0] += finished
        week[1] += successes
        week[2] += partials
    return [WeekRow(w, *weeks[w]) for w in sorted(weeks)]


def _as_date(value: dt.datetime | dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value
