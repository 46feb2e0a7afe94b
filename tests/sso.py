"""Single sign-on in tests: a real OpenID Connect provider process on loopback
(oidc-provider-mock), its users' claims, and the project with OIDC_ISSUER pointing at it."""

from __future__ import annotations

import importlib
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.test import override_settings
from django.urls import clear_url_caches

CLIENT_ID = "reflexion-review"
CLIENT_SECRET = "test-client-secret"  # the provider takes any secret from an unregistered client
PROVIDER_NAME = "Test Identity"
BACKEND = "accounts.oidc.SingleSignOnBackend"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def provider_process() -> Iterator[str]:
    """`python -m oidc_provider_mock` on a free loopback port; yields its issuer URL."""
    port = free_port()
    process = subprocess.Popen(  # noqa: S603 (the running interpreter, fixed arguments)
        [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    issuer = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(  # noqa: S310 (loopback http)
                    f"{issuer}/.well-known/openid-configuration", timeout=1
                ):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("oidc-provider-mock did not start") from None
                time.sleep(0.1)
        yield issuer
    finally:
        process.terminate()
        process.wait(timeout=10)


def set_claims(issuer: str, sub: str, claims: dict) -> None:
    """What the provider will say about `sub` at their next sign-in (its PUT /users/<sub>)."""
    request = urllib.request.Request(  # noqa: S310 (loopback http)
        f"{issuer}/users/{sub}",
        data=json.dumps(claims).encode(),
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
        assert response.status == 204


def _reload_url_map() -> None:
    from accounts.discovery import forget_provider_configuration

    importlib.reload(importlib.import_module(settings.ROOT_URLCONF))
    clear_url_caches()
    forget_provider_configuration()


@contextmanager
def single_sign_on(issuer: str, **extra) -> Iterator[None]:
    """The project as it runs with OIDC_ISSUER=`issuer`: settings, backend, URL map."""
    try:
        with override_settings(
            OIDC_ISSUER=issuer,
            OIDC_RP_CLIENT_ID=CLIENT_ID,
            OIDC_RP_CLIENT_SECRET=CLIENT_SECRET,
            OIDC_PROVIDER_NAME=PROVIDER_NAME,
            AUTHENTICATION_BACKENDS=[*settings.AUTHENTICATION_BACKENDS, BACKEND],
            **extra,
        ):
            _reload_url_map()
            yield
    finally:
        _reload_url_map()
