"""Calibration cannot be passed by memorising: a retry serves another sequence, gold is shown
one item at a time after submission, and an undefined κ says why."""

from __future__ import annotations

import itertools
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from rubric.agreement import kappa_undefined_reason
from rubric.models import CRITERIA, CalibrationAttempt, GoldScore
from rubric.services.calibration import (
    agreement_with_gold,
    attempt_overview,
    draw_order,
    start_attempt,
    submit_attempt,
)
from tests.factories import UserFactory
from tests.pages import client_for, soup_of
from tests.rubric.calibration_support import item_url, rate_all, revealed_positions

pytestmark = pytest.mark.django_db


def finish(attempt, levels_of=lambda item: {c: 0.5 for c in CRITERIA}):
    rate_all(attempt, levels_of)
    return submit_attempt(attempt=attempt)


class TestARetryIsANewSequence:
    def test_a_retry_serves_the_items_in_another_order_with_another_first_item(
        self, calibration_set, rater
    ):
        first = finish(start_attempt(user=rater))
        orders = [first.order]
        for _ in range(5):
            orders.append(finish(start_attempt(user=rater)).order)
        for before, after in itertools.pairwise(orders):
            assert sorted(after) == sorted(before) == list(range(1, 31))
            assert after != before
            assert after[0] != before[0]

    def test_the_pages_follow_the_attempts_own_order(self, calibration_set, rater):
        client = client_for(rater)
        attempt = start_attempt(user=rater)
        page = soup_of(client.get(item_url(attempt, attempt.order[0])))
        assert "Item 1 of 30" in page.select_one(".queue-position").get_text()
        assert page.select_one("#item-next")["href"] == item_url(attempt, attempt.order[1])

    def test_draw_order_never_repeats_the_previous_sequence_even_for_two_items(self):
        rng = random.Random(7)
        for _ in range(50):
            assert draw_order([1, 2], [1, 2], rng=rng) == [2, 1]
        previous = list(range(1, 11))
        for _ in range(50):
            order = draw_order(previous, previous, rng=rng)
            assert order != previous and order[0] != previous[0]
            previous = order


class TestGoldOnlyPerItemAfterSubmission:
    def test_the_results_page_names_no_gold_level_but_each_item_page_does(
        self, calibration_set, rater
    ):
        attempt = finish(start_attempt(user=rater))
        client = client_for(rater)
        results = soup_of(client.get(reverse("calibration:attempt", args=[attempt.pk])))
        assert not results.select(".gold-level, .result-table")
        assert len(results.select("#result-overview tbody tr")) == 30
        # Rows in the order served, with how close the rater came.
        first_row = results.select("#result-overview tbody tr")[0]
        assert first_row["id"] == f"result-{attempt.order[0]}"
        shown = revealed_positions(attempt)[0]
        row = results.select_one(f"#result-{shown}")
        item = calibration_set.items.get(position=shown)
        gold = dict(GoldScore.objects.filter(item=item).values_list("criterion", "level"))
        agreed = sum(level == 0.5 for level in gold.values())
        assert f"{agreed} of 4" in row.get_text()
        one = soup_of(client.get(item_url(attempt, shown)))
        assert [td.get_text(strip=True) for td in one.select(".gold-level")] == [
            f"{gold[c]:g}" for c in CRITERIA
        ]

    def test_an_open_attempts_item_page_never_shows_gold(self, calibration_set, rater):
        attempt = start_attempt(user=rater)
        page = soup_of(client_for(rater).get(item_url(attempt, attempt.order[0])))
        assert not page.select(".gold-level, .result-table")

    def test_the_overview_counts_agreement_per_item(self, calibration_set, rater):
        attempt = finish(start_attempt(user=rater))
        rows = attempt_overview(attempt)
        assert [r.item.position for r in rows] == attempt.order
        assert all(0 <= r.agreed <= 4 and 0 <= r.largest_gap <= 1 for r in rows)
        assert {r.item.position for r in rows if r.status == "held_out"} == set(attempt.held_out)

    def test_another_raters_item_result_is_a_404(self, calibration_set, rater):
        attempt = finish(start_attempt(user=rater))
        other = UserFactory(username="otto", roles=["rater"])
        response = client_for(other).get(item_url(attempt, 1))
        assert response.status_code == 404

    def test_the_demo_never_prints_gold(self, calibration_set, capsys):
        call_command("seed_demo_calibration", "--json")
        printed = capsys.readouterr().out
        assert '"specificity"' not in printed and "gold" not in printed.lower()


class TestUndefinedSaysWhy:
    def test_gold_with_one_level_is_named(self):
        why = kappa_undefined_reason([0.0, 0.5, 1.0], [0.75, 0.75, 0.75])
        assert "every gold level is 0.75" in why

    def test_a_rater_with_one_level_is_told_to_use_the_scale(self):
        why = kappa_undefined_reason([0.25, 0.25], [0.0, 1.0])
        assert "you used one level only (0.25)" in why and "whole scale" in why

    def test_both_constant(self):
        assert "both used one level only" in kappa_undefined_reason([1.0, 1.0], [0.0, 0.0])

    def test_a_defined_kappa_has_no_reason(self):
        assert kappa_undefined_reason([0.0, 1.0], [0.0, 1.0]) == ""
        agreement = agreement_with_gold({c: [(0.0, 0.0), (1.0, 1.0)] for c in CRITERIA})
        assert agreement.undefined == {}

    def test_the_results_page_explains_each_undefined_kappa(self, calibration_set, rater):
        attempt = finish(start_attempt(user=rater))  # 0.5 everywhere: a constant rater
        page = soup_of(client_for(rater).get(reverse("calibration:attempt", args=[attempt.pk])))
        reasons = {li["id"]: li.get_text() for li in page.select("#kappa-undefined li")}
        assert set(reasons) == {f"why-{k}" for k in (*CRITERIA, "pooled")}
        assert all("one level only" in text for text in reasons.values())
        assert CalibrationAttempt.objects.get(pk=attempt.pk).passed is False


class TestARetryIsScoredOnGoldNotYetSeen:
    """Memorising gold cannot pass a retry: each attempt is scored only on items whose gold
    the rater has not seen, and holds enough of them out for the next."""

    def test_the_first_attempt_is_scored_on_all_and_reveals_a_third(self, calibration_set, rater):
        attempt = finish(start_attempt(user=rater))
        assert sorted(attempt.scored) == list(range(1, 31))
        assert len(attempt.held_out) == 20

    def test_a_retry_is_scored_only_on_the_held_out_items(self, calibration_set, rater):
        first = finish(start_attempt(user=rater))
        second = start_attempt(user=rater)
        assert sorted(second.scored) == sorted(first.held_out)
        assert len(second.order) == 30  # every item is served: which ones count is not told
        third = start_attempt(user=finish(second).rater)
        assert sorted(third.scored) == sorted(second.held_out)
        assert len(third.scored) == 10 and sorted(third.held_out) == sorted(third.scored)

    def test_memorised_gold_of_revealed_items_does_not_raise_kappa(self, calibration_set, rater):
        gold = {
            item.pk: dict(GoldScore.objects.filter(item=item).values_list("criterion", "level"))
            for item in calibration_set.items.all()
        }
        first = finish(start_attempt(user=rater))
        seen = {calibration_set.items.get(position=p).pk for p in revealed_positions(first)}
        # The retry copies gold where it was shown and guesses 0.5 elsewhere.
        second = finish(
            start_attempt(user=rater),
            lambda item: gold[item.pk] if item.pk in seen else {c: 0.5 for c in CRITERIA},
        )
        assert second.kappa["pooled"] is None or second.kappa["pooled"] < 0.6
        assert not second.passed

    def test_a_held_out_items_gold_is_not_served(self, calibration_set, rater):
        attempt = finish(start_attempt(user=rater))
        hidden = attempt.held_out[0]
        client = client_for(rater)
        response = client.get(item_url(attempt, hidden), follow=True)
        page = soup_of(response)
        assert not page.select(".gold-level, .result-table")
        assert "held out" in page.get_text()
        row = page.select_one(f"#result-{hidden}")
        assert row is not None and row.select_one("a") is None

    def test_the_results_say_what_was_scored(self, calibration_set, rater):
        finish(start_attempt(user=rater))
        second = finish(start_attempt(user=rater))
        page = soup_of(client_for(rater).get(reverse("calibration:attempt", args=[second.pk])))
        said = page.select_one("#scored-on").get_text(" ", strip=True)
        assert "Scored on the 20 items" in said and "other 10" in said and "practice" in said


def test_a_passed_attempt_does_not_speak_of_a_next_attempt(calibration_set, rater):
    gold = {
        item.pk: dict(GoldScore.objects.filter(item=item).values_list("criterion", "level"))
        for item in calibration_set.items.all()
    }
    passed = finish(start_attempt(user=rater), lambda item: gold[item.pk])
    assert passed.passed and passed.held_out
    page = soup_of(client_for(rater).get(reverse("calibration:attempt", args=[passed.pk])))
    text = page.get_text(" ", strip=True)
    assert "next attempt" not in text and "a retry is scored" not in text
    row = page.select_one(f"#result-{passed.held_out[0]}").get_text(" ", strip=True)
    assert row.endswith("held out: kept hidden for a later recalibration")
