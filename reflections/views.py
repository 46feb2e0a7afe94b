"""Memory pages: the reflection list, one reflection, memory health and retention."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from reflections import access, selectors, selectors_health
from reflections.access import require_any_role
from reflections.models import State
from reflections.rendering import render_sections
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from reviews.selectors_quality import reflection_quality
from reviews.views_quality import quality_visibility

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
    # Rubric scores: managers see them in full, reviewers the aggregate, raters nothing (blind).
    quality_show = quality_visibility(request.user)
    quality = reflection_quality([reflection.pk])[reflection.pk] if quality_show else None
    return render(
        request,
        "reflections/detail.html",
        {
            "detail": detail,
            "reflection": reflection,
            "sections": sections,
            "withheld": withheld,
            "findings": selectors_health.reflection_findings(reflection),
            "quality": quality,
            "quality_show": quality_show,
        },
    )


def _as_of(request: HttpRequest):
    """The page's as_of date, or a 400 response naming the bad value."""
    raw = request.GET.get("as_of")
    as_of = selectors_health.parse_as_of(raw)
    if as_of is None:
        return None, HttpResponseBadRequest(
            f"as_of must be a date written YYYY-MM-DD, not {raw[:40]!r}.",
            content_type="text/plain; charset=utf-8",
        )
    return as_of, None


def _departments_for(request: HttpRequest, slug: str | None):
    """(departments shown, whether that is every department); 404 for one not visible."""
    require_any_role(request.user)
    visible = list(access.visible_departments(request.user).only("slug", "name"))
    if slug:
        chosen = [d for d in visible if d.slug == slug]
        if not chosen:
            raise Http404("No such department.")
        return visible, chosen, False
    return visible, visible, access.sees_all_departments(request.user)


@login_required
@require_GET
def memory_health(request: HtmxHttpRequest, slug: str | None = None) -> HttpResponse:
    visible, departments, all_departments = _departments_for(request, slug)
    as_of, error = _as_of(request)
    if error:
        return error
    health = selectors_health.memory_health(
        departments=departments, all_departments=all_departments, as_of=as_of
    )
    return render(
        request,
        "reflections/health.html",
        {
            "health": health,
            "visible_departments": visible,
            "department": departments[0] if slug else None,
            "as_of_param": request.GET.get("as_of", ""),
        },
    )


@login_required
@require_GET
def retention(request: HtmxHttpRequest) -> HttpResponse:
    visible, departments, all_departments = _departments_for(
        request, request.GET.get("department", "").strip()[:64] or None
    )
    as_of, error = _as_of(request)
    if error:
        return error
    report = selectors_health.retention_report(
        user=request.user, departments=departments, all_departments=all_departments, as_of=as_of
    )
    return render(
        request,
        "reflections/retention.html",
        {
            "report": report,
            "visible_departments": visible,
            "department": departments[0] if request.GET.get("department", "").strip() else None,
            "as_of_param": request.GET.get("as_of", ""),
        },
    )
