"""Tokens that let an orchestrator or an agent runtime use the API: scoped, stored hashed."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """A bearer token for /api/v1/. Only the SHA-256 of the token is stored: the token itself
    is shown once, when it is created, and can never be read back."""

    class Scope(models.TextChoices):
        INGEST = "ingest", "Ingest (post reflections, retrievals, tasks, judgements)"
        RETRIEVE = "retrieve", "Retrieve (retrieve and follow the change feed)"

    name = models.CharField(max_length=100)
    scope = models.CharField(max_length=16, choices=Scope.choices)
    secret_hash = models.CharField(max_length=64, unique=True)
    # The first characters after the prefix, so an admin can tell tokens apart in the list.
    hint = models.CharField(max_length=16)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Optional: from this moment the API answers 401 "expired"; None never expires.
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.scope})"

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and not self.is_expired()


class IdempotentAnswer(models.Model):
    """A /retrieve answer kept under the caller's Idempotency-Key for a day: the same key from
    the same token gets the same answer back and nothing is logged twice (a runtime that
    retries after a timeout does not inflate retrieval counts)."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    # SHA-256 of the question (every parameter), so a key reused for another question is refused.
    fingerprint = models.CharField(max_length=64)
    answer = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["token", "key"], name="idempotent_answer_token_key")
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotent_answer_created")]

    def __str__(self) -> str:
        return f"{self.key} ({self.token_id})"
