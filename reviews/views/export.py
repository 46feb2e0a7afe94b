"""The deprecation export as CSV and JSON downloads, limited to the departments one may see."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from reflections.access import (
    ADMIN,
    MANAGER,
    REVIEWER,
    require_any_role,
    sees_all_departments,
    visible_departments,
)
from reflexion_site.downloads import csv_attachment
from reviews.models import ReviewCycle
from reviews.selectors.export import deprecation_rows, write_deprecations_csv

# Raters score reflections blind; review verdicts are not theirs to read.
EXPORT_ROLES = (REVIEWER, MANAGER, ADMIN)


def _rows_for(request: HttpRequest) -> tuple[list[dict], ReviewCycle | None]:
    """The rows the user may see, for one cycle when `?cycle=ID` names one they may see."""
    require_any_role(request.user, EXPORT_ROLES)
    departments = None if sees_all_departments(request.user) else visible_departments(request.user)
    cycle = None
    if "cycle" in request.GET:
        cycles = ReviewCycle.objects.select_related("department")
        if departments is not None:
            cycles = cycles.filter(department__in=departments)
        raw = request.GET["cycle"]
        cycle = cycles.filter(pk=int(raw)).first() if raw.isdigit() else None
        if cycle is None:  # unknown and not yours look the same
            raise Http404("No such review cycle.")
    return deprecation_rows(cycle=cycle, departments=departments), cycle


def _filename(cycle: ReviewCycle | None, extension: str) -> str:
    if cycle is None:
        return f"deprecations.{extension}"
    return f"deprecations-{cycle.department.slug}-{cycle.quarter}.{extension}"


@login_required
@require_GET
def deprecations_csv(request: HttpRequest) -> HttpResponse:
    rows, cycle = _rows_for(request)
    response, _ = csv_attachment(_filename(cycle, "csv"))
    write_deprecations_csv(rows, response)
    return response


@login_required
@require_GET
def deprecations_json(request: HttpRequest) -> HttpResponse:
    rows, cycle = _rows_for(request)
    response = JsonResponse(rows, safe=False, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'inline; filename="{_filename(cycle, "json")}"'
    return response
