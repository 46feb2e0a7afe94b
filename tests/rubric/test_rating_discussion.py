"""A rating item's discussion: raters join once they have rated it (rating stays blind),
managers always; mentions only reach people who may read the thread."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from bs4 import BeautifulSoup
from django.test import Client
from django.urls import reverse

from reflections.models import Mention
from rubric.models import RatingAssignment, RatingRound, RoundItem
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.rubric.rating_support import make_rubric

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture
def world():
    sales = DepartmentFactory(slug="sales", name="Sales")
    reflection = ReflectionFactory(agent=AgentFactory(department=sales), title="Lesson one")
    rita = UserFactory(username="rita", roles=["rater"], departments=[sales])
    ray = UserFactory(username="ray", roles=["rater"], departments=[sales])
    mara = UserFactory(username="mara", roles=["manager"])
    rating_round = RatingRound.objects.create(
        name="June round", rubric=make_rubric(), size=1, seed=1, created_at=NOW
    )
    item = RoundItem.objects.create(
        rating_round=rating_round, reflection=reflection, position=1, stratum="sales/x/y"
    )
    RatingAssignment.objects.create(item=item, rater=rita, submitted_at=NOW)
    RatingAssignment.objects.create(item=item, rater=ray)  # not rated yet
    return {"round": rating_round, "item": item, "rita": rita, "ray": ray, "mara": mara}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def urls(world):
    args = [world["round"].pk, 1]
    return reverse("ratings:item", args=args), reverse("ratings:comment", args=args)


def test_a_rater_who_has_rated_discusses_and_mentions_the_manager(world):
    page_url, comment_url = urls(world)
    rita = client_for(world["rita"])
    response = rita.post(comment_url, {"body": "Is *this* specific? @mara @ray"})
    assert response.status_code == 302
    page = BeautifulSoup(rita.get(page_url).content, "html.parser")
    assert page.select_one("#discussion .prose em").get_text() == "this"
    # ray has not rated it yet: he may not read the thread, so he is not mentioned
    assert [m.user.username for m in Mention.objects.all()] == ["mara"]


def test_a_rater_who_has_not_rated_it_cannot_open_its_thread(world):
    page_url, comment_url = urls(world)
    ray = client_for(world["ray"])
    assert ray.get(page_url).status_code == 404
    assert ray.post(comment_url, {"body": "hi"}).status_code == 404


def test_the_thread_never_shows_scores_and_the_manager_reads_it(world):
    page_url, comment_url = urls(world)
    client_for(world["rita"]).post(comment_url, {"body": "rated it"})
    page = client_for(world["mara"]).get(page_url)
    assert page.status_code == 200
    assert b"rated it" in page.content
    assert b"mean" not in page.content.lower()


def test_the_round_links_the_discussion(world):
    page = client_for(world["mara"]).get(reverse("ratings:round", args=[world["round"].pk]))
    assert urls(world)[0].encode() in page.content


def test_the_writer_learns_that_a_rater_who_has_not_rated_it_was_not_notified(world):
    _, comment_url = urls(world)
    response = client_for(world["rita"]).post(
        comment_url, {"body": "@mara @ray look"}, headers={"HX-Request": "true"}
    )
    notes = BeautifulSoup(response.content, "html.parser").select("#comment-notes li")
    assert [n.get_text() for n in notes] == ["@ray was not notified: they cannot open this item."]


def test_suggestions_offer_only_those_who_may_read_the_thread(world):
    suggest = reverse("ratings:mention-suggestions", args=[world["round"].pk, 1])
    rita = client_for(world["rita"])
    page = BeautifulSoup(rita.get(suggest, {"body": "hi @"}).content, "html.parser")
    assert [b["data-mention"] for b in page.select(".mention-pick")] == ["mara"]
    assert client_for(world["ray"]).get(suggest, {"body": "@"}).status_code == 404
