"""When the client tries a request again and how long it waits first: 429 after the server's
Retry-After, a server that is not answering after a growing, jittered pause, never a refusal."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

# Always worth another try: the server did not take the request (rate limit, unavailable).
RETRY_ALWAYS = frozenset({429, 503})
# Worth another try only for a request that is safe to repeat: a gateway may have passed it on.
RETRY_IF_IDEMPOTENT = frozenset({502, 504})

BACKOFF_FIRST = 0.5  # seconds before the first retry of a failure without Retry-After
BACKOFF_MAX = 8.0


def should_retry(status: int, *, idempotent: bool) -> bool:
    """Whether a response with this status is tried again (a 4xx other than 429 never is)."""
    return status in RETRY_ALWAYS or (idempotent and status in RETRY_IF_IDEMPOTENT)


def retry_after_seconds(value: str | None, *, now: datetime | None = None) -> float | None:
    """The wait a Retry-After header asks for (RFC 9110 §10.2.3): a number of seconds or an
    HTTP date; None when absent or unreadable; never negative."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isascii() and text.replace(".", "", 1).isdigit():  # "120", "1.5"; never "-1"
        return float(text)
    try:
        return _until(text, now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def backoff(attempt: int, *, rng: random.Random | None = None) -> float:
    """The pause before retry number `attempt` (from 0) of a failure that gave no wait: doubling
    from BACKOFF_FIRST up to BACKOFF_MAX, less a random part of up to half, so that clients that
    failed together do not come back together."""
    ceiling = min(BACKOFF_MAX, BACKOFF_FIRST * (2**attempt))
    return (rng or random).uniform(ceiling / 2, ceiling)


def _until(text: str, now: datetime | None) -> float | None:
    when = parsedate_to_datetime(text)
    if when.tzinfo is None:  # an HTTP date is in GMT
        when = when.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max(0.0, (when - now).total_seconds())
