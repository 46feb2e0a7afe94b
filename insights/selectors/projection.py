"""Weekly task success for the projection page: one aggregate query over TaskRun."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q
from django.db.models.functions import TruncWeek

from reflections.models import Department, Outcome, TaskRun


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
    when `department` is None. Weeks without a finished task are absent, not zero."""
    runs = TaskRun.objects.all()
    if department is not None:
        runs = runs.filter(department=department)
    rows = (
        runs.annotate(week=TruncWeek("finished_at", tzinfo=dt.UTC))
        .values("week")
        .annotate(
            finished=Count("id"),
            successes=Count("id", filter=Q(outcome=Outcome.SUCCESS)),
            partials=Count("id", filter=Q(outcome=Outcome.PARTIAL)),
        )
        .order_by("week")
    )
    return [
        WeekRow(
            week=_as_date(row["week"]),
            finished=row["finished"],
            successes=row["successes"],
            partials=row["partials"],
        )
        for row in rows
    ]


def _as_date(value: dt.datetime | dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value
