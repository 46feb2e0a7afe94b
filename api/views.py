"""Admins' API token pages: list, create (the secret shown once, after a redirect), revoke."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from api.models import ApiToken
from api.services.tokens import create_token, end_of_day, revoke_token
from reflections.access import ADMIN, user_roles
from reflexion_site.widgets import iso_date_input

# The one GET after a create reads the new secret from here and drops it: a reload, the back
# button or another tab never sees it again, and a reload never posts the form again.
JUST_CREATED = "api_tokens.new"


def _require_admin(request: HttpRequest) -> None:
    if ADMIN not in user_roles(request.user):
        raise PermissionDenied("Only admins manage API tokens.")


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="Who or what uses it, e.g. 'ci-orchestrator'.")
    scope = forms.ChoiceField(choices=ApiToken.Scope.choices, widget=forms.RadioSelect)
    expires_on = forms.DateField(
        required=False,
        label="Expires on",
        widget=iso_date_input(),
        help_text="Optional. The token works until the end of this day; empty: until revoked.",
    )

    def clean_expires_on(self):
        day = self.cleaned_data["expires_on"]
        if day is not None and day < timezone.localdate():
            raise forms.ValidationError("Pick today or a later day.")
        return day


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    """The tokens; a POST creates one and redirects here, where the secret shows this once."""
    _require_admin(request)
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        day = form.cleaned_data["expires_on"]
        token, raw = create_token(
            name=form.cleaned_data["name"],
            scope=form.cleaned_data["scope"],
            user=request.user,
            expires_at=end_of_day(day) if day else None,
        )
        request.session[JUST_CREATED] = {"id": token.pk, "raw": raw}
        return redirect("api_tokens:list")
    created = None
    new = request.session.pop(JUST_CREATED, None)
    if new:
        token = ApiToken.objects.filter(pk=new["id"]).first()
        created = {"token": token, "raw": new["raw"]} if token else None
    tokens = ApiToken.objects.select_related("created_by")
    return render(
        request,
        "api/tokens.html",
        {"form": form, "tokens": tokens, "created": created, "now": timezone.now()},
        status=422 if request.method == "POST" else 200,
    )


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks, naming the token (works without JavaScript); POST revokes."""
    _require_admin(request)
    token = get_object_or_404(ApiToken, pk=pk)
    if request.method == "GET":
        return render(request, "api/token_revoke.html", {"token": token})
    revoke_token(token_id=token.pk)
    messages.success(request, f"Token '{token.name}' revoked: it is refused from now on.")
    return redirect("api_tokens:list")
