"""Review pages: cycles, the one-item-at-a-time queue, verdicts, the report."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url

from reflections.rendering import render_sections
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from reviews import selectors, services
from reviews.evidence import item_evidence
from reviews.forms import (
    CloseForm,
    OpenCycleForm,
    ReassignForm,
    UndoForm,
    VerdictForm,
    sign_shown,
    unsign_shown,
)
from reviews.models import ReviewCycle, ReviewItem, Verdict
from reviews.policies import IDLE_CAP_SECONDS

KEYS = [
    ("k", "Keep"),
    ("e", "Echo chamber"),
    ("o", "Outdated"),
    ("d", "Duplicate (then 1 to 9 picks the original, d or Enter confirms)"),
    ("n", "Write a note"),
    ("u", "Undo the verdict"),
    ("j / →", "Next item"),
    ("p / ←", "Previous item"),
    ("?", "Show or hide these keys"),
]


@login_required
@require_GET
def cycle_list(request: HtmxHttpRequest) -> HttpResponse:
    cycles = list(selectors.visible_cycles(request.user))
    manager = selectors.can_manage(request.user)
    rows = selectors.progress(cycles)
    for row in rows:  # the signed-in reviewer's own line
        row.mine = next((r for r in row.reviewers if r.username == request.user.username), None)
    return render(
        request,
        "reviews/cycle_list.html",
        {
            "open_rows": [p for p in rows if p.cycle.is_open],
            "closed_rows": [p for p in rows if not p.cycle.is_open],
            "manager": manager,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def cycle_open(request: HtmxHttpRequest) -> HttpResponse:
    selectors.require_manager(request.user)
    form = OpenCycleForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                cycle = services.open_cycle(
                    department=data["department"],
                    quarter=data["quarter"],
                    reviewers=list(data["reviewers"]),
                    user=request.user,
                    starts_on=data["starts_on"],
                    window_days=data["window_days"],
                    size=data["size"],
                )
            except services.ReviewError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    f"Opened {cycle.department.name} {cycle.quarter}: "
                    f"{cycle.items.count()} items dealt to {len(data['reviewers'])} reviewers.",
                )
                return redirect("reviews:cycle", pk=cycle.pk)
        status = 400
    return render(request, "reviews/cycle_open.html", {"form": form}, status=status)


def _cycle_context(request, cycle: ReviewCycle, **extra) -> dict:
    manager = selectors.can_manage(request.user)
    items = cycle.items.select_related("reflection", "reviewer", "duplicate_of").order_by("rank")
    if not manager:
        items = items.filter(reviewer=request.user)
    return {
        "cycle": cycle,
        "progress": selectors.progress([cycle])[0],
        "items": items,
        "manager": manager,
        "reassign_form": extra.pop("reassign_form", None) or ReassignForm(),
        "close_form": extra.pop("close_form", None) or CloseForm(),
        **extra,
    }


@login_required
@require_GET
def cycle_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    return render(request, "reviews/cycle_detail.html", _cycle_context(request, cycle))


@login_required
@require_POST
def cycle_reassign(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    selectors.require_manager(request.user)
    cycle = selectors.get_cycle_for_user(request.user, pk)
    form = ReassignForm(request.POST)
    if form.is_valid():
        try:
            moved = services.reassign(
                cycle=cycle,
                ranks=form.cleaned_data["ranks"],
                to_reviewer=form.cleaned_data["to_reviewer"],
                user=request.user,
            )
        except services.ReviewError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, f"Moved {moved} items to {form.cleaned_data['to_reviewer'].username}."
            )
            return redirect("reviews:cycle", pk=cycle.pk)
    context = _cycle_context(request, cycle, reassign_form=form)
    return render(request, "reviews/cycle_detail.html", context, status=400)


@login_required
@require_POST
def cycle_close(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    selectors.require_manager(request.user)
    cycle = selectors.get_cycle_for_user(request.user, pk)
    form = CloseForm(request.POST)
    form.is_valid()
    try:
        services.close_cycle(
            cycle=cycle,
            user=request.user,
            allow_incomplete=form.cleaned_data.get("allow_incomplete", False),
        )
    except services.ReviewError as error:
        form.add_error(None, str(error))
        context = _cycle_context(request, cycle, close_form=form)
        return render(request, "reviews/cycle_detail.html", context, status=400)
    messages.success(request, f"Closed {cycle}. Here is its report.")
    return redirect("reviews:report", pk=cycle.pk)


@login_required
@require_GET
def cycle_report(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    return render(
        request,
        "reviews/report.html",
        {"cycle": cycle, "report": selectors.cycle_report(cycle), "verdicts": Verdict},
    )


@login_required
@require_GET
def queue_start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Into the reviewer's queue at their first item without a verdict."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    mine = selectors.queue(cycle, request.user)
    first = mine.filter(verdict="").first() or mine.first()
    if first is None:
        messages.info(request, "You have no items in this cycle.")
        return redirect("reviews:cycle", pk=cycle.pk)
    return redirect("reviews:item", pk=cycle.pk, rank=first.rank)


def _item_url(item: ReviewItem) -> str:
    return reverse("reviews:item", kwargs={"pk": item.cycle_id, "rank": item.rank})


def _render_item(
    request, cycle: ReviewCycle, item: ReviewItem, *, error: str = "", status: int = 200
) -> HttpResponse:
    reviewer = item.reviewer if item.reviewer_id else request.user
    position = selectors.queue_position(cycle, reviewer, item.rank)
    evidence = item_evidence(item)
    context = {
        "cycle": cycle,
        "item": item,
        "reflection": item.reflection,
        "sections": render_sections(item.reflection.sections),
        "evidence": evidence,
        "position": position,
        "can_act": cycle.is_open and item.reviewer_id == request.user.pk,
        "shown": sign_shown(item.pk, timezone.now()),
        "verdicts": Verdict,
        "keys": KEYS,
        "idle_cap_minutes": IDLE_CAP_SECONDS // 60,
        "error": error,
    }
    if wants_fragment(request):
        response = render(request, "reviews/queue.html#queue-item", context, status=status)
        return push_url(response, _item_url(item))
    return render(request, "reviews/queue.html", context, status=status)


@login_required
@require_GET
def item_detail(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    return _render_item(request, cycle, item)


def _after_action(request, cycle, item, *, moved_on: bool) -> HttpResponse:
    """htmx gets the next item in place; a plain form post is redirected to it (PRG)."""
    target = item
    if moved_on:
        position = selectors.queue_position(cycle, request.user, item.rank)
        if position.next_open is None and position.done == position.total:
            messages.info(
                request,
                f"That was your last open item: all {position.total} have a verdict. "
                "Go back to any of them to change or undo it.",
            )
        rank = position.next_open or position.next
        if rank is not None:
            target = selectors.get_item_for_user(request.user, cycle, rank)
    if wants_fragment(request):
        target = selectors.get_item_for_user(request.user, cycle, target.rank)
        return _render_item(request, cycle, target)
    return redirect(_item_url(target))


@login_required
@require_POST
def item_decide(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    form = VerdictForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        return _render_item(request, cycle, item, error=f"Not recorded — {problems}", status=422)
    data = form.cleaned_data
    try:
        services.decide(
            item_id=item.pk,
            user=request.user,
            verdict=data["verdict"],
            version=data["version"],
            duplicate_of=data["duplicate_of"] if data["verdict"] == Verdict.DUPLICATE else None,
            note=data["note"],
            shown_at=unsign_shown(data["shown"], item.pk),
        )
    except services.Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return _render_item(request, cycle, fresh, error=str(conflict), status=409)
    except services.ReviewError as error:
        return _render_item(request, cycle, item, error=str(error), status=422)
    label = Verdict(data["verdict"]).label
    messages.success(request, f"#{item.rank} {item.reflection.title}: {label}.")
    return _after_action(request, cycle, item, moved_on=True)


@login_required
@require_POST
def item_undo(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _render_item(request, cycle, item, error="Not undone: the form was incomplete.")
    try:
        services.undo(item_id=item.pk, user=request.user, version=form.cleaned_data["version"])
    except services.Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return _render_item(request, cycle, fresh, error=str(conflict), status=409)
    except services.ReviewError as error:
        return _render_item(request, cycle, item, error=str(error), status=422)
    messages.success(request, f"#{item.rank}: verdict undone; the reflection is as it was.")
    return _after_action(request, cycle, item, moved_on=False)
