"""Admins' webhook pages: endpoints (register one: its secret shown once, after a redirect),
an endpoint's delivery log with replays and a test event, disable, delete."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from reflections.access import ADMIN, user_roles
from reflections.selectors.workers import WORKER_COMMAND
from webhooks.delivery import MAX_ATTEMPTS, RETRY_DELAYS
from webhooks.forms import EndpointForm
from webhooks.models import Delivery, Endpoint
from webhooks.selectors import delivery_log, endpoints_with_counts
from webhooks.services import create_endpoint, delete_endpoint, send_test_event, set_active
from webhooks.services import replay as replay_delivery

# The one GET after a create reads the new secret from here and drops it: a reload, the back
# button or another tab never sees it again (the house pattern of the API tokens).
JUST_CREATED = "webhooks.new"
PAGE_SIZE = 50


def _require_admin(request: HttpRequest) -> None:
    if ADMIN not in user_roles(request.user):
        raise PermissionDenied("Only admins manage webhooks.")


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def endpoint_list(request: HttpRequest) -> HttpResponse:
    """The endpoints; a POST registers one and redirects here, where its secret shows once."""
    _require_admin(request)
    form = EndpointForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        endpoint = create_endpoint(
            url=form.cleaned_data["url"], events=form.cleaned_data["events"], user=request.user
        )
        request.session[JUST_CREATED] = {"id": endpoint.pk, "secret": endpoint.secret}
        return redirect("webhooks:list")
    created = None
    if new := request.session.pop(JUST_CREATED, None):
        endpoint = Endpoint.objects.filter(pk=new["id"]).first()
        created = {"endpoint": endpoint, "secret": new["secret"]} if endpoint else None
    context = {
        "form": form,
        "endpoints": endpoints_with_counts(),
        "created": created,
        "schedule": _schedule(),
        "worker_command": WORKER_COMMAND,
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "webhooks/endpoints.html", context, status=status)


@login_required
@never_cache
@require_GET
def endpoint_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An endpoint and its delivery log (status, attempts, last error), 50 to a page."""
    _require_admin(request)
    endpoint = get_object_or_404(Endpoint.objects.select_related("created_by"), pk=pk)
    status = request.GET.get("status", "")
    if status not in Delivery.Status.values:
        status = ""
    page = Paginator(delivery_log(endpoint, status=status), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    context = {
        "endpoint": endpoint,
        "page": page,
        "status": status,
        "statuses": Delivery.Status.choices,
        "schedule": _schedule(),
    }
    return render(request, "webhooks/endpoint.html", context)


@login_required
@require_POST
def endpoint_active(request: HttpRequest, pk: int) -> HttpResponse:
    _require_admin(request)
    endpoint = get_object_or_404(Endpoint, pk=pk)
    active = request.POST.get("active") == "1"
    set_active(endpoint=endpoint, active=active)
    if active:
        messages.success(request, "Endpoint enabled: what waited is sent now.")
    else:
        messages.success(request, "Endpoint disabled: nothing is sent to it until it is enabled.")
    return redirect("webhooks:detail", pk=endpoint.pk)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def endpoint_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks, naming the endpoint (works without JavaScript); POST deletes it and its log."""
    _require_admin(request)
    endpoint = get_object_or_404(Endpoint, pk=pk)
    if request.method == "GET":
        count = endpoint.deliveries.count()
        return render(
            request, "webhooks/endpoint_delete.html", {"endpoint": endpoint, "count": count}
        )
    url = endpoint.url
    delete_endpoint(endpoint=endpoint)
    messages.success(request, f"Endpoint {url} deleted with its delivery log.")
    return redirect("webhooks:list")


@login_required
@require_POST
def test_event(request: HttpRequest, pk: int) -> HttpResponse:
    _require_admin(request)
    endpoint = get_object_or_404(Endpoint, pk=pk)
    if not endpoint.active:
        messages.error(request, "The endpoint is disabled: enable it to send a test event.")
    else:
        send_test_event(endpoint=endpoint, user=request.user)
        messages.success(request, "Test event queued: the task worker sends it in a moment.")
    return redirect("webhooks:detail", pk=endpoint.pk)


@login_required
@require_POST
def replay(request: HttpRequest, pk: int, delivery_pk: int) -> HttpResponse:
    """Send a delivery again with the same webhook-id, from a fresh retry schedule."""
    _require_admin(request)
    row = get_object_or_404(Delivery, pk=delivery_pk, endpoint_id=pk)
    try:
        replay_delivery(delivery_row=row)
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{row.event_type} {row.event_id} queued again.")
    return redirect("webhooks:detail", pk=pk)


def _schedule() -> str:
    """The retry schedule in words: "30 s, 2 min, … (7 attempts)"."""

    def words(seconds: int) -> str:
        for unit, size in (("h", 3600), ("min", 60)):
            if seconds >= size and seconds % size == 0:
                return f"{seconds // size} {unit}"
        return f"{seconds} s"

    delays = ", ".join(words(int(d.total_seconds())) for d in RETRY_DELAYS)
    return f"retried after {delays}; {MAX_ATTEMPTS} attempts in all"
