"""The learning-curves page (DOMAIN §7): weekly success, partials, repeat failures, reflections
written by kind, review deprecations on the time axis; each table also as CSV."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insights.metrics import week_start
from insights.selectors import learning as selectors
from insights.views.common import (
    bad_request,
    cached_page_figures,
    chosen_department,
    csv_response,
    date_param,
    department_order,
    departments_for,
    no_jit,
    table_download,
    wants_csv,
)
from reflections.models import Kind
from reflections.selectors.dates import today
from reflexion_site.routers import reads_replica

# --------------------------------------------------------------------------- learning curves


@login_required
@require_GET
@reads_replica  # a summary: the read replica may serve it
def learning(request: HttpRequest) -> HttpResponse:
    departments = departments_for(request)
    department = chosen_department(request, departments)
    end = date_param(request, "to", today())
    if end is None:
        return bad_request("to must be a date written YYYY-MM-DD.")
    default_start = week_start(end) - timedelta(weeks=selectors.DEFAULT_RANGE_WEEKS - 1)
    start = date_param(request, "from", default_start)
    if start is None:
        return bad_request("from must be a date written YYYY-MM-DD.")
    if start > end:
        return bad_request("from must not be after to.")
    if (end - start).days > 7 * 520:
        return bad_request("At most ten years at a time.")
    label = department.name if department else "all departments"
    # A second department side by side with the first (its weekly success on the same chart).
    beside = _beside(request, departments, department)

    def figures():
        chosen = [d for d in (department, beside) if d is not None]
        with no_jit():
            curves = selectors.learning_curves(
                departments=chosen or departments,
                department_ids=[d.pk for d in chosen] or None,
                start=start,
                end=end,
            )
        shown = curves.per_department[department.slug] if department else curves.overall
        figures = _learning_charts(curves, shown, label)
        if beside is not None:
            figures["beside"] = _beside_chart(curves, department, beside)
        return curves, shown, figures

    # The review markers are read every time (two small queries) and are part of the key: a
    # verdict that deprecates moves them, one that keeps does not.
    since, until = selectors.learning_window(start, end)
    markers = selectors.review_markers(
        since=since, until=until, department_ids=[department.pk] if department else None
    )
    key = (
        [d.pk for d in departments],
        department and department.pk,
        beside and beside.pk,
        start,
        end,
        markers,
    )
    curves, shown, charts = cached_page_figures("learning-curves", key, figures)
    if wants_csv(request):
        scope = department.slug if department else "all"
        suffix = f"{scope}-{curves.start}-{curves.end}.csv"
        return table_download(
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
                "beside": lambda: csv_response(
                    f"learning-side-by-side-{suffix}",
                    WEEK_HEADER,
                    (
                        [d.slug, *_week_cells(w)]
                        for d in (department, beside)
                        if d is not None
                        for w in curves.per_department.get(d.slug, [])
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
            "charts": charts,
            "curves": curves,
            "shown": shown,
            "department": department,
            "beside": beside,
            "departments": departments,
            "from_param": curves.start,
            "to_param": end,
        },
    )


WEEK_AXIS = "Week (ISO, Monday start, UTC)"


def _beside(request: HttpRequest, departments: list, department):
    """The department to put beside the chosen one (`beside`), or None."""
    slug = request.GET.get("beside", "").strip()[:64]
    if not slug or department is None:
        return None
    found = next((d for d in departments if d.slug == slug), None)
    if found is None:
        raise Http404("No such department.")
    return None if found.pk == department.pk else found


def _beside_chart(curves: selectors.LearningCurves, department, beside) -> dict:
    """Two departments' weekly success rates on one chart (a run and its baseline, say)."""
    from insights import charts

    rows = [
        {"week": w.week, "department": d.name, "rate": w.success_rate}
        for d in (department, beside)
        for w in curves.per_department.get(d.slug, [])
        if w.success_rate is not None
    ]
    return charts.line_chart(
        rows,
        x="week",
        y="rate",
        series="department",
        series_order=[department.name, beside.name],
        title=f"Weekly task success, {department.name} beside {beside.name}",
        x_title=WEEK_AXIS,
        y_title="Share of finished tasks",
        y_domain=(0, 1),
        description=(
            f"Line chart of the weekly success rate of {department.name} and of {beside.name}, "
            f"{len(rows)} weeks with finished tasks."
        ),
    )


def _deprecation_markers(markers: list[selectors.Marker]) -> list[dict]:
    """One labelled rule per week in which review verdicts deprecated reflections."""
    by_week: dict[date, list[selectors.Marker]] = {}
    for m in markers:
        if m.what == "deprecations":
            by_week.setdefault(m.week, []).append(m)
    result = []
    for week, ms in sorted(by_week.items()):
        n = sum(m.count for m in ms)
        who = ms[0].label if len(ms) == 1 else f"{len(ms)} reviews"
        result.append({"at": week, "label": f"{who}: {n} deprecated"})
    return result


def _learning_charts(curves: selectors.LearningCurves, shown: list, scope: str) -> dict:
    from insights import charts
    from insights.chart_parts import marker_key

    markers = _deprecation_markers(curves.markers)
    marked = (
        f" Dashed rules mark the weeks review verdicts deprecated reflections ({len(markers)}), "
        f"numbered: {marker_key(markers)}."
        if markers
        else ""
    )
    n = len(shown)
    outcomes = charts.line_chart(
        [
            {"week": w.week, "measure": measure, "rate": value}
            for w in shown
            for measure, value in (
                ("Success rate", w.success_rate),
                ("Partial rate", w.partial_rate),
            )
            if value is not None
        ],
        x="week",
        y="rate",
        series="measure",
        title=f"Weekly task success and partial rate, {scope}",
        x_title=WEEK_AXIS,
        y_title="Share of finished tasks",
        y_domain=(0, 1),
        series_order=["Success rate", "Partial rate"],
        markers=markers,
        description=(
            f"Line chart of the weekly success rate and partial rate of finished tasks, {scope}, "
            f"over {n} ISO weeks.{marked}"
        ),
    )
    repeat = charts.line_chart(
        [
            {"week": w.week, "repeat_failure_rate": w.repeat_failure_rate}
            for w in shown
            if w.repeat_failure_rate is not None
        ],
        x="week",
        y="repeat_failure_rate",
        title=f"Weekly repeat-failure rate, {scope}",
        x_title=WEEK_AXIS,
        y_title="Repeat failures / eligible tasks",
        markers=markers,
        height=220,
        description=(
            f"Line chart of the weekly repeat-failure rate (repeat failures among eligible "
            f"tasks), {scope}, over {n} ISO weeks.{marked}"
        ),
    )
    domain = (curves.start, curves.end)
    deprecations = [
        {"week": m.week, "department": m.department, "deprecated": m.count}
        for m in curves.markers
        if m.what == "deprecations"
    ]
    review = (
        charts.weekly_bar_chart(
            deprecations,
            x="week",
            y="deprecated",
            series="department",
            series_order=department_order("slug"),
            title=f"Reflections deprecated by review verdicts per week, {scope}",
            x_title=WEEK_AXIS,
            y_title="Reflections deprecated",
            x_domain=domain,
            height=160,
            description=(
                f"Stacked bar chart of the reflections review verdicts deprecated per ISO week "
                f"and department, {scope}; {sum(d['deprecated'] for d in deprecations)} in all."
            ),
        )
        if deprecations
        else None
    )
    labels = dict(Kind.choices)
    written = charts.weekly_bar_chart(
        [
            {"week": w.week, "kind": labels[kind], "reflections": count}
            for w in curves.written
            for kind, count in zip(Kind.values, w.counts, strict=True)
            if count
        ],
        x="week",
        y="reflections",
        series="kind",
        series_order=[labels[k] for k in Kind.values],
        title=f"Reflections written per week by kind, {scope}",
        x_title=WEEK_AXIS,
        y_title="Reflections written",
        x_domain=domain,
        description=(
            f"Stacked bar chart of the reflections written per ISO week by kind, {scope}, "
            f"{sum(w.total for w in curves.written)} in {len(curves.written)} weeks."
        ),
    )
    return {"outcomes": outcomes, "repeat": repeat, "markers": review, "written": written}


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
