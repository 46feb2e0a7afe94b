"""Webhook endpoints admins register and the deliveries of each event to each of them."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


class Event(models.TextChoices):
    """What an endpoint may subscribe to (docs/api.md, Webhooks)."""

    REFLECTION_DEPRECATED = "reflection.deprecated", "A reflection was deprecated"
    REFLECTION_RESTORED = "reflection.restored", "A deprecated reflection was restored"
    REFLECTION_QUARANTINED = "reflection.quarantined", "A reflection was quarantined"
    CYCLE_CLOSED = "review_cycle.closed", "A review cycle was closed"


# Sent by an admin's "Send test event" to that one endpoint; nobody subscribes to it.
TEST_EVENT = "webhook.test"


class Endpoint(models.Model):
    """An address an admin registered, the events it wants and the secret its deliveries are
    signed with. Deliveries only ever go to `url` as stored here (webhooks.delivery)."""

    url = models.URLField(max_length=500)
    events = models.JSONField(default=list)  # Event values
    # `whsec_` + base64 of 32 random bytes (the specification's form). Kept in the clear, for
    # signing needs it; shown to the admin once, when the endpoint is created, never again.
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.url

    def wants(self, event: str) -> bool:
        return self.active and event in self.events


class Delivery(models.Model):
    """One event for one endpoint: its signed body's content, and how sending it went."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        FAILED = "failed", "Failed, will retry"
        DELIVERED = "delivered", "Delivered"
        GAVE_UP = "gave_up", "Gave up"

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_type = models.CharField(max_length=64)
    # The webhook-id header: the same for every attempt and every replay, so a receiver can
    # drop what it already handled; unique per endpoint, so an event announced twice is one
    # delivery.
    event_id = models.CharField(max_length=100)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)  # since it was created or last replayed
    replays = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event_id"], name="delivery_event_once")
        ]
        indexes = [
            # An endpoint's delivery log, newest first.
            models.Index(fields=["endpoint", "-created_at", "-id"], name="delivery_log"),
            # What is due: pending and failed deliveries by the time of their next attempt.
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id} → endpoint {self.endpoint_id}"

    def is_due(self, now: datetime) -> bool:
        return self.status in (self.Status.PENDING, self.Status.FAILED) and (
            self.next_attempt_at is None or self.next_attempt_at <= now
        )

    @property
    def may_replay(self) -> bool:
        return self.status in (self.Status.DELIVERED, self.Status.GAVE_UP, self.Status.FAILED)
