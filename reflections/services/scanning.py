"""Re-scanning what is stored: new findings are stored, their reflections quarantined and
masked, and agent names and task labels the scanner now flags are masked where they are kept."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from reflections.models import Agent, Reflection, ReflectionHistory, ScanFinding, State, TaskRun
from reflections.scanning import describe_findings
from reflections.scanning.fields import scan_reflection
from reflections.services.batches import agent_name, safe_value
from reflections.services.stored_fields import mask_stored, stored_values


@transaction.atomic
def scan_reflections(
    *, department: str | None = None, now: datetime | None = None, user=None
) -> dict:
    """Re-scan stored reflections (text and fields); new findings are stored and their
    reflections quarantined with their columns masked.

    A finding an admin already dismissed is the same row (same text, field, rule and span),
    so a re-scan does not bring it back.
    """
    now = now or timezone.now()
    qs = Reflection.objects.select_related("department", "agent").order_by("id")
    if department:
        qs = qs.filter(department__slug=department)
    scanned = 0
    found: dict[int, list[ScanFinding]] = {}
    for reflection in qs.iterator(chunk_size=2000):
        scanned += 1
        for f in scan_reflection(reflection.original_text, stored_values(reflection)):
            found.setdefault(reflection.pk, []).append(
                ScanFinding(
                    reflection_id=reflection.pk,
                    content_hash=reflection.content_hash,
                    field=f.field[:255],
                    rule=f.rule,
                    category=f.category,
                    start=f.start,
                    end=f.end,
                    summary=f.summary[:255],
                    detected_at=now,
                )
            )
    existing = set(
        ScanFinding.objects.filter(reflection_id__in=found).values_list(
            "reflection_id", "content_hash", "field", "rule", "start", "end"
        )
    )
    new = [
        f
        for findings in found.values()
        for f in findings
        if (f.reflection_id, f.content_hash, f.field, f.rule, f.start, f.end) not in existing
    ]
    ScanFinding.objects.bulk_create(new, batch_size=1000, ignore_conflicts=True)

    by_reflection: dict[int, list[ScanFinding]] = {}
    for f in new:
        by_reflection.setdefault(f.reflection_id, []).append(f)
    quarantined = 0
    # Newly flagged ones are quarantined; those already quarantined get their columns masked
    # too (rows quarantined before columns were masked, or a newer rule's finding).
    for reflection in (
        Reflection.objects.filter(pk__in=found)
        .filter(Q(pk__in=by_reflection) | Q(state=State.QUARANTINED))
        .select_related("department", "agent")
    ):
        changed = mask_stored(reflection, found[reflection.pk])
        if reflection.state != State.QUARANTINED:
            ReflectionHistory.objects.create(
                reflection=reflection,
                at=now,
                change=ReflectionHistory.Change.STATE,
                actor=user,
                actor_label="scan",
                from_state=reflection.state,
                to_state=State.QUARANTINED,
                reason=f"quarantined: {describe_findings(by_reflection[reflection.pk])}",
            )
            reflection.state = State.QUARANTINED
            changed.append("state")
            quarantined += 1
        if changed:
            reflection.updated_at = now
            reflection.save()
    return {
        "scanned": scanned,
        "new_findings": len(new),
        "quarantined": quarantined,
        "masked_names": _mask_names(),
    }


def _mask_names() -> int:
    """Agent names, task types, failure modes and tools the scanner flags, masked where they
    are stored (logs bring them in without a text to quarantine). Each distinct value is
    scanned once."""
    changed = 0
    for agent in Agent.objects.all():
        name = agent_name(agent.name, safe_value(agent.name))
        if name != agent.name:
            agent.name = name
            agent.save(update_fields=["name"])
            changed += 1
    for column in ("task_type", "failure_mode"):
        for value in TaskRun.objects.values_list(column, flat=True).distinct():
            if value and (masked := safe_value(value)) != value:
                changed += TaskRun.objects.filter(**{column: value}).update(**{column: masked})
    return changed
