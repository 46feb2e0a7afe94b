"""What the memory announces to whoever listens (webhooks), as Django signals: the memory imports
none of its listeners.

`state_changes` is sent inside the transaction that wrote the history rows, with `history`: a
lazy QuerySet of those ReflectionHistory rows (state changes only). A listener that keeps an
outbox writes it in the same transaction and acts once it commits (transaction.on_commit), so
a change rolled back announces nothing.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.dispatch import Signal

from reflections.models import ReflectionHistory

state_changes = Signal()


def announce_state_changes(history: QuerySet[ReflectionHistory]) -> None:
    if state_changes.has_listeners(ReflectionHistory):
        state_changes.send(sender=ReflectionHistory, history=history.exclude(to_state=""))


def announce_history_row(row: ReflectionHistory) -> None:
    """One row a person's action wrote (a verdict, a restore, a quarantine, a release)."""
    announce_history_rows([row])


def announce_history_rows(rows: list[ReflectionHistory]) -> None:
    """Saved rows a person's action wrote, one or a batch's (reflections.services.state_changes):
    those that moved a reflection to another state (a reason changed alone is no change)."""
    moved = [row.pk for row in rows if row.to_state and row.to_state != row.from_state]
    if moved:
        announce_state_changes(ReflectionHistory.objects.filter(pk__in=moved))


def announce_history_since(watermark: int) -> None:
    """The state rows an import wrote after `watermark` (reflections.services.active_set)."""
    announce_state_changes(ReflectionHistory.objects.filter(id__gt=watermark))
