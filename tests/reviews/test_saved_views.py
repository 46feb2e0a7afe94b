"""A person's saved views of a cycle's page: named filters kept for every cycle, theirs alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from reflections.services.rollups import refresh_retrieval_rollup
from reviews.models import SavedView
from reviews.services.cycles import open_cycle
from tests.factories import RetrievalEventFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db


def cycle_url(cycle) -> str:
    return reverse("reviews:cycle", args=[cycle.pk])


def next_quarter(cycle, reflection, reviewer):
    """The department's 2026Q4 cycle (its lesson retrieved in August)."""
    RetrievalEventFactory(reflection=reflection, retrieved_at=datetime(2026, 8, 1, tzinfo=UTC))
    refresh_retrieval_rollup()
    return open_cycle(department=cycle.department, quarter="2026Q4", reviewers=[reviewer])


def save(client, cycle, name, **filters):
    return client.post(reverse("reviews:view-save", args=[cycle.pk]), {"name": name, **filters})


def test_a_view_saved_on_one_cycle_opens_the_next_cycle_the_same_way(world):
    cycle, ana, _, r, _ = world
    page = soup_of(client_for(ana).get(cycle_url(cycle), {"signals": "1", "sort": "echo"}))
    fields = page.select("#save-view input[type=hidden]")
    hidden = {i["name"]: i["value"] for i in fields if i["name"] != "csrfmiddlewaretoken"}
    assert hidden == {"signals": "1", "sort": "echo"}

    answer = save(client_for(ana), cycle, "Echo first", **hidden)
    assert answer.status_code == 302 and "sort=echo" in answer["Location"]
    later = next_quarter(cycle, r["A"], ana)
    links = soup_of(client_for(ana).get(cycle_url(later))).select("#saved-views a")
    assert [(a.get_text(), a["href"]) for a in links] == [
        ("Echo first", f"{cycle_url(later)}?signals=1&sort=echo#signals")
    ]


def test_only_the_pages_filters_are_kept_and_a_typed_secret_is_masked(world):
    cycle, ana, _, _, _ = world
    save(client_for(ana), cycle, "Mine", verdict="keep", q="key AKIAZ7Q3XK5R2M4W6N8P", evil="1")
    view = SavedView.objects.get()
    assert "evil" not in view.query and "verdict=keep" in view.query
    assert "AKIAZ7Q3XK5R2M4W6N8P" not in view.query


def test_nothing_to_save_is_said_and_nothing_is_saved(world):
    cycle, ana, _, _, _ = world
    answer = save(client_for(ana), cycle, "Empty")
    assert answer.status_code == 302 and not SavedView.objects.exists()


def test_views_are_their_owners_alone(world):
    cycle, ana, bob, r, _ = world
    save(client_for(ana), cycle, "Echo first", signals="1", sort="echo")
    view = SavedView.objects.get()
    bobs_cycle = next_quarter(cycle, r["A"], bob)
    assert not soup_of(client_for(bob).get(cycle_url(bobs_cycle))).select("#saved-views a")
    delete = reverse("reviews:view-delete", args=[bobs_cycle.pk, view.pk])
    assert client_for(bob).post(delete).status_code == 404
    assert SavedView.objects.filter(pk=view.pk).exists()


def test_deleting_takes_a_post_with_its_csrf_token(world):
    cycle, ana, _, _, _ = world
    save(client_for(ana), cycle, "Echo first", signals="1", sort="echo")
    view = SavedView.objects.get()
    delete = reverse("reviews:view-delete", args=[cycle.pk, view.pk])
    assert client_for(ana).get(delete).status_code == 405
    assert client_for(ana, enforce_csrf_checks=True).post(delete).status_code == 403
    assert client_for(ana).post(delete).status_code == 302
    assert not SavedView.objects.exists()
