"""Deliveries to a real receiver on loopback: signed as the specification says, retried with
backoff while the receiver fails or is down, delivered once it comes back, replayed with the
same webhook-id, never sent elsewhere than the registered address."""

from __future__ import annotations

import socket
from datetime import timedelta
from itertools import pairwise

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.webhooks.conftest import Receiver, make_due, queued_deliveries, run_queued
from webhooks import delivery
from webhooks.models import Delivery, Event
from webhooks.services import new_secret, record_event, replay, send_test_event, set_active
from webhooks.tasks import deliver

pytestmark = pytest.mark.django_db
DEPRECATED = Event.REFLECTION_DEPRECATED


def record(event=DEPRECATED, event_id="msg_one", data=None) -> list[int]:
    payload = {"type": event, "timestamp": "2026-11-29T06:00:00Z", "data": data or {"n": 1}}
    return record_event(event=event, event_id=event_id, payload=payload)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_recorded_event_is_queued_once_it_commits_and_arrives_signed(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    endpoint = endpoint_for(receiver, [DEPRECATED])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        ids = record(data={"reflection": {"id": 7}})
    assert len(callbacks) == 1
    assert queued_deliveries() == ids

    assert run_queued() == ["delivered"]

    ((headers, payload),) = receiver.events
    assert receiver.refused == []
    assert payload["data"] == {"reflection": {"id": 7}}
    assert headers["webhook-id"] == "msg_one"
    assert headers["webhook-signature"].startswith("v1,")
    row = Delivery.objects.get(pk=ids[0])
    assert (row.status, row.attempts, row.last_status_code) == ("delivered", 1, 200)
    assert row.delivered_at is not None and row.endpoint == endpoint


def test_a_wrong_secret_fails_verification_at_the_receiver(receiver, endpoint_for):
    endpoint_for(receiver, [DEPRECATED])
    receiver.secret = new_secret()  # not the endpoint's
    (pk,) = record()
    deliver.call(pk)
    assert receiver.events == [] and receiver.refused == ["No matching signature found"]
    assert Delivery.objects.get(pk=pk).status == "failed"


def test_an_endpoint_not_subscribed_to_the_event_gets_nothing(receiver, endpoint_for):
    endpoint_for(receiver, [Event.CYCLE_CLOSED])
    assert record() == []
    assert Delivery.objects.count() == 0 and queued_deliveries() == []


def test_the_same_event_recorded_twice_is_one_delivery(receiver, endpoint_for):
    endpoint_for(receiver, [DEPRECATED])
    assert len(record()) == 1
    assert record() == []
    assert Delivery.objects.count() == 1


def test_a_receiver_answering_500_gets_retries_with_growing_waits_then_the_event(
    receiver, endpoint_for
):
    endpoint_for(receiver, [DEPRECATED])
    receiver.answers = [500, 503]
    (pk,) = record()

    before = timezone.now()
    assert deliver.call(pk)["status"] == "failed"
    row = Delivery.objects.get(pk=pk)
    assert (row.attempts, row.last_status_code) == (1, 500)
    assert row.last_error.startswith("HTTP 500")
    first_wait = row.next_attempt_at - before
    assert timedelta(seconds=29) < first_wait <= timedelta(seconds=31)
    # The retry was queued for then, with the task framework's run_after.
    retry = DBTaskResult.objects.get(task_path=deliver.module_path)
    assert retry.run_after == row.next_attempt_at

    assert deliver.call(pk)["status"] == "not due"  # too early: nothing sent
    make_due(row)
    before = timezone.now()
    assert deliver.call(pk)["status"] == "failed"
    row.refresh_from_db()
    assert row.attempts == 2
    assert timedelta(seconds=119) < row.next_attempt_at - before <= timedelta(seconds=121)

    make_due(row)
    assert deliver.call(pk)["status"] == "delivered"
    assert len(receiver.events) == 3
    assert {h["webhook-id"] for h, _ in receiver.events} == {"msg_one"}


def test_a_receiver_that_is_down_gets_the_event_after_it_comes_back(endpoint_for):
    port = closed_port()
    down = Receiver.__new__(Receiver)  # only its address: nothing listens there yet
    down.port, down.secret = port, ""
    endpoint = endpoint_for(down, [DEPRECATED])
    (pk,) = record()

    assert deliver.call(pk)["status"] == "failed"
    row = Delivery.objects.get(pk=pk)
    assert row.last_status_code is None and "ConnectError" in row.last_error
    assert endpoint.secret not in row.last_error

    back = Receiver(port=port)  # it comes back on the same address
    back.secret = endpoint.secret
    try:
        make_due(row)
        assert deliver.call(pk)["status"] == "delivered"
        assert [h["webhook-id"] for h, _ in back.events] == ["msg_one"]
    finally:
        back.stop()


def test_after_the_last_attempt_it_gives_up(receiver, endpoint_for):
    endpoint_for(receiver, [DEPRECATED])
    receiver.answers = [500] * delivery.MAX_ATTEMPTS
    (pk,) = record()
    for _ in range(delivery.MAX_ATTEMPTS):
        make_due(Delivery(pk=pk))
        status = deliver.call(pk)["status"]
    assert status == "gave_up"
    row = Delivery.objects.get(pk=pk)
    assert row.attempts == delivery.MAX_ATTEMPTS and row.next_attempt_at is None


def test_the_retry_schedule_grows_and_ends():
    waits = [delivery.next_delay(n) for n in range(1, delivery.MAX_ATTEMPTS + 1)]
    assert waits[-1] is None
    assert all(a < b for a, b in pairwise(waits[:-1]))
    assert waits[0] == timedelta(seconds=30)


def test_replay_resends_with_the_same_webhook_id_and_a_fresh_timestamp(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    endpoint_for(receiver, [DEPRECATED])
    (pk,) = record()
    deliver.call(pk)
    with django_capture_on_commit_callbacks(execute=True):
        replay(delivery_row=Delivery.objects.get(pk=pk))
    assert run_queued() == ["delivered"]
    first, second = receiver.events
    assert first[0]["webhook-id"] == second[0]["webhook-id"] == "msg_one"
    assert first[1] == second[1]
    row = Delivery.objects.get(pk=pk)
    assert (row.replays, row.attempts, row.status) == (1, 1, "delivered")


def test_a_disabled_endpoint_is_not_sent_to_until_enabled(
    receiver, endpoint_for, django_capture_on_commit_callbacks
):
    endpoint = endpoint_for(receiver, [DEPRECATED])
    (pk,) = record()
    set_active(endpoint=endpoint, active=False)
    assert deliver.call(pk)["status"] == "not due"
    assert record(event_id="msg_two") == []  # nothing new is recorded for it meanwhile
    with django_capture_on_commit_callbacks(execute=True):
        set_active(endpoint=endpoint, active=True)
    assert run_queued()[-1] == "delivered"
    assert [h["webhook-id"] for h, _ in receiver.events] == ["msg_one"]


def test_a_test_event_goes_to_that_endpoint_only(receiver, endpoint_for, admin):
    endpoint = endpoint_for(receiver, [DEPRECATED])
    other = Receiver()
    try:
        endpoint_for(other, [DEPRECATED])
        row = send_test_event(endpoint=endpoint, user=admin)
        deliver.call(row.pk)
        assert receiver.types == ["webhook.test"] and other.events == []
        assert receiver.events[0][1]["data"]["sent_by"] == "ada"
    finally:
        other.stop()


def test_redirects_are_not_followed(receiver, endpoint_for):
    """A 3xx would send the event where the admin did not register: it is a failure."""
    endpoint_for(receiver, [DEPRECATED])
    receiver.answers = [307]
    (pk,) = record()
    assert deliver.call(pk)["status"] == "failed"
    row = Delivery.objects.get(pk=pk)
    assert row.last_error == "HTTP 307: redirects are not followed"
    assert len(receiver.events) == 1


def test_private_addresses_are_refused_unless_allowed(receiver, endpoint_for, settings):
    endpoint_for(receiver, [DEPRECATED])
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    (pk,) = record()
    assert deliver.call(pk)["status"] == "failed"
    assert receiver.events == []
    assert "non-public address (127.0.0.1)" in Delivery.objects.get(pk=pk).last_error


@pytest.mark.parametrize(
    "url",
    ["http://localhost:9/", "http://[::1]:9/", "http://[::ffff:127.0.0.1]:9/", "http://10.0.0.8/"],
)
def test_loopback_and_private_addresses_are_refused_by_default(url):
    with pytest.raises(delivery.AddressRefused, match="non-public address"):
        delivery.check_address(url, allow_private=False)
    delivery.check_address(url, allow_private=True)


def test_a_receiver_slower_than_the_timeout_is_a_failed_attempt(
    receiver, endpoint_for, monkeypatch
):
    monkeypatch.setattr(delivery, "TIMEOUT_SECONDS", 0.2)
    endpoint_for(receiver, [DEPRECATED])
    receiver.delay = 1.0
    (pk,) = record()
    assert deliver.call(pk)["status"] == "failed"
    row = Delivery.objects.get(pk=pk)
    assert row.last_error == "timed out after 0.2 s" and row.last_status_code is None


@pytest.mark.parametrize(
    "url",
    ["ftp://example.com/x", "file:///etc/passwd", "https://user:pw@example.com/", "http:///x"],
)
def test_only_http_and_https_addresses_without_credentials_are_accepted(url):
    with pytest.raises(delivery.AddressRefused):
        delivery.check_url(url)


def test_a_deleted_endpoint_leaves_nothing_to_send(receiver, endpoint_for):
    endpoint = endpoint_for(receiver, [DEPRECATED])
    (pk,) = record()
    endpoint.delete()
    assert deliver.call(pk)["status"] == "not due"
    assert receiver.events == []


# The worker closes database connections between tasks: the test cannot sit in a transaction.
@pytest.mark.django_db(transaction=True)
def test_the_task_worker_delivers_what_was_queued_and_leaves_the_retry_for_later(
    receiver, endpoint_for
):
    endpoint_for(receiver, [DEPRECATED])
    receiver.answers = [200, 500]
    with transaction.atomic():
        assert len(record(event_id="msg_first")) == len(record(event_id="msg_second")) == 1

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert sorted(h["webhook-id"] for h, _ in receiver.events) == ["msg_first", "msg_second"]
    statuses = dict(Delivery.objects.values_list("event_id", "status"))
    assert sorted(statuses.values()) == ["delivered", "failed"]
    # The retry waits for its run_after: the batch worker left it queued.
    waiting = DBTaskResult.objects.get(status="READY")
    assert waiting.run_after > timezone.now() + timedelta(seconds=20)


def test_the_log_never_holds_the_address_the_secret_or_the_body(receiver, endpoint_for, caplog):
    endpoint = endpoint_for(receiver, [DEPRECATED])
    receiver.answers = [500]
    (pk,) = record(data={"reflection": {"source_path": "memory/a-lesson.md"}})
    with caplog.at_level("DEBUG"):
        deliver.call(pk)
    assert f"webhook delivery {pk} to endpoint {endpoint.pk} failed" in caplog.text
    for private in (endpoint.secret, receiver.url, str(receiver.port), "a-lesson"):
        assert private not in caplog.text, caplog.text


def test_the_projects_python_client_verifies_what_is_sent(receiver, endpoint_for):
    """clients/python's verify_webhook, the receivers' side of the same rules."""
    from reflexion_review import WebhookVerificationError, verify_webhook

    endpoint = endpoint_for(receiver, [DEPRECATED])
    (pk,) = record(data={"reflection": {"id": 7, "source_path": "memory/ü-lesson.md"}})
    deliver.call(pk)
    ((body, headers),) = receiver.raw
    event = verify_webhook(body, headers, endpoint.secret)
    assert event["data"]["reflection"]["source_path"] == "memory/ü-lesson.md"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body.replace(b"7", b"8"), headers, endpoint.secret)
