"""What a lockout does: the address it counts, the sign-in page it shows (429), its log line."""

from __future__ import annotations

import ipaddress
import logging
import math

from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.selectors import cool_off, lock_ends_at

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str | None:
    """The address failures are counted against (AXES_CLIENT_IP_CALLABLE). Behind
    LOGIN_PROXY_COUNT proxies each appends the address it was called from to
    X-Forwarded-For, so the client's is that many entries from the right; whatever stands
    further left the client wrote itself and may be forged. Anything unreadable: the peer."""
    peer = request.META.get("REMOTE_ADDR")
    hops = settings.LOGIN_PROXY_COUNT
    if hops <= 0:
        return peer
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < hops:
        return peer
    try:
        return str(ipaddress.ip_address(forwarded[-hops]))
    except ValueError:
        return peer


def exempt_single_sign_on(request: HttpRequest, credentials: dict | None = None) -> bool:
    """AXES_WHITELIST_CALLABLE: the identity provider's callback (accounts.oidc) is neither
    counted nor blocked; its query (the one-time code) is then never stored by axes either."""
    match = getattr(request, "resolver_match", None)
    return bool(match and match.url_name == "oidc_authentication_callback")


def minutes_left(*, username: str | None, address: str | None) -> int:
    """Whole minutes until the pair may try again, rounded up; at least 1."""
    ends = lock_ends_at(username=username, address=address)
    left = (ends - timezone.now()) if ends else cool_off()
    return max(1, math.ceil(left.total_seconds() / 60))


def lockout_message(minutes: int) -> str:
    unit = "minute" if minutes == 1 else "minutes"
    # The same words whether or not the username exists: the lock counts any name typed.
    return (
        "Too many failed sign-ins for this account from this address; "
        f"try again in {minutes} {unit} or ask an admin to unlock it."
    )


def lockout_response(
    request: HttpRequest, original_response=None, credentials=None
) -> HttpResponse:
    """The sign-in page again, with the reason, as 429 (AXES_LOCKOUT_CALLABLE). The form is
    not bound: binding it would try the password once more."""
    username = get_client_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    context = {
        "form": AuthenticationForm(request, initial={"username": username or ""}),
        "next": next_url,
        "lockout": lockout_message(minutes_left(username=username, address=address)),
    }
    return render(request, "registration/login.html", context, status=429)


def log_lockout(sender, request, username, ip_address, **kwargs) -> None:
    """One line when a lock is set (axes' user_locked_out). axes sends the signal again for
    every try refused while locked, before counting anything: those carry no failure count
    and are not logged again. Never the password: it is not among the signal's arguments."""
    failures = getattr(request, "axes_failures_since_start", None)
    if failures is None:
        return
    log.warning(
        "Sign-in locked for %d min: username %r from %s after %d failed sign-ins",
        math.ceil(cool_off().total_seconds() / 60),
        username,
        ip_address,
        failures,
    )
