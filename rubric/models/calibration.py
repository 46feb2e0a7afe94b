"""Calibration (DOMAIN §6): the pass policy, sets with gold scores, raters' blind attempts."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from reflections.models import Reflection
from rubric.models.rubric import CRITERION_CHOICES, LEVEL_CHOICES, Rubric


class CalibrationPolicy(models.Model):
    """The managers' settings for calibration: one row (pk=1)."""

    pass_kappa = models.FloatField(
        default=0.6, validators=[MinValueValidator(-1.0), MaxValueValidator(1.0)]
    )
    # A rater must have passed in the current quarter (UTC) to join rounds, when set.
    require_each_quarter = models.BooleanField(default=False)
    updated_at = models.DateTimeField(null=True, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"calibration policy (κ ≥ {self.pass_kappa:g})"

    @classmethod
    def current(cls) -> CalibrationPolicy:
        return cls.objects.get_or_create(pk=1)[0]


class CalibrationSet(models.Model):
    name = models.CharField(max_length=128)
    is_active = models.BooleanField(default=False)  # the one new raters calibrate on
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_active"], condition=models.Q(is_active=True), name="one_active_set"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CalibrationItem(models.Model):
    calibration_set = models.ForeignKey(
        CalibrationSet, on_delete=models.CASCADE, related_name="items"
    )
    reflection = models.ForeignKey(Reflection, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["calibration_set_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["calibration_set", "reflection"], name="calibration_item_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.calibration_set} #{self.position}"


class GoldScore(models.Model):
    """The agreed score of a calibration item on one criterion."""

    item = models.ForeignKey(CalibrationItem, on_delete=models.CASCADE, related_name="gold")
    criterion = models.CharField(max_length=32, choices=CRITERION_CHOICES)
    level = models.FloatField(choices=LEVEL_CHOICES)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["item", "criterion"], name="gold_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.item} {self.criterion}={self.level:g}"


class CalibrationAttempt(models.Model):
    """A rater's blind pass over a calibration set, then their agreement with gold."""

    rater = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="calibration_attempts"
    )
    calibration_set = models.ForeignKey(
        CalibrationSet, on_delete=models.PROTECT, related_name="attempts"
    )
    rubric = models.ForeignKey(Rubric, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    submitted_at = models.DateTimeField(null=True, blank=True)
    # The item positions in the order this attempt serves them: drawn afresh for every attempt
    # (a retry never repeats the previous sequence). Empty on attempts from before: set order.
    order = models.JSONField(default=list, blank=True)
    # The positions this attempt is scored on (gold the rater had not seen when it started) and,
    # of those, the ones whose gold stays hidden afterwards (rubric.held_out). Empty on attempts
    # from before: scored on every item, every gold shown.
    scored = models.JSONField(default=list, blank=True)
    held_out = models.JSONField(default=list, blank=True)
    # Filled at submission: {criterion: value, "pooled": value}; a value may be None when
    # undefined (a constant rater), never a made-up 0.
    kappa = models.JSONField(default=dict)  # quadratic-weighted κ against gold
    exact = models.JSONField(default=dict)  # share of exact matches with gold
    pass_kappa = models.FloatField(null=True, blank=True)  # the threshold in force
    passed = models.BooleanField(null=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["rater", "-submitted_at"], name="calibration_rater")]

    def __str__(self) -> str:
        return f"{self.rater} on {self.calibration_set} ({self.started_at:%Y-%m-%d})"


class CalibrationRating(models.Model):
    attempt = models.ForeignKey(CalibrationAttempt, on_delete=models.CASCADE, related_name="scores")
    item = models.ForeignKey(CalibrationItem, on_delete=models.PROTECT, related_name="+")
    criterion = models.CharField(max_length=32, choices=CRITERION_CHOICES)
    level = models.FloatField(choices=LEVEL_CHOICES)
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "item", "criterion"], name="calibration_rating_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attempt_id} {self.item_id} {self.criterion}={self.level:g}"
