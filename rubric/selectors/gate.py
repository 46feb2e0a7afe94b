"""The trigger gate of a reflection, read from the memory (DOMAIN §4): whether its task
should have produced a reflection (gated) or not (ungated), from the task's outcome and start
confidence and the agent's earlier reflections of the same task type."""

from __future__ import annotations

from django.db.models import Count, F, OuterRef, QuerySet, Subquery, Value, Window
from django.db.models.functions import Coalesce, Rank

from reflections.models import Reflection, TaskRun
from reflections.policies import DEFAULT_CONFIG, PolicyConfig, should_have_reflected

GATED, UNGATED, UNKNOWN = "gated", "ungated", "unknown"


def with_gate_inputs(reflections: QuerySet[Reflection]) -> QuerySet[Reflection]:
    """The reflections with what the trigger gate needs, computed in SQL: their task's outcome
    and start confidence (TaskRun by task_id) and `prior_of_type`, the number of reflections
    of the same agent and task type created strictly before it.

    `prior_of_type` equals RANK() OVER (PARTITION BY agent, task_type ORDER BY created_at) - 1
    over the whole memory; it is written as a correlated COUNT so that only the reflections
    asked about are counted (the refl_agent_created index finds an agent's earlier ones), not
    a window over every reflection on every page view."""
    task = TaskRun.objects.filter(task_id=OuterRef("task_id"))
    prior = (
        Reflection.objects.filter(
            agent_id=OuterRef("agent_id"),
            task_type=OuterRef("task_type"),
            created_at__lt=OuterRef("created_at"),
        )
        .order_by()
        .values("agent_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return reflections.annotate(
        task_outcome=Subquery(task.values("outcome")[:1]),
        task_confidence=Subquery(task.values("confidence_at_start")[:1]),
        prior_of_type=Coalesce(Subquery(prior), Value(0)),
    )


def gate_class(
    *,
    task_id: str,
    task_outcome: str | None,
    task_confidence: float | None,
    prior_of_type: int,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> str:
    """gated / ungated by `should_have_reflected`; unknown when the task is not on record."""
    if not task_id or task_outcome is None:
        return UNKNOWN
    met = should_have_reflected(
        outcome=task_outcome,
        confidence_at_start=task_confidence,
        prior_reflections_of_type=prior_of_type,
        config=config,
    )
    return GATED if met else UNGATED


def gate_classes(
    reflections: QuerySet[Reflection], *, whole_memory: bool = False
) -> dict[int, str]:
    """{id: gated | ungated | unknown} for the reflections, one query. With `whole_memory`
    (classifying most of the memory at once, as the demo does), `prior_of_type` is the RANK()
    window over every reflection instead of a correlated count per reflection, which grows
    with the square of an agent's reflections of one type."""
    if whole_memory:
        ids = set(reflections.values_list("pk", flat=True))
        task = TaskRun.objects.filter(task_id=OuterRef("task_id"))
        rank = Window(
            Rank(), partition_by=[F("agent_id"), F("task_type")], order_by=F("created_at").asc()
        )
        rows = Reflection.objects.annotate(
            task_outcome=Subquery(task.values("outcome")[:1]),
            task_confidence=Subquery(task.values("confidence_at_start")[:1]),
            prior_of_type=rank - 1,
        ).values_list("id", "task_id", "task_outcome", "task_confidence", "prior_of_type")
        return {
            pk: gate_class(task_id=t, task_outcome=out, task_confidence=conf, prior_of_type=prior)
            for pk, t, out, conf, prior in rows
            if pk in ids
        }
    rows = with_gate_inputs(reflections).values_list(
        "id", "task_id", "task_outcome", "task_confidence", "prior_of_type"
    )
    return {
        pk: gate_class(task_id=task_id, task_outcome=out, task_confidence=conf, prior_of_type=prior)
        for pk, task_id, out, conf, prior in rows
    }
