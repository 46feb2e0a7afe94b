"""A rater rates a round by keyboard alone: four digits and Enter rate an item, j skips an
item without saving and p goes back, an item opened again shows its own place in the round,
and the screen after the last item says that all are done."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rubric.models import CRITERIA, Rating
from rubric.services.rounds import submit_rating
from tests.browser.rating_keys import (
    first_radio,
    key_of,
    pick_levels_by_keyboard,
    radio,
    round_for,
)
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory
from tests.rubric.rating_support import make_rater, make_rubric

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]

TITLES = ["Ask for the PO number first", "Check the region field", "Retry the export once"]
LEVELS = (0.5, 0.25, 0.75, 0.5)  # the keys 3 2 4 3


@pytest.fixture
def round_of_three():
    make_rubric()
    support = DepartmentFactory(slug="support", name="Support")
    agent = AgentFactory(name="support-bot", department=support)
    for title in TITLES:
        ReflectionFactory(agent=agent, title=title)
    rina = make_rater("rina", departments=[support])
    rating_round, mine = round_for(rina, name="Keyboard round", size=3, seed=3)
    return rating_round, rina, mine


def rate_url(live_server, rating_round) -> str:
    return f"{live_server.url}/ratings/{rating_round.pk}/rate/"


def expect_item(page, assignment, number: int, rated: int) -> None:
    expect(page.locator("#rate-item")).to_have_attribute("data-assignment", str(assignment.pk))
    expect(page.locator("#item-title")).to_have_text(assignment.item.reflection.title)
    expect(page.locator(".queue-position")).to_contain_text(
        f"Item {number} of 3 \N{MIDDLE DOT} {rated} rated"
    )
    page.wait_for_load_state()  # after a link's page load, rating.js (deferred) has run


def test_four_digits_and_enter_rate_every_criterion_and_save(page, live_server, round_of_three):
    rating_round, _, mine = round_of_three
    sign_in(page, live_server, "rina", f"/ratings/{rating_round.pk}/rate/")
    expect_item(page, mine[0], 1, 0)
    expect(first_radio(page, CRITERIA[0])).to_be_focused()
    page.keyboard.press(key_of(LEVELS[0]))
    # The digit moved on: the next digit is for the next criterion, not this one again.
    expect(first_radio(page, CRITERIA[1])).to_be_focused()
    for level in LEVELS[1:]:
        page.keyboard.press(key_of(level))
    for criterion, level in zip(CRITERIA, LEVELS, strict=True):
        expect(radio(page, criterion, level)).to_be_checked()
    with page.expect_response(lambda r: f"/rate/{mine[0].pk}/" in r.url):
        page.keyboard.press("Enter")
    expect_item(page, mine[1], 2, 1)
    assert dict(Rating.objects.filter(assignment=mine[0]).values_list("criterion", "level")) == (
        dict(zip(CRITERIA, LEVELS, strict=True))
    )
    assert_no_csp_violations(page)


def test_j_skips_an_item_without_saving_and_p_goes_back(page, live_server, round_of_three):
    rating_round, _, mine = round_of_three
    sign_in(page, live_server, "rina", f"/ratings/{rating_round.pk}/rate/")
    expect_item(page, mine[0], 1, 0)
    expect(page.locator("#item-prev")).to_have_count(0)  # nothing before the first item
    page.keyboard.press(key_of(1.0))  # a level picked, then skipped: not saved
    page.keyboard.press("j")
    expect_item(page, mine[1], 2, 0)
    assert not Rating.objects.filter(assignment=mine[0]).exists()
    page.keyboard.press("p")
    expect_item(page, mine[0], 1, 0)
    # The visible links do the same as the keys.
    page.get_by_role("link", name="Skip j").click()
    expect_item(page, mine[1], 2, 0)
    page.get_by_role("link", name="p Previous").click()
    expect_item(page, mine[0], 1, 0)
    # Rating the first item goes on to the next one not yet rated.
    pick_levels_by_keyboard(page, LEVELS)
    page.keyboard.press("Enter")
    expect_item(page, mine[1], 2, 1)
    assert_no_csp_violations(page)


def test_an_item_opened_again_shows_its_own_place(page, live_server, round_of_three):
    rating_round, rina, mine = round_of_three
    for assignment in mine[:2]:
        submit_rating(assignment=assignment, user=rina, levels=dict.fromkeys(CRITERIA, 0.5))
    sign_in(page, live_server, "rina", f"/ratings/{rating_round.pk}/rate/")
    expect_item(page, mine[2], 3, 2)
    page.locator("#rated-items summary").click()
    page.locator("#rated-items").get_by_role("link", name=TITLES[0]).click()
    expect_item(page, mine[0], 1, 2)  # its own place, not "Item 3 of 3"
    expect(page.locator("#changing")).to_be_visible()
    page.keyboard.press(key_of(1.0))
    with page.expect_response(lambda r: f"/rate/{mine[0].pk}/" in r.url):
        page.keyboard.press("Enter")
    expect_item(page, mine[2], 3, 2)  # on to the one still to rate
    expect(page.locator(".messages")).to_contain_text("Here is the next one.")
    assert_no_csp_violations(page)


def test_the_screen_after_the_last_item_says_all_are_done(page, live_server, round_of_three):
    rating_round, rina, mine = round_of_three
    for assignment in mine[:2]:
        submit_rating(assignment=assignment, user=rina, levels=dict.fromkeys(CRITERIA, 0.5))
    sign_in(page, live_server, "rina", f"/ratings/{rating_round.pk}/rate/")
    expect_item(page, mine[2], 3, 2)
    pick_levels_by_keyboard(page, LEVELS)
    page.keyboard.press("Enter")
    done = page.locator("#rate-done")
    expect(done).to_contain_text("All done. You have rated all 3 of your items")
    messages = page.locator("#rate-item .messages")
    expect(messages).to_contain_text("That was the last one: all 3 of your items are rated.")
    expect(messages).not_to_contain_text("next one")
    page.keyboard.press("p")  # back to the last item, to change it
    expect_item(page, mine[2], 3, 3)
    expect(page.locator("#changing")).to_be_visible()
    assert_no_csp_violations(page)
