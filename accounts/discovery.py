"""Where the identity provider answers: its endpoints from the settings when given, else from its
discovery document (`<OIDC_ISSUER>/.well-known/openid-configuration`), read once per process."""

from __future__ import annotations

import logging
import threading

import requests
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

# Discovery key → the setting that overrides it (mozilla-django-oidc's names where it has one).
ENDPOINT_SETTINGS = {
    "authorization_endpoint": "OIDC_OP_AUTHORIZATION_ENDPOINT",
    "token_endpoint": "OIDC_OP_TOKEN_ENDPOINT",
    "userinfo_endpoint": "OIDC_OP_USER_ENDPOINT",
    "jwks_uri": "OIDC_OP_JWKS_ENDPOINT",
    "end_session_endpoint": "OIDC_OP_END_SESSION_ENDPOINT",
}

_documents: dict[str, dict] = {}
_lock = threading.Lock()


class ProviderUnreachable(ImproperlyConfigured):
    """The discovery document could not be read (or does not describe OIDC_ISSUER)."""


def issuer() -> str:
    return settings.OIDC_ISSUER.rstrip("/")


def provider_configuration() -> dict:
    """The provider's discovery document. Read at the first sign-in, not at start-up (a web
    worker starts even while the provider is down); a failure is not remembered, success is."""
    name = issuer()
    with _lock:
        if name in _documents:
            return _documents[name]
        url = f"{name}/.well-known/openid-configuration"
        try:
            response = requests.get(
                url, timeout=settings.OIDC_TIMEOUT, verify=settings.OIDC_VERIFY_SSL
            )
            response.raise_for_status()
            document = response.json()
        except (requests.RequestException, ValueError) as exc:
            raise ProviderUnreachable(
                f"OpenID Connect discovery failed for issuer {name} ({url}): {exc}"
            ) from exc
        if not isinstance(document, dict) or str(document.get("issuer", "")).rstrip("/") != name:
            found = document.get("issuer") if isinstance(document, dict) else None
            raise ProviderUnreachable(
                f"OpenID Connect discovery at {url} describes issuer {found!r}, not {name}"
            )
        _documents[name] = document
        log.info("OpenID Connect provider %s discovered", name)
        return document


def endpoint(key: str) -> str | None:
    """One endpoint: the setting when it is set, else the discovery document's (None when the
    provider has none, as for end_session_endpoint at some providers)."""
    explicit = getattr(settings, ENDPOINT_SETTINGS[key], "")
    if explicit:
        return explicit
    return provider_configuration().get(key) or None


def forget_provider_configuration() -> None:
    """Read the document again at the next sign-in (tests; a provider that moved)."""
    with _lock:
        _documents.clear()
