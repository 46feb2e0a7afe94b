"""What the sign-in protection tests share: a person with a password, and signing in as them."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory

PASSWORD = "correct horse battery staple"  # UserFactory's
WRONG = "wrong-horse-7431"  # never to be found in a log or a stored row
HOME = "198.51.100.7"  # the person's own address (a documentation range)
ELSEWHERE = "203.0.113.9"


@pytest.fixture
def bea():
    return UserFactory(username="bea", roles=["reviewer"])


def sign_in(username: str, password: str, *, address: str = HOME, client: Client | None = None):
    """One try through the real sign-in form (a fresh browser unless `client` is given)."""
    client = client or Client()
    return client.post(
        "/login/",
        {"username": username, "password": password, "next": "/reflections/"},
        REMOTE_ADDR=address,
    )


def fail(times: int, username: str = "bea", *, address: str = HOME):
    """`times` wrong passwords for `username` from `address`; the last answer."""
    response = None
    for _ in range(times):
        response = sign_in(username, WRONG, address=address)
    return response
