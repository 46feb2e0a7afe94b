"""The duplicate guard, cluster resolution and restore in a real browser: an archived original
asks first (cancel keeps nothing), the plain-form fallback asks too, a cluster is resolved in
one action and undone in one from the sticky bar, and a reflection deprecated in a closed cycle
is restored from its page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import Reflection
from reviews.models import Decision
from reviews.selectors.originals import cluster_threshold
from reviews.services.cycles import close_cycle
from reviews.services.verdicts import decide
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.reviews.guard_support import build_world, near

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world():
    return build_world()


def item_url(cycle, item) -> str:
    return reverse("reviews:item", kwargs={"pk": cycle.pk, "rank": item.rank})


def state_of(reflection) -> str:
    return Reflection.objects.get(pk=reflection.pk).state


def test_an_archived_original_asks_first_and_cancel_records_nothing(page, live_server, world):
    cycle, _, _, r, items = world
    near(r["C"], r["D"], 0.9)  # C's closest neighbour is the archived, less-used D
    page.set_viewport_size({"width": 1440, "height": 900})
    sign_in(page, live_server, "ana", item_url(cycle, items["C"]))

    # The neighbour sits beside the item above the fold, with its retrievals, lift and state.
    top = page.locator("#top-neighbour")
    expect(top).to_contain_text("Lesson D")
    expect(top).to_contain_text("Archived")
    expect(top).to_contain_text("Retrievals")
    box = top.bounding_box()
    assert box["y"] + 120 < 900  # its title and state table start well above the fold

    page.keyboard.press("1")
    page.keyboard.press("d")
    confirm = page.locator("#confirm-box")
    expect(confirm).to_contain_text("is archived")
    expect(confirm).to_contain_text("less used than this item")
    expect(page.locator("#confirm-yes")).to_be_focused()
    assert Decision.objects.count() == 0

    page.keyboard.press("Escape")
    expect(page.locator("#confirm-box")).to_have_count(0)
    assert Decision.objects.count() == 0
    assert state_of(r["C"]) == "active"

    page.keyboard.press("1")
    page.keyboard.press("d")
    page.locator("#confirm-yes").click()
    expect(page.locator("#queue-item .messages")).to_contain_text("Duplicate")
    decision = Decision.objects.get()
    assert (decision.verdict, decision.duplicate_of_id) == ("duplicate", r["D"].pk)
    assert "is archived" in decision.confirmed
    assert state_of(r["C"]) == "deprecated"
    assert_no_csp_violations(page)


def test_without_javascript_the_guard_still_asks(browser, live_server, world):
    cycle, _, _, r, items = world
    near(r["C"], r["D"], 0.9)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, "ana", item_url(cycle, items["C"]))

    page.locator(f"#pick-{r['D'].pk}").check()
    page.locator('button[name="verdict"][value="duplicate"]').click()
    expect(page.locator("#confirm-box")).to_contain_text("is archived")
    assert Decision.objects.count() == 0

    page.locator("#confirm-yes").click()
    expect(page.locator("#queue-item .messages")).to_contain_text("Duplicate")
    assert Decision.objects.get().duplicate_of_id == r["D"].pk
    context.close()


def test_a_cluster_is_resolved_in_one_action_and_undone_in_one(page, live_server, world):
    cycle, _ana, _, r, items = world
    at = cluster_threshold()  # the configured similarity backend's scale
    near(r["A"], r["B"], at + 0.1)
    near(r["B"], r["C"], at + 0.05)
    sign_in(page, live_server, "ana", item_url(cycle, items["B"]))

    cluster = page.locator("#cluster")
    expect(cluster).to_contain_text(f"similarity ≥ {at:.2f}")
    expect(cluster).to_contain_text("Suggested to keep")
    page.locator("#cluster-submit").click()
    expect(page.locator("#queue-item .messages")).to_contain_text("2 duplicates recorded")
    assert {state_of(r["B"]), state_of(r["C"])} == {"deprecated"}
    assert Decision.objects.filter(action="verdict").values("batch").distinct().count() == 1

    undo = page.locator(".verdict-bar #undo-button")
    expect(undo).to_contain_text("Undo the set (2 verdicts)")
    undo.click()
    expect(page.locator("#queue-item .messages")).to_contain_text("2 verdicts undone")
    assert {state_of(r["B"]), state_of(r["C"])} == {"active"}
    assert Decision.objects.filter(action="undo").count() == 2
    assert_no_csp_violations(page)


def test_any_reflection_can_be_named_as_the_original_by_search(page, live_server, world):
    cycle, _, _, r, items = world
    sign_in(page, live_server, "ana", item_url(cycle, items["C"]))
    page.locator("#original-q").fill("Lesson E")
    result = page.locator(f"#found-{r['E'].pk}")
    expect(result).to_be_visible()
    result.check()
    page.locator('button[name="verdict"][value="duplicate"]').click()
    # E is live but never retrieved in the window: less used than C, so it asks first.
    page.locator("#confirm-yes").click()
    expect(page.locator("#queue-item .messages")).to_contain_text("Duplicate")
    assert Decision.objects.get().duplicate_of_id == r["E"].pk
    assert_no_csp_violations(page)


def test_a_reflection_deprecated_in_a_closed_cycle_is_restored_from_its_page(
    page, live_server, world
):
    cycle, ana, _, r, items = world
    decide(item_id=items["B"].pk, user=ana, verdict="outdated", version=0)
    close_cycle(cycle=cycle, user=None, allow_incomplete=True)
    url = reverse("reflections:detail", kwargs={"pk": r["B"].pk})
    sign_in(page, live_server, "ana", url)

    panel = page.locator("#restore")
    expect(panel).to_contain_text("Deprecated as outdated in review 2026Q3 (closed)")
    page.locator("#restore-note").fill("The tool came back")
    page.locator("#restore-submit").click()
    expect(page.locator(".messages")).to_contain_text("Restored")
    expect(page.locator("#restore")).to_have_count(0)
    assert state_of(r["B"]) == "active"
    assert Decision.objects.filter(action="restore", note="The tool came back").count() == 1
    assert_no_csp_violations(page)
