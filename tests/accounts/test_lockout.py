"""Repeated failed sign-ins lock a username from one address for a while: the sign-in page says
so (429), the right password is refused meanwhile, the lock ends by itself, and one line is
logged per lockout, never with the password."""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.lockout import client_address
from tests.accounts.conftest import ELSEWHERE, HOME, PASSWORD, WRONG, fail, sign_in
from tests.factories import UserFactory
from tests.pages import soup_of

pytestmark = pytest.mark.django_db


def lockout_text(response) -> str | None:
    alert = soup_of(response).select_one("#signin-lockout")
    return alert.get_text(" ", strip=True) if alert else None


def signed_in(response) -> bool:
    return response.status_code == 302 and response.url == "/reflections/"


def age_attempts(minutes: int) -> None:
    """As if the failures on record had happened `minutes` earlier."""
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=minutes))


def test_four_wrong_passwords_are_told_apart_from_the_fifth_which_locks(bea):
    for _ in range(4):
        response = sign_in("bea", WRONG)
        assert response.status_code == 200
        assert lockout_text(response) is None
        assert "correct username and password" in soup_of(response).select_one(".alert").text

    response = sign_in("bea", WRONG)

    assert response.status_code == 429
    assert lockout_text(response) == (
        "Too many failed sign-ins for this account from this address; "
        "try again in 15 minutes or ask an admin to unlock it."
    )


def test_the_locked_out_page_is_the_projects_sign_in_form_again(bea):
    page = soup_of(fail(5))

    assert page.select_one("h1").text == "Sign in"
    form = page.select_one("form[action='/login/']")
    assert form.select_one("#id_username")["value"] == "bea"
    assert form.select_one("input[name=next]")["value"] == "/reflections/"
    assert form.select_one("input[name=csrfmiddlewaretoken]")


def test_the_right_password_is_refused_while_locked(bea):
    fail(5)
    client = Client()

    response = sign_in("bea", PASSWORD, client=client)

    assert response.status_code == 429
    assert lockout_text(response).startswith("Too many failed sign-ins")
    assert "_auth_user_id" not in client.session


def test_a_name_nobody_has_is_locked_in_the_same_words(bea):
    for_bea, for_nobody = fail(5, "bea"), fail(5, "nobody-here")

    assert for_nobody.status_code == for_bea.status_code == 429
    assert lockout_text(for_nobody) == lockout_text(for_bea)


def test_the_lock_holds_until_the_cool_off_has_passed_then_ends_by_itself(bea):
    fail(5)

    age_attempts(14)
    almost = sign_in("bea", PASSWORD)
    assert almost.status_code == 429
    assert "try again in 1 minute or" in lockout_text(almost)

    age_attempts(16)
    assert signed_in(sign_in("bea", PASSWORD))


def test_tries_while_locked_neither_count_nor_push_the_end_further(bea):
    fail(5)
    age_attempts(10)

    fail(3)

    assert AccessAttempt.objects.get().failures_since_start == 5
    assert "try again in 5 minutes" in lockout_text(sign_in("bea", WRONG))


def test_the_cool_off_and_the_limit_come_from_the_settings(bea, settings):
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = timedelta(minutes=40)

    assert fail(1).status_code == 200
    assert "try again in 40 minutes" in lockout_text(fail(1))


def test_a_success_forgets_the_failures_before_it(bea):
    fail(4)
    assert signed_in(sign_in("bea", PASSWORD))

    assert fail(4).status_code == 200
    assert not AccessAttempt.objects.filter(failures_since_start__gt=4).exists()


def test_the_same_person_from_another_address_is_not_locked(bea):
    fail(5)

    assert signed_in(sign_in("bea", PASSWORD, address=ELSEWHERE))
    assert sign_in("bea", PASSWORD, address=HOME).status_code == 429


def test_one_address_locking_a_username_leaves_every_other_username_alone(bea):
    UserFactory(username="cai")
    fail(5, "bea")

    assert signed_in(sign_in("cai", PASSWORD, address=HOME))


def test_the_admin_sites_sign_in_is_counted_the_same_way(bea):
    for _ in range(5):
        response = Client().post(
            "/admin/login/", {"username": "bea", "password": WRONG}, REMOTE_ADDR=HOME
        )

    assert response.status_code == 429
    assert sign_in("bea", PASSWORD).status_code == 429


def test_what_is_stored_of_a_failure_holds_no_password_and_no_form_token(bea):
    form = {"username": "bea", "password": WRONG, "csrfmiddlewaretoken": "form-token-5521"}
    for _ in range(5):
        Client().post("/login/", form, REMOTE_ADDR=HOME)

    (row,) = AccessAttempt.objects.values()
    assert row["username"] == "bea" and row["ip_address"] == HOME
    assert row["failures_since_start"] == 5
    assert WRONG not in str(row) and "form-token-5521" not in str(row)
    assert "password=********************" in row["post_data"]
    assert "csrfmiddlewaretoken=********************" in row["post_data"]


@pytest.fixture
def server_log():
    """What the configured console handler writes, as the server's log would hold it."""
    (handler,) = [h for h in logging.getLogger().handlers if h.filters]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_lockout_is_one_log_line_naming_the_pair_and_never_the_password(bea, server_log):
    fail(5)
    fail(3)  # refused while locked: no new lockout
    sign_in("bea", PASSWORD)

    log = server_log.getvalue()
    lines = [line for line in log.splitlines() if "Sign-in locked" in line]
    assert len(lines) == 1
    assert lines[0].endswith(
        f"Sign-in locked for 15 min: username 'bea' from {HOME} after 5 failed sign-ins"
    )
    assert WRONG not in log and PASSWORD not in log


def test_a_username_that_ends_lines_is_logged_on_one_line(server_log):
    fail(5, "mallory\nSign-in unlocked by admin")

    lines = [line for line in server_log.getvalue().splitlines() if "Sign-in" in line]
    assert len(lines) == 1
    assert "'mallory\\nSign-in unlocked by admin'" in lines[0]


def request_from(peer: str, forwarded: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().post("/login/", REMOTE_ADDR=peer, **headers)


def test_without_proxies_the_address_is_the_peers_whatever_the_request_claims(settings):
    settings.LOGIN_PROXY_COUNT = 0

    assert client_address(request_from("192.0.2.1", "203.0.113.5")) == "192.0.2.1"


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the client's own entry is not believed
        (2, "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (1, "2001:db8::1", "2001:db8::1"),
        (2, "203.0.113.5", "10.0.0.1"),  # fewer entries than proxies: the peer
        (1, "not-an-address", "10.0.0.1"),
        (1, "", "10.0.0.1"),
    ],
)
def test_behind_proxies_the_address_is_the_one_the_outermost_proxy_saw(
    settings, proxies, forwarded, expected
):
    settings.LOGIN_PROXY_COUNT = proxies

    assert client_address(request_from("10.0.0.1", forwarded)) == expected
