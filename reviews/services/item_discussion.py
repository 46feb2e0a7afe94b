"""Discussing a review item: its comment thread, and the unsure / needs-discussion state that
keeps it open and lists it for the cycle's manager. Both leave audit rows."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from reflections.scanning import typed
from reflections.services.discussion import DiscussionError, Posted, post_comment
from reviews.models import Decision, ReviewItem
from reviews.selectors.cycles import can_manage, may_see_item
from reviews.services.cycles import Conflict, ReviewError
from reviews.services.verdicts import _last_change, _lock_item, check_can_act


def item_url(item: ReviewItem) -> str:
    return reverse("reviews:item", kwargs={"pk": item.cycle_id, "rank": item.rank})


def comment_on_item(*, item: ReviewItem, user, body: str) -> Posted:
    """Anyone who may open the item may comment while the cycle is open; a closed cycle's
    discussion is part of its final record."""
    if not item.cycle.is_open:
        raise ReviewError("this review cycle is closed; its discussion is part of the record")
    try:
        return post_comment(
            thread=item.thread_key,
            reflection=item.reflection,
            author=user,
            body=body,
            url=item_url(item),
            label=f"{item.cycle.department.name} {item.cycle.quarter} #{item.rank}",
            may_see=lambda person: may_see_item(person, item),
        )
    except DiscussionError as error:
        raise ReviewError(str(error)) from None


@transaction.atomic
def mark_unsure(*, item_id: int, user, version: int, note: str = "") -> ReviewItem:
    """The item's reviewer is not sure: it stays open, its colleagues may read it, and the
    cycle's manager sees it listed. A note, if given, opens the thread."""
    note = typed(note)
    item = _lock_item(item_id)
    check_can_act(item, user, version)
    if item.verdict:
        raise ReviewError(f"#{item.rank} already has a verdict; undo it first to discuss it")
    if item.is_unsure:
        raise ReviewError(f"#{item.rank} is already marked unsure")
    now = timezone.now()
    item.unsure_since = now
    item.version += 1
    item.save(update_fields=["unsure_since", "version"])
    Decision.objects.create(item=item, action=Decision.Action.UNSURE, note=note, actor=user, at=now)
    if note:
        comment_on_item(item=item, user=user, body=note)
    return item


@transaction.atomic
def resolve_unsure(*, item_id: int, user, version: int, note: str = "") -> ReviewItem:
    """The discussion is over: the item is back in its reviewer's queue as an open item. Its
    reviewer or a manager resolves it; a verdict resolves it too."""
    item = _lock_item(item_id)
    if not item.cycle.is_open:
        raise ReviewError("this review cycle is closed")
    if item.reviewer_id != user.pk and not can_manage(user):
        raise ReviewError("only the item's reviewer or a manager resolves its discussion")
    if item.version != version:
        raise Conflict(
            f"#{item.rank} changed while you were reading it: {_last_change(item)}. "
            "Nothing was overwritten; reload to see where it stands."
        )
    if not item.is_unsure:
        raise ReviewError(f"#{item.rank} is not marked unsure")
    now = timezone.now()
    item.unsure_since = None
    item.version += 1
    item.save(update_fields=["unsure_since", "version"])
    Decision.objects.create(
        item=item, action=Decision.Action.RESOLVED, note=typed(note), actor=user, at=now
    )
    return item
