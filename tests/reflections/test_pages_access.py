"""Who sees which page: sign-in, roles, departments, quarantine, sign-out, CSRF and CSP."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.pages import soup_of

pytestmark = pytest.mark.django_db

LIST_URL = reverse("reflections:list")
LOGIN_URL = reverse("login")
LOGOUT_URL = reverse("logout")
PASSWORD = "correct horse battery staple"  # UserFactory's


def listed_titles(response) -> set[str]:
    return {a.get_text(strip=True) for a in soup_of(response).select("td.col-title a")}


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def finance():
    return DepartmentFactory(slug="finance", name="Finance")


@pytest.fixture
def sales_reflection(sales):
    return ReflectionFactory(
        title="sales lesson", agent=AgentFactory(name="sales-agent", department=sales)
    )


@pytest.fixture
def finance_reflection(finance):
    return ReflectionFactory(
        title="finance lesson", agent=AgentFactory(name="finance-agent", department=finance)
    )


@pytest.fixture
def quarantined(sales):
    return ReflectionFactory(
        title="quarantined lesson",
        state="quarantined",
        agent=AgentFactory(name="sales-agent", department=sales),
    )


def signed_in(client, *roles, departments=()):
    client.force_login(UserFactory(roles=roles, departments=departments))
    return client


@pytest.mark.parametrize("name", ["list", "detail"])
def test_anonymous_people_are_sent_to_sign_in(client, sales_reflection, name):
    url = LIST_URL if name == "list" else reverse("reflections:detail", args=[sales_reflection.pk])

    response = client.get(url)

    assert response.status_code == 302
    assert response.url == f"{LOGIN_URL}?next={url}"


@pytest.mark.parametrize("name", ["list", "detail"])
def test_a_signed_in_person_without_a_role_gets_the_403_page(client, sales_reflection, name):
    signed_in(client)
    url = LIST_URL if name == "list" else reverse("reflections:detail", args=[sales_reflection.pk])

    response = client.get(url)

    assert response.status_code == 403
    page = soup_of(response)
    assert page.select_one(".error-code").get_text(strip=True) == "403"
    assert (
        page.select_one("h1").get_text(strip=True)
        == "You can\N{RIGHT SINGLE QUOTATION MARK}t open this page"
    )
    assert page.select_one(".topbar .badge-none").get_text(strip=True) == "no role"
    assert page.select("table") == []


def test_a_reviewer_lists_only_their_departments(
    client, sales, sales_reflection, finance_reflection
):
    signed_in(client, "reviewer", departments=[sales])

    response = client.get(LIST_URL)

    assert listed_titles(response) == {"sales lesson"}
    page = soup_of(response)
    offered = [o["value"] for o in page.select("select[name=department] option") if o["value"]]
    assert offered == ["sales"]
    agents = [o["value"] for o in page.select("select[name=agent] option") if o["value"]]
    assert agents == ["sales-agent"]


def test_a_reviewer_cannot_reach_another_department_by_filtering(
    client, sales, sales_reflection, finance_reflection
):
    signed_in(client, "reviewer", departments=[sales])

    assert listed_titles(client.get(LIST_URL, {"department": "finance"})) == set()
    assert listed_titles(client.get(LIST_URL, {"q": "finance"})) == set()


def test_a_reviewer_gets_404_for_another_departments_reflection(client, sales, finance_reflection):
    signed_in(client, "rater", departments=[sales])

    response = client.get(reverse("reflections:detail", args=[finance_reflection.pk]))

    assert response.status_code == 404
    page = soup_of(response)
    assert page.select_one(".error-code").get_text(strip=True) == "404"
    assert "finance lesson" not in page.get_text()


def test_a_reviewer_opens_their_own_departments_reflection(client, sales, sales_reflection):
    signed_in(client, "reviewer", departments=[sales])

    response = client.get(reverse("reflections:detail", args=[sales_reflection.pk]))

    assert soup_of(response).select_one("h1").get_text(strip=True) == "sales lesson"


def test_a_manager_sees_every_department(client, sales_reflection, finance_reflection):
    signed_in(client, "manager")

    response = client.get(LIST_URL)

    assert listed_titles(response) == {"sales lesson", "finance lesson"}
    offered = {o["value"] for o in soup_of(response).select("select[name=department] option")}
    assert offered == {"", "sales", "finance"}


@pytest.mark.parametrize("role", ["reviewer", "manager"])
def test_quarantined_reflections_are_hidden_from_everyone_but_admins(
    client, sales, sales_reflection, quarantined, role
):
    signed_in(client, role, departments=[sales])

    assert listed_titles(client.get(LIST_URL)) == {"sales lesson"}
    assert listed_titles(client.get(LIST_URL, {"state": "quarantined"})) == set()
    states = {o["value"] for o in soup_of(client.get(LIST_URL)).select("select[name=state] option")}
    assert "quarantined" not in states
    detail = client.get(reverse("reflections:detail", args=[quarantined.pk]))
    assert detail.status_code == 404


def test_admins_find_quarantined_reflections_without_their_text(
    client, sales_reflection, quarantined
):
    signed_in(client, "admin")

    response = client.get(LIST_URL, {"state": "quarantined"})

    (row,) = soup_of(response).select("table.reflections tbody tr")
    link = row.select_one("td.col-title a")
    assert link["href"] == reverse("reflections:detail", args=[quarantined.pk])
    assert link.select_one(".withheld").get_text(strip=True) == "Text withheld"
    assert "quarantined lesson" not in link.get_text()
    assert client.get(link["href"]).status_code == 200


@pytest.mark.parametrize(("role", "has_admin_link"), [("admin", True), ("manager", False)])
def test_the_admin_link_is_only_for_admins(client, role, has_admin_link):
    signed_in(client, role)

    nav = [a.get_text(strip=True) for a in soup_of(client.get(LIST_URL)).select(".mainnav a")]

    pages = [
        "Reflections",
        "Memory health",
        "Retention",
        "Quarterly review",
        "Retrieval preview",
        "Rating",
    ]
    if has_admin_link:
        assert nav == [
            *pages,
            "Calibration",
            "Agreement",
            "Quality",
            "Insights",
            "Quarantine",
            "Import",
            "API tokens",
            "Webhooks",
            "Sign-in lockouts",
            "Admin",
        ]
    else:
        assert nav == [*pages, "Agreement", "Quality", "Insights"]


@pytest.mark.parametrize(
    ("role", "links"),
    [
        (
            "reviewer",
            ["Reflections", "Memory health", "Retention", "Quarterly review", "Retrieval preview"],
        ),
        ("rater", ["Reflections", "Memory health", "Retention", "Rating", "Calibration"]),
    ],
)
def test_reviewers_and_raters_see_the_links_of_their_work(client, role, links):
    signed_in(client, role)

    nav = [a.get_text(strip=True) for a in soup_of(client.get(LIST_URL)).select(".mainnav a")]

    assert nav == links


def test_the_header_shows_who_is_signed_in_and_their_roles(client):
    client.force_login(UserFactory(username="mara", roles=["manager", "rater"]))

    header = soup_of(client.get(LIST_URL)).select_one(".topbar")

    assert header.select_one(".username").get_text(strip=True) == "mara"
    assert [b.get_text(strip=True) for b in header.select(".badge-role")] == ["manager", "rater"]
    form = header.select_one("form.signout")
    assert (form["method"], form["action"]) == ("post", LOGOUT_URL)
    assert form.select_one("input[name=csrfmiddlewaretoken]")["value"]


def test_signing_out_takes_a_post_and_ends_the_session(client):
    signed_in(client, "manager")
    assert client.get(LIST_URL).status_code == 200

    assert client.get(LOGOUT_URL).status_code == 405
    assert client.get(LIST_URL).status_code == 200

    response = client.post(LOGOUT_URL)

    assert response.status_code == 302
    assert response.url == LOGIN_URL
    assert client.get(LIST_URL).status_code == 302


def test_the_sign_in_page_is_a_csrf_protected_form():
    csrf_client = Client(enforce_csrf_checks=True)
    page = soup_of(csrf_client.get(LOGIN_URL))

    form = page.select_one("main form")
    assert (form["method"], form["action"]) == ("post", LOGIN_URL)
    assert {i["name"] for i in form.select("input")} == {
        "csrfmiddlewaretoken",
        "username",
        "password",
        "next",
    }
    assert form.select_one("label[for=id_username]").get_text(strip=True) == "Username"


def test_signing_in_without_the_csrf_token_is_refused():
    UserFactory(username="mara", roles=["manager"])
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.get(LOGIN_URL)

    response = csrf_client.post(LOGIN_URL, {"username": "mara", "password": PASSWORD})

    assert response.status_code == 403
    assert csrf_client.get(LIST_URL).status_code == 302


def test_signing_in_with_the_csrf_token_lands_on_the_reflections():
    UserFactory(username="mara", roles=["manager"])
    csrf_client = Client(enforce_csrf_checks=True)
    token = soup_of(csrf_client.get(LOGIN_URL)).select_one("input[name=csrfmiddlewaretoken]")[
        "value"
    ]

    response = csrf_client.post(
        LOGIN_URL, {"username": "mara", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )

    assert response.status_code == 302
    assert response.url == LIST_URL
    assert csrf_client.get(LIST_URL).status_code == 200


def test_a_wrong_password_is_reported_on_the_form(client):
    UserFactory(username="mara", roles=["manager"])

    response = client.post(LOGIN_URL, {"username": "mara", "password": "nope"})

    assert response.status_code == 200
    assert soup_of(response).select_one(".alert-error[role=alert]") is not None


def test_the_pages_only_take_get(client, sales_reflection):
    signed_in(client, "manager")

    assert client.post(LIST_URL).status_code == 405
    assert client.post(reverse("reflections:detail", args=[sales_reflection.pk])).status_code == 405


def test_pages_carry_a_nonce_csp_and_every_script_uses_the_nonce(client):
    signed_in(client, "manager")

    response = client.get(LIST_URL)

    policy = response.headers["Content-Security-Policy"]
    nonce = policy.split("'nonce-")[1].split("'")[0]
    page = soup_of(response)
    scripts = page.find_all("script")
    assert scripts
    assert {s["nonce"] for s in scripts} == {nonce}
    assert page.find_all(style=True) == []
    assert not [el for el in page.find_all(True) if any(a.startswith("on") for a in el.attrs)]
    assert page.body["hx-headers"] == f'{{"X-CSRFToken": "{response.context["csrf_token"]}"}}'
