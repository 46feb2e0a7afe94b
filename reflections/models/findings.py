"""What the scanner found unsafe in a reflection's text (DOMAIN §3.4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from reflections.models.memory import Reflection


class ScanFinding(models.Model):
    """Something unsafe in a reflection's text (DOMAIN §3.4). Never stores the value itself:
    only where it is (offsets into the text whose hash is recorded) and what kind it is."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        REDACTED = "redacted", "Redacted"

    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="findings")
    content_hash = models.CharField(max_length=64)  # the text the offsets point into
    # "" when the offsets point into the text; otherwise the field they point into, as the
    # import read it ("tags[2]", "json:evaluator_output.errors[0].message").
    field = models.CharField(max_length=255, blank=True, default="")
    rule = models.CharField(max_length=80)
    category = models.CharField(max_length=20)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    summary = models.CharField(max_length=255)
    detected_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["reflection_id", "start"]
        constraints = [
            # Scanning the same text twice finds the same spans once.
            models.UniqueConstraint(
                fields=["reflection", "content_hash", "field", "rule", "start", "end"],
                name="finding_unique_span",
            ),
        ]
        # The quarantine page: open findings, newest first.
        indexes = [models.Index(fields=["status", "-detected_at"], name="finding_open")]

    def __str__(self) -> str:
        where = f"{self.field} " if self.field else ""
        return f"{self.reflection_id}: {self.rule} {where}[{self.start}:{self.end}]"
