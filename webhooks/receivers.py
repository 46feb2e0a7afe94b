"""The memory's and the review's announcements turned into deliveries; connected in
WebhooksConfig.ready. The one place each event comes from: a state-bearing history row
(deprecated, restored, quarantined) and a closed cycle."""

from __future__ import annotations

from django.db.models import Q

from reflections.announcements import state_changes
from reflections.models import State
from reviews.announcements import cycle_closed
from webhooks.models import Event
from webhooks.payloads import cycle_event, reflection_event
from webhooks.services import active_endpoints, record_event

REFLECTION_EVENTS = {
    Event.REFLECTION_DEPRECATED,
    Event.REFLECTION_RESTORED,
    Event.REFLECTION_QUARANTINED,
}


def _on_state_changes(sender, history, **kwargs):
    endpoints = active_endpoints()
    if not any(e.wants(x) for e in endpoints for x in REFLECTION_EVENTS):
        return  # an import of thousands of files reads no row when nobody listens
    rows = (
        history.filter(
            Q(to_state__in=[State.DEPRECATED, State.QUARANTINED]) | Q(from_state=State.DEPRECATED)
        )
        .select_related("reflection__department")
        .order_by("id")
    )
    for row in rows.iterator(chunk_size=2000):
        if found := reflection_event(row):
            event, event_id, payload = found
            record_event(event=event, event_id=event_id, payload=payload, endpoints=endpoints)


def _on_cycle_closed(sender, cycle, **kwargs):
    if any(e.wants(Event.CYCLE_CLOSED) for e in active_endpoints()):
        event, event_id, payload = cycle_event(cycle)
        record_event(event=event, event_id=event_id, payload=payload)


def connect() -> None:
    state_changes.connect(_on_state_changes, dispatch_uid="webhooks_state_changes")
    cycle_closed.connect(_on_cycle_closed, dispatch_uid="webhooks_cycle_closed")
