"""Append-only evidence of change: a reflection's history, and what each import did."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    """Rows that are evidence (history, audit trails) are added, never changed or removed."""

    def update(self, **kwargs):
        raise TypeError(
            f"{self.model._meta.verbose_name_plural}: append-only, never changed or removed"
        )

    def delete(self):
        raise TypeError(
            f"{self.model._meta.verbose_name_plural}: append-only, never changed or removed"
        )


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError(
                f"{self._meta.verbose_name_plural}: append-only, never changed or removed"
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{self._meta.verbose_name_plural}: append-only, never changed or removed")


class ReflectionHistory(AppendOnlyModel):
    """One row per change to a reflection: its creation, content updates and state changes."""

    class Change(models.TextChoices):
        CREATED = "created", "Created"
        CONTENT = "content", "Content updated"
        STATE = "state", "State changed"

    reflection = models.ForeignKey(
        "reflections.Reflection", on_delete=models.CASCADE, related_name="history"
    )
    at = models.DateTimeField()
    change = models.CharField(max_length=16, choices=Change.choices)
    # A person, or a process ("import", "policy:decay") when nobody clicked anything.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(max_length=64)
    from_state = models.CharField(max_length=16, blank=True, default="")
    to_state = models.CharField(max_length=16, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    # For content updates: the hash before and after.
    from_hash = models.CharField(max_length=64, blank=True, default="")
    to_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]
        verbose_name_plural = "reflection history"
        # The detail page: one reflection's history in order.
        indexes = [models.Index(fields=["reflection", "at"], name="history_reflection_at")]

    def __str__(self) -> str:
        return f"{self.reflection_id}: {self.change} {self.from_state}→{self.to_state}"


class ImportRun(models.Model):
    """What one import command did, for admins who need to know where a row came from."""

    class Kind(models.TextChoices):
        REFLECTIONS = "reflections", "Reflections"
        EVENTS = "events", "Retrieval and task logs"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    paths = models.JSONField(default=list)
    counts = models.JSONField(default=dict)
    rejected = models.JSONField(default=list)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.kind} import {self.started_at:%Y-%m-%d %H:%M}"
