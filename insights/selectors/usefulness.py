"""Reads for the usefulness page: useful retrievals by source outcome, cross-agent flows between
departments, and the lift table."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from insights import metrics
from insights.metrics import Usefulness
from insights.selectors.common import scoped
from reflections.lift import Lift, week_weighted_lift
from reflections.models import (
    Department,
    Reflection,
    RetrievalDay,
    RetrievalFlowDay,
    State,
    TaskOutcomeDay,
)
from reflections.selectors.tasks import injected_weeks

LIFT_TOP = 20
# Below this many injected tasks the lift table shows counts but no rate: a Wilson interval
# over fewer than ten tasks is wider than any lift worth reading.
LIFT_MIN_TASKS = 10


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
        scoped(Reflection.objects.all(), department_ids)
        .values_list("kind")
        .annotate(n=Count("id"), useful=Coalesce(Sum("useful_retrieval_count"), 0))
        .order_by()
    ):
        stored[kind] = n
        if n_useful:
            useful[kind] = n_useful
    shares = scoped(RetrievalDay.objects.all(), department_ids).aggregate(
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
    week-weighted), over all history; three queries, none of them over the injections."""
    # The ranking reads the maintained per-reflection count (reflections.services keeps it equal
    # to counting the injections, which grouped 2.3M rows in 3 s); the index refl_injections
    # yields the top rows in order.
    shown = {
        row[0]: row
        for row in scoped(
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
    # Each one's injected tasks per week, summed from the daily rollup (InjectionOutcomeDay:
    # a few hundred day rows each, where joining their injections to the tasks read ~536,000
    # rows at 10M retrievals).
    injected = defaultdict(dict, injected_weeks(ids))
    all_weeks = [w for by_week in injected.values() for w in by_week]
    department: dict[int, dict[date, tuple[int, int]]] = defaultdict(dict)
    if all_weeks:
        # The departments' weeks, summed from the daily task-outcome rollup.
        for dept, day, tasks, ok in TaskOutcomeDay.objects.filter(
            department_id__in={row[2] for row in shown.values()},
            day__gte=min(all_weeks),
            day__lt=max(all_weeks) + timedelta(weeks=1),
        ).values_list("department_id", "day", "finished", "successes"):
            week = day - timedelta(days=day.weekday())
            before = department[dept].get(week, (0, 0))
            department[dept][week] = (before[0] + tasks, before[1] + ok)
    rows = []
    for pk, n in ranked:
        _, title, dept_id, slug, agent, kind, _ = shown[pk]
        lift = week_weighted_lift(injected[pk], department[dept_id], min_tasks=LIFT_MIN_TASKS)
        interval = None
        if lift.injected_rate is not None:
            interval = metrics.wilson_interval(lift.injected_successes, lift.injected_tasks)
        rows.append(LiftRow(pk, title, slug, agent or "", kind, n, lift, interval))
    return rows
