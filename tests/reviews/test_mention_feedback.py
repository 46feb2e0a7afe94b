"""A comment's writer is told what happened to it: which @names reached nobody and why, what
the scanner hid and why; and while typing @name, who of the people able to see the item match."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.urls import reverse

from reflections.models import Mention
from reflections.selectors.discussion import mention_suggestions
from reviews.services.item_discussion import comment_on_item
from tests.factories import DepartmentFactory, UserFactory
from tests.reviews.together_support import client_for, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return make_world()


def first_item(world):
    return world["cycle"].items.select_related("reflection", "cycle__department").get(rank=1)


def url(world, name: str, rank: int = 1) -> str:
    return reverse(name, kwargs={"pk": world["cycle"].pk, "rank": rank})


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


def test_each_mention_that_reaches_nobody_is_named_with_the_reason(world):
    UserFactory(username="gone", roles=["reviewer"], departments=[world["sales"]], is_active=False)
    body = "@mara @ben @nobody @gone @ana look"
    posted = comment_on_item(item=first_item(world), user=world["ana"], body=body)
    assert posted.delivered == ["mara"]
    assert posted.undelivered == [
        ("ben", "they cannot open this item"),
        ("nobody", "nobody here has that username"),
        ("gone", "nobody here has that username"),
        ("ana", "that is you"),
    ]
    assert [m.user.username for m in Mention.objects.all()] == ["mara"]
    assert posted.notes[0] == "@ben was not notified: they cannot open this item."


def test_the_page_tells_the_writer_after_posting(world):
    response = client_for(world["ana"]).post(
        url(world, "reviews:comment"), {"body": "ask @ben and @zed"}, headers={"HX-Request": "true"}
    )
    notes = soup(response).select("#comment-notes li")
    assert [n.get_text() for n in notes] == [
        "@ben was not notified: they cannot open this item.",
        "@zed was not notified: nobody here has that username.",
    ]


def test_without_htmx_the_notes_come_as_messages(world):
    client = client_for(world["ana"])
    response = client.post(url(world, "reviews:comment"), {"body": "ask @zed"}, follow=True)
    assert "Posted, but @zed was not notified" in response.content.decode()


def test_a_delivered_mention_alone_needs_no_note(world):
    response = client_for(world["ana"]).post(
        url(world, "reviews:comment"), {"body": "ask @mara"}, headers={"HX-Request": "true"}
    )
    assert soup(response).select_one("#comment-notes") is None


def test_text_the_scanner_hides_is_named_with_the_reason(world):
    posted = comment_on_item(
        item=first_item(world), user=world["ana"], body="stale<script>alert(1)</script>"
    )
    assert posted.redacted == ["injection"]
    assert "[REDACTED:injection]" in posted.comment.body
    assert posted.notes == [
        "Part of your comment now reads [REDACTED:injection]: it reads like an instruction to "
        "an AI agent (a prompt injection) or markup, and comments never store such text."
    ]


def test_suggestions_list_only_people_who_can_see_the_item(world):
    finance = DepartmentFactory(slug="finance")
    UserFactory(username="mark", roles=["reviewer"], departments=[finance])
    client = client_for(world["ana"])
    page = soup(client.get(url(world, "reviews:mention-suggestions"), {"body": "hi @ma"}))
    assert [b["data-mention"] for b in page.select(".mention-pick")] == ["mara"]
    # ben may not open ana's item, so he is not offered; nor is ana herself.
    page = soup(client.get(url(world, "reviews:mention-suggestions"), {"body": "@"}))
    assert [b["data-mention"] for b in page.select(".mention-pick")] == ["mara"]
    page = soup(client.get(url(world, "reviews:mention-suggestions"), {"body": "@be"}))
    assert page.select_one("#mention-none") is not None


def test_no_suggestions_unless_an_at_name_is_being_typed(world):
    see_all = lambda person: True  # noqa: E731
    assert mention_suggestions("mail a@ma", author=world["ana"], may_see=see_all) == (None, [])
    assert mention_suggestions("@ma done", author=world["ana"], may_see=see_all) == (None, [])
    assert mention_suggestions("ask @ma", author=world["ana"], may_see=see_all) == ("ma", ["mara"])


def test_suggestions_are_refused_to_someone_who_cannot_see_the_item(world):
    outsider = UserFactory(username="olga", roles=["reviewer"], departments=[])
    response = client_for(outsider).get(url(world, "reviews:mention-suggestions"), {"body": "@"})
    assert response.status_code in (403, 404)


def test_the_comment_box_asks_for_suggestions_and_the_queue_keys_name_s_and_c(world):
    page = soup(client_for(world["ana"]).get(url(world, "reviews:item")))
    box = page.select_one("#comment-body")
    assert box["hx-get"] == url(world, "reviews:mention-suggestions")
    assert box["hx-target"] == "#mention-suggestions"
    keys = [dt.get_text(strip=True) for dt in page.select("#keys-help dt")]
    assert "s" in keys and "c" in keys
    assert page.select_one('#unsure-form button[data-key="s"]') is not None
