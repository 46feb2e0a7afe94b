"""Restoring a deprecated reflection (DOMAIN §5): a reviewer of its department or an admin puts
it back, with a note, even when the cycle that deprecated it has closed. It returns to the state
it had before the verdict; the history row and a Decision on the deprecating item record who
and why, the item is marked restored (its verdict kept as decided, counted as restored in the
cycle's report and left out of the deprecations export), and the next write-back takes the
deprecation out of its file."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from reflections.access import ADMIN, REVIEWER, user_roles
from reflections.models import Reflection, State
from reflections.scanning import typed
from reviews.models import Decision, ReviewItem
from reviews.selectors.export import DEPRECATING_VERDICTS
from reviews.services.cycles import ReviewError

# States a restore may return to: the state before the verdict, unless that was not one a
# reflection is retrieved in (it was already deprecated by its author, say): then active.
_RESTORABLE = {State.ACTIVE, State.PROMOTED, State.ARCHIVED}


def can_restore(user, reflection: Reflection) -> bool:
    """Admins, and reviewers who belong to the reflection's department."""
    roles = user_roles(user)
    if ADMIN in roles:
        return True
    return REVIEWER in roles and user.departments.filter(pk=reflection.department_id).exists()


def deprecating_item(reflection: Reflection) -> ReviewItem | None:
    """The review item whose verdict deprecated the reflection: the latest decided one not
    restored since."""
    return (
        ReviewItem.objects.filter(
            reflection=reflection, verdict__in=DEPRECATING_VERDICTS, restored_at__isnull=True
        )
        .select_related("cycle", "duplicate_of")
        .order_by("-decided_at", "-id")
        .first()
    )


@transaction.atomic
def restore_reflection(*, reflection_id: int, user, note: str) -> Reflection:
    """Put a deprecated reflection back in the state it had before it was deprecated."""
    note = typed(note)
    reflection = Reflection.objects.select_for_update().filter(pk=reflection_id).first()
    if reflection is None or not can_restore(user, reflection):
        # Whoever may not restore it learns nothing of it.
        raise ReviewError(f"no reflection {reflection_id} that you may restore")
    if reflection.state != State.DEPRECATED:
        raise ReviewError(
            f"{reflection.shown_path} is {reflection.state}, not deprecated: nothing to restore"
        )
    if not note:
        raise ReviewError("say why it is restored: the note is required")
    item = deprecating_item(reflection)
    to_state, reason = State.ACTIVE, ""
    if item is not None and item.state_before in _RESTORABLE:
        to_state, reason = item.state_before, item.reason_before
    where = f" (deprecated in review {item.cycle.quarter})" if item else ""
    reflection.change_state(
        to_state, by=user, why=f"restored{where} — {note}", deprecated_reason=reason
    )
    if item is not None:
        now = timezone.now()
        item.restored_at, item.restored_by, item.restore_note = now, user, note
        item.version += 1  # a tab showing the verdict with its undo is stale now
        item.save(update_fields=["restored_at", "restored_by", "restore_note", "version"])
        Decision.objects.create(
            item=item,
            action=Decision.Action.RESTORE,
            verdict=item.verdict,
            duplicate_of=item.duplicate_of,
            note=note,
            from_state=State.DEPRECATED,
            to_state=to_state,
            actor=user,
            at=now,
        )
    return reflection
