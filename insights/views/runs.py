"""The Reflexion runs page: every imported run with the share of problems it solved and its
repetition rate, and two runs side by side by trial (chart, table beneath, CSV)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insights.selectors import runs as selectors
from insights.views.common import csv_response, departments_for, wants_csv

CSV_HEADER = (
    "run",
    "trial",
    "attempted",
    "solved",
    "success_rate",
    "solved_by_then",
    "problems",
    "cumulative_share_solved",
)


def _chosen(request: HttpRequest, name: str, found: list):
    slug = request.GET.get(name, "").strip()[:120]
    if not slug:
        return None
    for run in found:
        if run.slug == slug:
            return run
    raise Http404("No such run.")


@login_required
@require_GET
def runs_page(request: HttpRequest) -> HttpResponse:
    from insights import charts

    departments = departments_for(request)
    found = selectors.runs([d.pk for d in departments])
    default_a, default_b = selectors.default_pair(found)
    a = _chosen(request, "a", found) or default_a
    b = _chosen(request, "b", found) or (default_b if "b" not in request.GET else None)
    shown = [run for run in (a, b) if run is not None]
    rows = [row for run in shown for row in selectors.trial_rows(run)]
    if wants_csv(request):
        return csv_response(
            "reflexion-runs.csv",
            CSV_HEADER,
            (
                [r.run, r.trial, r.attempted, r.solved, r.success_rate, r.solved_by_then,
                 r.problems, r.cumulative_share]
                for r in rows
            ),
        )  # fmt: skip
    names = {run.label: run.short_name for run in shown}
    if len(set(names.values())) < len(names):  # two runs of one name: their labels tell
        names = {label: label for label in names}
    order = [names[run.label] for run in shown]
    figures = {}
    if rows:
        values = [
            {
                "run": names[r.run],
                "trial": r.trial,
                "share": r.cumulative_share,
                "rate": r.success_rate,
            }
            for r in rows
        ]
        for name, y, title, y_title in (
            ("cumulative", "share", "Share of problems solved by trial (cumulative)",
             "problems solved"),
            ("rate", "rate", "Share of the attempts made in each trial that solved their "
             "problem", "attempts solved"),
        ):  # fmt: skip
            figures[name] = charts.line_chart(
                [v for v in values if v[y] is not None],
                x="trial",
                y=y,
                series="run",
                series_order=order,
                x_type="ordinal",
                y_domain=(0, 1),
                title=title,
                x_title="trial",
                y_title=y_title,
            )
    return render(
        request,
        "insights/runs.html",
        {
            "runs": selectors.run_rows(found),
            "a": a,
            "b": b,
            "rows": rows,
            "charts": figures,
        },
    )
