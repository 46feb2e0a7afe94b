"""Sending one signed request (the Standard Webhooks headers), the address rule and the retry
schedule. Nothing here reads or writes the database: webhooks.services does."""

from __future__ import annotations

import ipaddress
import json
import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from standardwebhooks import Webhook

TIMEOUT_SECONDS = 10.0
# After the n-th failed attempt the next waits RETRY_DELAYS[n-1]; after the last, it gives up:
# 7 attempts over about 19 hours.
RETRY_DELAYS = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(hours=1),
    timedelta(hours=6),
    timedelta(hours=12),
)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
USER_AGENT = "ReflexionReview-Webhooks/1"
ERROR_CHARS = 300


class AddressRefused(ValueError):
    """The endpoint's address may not be sent to (scheme, credentials, private network)."""


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    status_code: int | None = None
    error: str = ""


def next_delay(attempts: int) -> timedelta | None:
    """How long after the `attempts`-th failed attempt the next one waits; None: give up."""
    if attempts < 1 or attempts >= MAX_ATTEMPTS:
        return None
    return RETRY_DELAYS[attempts - 1]


def check_url(url: str) -> None:
    """What an admin may register: http or https, a host, no user:password in it."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise AddressRefused("the address must start with http:// or https://")
    if not parts.hostname:
        raise AddressRefused("the address has no host")
    if parts.username or parts.password:
        raise AddressRefused("the address may not hold a user name or password")


def check_address(url: str, *, allow_private: bool) -> None:
    """Refuse loopback, private, link-local and reserved addresses unless `allow_private`
    (WEBHOOKS_ALLOW_PRIVATE): a registered name that resolves inside the network would let
    the dashboard be used to reach internal services."""
    check_url(url)
    if allow_private:
        return
    parts = urlsplit(url)
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError as error:
        raise AddressRefused(f"the host does not resolve ({error.strerror or error})") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped  # ::ffff:127.0.0.1 is loopback too
        if not address.is_global:
            raise AddressRefused(
                f"the host resolves to a non-public address ({address}); "
                "set WEBHOOKS_ALLOW_PRIVATE=1 to allow it"
            )


def body_of(payload: dict) -> str:
    """The exact text signed and sent."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def signed_headers(*, secret: str, event_id: str, at: datetime, body: str) -> dict[str, str]:
    at = at.astimezone(UTC)  # sign() reads the clock time as UTC
    signature = Webhook(secret).sign(event_id, at, body)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }


def send(
    *, url: str, secret: str, event_id: str, payload: dict, at: datetime, allow_private: bool
) -> Outcome:
    """POST the signed payload to `url` once. 2xx is delivered; a redirect is not followed
    (it would send the event where the admin did not register); the error never holds the
    secret, the signature or the body."""
    try:
        check_address(url, allow_private=allow_private)
    except AddressRefused as error:
        return Outcome(False, error=f"refused: {error}"[:ERROR_CHARS])
    # Here, not at the top: only the task worker sends, and web workers start without it.
    import httpx

    body = body_of(payload)
    headers = signed_headers(secret=secret, event_id=event_id, at=at, body=body)
    try:
        # trust_env=False: no proxy from the environment, straight to the registered address.
        with httpx.Client(
            timeout=TIMEOUT_SECONDS, follow_redirects=False, trust_env=False
        ) as client:
            response = client.post(url, content=body.encode("utf-8"), headers=headers)
    except httpx.TimeoutException:
        return Outcome(False, error=f"timed out after {TIMEOUT_SECONDS:g} s")
    except httpx.HTTPError as error:
        return Outcome(False, error=f"{type(error).__name__}: {error}"[:ERROR_CHARS])
    if 200 <= response.status_code < 300:
        return Outcome(True, status_code=response.status_code)
    if response.is_redirect:
        return Outcome(
            False,
            status_code=response.status_code,
            error=f"HTTP {response.status_code}: redirects are not followed",
        )
    reply = " ".join(response.text[:200].split())
    return Outcome(
        False,
        status_code=response.status_code,
        error=f"HTTP {response.status_code}" + (f": {reply}" if reply else ""),
    )
