"""In a real browser, against a real OpenID Connect provider process on loopback
(oidc-provider-mock): a reviewer signs in through it and sees their department only, a person
whose claims grant no role is refused and told why, and a role changed at the provider takes
effect at the next sign-in (the old role gone)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from tests.browser.support import BROWSER, recording_page
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory
from tests.sso import PROVIDER_NAME, provider_process, set_claims, single_sign_on

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

NO_ROLE = (
    "Your identity provider grants you no role in Reflexion Review (claim 'groups'); "
    "ask your administrator."
)
WIDE = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def provider():
    with provider_process() as issuer:
        yield issuer


@pytest.fixture
def sso(provider):
    with single_sign_on(provider):
        yield provider


@pytest.fixture
def two_departments():
    """One reflection in each of two departments: who sees which tells their departments."""
    for slug in ("coding", "ops"):
        department = DepartmentFactory(slug=slug)
        ReflectionFactory(agent=AgentFactory(department=department), title=f"Lesson of {slug}")


def sign_in_through_provider(page, live_server, sub: str) -> None:
    """The button, then the provider's own page: authorize as `sub`."""
    page.goto(f"{live_server.url}/login/?next=/reflections/")
    page.click("#signin-sso")
    page.wait_for_url("**/oauth2/authorize?**")
    page.fill("#subject-input", sub)
    page.click("form:has(#subject-input) button[type=submit]")
    page.wait_for_url(f"{live_server.url}/**")


def roles_shown(page) -> list[str]:
    return page.locator(".badge-role").all_inner_texts()


def titles_shown(page) -> set[str]:
    return {t.strip() for t in page.locator("table.reflections td.col-title a").all_inner_texts()}


def recording_own_errors(page, live_server):
    """The page, recording the console errors shown while it was on the project's pages: the
    provider's own page (its stylesheet from a CDN, unreachable here) is not the project's."""
    page.own_errors = []

    def record(message):
        if message.type == "error" and page.url.startswith(live_server.url):
            page.own_errors.append(message.text)

    page.on("console", record)
    page.on("pageerror", lambda e: page.own_errors.append(str(e)))
    return page


def own_page_errors(page) -> list[str]:
    return page.csp_violations + page.own_errors


def test_a_reviewer_signs_in_then_comes_back_as_a_manager(
    browser, live_server, sso, two_departments, tmp_path
):
    set_claims(
        sso,
        "ada-sub",
        {"preferred_username": "ada", "groups": ["reviewer"], "departments": ["coding"]},
    )
    page = recording_own_errors(
        recording_page(browser.new_context(viewport={"width": 1440, "height": 900})), live_server
    )

    sign_in_through_provider(page, live_server, "ada-sub")

    assert page.url == f"{live_server.url}/reflections/"
    assert roles_shown(page) == ["reviewer"]
    assert titles_shown(page) == {"Lesson of coding"}

    page.click("form.signout button[type=submit]")
    page.wait_for_url(f"{live_server.url}/login/")
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["manager"]})

    sign_in_through_provider(page, live_server, "ada-sub")

    assert page.url == f"{live_server.url}/reflections/"
    assert roles_shown(page) == ["manager"]
    assert titles_shown(page) == {"Lesson of coding", "Lesson of ops"}
    assert own_page_errors(page) == []


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_a_person_whose_claims_grant_no_role_is_refused_and_told_why(
    browser, live_server, sso, width, height, tmp_path
):
    set_claims(sso, "bo-sub", {"preferred_username": "bo", "groups": ["staff"]})
    page = recording_own_errors(
        recording_page(browser.new_context(viewport={"width": width, "height": height})),
        live_server,
    )
    page.goto(f"{live_server.url}/login/")
    assert page.inner_text("#signin-sso") == f"Sign in with {PROVIDER_NAME}"
    assert page.locator("#id_password").count() == 0  # never a password form for them
    assert page.evaluate(WIDE)
    page.screenshot(path=str(tmp_path / f"sign-in-{width}.png"), full_page=True)

    sign_in_through_provider(page, live_server, "bo-sub")

    assert page.url == f"{live_server.url}/login/"
    assert page.inner_text("#signin-message") == NO_ROLE
    assert page.locator("#signin-sso").is_visible()
    assert page.evaluate(WIDE)
    page.screenshot(path=str(tmp_path / f"refused-{width}.png"), full_page=True)
    page.goto(f"{live_server.url}/reflections/")
    assert page.url == f"{live_server.url}/login/?next=/reflections/"  # no session
    assert own_page_errors(page) == []


def test_signing_out_ends_the_session_at_the_provider_and_comes_back(browser, live_server, sso):
    """With OIDC_LOGOUT_AT_PROVIDER the sign-out form's answer redirects to the provider: the
    page's CSP form-action names the provider's origin, as the settings add it."""
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["reviewer"]})
    csp = {**settings.SECURE_CSP, "form-action": [*settings.SECURE_CSP["form-action"], sso]}
    with override_settings(OIDC_LOGOUT_AT_PROVIDER=True, SECURE_CSP=csp):
        page = recording_own_errors(
            recording_page(browser.new_context(viewport={"width": 1280, "height": 800})),
            live_server,
        )
        sign_in_through_provider(page, live_server, "ada-sub")
        assert roles_shown(page) == ["reviewer"]

        page.click("form.signout button[type=submit]")
        page.wait_for_url(f"{sso}/oauth2/end_session?**")
        page.click("button:has-text('End session')")
        page.wait_for_url(f"{live_server.url}/login/")

        page.goto(f"{live_server.url}/reflections/")
        assert page.url == f"{live_server.url}/login/?next=/reflections/"
        assert own_page_errors(page) == []
