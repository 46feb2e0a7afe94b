"""An admin in a real browser registers a webhook endpoint (its secret shown once, copied with
the button), sends a test event to a verifying receiver on loopback, reads the delivery log and
replays a delivery; both pages fit a phone."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tests.browser.support import BROWSER, assert_no_csp_violations, record_clipboard, sign_in
from tests.factories import UserFactory
from tests.webhooks.conftest import Receiver, run_queued
from webhooks.models import Delivery, Endpoint

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def receiver(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    running = Receiver()
    yield running
    running.stop()


def shot(page, tmp_path: Path, name: str) -> None:
    """Kept in WEBHOOK_SHOTS when set (to look at), else in the test's temporary folder."""
    folder = Path(os.environ.get("WEBHOOK_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def fits(page) -> bool:
    """Nothing but a table's own scroll box is wider than the window."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_an_admin_registers_an_endpoint_tests_it_and_replays_a_delivery(
    page, live_server, receiver, tmp_path
):
    UserFactory(username="root", roles=["admin"])
    record_clipboard(page)
    sign_in(page, live_server, "root", to="/webhooks/")

    page.fill("#id_url", receiver.url)
    page.check("input[name=events][value='reflection.deprecated']")
    page.check("input[name=events][value='review_cycle.closed']")
    page.click("main button[type=submit]:has-text('Register endpoint')")
    secret = page.inner_text("#new-secret").strip()
    assert secret == Endpoint.objects.get().secret
    receiver.secret = secret
    page.click("#copy-new-secret")
    page.wait_for_selector("#copy-new-secret-status:has-text('Copied')")
    assert page.evaluate("window.__copied") == [secret]
    for width, height in ((1440, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert fits(page), width
        shot(page, tmp_path, f"webhooks-list-{width}")
    page.set_viewport_size({"width": 1440, "height": 900})

    page.reload()
    assert secret not in page.content()
    page.click("table.endpoints a")
    page.click("#send-test")
    assert "Test event queued" in page.inner_text("main")
    assert run_queued() == ["delivered"]  # what the worker does meanwhile
    assert receiver.types == ["webhook.test"] and receiver.refused == []

    page.reload()
    row = page.locator("table.deliveries tbody tr").first
    assert "Delivered" in row.inner_text()
    row.locator("button:has-text('Replay')").click()
    assert "queued again" in page.inner_text("main")
    assert run_queued() == ["delivered"]
    sent = Delivery.objects.get().event_id
    assert [h["webhook-id"] for h, _ in receiver.events] == [sent, sent]
    endpoint = Endpoint.objects.get()
    now = timezone.now()
    Delivery.objects.create(
        endpoint=endpoint,
        event_type="reflection.deprecated",
        event_id="msg_reflection-history-8812",
        payload={},
        status=Delivery.Status.FAILED,
        attempts=2,
        last_attempt_at=now,
        next_attempt_at=now + timedelta(minutes=2),
        last_error="ConnectError: [Errno 111] Connection refused",
    )
    Delivery.objects.create(
        endpoint=endpoint,
        event_type="review_cycle.closed",
        event_id="msg_review-cycle-4-closed",
        payload={},
        status=Delivery.Status.GAVE_UP,
        attempts=7,
        last_attempt_at=now,
        last_status_code=500,
        last_error="HTTP 500: upstream unavailable",
    )
    page.reload()
    assert "replayed 1\N{MULTIPLICATION SIGN}" in page.inner_text("table.deliveries")
    assert page.locator("table.deliveries tbody tr").count() == 3
    for width, height in ((1440, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert fits(page), width
        shot(page, tmp_path, f"webhooks-log-{width}")
    assert secret not in page.content()
    assert_no_csp_violations(page)
