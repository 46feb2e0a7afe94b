"""An admin in a real browser: creates an API token (shown once), sees it work, revokes it;
reads the API documentation page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from api.models import ApiToken
from tests.browser.support import BROWSER, assert_no_csp_violations, record_clipboard, sign_in
from tests.factories import UserFactory

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]


def test_an_admin_creates_a_token_once_and_revokes_it(page, live_server, tmp_path):
    UserFactory(username="root", roles=["admin"])
    sign_in(page, live_server, "root", to="/api-tokens/")

    page.fill("#id_name", "runtime-eu")
    page.check("input[name=scope][value=retrieve]")
    page.click("main button[type=submit]:has-text('Create token')")
    token = page.inner_text("#new-token").strip()
    assert token.startswith("rrapi_")
    page.screenshot(path=str(tmp_path / "tokens.png"), full_page=True)
    answer = page.request.get(
        f"{live_server.url}/api/v1/changes", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status == 200
    assert_no_csp_violations(page)

    page.goto(f"{live_server.url}/api-tokens/")
    assert token not in page.content()
    page.click("main a:has-text('Revoke')")
    assert "runtime-eu" in page.inner_text("h1")
    page.click("#revoke-confirm button[type=submit]")
    assert "revoked" in page.inner_text("main")
    answer = page.request.get(
        f"{live_server.url}/api/v1/changes", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status == 401


def test_reloading_after_creating_a_token_creates_no_second_one_nor_shows_the_secret(
    page, live_server
):
    UserFactory(username="root", roles=["admin"])
    sign_in(page, live_server, "root", to="/api-tokens/")
    page.fill("#id_name", "ci-orchestrator")
    page.check("input[name=scope][value=ingest]")
    page.click("main button[type=submit]:has-text('Create token')")
    token = page.inner_text("#new-token").strip()

    page.reload()
    assert ApiToken.objects.filter(revoked_at__isnull=True).count() == 1
    assert page.locator("#new-token").count() == 0
    assert token not in page.content()
    assert page.locator("table.tokens tbody tr").count() == 1
    assert_no_csp_violations(page)


def test_the_copy_button_puts_the_new_token_on_the_clipboard(page, live_server):
    UserFactory(username="root", roles=["admin"])
    record_clipboard(page)
    sign_in(page, live_server, "root", to="/api-tokens/")
    page.fill("#id_name", "runtime-eu")
    page.check("input[name=scope][value=retrieve]")
    page.click("main button[type=submit]:has-text('Create token')")
    token = page.inner_text("#new-token").strip()

    page.click("button:has-text('Copy')")
    expect(page.locator("#copy-new-token-status")).to_have_text("Copied to the clipboard.")
    assert page.evaluate("window.__copied") == [token]
    assert_no_csp_violations(page)


def test_the_copy_button_is_out_of_sight_until_its_script_has_run(page, live_server):
    """A click before copy.js is there would do nothing: the button appears with the script."""
    UserFactory(username="root", roles=["admin"])
    page.route(re.compile(r"/js/copy\.js"), lambda route: route.abort())
    sign_in(page, live_server, "root", to="/api-tokens/")
    page.fill("#id_name", "runtime-eu")
    page.check("input[name=scope][value=retrieve]")
    page.click("main button[type=submit]:has-text('Create token')")
    expect(page.locator("#new-token")).to_be_visible()
    expect(page.locator("#copy-new-token")).to_be_hidden()


def test_a_token_past_its_expiry_date_is_refused_and_listed_as_expired(page, live_server):
    UserFactory(username="root", roles=["admin"])
    sign_in(page, live_server, "root", to="/api-tokens/")
    page.fill("#id_name", "short-lived")
    page.check("input[name=scope][value=retrieve]")
    page.fill("#id_expires_on", f"{timezone.localdate():%Y-%m-%d}")
    page.click("main button[type=submit]:has-text('Create token')")
    token = page.inner_text("#new-token").strip()
    changes = f"{live_server.url}/api/v1/changes"
    bearer = {"Authorization": f"Bearer {token}"}
    assert page.request.get(changes, headers=bearer).status == 200

    ApiToken.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    answer = page.request.get(changes, headers=bearer)
    assert answer.status == 401
    assert "this token expired on" in answer.json()["detail"]
    page.reload()
    assert page.inner_text("table.tokens .token-status") == "expired"


def test_the_api_documentation_renders_for_an_admin(page, live_server, tmp_path):
    UserFactory(username="root", roles=["admin"])
    sign_in(page, live_server, "root", to="/api-tokens/")
    page.goto(f"{live_server.url}/api/v1/docs")
    page.wait_for_selector(".opblock-summary-path")
    page.screenshot(path=str(tmp_path / "docs.png"), full_page=True)
    assert "/api/v1/changes" in page.inner_text("body")
    assert not [m for m in page.console_messages if m.startswith(("error", "pageerror"))]
