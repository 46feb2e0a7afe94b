"""An import an admin started from the browser, run in the background and polled for progress."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # What the job is doing now, in words for the progress bar ("Reading reflection files").
    stage = models.CharField(max_length=64, blank=True, default="")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The bar, 0 to 100, only ever raised: each stage fills its own band of it (`advance`), so
    # a stage that starts its own count of files never sends the bar back.
    progress = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # [{"name": "workspace.zip", "size": 123}] as uploaded (names are masked when unsafe).
    uploads = models.JSONField(default=list)
    default_department = models.CharField(max_length=64, blank=True, default="")
    create_departments = models.BooleanField(default=False)
    # The per-file, per-line report: what the import commands print with --json, masked.
    report = models.JSONField(default=dict)
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return self.progress

    def advance(self, band: tuple[int, int]) -> None:
        """Move the bar to `done` of `total` within the current stage's band (lo, hi) of the
        whole, never back, and never to 100 before the job is done."""
        low, high = band
        within = min(self.done / self.total, 1.0) if self.total else 0.0
        self.progress = max(self.progress, min(99, int(low + (high - low) * within)))

    @property
    def duration(self) -> str:
        """How long the job ran, for people: "0.4 s", "12 s", "3 min 5 s"."""
        if not (self.started_at and self.finished_at):
            return ""
        seconds = (self.finished_at - self.started_at).total_seconds()
        if seconds < 10:
            return f"{seconds:.1f} s"
        minutes, rest = divmod(round(seconds), 60)
        return f"{minutes} min {rest} s" if minutes else f"{rest} s"
