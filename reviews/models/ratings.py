"""The quality rubric (DOMAIN §6): versioned criteria and levels with anchors, the calibration
set with gold scores, raters' calibration attempts, rating rounds and the ratings themselves."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from reflections.models import Reflection

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


class RatingRound(models.Model):
    """A manager's sample of reflections, each rated blind by `raters_per_item` raters."""

    name = models.CharField(max_length=128)
    rubric = models.ForeignKey(Rubric, on_delete=models.PROTECT, related_name="rounds")
    size = models.PositiveIntegerField()
    raters_per_item = models.PositiveSmallIntegerField(default=3)
    seed = models.BigIntegerField()  # the sample and the assignment are reproducible from it
    raters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="rating_rounds")
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class RoundItem(models.Model):
    rating_round = models.ForeignKey(RatingRound, on_delete=models.CASCADE, related_name="items")
    reflection = models.ForeignKey(Reflection, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField()
    # The stratum it was drawn from: department slug / outcome / task type.
    stratum = models.CharField(max_length=255)

    class Meta:
        ordering = ["rating_round_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_round", "reflection"], name="round_item_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating_round} #{self.position}"


class RatingAssignment(models.Model):
    item = models.ForeignKey(RoundItem, on_delete=models.CASCADE, related_name="assignments")
    rater = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_assignments"
    )
    comment = models.TextField(blank=True, default="")
    shown_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["item_id", "rater_id"]
        constraints = [
            models.UniqueConstraint(fields=["item", "rater"], name="assignment_unique"),
        ]
        # A rater's queue: their unsubmitted assignments.
        indexes = [models.Index(fields=["rater", "submitted_at"], name="assignment_queue")]

    def __str__(self) -> str:
        return f"{self.item} → {self.rater}"


class Rating(models.Model):
    """One rater's level for one reflection on one criterion, given in a round or imported."""

    class Source(models.TextChoices):
        ROUND = "round", "Rating round"
        IMPORT = "import", "Imported"

    rater = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings"
    )
    reflection = models.ForeignKey(Reflection, on_delete=models.CASCADE, related_name="ratings")
    criterion = models.CharField(max_length=32, choices=CRITERION_CHOICES)
    level = models.FloatField(choices=LEVEL_CHOICES)
    rubric = models.ForeignKey(Rubric, on_delete=models.PROTECT, related_name="+")
    rated_at = models.DateTimeField()
    source = models.CharField(max_length=8, choices=Source.choices)
    assignment = models.ForeignKey(
        RatingAssignment, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )

    class Meta:
        ordering = ["reflection_id", "criterion", "rater_id"]
        constraints = [
            # Re-importing the same CSV changes nothing; a round scores each criterion once.
            models.UniqueConstraint(
                fields=["rater", "reflection", "criterion", "rated_at"], name="rating_unique"
            ),
            models.UniqueConstraint(
                fields=["assignment", "criterion"],
                condition=models.Q(assignment__isnull=False),
                name="rating_unique_in_assignment",
            ),
        ]
        indexes = [
            # Quality views: a reflection's scores; agreement over a date range.
            models.Index(fields=["reflection", "criterion"], name="rating_reflection"),
            models.Index(fields=["rated_at"], name="rating_rated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.rater_id} {self.reflection_id} {self.criterion}={self.level:g}"
