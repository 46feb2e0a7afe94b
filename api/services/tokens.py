"""Creating, checking and revoking API tokens. Whether a presented token may call an
endpoint is decided here whole (token_for: known, unrevoked, unexpired, of the endpoint's
scope); api/security.py only answers the outcome in HTTP and applies the rate limit."""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, datetime, time, timedelta

from django.utils import timezone

from api.models import ApiToken
from reflections.scanning import typed

# A recognisable prefix: the secret scanner quarantines a reflection that holds one, and a
# leaked token is easy to grep for.
PREFIX = "rrapi_"
# last_used_at is written at most this often per token, not on every request.
TOUCH_EVERY = timedelta(minutes=1)


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class TokenExpired(Exception):
    """A known, unrevoked token past its expiry (answered 401 with the date)."""

    def __init__(self, token: ApiToken):
        self.token = token
        super().__init__(
            f"this token expired on {timezone.localtime(token.expires_at):%Y-%m-%d %H:%M %Z}; "
            "ask an admin for a new one under API tokens"
        )


class WrongScope(Exception):
    """A valid token of another scope (answered 403, naming both scopes)."""

    def __init__(self, token: ApiToken, needed: str):
        self.token = token
        super().__init__(f"this token's scope is '{token.scope}'; this endpoint needs '{needed}'")


def end_of_day(day: date) -> datetime:
    """When a token given the expiry date `day` stops working: the last moment of that day, local
    time (shown as `day` 23:59, so the list says the date the admin picked)."""
    return timezone.make_aware(datetime.combine(day, time.max))


def create_token(
    *, name: str, scope: str, user=None, expires_at: datetime | None = None
) -> tuple[ApiToken, str]:
    """A new token and its secret, the only time the secret exists outside the caller."""
    name = typed(name)
    if not name or len(name) > 100:
        raise ValueError("name: required, at most 100 characters")
    if scope not in ApiToken.Scope.values:
        raise ValueError(f"scope: one of {', '.join(ApiToken.Scope.values)}")
    raw = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        name=name,
        scope=scope,
        secret_hash=digest(raw),
        hint=raw[len(PREFIX) : len(PREFIX) + 4],
        created_by=user if getattr(user, "pk", None) else None,
        created_at=timezone.now(),
        expires_at=expires_at,
    )
    return token, raw


def token_for(raw: str, *, scope: str) -> ApiToken | None:
    """The active token `raw` is, if it may call an endpoint of `scope`; None when it is
    unknown or revoked (answered alike). Raises TokenExpired for a token past its expiry date,
    so its holder learns why it stopped, and WrongScope for a token of another scope."""
    if not raw.startswith(PREFIX) or len(raw) > 200:
        return None
    token = ApiToken.objects.filter(secret_hash=digest(raw), revoked_at__isnull=True).first()
    if token is None:
        return None
    now = timezone.now()
    if token.is_expired(now):
        raise TokenExpired(token)
    if token.scope != scope:
        raise WrongScope(token, scope)
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke_token(*, token_id: int) -> ApiToken:
    token = ApiToken.objects.get(pk=token_id)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token
