"""In a real browser: five wrong passwords lock a person out with the reason on the sign-in
page; an admin finds the lockout under Manage (desktop and phone) and lets them back in."""

from __future__ import annotations

import pytest

from tests.browser.support import BROWSER, assert_no_csp_violations, recording_page, sign_in
from tests.factories import UserFactory

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

WIDE = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def test_a_locked_out_person_is_told_why_and_an_admin_lets_them_back_in(
    browser, live_server, tmp_path
):
    UserFactory(username="bea", roles=["reviewer"])
    UserFactory(username="root", roles=["admin"])
    person = recording_page(browser.new_context(viewport={"width": 1280, "height": 800}))
    person.goto(f"{live_server.url}/login/?next=/reflections/")
    for _ in range(5):
        person.fill("#id_username", "bea")
        person.fill("#id_password", "not my password")
        with person.expect_response(lambda r: r.request.method == "POST") as answer:
            person.click("main button[type=submit]")
    assert answer.value.status == 429
    assert person.inner_text("#signin-lockout").startswith(
        "Too many failed sign-ins for this account from this address; try again in 15 minutes"
    )
    person.screenshot(path=str(tmp_path / "locked-out.png"), full_page=True)

    for width, height in ((390, 844), (1440, 900)):
        admin = recording_page(browser.new_context(viewport={"width": width, "height": height}))
        sign_in(admin, live_server, "root", to="/sign-in-lockouts/")
        assert admin.locator("table.lockouts tbody tr").count() == 1
        assert admin.inner_text("table.lockouts tbody td >> nth=0") == "bea"
        assert admin.evaluate(WIDE)
        admin.screenshot(path=str(tmp_path / f"lockouts-{width}.png"), full_page=True)
        assert_no_csp_violations(admin)

    admin.click("table.lockouts a:has-text('Unlock')")
    assert "bea" in admin.inner_text("h1")
    admin.screenshot(path=str(tmp_path / "unlock-confirm.png"), full_page=True)
    admin.click("#unlock-confirm button[type=submit]")
    admin.wait_for_url(f"{live_server.url}/sign-in-lockouts/")
    assert "may sign in from" in admin.inner_text(".alert-ok")
    assert admin.locator("table.lockouts").count() == 0
    assert_no_csp_violations(admin)

    sign_in(person, live_server, "bea")
    assert person.csp_violations == []
    # The browser reports the 429 itself as a console error; nothing else may be there.
    errors = [m for m in person.console_messages if m.startswith(("error", "pageerror"))]
    assert [m for m in errors if "status of 429" not in m] == []
    assert len(errors) == 1
