"""The queue item's layout in a real browser: the duplicate evidence (the nearest neighbours and
their diffs) sits right under the reflection's text, not below the other evidence, at a desktop
and a phone width, and only the neighbours a key picks carry a key label."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from reflections.models import Neighbour
from tests.browser import test_review_browser as queue_tests
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.browser.test_review_browser import item_url, neighbour_radios, open_queue
from tests.factories import ReflectionFactory

pytestmark = BROWSER

lessons = queue_tests.lessons  # the queue tests' four reflections of Sales, as a fixture here


def twelve_neighbours(reflection) -> list:
    """Twelve rewordings stored as its neighbours, all close enough to form one cluster."""
    now = datetime.now(UTC)
    others = [
        ReflectionFactory(agent=reflection.agent, title=f"{reflection.title}, reworded {n}")
        for n in range(1, 13)
    ]
    for rank, other in enumerate(others, start=1):
        Neighbour.objects.create(
            reflection=reflection, neighbour=other, similarity=0.95 - rank / 100, rank=rank,
            computed_at=now,
        )  # fmt: skip
    return others


def top_of(page, selector: str) -> float:
    return page.evaluate(
        "s => document.querySelector(s).getBoundingClientRect().top + window.scrollY", selector
    )


def bottom_of(page, selector: str) -> float:
    return page.evaluate(
        "s => document.querySelector(s).getBoundingClientRect().bottom + window.scrollY", selector
    )


@pytest.mark.parametrize("width, height", [(1440, 900), (390, 844)])
@pytest.mark.django_db(transaction=True)
def test_the_neighbours_follow_the_reflection_text(
    page, live_server, sales, ana, lessons, width, height
):
    twelve_neighbours(lessons[0])
    cycle = open_queue(sales, ana)
    page.set_viewport_size({"width": width, "height": height})
    sign_in(page, live_server, "ana", item_url(cycle, 1))
    expect(neighbour_radios(page)).to_have_count(12)

    neighbours = top_of(page, "#queue-item section.neighbours")
    # Right under the text, before the other evidence, with no empty column beside them.
    assert neighbours - bottom_of(page, "#queue-item .reflection-text") < 40
    if width == 1440:
        assert neighbours < 1.5 * height
        beside = page.locator("#queue-item aside.evidence").bounding_box()
        assert beside["y"] < neighbours  # the other evidence is the column beside
    else:
        assert neighbours < top_of(page, "#queue-item aside.evidence")
    assert_no_csp_violations(page)


@pytest.mark.django_db(transaction=True)
def test_only_the_neighbours_keys_1_to_9_pick_carry_a_key_label(
    page, live_server, sales, ana, lessons
):
    twelve_neighbours(lessons[0])
    cycle = open_queue(sales, ana)
    sign_in(page, live_server, "ana", item_url(cycle, 1))
    picks = page.locator("#queue-item section.neighbours .neighbour-pick")
    expect(picks).to_have_count(12)
    labels = [picks.nth(n).locator("kbd").all_inner_texts() for n in range(12)]
    assert labels == [[str(n)] for n in range(1, 10)] + [[], [], []]

    # Each label does what it says: 9 picks the ninth, and the tenth is still picked by a click.
    page.keyboard.press("9")
    expect(neighbour_radios(page).nth(8)).to_be_checked()
    picks.nth(9).click()
    expect(neighbour_radios(page).nth(9)).to_be_checked()
    assert_no_csp_violations(page)
