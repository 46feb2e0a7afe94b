"""Writes of discussion threads: a comment, the colleagues it mentions, mentions read."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from reflections.models import Comment, Mention, Reflection
from reflections.scanning import INFRASTRUCTURE, INJECTION, PERSONAL, SECRET, typed_and_hidden

MAX_COMMENT_CHARS = 5000
# @username as Django allows it (letters, digits and @.+-_), not preceded by a word character
# (so an e-mail address mentions nobody). A trailing full stop ends the sentence, not the name.
MENTION = re.compile(r"(?<![\w@])@([\w.+-]+[\w+-]|[\w])")


# Why the scanner hid part of a comment, in words for its author.
REDACTED_BECAUSE = {
    INJECTION: "it reads like an instruction to an AI agent (a prompt injection) or markup",
    SECRET: "it looks like a password, key or token",
    PERSONAL: "it looks like personal data (an e-mail address, phone or identity number)",
    INFRASTRUCTURE: "it looks like an internal host, address or path",
}


class DiscussionError(ValueError):
    """A comment that cannot be posted; the message is meant for its author."""


@dataclass(frozen=True)
class Posted:
    """A posted comment and what its author should be told about it: the @names that reached
    nobody (with why) and the kinds of text the scanner replaced by [REDACTED:…]."""

    comment: Comment
    delivered: list[str] = field(default_factory=list)
    undelivered: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    redacted: list[str] = field(default_factory=list)  # scanner categories, in order

    @property
    def notes(self) -> list[str]:
        """One sentence per thing the author did not see coming, for the page."""
        notes = [f"@{name} was not notified: {why}." for name, why in self.undelivered]
        notes += [
            f"Part of your comment now reads [REDACTED:{category}]: "
            f"{REDACTED_BECAUSE.get(category, 'the scanner flagged it')}, and comments never "
            "store such text."
            for category in self.redacted
        ]
        return notes


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
) -> Posted:
    """Add a comment to a thread. Colleagues named with @username become mentions when
    `may_see(user)` says they may open the thread; other names stay plain text, and the result
    says which and why. Whatever the scanner flags is masked before the comment is stored, so
    no page or export shows it; the result names the kinds masked."""
    body = (body or "").strip()
    if not body:
        raise DiscussionError("the comment is empty")
    if len(body) > MAX_COMMENT_CHARS:
        raise DiscussionError(
            f"the comment is {len(body)} characters; at most {MAX_COMMENT_CHARS} are kept"
        )
    body, redacted = typed_and_hidden(body)  # masked as all typed text; the writer is told
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
    delivered, undelivered = _deliver(comment, mentioned_names(body), author, may_see)
    return Posted(comment, delivered, undelivered, redacted)


def _deliver(comment: Comment, names: list[str], author, may_see) -> tuple[list, list]:
    """Mentions for the names who may open the thread; the others with the reason why not."""
    users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}
    delivered, undelivered, mentions = [], [], []
    for name in names:
        user = users.get(name)
        if name == author.get_username():
            undelivered.append((name, "that is you"))
        elif user is None or not user.is_active:
            undelivered.append((name, "nobody here has that username"))
        elif not may_see(user):
            undelivered.append((name, "they cannot open this item"))
        else:
            delivered.append(name)
            mentions.append(Mention(comment=comment, user=user))
    Mention.objects.bulk_create(mentions)
    return delivered, undelivered


def mark_seen(user, mention_ids: Iterable[int]) -> int:
    return Mention.objects.filter(user=user, pk__in=list(mention_ids), seen_at=None).update(
        seen_at=timezone.now()
    )


def mark_thread_seen(user, thread: str) -> int:
    """Opening a thread reads the mentions in it."""
    return Mention.objects.filter(user=user, comment__thread=thread, seen_at=None).update(
        seen_at=timezone.now()
    )
