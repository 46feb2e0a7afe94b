"""Reviewers working together, in a real browser: a thread with a mention that reaches the
colleague's mentions list, unsure → resolved by the manager, a bulk duplicate and its undo."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reviews.models import Decision
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.reviews.together_support import make_world

pytestmark = BROWSER


@pytest.fixture
def world(db):
    return make_world(6)  # ana: ranks 1, 3 and 5; ben: 2, 4 and 6


def item_path(world, rank: int) -> str:
    return reverse("reviews:item", kwargs={"pk": world["cycle"].pk, "rank": rank})


def cycle_path(world) -> str:
    return reverse("reviews:cycle", args=[world["cycle"].pk])


@pytest.mark.django_db(transaction=True)
def test_a_thread_with_a_mention_reaches_the_colleagues_mentions(browser, page, live_server, world):
    sign_in(page, live_server, "ana", item_path(world, 1))
    page.click("#unsure-form button")  # ben may read it now, so he may be mentioned
    expect(page.locator("#discussion h2 .badge-unsure")).to_be_visible()
    page.fill("#comment-body", "Is this **still** true, @ben? Ask @nobody too.")
    page.click("#comment-form button[type=submit]")
    comment = page.locator("#discussion .comment").last
    expect(comment.locator(".prose strong")).to_have_text("still")
    expect(comment).to_contain_text("@nobody")  # unknown names stay text
    assert_no_csp_violations(page)

    ben = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(ben, live_server, "ben", "/reflections/")
    expect(ben.locator("#nav-mentions .badge-count")).to_have_text("1")
    ben.click("#nav-mentions")
    mention = ben.locator(".mention").first
    expect(mention).to_contain_text("Sales 2026Q3 #1")
    expect(mention).to_contain_text("ana")
    mention.locator("a").first.click()
    expect(ben.locator("#item-title")).to_have_text("Lesson 1")
    expect(ben.locator("#discussion .comment .prose strong")).to_have_text("still")
    expect(ben.locator("#nav-mentions .badge-count")).to_have_count(0)  # read now
    expect(ben.locator("button[name=verdict]")).to_have_count(0)  # ana's item: ben discusses
    ben.fill("#comment-body", "Still true, @ana: keep it.")
    ben.click("#comment-form button[type=submit]")
    expect(ben.locator("#discussion .comment")).to_have_count(2)
    ben.context.close()


@pytest.mark.django_db(transaction=True)
def test_unsure_is_listed_for_the_manager_who_resolves_it(browser, page, live_server, world):
    sign_in(page, live_server, "ana", item_path(world, 3))
    page.click("#unsure-form button")
    expect(page.locator("#discussion .badge-unsure")).to_be_visible()
    expect(page.locator("#queue-item .messages")).to_contain_text("marked unsure")
    assert_no_csp_violations(page)

    mara = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(mara, live_server, "mara", cycle_path(world))
    listed = mara.locator("#unsure li a")
    expect(listed).to_have_text(["#3 Lesson 3"])
    listed.first.click()
    mara.click("#resolve-form button")
    expect(mara.locator("#discussion .badge-unsure")).to_have_count(0)
    mara.goto(f"{live_server.url}{cycle_path(world)}")
    expect(mara.locator("#unsure")).to_have_count(0)
    mara.context.close()

    item = world["cycle"].items.get(rank=3)
    assert not item.is_unsure and not item.verdict
    assert list(item.decisions.values_list("action", flat=True)) == ["unsure", "resolved"]


@pytest.mark.django_db(transaction=True)
def test_a_bulk_duplicate_and_its_undo(page, live_server, world):
    sign_in(page, live_server, "ana", cycle_path(world))
    original = world["cycle"].items.get(rank=1).reflection
    page.check("#pick-3")
    page.check("#pick-5")
    page.select_option("#bulk-action", "duplicate")
    page.select_option("#bulk-original", str(original.pk))
    page.click("#bulk-submit")
    expect(page.locator("#confirm-title")).to_have_text(
        "Mark 2 items as duplicates of #1 Lesson 1?"
    )
    page.click("#bulk-confirm-submit")
    expect(page.locator(".messages")).to_contain_text("Marked 2 items as duplicates")
    expect(page.locator("#bulk-form tbody tr").nth(1)).to_contain_text("Duplicate")
    expect(page.locator("#bulk-form tbody tr").nth(2)).to_contain_text("Duplicate")
    items = world["cycle"].items
    assert list(items.filter(rank__in=[1, 3, 5]).values_list("verdict", flat=True)) == [
        "",
        "duplicate",
        "duplicate",
    ]

    page.locator("[id^=undo-batch-]").click()
    expect(page.locator(".messages")).to_contain_text("Undid the batch: 2 items as they were.")
    assert set(items.values_list("verdict", flat=True)) == {""}
    actions = list(Decision.objects.order_by("id").values_list("item__rank", "action"))
    assert actions == [(3, "verdict"), (5, "verdict"), (3, "undo"), (5, "undo")]
    assert_no_csp_violations(page)
