"""API tokens: created by a command or an admin page, shown once, stored hashed, scoped,
revoked; bearer-only on the API and never a way into the pages."""

from __future__ import annotations

import hashlib
import json
from datetime import date, timedelta
from io import StringIO

import pytest
from django.contrib.staticfiles import finders
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from api.models import ApiToken
from api.services.tokens import WrongScope, create_token, end_of_day, token_for
from tests.api.conftest import ApiClient
from tests.factories import UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db


def test_the_command_prints_the_token_on_its_last_line_and_stores_only_its_hash():
    out = StringIO()
    call_command("create_api_token", "--name", "ci", "--scope", "ingest", stdout=out)
    raw = out.getvalue().strip().splitlines()[-1]

    token = ApiToken.objects.get()
    assert raw.startswith("rrapi_") and len(raw) > 40
    assert token.secret_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in str(list(ApiToken.objects.values()))
    assert ApiClient(raw).post("/tasks", []).status_code == 200


def test_the_command_gives_a_token_an_expiry_date():
    out = StringIO()
    call_command(
        "create_api_token",
        "--name",
        "ci",
        "--scope",
        "ingest",
        "--expires",
        "2099-01-31",
        stdout=out,
    )
    assert ApiToken.objects.get().expires_at == end_of_day(date(2099, 1, 31))


def test_the_command_refuses_an_unknown_scope():
    with pytest.raises(CommandError, match="invalid choice: 'admin'"):
        call_command("create_api_token", "--name", "ci", "--scope", "admin")


def test_a_request_without_a_token_or_with_an_unknown_one_is_refused(departments):
    assert ApiClient(None).post("/tasks", []).status_code == 401
    assert ApiClient("rrapi_" + "x" * 43).post("/tasks", []).status_code == 401
    assert ApiClient("not-a-token").get("/changes").status_code == 401


def test_a_token_of_the_other_scope_is_told_which_scope_it_needs(ingest, runtime):
    response = ingest.get("/changes")
    assert response.status_code == 403
    assert "needs 'retrieve'" in response.json()["detail"]
    assert runtime.post("/tasks", []).status_code == 403


def test_whether_a_token_may_call_a_scope_is_decided_by_one_service_function():
    token, raw = create_token(name="ci", scope=ApiToken.Scope.INGEST)
    assert token_for(raw, scope=ApiToken.Scope.INGEST) == token
    with pytest.raises(WrongScope, match="needs 'retrieve'"):
        token_for(raw, scope=ApiToken.Scope.RETRIEVE)
    assert token_for("rrapi_" + "x" * 43, scope=ApiToken.Scope.INGEST) is None


def test_a_signed_in_admin_without_a_token_cannot_use_the_api():
    admin = UserFactory(roles=["admin"])
    client = client_for(admin)
    assert client.post("/api/v1/tasks", "[]", content_type="application/json").status_code == 401
    assert client.get("/api/v1/changes").status_code == 401


def test_a_token_opens_no_page(ingest_token):
    response = ApiClient(ingest_token).client.get(
        reverse("reflections:list"), headers={"Authorization": f"Bearer {ingest_token}"}
    )
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_an_admin_creates_a_token_and_sees_it_once_after_a_redirect():
    admin = UserFactory(roles=["admin"])
    client = client_for(admin)
    response = client.post(reverse("api_tokens:list"), {"name": "runtime-eu", "scope": "retrieve"})
    assert response.status_code == 302 and response["Location"] == reverse("api_tokens:list")

    shown = client.get(reverse("api_tokens:list"))
    raw = soup_of(shown).select_one("#new-token").get_text(strip=True)
    assert raw.startswith("rrapi_")
    assert shown["Cache-Control"].startswith("max-age=0")
    assert ApiClient(raw).get("/changes").status_code == 200
    again = client.get(reverse("api_tokens:list"))
    assert soup_of(again).select_one("#new-token") is None
    assert raw not in again.content.decode()
    assert "runtime-eu" in again.content.decode()
    assert ApiToken.objects.count() == 1


def test_the_new_secret_never_reaches_the_log(caplog):
    client = client_for(UserFactory(roles=["admin"]))
    with caplog.at_level("DEBUG"):
        client.post(reverse("api_tokens:list"), {"name": "ci", "scope": "ingest"})
        raw = soup_of(client.get(reverse("api_tokens:list"))).select_one("#new-token").get_text()
    assert raw.strip() not in caplog.text


def test_a_token_with_an_expiry_date_works_until_the_end_of_that_day():
    client = client_for(UserFactory(roles=["admin"]))
    today = timezone.localdate()
    client.post(
        reverse("api_tokens:list"), {"name": "ci", "scope": "retrieve", "expires_on": today}
    )
    token = ApiToken.objects.get()
    assert token.expires_at == end_of_day(today)
    listed = soup_of(client.get(reverse("api_tokens:list")))
    row = listed.select_one("table.tokens tbody tr")
    assert f"{token.expires_at:%Y-%m-%d}" in row.get_text()
    assert row.select_one(".token-status").get_text(strip=True) == "active"


def test_an_expiry_date_in_the_past_is_refused():
    client = client_for(UserFactory(roles=["admin"]))
    yesterday = timezone.localdate() - timedelta(days=1)
    response = client.post(
        reverse("api_tokens:list"), {"name": "ci", "scope": "ingest", "expires_on": yesterday}
    )
    assert response.status_code == 422
    assert "today or a later day" in soup_of(response).select_one(".field-error").get_text()
    assert not ApiToken.objects.exists()


def test_an_expired_token_is_refused_with_401_saying_it_expired(departments):
    token, raw = create_token(
        name="old", scope="ingest", expires_at=timezone.now() + timedelta(hours=1)
    )
    assert ApiClient(raw).post("/tasks", []).status_code == 200
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    response = ApiClient(raw).post("/tasks", [])
    assert response.status_code == 401
    assert "this token expired on" in response.json()["detail"]
    listed = client_for(UserFactory(roles=["admin"])).get(reverse("api_tokens:list"))
    assert soup_of(listed).select_one(".token-status").get_text(strip=True) == "expired"


def test_revoking_asks_first_naming_the_token(ingest_token):
    admin = UserFactory(roles=["admin"])
    token = ApiToken.objects.get()
    client = client_for(admin)
    listed = soup_of(client.get(reverse("api_tokens:list")))
    link = listed.select_one("table.tokens a[href$='/revoke/']")
    asked = client.get(link["href"])

    assert "orchestrator" in soup_of(asked).select_one("h1").get_text()
    assert ApiToken.objects.get().revoked_at is None
    assert soup_of(asked).select_one("form#revoke-confirm")["action"] == link["href"]
    assert link["href"] == reverse("api_tokens:revoke", args=[token.pk])


def test_an_admin_revokes_a_token_and_it_is_refused_from_then_on(ingest_token):
    admin = UserFactory(roles=["admin"])
    token = ApiToken.objects.get()
    response = client_for(admin).post(reverse("api_tokens:revoke", args=[token.pk]))

    assert response.status_code == 302
    assert ApiClient(ingest_token).post("/tasks", []).status_code == 401


def test_only_admins_see_the_token_pages_and_the_api_docs():
    manager = UserFactory(roles=["manager"])
    token = ApiToken.objects.create(
        name="x", scope="ingest", secret_hash="0" * 64, hint="abcd", created_at="2026-01-01T00:00Z"
    )
    assert client_for(manager).get(reverse("api_tokens:list")).status_code == 403
    assert (
        client_for(manager).post(reverse("api_tokens:revoke", args=[token.pk])).status_code == 403
    )
    assert client_for(manager).get(reverse("api_tokens:revoke", args=[token.pk])).status_code == 403
    assert client_for(manager).get("/api/v1/docs").status_code == 403
    assert client_for(UserFactory(roles=["admin"])).get("/api/v1/docs").status_code == 200


def test_the_api_docs_page_loads_swagger_ui_from_this_site_never_a_cdn():
    page = client_for(UserFactory(roles=["admin"])).get("/api/v1/docs")

    html = page.content.decode()
    assert page.status_code == 200
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert finders.find("ninja/swagger-ui-bundle.js")


def test_token_pages_need_the_csrf_token():
    admin = UserFactory(roles=["admin"])
    client = client_for(admin, enforce_csrf_checks=True)
    response = client.post(reverse("api_tokens:list"), {"name": "x", "scope": "ingest"})
    assert response.status_code == 403
    assert not ApiToken.objects.exists()


def test_the_openapi_schema_lists_every_endpoint_and_has_no_duplicate_keys():
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"duplicate keys in {keys}"
        return dict(pairs)

    schema = json.loads(
        ApiClient(None).get("/openapi.json").content, object_pairs_hook=no_duplicates
    )
    assert {
        "/api/v1/reflections",
        "/api/v1/retrievals",
        "/api/v1/tasks",
        "/api/v1/changes",
        "/api/v1/retrieve",
    } <= set(schema["paths"])
    assert schema["components"]["securitySchemes"]


def test_the_scanner_quarantines_a_reflection_that_holds_a_token(ingest_token):
    from reflections.scanning import scan_text

    assert scan_text(f"use the key {ingest_token} for the API")


def test_a_refused_token_never_reaches_the_log(caplog, departments):
    raw = "rrapi_" + "s3cr3t" * 8
    with caplog.at_level("DEBUG"):
        ApiClient(raw).post("/tasks", [])
        ApiClient(raw).get("/changes")
    assert caplog.records  # the refusals are logged …
    assert raw not in caplog.text  # … without the token
