"""Events from the real services: a verdict deprecates, a restore restores, a scan or an import
quarantines, a cycle closes; each reaches a subscribed receiver signed, once, without the text
of a quarantined reflection; a change rolled back announces nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.db import transaction

from reflections.models import Reflection, State
from reflections.services.quarantine import dismiss_finding
from reflections.services.reflection_import import import_reflections
from reflections.services.scanning import scan_reflections
from reviews.services.bulk import bulk_verdict
from reviews.services.cycles import close_cycle
from reviews.services.restore import restore_reflection
from reviews.services.verdicts import decide
from tests.factories import ReflectionFactory, UserFactory
from tests.reflections.scanner_cases import AWS_ID
from tests.reviews.test_verdicts import make_cycle
from tests.webhooks.conftest import queued_deliveries, run_queued
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.django_db
ALL = list(Event.values)
SAMPLE = Path(__file__).resolve().parents[2] / "samples/memory/reflections/researcher-agent"


@pytest.fixture
def deprecated(receiver, endpoint_for, django_capture_on_commit_callbacks):
    """Item #1 of a sales cycle marked outdated by its reviewer, through the verdict service."""
    cycle, ana = make_cycle()
    endpoint_for(receiver, ALL)
    item = cycle.items.select_related("reflection").get(rank=1)
    with django_capture_on_commit_callbacks(execute=True):
        decide(item_id=item.pk, user=ana, verdict="outdated", version=0, note="tool gone")
    return cycle, ana, item.reflection


def test_a_verdict_that_deprecates_delivers_a_signed_event(deprecated, receiver):
    _, _, reflection = deprecated
    assert run_queued() == ["delivered"]
    ((headers, payload),) = receiver.events
    assert receiver.refused == []
    assert payload["type"] == "reflection.deprecated"
    data = payload["data"]
    assert data["reflection"] == {
        "id": reflection.pk,
        "source_path": reflection.source_path,
        "department": "sales",
        "kind": reflection.kind,
        "state": "deprecated",
        "deprecated_reason": "outdated",
    }
    assert data["change"]["from_state"] == "active"
    assert data["change"]["reason"] == "review 2026Q3: outdated — tool gone"
    assert data["change"]["actor"] == "ana"
    assert headers["webhook-id"] == f"msg_reflection-history-{data['change']['history_id']}"


def test_a_bulk_verdict_delivers_one_event_per_deprecated_reflection(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    cycle, ana = make_cycle()
    endpoint_for(receiver, ALL)
    original = cycle.items.get(rank=1).reflection
    with django_capture_on_commit_callbacks(execute=True):
        bulk_verdict(
            cycle=cycle, user=ana, ranks=[2, 3], action="duplicate",
            duplicate_of=original.pk, confirmed=True,
        )  # fmt: skip
    run_queued()
    assert receiver.types == ["reflection.deprecated", "reflection.deprecated"]
    deprecated = {event["data"]["reflection"]["id"] for _, event in receiver.events}
    assert deprecated == {i.reflection_id for i in cycle.items.filter(rank__in=[2, 3])}


def test_a_restore_delivers_a_restored_event(
    deprecated, receiver, django_capture_on_commit_callbacks
):
    _, _, reflection = deprecated
    admin = UserFactory(username="root", roles=["admin"])
    with django_capture_on_commit_callbacks(execute=True):
        restore_reflection(reflection_id=reflection.pk, user=admin, note="still needed")
    run_queued()
    assert receiver.types == ["reflection.deprecated", "reflection.restored"]
    change = receiver.events[1][1]["data"]["change"]
    assert (change["from_state"], change["to_state"], change["actor"]) == (
        "deprecated",
        "active",
        "root",
    )


def test_closing_a_cycle_delivers_its_quarter_and_counts(
    deprecated, receiver, django_capture_on_commit_callbacks
):
    cycle, ana, _ = deprecated
    run_queued()
    with django_capture_on_commit_callbacks(execute=True):
        close_cycle(cycle=cycle, user=ana, allow_incomplete=True)
    run_queued()
    assert receiver.types == ["reflection.deprecated", "review_cycle.closed"]
    headers, payload = receiver.events[1]
    closed = payload["data"]["review_cycle"]
    assert headers["webhook-id"] == f"msg_review-cycle-{cycle.pk}-closed"
    assert (closed["id"], closed["quarter"], closed["department"]) == (cycle.pk, "2026Q3", "sales")
    assert (closed["items"], closed["not_reviewed"], closed["closed_by"]) == (3, 2, "ana")


def test_a_quarantine_by_scan_sends_no_text_and_no_secret(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    endpoint_for(receiver, [Event.REFLECTION_QUARANTINED])
    leaky = ReflectionFactory(
        title="Export notes",
        original_text=f"The export worked with {AWS_ID} in the notes.",
        body=f"The export worked with {AWS_ID} in the notes.",
    )
    with django_capture_on_commit_callbacks(execute=True):
        scan_reflections()
    assert Reflection.objects.get(pk=leaky.pk).state == State.QUARANTINED
    assert run_queued() == ["delivered"]
    ((_, payload),) = receiver.events
    body = json.dumps(payload)
    assert payload["type"] == "reflection.quarantined"
    assert payload["data"]["reflection"]["id"] == leaky.pk
    assert AWS_ID not in body and "export worked" not in body and "Export notes" not in body
    assert "title" not in payload["data"]["reflection"]
    assert "text" not in payload["data"]["reflection"]


def test_releasing_from_quarantine_is_not_an_event(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    leaky = ReflectionFactory(original_text=f"Key {AWS_ID} here.", body=f"Key {AWS_ID} here.")
    scan_reflections()
    endpoint_for(receiver, ALL)
    admin = UserFactory(username="root", roles=["admin"])
    finding = Reflection.objects.get(pk=leaky.pk).findings.get()
    with django_capture_on_commit_callbacks(execute=True):
        dismiss_finding(finding=finding, user=admin, reason="a documented example key")
    assert Reflection.objects.get(pk=leaky.pk).state == State.ACTIVE
    assert Delivery.objects.count() == 0 and queued_deliveries() == []


def test_an_import_that_quarantines_a_file_delivers_the_event(
    tmp_path, receiver, endpoint_for, django_capture_on_commit_callbacks
):
    endpoint_for(receiver, ALL)
    folder = tmp_path / "memory/reflections/researcher-agent"
    folder.mkdir(parents=True)
    clean = shutil.copy(SAMPLE / "2026-03-12-choose-data-source.md", folder)
    leaky = folder / "2026-03-09-competitor-feature-matrix.md"
    text = (SAMPLE / leaky.name).read_text()
    leaky.write_text(text + f"\nThe export worked with {AWS_ID} in the notes.\n")
    with django_capture_on_commit_callbacks(execute=True):
        import_reflections(paths=[tmp_path], default_department="research", create_departments=True)
    assert run_queued() == ["delivered"]  # one event: the clean file is no event at all
    ((_, payload),) = receiver.events
    assert payload["type"] == "reflection.quarantined"
    assert payload["data"]["change"]["actor"] == "import"
    assert AWS_ID not in json.dumps(payload)
    assert Path(clean).name not in json.dumps(payload)


def test_a_change_rolled_back_announces_nothing(receiver, endpoint_for):
    cycle, ana = make_cycle()
    endpoint_for(receiver, ALL)
    item = cycle.items.get(rank=1)
    with pytest.raises(RuntimeError), transaction.atomic():
        decide(item_id=item.pk, user=ana, verdict="outdated", version=0)
        raise RuntimeError("the request failed after the verdict")
    assert Delivery.objects.count() == 0 and queued_deliveries() == []


def test_nobody_listening_means_no_delivery_rows(django_capture_on_commit_callbacks):
    cycle, ana = make_cycle()
    item = cycle.items.get(rank=1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        decide(item_id=item.pk, user=ana, verdict="outdated", version=0)
    assert Delivery.objects.count() == 0 and callbacks == []


def test_a_reason_taken_from_a_file_is_masked_in_the_payload():
    from reflections.models import ReflectionHistory
    from webhooks.payloads import reflection_event

    reflection = ReflectionFactory(state=State.DEPRECATED)
    row = ReflectionHistory.objects.create(
        reflection=reflection,
        at=reflection.created_at,
        change="state",
        actor_label="import",
        from_state="active",
        to_state="deprecated",
        reason=f"the source file declares it deprecated (rotate {AWS_ID})",
    )
    event, _, payload = reflection_event(row)
    assert event == Event.REFLECTION_DEPRECATED
    assert AWS_ID not in json.dumps(payload)
    assert "[REDACTED:secret]" in payload["data"]["change"]["reason"]
