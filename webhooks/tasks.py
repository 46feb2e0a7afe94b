"""Background jobs of webhooks (Django's tasks framework, database backend): one delivery attempt
per task; a failed attempt queues the next with run_after, by the retry schedule."""

from __future__ import annotations

from datetime import datetime

from django.tasks import task

from webhooks.attempts import attempt


@task
def deliver(delivery_id: int) -> dict:
    """Attempt a delivery if it is still due; queue the retry a failure schedules."""
    status, retry_at = attempt(delivery_id)
    if retry_at is not None:
        queue_delivery(delivery_id, run_after=retry_at)
    return {"delivery": delivery_id, "status": status}


def queue_delivery(delivery_id: int, *, run_after: datetime | None = None) -> None:
    (deliver.using(run_after=run_after) if run_after else deliver).enqueue(delivery_id)
