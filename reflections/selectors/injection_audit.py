"""A reflection's injection audit: per week, the task runs it was injected into and how they
ended, beside the changes to its state that week — was the lesson used, and what happened?"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Q
from django.db.models.functions import TruncWeek

from reflections.models import InjectionOutcomeDay, Outcome, ReflectionHistory, TaskInjection


@dataclass
class AuditWeek:
    week: date  # its Monday (UTC)
    outcomes: dict[str, int] = field(default_factory=lambda: {o: 0 for o in Outcome.values})
    changes: list[ReflectionHistory] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return sum(self.outcomes.values())

    @property
    def success_rate(self) -> float | None:
        return self.outcomes[Outcome.SUCCESS] / self.runs if self.runs else None


def weekly_injections(reflection) -> list[dict]:
    """One row per week with runs: {"week" (its Monday), and a count per outcome}, oldest
    first. One query over the reflection's days in the daily rollup (InjectionOutcomeDay),
    whatever the number of tasks it was injected into."""
    weeks: dict[date, dict] = {}
    for day, successes, partials, failures in (
        InjectionOutcomeDay.objects.filter(reflection_id=reflection.pk)
        .order_by("day")
        .values_list("day", "successes", "partials", "failures")
    ):
        monday = _monday(day)
        row = weeks.setdefault(monday, {"week": monday, **{o: 0 for o in Outcome.values}})
        row[Outcome.SUCCESS] += successes
        row[Outcome.PARTIAL] += partials
        row[Outcome.FAILURE] += failures
    return list(weeks.values())


def weekly_injections_from_runs(reflection) -> list[dict]:
    """weekly_injections joining the reflection's injections to their task runs: what the
    tests hold the rollup to."""
    return [
        {**row, "week": _monday(row["week"])}
        for row in TaskInjection.objects.filter(reflection=reflection)
        .annotate(week=TruncWeek("task_run__finished_at", tzinfo=UTC))
        .values("week")
        .annotate(**{o: Count("id", filter=Q(task_run__outcome=o)) for o in Outcome.values})
        .order_by("week")
    ]


def _monday(moment) -> date:
    day = moment.date() if isinstance(moment, datetime) else moment
    return day - timedelta(days=day.weekday())


def audit_weeks(weekly: list[dict], history: list[ReflectionHistory]) -> list[AuditWeek]:
    """Weeks with runs or state changes, newest first; content updates are not state."""
    weeks: dict[date, AuditWeek] = {}
    for row in weekly:
        monday = _monday(row["week"])
        found = weeks.setdefault(monday, AuditWeek(week=monday))
        for outcome in Outcome.values:
            found.outcomes[outcome] += row[outcome]
    for change in history:
        if change.change == ReflectionHistory.Change.CONTENT:
            continue
        monday = _monday(change.at)
        weeks.setdefault(monday, AuditWeek(week=monday)).changes.append(change)
    return [weeks[w] for w in sorted(weeks, reverse=True)]


def outcome_totals(weekly: list[dict]) -> dict[str, int]:
    return {o: sum(row[o] for row in weekly) for o in Outcome.values}
