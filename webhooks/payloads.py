"""The body of each event (docs/api.md, Webhooks): ids, paths, states, reasons and times; never a
reflection's text, never a secret. Which history row is which event."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from reflections.models import ReflectionHistory, State
from reflections.scanning import typed
from reflections.scanning.fields import masked_path
from webhooks.models import Event

# Leaving deprecated for one of these is a restore (the restore, an undone verdict, a verdict
# changed to keep); leaving quarantine is a release, which is not an event.
_RETRIEVED = {State.ACTIVE, State.PROMOTED, State.ARCHIVED}


def event_of(row: ReflectionHistory) -> str | None:
    """The event a state-bearing history row is, or None."""
    if row.from_state == row.to_state:
        return None
    if row.to_state == State.DEPRECATED:
        return Event.REFLECTION_DEPRECATED
    if row.to_state == State.QUARANTINED:
        return Event.REFLECTION_QUARANTINED
    if row.from_state == State.DEPRECATED and row.to_state in _RETRIEVED:
        return Event.REFLECTION_RESTORED
    return None


def envelope(event: str, data: dict, *, at: datetime | None = None) -> dict:
    """The Standard Webhooks shape: type, timestamp, data."""
    return {"type": event, "timestamp": _iso(at or timezone.now()), "data": data}


def reflection_event(row: ReflectionHistory) -> tuple[str, str, dict] | None:
    """(event, event id, payload) of a history row; `row.reflection.department` is read."""
    event = event_of(row)
    if event is None:
        return None
    reflection = row.reflection
    # A quarantined reflection's path may hold what the scanner found: masked, as pages show
    # it. Its title and text are never sent, whatever the event.
    quarantined = row.to_state == State.QUARANTINED or reflection.state == State.QUARANTINED
    path = masked_path(reflection.source_path) if quarantined else reflection.source_path
    data = {
        "reflection": {
            "id": reflection.pk,
            "source_path": path,
            "department": reflection.department.slug,
            "kind": reflection.kind,
            "state": row.to_state,
            "deprecated_reason": "" if quarantined else reflection.deprecated_reason,
        },
        "change": {
            "from_state": row.from_state,
            "to_state": row.to_state,
            # Reviewers' notes were masked when typed; a reason an import took from a file was
            # not (a file that declares a deprecation and leaks in it): masked here, again.
            "reason": typed(row.reason),
            "actor": row.actor_label,
            "at": _iso(row.at),
            "history_id": row.pk,
        },
    }
    return event, f"msg_reflection-history-{row.pk}", envelope(event, data, at=row.at)


def cycle_event(cycle) -> tuple[str, str, dict]:
    """(event, event id, payload) of a closed review cycle."""
    items = cycle.items.all()
    data = {
        "review_cycle": {
            "id": cycle.pk,
            "quarter": cycle.quarter,
            "department": cycle.department.slug,
            "window_start": _iso(cycle.window_start),
            "window_end": _iso(cycle.window_end),
            "opened_at": _iso(cycle.opened_at),
            "closed_at": _iso(cycle.closed_at),
            "closed_by": cycle.closed_by.get_username() if cycle.closed_by else "",
            "items": items.count(),
            "not_reviewed": items.filter(verdict="").count(),
        }
    }
    event = Event.CYCLE_CLOSED
    return event, f"msg_review-cycle-{cycle.pk}-closed", envelope(event, data, at=cycle.closed_at)


def _iso(at: datetime | None) -> str | None:
    return at.isoformat().replace("+00:00", "Z") if at else None
