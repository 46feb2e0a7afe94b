"""Bulk "duplicate of" in a real browser: the original picker tells reflections with one title
apart, the original among the selection is not counted as marked, and the outcome is shown
where the page lands, at a desktop and a phone width."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import Reflection
from reviews.models import ReviewBatch
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.reviews.together_support import make_world

pytestmark = BROWSER

SAME_TITLE = "When starting an outreach sequence for an existing customer."


@pytest.fixture
def world(db):
    """Thirty items (ana has the odd ranks), so the item list is well below the page's top;
    every reflection of the department bears one title, as rewordings of a lesson often do."""
    world = make_world(30, one_reviewer=True)
    Reflection.objects.filter(agent=world["agent"]).update(title=SAME_TITLE)
    return world


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def cycle_page(page, live_server, world, width: int = 1440, height: int = 900) -> None:
    page.set_viewport_size({"width": width, "height": height})
    sign_in(page, live_server, "ana", reverse("reviews:cycle", args=[world["cycle"].pk]))


def mark_duplicates_of_the_first(page, world, ranks) -> None:
    """Tick `ranks`, pick item #1's reflection as the original, and ask for the confirmation."""
    for rank in ranks:
        page.check(f"#pick-{rank}")
    page.select_option("#bulk-action", "duplicate")
    page.select_option("#bulk-original", str(world["cycle"].items.get(rank=1).reflection_id))
    page.click("#bulk-submit")


@pytest.mark.django_db(transaction=True)
def test_the_original_picker_tells_reflections_with_one_title_apart(page, live_server, world):
    cycle_page(page, live_server, world)
    options = page.locator("#bulk-original option").all_inner_texts()[1:]
    assert len(options) == 30
    without_rank = {o.split(" ", 1)[1] for o in options}
    assert len(without_rank) == 30  # told apart by more than the rank
    first = world["cycle"].items.get(rank=1).reflection
    assert f"sales-bot · {first.created_at:%Y-%m-%d}" in options[0]
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_the_original_among_the_selection_is_named_apart_not_counted(page, live_server, world):
    cycle_page(page, live_server, world)
    mark_duplicates_of_the_first(page, world, [1, 2, 3])
    expect(page.locator("#confirm-title")).to_have_text(
        f"Mark 2 items as duplicates of #1 {SAME_TITLE.rstrip('.')}?"
    )
    expect(page.locator("#bulk-original")).to_contain_text("not marked a duplicate of itself")
    page.click("#bulk-confirm-submit")

    outcome = page.locator(".messages", has_text="as duplicates of")
    expect(outcome).to_contain_text(f"Marked 2 items as duplicates of #1 {SAME_TITLE.rstrip('.')}.")
    expect(outcome).to_contain_text("#1, the original, stays as it is.")
    assert ReviewBatch.objects.get().count == 2
    verdicts = dict(world["cycle"].items.filter(rank__lte=3).values_list("rank", "verdict"))
    assert verdicts == {1: "", 2: "duplicate", 3: "duplicate"}
    assert_no_csp_violations(page)


@pytest.mark.parametrize("width, height", [(1440, 900), (390, 844)])
@pytest.mark.django_db(transaction=True)
def test_the_outcome_of_a_bulk_action_is_shown_where_the_page_lands(
    page, live_server, world, width, height
):
    cycle_page(page, live_server, world, width, height)
    mark_duplicates_of_the_first(page, world, [2, 3])
    page.click("#bulk-confirm-submit")
    outcome = page.locator(".messages", has_text="2 items as duplicates of")
    expect(outcome).to_be_visible()
    assert in_view(page, outcome)  # not at the top of the page, scrolled away above the list
    assert_no_csp_violations(page)
