"""Background jobs of the review (Django's tasks framework, database backend): preparing a
cycle's evidence once it is open (reviews.services.evidence)."""

from __future__ import annotations

from django.tasks import task


@task
def prepare_cycle_evidence(cycle_id: int) -> dict:
    """Compute and store the window evidence of every item of the cycle not already current.

    A cycle closed before the worker reached it is skipped: nobody works its queue, and an
    item read later computes its evidence then (the demo opens and closes its past quarters'
    cycles in one go: at the large scale, twelve minutes of the worker's time for nothing)."""
    from reviews.models import ReviewCycle
    from reviews.services.evidence import prepare_cycle

    cycle = ReviewCycle.objects.filter(pk=cycle_id).first()
    if cycle is None:  # deleted meanwhile
        return {"cycle": cycle_id, "status": "skipped"}
    if not cycle.is_open:
        return {"cycle": cycle_id, "status": "closed"}
    return {"cycle": cycle_id, "prepared": prepare_cycle(cycle, stale_only=True)}
