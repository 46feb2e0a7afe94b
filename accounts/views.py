"""Admins' sign-in lockouts page: who is locked out from where, and unlocking one (asked first)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.selectors import cool_off, current_lockouts
from accounts.services import unlock as unlock_pair
from reflections.access import ADMIN, require_any_role


@login_required
@never_cache
@require_GET
def lockout_list(request: HttpRequest) -> HttpResponse:
    require_any_role(request.user, (ADMIN,))
    return render(
        request,
        "accounts/lockouts.html",
        {"lockouts": current_lockouts(), "cool_off_minutes": _minutes(), "limit": _limit()},
    )


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def unlock(request: HttpRequest) -> HttpResponse:
    """GET asks, naming the username and address (works without JavaScript); POST unlocks."""
    require_any_role(request.user, (ADMIN,))
    data = request.POST if request.method == "POST" else request.GET
    username = data.get("username", "")
    address = data.get("address") or None
    if request.method == "GET":
        found = current_lockouts(pair=(username, address))
        return render(
            request,
            "accounts/unlock.html",
            {"username": username, "address": address, "lockout": found[0] if found else None},
        )
    removed = unlock_pair(username=username, address=address, by=request.user.get_username())
    if removed:
        messages.success(
            request, f"'{username}' may sign in from {address} again, with {_limit()} tries."
        )
    else:
        messages.info(request, f"'{username}' from {address} was not locked out (any more).")
    return redirect("lockouts:list")


def _minutes() -> int:
    return int(cool_off().total_seconds() // 60)


def _limit() -> int:
    return settings.AXES_FAILURE_LIMIT
