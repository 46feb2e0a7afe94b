"""A review item's discussion: its comment thread, and marking it unsure or resolved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from reflections.selectors.discussion import mention_suggestions as suggestions
from reflections.selectors.discussion import thread
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from reviews.forms import CommentForm, UnsureForm
from reviews.selectors import cycles as selectors
from reviews.services.cycles import Conflict, ReviewError
from reviews.services.item_discussion import comment_on_item, item_url, mark_unsure, resolve_unsure
from reviews.views.queue import render_item


def discussion_context(
    cycle, item, user, *, error: str = "", draft: str = "", notes: list[str] | None = None
) -> dict:
    return {
        "cycle": cycle,
        "item": item,
        "thread": thread(item.thread_key),
        "can_comment": cycle.is_open,
        "comment_error": error,
        "comment_notes": notes or [],
        "draft": draft,
    }


@login_required
@require_POST
def item_comment(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    form = CommentForm(request.POST)
    error, status, notes = "", 200, []
    if not form.is_valid():
        error, status = "Not posted — the comment is empty or longer than 5000 characters.", 422
    else:
        try:
            posted = comment_on_item(item=item, user=request.user, body=form.cleaned_data["body"])
        except ReviewError as problem:
            error, status = f"Not posted — {problem}.", 422
        else:
            notes = posted.notes
    if wants_fragment(request):
        context = discussion_context(
            cycle,
            item,
            request.user,
            error=error,
            draft="" if not error else request.POST.get("body", ""),
            notes=notes,
        )
        return render(request, "reviews/_discussion.html", context, status=status)
    if error:
        messages.error(request, error)
    for note in notes:
        messages.warning(request, f"Posted, but {note[0].lower()}{note[1:]}")
    return redirect(item_url(item) + "#discussion")


@login_required
@require_GET
def mention_suggestions(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    """Who the @name being typed in the comment box may mention: people who can open the item."""
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    prefix, names = suggestions(
        request.GET.get("body", ""),
        author=request.user,
        may_see=lambda person: selectors.may_see_item(person, item),
    )
    context = {"prefix": prefix, "names": names}
    return render(request, "reflections/_mention_suggestions.html", context)


def _state_change(request, pk: int, rank: int, service, done: str) -> HttpResponse:
    cycle = selectors.get_cycle_for_user(request.user, pk)
    item = selectors.get_item_for_user(request.user, cycle, rank)
    form = UnsureForm(request.POST)
    if not form.is_valid():
        return render_item(request, cycle, item, error="Not changed: the form was incomplete.")
    try:
        service(
            item_id=item.pk,
            user=request.user,
            version=form.cleaned_data["version"],
            note=form.cleaned_data["note"],
        )
    except Conflict as conflict:
        fresh = selectors.get_item_for_user(request.user, cycle, rank)
        return render_item(request, cycle, fresh, error=str(conflict), status=409)
    except ReviewError as error:
        return render_item(request, cycle, item, error=str(error), status=422)
    messages.success(request, f"#{item.rank}: {done}")
    fresh = selectors.get_item_for_user(request.user, cycle, rank)
    if wants_fragment(request):
        return render_item(request, cycle, fresh)
    return redirect(item_url(fresh))


@login_required
@require_POST
def item_unsure(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    return _state_change(
        request,
        pk,
        rank,
        mark_unsure,
        "marked unsure; it stays open and the cycle's manager sees it listed.",
    )


@login_required
@require_POST
def item_resolve(request: HtmxHttpRequest, pk: int, rank: int) -> HttpResponse:
    return _state_change(
        request, pk, rank, resolve_unsure, "discussion resolved; the item is open for a verdict."
    )
