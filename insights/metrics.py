"""The learning-curve and usefulness arithmetic of DOMAIN §7 as pure functions over plain rows."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import groupby

from reflections.models import Kind, Outcome

# Reflections that make a task type "eligible" for the repeat-failure rate (DOMAIN §7).
LESSON_KINDS = (Kind.FAILURE.value, Kind.PARTIAL.value)
# Usefulness compares what a reflection was written after: a failure (or partial) vs a success.
POST_FAILURE_KINDS = LESSON_KINDS
POST_SUCCESS_KINDS = (Kind.SUCCESS.value,)
Z_95 = 1.959963984540054


def week_start(day: date | datetime) -> date:
    """Monday of the ISO week ``day`` is in; a datetime is read in UTC."""
    if isinstance(day, datetime):
        day = day.astimezone(UTC).date() if day.tzinfo else day.date()
    return day - timedelta(days=day.weekday())


def weeks_between(first: date, last: date) -> list[date]:
    """Every ISO week's Monday from the week of ``first`` to the week of ``last``, inclusive."""
    week, end = week_start(first), week_start(last)
    weeks = []
    while week <= end:
        weeks.append(week)
        week += timedelta(weeks=1)
    return weeks


def rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def mean(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


# --------------------------------------------------------------------------- learning curves


@dataclass(frozen=True)
class WeekStats:
    """One ISO week of finished tasks (one department's, or everyone's)."""

    week: date
    finished: int = 0
    successes: int = 0
    partials: int = 0
    failures: int = 0
    eligible: int = 0  # tasks with a failure/partial lesson of their type written before
    repeats: int = 0  # of the eligible, failures with a failure mode seen failing before

    @property
    def success_rate(self) -> float | None:
        return rate(self.successes, self.finished)

    @property
    def partial_rate(self) -> float | None:
        return rate(self.partials, self.finished)

    @property
    def repeat_failure_rate(self) -> float | None:
        return rate(self.repeats, self.eligible)

    def __add__(self, other: WeekStats) -> WeekStats:
        return WeekStats(
            week=self.week,
            finished=self.finished + other.finished,
            successes=self.successes + other.successes,
            partials=self.partials + other.partials,
            failures=self.failures + other.failures,
            eligible=self.eligible + other.eligible,
            repeats=self.repeats + other.repeats,
        )


def sum_weeks(weeks: Iterable[WeekStats], week: date) -> WeekStats:
    """The counts of several weeks (or departments) added up, labelled ``week``."""
    total = WeekStats(week)
    for w in weeks:
        total = total + w
    return total


def series(by_week: dict[date, WeekStats], weeks: Sequence[date]) -> list[WeekStats]:
    """One WeekStats per week asked for, empty weeks included (a gap, not a zero rate)."""
    return [by_week.get(w, WeekStats(w)) for w in weeks]


@dataclass(frozen=True)
class TaskRow:
    department: object
    task_type: str
    finished_at: datetime
    outcome: str
    failure_mode: str = ""


@dataclass(frozen=True)
class LessonRow:
    department: object
    task_type: str
    kind: str
    created_at: datetime


def learning_weeks_reference(
    tasks: Iterable[TaskRow], lessons: Iterable[LessonRow]
) -> dict[object, dict[date, WeekStats]]:
    """DOMAIN §7 in one pass over the tasks in finishing order, per department and ISO week.

    The reference (only the tests call it) the production SQL is held equal to:
    reflections.services.task_rollup.OUTCOME_COUNTS_SQL, read by selectors.learning_rows.
    "Before" and "earlier" are strict: a reflection created the instant a task finished does
    not make it eligible, and tasks finishing at the same instant are not earlier than one
    another.
    """
    first_lesson: dict[tuple, datetime] = {}
    for r in lessons:
        if r.kind in LESSON_KINDS:
            key = (r.department, r.task_type)
            first_lesson[key] = min(first_lesson.get(key, r.created_at), r.created_at)
    seen: dict[tuple, set[str]] = defaultdict(set)
    counts: dict[object, dict[date, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    )
    ordered = sorted(tasks, key=lambda t: t.finished_at)
    for _, same_instant in groupby(ordered, key=lambda t: t.finished_at):
        batch = list(same_instant)
        for t in batch:
            key = (t.department, t.task_type)
            c = counts[t.department][week_start(t.finished_at)]
            c[0] += 1
            c[1] += t.outcome == Outcome.SUCCESS
            c[2] += t.outcome == Outcome.PARTIAL
            c[3] += t.outcome == Outcome.FAILURE
            if key in first_lesson and first_lesson[key] < t.finished_at:
                c[4] += 1
                c[5] += is_failure_with_mode(t.outcome, t.failure_mode) and (
                    t.failure_mode in seen[key]
                )
        for t in batch:
            if is_failure_with_mode(t.outcome, t.failure_mode):
                seen[(t.department, t.task_type)].add(t.failure_mode)
    return {
        dept: {w: WeekStats(w, *c) for w, c in sorted(by_week.items())}
        for dept, by_week in counts.items()
    }


def is_failure_with_mode(outcome: str, failure_mode: str) -> bool:
    # No failure mode: nothing to repeat (DOMAIN §7).
    return outcome == Outcome.FAILURE and bool(failure_mode)


def window_rate(
    weeks: Sequence[WeekStats], numerator: str, denominator: str
) -> tuple[float | None, int]:
    """The rate over several weeks pooled (sum of numerators / sum of denominators), and the
    denominator it rests on: 4 weeks of tasks, not the mean of 4 weekly rates."""
    num = sum(getattr(w, numerator) for w in weeks)
    den = sum(getattr(w, denominator) for w in weeks)
    return rate(num, den), den


# --------------------------------------------------------------------------- change


@dataclass(frozen=True)
class Change:
    """A value now against the same value a quarter (13 weeks) earlier."""

    now: float | None
    before: float | None

    @property
    def delta(self) -> float | None:
        if self.now is None or self.before is None:
            return None
        return self.now - self.before


# --------------------------------------------------------------------------- usefulness


@dataclass(frozen=True)
class UsefulnessSide:
    label: str
    reflections: int  # stored reflections of these kinds
    useful_retrievals: int  # their retrievals whose task succeeded

    @property
    def per_reflection(self) -> float | None:
        return rate(self.useful_retrievals, self.reflections)


@dataclass(frozen=True)
class Usefulness:
    post_failure: UsefulnessSide
    post_success: UsefulnessSide

    @property
    def ratio(self) -> float | None:
        """Post-failure usefulness per reflection over post-success (reference 3.4 times)."""
        a, b = self.post_failure.per_reflection, self.post_success.per_reflection
        return a / b if a is not None and b else None


def usefulness(reflections_by_kind: dict[str, int], useful_by_kind: dict[str, int]) -> Usefulness:
    """Useful retrievals per stored reflection, post-failure (failure, partial) vs
    post-success (success); decisions are neither."""

    def side(label: str, kinds: Sequence[str]) -> UsefulnessSide:
        return UsefulnessSide(
            label,
            sum(reflections_by_kind.get(k, 0) for k in kinds),
            sum(useful_by_kind.get(k, 0) for k in kinds),
        )

    return Usefulness(
        side("Post-failure (failure, partial)", POST_FAILURE_KINDS),
        side("Post-success", POST_SUCCESS_KINDS),
    )


# --------------------------------------------------------------------------- intervals


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of a binomial rate (95 % by default); None without trials.

    Unlike the normal (Wald) interval it stays inside [0, 1] and keeps its coverage for the
    small samples and rates near 1 the lift table is full of.
    """
    if n <= 0:
        return None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def cross_agent_share(total: int, cross_agent: int) -> float | None:
    return rate(cross_agent, total)
