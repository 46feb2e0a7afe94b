"""A duplicate candidate side by side with the item, both texts whole and every changed word
marked; nothing a reviewer may not see."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reflections.models import State
from tests.pages import client_for, soup_of
from tests.reviews.guard_support import near

pytestmark = pytest.mark.django_db


def compare_url(cycle, item, other) -> str:
    return reverse("reviews:compare", args=[cycle.pk, item.rank, other.pk])


def test_the_queue_links_each_candidate_to_the_whole_side_by_side(world):
    cycle, ana, _, r, items = world
    near(r["B"], r["A"], 0.8)
    page = soup_of(client_for(ana).get(reverse("reviews:item", args=[cycle.pk, items["B"].rank])))
    links = [a["href"] for a in page.select("a.compare-link")]
    assert compare_url(cycle, items["B"], r["A"]) in links


def test_both_texts_are_shown_whole_with_the_changed_words_marked(world):
    cycle, ana, _, r, items = world
    r["A"].body = "Match the payment reference first, then the amount. " * 40
    r["B"].body = "Match the amount first, then the payment reference. " * 40
    for reflection in (r["A"], r["B"]):
        reflection.save()
    near(r["B"], r["A"], 0.8)
    page = soup_of(client_for(ana).get(compare_url(cycle, items["B"], r["A"])))

    this, candidate = page.select("#compare .compare-text")
    assert this.get_text().count("Match the amount first") == 40  # nothing cut short
    assert candidate.get_text().count("Match the payment reference first") == 40
    assert this.select("mark") and candidate.select("mark")
    assert "Similarity 0.80" in page.get_text()
    assert page.select_one("#back-to-item")["href"].endswith(f"/items/{items['B'].rank}/")


def test_imported_text_is_escaped(world):
    cycle, ana, _, r, items = world
    r["A"].body = "<script>alert(1)</script> keep this"
    r["A"].save()
    answer = client_for(ana).get(compare_url(cycle, items["B"], r["A"]))
    assert b"<script>alert(1)</script>" not in answer.content
    assert b"&lt;script&gt;" in answer.content


def test_another_departments_or_a_quarantined_reflection_is_not_shown(world):
    cycle, ana, _, r, items = world
    assert client_for(ana).get(compare_url(cycle, items["B"], r["F"])).status_code == 404
    r["A"].state = State.QUARANTINED
    r["A"].save()
    assert client_for(ana).get(compare_url(cycle, items["B"], r["A"])).status_code == 404


def test_someone_without_the_cycle_cannot_open_it(world):
    cycle, _, bob, r, items = world
    assert client_for(bob).get(compare_url(cycle, items["B"], r["A"])).status_code in (403, 404)


def test_an_item_is_not_compared_with_itself(world):
    cycle, ana, _, r, items = world
    assert client_for(ana).get(compare_url(cycle, items["B"], r["B"])).status_code == 404
