"""Verdicts and their undo (DOMAIN §5): a row lock and a version settle concurrent reviewers;
every verdict and undo leaves an audit row."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from reflections.models import (
    Reflection,
    ReflectionHistory,
    State,
)
from reflections.scanning import typed
from reviews.models import Decision, ReviewItem, Verdict
from reviews.policies import (
    effort_seconds,
)
from reviews.selectors.originals import guard_warnings
from reviews.services.cycles import Conflict, ReviewError


class NeedsConfirmation(ReviewError):
    """The verdict is allowed but at stake: `warnings` say why; nothing was recorded. The same
    request with confirmed=True records it (and keeps the warnings with its audit row)."""

    def __init__(self, warnings: list[str]):
        self.warnings = list(warnings)
        super().__init__("confirm first: " + " ".join(self.warnings))


def _lock_item(item_id: int) -> ReviewItem:
    return (
        ReviewItem.objects.select_for_update(of=("self",)).select_related("cycle").get(pk=item_id)
    )


def check_can_act(item: ReviewItem, user, version: int) -> None:
    if not item.cycle.is_open:
        raise ReviewError("this review cycle is closed; its verdicts can no longer change")
    if item.reviewer_id != user.pk:
        raise ReviewError("this item is assigned to another reviewer")
    if item.version != version:
        raise Conflict(
            f"#{item.rank} changed while you were reading it: {_last_change(item)}. "
            "Nothing was overwritten; reload to see where it stands."
        )


def _last_change(item: ReviewItem) -> str:
    last = item.decisions.select_related("actor").order_by("-at", "-id").first()
    if last is None:
        return "it was updated"
    who, when = last.actor.get_username(), f"{last.at:%H:%M:%S} UTC"
    if last.action == Decision.Action.VERDICT:
        return f"{who} recorded {Verdict(last.verdict).label.lower()} at {when}"
    if last.action == Decision.Action.UNDO:
        return f"{who} undid the verdict at {when}"
    if last.action == Decision.Action.RESTORE:
        return f"{who} restored the reflection at {when}"
    if last.action == Decision.Action.UNSURE:
        return f"{who} marked it unsure at {when}"
    if last.action == Decision.Action.RESOLVED:
        return f"{who} resolved its discussion at {when}"
    return f"{who} reassigned it at {when}"


def check_not_quarantined(reflection: Reflection) -> None:
    if reflection.state == State.QUARANTINED:
        raise ReviewError("this reflection was quarantined after the snapshot; an admin handles it")


def check_original(item: ReviewItem, reflection: Reflection, duplicate_of: int | None):
    if duplicate_of is None:
        raise ReviewError("a duplicate verdict must name the reflection it duplicates")
    if duplicate_of == reflection.pk:
        raise ReviewError("a reflection cannot duplicate itself")
    original = Reflection.objects.filter(pk=duplicate_of).first()
    # A quarantined reflection is answered for like a missing one: its path and even its
    # existence are for admins only.
    if (
        original is None
        or original.state == State.QUARANTINED
        or original.department_id != item.cycle.department_id
    ):
        raise ReviewError("the original must be a reflection of the same department")
    # An archived, deprecated or less-used original is allowed once confirmed (guard_warnings).
    return original


@transaction.atomic
def decide(
    *,
    item_id: int,
    user,
    verdict: str,
    version: int,
    duplicate_of: int | None = None,
    note: str = "",
    shown_at: datetime | None = None,
    confirmed: bool = False,
    batch: str = "",
) -> ReviewItem:
    """Record a verdict. Non-keep deprecates at once; keep leaves (or puts back) the state the
    reflection had before the review. A stale `version` is a Conflict, never an overwrite.

    A duplicate of an archived, deprecated or less-used original raises NeedsConfirmation
    unless `confirmed`; `batch` groups the verdicts of one cluster action for one undo."""
    if verdict not in Verdict.values:
        raise ReviewError(f"unknown verdict {verdict!r}")
    item = _lock_item(item_id)
    check_can_act(item, user, version)
    reflection = Reflection.objects.select_for_update().get(pk=item.reflection_id)
    check_not_quarantined(reflection)
    original = None
    warnings: list[str] = []
    if verdict == Verdict.DUPLICATE:
        original = check_original(item, reflection, duplicate_of)
        warnings = guard_warnings(item, original)
        if warnings and not confirmed:
            raise NeedsConfirmation(warnings)
    decision, moved = record_verdict(
        item,
        reflection,
        user=user,
        verdict=verdict,
        original=original,
        note=note,
        shown_at=shown_at,
        warnings=warnings,
        batch=batch,
    )
    if moved is not None:
        reflection.store_state_change(moved)
    item.save()
    decision.save()
    return item


def record_verdict(
    item: ReviewItem,
    reflection: Reflection,
    *,
    user,
    verdict: str,
    original: Reflection | None,
    note: str = "",
    shown_at: datetime | None = None,
    warnings: list[str] = (),
    batch: str = "",
    now: datetime | None = None,
) -> tuple[Decision, ReflectionHistory | None]:
    """The verdict's effect on a locked item and its locked reflection, checked by the caller,
    in memory: the item and the reflection changed, the audit row and the reflection's history
    row (None when its state stays) returned unsaved, for the caller to store (one verdict at
    a time, or a hundred in a few statements: reviews.services.bulk, which gives them one
    `now`)."""
    now = now or timezone.now()
    if not item.verdict:
        # The first verdict remembers what the review found, so undo can put it back.
        item.state_before, item.reason_before = reflection.state, reflection.deprecated_reason
    from_state = reflection.state
    note = typed(note)
    why = f"review {item.cycle.quarter}: {Verdict(verdict).label.lower()}"
    if original is not None:
        why += f" of {original.source_path}"
    if note:
        why += f" — {note}"
    if verdict == Verdict.KEEP:
        moved = reflection.state_change(
            item.state_before, by=user, why=why, deprecated_reason=item.reason_before
        )
    else:
        moved = reflection.state_change(
            State.DEPRECATED, by=user, why=why, deprecated_reason=verdict
        )
    spent = effort_seconds(shown_at, now)
    item.verdict, item.duplicate_of, item.note = verdict, original, note
    item.decided_at, item.decided_by = now, user
    item.unsure_since = None  # a verdict ends the discussion
    # A new verdict supersedes a restore of the one before it.
    item.restored_at, item.restored_by, item.restore_note = None, None, ""
    item.version += 1
    item.seconds_spent += spent
    decision = Decision(
        item=item,
        action=Decision.Action.VERDICT,
        verdict=verdict,
        duplicate_of=original,
        note=note,
        from_state=from_state,
        to_state=reflection.state,
        seconds_spent=spent,
        batch=batch,
        confirmed="\n".join(warnings),
        actor=user,
        at=now,
    )
    return decision, moved


@transaction.atomic
def undo(*, item_id: int, user, version: int, batch: str = "") -> ReviewItem:
    """Take the verdict back: the reflection returns to exactly the state it had before."""
    item = _lock_item(item_id)
    check_can_act(item, user, version)
    if not item.verdict:
        raise ReviewError(f"#{item.rank} has no verdict to undo")
    if item.is_restored:
        raise ReviewError(
            f"#{item.rank} was restored by {item.restored_by.get_username()} since its verdict; "
            "record a new verdict to change it"
        )
    reflection = Reflection.objects.select_for_update().get(pk=item.reflection_id)
    if reflection.state == State.QUARANTINED:
        raise ReviewError("this reflection was quarantined since; an admin handles it")
    from_state = reflection.state
    reflection.change_state(
        item.state_before,
        by=user,
        why=f"review {item.cycle.quarter}: undo {item.get_verdict_display().lower()}",
        deprecated_reason=item.reason_before,
    )
    now = timezone.now()
    Decision.objects.create(
        item=item,
        action=Decision.Action.UNDO,
        verdict=item.verdict,
        duplicate_of_id=item.duplicate_of_id,
        note=item.note,
        from_state=from_state,
        to_state=reflection.state,
        actor=user,
        at=now,
        batch=batch,
    )
    item.verdict, item.duplicate_of, item.note = "", None, ""
    item.decided_at, item.decided_by = now, user
    item.version += 1
    item.save()
    return item
