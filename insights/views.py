"""The managers' insights pages (DOMAIN §7): overview, learning curves, usefulness; every
table also as CSV (``?format=csv&table=<name>``)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from datetime import date, timedelta

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from reflections.access import ADMIN, MANAGER, require_any_role
from reflections.models import Department, Kind
from reflections.selectors_health import parse_as_of, today
from reviews.selectors_export import spreadsheet_safe

from . import selectors
from .metrics import week_start

INSIGHT_ROLES = (MANAGER, ADMIN)
# Managers and admins oversee every department (reflections.access): no per-department scope.


def _departments(request: HttpRequest) -> list[Department]:
    require_any_role(request.user, INSIGHT_ROLES)
    return list(Department.objects.only("slug", "name"))


def _chosen(request: HttpRequest, departments: list[Department]) -> Department | None:
    slug = request.GET.get("department", "").strip()[:64]
    if not slug:
        return None
    for d in departments:
        if d.slug == slug:
            return d
    raise Http404("No such department.")


def _bad_request(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def _date_param(request: HttpRequest, name: str, default: date) -> date | None:
    raw = request.GET.get(name, "").strip()
    if not raw:
        return default
    try:
        return date.fromisoformat(raw)
    except ValueError:
        return None


@contextmanager
def _no_jit():
    """These aggregates cost enough for PostgreSQL to JIT-compile them, which takes longer
    than running them (as on the memory-health page)."""
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
        yield


def _wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("format") == "csv"


def csv_response(filename: str, header: Iterable[str], rows: Iterable[Iterable]) -> HttpResponse:
    """A CSV download whose every cell is safe to open in a spreadsheet."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return response


def _cell(value) -> str:
    """Numbers stay numbers (a negative change is not a formula); text is disarmed."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    return spreadsheet_safe(value)


def _table(request: HttpRequest, tables: dict[str, Callable[[], HttpResponse]]) -> HttpResponse:
    name = request.GET.get("table", "")
    if name not in tables:
        raise Http404(f"No table {name[:40]!r}; tables here: {', '.join(tables)}.")
    return tables[name]()


# --------------------------------------------------------------------------- overview


@login_required
@require_GET
def overview(request: HttpRequest) -> HttpResponse:
    departments = _departments(request)
    as_of = parse_as_of(request.GET.get("as_of"))
    if as_of is None:
        return _bad_request("as_of must be a date written YYYY-MM-DD.")
    with _no_jit():
        data = selectors.overview(departments=departments, as_of=as_of)
    if _wants_csv(request):
        return _table(request, {"departments": lambda: _overview_csv(data)})
    return render(
        request,
        "insights/overview.html",
        {"overview": data, "as_of_param": request.GET.get("as_of", "")},
    )


def _overview_csv(data: selectors.Overview) -> HttpResponse:
    header = ["department"]
    for name in (
        "success_rate",
        "repeat_failure_rate",
        "active_set",
        "quality_mean",
        "open_review_items",
        "open_rating_assignments",
    ):
        header += [name, f"{name}_quarter_before", f"{name}_change"]
    header += ["success_tasks", "eligible_tasks"]
    rows = []
    for r in data.rows:
        row = [r.slug or "all"]
        for m in (r.success, r.repeat, r.active_set, r.quality, r.open_review, r.open_rating):
            row += [m.change.now, m.change.before, m.change.delta]
        rows.append([*row, r.success_tasks, r.eligible_tasks])
    return csv_response(f"insights-overview-{data.as_of}.csv", header, rows)


# --------------------------------------------------------------------------- learning curves


@login_required
@require_GET
def learning(request: HttpRequest) -> HttpResponse:
    departments = _departments(request)
    department = _chosen(request, departments)
    end = _date_param(request, "to", today())
    if end is None:
        return _bad_request("to must be a date written YYYY-MM-DD.")
    default_start = week_start(end) - timedelta(weeks=selectors.DEFAULT_RANGE_WEEKS - 1)
    start = _date_param(request, "from", default_start)
    if start is None:
        return _bad_request("from must be a date written YYYY-MM-DD.")
    if start > end:
        return _bad_request("from must not be after to.")
    if (end - start).days > 7 * 520:
        return _bad_request("At most ten years at a time.")
    with _no_jit():
        curves = selectors.learning_curves(
            departments=[department] if department else departments,
            department_ids=[department.pk] if department else None,
            start=start,
            end=end,
        )
    shown = curves.per_department[department.slug] if department else curves.overall
    if _wants_csv(request):
        scope = department.slug if department else "all"
        suffix = f"{scope}-{curves.start}-{curves.end}.csv"
        return _table(
            request,
            {
                "weeks": lambda: csv_response(
                    f"learning-{suffix}", WEEK_HEADER, ([scope, *_week_cells(w)] for w in shown)
                ),
                "departments": lambda: csv_response(
                    f"learning-by-department-{suffix}",
                    WEEK_HEADER,
                    (
                        [slug, *_week_cells(w)]
                        for slug, weeks in curves.per_department.items()
                        for w in weeks
                    ),
                ),
                "written": lambda: csv_response(
                    f"reflections-written-{suffix}",
                    ["week", *Kind.values, "total"],
                    ([w.week, *w.counts, w.total] for w in curves.written),
                ),
                "markers": lambda: csv_response(
                    f"review-markers-{suffix}",
                    ["week", "department", "event", "count", "cycle"],
                    ([m.week, m.department, m.what, m.count, m.label] for m in curves.markers),
                ),
            },
        )
    return render(
        request,
        "insights/learning.html",
        {
            "curves": curves,
            "shown": shown,
            "department": department,
            "departments": departments,
            "from_param": curves.start,
            "to_param": end,
        },
    )


WEEK_HEADER = [
    "department",
    "week",
    "finished",
    "successes",
    "partials",
    "failures",
    "success_rate",
    "partial_rate",
    "eligible",
    "repeat_failures",
    "repeat_failure_rate",
]


def _week_cells(w) -> list:
    return [
        w.week,
        w.finished,
        w.successes,
        w.partials,
        w.failures,
        w.success_rate,
        w.partial_rate,
        w.eligible,
        w.repeats,
        w.repeat_failure_rate,
    ]


# --------------------------------------------------------------------------- usefulness


@login_required
@require_GET
def usefulness(request: HttpRequest) -> HttpResponse:
    departments = _departments(request)
    department = _chosen(request, departments)
    with _no_jit():
        report = selectors.usefulness_report(
            departments=departments, department_ids=[department.pk] if department else None
        )
    if _wants_csv(request):
        scope = department.slug if department else "all"
        u = report.usefulness
        return _table(
            request,
            {
                "usefulness": lambda: csv_response(
                    f"usefulness-{scope}.csv",
                    ["source", "reflections", "useful_retrievals", "per_reflection"],
                    [
                        [s.label, s.reflections, s.useful_retrievals, s.per_reflection]
                        for s in (u.post_failure, u.post_success)
                    ]
                    + [["ratio post-failure / post-success", "", "", u.ratio]],
                ),
                "lift": lambda: csv_response(
                    f"lift-{scope}.csv",
                    [
                        "reflection_id",
                        "title",
                        "department",
                        "agent",
                        "kind",
                        "injections",
                        "injected_tasks",
                        "injected_successes",
                        "injected_rate",
                        "injected_rate_low95",
                        "injected_rate_high95",
                        "department_rate",
                        "lift",
                        "lift_low95",
                        "lift_high95",
                    ],
                    (_lift_cells(r) for r in report.lift),
                ),
                "flows": lambda: csv_response(
                    f"retrieval-flows-{scope}.csv",
                    ["retriever_department", "reflection_department", "retrievals"],
                    (
                        [f.retriever_department, f.reflection_department, f.retrievals]
                        for f in report.flows
                    ),
                ),
            },
        )
    return render(
        request,
        "insights/usefulness.html",
        {"report": report, "department": department, "departments": departments},
    )


def _lift_cells(r: selectors.LiftRow) -> list:
    interval = r.interval or (None, None)
    lift_interval = r.lift_interval or (None, None)
    return [
        r.reflection_id,
        r.title,
        r.department,
        r.agent,
        r.kind,
        r.injections,
        r.lift.injected_tasks,
        r.lift.injected_successes,
        r.lift.injected_rate,
        *interval,
        r.lift.department_rate,
        r.lift.lift,
        *lift_interval,
    ]
