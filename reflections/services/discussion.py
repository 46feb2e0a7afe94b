"""Writes of discussion threads: a comment, the colleagues it mentions, mentions read."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from reflections.models import Comment, Mention, Reflection
from reflections.scanning import typed

MAX_COMMENT_CHARS = 5000
# @username as Django allows it (letters, digits and @.+-_), not preceded by a word character
# (so an e-mail address mentions nobody). A trailing full stop ends the sentence, not the name.
MENTION = re.compile(r"(?<![\w@])@([\w.+-]+[\w+-]|[\w])")


class DiscussionError(ValueError):
    """A comment that cannot be posted; the message is meant for its author."""


def mentioned_names(body: str) -> list[str]:
    """The @usernames a text names, in order, each once."""
    seen: dict[str, None] = {}
    for match in MENTION.finditer(body):
        seen.setdefault(match.group(1), None)
    return list(seen)


@transaction.atomic
def post_comment(
    *,
    thread: str,
    reflection: Reflection,
    author,
    body: str,
    url: str,
    label: str,
    may_see: Callable[[object], bool],
) -> Comment:
    """Add a comment to a thread. Colleagues named with @username become mentions when
    `may_see(user)` says they may open the thread; other names stay plain text. Whatever the
    scanner flags is masked before the comment is stored, so no page or export shows it."""
    body = (body or "").strip()
    if not body:
        raise DiscussionError("the comment is empty")
    if len(body) > MAX_COMMENT_CHARS:
        raise DiscussionError(
            f"the comment is {len(body)} characters; at most {MAX_COMMENT_CHARS} are kept"
        )
    body = typed(body)
    comment = Comment.objects.create(
        thread=thread,
        reflection=reflection,
        department_id=reflection.department_id,
        url=url,
        label=label[:128],
        author=author,
        body=body,
        at=timezone.now(),
    )
    names = [n for n in mentioned_names(body) if n != author.get_username()]
    users = get_user_model().objects.filter(username__in=names, is_active=True)
    Mention.objects.bulk_create(
        Mention(comment=comment, user=user) for user in users if may_see(user)
    )
    return comment


def mark_seen(user, mention_ids: Iterable[int]) -> int:
    return Mention.objects.filter(user=user, pk__in=list(mention_ids), seen_at=None).update(
        seen_at=timezone.now()
    )


def mark_thread_seen(user, thread: str) -> int:
    """Opening a thread reads the mentions in it."""
    return Mention.objects.filter(user=user, comment__thread=thread, seen_at=None).update(
        seen_at=timezone.now()
    )
