"""A rating item's page for discussing it: the reflection's title, its thread, a comment form.
Never anyone's scores: raters stay blind to each other."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from reflections.selectors.discussion import mention_suggestions as suggestions
from reflections.selectors.discussion import thread
from reflections.services.discussion import DiscussionError, mark_thread_seen
from reflexion_site.htmx import HtmxHttpRequest, wants_fragment
from rubric.selectors.rounds import get_round_for_user
from rubric.services.rating_discussion import (
    comment_on_rating_item,
    item_url,
    may_see_rating_item,
    thread_key,
)


def _item(request, pk: int, position: int):
    rating_round = get_round_for_user(request.user, pk)
    item = get_object_or_404(
        rating_round.items.select_related("reflection__department", "rating_round"),
        position=position,
    )
    if not may_see_rating_item(request.user, item):
        raise Http404("No discussion here for you (rate the item first).")
    return rating_round, item


def _context(rating_round, item, *, error: str = "", draft: str = "", notes=()) -> dict:
    return {
        "rating_round": rating_round,
        "item": item,
        "thread": thread(thread_key(item)),
        "comment_error": error,
        "comment_notes": list(notes),
        "draft": draft,
    }


@login_required
@require_GET
def item_discussion(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    rating_round, item = _item(request, pk, position)
    mark_thread_seen(request.user, thread_key(item))
    return render(request, "rubric/item_discussion.html", _context(rating_round, item))


@login_required
@require_POST
def item_comment(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    rating_round, item = _item(request, pk, position)
    body = request.POST.get("body", "")
    error, notes = "", []
    try:
        notes = comment_on_rating_item(item=item, user=request.user, body=body).notes
    except DiscussionError as problem:
        error = f"Not posted — {problem}."
    if wants_fragment(request):
        context = _context(
            rating_round, item, error=error, draft=body if error else "", notes=notes
        )
        status = 422 if error else 200
        return render(request, "rubric/item_discussion.html#discussion", context, status=status)
    if error:
        messages.error(request, error)
    for note in notes:
        messages.warning(request, f"Posted, but {note[0].lower()}{note[1:]}")
    return redirect(item_url(item) + "#discussion")


@login_required
@require_GET
def mention_suggestions(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """Who the @name being typed may mention: people who may open this item's discussion."""
    _, item = _item(request, pk, position)
    prefix, names = suggestions(
        request.GET.get("body", ""),
        author=request.user,
        may_see=lambda person: may_see_rating_item(person, item),
    )
    context = {"prefix": prefix, "names": names}
    return render(request, "reflections/_mention_suggestions.html", context)
