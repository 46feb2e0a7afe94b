"""The reflection page's long tables, a keyset page at a time: the newest retrievals and
injections on the page, older ones by "Older" (in place with htmx, as a page without it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from reflections.models import RetrievalEvent, TaskInjection, TaskRun
from reflections.selectors.reflection_events import INJECTION_PAGE, RETRIEVAL_PAGE
from reflections.services.rollups import refresh_retrieval_rollup
from tests.factories import DepartmentFactory, ReflectionFactory, UserFactory
from tests.reflections.detail_page.support import T0, detail_url, soup_of, table_rows

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def retrieved(reflection, finance_agent):
    """205 retrievals, one a minute, t-0 the oldest; the rollup recounted as an import does."""
    RetrievalEvent.objects.bulk_create(
        RetrievalEvent(
            reflection=reflection,
            agent=finance_agent,
            task_id=f"t-{i}",
            retrieved_at=T0 + timedelta(minutes=i),
        )
        for i in range(205)
    )
    refresh_retrieval_rollup()
    return reflection


@pytest.fixture
def injected(reflection, finance_agent):
    """60 tasks the reflection was given, one an hour, r-0 the first to finish."""
    runs = TaskRun.objects.bulk_create(
        TaskRun(
            task_id=f"r-{i}",
            agent=finance_agent,
            department=finance_agent.department,
            task_type="reconciliation",
            finished_at=T0 + timedelta(hours=i),
            outcome="success",
        )
        for i in range(60)
    )
    TaskInjection.objects.bulk_create(
        TaskInjection(task_run=run, reflection=reflection, finished_at=run.finished_at)
        for run in runs
    )
    return reflection


def column(page: BeautifulSoup, index: int) -> list[str]:
    """The cells of one column in the page's (or fragment's) event rows, "Older" row aside."""
    return [
        tr.find_all("td")[index].get_text(strip=True)
        for tr in page.select("tr")
        if tr.find("td") and "more-row" not in (tr.get("class") or [])
    ]


def older_link(page: BeautifulSoup, label: str):
    links = [a for a in page.select("tr.more-row a") if a.get_text(strip=True) == label]
    return links[0] if links else None


def test_the_reflection_page_shows_the_newest_retrievals_and_a_way_to_older_ones(
    manager_client, retrieved
):
    page = soup_of(manager_client.get(detail_url(retrieved)))

    rows = table_rows(page, "table.retrievals")[:-1]  # the last row holds "Older retrievals"
    assert len(rows) == RETRIEVAL_PAGE
    assert rows[0][2] == "t-204" and rows[-1][2] == f"t-{205 - RETRIEVAL_PAGE}"
    link = older_link(page, "Older retrievals")
    assert link["href"] == link["hx-get"]
    assert link["href"].startswith(reverse("reflections:retrievals", args=[retrieved.pk]))
    assert page.select_one("#retrievals .table-note").get_text(strip=True) == (
        f"Newest first, {RETRIEVAL_PAGE} at a time."
    )


def test_following_older_retrievals_in_place_reaches_every_one_once_newest_first(
    manager_client, retrieved
):
    page = soup_of(manager_client.get(detail_url(retrieved)))
    seen = column(page.select_one("table.retrievals"), 2)
    while link := older_link(page, "Older retrievals"):
        response = manager_client.get(link["hx-get"], **HTMX)
        assert b"<html" not in response.content  # rows to swap in, not a page
        page = soup_of(response)
        seen += column(page, 2)

    assert seen == [f"t-{i}" for i in range(204, -1, -1)]


def test_without_javascript_older_retrievals_open_as_a_page_of_their_own(manager_client, retrieved):
    first = soup_of(manager_client.get(detail_url(retrieved)))

    page = soup_of(manager_client.get(older_link(first, "Older retrievals")["href"]))

    assert page.select_one("h1").get_text(strip=True) == "Older retrievals"
    assert page.select_one(".breadcrumbs").get_text(" ", strip=True).endswith(retrieved.title)
    rows = table_rows(page, "table.retrievals")[:-1]
    assert rows[0][2] == f"t-{204 - RETRIEVAL_PAGE}"
    assert older_link(page, "Older retrievals") is not None


def test_the_newest_injections_and_the_older_ones_page_by_the_time_their_tasks_finished(
    manager_client, injected
):
    page = soup_of(manager_client.get(detail_url(injected)))
    rows = table_rows(page, "table.injections")[:-1]
    assert [row[1] for row in rows] == [f"r-{i}" for i in range(59, 59 - INJECTION_PAGE, -1)]

    seen = column(page.select_one("table.injections"), 1)
    while link := older_link(page, "Older injections"):
        page = soup_of(manager_client.get(link["hx-get"], **HTMX))
        seen += column(page, 1)
    assert seen == [f"r-{i}" for i in range(59, -1, -1)]


def test_a_table_that_fits_on_the_page_offers_nothing_older(manager_client, reflection):
    page = soup_of(manager_client.get(detail_url(reflection)))

    assert page.select("tr.more-row") == []


def test_an_edited_cursor_starts_again_from_the_newest(manager_client, retrieved):
    url = reverse("reflections:retrievals", args=[retrieved.pk])

    page = soup_of(manager_client.get(f"{url}?after=not-a-cursor", **HTMX))

    assert column(page, 2)[0] == "t-204"


def test_older_events_are_hidden_from_other_departments_and_from_nobody(client, retrieved):
    url = reverse("reflections:retrievals", args=[retrieved.pk])
    assert client.get(url).status_code == 302  # signed out: to the sign-in page

    client.force_login(UserFactory(roles=["reviewer"], departments=[DepartmentFactory()]))
    assert client.get(url).status_code == 404
    assert client.get(reverse("reflections:injections", args=[retrieved.pk])).status_code == 404


def test_the_older_events_of_a_quarantined_reflection_do_not_show_its_title(client, finance_agent):
    client.force_login(UserFactory(roles=["admin"]))
    quarantined = ReflectionFactory(agent=finance_agent, state="quarantined", title="sk-live-123")

    response = client.get(reverse("reflections:retrievals", args=[quarantined.pk]))

    assert "sk-live-123" not in soup_of(response).get_text()
