"""Writes of webhooks: registering, disabling and deleting endpoints; recording an event for the
endpoints that want it (an outbox, in the transaction that made the event); replays and test
events. The attempts themselves are webhooks.attempts, run by the task worker."""

from __future__ import annotations

import base64
import secrets
import uuid

from django.db import transaction
from django.utils import timezone

from webhooks import delivery
from webhooks.models import TEST_EVENT, Delivery, Endpoint, Event
from webhooks.payloads import envelope
from webhooks.tasks import queue_delivery


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


@transaction.atomic
def create_endpoint(*, url: str, events: list[str], user) -> Endpoint:
    """Register an address; the secret is on the returned endpoint, for showing once."""
    delivery.check_url(url)
    unknown = set(events) - set(Event.values)
    if unknown or not events:
        raise ValueError("pick at least one of the listed events")
    ordered = [e for e in Event.values if e in events]
    return Endpoint.objects.create(url=url, events=ordered, secret=new_secret(), created_by=user)


@transaction.atomic
def set_active(*, endpoint: Endpoint, active: bool) -> Endpoint:
    """Disable (nothing is sent; what waits keeps waiting) or enable again (what waits is
    queued at once)."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    if endpoint.active == active:
        return endpoint
    endpoint.active = active
    endpoint.save(update_fields=["active"])
    if active:
        waiting = Delivery.objects.filter(
            endpoint=endpoint, status__in=[Delivery.Status.PENDING, Delivery.Status.FAILED]
        )
        waiting.update(next_attempt_at=timezone.now())
        _enqueue_on_commit(list(waiting.values_list("pk", flat=True)))
    return endpoint


def delete_endpoint(*, endpoint: Endpoint) -> None:
    """The endpoint and its delivery log; a queued attempt finds nothing and does nothing."""
    endpoint.delete()


def active_endpoints() -> list[Endpoint]:
    return list(Endpoint.objects.filter(active=True))


def record_event(
    *, event: str, event_id: str, payload: dict, endpoints: list[Endpoint] | None = None
) -> list[int]:
    """One delivery per active endpoint that wants `event` (of `endpoints`, when the caller
    read them already), written in the caller's transaction; each is queued once it commits.
    An event recorded twice is delivered once."""
    if endpoints is None:
        endpoints = active_endpoints()
    endpoints = [e for e in endpoints if e.wants(event)]
    if not endpoints:
        return []
    now = timezone.now()
    rows = [
        Delivery(
            endpoint=e,
            event_type=event,
            event_id=event_id,
            payload=payload,
            next_attempt_at=now,
            created_at=now,
        )
        for e in endpoints
    ]
    Delivery.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        Delivery.objects.filter(
            endpoint__in=endpoints, event_id=event_id, attempts=0, created_at=now
        ).values_list("pk", flat=True)
    )
    _enqueue_on_commit(ids)
    return ids


@transaction.atomic
def send_test_event(*, endpoint: Endpoint, user) -> Delivery:
    payload = envelope(TEST_EVENT, {"endpoint": endpoint.pk, "sent_by": user.get_username()})
    row = Delivery.objects.create(
        endpoint=endpoint,
        event_type=TEST_EVENT,
        event_id=f"msg_test-{uuid.uuid4().hex}",
        payload=payload,
        next_attempt_at=timezone.now(),
    )
    _enqueue_on_commit([row.pk])
    return row


@transaction.atomic
def replay(*, delivery_row: Delivery) -> Delivery:
    """Send the same event again, with the same webhook-id, from a fresh retry schedule."""
    row = Delivery.objects.select_for_update().get(pk=delivery_row.pk)
    if not row.may_replay:
        raise ValueError("this delivery is waiting for its first attempt")
    row.status, row.attempts, row.next_attempt_at = Delivery.Status.PENDING, 0, timezone.now()
    row.replays += 1
    row.save(update_fields=["status", "attempts", "next_attempt_at", "replays"])
    _enqueue_on_commit([row.pk])
    return row


def _enqueue_on_commit(ids: list[int]) -> None:
    for pk in ids:
        transaction.on_commit(lambda pk=pk: queue_delivery(pk))
