"""Memory pages: the reflection list and one reflection in context."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from reflections import panels
from reflections.access import require_any_role
from reflections.models import State
from reflections.rendering import render_sections
from reflections.selectors import reflections as selectors
from reflections.selectors.policy import reflection_findings
from reflections.selectors.reflection_events import older_events
from reflexion_site import keyset
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment

MAX_PAGE_SIZE = 200
PAGE_SIZE_CHOICES = (25, 50, 100, 200)


def _page_size(request: HttpRequest) -> int:
    default = settings.REFLECTIONS_LIST_PAGE_SIZE
    try:
        wanted = int(request.GET.get("page_size", default))
    except ValueError:
        return default
    return min(max(wanted, 1), MAX_PAGE_SIZE)


@login_required
@require_GET
def reflection_list(request: HtmxHttpRequest) -> HttpResponse:
    require_any_role(request.user)
    filters = selectors.ReflectionFilters.from_query(request.GET)
    page_size = _page_size(request)
    qs = selectors.reflection_list(user=request.user, filters=filters)
    keys = selectors.list_keys(filters)
    jump = request.GET.get("from", "").strip()
    try:
        page = keyset.page(
            qs,
            keys,
            size=page_size,
            after=_jump_cursor(keys, jump) if jump else request.GET.get("after"),
            before=None if jump else request.GET.get("before"),
            last=not jump and request.GET.get("last") == "1",
        )
    except keyset.BadCursor:
        page = keyset.page(qs, keys, size=page_size)  # a stale or edited link: start over
    count, exact = keyset.capped_count(qs)
    estimate = None if exact else keyset.estimated_count(qs)

    # Links carry the filters as the page understood them, not the raw (possibly junk) query.
    query = filters.as_query()
    if page_size != settings.REFLECTIONS_LIST_PAGE_SIZE:
        query["page_size"] = str(page_size)
    context = {
        "filters": filters,
        "options": selectors.filter_options(request.user),
        "page": page,
        "count": count,
        "count_exact": exact,
        "count_estimate": max(estimate or 0, count) if estimate is not None else None,
        "jump": _jump_field(keys[0]),
        "query": query,
        "page_size": page_size,
        "page_size_choices": sorted({*PAGE_SIZE_CHOICES, page_size}),
    }
    if wants_fragment(request):
        response = render(request, "reflections/list.html#results", context)
        pushed = {**query, **_position(request)}
        push_url(response, f"{request.path}?{urlencode(pushed)}" if pushed else request.path)
    else:
        response = render(request, "reflections/list.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _position(request: HttpRequest) -> dict[str, str]:
    """Where in the list the page is, for the pushed URL."""
    for name in ("from", "after", "before", "last"):
        if value := request.GET.get(name):
            return {name: value}
    return {}


def _jump_field(key: keyset.Key) -> str:
    """What "jump to" asks for in this order: a date or a number."""
    return "date" if key.field.endswith("_at") else "number"


def _jump_cursor(keys, value: str) -> str:
    """A cursor just before the first row at `value` (a date, or a retrieval count)."""
    first = keys[0]
    try:
        if first.field.endswith("_at"):
            day = date.fromisoformat(value)
            edge = datetime.combine(day, time.min, tzinfo=UTC)
            point = (
                edge + timedelta(days=1) - timedelta(microseconds=1) if first.descending else edge
            )
        else:
            point = int(value)
    except ValueError:
        raise keyset.BadCursor("not a date or a number") from None
    # The id bound sits beyond every id, so every row at `point` is on the page.
    return keyset.cursor_of([point, 2**62 if first.descending else -1])


@login_required
@require_GET
def reflection_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    detail = selectors.reflection_detail(user=request.user, pk=pk)
    # Quarantined text may hold secrets: it is withheld until masking exists (DOMAIN §3.4).
    reflection = detail.reflection
    withheld = reflection.state == State.QUARANTINED
    sections = []
    if not withheld:
        # Formats without headed sections still have a body to read.
        sections = render_sections(reflection.sections) or render_sections(
            [{"heading": "", "body": reflection.body}] if reflection.body else []
        )
    return render(
        request,
        "reflections/detail.html",
        {
            "detail": detail,
            "reflection": reflection,
            "sections": sections,
            "withheld": withheld,
            "findings": reflection_findings(reflection),
            # What other apps show beside it (the audit, the rubric), each checking who may see.
            "panels": panels.panels_for(request, reflection),
        },
    )


@login_required
@require_GET
def reflection_events(request: HtmxHttpRequest, pk: int, kind: str) -> HttpResponse:
    """Older retrievals or injections of a reflection, a keyset page at a time: the rows
    (with the next page's "Older" row) for the reflection page's table, or a page of their own
    without JavaScript."""
    try:
        reflection, page = older_events(
            user=request.user, pk=pk, kind=kind, after=request.GET.get("after")
        )
    except keyset.BadCursor:  # a stale or edited link: start from the newest
        reflection, page = older_events(user=request.user, pk=pk, kind=kind, after=None)
    context = {"reflection": reflection, "page": page, "kind": kind}
    if wants_fragment(request):
        rows = "retrieval-rows" if kind == "retrievals" else "injection-rows"
        response = render(request, f"reflections/_event_rows.html#{rows}", context)
    else:
        response = render(request, "reflections/events.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response
