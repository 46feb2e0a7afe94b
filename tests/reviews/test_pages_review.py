"""The review pages: who sees what, the queue with and without htmx, conflicts, the report."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.caching import EVENTS, bump_data_version
from reflections.models import Neighbour, Reflection
from reflections.services.rollups import refresh_retrieval_rollup
from reviews.models import Decision, ReviewCycle
from reviews.services.cycles import open_cycle
from reviews.services.verdicts import decide
from tests.factories import (
    AgentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def ben(sales):
    return UserFactory(username="ben", roles=["reviewer"], departments=[sales])


@pytest.fixture
def manager():
    return UserFactory(username="mia", roles=["manager"])


@pytest.fixture
def reflections(sales):
    agent = AgentFactory(name="sales-bot", department=sales)
    made = []
    for n in range(4):
        r = ReflectionFactory(agent=agent, title=f"Lesson {n} <script>alert({n})</script>")
        for minute in range(10 - n):
            RetrievalEventFactory(
                reflection=r, retrieved_at=datetime(2026, 6, 1, 0, minute, tzinfo=UTC)
            )
        made.append(r)
    refresh_retrieval_rollup()  # factories bypass the import that keeps it
    return made


@pytest.fixture
def cycle(sales, reflections, ana, ben):
    return open_cycle(department=sales, quarter="2026Q3", reviewers=[ana, ben])


def item_url(cycle, rank, action=""):
    name = {"": "reviews:item", "decide": "reviews:decide", "undo": "reviews:undo"}[action]
    return reverse(name, kwargs={"pk": cycle.pk, "rank": rank})


class TestAccess:
    def test_signed_out_people_are_sent_to_sign_in(self, cycle):
        response = Client().get(reverse("reviews:list"))
        assert response.status_code == 302 and "/login/" in response["Location"]

    def test_raters_may_not_see_reviews(self, cycle, sales):
        rater = UserFactory(roles=["rater"], departments=[sales])
        assert client_for(rater).get(reverse("reviews:list")).status_code == 403

    def test_a_reviewer_outside_the_cycle_cannot_open_it(self, cycle, sales):
        other = UserFactory(roles=["reviewer"], departments=[sales])
        client = client_for(other)
        assert client.get(reverse("reviews:cycle", args=[cycle.pk])).status_code == 404
        assert client.get(item_url(cycle, 1)).status_code == 404

    def test_a_reviewer_removed_from_the_department_loses_the_cycle(self, cycle, ana, sales):
        ana.departments.remove(sales)
        assert client_for(ana).get(reverse("reviews:cycle", args=[cycle.pk])).status_code == 404

    def test_reviewers_see_only_their_own_items(self, cycle, ana):
        client = client_for(ana)
        assert client.get(item_url(cycle, 1)).status_code == 200  # dealt to ana
        assert client.get(item_url(cycle, 2)).status_code == 404  # dealt to ben
        listed = soup_of(client.get(reverse("reviews:cycle", args=[cycle.pk])))
        assert [a["href"] for a in listed.select("td.col-title a")] == [
            item_url(cycle, 1),
            item_url(cycle, 3),
        ]

    def test_a_reviewer_cannot_record_a_verdict_on_someone_elses_item(self, cycle, ana):
        response = client_for(ana).post(item_url(cycle, 2, "decide"), {"verdict": "keep"})
        assert response.status_code == 404
        assert not Decision.objects.exists()

    def test_managers_read_every_item_but_cannot_judge_it(self, cycle, manager):
        page = soup_of(client_for(manager).get(item_url(cycle, 2)))
        assert not page.select('button[name="verdict"]')
        assert "only they record its verdict" in page.get_text()

    def test_only_managers_open_cycles(self, ana, sales):
        assert client_for(ana).get(reverse("reviews:open")).status_code == 403

    def test_every_post_needs_the_csrf_token(self, cycle, ana):
        client = Client(enforce_csrf_checks=True)
        client.force_login(ana)
        response = client.post(item_url(cycle, 1, "decide"), {"verdict": "keep", "version": 0})
        assert response.status_code == 403
        assert not Decision.objects.exists()


class TestOpeningFromThePage:
    def test_a_manager_opens_a_cycle_and_lands_on_it(self, sales, reflections, ana, manager):
        response = client_for(manager).post(
            reverse("reviews:open"),
            {
                "department": sales.pk,
                "quarter": "2026q3",
                "window_days": 90,
                "size": 100,
                "reviewers": [ana.pk],
            },
        )
        cycle = ReviewCycle.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("reviews:cycle", args=[cycle.pk])
        assert cycle.quarter == "2026Q3" and cycle.items.count() == 4

    def test_the_form_names_each_department_as_people_know_it(self, sales, manager):
        page = soup_of(client_for(manager).get(reverse("reviews:open")))
        choices = [o.get_text() for o in page.select("select[name=department] option")]
        assert sales.name in choices and sales.slug not in choices

    def test_opening_the_same_quarter_again_shows_why_not(self, cycle, sales, ana, manager):
        response = client_for(manager).post(
            reverse("reviews:open"),
            {
                "department": sales.pk,
                "quarter": "2026Q3",
                "window_days": 90,
                "size": 100,
                "reviewers": [ana.pk],
            },
        )
        assert response.status_code == 400
        assert "Sales already has a review cycle for 2026Q3" in response.content.decode()
        assert ReviewCycle.objects.count() == 1


class TestTheQueueWithoutJavaScript:
    def test_the_queue_starts_at_the_first_item_without_a_verdict(self, cycle, ana):
        decide(item_id=cycle.items.get(rank=1).pk, user=ana, verdict="keep", version=0)
        response = client_for(ana).get(reverse("reviews:queue", args=[cycle.pk]))
        assert response["Location"] == item_url(cycle, 3)

    def test_a_verdict_posts_and_redirects_to_the_next_open_item(self, cycle, ana):
        client = client_for(ana)
        page = soup_of(client.get(item_url(cycle, 1)))
        form = page.select_one("#verdict-form")
        assert form["action"] == item_url(cycle, 1, "decide")
        response = client.post(
            form["action"],
            {
                "verdict": "outdated",
                "version": form.select_one('[name="version"]')["value"],
                "shown": form.select_one('[name="shown"]')["value"],
                "note": "names a retired API",
            },
        )
        assert response.status_code == 302 and response["Location"] == item_url(cycle, 3)
        item = cycle.items.get(rank=1)
        assert (item.verdict, item.note) == ("outdated", "names a retired API")
        assert Reflection.objects.get(pk=item.reflection_id).state == "deprecated"

    def test_undo_returns_to_the_same_item_and_restores_the_state(self, cycle, ana):
        client = client_for(ana)
        client.post(item_url(cycle, 1, "decide"), {"verdict": "echo_chamber", "version": 0})
        response = client.post(item_url(cycle, 1, "undo"), {"version": 1})
        assert response["Location"] == item_url(cycle, 1)
        item = cycle.items.get(rank=1)
        assert item.verdict == ""
        assert Reflection.objects.get(pk=item.reflection_id).state == "active"

    def test_a_stale_page_gets_a_conflict_and_the_current_verdict(self, cycle, ana):
        client = client_for(ana)
        client.post(item_url(cycle, 1, "decide"), {"verdict": "outdated", "version": 0})
        response = client.post(item_url(cycle, 1, "decide"), {"verdict": "keep", "version": 0})
        assert response.status_code == 409
        page = soup_of(response)
        assert "Nothing was overwritten" in page.select_one("#queue-error").get_text()
        assert "Outdated" in page.select_one(".current-verdict").get_text()
        assert cycle.items.get(rank=1).verdict == "outdated"

    def test_a_duplicate_without_a_picked_original_is_explained(self, cycle, ana):
        response = client_for(ana).post(
            item_url(cycle, 1, "decide"), {"verdict": "duplicate", "version": 0}
        )
        assert response.status_code == 422
        assert "must name the reflection it duplicates" in response.content.decode()

    def test_a_forged_shown_time_counts_no_effort(self, cycle, ana):
        client_for(ana).post(
            item_url(cycle, 1, "decide"),
            {"verdict": "keep", "version": 0, "shown": "1700000000"},
        )
        assert cycle.items.get(rank=1).seconds_spent == 0


class TestTheQueueWithHtmx:
    def test_a_verdict_swaps_in_the_next_item_and_pushes_its_url(self, cycle, ana):
        response = client_for(ana).post(
            item_url(cycle, 1, "decide"),
            {"verdict": "keep", "version": 0},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200
        assert response["HX-Push-Url"] == item_url(cycle, 3)
        html = response.content.decode()
        assert "<html" not in html and 'id="queue-item"' in html
        assert 'data-rank="3"' in html

    def test_next_and_previous_load_the_fragment(self, cycle, ana):
        response = client_for(ana).get(item_url(cycle, 3), headers={"HX-Request": "true"})
        page = soup_of(response)
        assert page.select_one("#queue-prev")["hx-get"] == item_url(cycle, 1)
        assert "<html" not in response.content.decode()


class TestWhatTheQueueShows:
    def test_imported_and_typed_text_is_escaped(self, cycle, ana):
        client = client_for(ana)
        client.post(
            item_url(cycle, 1, "decide"),
            {"verdict": "outdated", "version": 0, "note": "<img src=x onerror=alert(1)>"},
        )
        html = client.get(item_url(cycle, 1)).content.decode()
        assert "<script>alert(0)</script>" not in html
        assert "&lt;script&gt;alert(0)&lt;/script&gt;" in html
        assert "<img src=x" not in html

    def test_neighbours_are_offered_as_originals_with_number_keys(
        self, cycle, ana, reflections, sales
    ):
        now = datetime.now(UTC)
        for rank, other in enumerate(reflections[1:3], start=1):
            for a, b in ((reflections[0], other), (other, reflections[0])):
                Neighbour.objects.create(
                    reflection=a,
                    neighbour=b,
                    similarity=0.9 - rank / 10,
                    rank=rank,
                    computed_at=now,
                )
        page = soup_of(client_for(ana).get(item_url(cycle, 1)))
        radios = page.select('input[name="duplicate_of"]')
        assert [(r["value"], r["data-key"]) for r in radios] == [
            (str(reflections[1].pk), "1"),
            (str(reflections[2].pk), "2"),
        ]

    def test_the_page_costs_the_same_queries_however_many_neighbours(
        self, cycle, ana, reflections, sales
    ):
        client = client_for(ana)
        client.get(item_url(cycle, 1))  # warm the session and the role cache
        agent = reflections[0].agent
        now = datetime.now(UTC)

        def queries() -> int:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(item_url(cycle, 1)).status_code == 200
            return len(ctx)

        # One neighbour (which makes a cluster) against seven: the duplicate guard reads the
        # cluster's items once it has one, however many neighbours it has. Neighbours are
        # written here as compute_neighbours writes them, making the prepared evidence stale.
        Neighbour.objects.create(
            reflection=reflections[0], neighbour=reflections[1], similarity=0.8, rank=7,
            computed_at=now,
        )  # fmt: skip
        bump_data_version(EVENTS)
        queries()  # the evidence is prepared again, with the neighbour's figures and diff
        few = queries()
        for n in range(6):
            other = ReflectionFactory(agent=agent, created_at=now + timedelta(days=n))
            Neighbour.objects.create(
                reflection=reflections[0], neighbour=other, similarity=0.8, rank=n + 1,
                computed_at=now,
            )  # fmt: skip
        bump_data_version(EVENTS)
        queries()
        many = queries()
        assert many == few


class TestManagingAndReporting:
    def test_a_manager_reassigns_items_from_the_cycle_page(self, cycle, ben, manager):
        response = client_for(manager).post(
            reverse("reviews:reassign", args=[cycle.pk]), {"ranks": "1, 3", "to_reviewer": ben.pk}
        )
        assert response.status_code == 302
        assert set(cycle.items.filter(reviewer=ben).values_list("rank", flat=True)) == {1, 2, 3, 4}

    def test_bad_ranks_are_explained(self, cycle, ben, manager):
        response = client_for(manager).post(
            reverse("reviews:reassign", args=[cycle.pk]), {"ranks": "1, x", "to_reviewer": ben.pk}
        )
        assert response.status_code == 400
        assert "&#x27;x&#x27; is not a rank" in response.content.decode()

    def test_closing_an_incomplete_cycle_needs_the_box_ticked(self, cycle, manager):
        client = client_for(manager)
        refused = client.post(reverse("reviews:close", args=[cycle.pk]))
        assert refused.status_code == 400 and "4 items still without a verdict" in (
            refused.content.decode()
        )
        closed = client.post(reverse("reviews:close", args=[cycle.pk]), {"allow_incomplete": "on"})
        assert closed["Location"] == reverse("reviews:report", args=[cycle.pk])

    def test_the_report_shows_counts_deprecations_and_notes(self, cycle, ana, ben, manager):
        decide(
            item_id=cycle.items.get(rank=2).pk,
            user=ben,
            verdict="outdated",
            version=0,
            note="retired <b>tool</b>",
        )
        page = soup_of(client_for(manager).get(reverse("reviews:report", args=[cycle.pk])))
        counts = {
            row.th.get_text(strip=True): row.td.get_text(strip=True)
            for row in page.select(".report-counts tbody tr")
        }
        assert counts["Outdated"] == "1" and counts["Not reviewed"] == "3"
        text = page.get_text()
        assert "retired <b>tool</b>" in text  # shown as text, not markup
        assert "Still open" in text


def test_the_last_verdict_says_the_queue_is_done(cycle, ana):
    client = client_for(ana)
    client.post(item_url(cycle, 1, "decide"), {"verdict": "keep", "version": 0})
    response = client.post(
        item_url(cycle, 3, "decide"), {"verdict": "keep", "version": 0}, follow=True
    )
    assert "all 2 have a verdict" in response.content.decode()


def test_the_queue_says_why_the_item_is_here_and_suggests_a_verdict_without_choosing_it(cycle, ana):
    page = soup_of(client_for(ana).get(item_url(cycle, 1)))
    panel = page.select_one("#item-signals")
    assert panel.select_one("h2").get_text(strip=True) == "Why this item is here"
    names = [li.select_one("strong").get_text(strip=True) for li in panel.select("li.signal")]
    assert names == ["Echo", "Outdated", "Duplicate"]
    assert all(li.select("ul li") for li in panel.select("li.signal"))  # each with reasons
    assert "Suggested verdict" in panel.select_one(".signal-suggestion").get_text()
    assert "confidence" in panel.select_one(".signal-suggestion").get_text()
    assert not page.select("input[name=verdict][checked]")  # never pre-selected


class TestItemListBySignal:
    def test_the_list_can_be_sorted_by_lift_and_filtered_by_verdict(self, cycle, manager):
        client = client_for(manager)
        url = reverse("reviews:cycle", args=[cycle.pk])
        page = soup_of(client.get(url, {"sort": "lift"}))
        assert [th.get_text(strip=True) for th in page.select("table.results th")][3:8] == [
            "Signals",
            "Echo",
            "Outdated",
            "Duplicate",
            "Lift",
        ]
        assert len(page.select("table.results tbody tr")) == cycle.items.count()
        page = soup_of(client.get(url, {"verdict": "keep"}))
        assert page.select_one("table.results tbody").get_text(strip=True) == "No items match."

    def test_filtering_by_a_signal_keeps_only_items_where_it_fires(self, cycle, manager):
        from reviews.selectors.signal_table import signal_rows

        rows = signal_rows(cycle, cycle.items.all(), signal="none")
        page = soup_of(
            client_for(manager).get(reverse("reviews:cycle", args=[cycle.pk]), {"signal": "none"})
        )
        shown = page.select("table.results tbody td.col-title")
        assert len(shown) == len(rows)
        assert not page.select("td.col-signals .signal-badge")

    def test_an_unknown_filter_is_ignored(self, cycle, manager):
        url = reverse("reviews:cycle", args=[cycle.pk])
        response = client_for(manager).get(url, {"signal": "<script>", "sort": "x"})
        assert response.status_code == 200
        assert b"<script>" not in response.content


def test_the_queue_header_names_the_signals_that_fire_and_the_suggestion(cycle, ana):
    page = soup_of(client_for(ana).get(item_url(cycle, 1)))
    summary = page.select_one("#signal-summary").get_text(" ", strip=True)
    assert summary.startswith("Why here:")
    assert "suggested Keep" in summary and "not pre-selected" in summary
