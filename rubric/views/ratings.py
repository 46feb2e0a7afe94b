"""Rating pages: rounds for managers, the blind one-item-at-a-time rating page for raters."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url

from reflections.access import require_any_role
from reflections.rendering import render_sections
from reflexion_site.downloads import csv_attachment
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from rubric.eligibility import is_calibrated
from rubric.forms.ratings import RatingForm, RoundForm
from rubric.models import LEVELS, RatingRound
from rubric.selectors import rounds as selectors
from rubric.services import rounds as services
from rubric.services.rubric import criterion_blocks, load_criteria

KEYS = [
    ("1 to 5", "Set a level (0, 0.25, 0.5, 0.75, 1) and move to the next criterion without one"),
    ("Tab / Shift+Tab", "Next / previous criterion"),
    ("a", "Show or hide the criterion's anchors"),
    ("Enter", "Submit and go to the next item"),
    ("j / p", "Skip to the next item without saving / previous item"),
    ("?", "Show or hide these keys"),
]

# --------------------------------------------------------------------------- rounds


@login_required
@require_GET
def round_list(request: HtmxHttpRequest) -> HttpResponse:
    """Managers: every round with its progress. Raters: the rounds they have items in."""
    require_any_role(request.user, selectors.RATING_ROLES)
    manager = selectors.can_manage(request.user)
    rater = selectors.is_rater(request.user)
    context: dict = {"manager": manager, "rater": rater}
    if manager:
        context["rows"] = selectors.progress(selectors.all_rounds())
    if rater:
        mine = selectors.progress(selectors.rounds_of_rater(request.user), only_rater=request.user)
        context["my_rows"] = [row for row in mine if row.raters]
        context["calibrated"] = is_calibrated(request.user)
    return render(request, "rubric/round_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def round_new(request: HtmxHttpRequest) -> HttpResponse:
    selectors.require_manager(request.user)
    offered = selectors.calibrated_raters()
    form = RoundForm(request.POST or None, raters=offered)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                rating_round = services.create_round(
                    name=data["name"],
                    size=data["size"],
                    raters=list(data["raters"]),
                    seed=data["seed"],
                    user=request.user,
                    raters_per_item=data["raters_per_item"],
                )
            except services.RatingError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    f"Created {rating_round.name}: {rating_round.size} reflections, each for "
                    f"{rating_round.raters_per_item} of {len(data['raters'])} raters.",
                )
                return redirect("ratings:round", pk=rating_round.pk)
        status = 400
    context = {"form": form, "not_offered": selectors.uncalibrated_raters(offered)}
    return render(request, "rubric/round_new.html", context, status=status)


@login_required
@require_GET
def round_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Managers see every item, its raters and its mean score; a rater only their own items,
    without scores — not even their own round-mates' names (blind rating)."""
    rating_round = selectors.get_round_for_user(request.user, pk)
    manager = selectors.can_manage(request.user)
    context = {"rating_round": rating_round, "manager": manager}
    if manager:
        context["progress"] = selectors.progress([rating_round])[0]
        context["items"] = selectors.round_items(rating_round)
    else:
        context["progress"] = selectors.progress([rating_round], only_rater=request.user)[0]
        context["assignments"] = selectors.rater_assignments(rating_round, request.user)
    return render(request, "rubric/round_detail.html", context)


@login_required
@require_GET
def round_export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The round's ratings in import_ratings' columns, for those who manage rounds (rating is
    blind: raters see no one's scores)."""
    selectors.require_manager(request.user)
    rating_round = selectors.get_round_for_user(request.user, pk)
    response, writer = csv_attachment(f"ratings-round-{rating_round.pk}.csv")
    writer.writerow(selectors.EXPORT_COLUMNS)
    ratings = selectors.export_ratings(round_id=rating_round.pk)
    writer.writerows(selectors.export_rows(ratings.iterator(chunk_size=2000)))
    return response


@login_required
@require_POST
def round_close(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    selectors.require_manager(request.user)
    rating_round = selectors.get_round_for_user(request.user, pk)
    try:
        services.close_round(rating_round=rating_round, user=request.user)
    except services.RatingError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Closed {rating_round.name}; it takes no more ratings.")
    return redirect("ratings:round", pk=rating_round.pk)


# --------------------------------------------------------------------------- rating


def _picked_levels(levels: dict) -> dict[str, float]:
    """The valid levels of a rejected submit, to show them picked again."""
    picked = {}
    for key, value in (levels or {}).items():
        try:
            level = float(value)
        except (TypeError, ValueError):
            continue
        if level in LEVELS:
            picked[key] = level
    return picked


def _rate_url(rating_round: RatingRound) -> str:
    return reverse("ratings:rate", kwargs={"pk": rating_round.pk})


def _render_rate(
    request,
    rating_round: RatingRound,
    *,
    assignment=None,
    error: str = "",
    picked: dict | None = None,
    comment: str = "",
    status: int = 200,
    url: str = "",
) -> HttpResponse:
    """The rater's next unsubmitted item (or `assignment`: re-shown with an error, or a
    submitted one opened to change it while the round is open)."""
    calibrated = is_calibrated(request.user)
    context: dict = {
        "rating_round": rating_round,
        "calibrated": calibrated,
        "error": error,
        "keys": KEYS,
    }
    if not calibrated:
        status = 403
    elif rating_round.is_open:
        assignment = assignment or selectors.next_assignment(rating_round, request.user)
        if assignment is not None:
            services.mark_shown(assignment)
            reflection = assignment.item.reflection
            context |= {
                "assignment": assignment,
                "reflection": reflection,
                "sections": render_sections(reflection.sections),
                "blocks": criterion_blocks(
                    load_criteria(rating_round.rubric), _picked_levels(picked)
                ),
                "comment": comment,
                "changing": assignment.submitted_at is not None,
            }
        context["position"] = selectors.rater_position(rating_round, request.user, assignment)
        context["rated"] = selectors.rater_assignments(rating_round, request.user).filter(
            submitted_at__isnull=False
        )
    if wants_fragment(request):
        response = render(request, "rubric/rate.html#rate-item", context, status=status)
        return push_url(response, url or _rate_url(rating_round))
    return render(request, "rubric/rate.html", context, status=status)


@login_required
@require_GET
def rate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    rating_round = selectors.get_round_for_rater(request.user, pk)
    return _render_rate(request, rating_round)


@login_required
@require_GET
def rate_change(request: HtmxHttpRequest, pk: int, assignment: int) -> HttpResponse:
    """One of the rater's items by its own place (previous, skip, or a rated one opened again
    with its levels to change while the round is open)."""
    rating_round = selectors.get_round_for_rater(request.user, pk)
    target = selectors.get_assignment_for_rater(rating_round, request.user, assignment)
    levels = dict(target.ratings.values_list("criterion", "level"))
    return _render_rate(
        request,
        rating_round,
        assignment=target,
        picked=levels,
        comment=target.comment,
        url=request.path,
    )


@login_required
@require_POST
def rate_submit(request: HtmxHttpRequest, pk: int, assignment: int) -> HttpResponse:
    rating_round = selectors.get_round_for_rater(request.user, pk)
    target = selectors.get_assignment_for_rater(rating_round, request.user, assignment)
    form = RatingForm(request.POST)
    comment = request.POST.get("comment", "")
    if not form.is_valid():
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        return _render_rate(
            request,
            rating_round,
            assignment=target,
            error=f"Not recorded — {problems}",
            comment=comment,
            status=422,
        )
    levels = form.levels()
    version = form.cleaned_data.get("version")
    try:
        services.submit_rating(
            assignment=target,
            user=request.user,
            levels=levels,
            comment=form.cleaned_data["comment"],
            version=version,
        )
    except services.RatingError as error:
        # A repeated first submit shows the next item: the one it named is already recorded.
        reopen = target.submitted_at is None or version is not None
        again = target if reopen and rating_round.is_open else None
        picked = levels if again else None
        if again and version is not None and version != target.version:
            # Changed elsewhere since this page was opened: show what is recorded now.
            picked = dict(target.ratings.values_list("criterion", "level"))
            comment = target.comment
        return _render_rate(
            request,
            rating_round,
            assignment=again,
            error=str(error),
            picked=picked,
            comment=comment if again else "",
            status=422,
        )
    done = "Changed your rating of" if version is not None else "Rated"
    following = selectors.next_assignment(rating_round, request.user, after=target)
    if following is None:
        total = selectors.rater_position(rating_round, request.user).total
        then = f"That was the last one: all {total} of your items are rated."
    else:
        then = "Here is the next one."
    messages.success(request, f"{done} “{target.item.reflection.title}”. {then}")
    if wants_fragment(request):
        return _render_rate(request, rating_round, assignment=following)
    return redirect(_rate_url(rating_round))
