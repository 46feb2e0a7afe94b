"""OpenID Connect sign-in (mozilla-django-oidc), active only when OIDC_ISSUER is set: the backend
that turns verified claims into a user, and the views that start, finish and end a sign-in."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlencode

import requests
from django.conf import settings
from django.contrib import auth, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, resolve_url
from django.urls import path
from django.views.generic import View
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.utils import import_from_settings
from mozilla_django_oidc.views import (
    OIDCAuthenticationCallbackView,
    OIDCAuthenticationRequestView,
    OIDCLogoutView,
)

from accounts.claims import mapping_from_settings
from accounts.discovery import ENDPOINT_SETTINGS, ProviderUnreachable, endpoint, issuer
from accounts.provisioning import SignInRefused, sign_in_from_claims

log = logging.getLogger(__name__)

BACKEND = "accounts.oidc.SingleSignOnBackend"
# The ID token's protocol claims: about the token, not the person.
PROTOCOL_CLAIMS = frozenset(
    {"iss", "aud", "exp", "iat", "nbf", "nonce", "auth_time", "at_hash", "c_hash", "azp", "jti"}
)
ERROR_CODE = re.compile(r"[a-z_]{1,40}")
_BY_SETTING = {name: key for key, name in ENDPOINT_SETTINGS.items()}


def oidc_setting(attr: str, *default):
    """mozilla-django-oidc's settings, with the endpoints from discovery when not set."""
    if attr in _BY_SETTING:
        return endpoint(_BY_SETTING[attr])
    return import_from_settings(attr, *default)


def provider_name() -> str:
    return settings.OIDC_PROVIDER_NAME


class SingleSignOnBackend(OIDCAuthenticationBackend):
    """Redeems the callback's code, verifies the ID token (signature, nonce, issuer, audience)
    and hands its claims, with the userinfo endpoint's, to accounts.provisioning."""

    get_settings = staticmethod(oidc_setting)

    def __init__(self, *args, **kwargs):
        # Django builds the session's backend for every request of a signed-in user: nothing
        # here may ask the provider (the endpoints below are read when a sign-in needs them).
        self.UserModel = get_user_model()

    OIDC_OP_TOKEN_ENDPOINT = property(lambda self: endpoint("token_endpoint"))
    OIDC_OP_USER_ENDPOINT = property(lambda self: endpoint("userinfo_endpoint"))
    OIDC_OP_JWKS_ENDPOINT = property(lambda self: endpoint("jwks_uri"))
    OIDC_RP_CLIENT_ID = property(lambda self: settings.OIDC_RP_CLIENT_ID)
    OIDC_RP_CLIENT_SECRET = property(lambda self: settings.OIDC_RP_CLIENT_SECRET)
    OIDC_RP_SIGN_ALGO = property(lambda self: settings.OIDC_RP_SIGN_ALGO)
    OIDC_RP_IDP_SIGN_KEY = None

    def authenticate(self, request, **kwargs):
        # Only the callback view calls with a nonce and nothing else; a password form posted
        # to an address that carries ?code=&state= must not make this backend redeem a code.
        if request is None or "nonce" not in kwargs or set(kwargs) - {"nonce", "code_verifier"}:
            return None
        try:
            return super().authenticate(request, **kwargs)
        except (requests.RequestException, SuspiciousOperation, ProviderUnreachable) as exc:
            # Never the code: neither exception carries it (the token request's body is
            # not part of their message).
            log.warning("Single sign-on failed at %s: %s: %s", issuer(), type(exc).__name__, exc)
            return None

    def verify_token(self, token, **kwargs):
        """The library checks the signature, expiry and nonce; the issuer and audience too."""
        payload = super().verify_token(token, **kwargs)
        if str(payload.get("iss", "")).rstrip("/") != issuer():
            raise SuspiciousOperation(f"ID token issuer {payload.get('iss')!r} is not {issuer()}")
        audience = payload.get("aud")
        audiences = [audience] if isinstance(audience, str) else list(audience or [])
        if settings.OIDC_RP_CLIENT_ID not in audiences:
            raise SuspiciousOperation("ID token is not meant for this client (aud)")
        return payload

    def get_userinfo(self, access_token, id_token, payload):
        """The ID token's claims and the userinfo endpoint's: providers put groups in either
        (Azure AD only in the token, Keycloak in both, per its mappers)."""
        claims = {name: value for name, value in payload.items() if name not in PROTOCOL_CLAIMS}
        if self.OIDC_OP_USER_ENDPOINT:
            info = super().get_userinfo(access_token, id_token, payload)
            if info.get("sub") != payload.get("sub"):
                raise SuspiciousOperation("userinfo is about another subject than the ID token")
            claims.update(info)
        return claims

    def verify_claims(self, claims):
        return bool(claims.get("sub"))

    def get_user(self, user_id):
        """The session's user, as ModelBackend reads it: a deactivated user is signed out at
        their next request (the library's own returns them still)."""
        user = super().get_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None

    def get_or_create_user(self, access_token, id_token, payload):
        claims = self.get_userinfo(access_token, id_token, payload)
        if not self.verify_claims(claims):
            raise SuspiciousOperation("claims without a subject")
        try:
            return sign_in_from_claims(
                issuer=issuer(), claims=claims, mapping=mapping_from_settings()
            )
        except SignInRefused as refusal:
            # The callback view shows it on the sign-in page.
            self.request.single_sign_on_refusal = str(refusal)
            return None


def _to_login_with(request: HttpRequest, message: str) -> HttpResponse:
    messages.error(request, message)
    return redirect("login")


def _unreachable(request: HttpRequest, exc: ProviderUnreachable) -> HttpResponse:
    log.error("%s", exc)
    return _to_login_with(
        request,
        f"Sign-in with {provider_name()} is unavailable: the identity provider does not answer. "
        "Try again later.",
    )


class SignInStart(OIDCAuthenticationRequestView):
    """The button: sends the browser to the provider with state, nonce and PKCE challenge."""

    get_settings = staticmethod(oidc_setting)

    def __init__(self, **kwargs):
        View.__init__(self, **kwargs)  # the library reads the endpoint here; get() does

    def get(self, request):
        try:
            self.OIDC_OP_AUTH_ENDPOINT = endpoint("authorization_endpoint")
        except ProviderUnreachable as exc:
            return _unreachable(request, exc)
        self.OIDC_RP_CLIENT_ID = settings.OIDC_RP_CLIENT_ID
        return super().get(request)


class SignInCallback(OIDCAuthenticationCallbackView):
    """Where the provider sends the browser back: signs in, or back to the sign-in page with
    the reason (no role, refused at the provider, expired attempt)."""

    get_settings = staticmethod(oidc_setting)

    @property
    def failure_url(self):
        return resolve_url("login")

    def get(self, request):
        try:
            return super().get(request)
        except ProviderUnreachable as exc:
            return _unreachable(request, exc)
        except SuspiciousOperation:
            # The state is not this browser's: a reused or stale link (or a forged one).
            log.warning("Single sign-on callback with an unknown state")
            return _to_login_with(
                request, f"That sign-in with {provider_name()} had expired; please start again."
            )

    def login_failure(self):
        request = self.request
        reason = getattr(request, "single_sign_on_refusal", None)
        error = request.GET.get("error", "")
        if reason is None and error:
            code = f" ({error})" if ERROR_CODE.fullmatch(error) else ""
            reason = f"{provider_name()} did not sign you in{code}."
        if reason is None:
            reason = f"Sign-in with {provider_name()} failed; please try again."
        if request.user.is_authenticated:
            auth.logout(request)
        messages.error(request, reason)
        return super().login_failure()


class SignOut(OIDCLogoutView):
    """Signs out (POST), then to the sign-in page, or through the provider's end-session
    endpoint first when OIDC_LOGOUT_AT_PROVIDER is on and the person came from it."""

    get_settings = staticmethod(oidc_setting)


def provider_logout_url(request: HttpRequest) -> str:
    """OIDC_OP_LOGOUT_URL_METHOD: called before the session ends."""
    login = resolve_url("login")
    if not settings.OIDC_LOGOUT_AT_PROVIDER:
        return login
    if request.session.get(auth.BACKEND_SESSION_KEY) != BACKEND:
        return login  # a password sign-in: nothing to end at the provider
    try:
        end_session = endpoint("end_session_endpoint")
    except ProviderUnreachable as exc:
        log.warning("%s", exc)
        return login
    if not end_session:
        return login
    query = urlencode(
        {
            "client_id": settings.OIDC_RP_CLIENT_ID,
            "post_logout_redirect_uri": request.build_absolute_uri(login),
        }
    )
    return f"{end_session}{'&' if '?' in end_session else '?'}{query}"


# Included under /oidc/ by the URL map when OIDC_ISSUER is set. The names are the library's.
sign_in_pages = [
    path("authenticate/", SignInStart.as_view(), name="oidc_authentication_init"),
    path("callback/", SignInCallback.as_view(), name="oidc_authentication_callback"),
]
