"""The agreement page (DOMAIN §6) for managers and admins, and its rater-pair CSV."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from reflections.access import ADMIN, MANAGER, require_any_role
from reflections.caching import cached
from reflexion_site.downloads import csv_attachment
from rubric.agreement import REFERENCE_KAPPA, AgreementResult
from rubric.forms.dates import RatedBetweenForm
from rubric.models import Rating, RatingAssignment, RatingRound
from rubric.selectors.agreement import AgreementReport, agreement_report

# Agreement compares named raters with each other: for the people who run the rounds.
AGREEMENT_ROLES = (MANAGER, ADMIN)

PAIR_FIELDS = (
    "criterion",
    "rater_a",
    "rater_b",
    "shared_items",
    "kappa",
    "weighted_kappa",
    "exact",
    "within_one",
    "undefined_reason",
)


class AgreementForm(RatedBetweenForm):
    round = forms.ModelChoiceField(
        queryset=RatingRound.objects.none(), required=False, empty_label="Any round"
    )
    field_order = ["round", "since", "until"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = RatingRound.objects.order_by("-created_at", "-id")


@login_required
@require_GET
def agreement_page(request: HttpRequest) -> HttpResponse:
    require_any_role(request.user, AGREEMENT_ROLES)
    form = AgreementForm(request.GET or None)
    if request.GET and not form.is_valid():
        return render(request, "rubric/agreement.html", {"form": form}, status=400)
    data = form.cleaned_data if request.GET else {}
    rating_round = data.get("round")
    filters = dict(
        round_id=rating_round.pk if rating_round else None,
        since=data.get("since"),
        until=data.get("until"),
    )
    # Kappa, alpha and the matrices over every rating: computed once per state of the ratings (a new
    # rating, an import, an edit of a submitted scoring all move the stamp).
    report = cached("agreement", (filters, ratings_stamp()), lambda: agreement_report(**filters))
    if request.GET.get("format") == "csv":
        return _pairs_csv(report.result, _filename(data))
    return render(
        request,
        "rubric/agreement.html",
        {
            "form": form,
            "report": report,
            "rating_round": rating_round,
            "since": data.get("since"),
            "until": data.get("until"),
            "csv_query": _csv_query(request),
            "biases": _bias_rows(report),
            "reference": REFERENCE_KAPPA,
        },
    )


def ratings_stamp() -> dict:
    """What the ratings are now, in one small query each: how many, the newest, the sum of
    their levels and the last rated (an import that changes a level in place), the last change
    to a submitted scoring."""
    return {
        **Rating.objects.aggregate(
            n=Count("id"), last=Max("id"), levels=Sum("level"), rated=Max("rated_at")
        ),
        **RatingAssignment.objects.aggregate(
            changed=Max("changed_at"), submitted=Max("submitted_at")
        ),
    }


def _bias_rows(report: AgreementReport) -> list[tuple[str, list]]:
    """One row per rater: their bias on each criterion and pooled, in the table's columns."""
    result = report.result
    return [(rater, [a.biases[i] for a in result.all]) for i, rater in enumerate(result.raters)]


def _csv_query(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["format"] = "csv"
    return query.urlencode()


def _filename(data: dict) -> str:
    parts = ["agreement"]
    if data.get("round"):
        parts.append(f"round-{data['round'].pk}")
    if data.get("since") or data.get("until"):
        parts.append(f"{data.get('since') or 'start'}-to-{data.get('until') or 'now'}")
    return "-".join(parts) + ".csv"


def _pairs_csv(result: AgreementResult, filename: str) -> HttpResponse:
    """One row per criterion (and pooled) and rater pair; an undefined statistic is empty."""
    response, writer = csv_attachment(filename)
    writer.writerow(PAIR_FIELDS)
    for a in result.all:
        for p in a.pairs:
            # Usernames may start with @, + or -: the writer disarms them; a negative κ stays
            # a number.
            writer.writerow(
                [
                    a.criterion,
                    p.rater_a,
                    p.rater_b,
                    p.shared,
                    *("" if v is None else f"{v:.4f}" for v in _pair_values(p)),
                    p.undefined_reason,
                ]
            )
    return response


def _pair_values(p) -> tuple:
    return (p.kappa, p.weighted_kappa, p.exact, p.within_one)
