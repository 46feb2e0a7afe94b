"""A reflection's lift: how the tasks it was injected into fared against its department's
in the same ISO weeks, as pure arithmetic over weekly (tasks, successes) counts."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

DEFAULT_MIN_TASKS = 5


@dataclass(frozen=True)
class Lift:
    """Success of the tasks the reflection was injected into against the department's.

    Partial outcomes count as not success (DOMAIN §7). Rates and lift are None when fewer
    than min_tasks injected tasks finished in the window: too few to say anything.
    """

    injected_tasks: int
    injected_successes: int
    department_tasks: int  # the department's tasks in the weeks the injected tasks fall in
    department_successes: int
    min_tasks: int
    injected_rate: float | None = None
    department_rate: float | None = None  # week-weighted, see injection_lift
    lift: float | None = None  # injected_rate - department_rate, in rate points

    @property
    def has_enough_tasks(self) -> bool:
        return self.lift is not None


def week_weighted_lift(
    injected_by_week: dict[date, tuple[int, int]],
    department_by_week: dict[date, tuple[int, int]],
    *,
    min_tasks: int = DEFAULT_MIN_TASKS,
) -> Lift:
    """The lift from weekly (tasks, successes) counts: the injected tasks', and the
    department's in the same ISO weeks (injection_lift; also the insights lift table)."""
    department = department_by_week
    n_injected = sum(tasks for tasks, _ in injected_by_week.values())
    n_injected_ok = sum(ok for _, ok in injected_by_week.values())
    weeks = [department.get(w, (0, 0)) for w in injected_by_week]
    lift = Lift(
        injected_tasks=n_injected,
        injected_successes=n_injected_ok,
        department_tasks=sum(tasks for tasks, _ in weeks),
        department_successes=sum(ok for _, ok in weeks),
        min_tasks=min_tasks,
    )
    if n_injected < max(1, min_tasks):
        return lift
    # Tasks of other departments may inject it too; a week without any task of the
    # department's own has no baseline and drops out of the weighting.
    weights = {w: n for w, (n, _) in injected_by_week.items() if department.get(w, (0, 0))[0]}
    injected_rate = n_injected_ok / n_injected
    if not weights:
        return replace(lift, injected_rate=injected_rate)
    department_rate = sum(
        n * department[w][1] / department[w][0] for w, n in weights.items()
    ) / sum(weights.values())
    return replace(
        lift,
        injected_rate=injected_rate,
        department_rate=department_rate,
        lift=injected_rate - department_rate,
    )
