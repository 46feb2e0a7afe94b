"""The usefulness page (DOMAIN §7): useful retrievals by source outcome, lift, cross-agent flows."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from insights.selectors import usefulness as selectors
from insights.views.common import (
    cached_page_figures,
    chosen_department,
    csv_response,
    departments_for,
    no_jit,
    table_download,
    wants_csv,
)
from reflections.models import Reflection, State
from reflexion_site.routers import reads_replica

# --------------------------------------------------------------------------- usefulness


@login_required
@require_GET
@reads_replica  # a summary: the read replica may serve it
def usefulness(request: HttpRequest) -> HttpResponse:
    departments = departments_for(request)
    department = chosen_department(request, departments)

    def figures():
        with no_jit():
            return selectors.usefulness_report(
                departments=departments, department_ids=[department.pk] if department else None
            )

    # All history, so cached under the events' version (the lift of the most injected
    # reflections groups their injections: ~0.75 s at 10M retrievals); the lift table leaves
    # quarantined reflections out, so which ones are is part of the key (a handful of ids).
    quarantined = tuple(
        Reflection.objects.filter(state=State.QUARANTINED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    key = ([d.pk for d in departments], department and department.pk, quarantined)
    report = cached_page_figures("usefulness", key, figures)
    if wants_csv(request):
        scope = department.slug if department else "all"
        u = report.usefulness
        return table_download(
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
    from insights import charts

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
                    # In percentage points, as the table writes them ("-20.1 pts").
                    "lift": round(100 * r.lift.lift, 1),
                    "low": round(100 * r.lift_interval[0], 1),
                    "high": round(100 * r.lift_interval[1], 1),
                    "url": reverse("reflections:detail", args=[r.reflection_id]),
                }
                for i, r in rated
            ],
            href="url",
            label="reflection",
            value="lift",
            low="low",
            high="high",
            title=f"Lift of the most injected reflections, {scope}",
            value_title="Success of injected tasks minus the department's (pts)",
            value_format="+.1f",
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
