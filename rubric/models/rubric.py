"""The quality rubric as versioned data (DOMAIN §6): criteria, levels and their anchors."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# The four criteria (DOMAIN §6), in the order raters see them. Ratings store the key, so a
# criterion keeps its identity across rubric versions; the version says which wording applied.
CRITERIA = ("specificity", "actionability", "transferability", "accuracy")
CRITERION_CHOICES = [(key, key.capitalize()) for key in CRITERIA]
LEVELS = (0.0, 0.25, 0.5, 0.75, 1.0)
LEVEL_CHOICES = [(level, f"{level:g}") for level in LEVELS]


class Rubric(models.Model):
    """One published version of the rubric. Versions are never edited: an admin's change
    publishes the next version, and every score records the version it was given under."""

    version = models.PositiveIntegerField(unique=True)
    note = models.TextField(blank=True, default="")  # what changed from the version before
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"rubric v{self.version}"


class Criterion(models.Model):
    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="criteria")
    key = models.CharField(max_length=32, choices=CRITERION_CHOICES)
    name = models.CharField(max_length=64)
    question = models.TextField()  # what the rater judges, in one or two sentences
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["rubric_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rubric", "key"], name="criterion_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.rubric} {self.key}"


class Level(models.Model):
    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="levels")
    value = models.FloatField(choices=LEVEL_CHOICES)
    description = models.TextField()

    class Meta:
        ordering = ["criterion_id", "value"]
        constraints = [
            models.UniqueConstraint(fields=["criterion", "value"], name="level_unique_value"),
        ]

    def __str__(self) -> str:
        return f"{self.criterion} {self.value:g}"


class Anchor(models.Model):
    """An example text at a known level, shown beside the criterion (DOMAIN §6)."""

    criterion = models.ForeignKey(Criterion, on_delete=models.CASCADE, related_name="anchors")
    value = models.FloatField(choices=LEVEL_CHOICES)
    text = models.TextField()

    class Meta:
        ordering = ["criterion_id", "-value", "id"]

    def __str__(self) -> str:
        return f"{self.criterion} anchor {self.value:g}"
