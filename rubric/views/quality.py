"""The quality page (DOMAIN §4 trigger gate, §6 breakdowns) for managers and admins, its CSV,
and who may see a reflection's rubric scores."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from reflections.access import ADMIN, MANAGER, RATER, REVIEWER, require_any_role, user_roles
from reflexion_site.downloads import csv_attachment
from rubric.forms.dates import RatedBetweenForm
from rubric.models import CRITERIA
from rubric.selectors.quality import BREAKDOWNS, REFERENCE, Group, cached_quality_breakdowns

# Breakdowns name raters' work by department and task type: for the people who run rounds.
QUALITY_ROLES = (MANAGER, ADMIN)
CSV_FIELDS = (
    "breakdown",
    "group",
    "label",
    "n",
    "mean",
    "ci_low",
    "ci_high",
    *CRITERIA,
    "reference",
)
FULL, AGGREGATE = "full", "aggregate"


def quality_visibility(user) -> str | None:
    """What the reflection partial (rubric/_reflection_quality.html) may show this user:

    * managers and admins: "full" — each criterion's mean, the aggregate and the rater count;
    * reviewers who are not raters: "aggregate" — the aggregate and the rater count only;
    * anyone holding the rater role (unless also manager or admin), and everyone else: None,
      nothing at all. Raters rate blind: seeing other raters' scores on a reflection they may
      be given would anchor them."""
    roles = user_roles(user)
    if roles & {MANAGER, ADMIN}:
        return FULL
    if REVIEWER in roles and RATER not in roles:
        return AGGREGATE
    return None


@login_required
@require_GET
def quality_page(request: HttpRequest) -> HttpResponse:
    require_any_role(request.user, QUALITY_ROLES)
    params = request.GET.copy()
    params.pop("format", None)
    form = RatedBetweenForm(params or None)
    if params and not form.is_valid():
        return render(request, "rubric/quality.html", {"form": form}, status=400)
    data = form.cleaned_data if params else {}
    since, until = data.get("since"), data.get("until")
    breakdowns = cached_quality_breakdowns(since=since, until=until)
    if request.GET.get("format") == "csv":
        return _breakdowns_csv(breakdowns, _filename(since, until))
    query = request.GET.copy()
    query["format"] = "csv"
    return render(
        request,
        "rubric/quality.html",
        {
            "form": form,
            "since": since,
            "until": until,
            "tables": [
                (key, BREAKDOWNS[key], breakdowns[key]) for key in BREAKDOWNS if key != "overall"
            ],
            "overall": breakdowns["overall"][0] if breakdowns["overall"] else None,
            "criteria": CRITERIA,
            "reference": REFERENCE,
            "csv_query": query.urlencode(),
        },
    )


def _filename(since, until) -> str:
    if since or until:
        return f"quality-{since or 'start'}-to-{until or 'now'}.csv"
    return "quality.csv"


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _breakdowns_csv(breakdowns: dict[str, list[Group]], filename: str) -> HttpResponse:
    """One row per breakdown and group; an undefined number (interval below n = 2) is empty."""
    response, writer = csv_attachment(filename)
    writer.writerow(CSV_FIELDS)
    for key, groups in breakdowns.items():
        for g in groups:
            # Group names come from imported data (task types, department names): the
            # writer disarms them.
            writer.writerow(
                [
                    key,
                    g.key,
                    g.label,
                    g.n,
                    _number(g.mean),
                    _number(g.low),
                    _number(g.high),
                    *(_number(g.criteria.get(c)) for c in CRITERIA),
                    _number(g.reference),
                ]
            )
    return response
