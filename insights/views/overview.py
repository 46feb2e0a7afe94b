"""The insights overview: every department now against a quarter earlier, with sparklines."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insights.metrics import week_start, weeks_between
from insights.selectors import overview as selectors
from insights.views.common import (
    bad_request,
    csv_response,
    department_order,
    departments_for,
    no_jit,
    table_download,
    wants_csv,
)
from reflections.caching import EVENTS, cached
from reflections.selectors.dates import parse_as_of
from reflexion_site.routers import reads_replica

# --------------------------------------------------------------------------- overview


@login_required
@require_GET
@reads_replica  # a summary: the read replica may serve it
def overview(request: HttpRequest) -> HttpResponse:
    departments = departments_for(request)
    as_of = parse_as_of(request.GET.get("as_of"))
    if as_of is None:
        return bad_request("as_of must be a date written YYYY-MM-DD.")
    with no_jit():
        data = selectors.overview(departments=departments, as_of=as_of)
    if wants_csv(request):
        return table_download(request, {"departments": lambda: _overview_csv(data)})
    return render(
        request,
        "insights/overview.html",
        {
            "overview": data,
            "as_of_param": request.GET.get("as_of", ""),
            # The chart is keyed by the very series it draws: building it costs more than the
            # figures; the figures themselves stay live (open reviews move with each verdict).
            "chart": cached(
                "overview-chart",
                (data.as_of, [(r.label, r.success.series) for r in data.rows if r.slug]),
                lambda: _overview_chart(data),
                name=EVENTS,
            ),
        },
    )


def _overview_chart(data: selectors.Overview) -> dict | None:
    """Weekly success per department over the sparklines' weeks, from the same series."""
    from insights import charts

    departments = [r for r in data.rows if r.slug]
    if not departments:
        return None
    n = len(departments[0].success.series)
    weeks = weeks_between(week_start(data.as_of) - timedelta(weeks=n - 1), data.as_of)
    rows = [
        {"week": week, "department": r.label, "success": rate}
        for r in departments
        for week, rate in zip(weeks, r.success.series, strict=True)
        if rate is not None
    ]
    return charts.line_chart(
        rows,
        x="week",
        y="success",
        series="department",
        series_order=department_order("name"),
        title=f"Weekly task success per department, last {n} weeks",
        x_title="Week (ISO, Monday start, UTC)",
        y_title="Success rate",
        height=220,
        points=False,
        description=(
            f"Line chart of each department's weekly task success rate (successes / finished "
            f"tasks) over the {n} ISO weeks to {data.as_of:%Y-%m-%d}; a week without finished "
            f"tasks has no point. A click on a department in the legend picks its line out. The "
            f"table below has the current values."
        ),
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
