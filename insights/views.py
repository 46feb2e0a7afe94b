"""The managers' insights pages (DOMAIN §7): overview, learning curves, usefulness; every
table also as CSV (``?format=csv&table=<name>``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import contextmanager
from datetime import date, timedelta

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insights import charts, selectors
from insights.metrics import week_start, weeks_between
from reflections.access import ADMIN, MANAGER, require_any_role
from reflections.models import Department, Kind
from reflections.selectors.dates import parse_as_of, today
from reflexion_site.downloads import csv_attachment, spreadsheet_safe

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
    response, writer = csv_attachment(filename)
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
        {
            "overview": data,
            "as_of_param": request.GET.get("as_of", ""),
            "chart": _overview_chart(data),
        },
    )


def _overview_chart(data: selectors.Overview) -> dict | None:
    """Weekly success per department over the sparklines' weeks, from the same series."""
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
        title=f"Weekly task success per department, last {n} weeks",
        x_title="Week (ISO, Monday start, UTC)",
        y_title="Success rate",
        height=220,
        points=False,
        description=(
            f"Line chart of each department's weekly task success rate (successes / finished "
            f"tasks) over the {n} ISO weeks to {data.as_of:%Y-%m-%d}; a week without finished "
            f"tasks has no point. The table below has the current values."
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
    scope = department.name if department else "all departments"
    return render(
        request,
        "insights/learning.html",
        {
            "charts": _learning_charts(curves, shown, scope),
            "curves": curves,
            "shown": shown,
            "department": department,
            "departments": departments,
            "from_param": curves.start,
            "to_param": end,
        },
    )


WEEK_AXIS = "Week (ISO, Monday start, UTC)"


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
    markers = _deprecation_markers(curves.markers)
    marked = (
        f" Dashed rules mark the weeks review verdicts deprecated reflections ({len(markers)})."
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
    scope = department.name if department else "all departments"
    return render(
        request,
        "insights/usefulness.html",
        {
            "report": report,
            "department": department,
            "departments": departments,
            "charts": _usefulness_charts(report, scope),
        },
    )


LIFT_LABEL = 60  # characters of a reflection's title on the lift chart's axis


def _usefulness_charts(report: selectors.UsefulnessReport, scope: str) -> dict:
    u = report.usefulness
    sides = [s for s in (u.post_failure, u.post_success) if s.per_reflection is not None]
    ratio = f" Post-failure / post-success: {u.ratio:.1f} times." if u.ratio is not None else ""
    usefulness = (
        charts.bar_chart(
            [{"source": s.label, "per_reflection": s.per_reflection} for s in sides],
            x="source",
            y="per_reflection",
            title=f"Useful retrievals per stored reflection, {scope}",
            x_title="Reflection written after",
            y_title="Useful retrievals per reflection",
            y_format=".1f",
            height=130,
            horizontal=True,
            description=(
                "Bar chart of useful retrievals (retrievals whose task succeeded) per stored "
                "reflection: "
                + "; ".join(f"{s.label}: {s.per_reflection:.2f}" for s in sides)
                + f".{ratio}"
            ),
        )
        if sides
        else None
    )
    rated = [(i, r) for i, r in enumerate(report.lift, start=1) if r.lift_interval is not None]
    lift = (
        charts.interval_chart(
            [
                {
                    "reflection": f"#{i} {_shorten(r.title)}",
                    "lift": r.lift.lift,
                    "low": r.lift_interval[0],
                    "high": r.lift_interval[1],
                }
                for i, r in rated
            ],
            label="reflection",
            value="lift",
            low="low",
            high="high",
            title=f"Lift of the most injected reflections, {scope}",
            value_title="Success of injected tasks minus the department's (points)",
            label_title="Reflection (rank by injections)",
            description=(
                f"Dot plot of the lift in success rate of the tasks {len(rated)} most injected "
                f"reflections were injected into, over their department's rate in the same "
                f"weeks, with Wilson 95 % intervals; the dashed rule is no lift."
            ),
        )
        if rated
        else None
    )
    flows = (
        charts.heatmap(
            [
                {
                    "retriever": f.retriever_department,
                    "author": f.reflection_department,
                    "retrievals": f.retrievals,
                }
                for f in report.flows
            ],
            x="author",
            y="retriever",
            value="retrievals",
            title=f"Retrievals by department, {scope}",
            x_title="Reflection's department",
            y_title="Retriever's department",
            value_title="Retrievals",
            description=(
                f"Heat map of {report.flows_total:,} retrievals by the retriever's department "
                f"(rows) and the reflection's department (columns); off the diagonal, one "
                f"department used another's reflections."
            ),
        )
        if report.flows
        else None
    )
    return {"usefulness": usefulness, "lift": lift, "flows": flows}


def _shorten(text: str) -> str:
    return text if len(text) <= LIFT_LABEL else text[: LIFT_LABEL - 1].rstrip() + "…"


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
