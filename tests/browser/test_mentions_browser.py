"""Mentions that say what happened, in a real browser: c opens the comment box, typing @ma
lists the colleagues who can see the item (↓ and Enter pick one), and after posting the
writer reads which mentions reached nobody and why, and what the scanner hid; s marks the
item unsure; the ? list names both keys."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from reflections.models import Mention
from tests.browser.support import BROWSER, assert_no_csp_violations, sign_in
from tests.reviews.together_support import make_world

pytestmark = [*BROWSER, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world():
    return make_world(4)  # ana: ranks 1 and 3; ben: 2 and 4; mara manages


def item_path(world, rank: int) -> str:
    return reverse("reviews:item", kwargs={"pk": world["cycle"].pk, "rank": rank})


def test_a_writer_picks_a_mention_and_learns_which_mentions_reached_nobody(
    page, live_server, world
):
    sign_in(page, live_server, "ana", item_path(world, 1))
    page.keyboard.press("c")
    box = page.locator("#comment-body")
    expect(box).to_be_focused()
    box.type("Is this still current, @ma")
    suggestions = page.locator("#mention-suggestions .mention-pick")
    expect(suggestions).to_have_text(["@mara"])  # ben cannot open ana's item yet
    page.keyboard.press("ArrowDown")
    expect(suggestions.first).to_be_focused()
    page.keyboard.press("Enter")
    expect(box).to_have_value("Is this still current, @mara ")
    expect(box).to_be_focused()
    box.type("and @be")
    expect(page.locator("#mention-none")).to_contain_text("starting with “be”")
    box.type("n and @nobody?")
    page.click("#comment-form button[type=submit]")

    notes = page.locator("#comment-notes")
    expect(notes).to_contain_text("@ben was not notified: they cannot open this item.")
    expect(notes).to_contain_text("@nobody was not notified: nobody here has that username.")
    expect(notes).not_to_contain_text("@mara")
    assert [m.user.username for m in Mention.objects.all()] == ["mara"]

    page.fill("#comment-body", "Looks stale<script>alert(1)</script>")
    page.click("#comment-form button[type=submit]")
    expect(page.locator("#discussion .comment").last).to_contain_text("[REDACTED:injection]")
    expect(page.locator("#comment-notes")).to_contain_text(
        "Part of your comment now reads [REDACTED:injection]: it reads like an instruction to "
        "an AI agent"
    )
    assert_no_csp_violations(page)


def test_s_marks_the_item_unsure_and_the_keys_list_names_s_and_c(page, live_server, world):
    sign_in(page, live_server, "ana", item_path(world, 3))
    page.keyboard.press("?")
    help_list = page.locator("#keys-help")
    expect(help_list).to_be_visible()
    keys = help_list.locator("dt kbd").all_text_contents()
    assert "s" in keys and "c" in keys
    expect(help_list).to_contain_text("Unsure — needs discussion")
    expect(help_list).to_contain_text("Write a comment in the discussion")
    page.keyboard.press("Escape")
    page.keyboard.press("s")
    expect(page.locator("#discussion .badge-unsure")).to_be_visible()
    assert world["cycle"].items.get(rank=3).is_unsure
    assert_no_csp_violations(page)
