"""Unlocking: forgetting a username's failed sign-ins, from one address or from all, logged."""

from __future__ import annotations

import logging

from axes.models import AccessAttempt
from django.db import transaction

log = logging.getLogger(__name__)


@transaction.atomic
def unlock(*, username: str, address: str | None, by: str) -> int:
    """Forget the failed sign-ins of `username` from `address`: the pair may try again at
    once, with the full number of tries. Returns how many of axes' rows went (one per
    browser the failures came from; 0: it was not locked, or the lock had ended)."""
    removed, _ = AccessAttempt.objects.filter(username=username, ip_address=address).delete()
    log.info("Sign-in unlocked by %s: username %r from %s", by, username, address)
    return removed


@transaction.atomic
def unlock_everywhere(*, username: str, by: str) -> int:
    """Forget the failed sign-ins of `username` from every address (the command, for a
    locked-out admin who cannot reach the page)."""
    if not username:
        raise ValueError("username: required")
    removed, _ = AccessAttempt.objects.filter(username=username).delete()
    log.info("Sign-in unlocked by %s: username %r from every address", by, username)
    return removed
