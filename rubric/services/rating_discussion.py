"""A rating item's discussion thread. Rating is blind, so a rater joins an item's thread only
once their own rating of it is submitted; managers see every thread."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse

from reflections import access
from reflections.services.discussion import Posted, post_comment
from rubric.models import RoundItem
from rubric.selectors.rounds import can_manage, get_round_for_user


def thread_key(item: RoundItem) -> str:
    return f"rating-item:{item.pk}"


def item_url(item: RoundItem) -> str:
    return reverse("ratings:item", args=[item.rating_round_id, item.position])


def may_see_rating_item(user, item: RoundItem) -> bool:
    if not user.is_active:
        return False
    try:
        get_round_for_user(user, item.rating_round_id)
    except (PermissionDenied, Http404):
        return False
    if not access.visible_reflections(user).filter(pk=item.reflection_id).exists():
        return False
    return (
        can_manage(user) or item.assignments.filter(rater=user, submitted_at__isnull=False).exists()
    )


def comment_on_rating_item(*, item: RoundItem, user, body: str) -> Posted:
    """Raises DiscussionError for an empty or over-long comment."""
    return post_comment(
        thread=thread_key(item),
        reflection=item.reflection,
        author=user,
        body=body,
        url=item_url(item),
        label=f"{item.rating_round.name} #{item.position}",
        may_see=lambda person: may_see_rating_item(person, item),
    )
