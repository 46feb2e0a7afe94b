"""The reflection list: columns, filters, search, sort orders, pages, htmx swaps, query count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.models import Reflection
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.pages import soup_of

pytestmark = pytest.mark.django_db

LIST_URL = reverse("reflections:list")
T0 = datetime(2026, 3, 1, tzinfo=UTC)


def titles(response) -> list[str]:
    return [
        a.get_text(strip=True) for a in soup_of(response).select("table.reflections td.col-title a")
    ]


@pytest.fixture
def manager_client(client):
    client.force_login(UserFactory(roles=["manager"]))
    return client


@pytest.fixture
def two_of_everything():
    """Two reflections that differ in every dimension the filter bar offers."""
    sales = DepartmentFactory(slug="sales", name="Sales")
    finance = DepartmentFactory(slug="finance", name="Finance")
    ReflectionFactory(
        title="Qualify the lead before the demo",
        agent=AgentFactory(name="sales-agent", department=sales),
        kind="failure",
        outcome="failure",
        state="active",
    )
    ReflectionFactory(
        title="Reconcile card fees daily",
        agent=AgentFactory(name="finance-agent", department=finance),
        kind="success",
        outcome="success",
        state="promoted",
    )


def test_each_row_shows_the_reflection_columns(manager_client):
    reflection = ReflectionFactory(
        title="Check the FX rate source",
        agent=AgentFactory(name="finance-agent", department=DepartmentFactory(name="Finance")),
        kind="partial",
        outcome="partial",
        state="promoted",
        retrieval_count=1234,
        last_retrieved_at=datetime(2026, 4, 2, 9, 30, tzinfo=UTC),
        created_at=datetime(2026, 3, 5, 8, tzinfo=UTC),
    )

    page = soup_of(manager_client.get(LIST_URL))

    headers = [th.get_text(strip=True) for th in page.select("table.reflections thead th")]
    assert headers == [
        "Title",
        "Department",
        "Agent",
        "Kind",
        "Outcome",
        "State",
        "Retrievals",
        "Last retrieved",
        "Created",
    ]
    (row,) = page.select("table.reflections tbody tr")
    cells = row.find_all("td")
    link = cells[0].find("a")
    assert link["href"] == reverse("reflections:detail", args=[reflection.pk])
    assert link.get_text(strip=True) == "Check the FX rate source"
    assert [c.get_text(strip=True) for c in cells[1:3]] == ["Finance", "finance-agent"]
    assert cells[3].select_one(".badge.kind-partial").get_text(strip=True) == "Partial"
    assert cells[4].select_one(".badge.outcome-partial").get_text(strip=True) == "Partial"
    assert cells[5].select_one(".badge.state-promoted").get_text(strip=True) == "Promoted"
    assert "num" in cells[6]["class"]
    assert cells[6].get_text(strip=True) == "1,234"
    last = cells[7].find("time")
    assert last["title"] == "2026-04-02 09:30 UTC"
    assert last["datetime"].startswith("2026-04-02T09:30:00")
    assert cells[8].get_text(strip=True) == "2026-03-05"


def test_a_never_retrieved_reflection_says_never(manager_client):
    ReflectionFactory(last_retrieved_at=None)

    row = soup_of(manager_client.get(LIST_URL)).select_one("table.reflections tbody tr")

    assert row.find_all("td")[7].get_text(strip=True) == "never"


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("department", "sales"),
        ("agent", "sales-agent"),
        ("kind", "failure"),
        ("outcome", "failure"),
        ("state", "active"),
    ],
)
def test_each_filter_keeps_only_matching_reflections(
    manager_client, two_of_everything, param, value
):
    assert len(titles(manager_client.get(LIST_URL))) == 2

    response = manager_client.get(LIST_URL, {param: value})

    assert titles(response) == ["Qualify the lead before the demo"]
    selected = soup_of(response).select_one(f"select[name={param}] option[selected]")
    assert selected["value"] == value


def test_filters_combine(manager_client, two_of_everything):
    response = manager_client.get(LIST_URL, {"department": "sales", "outcome": "success"})

    assert titles(response) == []
    assert (
        soup_of(response)
        .select_one(".empty-state")
        .get_text(" ", strip=True)
        .startswith("No reflections match these filters.")
    )


def test_unknown_filter_values_are_ignored_rather_than_trusted(manager_client, two_of_everything):
    response = manager_client.get(LIST_URL, {"kind": "bogus", "state": "'; drop", "sort": "title"})

    assert len(titles(response)) == 2


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("LEDGER", ["Balance the ledger"]),  # title, any case
        ("transfers between", ["Retry the payout"]),  # body
        ("payouts-team", ["Retry the payout"]),  # source path
    ],
)
def test_search_reads_title_body_and_source_path(manager_client, q, expected):
    ReflectionFactory(title="Balance the ledger", sections=[{"heading": "h", "body": "nothing"}])
    ReflectionFactory(
        title="Retry the payout",
        source_path="memory/reflections/payouts-team/2026-03-01-retry.md",
        sections=[{"heading": "Why?", "body": "Transfers between accounts lag."}],
    )

    response = manager_client.get(LIST_URL, {"q": q})

    assert titles(response) == expected
    assert soup_of(response).select_one("input[name=q]")["value"] == q


def test_search_finds_a_reflection_by_the_words_it_was_edited_to(manager_client):
    # PostgreSQL keeps the stored search document current as the text changes.
    reflection = ReflectionFactory(title="Balance the zeppelin")
    Reflection.objects.filter(pk=reflection.pk).update(
        title="Reconcile the payouts", body="Payouts lag by a day."
    )

    assert titles(manager_client.get(LIST_URL, {"q": "payouts"})) == ["Reconcile the payouts"]
    assert titles(manager_client.get(LIST_URL, {"q": "zeppelin"})) == []


def test_search_without_a_match_shows_the_empty_state_with_a_way_back(manager_client):
    ReflectionFactory()

    page = soup_of(manager_client.get(LIST_URL, {"q": "no such words"}))

    assert page.select("table.reflections") == []
    assert page.select_one(".empty-state a")["href"] == LIST_URL
    assert page.select_one(".result-count").get_text(strip=True) == "No reflections"


def test_an_empty_memory_says_so(manager_client):
    page = soup_of(manager_client.get(LIST_URL))

    assert page.select_one(".empty-state strong").get_text(strip=True) == "No reflections yet."


@pytest.fixture
def three_to_sort():
    ReflectionFactory(
        title="old-busy",
        created_at=T0,
        retrieval_count=50,
        last_retrieved_at=T0 + timedelta(days=20),
    )
    ReflectionFactory(
        title="mid-never",
        created_at=T0 + timedelta(days=1),
        retrieval_count=0,
        last_retrieved_at=None,
    )
    ReflectionFactory(
        title="new-some",
        created_at=T0 + timedelta(days=2),
        retrieval_count=7,
        last_retrieved_at=T0 + timedelta(days=30),
    )


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        (None, ["new-some", "mid-never", "old-busy"]),
        ("-created_at", ["new-some", "mid-never", "old-busy"]),
        ("created_at", ["old-busy", "mid-never", "new-some"]),
        ("-retrieval_count", ["old-busy", "new-some", "mid-never"]),
        ("retrieval_count", ["mid-never", "new-some", "old-busy"]),
        # Never retrieved goes last, on PostgreSQL too (where NULLs sort first by default).
        ("-last_retrieved_at", ["new-some", "old-busy", "mid-never"]),
    ],
)
def test_sort_orders(manager_client, three_to_sort, sort, expected):
    response = manager_client.get(LIST_URL, {"sort": sort} if sort else {})

    assert titles(response) == expected


def test_reflections_that_tie_on_the_sort_key_come_newest_id_first(manager_client):
    first = ReflectionFactory(title="first", created_at=T0)
    second = ReflectionFactory(title="second", created_at=T0)
    assert first.pk < second.pk

    assert titles(manager_client.get(LIST_URL)) == ["second", "first"]


@pytest.fixture
def seven_failures():
    for i in range(7):
        ReflectionFactory(title=f"failure {i}", kind="failure", created_at=T0 + timedelta(hours=i))
    ReflectionFactory(title="a success", kind="success")


def query_of(href: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(href).query)


def titles_of(page) -> list[str]:
    return [a.get_text(strip=True) for a in page.select("td.col-title a")]


def test_pagination_pages_through_the_filtered_list_by_cursor_keeping_the_filters(
    manager_client, seven_failures
):
    first = soup_of(manager_client.get(LIST_URL, {"kind": "failure", "page_size": 3}))

    assert (
        first.select_one(".result-count").get_text(" ", strip=True)
        == "7 reflections, 3 on this page"
    )
    assert titles_of(first) == ["failure 6", "failure 5", "failure 4"]
    next_href = first.select_one(".pagination a[rel=next]")["href"]
    assert set(query_of(next_href)) == {"kind", "page_size", "after"}
    assert first.select(".pagination a[rel=prev]") == []

    second = soup_of(manager_client.get(LIST_URL + next_href))
    assert titles_of(second) == ["failure 3", "failure 2", "failure 1"]
    back = soup_of(
        manager_client.get(LIST_URL + second.select_one(".pagination a[rel=prev]")["href"])
    )
    assert titles_of(back) == ["failure 6", "failure 5", "failure 4"]

    last = soup_of(
        manager_client.get(LIST_URL + first.select_one(".pagination a[rel=last]")["href"])
    )
    assert titles_of(last) == ["failure 2", "failure 1", "failure 0"]
    assert last.select(".pagination a[rel=next]") == []
    assert query_of(last.select_one(".pagination a[rel=first]")["href"]) == {
        "kind": ["failure"],
        "page_size": ["3"],
    }


def test_jump_to_a_date_starts_the_page_at_that_day(manager_client, seven_failures):
    ReflectionFactory(title="older", kind="failure", created_at=T0 - timedelta(days=3))

    page = soup_of(
        manager_client.get(
            LIST_URL, {"kind": "failure", "page_size": 3, "from": (T0 - timedelta(days=1)).date()}
        )
    )

    assert titles_of(page) == ["older"]
    assert page.select_one(".pagination a[rel=prev]")


def test_an_edited_cursor_starts_over_at_the_first_page(manager_client, seven_failures):
    page = soup_of(
        manager_client.get(LIST_URL, {"kind": "failure", "page_size": 3, "after": "junk"})
    )

    assert titles_of(page) == ["failure 6", "failure 5", "failure 4"]


@pytest.mark.parametrize(("asked", "served"), [("500", "200"), ("0", "1"), ("lots", "50")])
def test_page_size_is_bounded(manager_client, settings, asked, served):
    settings.REFLECTIONS_LIST_PAGE_SIZE = 50

    page = soup_of(manager_client.get(LIST_URL, {"page_size": asked}))

    assert page.select_one("select[name=page_size] option[selected]")["value"] == served


def test_the_filter_bar_is_a_plain_get_form_that_works_without_javascript(manager_client):
    form = soup_of(manager_client.get(LIST_URL)).select_one("form#filters")

    assert form["method"] == "get"
    assert form["action"] == LIST_URL
    names = {el["name"] for el in form.select("select, input")}
    assert names == {"department", "agent", "kind", "outcome", "state", "q", "sort", "page_size"}
    assert form.select_one("button[type=submit]").get_text(strip=True) == "Apply"
    assert form["hx-get"] == LIST_URL
    assert form["hx-target"] == "#results"


def test_an_htmx_request_gets_only_the_results_fragment_and_the_url_to_push(
    manager_client, seven_failures
):
    cursor = soup_of(manager_client.get(LIST_URL, {"kind": "failure", "page_size": "3"}))
    after = query_of(cursor.select_one(".pagination a[rel=next]")["href"])["after"][0]
    response = manager_client.get(
        LIST_URL,
        {"kind": "failure", "q": "", "page_size": "3", "after": after},
        headers={"HX-Request": "true"},
    )

    fragment = soup_of(response)
    assert fragment.find("html") is None
    assert fragment.select("form#filters") == []
    top_level = [el for el in fragment.children if getattr(el, "name", None)]
    assert [(el.name, el["id"]) for el in top_level] == [("section", "results")]
    assert len(fragment.select("td.col-title a")) == 3
    pushed = urlsplit(response.headers["HX-Push-Url"])
    assert pushed.path == LIST_URL
    assert parse_qs(pushed.query) == {"kind": ["failure"], "page_size": ["3"], "after": [after]}
    assert "HX-Request" in response.headers["Vary"]


def test_an_htmx_history_restore_gets_the_whole_page(manager_client):
    response = manager_client.get(
        LIST_URL, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    )

    page = soup_of(response)
    assert page.find("html") is not None
    assert page.select_one("form#filters") is not None


def test_the_full_page_and_the_fragment_render_the_same_results(manager_client, seven_failures):
    full = soup_of(manager_client.get(LIST_URL, {"page_size": 4})).select_one("#results")
    fragment = soup_of(
        manager_client.get(LIST_URL, {"page_size": 4}, headers={"HX-Request": "true"})
    ).select_one("#results")

    assert full.get_text(" ", strip=True) == fragment.get_text(" ", strip=True)


def count_queries(client, **params) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(LIST_URL, params)
    assert response.status_code == 200
    return len(ctx.captured_queries), [q["sql"] for q in ctx.captured_queries]


def test_the_query_count_does_not_grow_with_the_page_size(manager_client):
    # Each reflection with its own agent and department: an N+1 on either would show.
    for i in range(60):
        department = DepartmentFactory(slug=f"dept-{i}")
        ReflectionFactory(agent=AgentFactory(name=f"agent-{i}", department=department))

    count_queries(manager_client)  # the agent choices, computed once and kept (cached)
    small, _ = count_queries(manager_client, page_size=5)
    large, statements = count_queries(manager_client, page_size=50)

    assert small == large
    # session, user, roles, count, page of rows, department choices, the agent choices as
    # kept: the data's version and the cache's row (in a savepoint inside the test's
    # transaction, reflections.caching.guarded: two statements more than when served)
    assert large <= 10, statements


def test_the_list_never_loads_reflection_texts(manager_client):
    ReflectionFactory()

    _, statements = count_queries(manager_client)

    reads = [sql for sql in statements if '"reflections_reflection"' in sql]
    assert reads
    for sql in reads:
        for column in ('"original_text"', '"body"', '"sections"'):
            assert column not in sql
