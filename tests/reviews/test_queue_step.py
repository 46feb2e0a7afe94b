"""A verdict whose next item the page already holds (issue 14): queue.js fetches that item while
the current one is read, names it with the verdict, and the verdict answers with a small step
(the header as the verdict left the queue, the messages, a fresh "shown" time) instead of the
whole next item. Anything the page does not hold, or holds in an older version, gets the whole
item as before, and so does a plain form post."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from reflections.models import Comment, Mention
from reflections.services.rollups import refresh_retrieval_rollup
from reviews.forms import unsign_shown
from reviews.services.cycles import open_cycle
from reviews.services.verdicts import decide
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def cycle(sales, ana):
    """Four items, ranks 1 to 4, all in ana's queue."""
    agent = AgentFactory(name="sales-bot", department=sales)
    for n in range(4):
        reflection = ReflectionFactory(agent=agent, title=f"Lesson {n} <b>bold</b>")
        for minute in range(10 - n):
            RetrievalEventFactory(
                reflection=reflection, retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC)
            )
    refresh_retrieval_rollup()  # factories bypass the import that keeps it
    return open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])


def url(cycle, rank: int, name: str = "reviews:item") -> str:
    return reverse(name, kwargs={"pk": cycle.pk, "rank": rank})


def held(client, cycle, rank: int) -> str:
    """What queue.js sends after fetching item `rank` in the background: rank@version."""
    fetched = soup_of(client.get(url(cycle, rank), headers={**HTMX, "X-Queue-Prefetch": "1"}))
    version = fetched.select_one('#verdict-form [name="version"]')["value"]
    return f"{rank}@{version}"


def keep(client, cycle, rank: int, holding: str | None):
    headers = {**HTMX, "X-Queue-Held": holding} if holding else HTMX
    return client.post(url(cycle, rank, "reviews:decide"), {"verdict": "keep", "version": 0},
                       headers=headers)  # fmt: skip


def test_the_page_names_the_item_a_verdict_moves_on_to(cycle, ana):
    page = soup_of(client_for(ana).get(url(cycle, 1)))
    spot = page.select_one("#queue-prefetch")
    assert (spot["data-rank"], spot["data-url"]) == ("2", url(cycle, 2))
    assert spot.has_attr("hidden")


def test_a_verdict_on_an_item_whose_next_the_page_holds_answers_with_a_small_step(cycle, ana):
    client = client_for(ana)
    response = keep(client, cycle, 1, held(client, cycle, 2))

    assert response.status_code == 200
    assert response["X-Queue-Step"] == "2"
    assert response["HX-Push-Url"] == url(cycle, 2)
    step = soup_of(response)
    assert step.select_one("#queue-step")["data-rank"] == "2"
    assert step.select_one("#queue-item") is None and step.select_one(".queue-grid") is None
    assert "Item 2 of 4 · 1 done" in step.select_one(".queue-position").get_text(" ", strip=True)
    assert step.select_one("#queue-prefetch")["data-rank"] == "3"  # and the one after it
    message = step.select_one("#queue-messages .messages").get_text()
    assert "#1 Lesson 0 <b>bold</b>: Keep." in message  # escaped text, as on the full item
    assert "<b>bold</b>" not in response.content.decode()
    assert cycle.items.get(rank=1).verdict == "keep"


def test_the_step_signs_a_fresh_shown_time_for_the_next_item(cycle, ana):
    client = client_for(ana)
    before = timezone.now().replace(microsecond=0)
    step = soup_of(keep(client, cycle, 1, held(client, cycle, 2)))
    second = cycle.items.get(rank=2)
    shown = unsign_shown(step.select_one("#shown")["value"], second.pk)
    assert shown is not None and shown >= before
    assert unsign_shown(step.select_one("#shown")["value"], cycle.items.get(rank=1).pk) is None


def test_the_step_costs_fewer_queries_than_the_whole_next_item(cycle, ana):
    client = client_for(ana)
    with CaptureQueriesContext(connection) as whole:
        assert "X-Queue-Step" not in keep(client, cycle, 1, None)
    whole_count = len(whole)  # read now: the next request starts a new query log
    holding = held(client, cycle, 3)
    with CaptureQueriesContext(connection) as step:
        assert keep(client, cycle, 2, holding)["X-Queue-Step"] == "3"
    assert len(step) < whole_count - 5


@pytest.mark.parametrize(
    "holding",
    [
        "3@0",  # not the item the verdict moves on to
        "2@7",  # the item, but changed since the page fetched it
        "2",  # malformed
        "two@0",
    ],
)
def test_a_verdict_holding_anything_else_answers_with_the_whole_next_item(cycle, ana, holding):
    response = keep(client_for(ana), cycle, 1, holding)
    assert response.status_code == 200 and "X-Queue-Step" not in response
    page = soup_of(response)
    assert page.select_one("#queue-item")["data-rank"] == "2"
    assert page.select_one(".queue-grid") is not None


def test_a_plain_form_post_ignores_what_a_page_holds(cycle, ana):
    client = client_for(ana)
    response = client.post(url(cycle, 1, "reviews:decide"), {"verdict": "keep", "version": 0},
                           headers={"X-Queue-Held": "2@0"})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == url(cycle, 2)


def test_the_last_open_item_still_answers_with_a_step_that_says_so(cycle, ana):
    for rank in (1, 2, 4):
        decide(item_id=cycle.items.get(rank=rank).pk, user=ana, verdict="keep", version=0)
    client = client_for(ana)
    page = soup_of(client.get(url(cycle, 3)))
    assert page.select_one("#queue-prefetch")["data-rank"] == "4"  # none open: the next in line
    step = soup_of(keep(client, cycle, 3, held(client, cycle, 4)))
    assert "all 4 have a verdict" in step.select_one("#queue-messages").get_text()


def test_fetching_the_next_item_in_the_background_leaves_its_mentions_unread(cycle, ana, sales):
    second = cycle.items.get(rank=2)
    comment = Comment.objects.create(
        thread=second.thread_key, reflection=second.reflection, department=sales,
        url=url(cycle, 2), label="#2", author=UserFactory(), body="@ana look", at=timezone.now(),
    )  # fmt: skip
    mention = Mention.objects.create(comment=comment, user=ana)
    client = client_for(ana)

    holding = held(client, cycle, 2)
    mention.refresh_from_db()
    assert mention.seen_at is None  # fetched, not shown

    keep(client, cycle, 1, holding)
    mention.refresh_from_db()
    assert mention.seen_at is not None  # shown by the step


def test_a_reviewer_of_another_department_cannot_fetch_an_item_in_the_background(cycle):
    outsider = UserFactory(roles=["reviewer"], departments=[DepartmentFactory(slug="finance")])
    response = client_for(outsider).get(url(cycle, 2), headers={**HTMX, "X-Queue-Prefetch": "1"})
    assert response.status_code == 404


def test_fetching_the_next_item_in_the_background_leaves_waiting_messages_for_the_page(cycle, ana):
    client = client_for(ana)
    client.post(url(cycle, 1, "reviews:decide"), {"verdict": "keep", "version": 0})  # no htmx

    fetched = soup_of(client.get(url(cycle, 2), headers={**HTMX, "X-Queue-Prefetch": "1"}))
    assert fetched.select_one("#queue-messages .messages") is None

    shown = soup_of(client.get(url(cycle, 2)))
    assert "#1 Lesson 0 <b>bold</b>: Keep." in shown.select_one("#queue-messages").get_text()


def test_the_item_page_and_its_fragment_are_never_cached_for_each_other(cycle, ana):
    client = client_for(ana)
    fetched = client.get(url(cycle, 2), headers={**HTMX, "X-Queue-Prefetch": "1"})
    page = client.get(url(cycle, 2))
    assert "<html" not in fetched.content.decode() and "<html" in page.content.decode()
    assert "HX-Request" in fetched["Vary"] and "HX-Request" in page["Vary"]
