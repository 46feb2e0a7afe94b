"""Signing in through a real OpenID Connect provider process (oidc-provider-mock on loopback),
with Django's test client: the button, state, nonce and PKCE, the refusal page, axes leaving the
provider's callback alone while still guarding passwords, signing out, an unreachable provider."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client

from tests.accounts.conftest import WRONG, fail, sign_in
from tests.factories import DepartmentFactory, UserFactory
from tests.pages import soup_of
from tests.sso import CLIENT_ID, PROVIDER_NAME, free_port, provider_process, set_claims
from tests.sso import single_sign_on as single_sign_on_at

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
NO_ROLE = (
    "Your identity provider grants you no role in Reflexion Review (claim 'groups'); "
    "ask your administrator."
)


@pytest.fixture(scope="module")
def provider():
    with provider_process() as issuer:
        yield issuer


@pytest.fixture
def sso(provider):
    with single_sign_on_at(provider):
        yield provider


def through_provider(client: Client, sub: str, *, next_url: str = "/reflections/"):
    """Click the button, authorize as `sub` on the provider's page, come back: the answer of
    the callback, and the code the provider issued."""
    start = client.get(f"/oidc/authenticate/?next={next_url}")
    assert start.status_code == 302
    authorized = requests.post(start.url, data={"sub": sub}, allow_redirects=False, timeout=10)
    assert authorized.status_code == 302, authorized.text
    callback = urlsplit(authorized.headers["Location"])
    assert callback.path == "/oidc/callback/"
    code = parse_qs(callback.query)["code"][0]
    return client.get(f"{callback.path}?{callback.query}"), code


def signed_in_as(client: Client):
    from django.contrib.auth import get_user_model

    user_id = client.session.get("_auth_user_id")
    return get_user_model().objects.get(pk=user_id) if user_id else None


def message_on_the_sign_in_page(client: Client) -> str | None:
    alert = soup_of(client.get("/login/")).select_one("#signin-message")
    return alert.get_text(" ", strip=True) if alert else None


def test_without_an_issuer_there_is_no_button_and_no_provider_page():
    assert not settings.OIDC_ISSUER
    page = soup_of(Client().get("/login/"))

    assert page.select_one("#signin-sso") is None
    assert page.select_one("form[action='/login/'] #id_password")
    assert Client().get("/oidc/authenticate/").status_code == 404
    assert "accounts.oidc.SingleSignOnBackend" not in settings.AUTHENTICATION_BACKENDS


def test_the_button_names_the_provider_and_no_password_form_is_shown(sso):
    page = soup_of(Client().get("/login/?next=/reviews/"))

    button = page.select_one("#signin-sso")
    assert button.get_text(strip=True) == f"Sign in with {PROVIDER_NAME}"
    assert button["href"] == "/oidc/authenticate/?next=/reviews/"
    assert page.select_one("#id_password") is None
    link = page.select_one("#signin-password-link")
    assert link["href"] == "/login/?password=1&next=%2Freviews%2F"


def test_a_break_glass_password_account_still_signs_in_by_asking_for_the_form(sso):
    page = soup_of(Client().get("/login/?password=1"))
    assert page.select_one("form[action='/login/'] #id_password")
    assert page.select_one("#signin-sso")

    UserFactory(username="root", roles=["admin"], password="glass-pane-9")
    client = Client()
    client.post("/login/", {"username": "root", "password": "glass-pane-9"})
    assert signed_in_as(client).username == "root"


def test_a_refused_password_keeps_its_form_on_screen(sso):
    page = soup_of(Client().post("/login/", {"username": "root", "password": "nope"}))
    assert page.select_one("form[action='/login/'] #id_password")


def test_the_provider_is_asked_with_state_nonce_and_a_pkce_challenge(sso):
    start = Client().get("/oidc/authenticate/")

    query = parse_qs(urlsplit(start.url).query)
    assert start.url.startswith(f"{sso}/oauth2/authorize?")
    assert query["client_id"] == [CLIENT_ID]
    assert query["redirect_uri"] == ["http://testserver/oidc/callback/"]
    assert query["scope"] == ["openid email profile"]
    assert len(query["state"][0]) >= 32 and len(query["nonce"][0]) >= 32
    assert query["code_challenge_method"] == ["S256"]
    assert query["code_challenge"][0]


def test_a_reviewer_signs_in_with_their_departments_and_nothing_of_the_tokens_is_kept(sso, caplog):
    DepartmentFactory(slug="coding")
    set_claims(
        sso,
        "ada-sub",
        {"preferred_username": "ada", "groups": ["reviewer"], "departments": ["coding"]},
    )
    client = Client()

    with caplog.at_level(logging.DEBUG):
        answer, code = through_provider(client, "ada-sub")

    assert answer.status_code == 302 and answer.url == "/reflections/"
    user = signed_in_as(client)
    assert user.username == "ada"
    assert set(user.groups.values_list("name", flat=True)) == {"reviewer"}
    assert set(user.departments.values_list("slug", flat=True)) == {"coding"}
    assert client.session["_auth_user_backend"] == "accounts.oidc.SingleSignOnBackend"
    assert not {"oidc_access_token", "oidc_id_token"} & set(client.session.keys())
    assert code not in caplog.text
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize(
    ("asked", "landed"),
    [("/reviews/", "/reviews/"), ("https://evil.example/", "/reflections/")],
)
def test_the_page_asked_for_is_where_one_lands_if_it_is_this_sites(sso, asked, landed):
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["manager"]})

    answer, _ = through_provider(Client(), "ada-sub", next_url=asked)

    assert answer.url == landed


def test_a_user_deactivated_here_is_signed_out_at_their_next_request(sso):
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["reviewer"]})
    client = Client()
    through_provider(client, "ada-sub")
    assert client.get("/reflections/").status_code == 200

    signed_in_as(client).__class__.objects.filter(username="ada").update(is_active=False)

    answer = client.get("/reflections/")
    assert answer.status_code == 302 and answer.url.startswith("/login/")


def test_claims_without_a_role_are_refused_on_the_sign_in_page_with_no_session(sso):
    set_claims(sso, "bo-sub", {"preferred_username": "bo", "groups": ["staff"]})
    client = Client()

    answer, _ = through_provider(client, "bo-sub")

    assert answer.status_code == 302 and answer.url == "/login/"
    assert signed_in_as(client) is None
    assert message_on_the_sign_in_page(client) == NO_ROLE


def test_refusals_are_not_counted_as_failed_sign_ins(sso):
    set_claims(sso, "bo-sub", {"groups": []})
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["reviewer"]})
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        through_provider(Client(), "bo-sub")

    client = Client()
    answer, _ = through_provider(client, "ada-sub")

    assert answer.url == "/reflections/"
    assert not AccessAttempt.objects.exists()


def test_passwords_are_still_locked_out_after_repeated_failures(sso):
    UserFactory(username="bea", roles=["reviewer"])

    assert fail(settings.AXES_FAILURE_LIMIT).status_code == 429
    assert sign_in("bea", WRONG).status_code == 429


def test_a_password_form_posted_with_a_code_in_the_address_redeems_nothing(sso, caplog):
    UserFactory(username="bea", roles=["reviewer"])

    with caplog.at_level(logging.WARNING):
        answer = Client().post(
            "/login/?code=stolen&state=x", {"username": "bea", "password": WRONG}
        )

    assert answer.status_code == 200
    assert "Single sign-on failed" not in caplog.text


def test_a_callback_whose_state_this_browser_never_started_is_refused(sso):
    client = Client()

    answer = client.get("/oidc/callback/?code=abc&state=forged")

    assert answer.url == "/login/"
    assert signed_in_as(client) is None
    assert message_on_the_sign_in_page(client) is not None


def test_denying_at_the_provider_says_so(sso):
    client = Client()
    start = client.get("/oidc/authenticate/")
    denied = requests.post(start.url, data={"action": "deny"}, allow_redirects=False, timeout=10)
    back = urlsplit(denied.headers["Location"])

    client.get(f"{back.path}?{back.query}")

    said = message_on_the_sign_in_page(client)
    assert said == f"{PROVIDER_NAME} did not sign you in (access_denied)."


def test_signing_out_ends_the_providers_session_when_asked_to(sso, settings):
    settings.OIDC_LOGOUT_AT_PROVIDER = True
    set_claims(sso, "ada-sub", {"preferred_username": "ada", "groups": ["reviewer"]})
    client = Client()
    through_provider(client, "ada-sub")

    answer = client.post("/logout/")

    end = urlsplit(answer.url)
    assert f"{end.scheme}://{end.netloc}{end.path}" == f"{sso}/oauth2/end_session"
    assert parse_qs(end.query) == {
        "client_id": [CLIENT_ID],
        "post_logout_redirect_uri": ["http://testserver/login/"],
    }
    assert signed_in_as(client) is None


def test_a_password_user_signs_out_to_the_sign_in_page(sso, settings):
    settings.OIDC_LOGOUT_AT_PROVIDER = True
    UserFactory(username="bea", roles=["reviewer"])
    client = Client()
    sign_in("bea", "correct horse battery staple", client=client)

    answer = client.post("/logout/")

    assert answer.url == "/login/"
    assert signed_in_as(client) is None


def test_an_unreachable_provider_is_named_in_the_log_and_explained_on_the_page(caplog):
    issuer = f"http://127.0.0.1:{free_port()}"
    client = Client()

    with single_sign_on_at(issuer), caplog.at_level(logging.ERROR):
        answer = client.get("/oidc/authenticate/")
        message = message_on_the_sign_in_page(client)

    assert answer.url == "/login/"
    assert message == (
        f"Sign-in with {PROVIDER_NAME} is unavailable: the identity provider does not answer. "
        "Try again later."
    )
    assert f"OpenID Connect discovery failed for issuer {issuer}" in caplog.text


PROBE = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.urls import get_resolver
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()  # the test client's host name is allowed
names = set(get_resolver().reverse_dict.keys())
response = Client().get("/login/")
assert response.status_code == 200, response.status_code
page = response.content.decode()
print(json.dumps({
    "backends": settings.AUTHENTICATION_BACKENDS,
    "urls": sorted(n for n in names if isinstance(n, str) and n.startswith("oidc")),
    "button": "signin-sso" in page,
    "library_loaded": "mozilla_django_oidc" in sys.modules,
    "form_action": settings.SECURE_CSP["form-action"],
}))
"""


def start_django(**env) -> dict:
    """A fresh process with these environment variables, as the server would start."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("OIDC_")}
    out = subprocess.run(  # noqa: S603 (the running interpreter, a fixed probe)
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "reflexion_site.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_the_environment_alone_turns_single_sign_on_on_and_off():
    off = start_django()
    on = start_django(OIDC_ISSUER="https://id.example.org/", OIDC_RP_CLIENT_ID="rr")

    assert off == {
        "backends": [
            "axes.backends.AxesStandaloneBackend",
            "django.contrib.auth.backends.ModelBackend",
        ],
        "urls": [],
        "button": False,
        "library_loaded": False,
        "form_action": ["'self'"],
    }
    assert on["backends"] == [*off["backends"], "accounts.oidc.SingleSignOnBackend"]
    assert on["urls"] == ["oidc_authentication_callback", "oidc_authentication_init"]
    assert on["button"] is True
    assert on["form_action"] == ["'self'"]


def test_signing_out_at_the_provider_lets_the_sign_out_form_redirect_there():
    on = start_django(
        OIDC_ISSUER="https://id.example.org/realms/acme",
        OIDC_RP_CLIENT_ID="rr",
        OIDC_LOGOUT_AT_PROVIDER="1",
    )

    assert on["form_action"] == ["'self'", "https://id.example.org"]
