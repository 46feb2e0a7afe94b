"""Checking that a webhook came from the server, by the Standard Webhooks rules: the
`webhook-id`, `webhook-timestamp` and `webhook-signature` headers, an HMAC-SHA256 of
"id.timestamp.body" under the secret after its `whsec_` prefix, and 5 minutes of tolerance."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

TOLERANCE_SECONDS = 5 * 60
SECRET_PREFIX = "whsec_"  # noqa: S105 (the prefix, not a secret)


class WebhookVerificationError(Exception):
    """The webhook is not one the holder of the secret sent (or it is too old or too new)."""


def verify_webhook(
    payload: bytes | str, headers: Mapping[str, str], secret: str | bytes
) -> dict[str, Any]:
    """The webhook's JSON body once its signature and timestamp check out; raises
    WebhookVerificationError otherwise. `headers` may be any mapping (a framework's request
    headers): names are compared case-insensitively. With the `webhooks` extra installed the
    `standardwebhooks` package checks it; without, the same rules are applied here."""
    lowered = {k.lower(): v for k, v in headers.items()}
    for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
        if not lowered.get(name):
            raise WebhookVerificationError(f"{name}: missing header")
    body = payload.decode("utf-8") if isinstance(payload, bytes) else payload
    try:
        from standardwebhooks.webhooks import EmptyWebhookSecretError, Webhook
        from standardwebhooks.webhooks import WebhookVerificationError as Refused
    except ImportError:
        _verify_here(body, lowered, secret)
    else:
        try:
            Webhook(secret).verify(body, lowered, json_parse=False)
        except (Refused, EmptyWebhookSecretError, ValueError, binascii.Error) as exc:
            # The package raises ValueError on a malformed signature list ("v1" with no comma).
            raise WebhookVerificationError(str(exc) or type(exc).__name__) from None
    try:
        parsed = json.loads(body)
    except ValueError as exc:
        raise WebhookVerificationError(f"the signed body is not JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise WebhookVerificationError("the signed body is not a JSON object")
    return parsed


def _verify_here(body: str, headers: Mapping[str, str], secret: str | bytes) -> None:
    try:
        stamp = int(headers["webhook-timestamp"])
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp: not a whole number of seconds") from None
    now = time.time()
    if stamp < now - TOLERANCE_SECONDS:
        raise WebhookVerificationError("Message timestamp too old")
    if stamp > now + TOLERANCE_SECONDS:
        raise WebhookVerificationError("Message timestamp too new")
    signed = f"{headers['webhook-id']}.{stamp}.{body}".encode()
    expected = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    for versioned in headers["webhook-signature"].split():
        version, _, signature = versioned.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(expected, given):
            return
    raise WebhookVerificationError("No matching signature found")


def _key(secret: str | bytes) -> bytes:
    if isinstance(secret, bytes):
        key = secret
    else:
        encoded = secret.removeprefix(SECRET_PREFIX)
        try:
            key = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
        except (binascii.Error, ValueError):
            raise WebhookVerificationError("secret: not base64 after 'whsec_'") from None
    if not key:
        raise WebhookVerificationError("secret: empty")
    return key
