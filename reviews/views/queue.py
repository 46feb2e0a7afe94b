"""The one-item-at-a-time queue (DOMAIN §5): an item in context, its verdict, undo, next."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import push_url

from reflections.rendering import render_sections
from reflections.selectors.discussion import thread
from reflections.selectors.runs import restated_by
from reflections.services.discussion import mark_thread_seen
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from reviews.forms import (
    UndoForm,
    VerdictForm,
    sign_shown,
    unsign_shown,
)
from reviews.models import ReviewCycle, ReviewItem, Verdict
from reviews.policies import IDLE_CAP_SECONDS
from reviews.selectors import cycles as selectors
from reviews.selectors.judges import suggestions_for
from reviews.selectors.signal_table import scores_by_rank
from reviews.services.cycles import Conflict, ReviewError
from reviews.services.duplicate_clusters import resolve_cluster, undo_batch
from reviews.services.evidence import queue_evidence
from reviews.services.verdicts import NeedsConfirmation, decide, undo
from reviews.signals import NAMES
from reviews.views.duplicates import Confirmation, guard_context, picked_versions

KEYS = [
    ("k", "Keep"),
    ("e", "Echo chamber"),
    ("o", "Outdated"),
    ("d", "Duplicate (then 1 to 9 picks the original, d or Enter confirms)"),
    ("Enter / Esc", "Confirm or cancel a duplicate verdict the guard asks about"),
    ("n", "Write a note"),
    ("u", "Undo the verdict (the whole set, for a cluster)"),
    ("s", "Unsure — needs discussion (keeps the item open for the discussion)"),
    ("c", "Write a comment in the discussion (@name mentions a colleague; Esc leaves it)"),
    ("j / →", "Next item"),
    ("p / ←", "Previous item"),
    ("?", "Show or hide these keys"),
]

# queue.js fetches the next item while the current one is read (PREFETCH on that request) and
# names it with the verdict (HELD); a verdict answered by a step says so in STEP.
PREFETCH = "X-Queue-Prefetch"
HELD = "X-Queue-Held"
STEP = "X-Queue-Step"


# The orders a reviewer may work the queue in: rank, or a signal's score from the highest.
ORDERS = {"rank": "rank", **{name: f"{name} score, highest first" for name in NAMES}}


def _order_key(cycle: ReviewCycle) -> str:
    return f"queue-order-{cycle.pk}"


def queue_order(request, cycle: ReviewCycle) -> str:
    """The order this reviewer chose for this cycle's queue (kept in the session)."""
    order = request.session.get(_order_key(cycle), "rank")
    return order if order in ORDERS else "rank"


def queue_rows(request, cycle: ReviewCycle, reviewer) -> selectors.QueueRows:
    """The reviewer's queue in the order chosen (a signal's scores as the cycle's table holds
    them, scored once an hour: reviews.selectors.signal_table)."""
    order = queue_order(request, cycle)
    scores = scores_by_rank(cycle, order) if order in NAMES else None
    return selectors.queue_rows(cycle, reviewer, scores)


@login_required
@require_GET
def queue_start(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Into the reviewer's queue at their first item without a verdict; `?order=` (rank or a
    signal's name) sets the order the queue is worked in, kept for this cycle."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    if request.GET.get("order") in ORDERS:
        request.session[_order_key(cycle)] = request.GET["order"]
    rows = queue_rows(request, cycle, request.user).rows
    first = next((rank for rank, verdict in rows if not verdict), rows[0][0] if rows else None)
    if first is None:
        messages.info(request, "You have no items in this cycle.")
        return redirect("reviews:cycle", pk=cycle.pk)
    return redirect("reviews:item", pk=cycle.pk, rank=first)


def _item_url(item: ReviewItem) -> str:
    return reverse("reviews:item", kwargs={"pk": item.cycle_id, "rank": item.rank})


def _render_item(
    request,
    cycle: ReviewCycle,
    item: ReviewItem,
    *,
    error: str = "",
    status: int = 200,
    confirm: Confirmation | None = None,
    queue: selectors.QueueRows | None = None,
    fetched_ahead: bool = False,
) -> HttpResponse:
    reviewer = item.reviewer if item.reviewer_id else request.user
    if queue is None or item.reviewer_id != request.user.pk:
        queue = queue_rows(request, cycle, reviewer)
    position = queue.position(item.rank)
    if item.reviewer_id != request.user.pk and not selectors.can_manage(request.user):
        # A colleague reading an unsure item: the reviewer's queue is not theirs to walk.
        position = replace(position, previous=None, next=None, next_open=None)
    # The window-bound evidence as prepared when the cycle opened; neighbours and the
    # duplicate signal live (reviews.services.evidence).
    evidence, signals = queue_evidence(item)
    context = {
        "cycle": cycle,
        "item": item,
        "reflection": item.reflection,
        "sections": render_sections(item.reflection.sections),
        "evidence": evidence,
        "signals": signals,
        "position": position,
        "can_act": cycle.is_open and item.reviewer_id == request.user.pk,
        "shown": sign_shown(item.pk, timezone.now()),
        "verdicts": Verdict,
        "keys": KEYS,
        "idle_cap_minutes": IDLE_CAP_SECONDS // 60,
        "order": ORDERS[queue_order(request, cycle)],
        "error": error,
        "confirm": confirm,
        **guard_context(request, item, evidence),
        # Discussion and the judges' suggestions (reviews/_discussion, _judge_suggestion).
        "thread": thread(item.thread_key),
        "can_comment": cycle.is_open,
        "judgements": suggestions_for(item.reflection_id),
        # A Reflexion run's reflection: the earlier ones of its problem it restates.
        "restated": restated_by(item.reflection),
    }
    if fetched_ahead:  # not shown yet: the messages wait for the step that shows it
        context["messages"] = ()
    if wants_fragment(request):
        response = render(request, "reviews/queue.html#queue-item", context, status=status)
        push_url(response, _item_url(item))
    else:
        response = render(request, "reviews/queue.html", context, status=status)
    # The item's address answers a fragment (htmx, the prefetch) or a page: never the one
    # cached for the other.
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def item_detail(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    fetched_ahead = bool(request.headers.get(PREFETCH))
    if not fetched_ahead:
        mark_thread_seen(request.user, item.thread_key)  # its mentions are read
    return _render_item(request, cycle, item, fetched_ahead=fetched_ahead)


def render_item(request, cycle, item, *, error: str = "", status: int = 200) -> HttpResponse:
    """The item page or its fragment, for the discussion's views."""
    return _render_item(request, cycle, item, error=error, status=status)


def _held_item(request) -> tuple[int, int] | None:
    """The next item the page holds ready, as queue.js names it with a verdict: rank@version."""
    rank, _, version = request.headers.get(HELD, "").partition("@")
    return (int(rank), int(version)) if rank.isdigit() and version.isdigit() else None


def _render_step(request, cycle: ReviewCycle, head: ReviewItem, queue) -> HttpResponse:
    """The verdict answered in one small response when the page already holds the next item:
    its header as the verdict left the queue, the messages, and a fresh "shown" time (time on
    the item counts from now, not from when it was fetched). queue.js puts them into the held
    item and swaps it in; the item's evidence was rendered while the last one was read."""
    mark_thread_seen(request.user, head.thread_key)
    context = {
        "cycle": cycle,
        "item": head,
        "position": queue.position(head.rank),
        "order": ORDERS[queue_order(request, cycle)],
        "can_act": cycle.is_open,
        "shown": sign_shown(head.pk, timezone.now()),
    }
    response = render(request, "reviews/queue.html#queue-step", context)
    response[STEP] = str(head.rank)
    return push_url(response, _item_url(head))


def _after_action(request, cycle, item, *, moved_on: bool) -> HttpResponse:
    """htmx gets the next item in place; a plain form post is redirected to it (PRG)."""
    target = item
    # The reviewer's queue as the action left it: where to go, and where that item sits.
    fragment = wants_fragment(request)
    queue = queue_rows(request, cycle, request.user) if moved_on or fragment else None
    if moved_on:
        position = queue.position(item.rank)
        if position.next_open is None and position.done == position.total:
            messages.info(
                request,
                f"That was your last open item: all {position.total} have a verdict. "
                "Go back to any of them to change or undo it.",
            )
        rank = position.next_open or position.next
        held = _held_item(request) if fragment else None
        if held is not None and held[0] == rank:
            head = selectors.queue_head(cycle, request.user, rank)
            if head is not None and head.version == held[1]:  # unchanged since it was fetched
                return _render_step(request, cycle, head, queue)
        if rank is not None:
            target = selectors.get_item_for_user(request.user, cycle, rank)
    if fragment:
        if target is item:  # read again: the action changed it
            target = selectors.get_item_for_user(request.user, cycle, item.rank)
        return _render_item(request, cycle, target, queue=queue)
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
        decide(
            item_id=item.pk,
            user=request.user,
            verdict=data["verdict"],
            version=data["version"],
            duplicate_of=data["duplicate_of"] if data["verdict"] == Verdict.DUPLICATE else None,
            note=data["note"],
            shown_at=unsign_shown(data["shown"], item.pk),
            confirmed=data["confirm"],
        )
    except NeedsConfirmation as asked:
        # Nothing is recorded: the same verdict comes back as a form to confirm or cancel.
        keys = ("verdict", "duplicate_of", "note", "version", "shown")
        confirm = Confirmation(
            warnings=asked.warnings,
            action=request.path,
            fields=[(k, "" if data[k] is None else str(data[k])) for k in keys],
            label="Yes, mark it a duplicate of this original",
        )
        return _render_item(request, cycle, item, confirm=confirm)
    except Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return _render_item(request, cycle, fresh, error=str(conflict), status=409)
    except ReviewError as error:
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
    version = form.cleaned_data["version"]
    try:
        if form.cleaned_data["scope"] == "set":
            undone = undo_batch(item=item, user=request.user, version=version)
        else:
            undone = [undo(item_id=item.pk, user=request.user, version=version)]
    except Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return _render_item(request, cycle, fresh, error=str(conflict), status=409)
    except ReviewError as error:
        return _render_item(request, cycle, item, error=str(error), status=422)
    if len(undone) > 1:
        ranks = ", ".join(f"#{i.rank}" for i in undone)
        messages.success(request, f"{ranks}: {len(undone)} verdicts undone; each is as it was.")
    else:
        messages.success(request, f"#{item.rank}: verdict undone; the reflection is as it was.")
    return _after_action(request, cycle, item, moved_on=False)


@login_required
@require_POST
def cluster_resolve(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    """ "These N duplicate X": one duplicate verdict per picked item, one batch, one undo."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    keep = request.POST.get("keep", "")
    note = request.POST.get("note", "")[:2000]
    values = request.POST.getlist("items")
    try:
        if not keep.isdigit():
            raise ReviewError("keep: name the reflection to keep")
        resolved = resolve_cluster(
            cycle=cycle,
            user=request.user,
            keep_id=int(keep),
            versions=picked_versions(values),
            note=note,
            confirmed=request.POST.get("confirm") == "1",
        )
    except NeedsConfirmation as asked:
        confirm = Confirmation(
            warnings=asked.warnings,
            action=request.path,
            fields=[("keep", keep), ("note", note)] + [("items", v) for v in values],
            label=f"Yes, mark these {len(values)} duplicates",
        )
        return _render_item(request, cycle, item, confirm=confirm)
    except Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return _render_item(request, cycle, fresh, error=str(conflict), status=409)
    except ReviewError as error:
        return _render_item(request, cycle, item, error=f"Not recorded — {error}", status=422)
    ranks = ", ".join(f"#{r.rank}" for r in resolved)
    plural = "s" if len(resolved) != 1 else ""
    messages.success(
        request, f"{ranks}: {len(resolved)} duplicate{plural} recorded; Undo takes back the set."
    )
    item = selectors.get_item_for_user(request.user, cycle, rank)
    return _after_action(request, cycle, item, moved_on=False)
