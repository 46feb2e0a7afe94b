"""Restoring a reflection a verdict deprecated, in a real browser: afterwards the queue item, the
cycle's report and the deprecations CSV tell the same story (deprecated, then restored)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import Reflection
from tests.browser import test_review_browser as queue_tests
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.browser.test_review_browser import TITLES, expect_item, item_url, open_queue

pytestmark = BROWSER

lessons = queue_tests.lessons  # the queue tests' four reflections of Sales, as a fixture here


def report_row(page, label: str) -> str:
    return page.locator("table.report-counts tr", has=page.locator(f"th:text-is('{label}')"))


@pytest.mark.django_db(transaction=True)
def test_after_a_restore_the_queue_the_report_and_the_csv_agree(
    page, live_server, sales, ana, lessons
):
    cycle = open_queue(sales, ana)
    sign_in(page, live_server, "ana", item_url(cycle, 1))
    page.keyboard.press("e")  # #1 echo chamber
    expect_item(page, live_server, cycle, 2)
    page.keyboard.press("e")  # #2 echo chamber
    expect_item(page, live_server, cycle, 3)
    assert Reflection.objects.get(pk=lessons[0].pk).state == "deprecated"

    # #1 is put back from its own page.
    page.goto(f"{live_server.url}{reverse('reflections:detail', args=[lessons[0].pk])}")
    page.fill("#restore-note", "still how payments work")
    page.click("#restore-submit")
    expect(page.locator(".messages")).to_contain_text("Restored:")
    assert Reflection.objects.get(pk=lessons[0].pk).state == "active"

    # The queue item: the verdict as decided, then the restore, by whom and when; no undo.
    page.goto(f"{live_server.url}{item_url(cycle, 1)}")
    expect_item(page, live_server, cycle, 1)
    expect(page.locator(".current-verdict").first).to_contain_text("Echo chamber")
    restored = page.locator("#restored-note")
    expect(restored).to_contain_text("Restored by ana")
    expect(restored).to_contain_text("still how payments work")
    expect(restored).to_contain_text("counted as restored, not deprecated")
    expect(page.locator("#undo-button")).to_have_count(0)
    expect(page.locator("#undo-form")).to_have_count(0)

    # The report: #1 under Restored, only #2 under Deprecated, the counts likewise.
    page.goto(f"{live_server.url}{reverse('reviews:report', args=[cycle.pk])}")
    expect(page.locator("#deprecated-title")).to_have_text("Deprecated (1)")
    expect(page.locator("#restored-title")).to_have_text("Restored (1)")
    expect(page.locator("#restored-items")).to_contain_text(TITLES[0])
    expect(page.locator("#restored-items")).to_contain_text("still how payments work")
    deprecated_table = page.locator("section[aria-labelledby=deprecated-title] table")
    expect(deprecated_table).to_contain_text(TITLES[1])
    expect(deprecated_table).not_to_contain_text(TITLES[0])
    expect(report_row(page, "Echo chamber").locator("td").first).to_have_text("1")
    expect(report_row(page, "Restored").locator("td").first).to_have_text("1")

    # The CSV behind the report's own link: one row per reflection the report calls deprecated.
    href = page.locator("a", has_text="Deprecations CSV").get_attribute("href")
    body = page.request.get(f"{live_server.url}{href}").text()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["title"] for r in rows] == [TITLES[1]]
    assert_no_csp_violations(page)
