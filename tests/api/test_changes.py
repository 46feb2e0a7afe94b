"""The change feed: state changes in order, paged by an opaque cursor, so a runtime that polls
it evicts what was deprecated or quarantined and takes back what was restored."""

from __future__ import annotations

import pytest

from reflections.models import State
from tests.factories import (
    DepartmentFactory,
    ReflectionFactory,
    ReflectionHistoryFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _changes(n: int, department=None):
    person = UserFactory(roles=["admin"])
    made = []
    for i in range(n):
        r = ReflectionFactory(**({"department": department} if department else {}))
        to = State.ARCHIVED if i % 2 else State.DEPRECATED
        r.change_state(to, by=person, why=f"change {i}")
        made.append(r)
    return made


def test_an_empty_feed_answers_the_cursor_it_was_given(runtime):
    answer = runtime.get("/changes").json()
    assert answer == {"changes": [], "next": None, "more": False}


def test_changes_come_in_order_and_page_by_cursor_to_the_end(runtime):
    made = _changes(5)
    first = runtime.get("/changes", limit=2).json()
    assert [c["reflection"]["id"] for c in first["changes"]] == [made[0].pk, made[1].pk]
    assert first["more"] is True

    second = runtime.get("/changes", since=first["next"], limit=2).json()
    third = runtime.get("/changes", since=second["next"], limit=2).json()
    assert [c["reflection"]["id"] for c in second["changes"] + third["changes"]] == [
        r.pk for r in made[2:]
    ]
    assert third["more"] is False
    # Polling again with the last cursor: nothing new, the same cursor back.
    idle = runtime.get("/changes", since=third["next"]).json()
    assert idle["changes"] == [] and idle["next"] == third["next"]


def test_a_deprecation_says_evict_and_an_archive_does_not(runtime):
    _changes(2)
    changes = runtime.get("/changes").json()["changes"]
    assert [(c["to_state"], c["evict"]) for c in changes] == [
        (State.DEPRECATED, True),
        (State.ARCHIVED, False),
    ]


def test_the_feed_can_follow_one_department(runtime):
    sales = DepartmentFactory(slug="sales")
    mine = _changes(2, department=sales)
    _changes(2)
    changes = runtime.get("/changes", department="sales").json()["changes"]
    assert [c["reflection"]["id"] for c in changes] == [r.pk for r in mine]


def test_a_cursor_that_was_not_made_by_the_feed_is_a_400(runtime):
    response = runtime.get("/changes", since="not-a-cursor!")
    assert response.status_code == 400
    assert "since:" in response.json()["detail"]
    assert runtime.get("/changes", limit=0).status_code == 400


def test_a_quarantined_reflection_shows_no_path_or_reason_that_holds_the_secret(runtime):
    secret = "AKIAZ7Q3XK5R2M4W6N8P"
    r = ReflectionFactory(source_path=f"memory/reflexions/{secret}.md", state=State.QUARANTINED)
    ReflectionHistoryFactory(
        reflection=r, change="state", from_state="active", to_state=State.QUARANTINED,
        actor=None, actor_label="scan", reason=f"found {secret}",
    )  # fmt: skip
    answer = runtime.get("/changes")
    assert secret not in answer.content.decode()
    assert answer.json()["changes"][0]["evict"] is True


@pytest.mark.parametrize("forged", ["[0]", "[99999999]", "[null]", f"[{2**64}]"])
def test_a_cursor_this_server_did_not_give_is_refused_with_400(runtime, forged):
    from reflexion_site import keyset

    _changes(2)
    for cursor in (forged, keyset.cursor_of([2**64]), keyset.cursor_of([0])):
        response = runtime.get("/changes", since=cursor)
        assert response.status_code == 400, cursor
        assert "not a cursor this server gave" in response.json()["detail"]


def test_a_request_without_a_token_is_told_the_scheme_to_use(db):
    from django.test import Client

    response = Client().get("/api/v1/changes")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="reflexion-review"'
