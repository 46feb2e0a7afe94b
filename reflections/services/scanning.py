"""Re-scanning stored reflections: new findings are stored and their reflections quarantined."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from reflections.models import Reflection, ReflectionHistory, ScanFinding, State
from reflections.scanning import describe_findings, scan_text


@transaction.atomic
def scan_reflections(
    *, department: str | None = None, now: datetime | None = None, user=None
) -> dict:
    """Re-scan stored reflections; new findings are stored and their reflections quarantined.

    A finding an admin already dismissed is the same row (same text, rule and span), so a
    re-scan does not bring it back.
    """
    now = now or timezone.now()
    qs = Reflection.objects.order_by("id")
    if department:
        qs = qs.filter(department__slug=department)
    scanned = 0
    found: list[ScanFinding] = []
    for pk, digest, text in qs.values_list("id", "content_hash", "original_text").iterator(
        chunk_size=2000
    ):
        scanned += 1
        found.extend(
            ScanFinding(
                reflection_id=pk,
                content_hash=digest,
                rule=f.rule,
                category=f.category,
                start=f.start,
                end=f.end,
                summary=f.summary[:255],
                detected_at=now,
            )
            for f in scan_text(text)
        )
    existing = set(
        ScanFinding.objects.filter(reflection_id__in={f.reflection_id for f in found}).values_list(
            "reflection_id", "content_hash", "rule", "start", "end"
        )
    )
    new = [
        f
        for f in found
        if (f.reflection_id, f.content_hash, f.rule, f.start, f.end) not in existing
    ]
    ScanFinding.objects.bulk_create(new, batch_size=1000, ignore_conflicts=True)

    flagged = {f.reflection_id for f in new}
    to_quarantine = list(
        Reflection.objects.filter(pk__in=flagged)
        .exclude(state=State.QUARANTINED)
        .values_list("id", "state")
    )
    by_reflection: dict[int, list[ScanFinding]] = {}
    for f in new:
        by_reflection.setdefault(f.reflection_id, []).append(f)
    ReflectionHistory.objects.bulk_create(
        ReflectionHistory(
            reflection_id=pk,
            at=now,
            change=ReflectionHistory.Change.STATE,
            actor=user,
            actor_label="scan",
            from_state=state,
            to_state=State.QUARANTINED,
            reason=f"quarantined: {describe_findings(by_reflection[pk])}",
        )
        for pk, state in to_quarantine
    )
    Reflection.objects.filter(pk__in=[pk for pk, _ in to_quarantine]).update(
        state=State.QUARANTINED, updated_at=now
    )
    return {"scanned": scanned, "new_findings": len(new), "quarantined": len(to_quarantine)}
