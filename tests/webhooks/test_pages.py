"""The admins' webhook pages: register (the secret shown once), the delivery log, replay, test
event, disable, delete; everyone else is refused every page and every POST; CSRF on POSTs;
what a receiver answered is shown escaped."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.factories import UserFactory
from tests.pages import client_for, soup_of
from tests.webhooks.conftest import queued_deliveries
from webhooks.models import TEST_EVENT, Delivery, Endpoint, Event
from webhooks.services import create_endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(admin):
    return create_endpoint(
        url="https://hooks.example.com/reflexion", events=[Event.CYCLE_CLOSED], user=admin
    )


@pytest.fixture
def failed(endpoint):
    return Delivery.objects.create(
        endpoint=endpoint,
        event_type=Event.CYCLE_CLOSED,
        event_id="msg_review-cycle-4-closed",
        payload={"type": Event.CYCLE_CLOSED, "data": {}},
        status=Delivery.Status.GAVE_UP,
        attempts=7,
        last_status_code=500,
        last_error="HTTP 500: <script>alert('x')</script>",
        last_attempt_at=timezone.now(),
    )


def every_page(endpoint, delivery) -> list[tuple[str, str]]:
    pk = endpoint.pk
    return [
        ("get", reverse("webhooks:list")),
        ("post", reverse("webhooks:list")),
        ("get", reverse("webhooks:detail", args=[pk])),
        ("post", reverse("webhooks:active", args=[pk])),
        ("get", reverse("webhooks:delete", args=[pk])),
        ("post", reverse("webhooks:delete", args=[pk])),
        ("post", reverse("webhooks:test", args=[pk])),
        ("post", reverse("webhooks:replay", args=[pk, delivery.pk])),
    ]


@pytest.mark.parametrize("roles", [["reviewer"], ["manager"], ["rater"], []])
def test_everyone_but_admins_is_refused_every_page_and_post(roles, endpoint, failed):
    client = client_for(UserFactory(roles=roles))
    for method, url in every_page(endpoint, failed):
        response = getattr(client, method)(url, {"url": "https://x.example/", "active": "0"})
        assert response.status_code == 403, (method, url)
    assert Endpoint.objects.get().active and Delivery.objects.get().status == "gave_up"
    assert Endpoint.objects.count() == 1 and DBTaskResult.objects.count() == 0


def test_signed_out_people_are_sent_to_sign_in(client, endpoint, failed):
    for method, url in every_page(endpoint, failed):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_a_post_without_the_csrf_token_is_refused(admin, endpoint, failed):
    client = client_for(admin, enforce_csrf_checks=True)
    for _, url in [p for p in every_page(endpoint, failed) if p[0] == "post"]:
        assert client.post(url, {"active": "0"}).status_code == 403
    assert Endpoint.objects.get().active


def test_registering_shows_the_secret_once_after_a_redirect(admin):
    client = client_for(admin)
    response = client.post(
        reverse("webhooks:list"),
        {"url": "https://hooks.example.com/in", "events": [Event.REFLECTION_DEPRECATED]},
    )
    assert response.status_code == 302
    endpoint = Endpoint.objects.get()
    assert endpoint.secret.startswith("whsec_") and endpoint.secret.encode() not in response.content
    assert endpoint.events == [Event.REFLECTION_DEPRECATED] and endpoint.created_by == admin

    first = client.get(reverse("webhooks:list"))
    shown = soup_of(first).select_one("#new-secret")
    assert shown.get_text(strip=True) == endpoint.secret
    assert first.content.count(endpoint.secret.encode()) == 1
    assert soup_of(first).select_one("#copy-new-secret")["data-copy-target"] == "new-secret"
    for url in (reverse("webhooks:list"), reverse("webhooks:detail", args=[endpoint.pk])):
        again = client.get(url)
        assert endpoint.secret.encode() not in again.content
        assert soup_of(again).select_one("#new-secret") is None


@pytest.mark.parametrize(
    ("data", "error_in"),
    [
        ({"url": "ftp://hooks.example.com/", "events": ["review_cycle.closed"]}, "url"),
        ({"url": "https://u:p@hooks.example.com/", "events": ["review_cycle.closed"]}, "url"),
        ({"url": "https://hooks.example.com/"}, "events"),
        ({"url": "https://hooks.example.com/", "events": ["reflection.deleted"]}, "events"),
    ],
)
def test_a_bad_address_or_no_known_event_registers_nothing(admin, data, error_in):
    response = client_for(admin).post(reverse("webhooks:list"), data)
    assert response.status_code == 422
    assert Endpoint.objects.count() == 0
    page = soup_of(response)
    assert page.select(".field-error .alert-error")
    assert page.select_one(f"[name={error_in}]").find_parent(class_="field-error")


def test_the_list_counts_each_endpoints_deliveries(admin, endpoint, failed):
    page = soup_of(client_for(admin).get(reverse("webhooks:list")))
    (row,) = page.select("table.endpoints tbody tr")
    cells = [td.get_text(" ", strip=True) for td in row.select("td")]
    assert cells[0] == "https://hooks.example.com/reflexion"
    assert cells[1] == "review_cycle.closed"
    assert cells[2:6] == ["active", "0", "0", "1"]
    assert row.select_one("a")["href"] == reverse("webhooks:detail", args=[endpoint.pk])


def test_the_delivery_log_shows_status_attempts_and_the_error_escaped(admin, endpoint, failed):
    response = client_for(admin).get(reverse("webhooks:detail", args=[endpoint.pk]))
    page = soup_of(response)
    row = page.select_one(f"#delivery-{failed.pk}")
    assert row.select_one(".badge").get_text(strip=True) == "Gave up"
    assert row.select_one("td.num").get_text(strip=True) == "7"
    assert row.select_one(".last-error").get_text() == "HTTP 500: <script>alert('x')</script>"
    assert page.select("script") == page.select("script[src]")  # none came from the error
    assert row.select_one("form")["action"] == reverse(
        "webhooks:replay", args=[endpoint.pk, failed.pk]
    )
    assert page.select_one("#send-test") and page.select_one("#disable")


def test_the_log_filters_by_status(admin, endpoint, failed):
    client = client_for(admin)
    url = reverse("webhooks:detail", args=[endpoint.pk])
    assert soup_of(client.get(url, {"status": "gave_up"})).select(f"#delivery-{failed.pk}")
    empty = soup_of(client.get(url, {"status": "delivered"}))
    assert not empty.select("table.deliveries") and empty.select_one(".empty-state")


def test_the_log_reads_a_fixed_number_of_queries(
    admin, endpoint, failed, django_assert_max_num_queries
):
    for n in range(30):
        Delivery.objects.create(endpoint=endpoint, event_type="x", event_id=f"m{n}", payload={})
    client = client_for(admin)
    with django_assert_max_num_queries(8):
        client.get(reverse("webhooks:detail", args=[endpoint.pk]))


def test_replay_queues_the_delivery_again(
    admin, endpoint, failed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(admin).post(reverse("webhooks:replay", args=[endpoint.pk, failed.pk]))
    assert response.status_code == 302
    failed.refresh_from_db()
    assert (failed.status, failed.attempts, failed.replays) == ("pending", 0, 1)
    assert queued_deliveries() == [failed.pk]


def test_replay_of_another_endpoints_delivery_is_404(admin, endpoint, failed):
    other = create_endpoint(url="https://b.example/", events=[Event.CYCLE_CLOSED], user=admin)
    response = client_for(admin).post(reverse("webhooks:replay", args=[other.pk, failed.pk]))
    assert response.status_code == 404


def test_send_test_event_queues_a_test_delivery(
    admin, endpoint, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client_for(admin).post(reverse("webhooks:test", args=[endpoint.pk]))
    row = Delivery.objects.get()
    assert row.event_type == TEST_EVENT and row.payload["data"]["sent_by"] == "ada"
    assert queued_deliveries() == [row.pk]


def test_disable_then_enable(admin, endpoint):
    client = client_for(admin)
    client.post(reverse("webhooks:active", args=[endpoint.pk]), {"active": "0"})
    assert not Endpoint.objects.get().active
    page = soup_of(client.get(reverse("webhooks:detail", args=[endpoint.pk])))
    assert page.select_one("#send-test").has_attr("disabled") and page.select_one("#enable")
    client.post(reverse("webhooks:active", args=[endpoint.pk]), {"active": "1"})
    assert Endpoint.objects.get().active


def test_delete_asks_first_then_removes_the_endpoint_and_its_log(admin, endpoint, failed):
    client = client_for(admin)
    ask = soup_of(client.get(reverse("webhooks:delete", args=[endpoint.pk])))
    assert "hooks.example.com/reflexion" in ask.select_one("h1").get_text()
    assert ask.select_one("#delete-confirm")["method"] == "post"
    assert Endpoint.objects.count() == 1
    response = client.post(reverse("webhooks:delete", args=[endpoint.pk]))
    assert response.status_code == 302
    assert Endpoint.objects.count() == 0 and Delivery.objects.count() == 0


def test_admins_find_webhooks_in_the_manage_menu(admin):
    page = soup_of(client_for(admin).get(reverse("webhooks:list")))
    link = page.select_one(f".navmenu a[href='{reverse('webhooks:list')}']")
    assert link["aria-current"] == "page"
    reviewer_page = soup_of(client_for(UserFactory(roles=["reviewer"])).get("/reflections/"))
    assert not reviewer_page.select(f"a[href='{reverse('webhooks:list')}']")


def test_the_list_reads_a_fixed_number_of_queries(admin, django_assert_max_num_queries):
    for n in range(12):
        endpoint = create_endpoint(
            url=f"https://h{n}.example/", events=[Event.CYCLE_CLOSED], user=admin
        )
        Delivery.objects.create(endpoint=endpoint, event_type="x", event_id="m", payload={})
    client = client_for(admin)
    with django_assert_max_num_queries(7):
        page = soup_of(client.get(reverse("webhooks:list")))
    assert len(page.select("table.endpoints tbody tr")) == 12


def test_the_log_pages_fifty_at_a_time_newest_first(admin, endpoint):
    for n in range(55):
        Delivery.objects.create(endpoint=endpoint, event_type="x", event_id=f"m{n}", payload={})
    client = client_for(admin)
    url = reverse("webhooks:detail", args=[endpoint.pk])
    first = soup_of(client.get(url))
    assert len(first.select("table.deliveries tbody tr")) == 50
    assert "m54" in first.select_one("table.deliveries tbody tr").get_text()
    second = soup_of(client.get(url + first.select_one(".pager a")["href"]))
    assert len(second.select("table.deliveries tbody tr")) == 5
