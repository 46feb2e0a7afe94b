"""Admins see who is locked out from where (Manage → Sign-in lockouts) and unlock one after a
confirmation; nobody else may, and a locked-out admin has a command."""

from __future__ import annotations

import io
import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.accounts.conftest import ELSEWHERE, HOME, PASSWORD, fail, sign_in
from tests.factories import UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

LIST = "/sign-in-lockouts/"
UNLOCK = "/sign-in-lockouts/unlock/"


@pytest.fixture
def admin():
    return UserFactory(username="ada", roles=["admin"])


def rows(response) -> list[list[str]]:
    return [
        [cell.get_text(" ", strip=True) for cell in row.select("td")][:3]
        for row in soup_of(response).select("table.lockouts tbody tr")
    ]


def test_the_page_lists_each_locked_pair_with_its_failures(admin, bea):
    fail(5, "bea")
    fail(5, "nobody-here", address=ELSEWHERE)
    fail(4, "bea", address=ELSEWHERE)  # one short of the limit: not locked

    response = client_for(admin).get(LIST)

    assert response.status_code == 200
    assert sorted(rows(response)) == [["bea", HOME, "5"], ["nobody-here", ELSEWHERE, "5"]]
    since = soup_of(response).select("table.lockouts tbody tr")[0].select("td time")
    assert len(since) == 2  # locked since, unlocks by itself


def test_the_page_says_so_when_nobody_is_locked_out(admin):
    page = soup_of(client_for(admin).get(LIST))

    assert page.select_one("table.lockouts") is None
    assert page.select_one(".empty-state").text == "No username is locked out now."


def test_unlocking_asks_first_then_lets_the_person_in(admin, bea):
    fail(5)
    client = client_for(admin)

    link = soup_of(client.get(LIST)).select_one("table.lockouts a.button")["href"]
    confirm = client.get(link)
    assert confirm.status_code == 200
    assert sign_in("bea", PASSWORD).status_code == 429  # asking changed nothing
    form = soup_of(confirm).select_one("form#unlock-confirm")
    fields = {i["name"]: i.get("value") for i in form.select("input")}
    assert {fields["username"], fields["address"]} == {"bea", HOME}
    assert "csrfmiddlewaretoken" in fields

    done = client.post(UNLOCK, {"username": "bea", "address": HOME}, follow=True)

    assert done.redirect_chain == [(LIST, 302)]
    assert rows(done) == []
    assert "'bea' may sign in from 198.51.100.7 again" in soup_of(done).select_one(".alert-ok").text
    assert sign_in("bea", PASSWORD).url == "/reflections/"


def test_unlocking_one_address_leaves_the_pairs_other_locks(admin, bea):
    fail(5, address=HOME)
    fail(5, address=ELSEWHERE)

    client_for(admin).post(UNLOCK, {"username": "bea", "address": HOME})

    assert sign_in("bea", PASSWORD, address=HOME).status_code == 302
    assert sign_in("bea", PASSWORD, address=ELSEWHERE).status_code == 429


def test_an_unlock_is_logged_with_who_did_it(admin, bea):
    fail(5)
    (handler,) = [h for h in logging.getLogger().handlers if h.filters]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        client_for(admin).post(UNLOCK, {"username": "bea", "address": HOME})
    finally:
        handler.setStream(previous)

    assert f"Sign-in unlocked by ada: username 'bea' from {HOME}" in stream.getvalue()


def test_the_confirmation_of_a_pair_not_locked_offers_no_button(admin):
    page = soup_of(client_for(admin).get(UNLOCK, {"username": "bea", "address": HOME}))

    assert page.select_one("form#unlock-confirm") is None
    assert "is not locked out" in page.select_one("main").text


@pytest.mark.parametrize("role", ["reviewer", "rater", "manager"])
def test_no_other_role_may_see_or_unlock(role, bea):
    fail(5)
    client = client_for(UserFactory(roles=[role]))

    assert client.get(LIST).status_code == 403
    assert client.get(UNLOCK, {"username": "bea", "address": HOME}).status_code == 403
    assert client.post(UNLOCK, {"username": "bea", "address": HOME}).status_code == 403
    assert sign_in("bea", PASSWORD).status_code == 429


def test_someone_signed_out_is_sent_to_sign_in(bea):
    fail(5)

    assert Client().get(LIST).url.startswith("/login/?next=")
    assert Client().post(UNLOCK, {"username": "bea", "address": HOME}).status_code == 302
    assert sign_in("bea", PASSWORD).status_code == 429


def test_an_unlock_without_the_form_token_is_refused(admin, bea):
    fail(5)

    response = client_for(admin, enforce_csrf_checks=True).post(
        UNLOCK, {"username": "bea", "address": HOME}
    )

    assert response.status_code == 403
    assert sign_in("bea", PASSWORD).status_code == 429


def test_a_typed_username_is_shown_as_text(admin):
    fail(5, "<img src=x onerror=alert(1)>")

    page = soup_of(client_for(admin).get(LIST))

    assert page.select("table.lockouts img") == []
    assert page.select_one("table.lockouts td").text == "<img src=x onerror=alert(1)>"


def test_the_page_reads_the_same_number_of_queries_for_one_lockout_or_many(admin):
    client = client_for(admin)
    fail(5, "one")
    client.get(LIST)  # the session and the menus settle
    with CaptureQueriesContext(connection) as one:
        client.get(LIST)
    for name in ("two", "three", "four"):
        fail(5, name)
    with CaptureQueriesContext(connection) as many:
        response = client.get(LIST)

    assert len(rows(response)) == 4
    assert len(many) == len(one)


def test_only_admins_find_the_page_in_the_manage_menu(admin):
    link = "nav .navmenu a[href='/sign-in-lockouts/']"

    assert soup_of(client_for(admin).get(LIST)).select_one(link).text == "Sign-in lockouts"
    reviewer = client_for(UserFactory(roles=["reviewer"]))
    assert soup_of(reviewer.get("/reflections/")).select_one(link) is None


def test_the_command_unlocks_a_username_from_every_address(bea):
    fail(5, address=HOME)
    fail(5, address=ELSEWHERE)
    fail(5, "cai")
    out = StringIO()

    call_command("unlock_sign_in", "bea", stdout=out)

    assert out.getvalue().startswith("Unlocked 'bea'")
    assert sign_in("bea", PASSWORD, address=HOME).status_code == 302
    assert sign_in("bea", PASSWORD, address=ELSEWHERE).status_code == 302
    assert sign_in("cai", PASSWORD).status_code == 429


def test_the_command_says_when_there_was_nothing_to_unlock():
    out = StringIO()

    call_command("unlock_sign_in", "bea", stdout=out)

    assert "nothing to unlock" in out.getvalue()
