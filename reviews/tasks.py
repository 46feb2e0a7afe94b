"""Background jobs of the review (Django's tasks framework, database backend): preparing a
cycle's evidence once it is open (reviews.services.evidence)."""

from __future__ import annotations

from django.tasks import task


@task
def prepare_cycle_evidence(cycle_id: int) -> dict:
    """Compute and store the window evidence of every item of the cycle not already current."""
    from reviews.models import ReviewCycle
    from reviews.services.evidence import prepare_cycle

    cycle = ReviewCycle.objects.filter(pk=cycle_id).first()
    if cycle is None:  # deleted meanwhile
        return {"cycle": cycle_id, "status": "skipped"}
    return {"cycle": cycle_id, "prepared": prepare_cycle(cycle, stale_only=True)}
