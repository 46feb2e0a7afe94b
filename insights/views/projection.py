"""The projection page (DOMAIN §7): weekly success, its saturating fit, and the weeks as CSV."""

from __future__ import annotations

from datetime import date

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insights.projection import MIN_WEEKS, Projection, fit_projection
from insights.selectors.projection import WeekRow, weekly_success
from insights.views.common import cached_page_figures
from reflections.access import ADMIN, MANAGER, require_any_role
from reflections.form_fields import DepartmentChoiceField
from reflections.models import Department
from reflexion_site.downloads import csv_attachment
from reflexion_site.routers import reads_replica

# Learning curves compare departments with each other: for the people who run them.
PROJECTION_ROLES = (MANAGER, ADMIN)

CSV_FIELDS = ("department", "week", "finished", "successes", "partials", "failures",
              "success_rate", "fitted")  # fmt: skip


class DepartmentForm(forms.Form):
    department = DepartmentChoiceField(
        queryset=Department.objects.none(),
        required=False,
        empty_label="All departments",
        to_field_name="slug",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["department"]
        field.queryset = Department.objects.order_by("slug")


@login_required
@require_GET
@reads_replica  # a summary: the read replica may serve it
def projection_page(request: HttpRequest) -> HttpResponse:
    from insights.projection_chart import (
        projection_chart,
    )

    require_any_role(request.user, PROJECTION_ROLES)
    form = DepartmentForm(request.GET or None)
    if request.GET and not form.is_valid():
        return render(request, "insights/projection.html", {"form": form}, status=400)
    department = form.cleaned_data.get("department") if request.GET else None

    def figures():
        weeks = weekly_success(department=department)
        first = weeks[0].week if weeks else None
        fit = fit_projection(
            [(w.week - first).days / 7 for w in weeks],
            [w.success_rate for w in weeks],
            [w.finished for w in weeks],
        )
        chart = projection_chart(
            [w.week for w in weeks],
            [w.success_rate for w in weeks],
            fit,
            title=f"Weekly task success, {_scope(department)}",
        )
        return weeks, fit, chart

    # The weeks' tasks (EVENTS), the fit and its chart: computed once per import.
    weeks, fit, chart = cached_page_figures(
        "projection", (department and department.pk, date.today()), figures
    )
    fitted = _fitted_by_week(weeks, fit)
    if request.GET.get("format") == "csv":
        return _weeks_csv(weeks, fitted, department)
    return render(
        request,
        "insights/projection.html",
        {
            "form": form,
            "department": department,
            "weeks": [(w, fitted.get(w.week)) for w in weeks],
            "fit": fit if isinstance(fit, Projection) else None,
            "refusal": None if isinstance(fit, Projection) else fit,
            "min_weeks": MIN_WEEKS,
            "chart": chart,
            "csv_query": _csv_query(request),
        },
    )


def _scope(department: Department | None) -> str:
    return department.name if department else "all departments"


def _fitted_by_week(weeks: list[WeekRow], fit) -> dict:
    """The fitted success of each observed week, for the table and the CSV."""
    if not isinstance(fit, Projection):
        return {}
    first = weeks[0].week
    return {w.week: fit.at((w.week - first).days / 7) for w in weeks}


def _csv_query(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["format"] = "csv"
    return query.urlencode()


def _weeks_csv(weeks: list[WeekRow], fitted: dict, department: Department | None) -> HttpResponse:
    name = department.slug if department else "all-departments"
    response, writer = csv_attachment(f"weekly-success-{name}.csv")
    writer.writerow(CSV_FIELDS)
    label = department.slug if department else "all"
    for w in weeks:
        fit = fitted.get(w.week)
        writer.writerow(
            [label, w.week.isoformat(), w.finished, w.successes, w.partials, w.failures,
             f"{w.success_rate:.4f}", "" if fit is None else f"{fit:.4f}"]
        )  # fmt: skip
    return response
