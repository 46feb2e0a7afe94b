"""One delivery attempt: claim a due delivery, send it (webhooks.delivery), record how it went
and when the next attempt is due; the task (webhooks.tasks) queues that one."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from webhooks import delivery
from webhooks.models import Delivery

logger = logging.getLogger(__name__)
# A claimed delivery is not claimed again for this long (longer than a request may take), so
# two workers running the same retry send it once.
CLAIM = timedelta(seconds=delivery.TIMEOUT_SECONDS * 3)


def attempt(delivery_id: int) -> tuple[str, datetime | None]:
    """Make the attempt a queued task stands for, if it is still due: claim it, send it and
    record how it went. Returns the status and, after a failure that will be retried, when."""
    now = timezone.now()
    claimed_until = now + CLAIM
    due = Delivery.objects.filter(
        pk=delivery_id,
        status__in=[Delivery.Status.PENDING, Delivery.Status.FAILED],
        next_attempt_at__lte=now,
        endpoint__active=True,
    )
    # The claim: whoever moves next_attempt_at on first sends; a duplicate task finds it not due.
    if not due.update(next_attempt_at=claimed_until):
        return "not due", None
    row = Delivery.objects.select_related("endpoint").get(pk=delivery_id)
    outcome = delivery.send(
        url=row.endpoint.url,
        secret=row.endpoint.secret,
        event_id=row.event_id,
        payload=row.payload,
        at=timezone.now(),
        allow_private=settings.WEBHOOKS_ALLOW_PRIVATE,
    )
    return _record_outcome(row, outcome, claimed_until=claimed_until)


def _record_outcome(
    row: Delivery, outcome: delivery.Outcome, *, claimed_until: datetime
) -> tuple[str, datetime | None]:
    now = timezone.now()
    row.attempts += 1
    row.last_attempt_at, row.last_status_code = now, outcome.status_code
    row.last_error = outcome.error[: delivery.ERROR_CHARS]
    if outcome.delivered:
        row.status, row.delivered_at, row.next_attempt_at = Delivery.Status.DELIVERED, now, None
    elif (wait := delivery.next_delay(row.attempts)) is not None:
        row.status, row.next_attempt_at = Delivery.Status.FAILED, now + wait
    else:
        row.status, row.next_attempt_at = Delivery.Status.GAVE_UP, None
    fields = ["attempts", "last_attempt_at", "last_status_code", "last_error", "status"]
    # Only while the claim holds: a replay meanwhile started a schedule of its own.
    recorded = Delivery.objects.filter(pk=row.pk, next_attempt_at=claimed_until).update(
        **{f: getattr(row, f) for f in [*fields, "delivered_at", "next_attempt_at"]}
    )
    if not recorded:
        return "superseded", None
    if not outcome.delivered:
        # The endpoint's id, never its address, secret or body.
        logger.info(
            "webhook delivery %s to endpoint %s failed (attempt %s): %s",
            row.pk,
            row.endpoint_id,
            row.attempts,
            row.status,
        )
    retry_at = row.next_attempt_at if row.status == Delivery.Status.FAILED else None
    return row.status, retry_at
