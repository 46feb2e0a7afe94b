"""The reflection pages in a real browser: sign in, filter with htmx, page, go back, open one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from reflections.models import RetrievalEvent
from reflections.services.rollups import refresh_retrieval_rollup
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)

pytestmark = BROWSER


@pytest.fixture
def memory():
    sales = DepartmentFactory(slug="sales", name="Sales")
    finance = DepartmentFactory(slug="finance", name="Finance")
    sales_agent = AgentFactory(name="sales-agent", department=sales)
    finance_agent = AgentFactory(name="finance-agent", department=finance)
    t0 = datetime(2026, 3, 1, tzinfo=UTC)
    for i in range(30):
        ReflectionFactory(
            title=f"Sales lesson {i:02d}", agent=sales_agent, created_at=t0 + timedelta(hours=i)
        )
    lesson = ReflectionFactory(
        title="Split card fees before matching",
        agent=finance_agent,
        created_at=t0 - timedelta(days=1),
        sections=[{"heading": "What happened?", "body": "Fees were **booked** as FX loss."}],
    )
    RetrievalEventFactory(reflection=lesson, agent=sales_agent, task_id="t-1")
    UserFactory(username="mara", roles=["manager"])
    return lesson


def rows(page):
    return page.locator("table.reflections tbody tr")


def row_titles(page) -> list[str]:
    return page.locator("table.reflections td.col-title a").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_a_manager_filters_pages_and_opens_a_reflection(page, live_server, memory):
    sign_in(page, live_server, "mara")
    assert page.locator(".result-count").inner_text() == "31 reflections"
    page.evaluate("window.__sameDocument = true")  # a full reload would forget this

    with page.expect_response(lambda r: "department=finance" in r.url) as filtered:
        page.select_option("#f-department", "finance")
    assert filtered.value.request.headers.get("hx-request") == "true"
    page.wait_for_url(lambda url: url.endswith("/reflections/?department=finance"))
    expect(rows(page)).to_have_count(1)

    assert row_titles(page) == ["Split card fees before matching"]
    assert page.evaluate("window.__sameDocument") is True

    page.go_back()
    page.wait_for_url(f"{live_server.url}/reflections/")
    expect(rows(page)).to_have_count(31)
    assert page.locator("#f-department").input_value() == ""

    page.select_option("#f-page-size", "25")
    page.wait_for_url(lambda url: url.endswith("/reflections/?page_size=25"))
    page.click(".pagination a[rel=next]")
    page.wait_for_url(lambda url: "/reflections/?page_size=25&after=" in url)
    assert len(row_titles(page)) == 6
    expect(page.locator(".pagination a[rel=next]")).to_have_count(0)
    assert page.evaluate("window.__sameDocument") is True

    page.fill("#f-q", "card fees")
    page.press("#f-q", "Enter")
    page.wait_for_url(lambda url: "q=card+fees" in url)
    expect(rows(page)).to_have_count(1)
    page.click("table.reflections td.col-title a")
    page.wait_for_url(f"{live_server.url}/reflections/{memory.pk}/")

    assert page.locator("h1").inner_text() == "Split card fees before matching"
    assert page.locator(".reflection-text .prose strong").inner_text() == "booked"
    assert page.locator("table.retrievals tbody tr").count() == 1
    assert page.locator("table.retrievals .badge-cross").inner_text() == "cross-agent"
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_the_filter_form_works_without_javascript(browser, live_server, memory):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, "mara")

    page.select_option("#f-department", "finance")
    page.click("#filters button[type=submit]")
    page.wait_for_load_state()

    assert "department=finance" in page.url
    assert row_titles(page) == ["Split card fees before matching"]
    context.close()


@pytest.mark.django_db(transaction=True)
def test_signing_out_returns_to_the_sign_in_page(page, live_server, memory):
    sign_in(page, live_server, "mara")

    page.click(".topbar form.signout button")
    page.wait_for_url(f"{live_server.url}/login/")

    page.goto(f"{live_server.url}/reflections/")
    assert page.url.startswith(f"{live_server.url}/login/?next=")
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_older_retrievals_are_added_in_place_under_the_newest(page, live_server, memory):
    agent = memory.agent
    t0 = datetime(2026, 4, 1, tzinfo=UTC)
    RetrievalEvent.objects.bulk_create(
        RetrievalEvent(
            reflection=memory, agent=agent, task_id=f"old-{i}", retrieved_at=t0 + timedelta(hours=i)
        )
        for i in range(70)
    )
    refresh_retrieval_rollup()
    sign_in(page, live_server, "mara")
    page.goto(f"{live_server.url}/reflections/{memory.pk}/")
    page.evaluate("window.__sameDocument = true")
    events = page.locator("table.retrievals tbody tr:not(.more-row)")
    expect(events).to_have_count(50)

    page.get_by_role("link", name="Older retrievals").click()

    expect(events).to_have_count(71)  # every one: 70 of the log and the fixture's t-1
    expect(page.get_by_role("link", name="Older retrievals")).to_have_count(0)
    task_ids = page.locator("table.retrievals tbody tr:not(.more-row) td:nth-child(3)")
    assert task_ids.all_inner_texts() == [f"old-{i}" for i in range(69, -1, -1)] + ["t-1"]
    assert page.url == f"{live_server.url}/reflections/{memory.pk}/"
    assert page.evaluate("window.__sameDocument") is True
    assert_no_csp_violations(page)
