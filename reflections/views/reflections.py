"""Memory pages: the reflection list and one reflection in context."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
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
    paginator = Paginator(selectors.reflection_list(user=request.user, filters=filters), page_size)
    page = paginator.get_page(request.GET.get("page"))

    # Links carry the filters as the page understood them, not the raw (possibly junk) query.
    query = filters.as_query()
    if page_size != settings.REFLECTIONS_LIST_PAGE_SIZE:
        query["page_size"] = str(page_size)
    context = {
        "filters": filters,
        "options": selectors.filter_options(request.user),
        "page": page,
        "query": query,
        "page_size": page_size,
        "page_size_choices": sorted({*PAGE_SIZE_CHOICES, page_size}),
    }
    if wants_fragment(request):
        response = render(request, "reflections/list.html#results", context)
        pushed = {**query, "page": str(page.number)} if page.number > 1 else query
        push_url(response, f"{request.path}?{urlencode(pushed)}" if pushed else request.path)
    else:
        response = render(request, "reflections/list.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


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
