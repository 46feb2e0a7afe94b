"""What the rating tests share: a rubric, calibrated (or not) raters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rubric.models import (
    CRITERIA,
    LEVELS,
    Anchor,
    CalibrationAttempt,
    CalibrationSet,
    Criterion,
    Level,
    Rubric,
)
from tests.factories import UserFactory

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
ALL_FOUR = dict.fromkeys(CRITERIA, 0.75)


def make_rubric(version: int = 1) -> Rubric:
    """A rubric with the four criteria, five described levels each and two anchors."""
    rubric = Rubric.objects.create(version=version, created_at=NOW, note=f"v{version}")
    for position, key in enumerate(CRITERIA):
        criterion = Criterion.objects.create(
            rubric=rubric,
            key=key,
            name=key.capitalize(),
            question=f"How good is the {key}?",
            position=position,
        )
        Level.objects.bulk_create(
            Level(criterion=criterion, value=v, description=f"{key} at {v:g}") for v in LEVELS
        )
        Anchor.objects.create(criterion=criterion, value=1.0, text=f"a great {key} anchor")
        Anchor.objects.create(criterion=criterion, value=0.25, text=f"a poor {key} anchor")
    return rubric


def calibrate(user, *, passed: bool = True, at: datetime | None = None) -> CalibrationAttempt:
    calibration_set = CalibrationSet.objects.first() or CalibrationSet.objects.create(
        name="gold", is_active=True, created_at=NOW
    )
    at = at or datetime.now(UTC)
    return CalibrationAttempt.objects.create(
        rater=user,
        calibration_set=calibration_set,
        rubric=Rubric.objects.order_by("-version").first() or make_rubric(),
        started_at=at - timedelta(minutes=30),
        submitted_at=at,
        passed=passed,
        pass_kappa=0.6,
    )


def make_rater(username: str, *, calibrated: bool = True, departments=()):
    user = UserFactory(username=username, roles=["rater"], departments=list(departments))
    if calibrated:
        calibrate(user)
    return user
