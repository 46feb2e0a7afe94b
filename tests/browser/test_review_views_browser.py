"""In a real browser: a duplicate candidate opened side by side from the queue, and a saved
view of the cycle page opening the next quarter's cycle the same way."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from reflections.services.rollups import refresh_retrieval_rollup
from reviews.services.cycles import open_cycle
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import RetrievalEventFactory
from tests.reviews.guard_support import build_world, near

pytestmark = BROWSER


@pytest.mark.django_db(transaction=True)
def test_a_candidate_opens_side_by_side_whole_from_the_queue(page, live_server):
    cycle, _ana, _, r, items = build_world()
    near(r["B"], r["A"], 0.8)
    sign_in(page, live_server, "ana", f"/reviews/{cycle.pk}/items/{items['B'].rank}/")

    page.click("#top-compare")

    page.wait_for_url(re.compile(rf"/items/{items['B'].rank}/compare/{r['A'].pk}/$"))
    sides = page.locator("#compare .compare-side h2")
    expect(sides).to_have_text(["This item", "Candidate"])
    expect(page.locator("#compare .compare-text").nth(1)).to_contain_text("Lesson A")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_a_saved_view_opens_next_quarters_cycle_the_same_way(page, live_server):
    cycle, ana, _, r, _ = build_world()
    sign_in(page, live_server, "ana", f"/reviews/{cycle.pk}/")
    page.goto(f"{live_server.url}/reviews/{cycle.pk}/?signals=1&sort=echo")
    page.fill("#view-name", "Echo first")
    page.click("#save-view button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Saved the view 'Echo first'")

    RetrievalEventFactory(reflection=r["A"], retrieved_at=datetime(2026, 8, 1, tzinfo=UTC))
    refresh_retrieval_rollup()
    later = open_cycle(department=cycle.department, quarter="2026Q4", reviewers=[ana])
    page.goto(f"{live_server.url}/reviews/{later.pk}/")
    page.click("#saved-views a:text-is('Echo first')")

    page.wait_for_url(re.compile(rf"/reviews/{later.pk}/\?signals=1&sort=echo"))
    expect(page.locator("#s-sort")).to_have_value("echo")
    assert_no_csp_violations(page)
