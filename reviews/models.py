"""Quarterly review (DOMAIN §5): cycles, their frozen snapshot of items, and the append-only
log of every verdict and undo."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from reflections.models import AppendOnlyModel, Department, Reflection


class ReviewCycle(models.Model):
    """One department's audit for one quarter. Its items are a frozen snapshot of the
    top reflections by retrievals in the window, taken when it was opened."""

    department = models.ForeignKey(Department, on_delete=models.PROTECT, related_name="cycles")
    quarter = models.CharField(max_length=6)  # "2026Q3"
    # Retrievals counted from window_start (inclusive) to window_end (exclusive).
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()
    size = models.PositiveSmallIntegerField(default=100)
    reviewers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="review_cycles")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-window_end", "department__name"]
        constraints = [
            models.UniqueConstraint(fields=["department", "quarter"], name="cycle_unique_quarter"),
        ]

    def __str__(self) -> str:
        return f"{self.department.slug} {self.quarter}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Verdict(models.TextChoices):
    KEEP = "keep", "Keep"
    ECHO_CHAMBER = "echo_chamber", "Echo chamber"
    OUTDATED = "outdated", "Outdated"
    DUPLICATE = "duplicate", "Duplicate"


class ReviewItem(models.Model):
    """One reflection in a cycle's snapshot, its reviewer and its current verdict."""

    cycle = models.ForeignKey(ReviewCycle, on_delete=models.CASCADE, related_name="items")
    rank = models.PositiveSmallIntegerField()  # 1 = most retrieved in the window
    reflection = models.ForeignKey(Reflection, on_delete=models.PROTECT, related_name="+")
    # Frozen at opening: later retrievals do not reshuffle the queue.
    retrievals = models.PositiveIntegerField()
    last_retrieved_at = models.DateTimeField()
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="review_items",
    )
    verdict = models.CharField(max_length=16, choices=Verdict.choices, blank=True, default="")
    duplicate_of = models.ForeignKey(
        Reflection, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    note = models.TextField(blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # What a non-keep verdict replaced, so undo restores exactly the prior state.
    state_before = models.CharField(max_length=16, blank=True, default="")
    reason_before = models.CharField(max_length=255, blank=True, default="")
    # Optimistic concurrency: every decision or undo bumps it; a form carries the version it
    # was rendered with, and a stale one is a conflict, never an overwrite.
    version = models.PositiveIntegerField(default=0)
    # Effort: seconds from being shown to the verdict (idle capped), summed over decisions.
    seconds_spent = models.PositiveIntegerField(default=0)
    # "Unsure / needs discussion": the item stays open and is listed for the cycle's manager;
    # the cycle's other reviewers may read it and join its thread.
    unsure_since = models.DateTimeField(null=True, blank=True)
    # A deprecating verdict whose reflection was put back since (reviews.services.restore): the
    # verdict stays as decided, and the item counts as restored, not deprecated, in the cycle's
    # report and export. A new verdict on the item clears it.
    restored_at = models.DateTimeField(null=True, blank=True)
    restored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    restore_note = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["cycle_id", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["cycle", "rank"], name="item_unique_rank"),
            models.UniqueConstraint(fields=["cycle", "reflection"], name="item_unique_reflection"),
        ]
        # A reviewer's queue: their items in a cycle in rank order.
        indexes = [models.Index(fields=["cycle", "reviewer", "rank"], name="item_queue")]

    def __str__(self) -> str:
        return f"{self.cycle} #{self.rank}"

    @property
    def is_done(self) -> bool:
        return bool(self.verdict)

    @property
    def is_restored(self) -> bool:
        return self.restored_at is not None

    @property
    def is_unsure(self) -> bool:
        return self.unsure_since is not None

    @property
    def thread_key(self) -> str:
        return f"review-item:{self.pk}"


class PreparedEvidence(models.Model):
    """An item's window-bound evidence, computed when its cycle opens (reviews.services.
    evidence): retrievals in the window and their weekly series, lift, who retrieved it, the
    echo and outdated signals. Valid while `version` is the current one (the EVENTS data
    version and the code that computed it): a late import inside the window makes it stale,
    a verdict does not."""

    item = models.OneToOneField(
        ReviewItem, on_delete=models.CASCADE, primary_key=True, related_name="prepared"
    )
    version = models.CharField(max_length=80)
    data = models.JSONField()
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"evidence of {self.item_id} @ {self.version}"


class ReviewBatch(models.Model):
    """One bulk action on many items of a cycle: each item still gets its own Decision, and
    the batch is undone as a whole."""

    class Action(models.TextChoices):
        KEEP = "keep", "Keep all"
        DUPLICATE = "duplicate", "Duplicate of one original"
        ASSIGN = "assign", "Assign to another reviewer"

    cycle = models.ForeignKey(ReviewCycle, on_delete=models.CASCADE, related_name="batches")
    action = models.CharField(max_length=16, choices=Action.choices)
    duplicate_of = models.ForeignKey(
        Reflection, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    to_reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    count = models.PositiveIntegerField(default=0)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.cycle} batch {self.pk}: {self.action} of {self.count}"

    @property
    def key(self) -> str:
        """What its items' Decision rows carry in `batch` (a cluster action's key is a uuid)."""
        return f"bulk-{self.pk}"

    @property
    def decisions(self):
        return Decision.objects.filter(batch=self.key)


class Decision(AppendOnlyModel):
    """The audit trail: one row per verdict, undo, reassignment or restore, never changed."""

    class Action(models.TextChoices):
        VERDICT = "verdict", "Verdict"
        UNDO = "undo", "Undo"
        REASSIGN = "reassign", "Reassign"
        # The reflection a verdict deprecated was put back, possibly after its cycle closed.
        RESTORE = "restore", "Restore"
        UNSURE = "unsure", "Marked unsure"
        RESOLVED = "resolved", "Discussion resolved"

    item = models.ForeignKey(ReviewItem, on_delete=models.CASCADE, related_name="decisions")
    action = models.CharField(max_length=16, choices=Action.choices)
    verdict = models.CharField(max_length=16, choices=Verdict.choices, blank=True, default="")
    duplicate_of = models.ForeignKey(
        Reflection, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    note = models.TextField(blank=True, default="")
    # The reflection's state before and after this decision.
    from_state = models.CharField(max_length=16, blank=True, default="")
    to_state = models.CharField(max_length=16, blank=True, default="")
    # Reassignments: who had the item and who has it now.
    from_reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    to_reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seconds_spent = models.PositiveIntegerField(default=0)
    # Verdicts recorded in one action ("these N duplicate X") share a batch, undone together.
    batch = models.CharField(max_length=32, blank=True, default="")
    # The warnings the reviewer was shown and confirmed (an archived original, a less-used one).
    confirmed = models.TextField(blank=True, default="")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        indexes = [
            models.Index(fields=["item", "at"], name="decision_item_at"),
            models.Index(fields=["batch"], name="decision_batch", condition=~models.Q(batch="")),
        ]

    def __str__(self) -> str:
        return f"{self.item} {self.action} {self.verdict}".strip()


class Judgement(models.Model):
    """An automatic judge's suggested verdict on a reflection (a machine pre-tag): shown
    beside the built-in signals, never pre-selected, and measured against people's verdicts."""

    judge = models.CharField(max_length=64)
    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="+")
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    duplicate_of = models.ForeignKey(
        Reflection, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confidence = models.FloatField()  # 0 to 1, as the judge reported it
    source = models.CharField(max_length=255)  # the file or API call it came from
    imported_at = models.DateTimeField()

    class Meta:
        ordering = ["judge", "reflection_id"]
        constraints = [
            # One suggestion per judge and reflection: importing the same file twice is a no-op.
            models.UniqueConstraint(fields=["judge", "reflection"], name="judgement_unique"),
        ]
        indexes = [models.Index(fields=["reflection"], name="judgement_reflection")]

    def __str__(self) -> str:
        return f"{self.judge}: {self.reflection_id} {self.verdict} ({self.confidence:.2f})"


class SavedView(models.Model):
    """A person's named filters of a cycle's page (signal, verdict, sort, status, search), kept
    for every cycle: the same views open each quarter's cycle the same way."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_review_views"
    )
    name = models.CharField(max_length=80)
    query = models.CharField(max_length=600)  # the page's query string, known keys only
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["user_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="saved_view_unique_name")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.user_id})"
