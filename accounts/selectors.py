"""Reads of the lockouts: who is locked out from which address now, and until when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Sum
from django.utils import timezone


@dataclass(frozen=True)
class Lockout:
    username: str
    address: str | None
    failures: int
    since: datetime  # the failure that reached the limit: tries while locked are not counted
    until: datetime


def cool_off() -> timedelta:
    return get_cool_off()


def current_lockouts(
    *, now: datetime | None = None, pair: tuple[str | None, str | None] | None = None
) -> list[Lockout]:
    """Every (username, address) pair locked now, the most recent first, or only `pair`.
    axes keeps one row per browser (user agent) too and sums them for its rule; so does this."""
    now = now or timezone.now()
    period = cool_off()
    attempts = AccessAttempt.objects.filter(attempt_time__gte=now - period)
    if pair is not None:
        attempts = attempts.filter(username=pair[0], ip_address=pair[1])
    rows = (
        attempts.values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), since=Max("attempt_time"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        .order_by("-since", "username", "ip_address")
    )
    return [
        Lockout(
            username=row["username"],
            address=row["ip_address"],
            failures=row["failures"],
            since=row["since"],
            until=row["since"] + period,
        )
        for row in rows
    ]


def lock_ends_at(*, username: str | None, address: str | None) -> datetime | None:
    """When the lock of this pair ends, or None when it is not locked."""
    found = current_lockouts(pair=(username, address))
    return found[0].until if found else None
