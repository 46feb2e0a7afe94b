"""Who may rate: a rater joins rating rounds once they passed calibration (DOMAIN §6)."""

from __future__ import annotations

from datetime import UTC, datetime

from rubric.models import CalibrationAttempt, CalibrationPolicy


def quarter_of(moment: datetime) -> tuple[int, int]:
    moment = moment.astimezone(UTC)
    return moment.year, (moment.month - 1) // 3 + 1


def latest_attempt(user) -> CalibrationAttempt | None:
    return (
        CalibrationAttempt.objects.filter(rater=user, submitted_at__isnull=False)
        .order_by("-submitted_at", "-id")
        .first()
    )


def is_calibrated(user, *, now: datetime | None = None) -> bool:
    """Their latest submitted attempt passed, and — when the policy requires recalibration
    every quarter — it was submitted in the current quarter (UTC)."""
    attempt = latest_attempt(user)
    if attempt is None or not attempt.passed:
        return False
    policy = CalibrationPolicy.current()
    if policy.require_each_quarter:
        now = now or datetime.now(UTC)
        return quarter_of(attempt.submitted_at) == quarter_of(now)
    return True
