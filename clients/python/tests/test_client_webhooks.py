"""verify_webhook accepts what the standardwebhooks package signs and refuses the rest, with
the package installed and with the client's own copy of the rules."""

from __future__ import annotations

import base64
import builtins
import json
from datetime import datetime, timedelta, timezone

import pytest
from standardwebhooks.webhooks import Webhook

from reflexion_review import WebhookVerificationError, verify_webhook

SECRET = "whsec_" + base64.b64encode(b"a secret of the test, 32 bytes..").decode()
BODY = json.dumps({"type": "reflection.deprecated", "data": {"id": 17}}).encode()


def signed(body: bytes = BODY, *, at: datetime | None = None, secret: str = SECRET) -> dict:
    """The headers the server sends, made by the reference implementation."""
    at = at or datetime.now(timezone.utc)
    webhook_id = "msg_2Lh9KkQ"
    signature = Webhook(secret).sign(webhook_id, at, body.decode())
    return {
        "webhook-id": webhook_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
    }


@pytest.fixture(params=["standardwebhooks", "own rules"])
def backend(request, monkeypatch):
    """Each test runs with the package and with it hidden (the client without the extra)."""
    if request.param == "own rules":
        real_import = builtins.__import__

        def no_package(name, *args, **kwargs):
            if name.startswith("standardwebhooks"):
                raise ImportError(name)
            return real_import(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", no_package)
    return request.param


def test_a_webhook_signed_with_the_secret_gives_its_body(backend):
    assert verify_webhook(BODY, signed(), SECRET) == {
        "type": "reflection.deprecated",
        "data": {"id": 17},
    }


def test_header_names_are_compared_without_case(backend):
    headers = {name.title(): value for name, value in signed().items()}
    assert verify_webhook(BODY, headers, SECRET)["data"] == {"id": 17}


def test_one_good_signature_among_several_is_enough(backend):
    headers = signed()
    headers["webhook-signature"] = "v1,bm90IGl0 " + headers["webhook-signature"]
    assert verify_webhook(BODY, headers, SECRET)["type"] == "reflection.deprecated"


def test_an_edited_body_is_refused(backend):
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY.replace(b"17", b"18"), signed(), SECRET)


def test_another_secret_is_refused(backend):
    other = "whsec_" + base64.b64encode(b"another secret entirely, 32 byte").decode()
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, signed(), other)


def test_a_webhook_older_or_newer_than_five_minutes_is_refused(backend):
    now = datetime.now(timezone.utc)
    for at in (now - timedelta(minutes=6), now + timedelta(minutes=6)):
        with pytest.raises(WebhookVerificationError, match=r"too (old|new)"):
            verify_webhook(BODY, signed(at=at), SECRET)
    assert verify_webhook(BODY, signed(at=now - timedelta(minutes=4)), SECRET)


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_missing_header_is_named(backend, missing):
    headers = signed()
    del headers[missing]
    with pytest.raises(WebhookVerificationError, match=missing):
        verify_webhook(BODY, headers, SECRET)


@pytest.mark.parametrize("signature", ["v1", "v1,not base64!", "v2,abc", ""])
def test_a_malformed_signature_is_refused_not_crashed_on(backend, signature):
    headers = {**signed(), "webhook-signature": signature}
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, headers, SECRET)


def test_a_signed_body_that_is_not_a_json_object_is_refused(backend):
    with pytest.raises(WebhookVerificationError, match="JSON"):
        verify_webhook(b"[1, 2]", signed(b"[1, 2]"), SECRET)
