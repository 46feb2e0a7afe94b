"""The ID token checks the project adds to mozilla-django-oidc's (signature, expiry, nonce): the
issuer must be OIDC_ISSUER and the audience this client, whatever key signed it."""

from __future__ import annotations

import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.core.exceptions import SuspiciousOperation
from django.test import override_settings

from accounts.oidc import SingleSignOnBackend

ISSUER = "https://id.example.org"
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PUBLIC = KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
)


@pytest.fixture
def backend():
    with override_settings(OIDC_ISSUER=ISSUER, OIDC_RP_CLIENT_ID="rr", OIDC_RP_SIGN_ALGO="RS256"):
        backend = SingleSignOnBackend()
        backend.OIDC_RP_IDP_SIGN_KEY = PUBLIC
        yield backend


def token(**claims) -> str:
    now = int(time.time())
    payload = {"iss": ISSUER, "aud": "rr", "sub": "u-1", "nonce": "n", "iat": now}
    return jwt.encode({**payload, "exp": now + 60, **claims}, KEY, algorithm="RS256")


def test_a_token_from_the_issuer_for_this_client_verifies(backend):
    assert backend.verify_token(token(aud=["other", "rr"]), nonce="n")["sub"] == "u-1"


@pytest.mark.parametrize(
    ("claims", "problem"),
    [
        ({"iss": "https://evil.example"}, "issuer"),
        ({"aud": "another-client"}, "not meant for this client"),
        ({"aud": []}, "not meant for this client"),
        ({"nonce": "replayed"}, "Nonce"),
    ],
)
def test_a_token_from_elsewhere_or_for_another_client_is_refused(backend, claims, problem):
    with pytest.raises(SuspiciousOperation, match=problem):
        backend.verify_token(token(**claims), nonce="n")


def test_building_the_backend_asks_the_provider_nothing():
    """Django builds it for every request of a signed-in user."""
    with override_settings(OIDC_ISSUER="http://127.0.0.1:9", OIDC_RP_CLIENT_ID="rr"):
        SingleSignOnBackend()  # an unreachable issuer: no error until a sign-in needs it
