"""A parameter holding a NUL character is refused before any view reads it: no text field can
hold one, and PostgreSQL refuses it in any statement (a search given one was a 500 there)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from api.services.tokens import create_token
from tests.factories import ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client, sales):
    ReflectionFactory(department=sales)
    client.force_login(UserFactory(roles=["manager"], departments=[sales]))
    return client


@pytest.mark.parametrize("parameter", ["q", "agent", "department"])
def test_a_reflection_search_holding_a_nul_is_refused_naming_the_parameter(manager, parameter):
    answer = manager.get("/reflections/", {parameter: "ledger\x00"})

    assert answer.status_code == 400
    assert answer.content.decode() == f"{parameter}: holds a NUL character, which no field can hold"


def test_the_same_search_without_the_nul_is_answered(manager):
    assert manager.get("/reflections/", {"q": "ledger"}).status_code == 200


@pytest.mark.parametrize("encoding", ["urlencoded", "multipart"])
def test_a_posted_form_field_holding_a_nul_is_refused(client, encoding):
    fields = {"username": "ana\x00", "password": "x"}
    if encoding == "urlencoded":
        answer = client.post(
            "/login/", urlencode(fields), content_type="application/x-www-form-urlencoded"
        )
    else:
        answer = client.post("/login/", fields)

    assert answer.status_code == 400
    assert b"username: holds a NUL character" in answer.content


def test_the_api_answers_a_nul_in_json_as_its_other_refusals(client, sales):
    token = create_token(name="runtime", scope="retrieve")[1]

    answer = client.get(
        "/api/v1/changes",
        {"department": "sales\x00"},
        headers={"Authorization": f"Bearer {token}"},
    )

    assert answer.status_code == 400
    assert answer.json() == {"detail": "department: holds a NUL character, which no field can hold"}
