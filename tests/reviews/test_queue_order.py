"""Working the queue in the order of a signal's score, and the cycle page's score
distributions with each signal's cut."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from reflections.services.rollups import refresh_retrieval_rollup
from reviews import charts
from reviews.selectors import signal_table
from reviews.services.cycles import open_cycle
from reviews.signals import CUTS, HELD_OUT, NAMES
from tests.factories import AgentFactory, ReflectionFactory, RetrievalEventFactory, UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

# Duplicate scores by rank: rank 3 first, then 1, 4, 2.
DUPLICATE = {1: 0.6, 2: 0.1, 3: 0.9, 4: 0.3}


@pytest.fixture
def cycle(sales, ana):
    agent = AgentFactory(name="sales-bot", department=sales)
    for n in range(4):
        r = ReflectionFactory(agent=agent, title=f"Lesson {n}")
        for minute in range(10 - n):
            RetrievalEventFactory(
                reflection=r, retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC)
            )
    refresh_retrieval_rollup()
    return open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])


@pytest.fixture
def scored(cycle, monkeypatch):
    """The cycle's scores as the table holds them: duplicate as above, echo and outdated low."""
    ranks = dict(cycle.items.values_list("pk", "rank"))
    table = {
        pk: {
            "scores": {"echo": 0.05 * rank, "outdated": 0.0, "duplicate": DUPLICATE[rank]},
            "flagged": ["duplicate"] if DUPLICATE[rank] >= CUTS["duplicate"] else [],
            "lift": None,
        }
        for pk, rank in ranks.items()
    }
    monkeypatch.setattr(signal_table, "_scored", lambda c: table)
    return table


def queue(cycle, order=None):
    url = reverse("reviews:queue", args=[cycle.pk])
    return f"{url}?order={order}" if order else url


def test_the_queue_starts_at_the_highest_score_of_the_chosen_signal(cycle, ana, scored):
    client = client_for(ana)
    response = client.get(queue(cycle, "duplicate"))
    assert response["Location"] == reverse("reviews:item", args=[cycle.pk, 3])

    page = soup_of(client.get(response["Location"]))
    assert "in order of duplicate score, highest first" in page.select_one("#queue-order").text
    assert page.select_one("#queue-next")["href"] == reverse("reviews:item", args=[cycle.pk, 1])
    assert not page.select_one("#queue-prev")


def test_a_verdict_moves_on_in_the_chosen_order(cycle, ana, scored):
    client = client_for(ana)
    client.get(queue(cycle, "duplicate"))
    item = reverse("reviews:item", args=[cycle.pk, 3])
    shown = soup_of(client.get(item)).select_one("#shown")["value"]

    response = client.post(
        reverse("reviews:decide", args=[cycle.pk, 3]),
        {"verdict": "keep", "version": 0, "shown": shown},
    )

    assert response["Location"] == reverse("reviews:item", args=[cycle.pk, 1])


def test_rank_order_comes_back_and_an_unknown_order_is_ignored(cycle, ana, scored):
    client = client_for(ana)
    client.get(queue(cycle, "duplicate"))
    assert client.get(queue(cycle, "rank"))["Location"].endswith("/items/1/")
    assert client.get(queue(cycle, "<script>"))["Location"].endswith("/items/1/")
    page = soup_of(client.get(reverse("reviews:item", args=[cycle.pk, 1])))
    assert page.select_one("#queue-order") is None


def test_the_order_is_kept_per_cycle(cycle, ana, scored):
    client = client_for(ana)
    client.get(queue(cycle, "duplicate"))
    session = client.session
    assert session[f"queue-order-{cycle.pk}"] == "duplicate"
    assert [k for k in session.keys() if k.startswith("queue-order-")] == [  # noqa: SIM118
        f"queue-order-{cycle.pk}"
    ]


def test_the_signal_view_offers_the_queue_in_the_order_it_is_sorted_by(cycle, ana, scored):
    page = soup_of(client_for(ana).get(reverse("reviews:cycle", args=[cycle.pk]), {"sort": "echo"}))
    link = page.select_one("#queue-in-order")
    assert link["href"] == queue(cycle, "echo")
    ranks = [int(td.text) for td in page.select("table.results tbody tr td:first-child")]
    assert ranks == [4, 3, 2, 1]  # echo score 0.05 x rank, highest first


def test_the_signal_view_shows_each_signals_scores_and_their_distribution_with_the_cut(
    cycle, scored, sales
):
    manager = UserFactory(roles=["manager"])
    page = soup_of(
        client_for(manager).get(reverse("reviews:cycle", args=[cycle.pk]), {"signals": "1"})
    )
    figures = page.select("#signal-distributions .signal-distribution")
    assert [f["data-signal"] for f in figures] == list(NAMES)
    duplicate = figures[2]
    summary = duplicate.select_one("figure + p").get_text(" ", strip=True)
    flagged = sum(1 for s in DUPLICATE.values() if s >= CUTS["duplicate"])
    assert f"{flagged} at or above the cut {CUTS['duplicate']:.2f}" in summary
    spec = charts.score_distribution("duplicate", list(DUPLICATE.values()), CUTS["duplicate"])
    assert spec["layer"][1]["mark"]["type"] == "rule"
    assert spec["layer"][1]["data"]["values"] == [
        {"cut": CUTS["duplicate"], "label": f"cut {CUTS['duplicate']:.2f}"}
    ]
    # Under each cut, how far its flag held on memory written by other people.
    for name, figure in zip(NAMES, figures, strict=True):
        said = figure.select_one(".signal-held-out").get_text(strip=True)
        assert said == HELD_OUT[name].sentence()
    header = [th.get_text(strip=True) for th in page.select("table.results thead th")]
    assert header[4:7] == ["Echo", "Outdated", "Duplicate"]
    first = page.select_one("table.results tbody tr")
    assert [td.get_text(strip=True) for td in first.select("td.col-score")] == [
        "0.05",
        "0.00",
        "0.60",
    ]
