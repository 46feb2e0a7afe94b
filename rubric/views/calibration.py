"""Calibration pages: a rater's status, the blind one-item-at-a-time rating of the calibration
set, results beside gold, the managers' policy, and the admins' rubric and set builder."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, push_url

from reflections.access import ADMIN, MANAGER, RATER, require_any_role
from reflections.rendering import render_sections
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from rubric.forms.calibration import BuildSetForm, LevelsForm, PolicyForm, RubricForm
from rubric.models import (
    CRITERIA,
    CalibrationAttempt,
    CalibrationItem,
    CalibrationPolicy,
    CalibrationSet,
    Rubric,
)
from rubric.services.calibration import (
    attempt_agreement,
    attempt_levels,
    attempt_overview,
    attempt_progress,
    item_result,
    rater_status,
    record_item_ratings,
    start_attempt,
    submit_attempt,
)
from rubric.services.calibration_sets import (
    CALIBRATION_SIZE,
    CSV_COLUMNS,
    CalibrationError,
    build_calibration_set,
    policy_history,
    set_calibration_policy,
)
from rubric.services.rubric import (
    RubricError,
    criterion_blocks,
    current_rubric,
    ensure_rubric,
    load_criteria,
    publish_rubric,
    rubric_spec,
)

# Raters calibrate (admins may try it too); managers set the policy; admins own the rubric
# and the sets. Everyone else gets 403.
CALIBRATE_ROLES = (RATER, ADMIN)
POLICY_ROLES = (MANAGER, ADMIN)
RUBRIC_ROLES = (ADMIN,)

KEYS = [
    ("1 to 5", "Set a level (0, 0.25, 0.5, 0.75, 1); move to the next criterion without one"),
    ("Tab / Shift+Tab", "Next / previous criterion"),
    ("a", "Show or hide the focused criterion's anchors"),
    ("Enter", "Save and show the next item"),
    ("j / p", "Skip to the next item / previous item, without saving"),
    ("?", "Show or hide these keys"),
]


def _own_attempt(user, pk: int) -> CalibrationAttempt:
    """The person's own attempt; anyone else's is a 404, not a hint that it exists."""
    require_any_role(user, CALIBRATE_ROLES)
    return get_object_or_404(
        CalibrationAttempt.objects.select_related("calibration_set", "rubric"), pk=pk, rater=user
    )


def _item_url(attempt: CalibrationAttempt, position: int) -> str:
    return reverse("calibration:item", kwargs={"pk": attempt.pk, "position": position})


def _next_url(attempt: CalibrationAttempt, *, after: int = 0) -> str:
    """The next unrated item, or the submit page when every item is rated."""
    position = attempt_progress(attempt).first_open(after)
    if position is None:
        return reverse("calibration:submit", kwargs={"pk": attempt.pk})
    return _item_url(attempt, position)


@login_required
@require_GET
def status(request: HtmxHttpRequest) -> HttpResponse:
    require_any_role(request.user, CALIBRATE_ROLES)
    state = rater_status(request.user)
    progress = attempt_progress(state.open) if state.open else None
    history = (
        CalibrationAttempt.objects.filter(rater=request.user, submitted_at__isnull=False)
        .select_related("calibration_set", "rubric")
        .order_by("-submitted_at")[:10]
    )
    return render(
        request,
        "rubric/calibration_status.html",
        {
            "state": state,
            "progress": progress,
            "history": history,
            "latest_summary": [
                (key, state.latest.kappa.get(key), state.latest.exact.get(key))
                for key in (*CRITERIA, "pooled")
            ]
            if state.latest
            else [],
            "policy": CalibrationPolicy.current(),
            # The active set's own size (a set may hold other than the usual 30).
            "size": CalibrationItem.objects.filter(calibration_set__is_active=True).count()
            or CALIBRATION_SIZE,
        },
    )


@login_required
@require_POST
def start(request: HtmxHttpRequest) -> HttpResponse:
    """Resume the open attempt or start a new one (also "recalibrate" after a result)."""
    require_any_role(request.user, CALIBRATE_ROLES)
    try:
        attempt = start_attempt(user=request.user)
    except CalibrationError as error:
        messages.error(request, str(error))
        return redirect("calibration:status")
    return redirect(_next_url(attempt))


def _render_item(
    request,
    attempt: CalibrationAttempt,
    item: CalibrationItem,
    *,
    picked: dict[str, float] | None = None,
    problems: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """One item, blind: the reflection and the rubric of the attempt, never gold."""
    given = attempt_levels(attempt)
    progress = attempt_progress(attempt, given)
    previous, following = progress.neighbours(item.position)
    selected = picked if picked is not None else given.get(item.pk, {})
    context = {
        "attempt": attempt,
        "item": item,
        "reflection": item.reflection,
        "sections": render_sections(item.reflection.sections),
        "blocks": criterion_blocks(load_criteria(attempt.rubric), selected),
        "progress": progress,
        "number": progress.number(item.position),
        "previous": previous,
        "following": following,
        "problems": problems or [],
        "keys": KEYS,
    }
    if wants_fragment(request):
        response = render(
            request, "rubric/calibration_item.html#calibration-item", context, status=status
        )
        return push_url(response, _item_url(attempt, item.position))
    return render(request, "rubric/calibration_item.html", context, status=status)


def _attempt_item(attempt: CalibrationAttempt, position: int) -> CalibrationItem:
    return get_object_or_404(
        CalibrationItem.objects.select_related(
            "reflection__agent", "reflection__department"
        ).filter(calibration_set=attempt.calibration_set_id),
        position=position,
    )


@login_required
@require_GET
def item(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """Before submission: the item, blind. After: that one item beside gold."""
    attempt = _own_attempt(request.user, pk)
    if attempt.submitted_at is None:
        return _render_item(request, attempt, _attempt_item(attempt, position))
    if position in attempt.held_out:
        messages.info(request, "This item's gold is held out: a later attempt is scored on it.")
        return redirect("calibration:attempt", pk=attempt.pk)
    return _render_item_result(request, attempt, _attempt_item(attempt, position))


def _render_item_result(request, attempt: CalibrationAttempt, item: CalibrationItem):
    """Gold for one item of a submitted attempt, with the anchors of each gold level."""
    row = item_result(attempt, item, load_criteria(attempt.rubric))
    progress = attempt_progress(attempt)
    previous, following = progress.neighbours(item.position)
    return render(
        request,
        "rubric/calibration_item_result.html",
        {
            "attempt": attempt,
            "row": row,
            "progress": progress,
            "previous": previous,
            "following": following,
        },
    )


@login_required
@require_POST
def rate(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """Save the four levels of one item, then the next unrated item (htmx: in place)."""
    attempt = _own_attempt(request.user, pk)
    if attempt.submitted_at is not None:
        messages.info(request, "This attempt is submitted; its ratings are final.")
        return redirect("calibration:attempt", pk=attempt.pk)
    current = _attempt_item(attempt, position)
    form = LevelsForm(request.POST)
    if not form.is_valid():
        return _render_item(
            request,
            attempt,
            current,
            picked=form.posted_levels(),
            problems=form.problems(),
            status=422,
        )
    record_item_ratings(attempt=attempt, item=current, levels=form.levels())
    target = attempt_progress(attempt).first_open(position)
    if target is None:
        url = reverse("calibration:submit", kwargs={"pk": attempt.pk})
        return HttpResponseClientRedirect(url) if wants_fragment(request) else redirect(url)
    if wants_fragment(request):
        return _render_item(request, attempt, _attempt_item(attempt, target))
    return redirect(_item_url(attempt, target))


@login_required
@require_http_methods(["GET", "POST"])
def submit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every item rated: look back over them, then submit to be scored against gold."""
    attempt = _own_attempt(request.user, pk)
    if attempt.submitted_at is not None:
        return redirect("calibration:attempt", pk=attempt.pk)
    progress = attempt_progress(attempt)
    if request.method == "POST":
        try:
            attempt = submit_attempt(attempt=attempt)
        except CalibrationError as error:
            messages.error(request, str(error))
            return redirect(_next_url(attempt))
        return redirect("calibration:attempt", pk=attempt.pk)
    items = attempt.calibration_set.items.select_related("reflection").order_by("position")
    return render(
        request,
        "rubric/calibration_submit.html",
        {"attempt": attempt, "progress": progress, "items": items},
    )


@login_required
@require_GET
def attempt_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The result: κ and exact agreement per criterion (and why a κ is undefined), and per
    item how close the rater came — gold itself is opened one item at a time."""
    attempt = _own_attempt(request.user, pk)
    if attempt.submitted_at is None:
        return redirect(_next_url(attempt))
    undefined = attempt_agreement(attempt).undefined
    rows = attempt_overview(attempt)
    summary = [
        {
            "key": key,
            "kappa": attempt.kappa.get(key),
            "exact": attempt.exact.get(key),
            "why_undefined": undefined.get(key, "") if attempt.kappa.get(key) is None else "",
        }
        for key in (*CRITERIA, "pooled")
    ]
    return render(
        request,
        "rubric/calibration_results.html",
        {
            "attempt": attempt,
            "rows": rows,
            **{f"{s}_count": sum(r.status == s for r in rows) for s in ("held_out", "practice")},
            "scored_count": sum(r.status != "practice" for r in rows),
            "summary": summary,
            "undefined": [s for s in summary if s["why_undefined"]],
            "criteria_count": len(CRITERIA),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def policy(request: HtmxHttpRequest) -> HttpResponse:
    require_any_role(request.user, POLICY_ROLES)
    current = CalibrationPolicy.current()
    initial = {
        "pass_kappa": current.pass_kappa,
        "require_each_quarter": current.require_each_quarter,
    }
    form = PolicyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changes = set_calibration_policy(user=request.user, **form.cleaned_data)
        if changes:
            messages.success(request, "Policy changed: " + "; ".join(changes) + ".")
        else:
            messages.info(request, "Nothing changed.")
        return redirect("calibration:policy")
    latest = {}
    for attempt in (
        CalibrationAttempt.objects.filter(submitted_at__isnull=False)
        .select_related("rater")
        .order_by("rater__username", "-submitted_at")
    ):
        latest.setdefault(attempt.rater_id, attempt)
    return render(
        request,
        "rubric/calibration_policy.html",
        {
            "form": form,
            "policy": current,
            "history": policy_history(),
            "raters": list(latest.values()),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def rubric(request: HtmxHttpRequest) -> HttpResponse:
    """The current rubric, its versions, and the form that publishes the next one."""
    require_any_role(request.user, RUBRIC_ROLES)
    current = ensure_rubric()
    criteria = load_criteria(current)
    form = RubricForm(request.POST or None, spec=rubric_spec(current))
    if request.method == "POST" and form.is_valid():
        try:
            published = publish_rubric(
                spec=form.spec(), user=request.user, note=form.cleaned_data["note"]
            )
        except RubricError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Published rubric v{published.version}.")
            return redirect("calibration:rubric")
    return render(
        request,
        "rubric/rubric.html",
        {
            "rubric": current,
            "blocks": criterion_blocks(criteria),
            "versions": Rubric.objects.select_related("created_by").order_by("-version"),
            "form": form,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def rubric_version(request: HtmxHttpRequest, version: int) -> HttpResponse:
    require_any_role(request.user, RUBRIC_ROLES)
    shown = get_object_or_404(Rubric.objects.select_related("created_by"), version=version)
    return render(
        request,
        "rubric/rubric_version.html",
        {
            "rubric": shown,
            "blocks": criterion_blocks(load_criteria(shown)),
            "is_current": shown.pk == current_rubric().pk,
        },
    )


@login_required
@require_GET
def set_list(request: HtmxHttpRequest) -> HttpResponse:
    require_any_role(request.user, RUBRIC_ROLES)
    sets = CalibrationSet.objects.select_related("created_by").annotate(
        item_count=Count("items", distinct=True), attempt_count=Count("attempts", distinct=True)
    )
    return render(request, "rubric/calibration_sets.html", {"sets": sets})


@login_required
@require_http_methods(["GET", "POST"])
def set_new(request: HtmxHttpRequest) -> HttpResponse:
    """Build a set from any reflections: CSV lines with gold levels; all or nothing."""
    require_any_role(request.user, RUBRIC_ROLES)
    form = BuildSetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            built = build_calibration_set(
                name=form.cleaned_data["name"],
                reflections_with_gold=form.cleaned_data["rows"],
                user=request.user,
                activate=form.cleaned_data["activate"],
            )
        except CalibrationError as error:
            for problem in error.problems:
                form.add_error(None, problem)
        else:
            state = "active" if built.is_active else "inactive"
            messages.success(
                request, f"Built {built.name} ({len(form.cleaned_data['rows'])} items, {state})."
            )
            return redirect("calibration:sets")
    return render(
        request,
        "rubric/calibration_set_new.html",
        {"form": form, "columns": ",".join(CSV_COLUMNS), "size": CALIBRATION_SIZE},
        status=400 if form.errors else 200,
    )
