"""Reads of discussion threads: a thread's comments rendered, a person's mentions, and whom an
@name being typed may mention."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.safestring import SafeString

from reflections import access
from reflections.models import Comment, Mention
from reflections.rendering import render_markdown


@dataclass(frozen=True)
class ShownComment:
    comment: Comment
    html: SafeString  # Markdown, sanitised


def thread(key: str) -> list[ShownComment]:
    comments = Comment.objects.filter(thread=key).select_related("author").order_by("at", "id")
    return [ShownComment(comment=c, html=render_markdown(c.body)) for c in comments]


def threads(keys: list[str]) -> dict[str, list[Comment]]:
    """Several threads' comments at once (reports and exports), oldest first."""
    found: dict[str, list[Comment]] = {key: [] for key in keys}
    rows = Comment.objects.filter(thread__in=keys).select_related("author").order_by("at", "id")
    for comment in rows:
        found[comment.thread].append(comment)
    return found


def mentions_for(user) -> QuerySet[Mention]:
    """A person's mentions, newest first, in threads about reflections they may still see."""
    return (
        Mention.objects.filter(user=user, comment__reflection__in=access.visible_reflections(user))
        .select_related("comment__author")
        .order_by("-comment__at", "-id")
    )


def unseen_mention_count(user) -> int:
    if not user.is_authenticated:
        return 0
    return mentions_for(user).filter(seen_at=None).count()


# The @name being typed: at the very end of the text, not inside an e-mail address.
TYPING_MENTION = re.compile(r"(?<![\w@])@([\w.+-]*)\Z")
SUGGESTED = 8


def mention_suggestions(
    text: str, *, author, may_see: Callable[[object], bool]
) -> tuple[str | None, list[str]]:
    """The @name being typed at the end of `text` (None: none) and up to eight usernames that
    start with it, of active people other than the author who may open the thread."""
    match = TYPING_MENTION.search(text or "")
    if match is None:
        return None, []
    prefix = match.group(1)
    people = (
        get_user_model()
        .objects.filter(is_active=True, username__istartswith=prefix)
        .exclude(pk=author.pk)
        .order_by("username")[:60]
    )
    return prefix, [p.get_username() for p in people if may_see(p)][:SUGGESTED]
