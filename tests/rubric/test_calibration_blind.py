"""Calibration is blind until submitted, then scored against gold: κ per criterion, pooled,
pass or fail exactly at the threshold."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationAttempt,
    CalibrationPolicy,
    CalibrationRating,
    GoldScore,
)
from rubric.services.calibration import (
    agreement_with_gold,
    calibration_passed,
    record_item_ratings,
    start_attempt,
    submit_attempt,
)
from rubric.services.calibration_sets import (
    CalibrationError,
    build_calibration_set,
)
from rubric.services.rubric import (
    default_rubric_spec,
    publish_rubric,
)
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory
from tests.pages import client_for, soup_of
from tests.rubric.calibration_support import (
    EDGE_GOLD,
    EDGE_RATER,
    gold_for,
    item_url,
    levels_post,
    normalised,
    rate_all,
    revealed_positions,
    submit_with,
    tiny_set,
)

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------------------------------
# Rating blind


class TestBlind:
    def test_item_pages_and_responses_are_the_same_whatever_the_gold(self, calibration_set, rater):
        client = client_for(rater)
        attempt = start_attempt(user=rater)

        def responses():
            return [
                normalised(client.get(item_url(attempt, 1))),
                normalised(client.get(item_url(attempt, 2), HTTP_HX_REQUEST="true")),
                normalised(client.get(reverse("calibration:status"))),
                normalised(client.get(reverse("calibration:submit", args=[attempt.pk]))),
                # A refused save re-renders the item: still nothing of gold.
                normalised(client.post(item_url(attempt, 3, "rate"), {"level_accuracy": "1"})),
            ]

        before = responses()
        for gold in GoldScore.objects.all():
            gold.level = 1.0 if gold.level != 1.0 else 0.0
            gold.save()
        assert responses() == before

    def test_no_page_before_submission_shows_gold(self, calibration_set, rater, admin):
        # Level descriptions that are markers, so gold's would be findable by text.
        spec = default_rubric_spec()
        for c in spec["criteria"]:
            c["levels"] = {v: f"MARK-{c['key']}-{v:g}" for v in LEVELS}
        publish_rubric(spec=spec, user=admin, note="markers")
        client = client_for(rater)
        start = client.post(reverse("calibration:start"))
        attempt = CalibrationAttempt.objects.get(rater=rater)
        pages = [client.get(reverse("calibration:status")), client.get(start["Location"])]
        for item in calibration_set.items.order_by("position"):
            pages.append(client.get(item_url(attempt, item.position), HTTP_HX_REQUEST="true"))
            pages.append(
                client.post(
                    item_url(attempt, item.position, "rate"),
                    levels_post({c: 0.0 for c in CRITERIA}),
                    HTTP_HX_REQUEST="true",
                )
            )
        pages.append(client.get(reverse("calibration:submit", args=[attempt.pk])))
        pages.append(client.get(reverse("calibration:attempt", args=[attempt.pk]), follow=True))
        for response in pages:
            page = soup_of(response)
            assert not page.select(".gold-level, [data-gold]")
            assert "Gold" not in page.get_text()
            # Level descriptions appear only as the choices of a criterion, never on their own.
            outside = [
                s
                for s in page.find_all(string=re.compile("MARK-"))
                if not s.find_parent("label", class_="level")
            ]
            assert outside == []
            # Nothing is pre-ticked but the rater's own level 0.
            for radio in page.select("input[type=radio][checked]"):
                assert radio["value"] == "0"

        submitted = client.post(reverse("calibration:submit", args=[attempt.pk]), follow=True)
        # The results page lists no gold level at all; gold opens one item at a time.
        results = soup_of(submitted)
        assert not results.select(".gold-level")
        assert "MARK-" not in results.get_text()
        attempt.refresh_from_db()
        one = soup_of(client.get(item_url(attempt, revealed_positions(attempt)[0])))
        assert one.select(".gold-level")  # the check above can fail
        assert any("MARK-" in td.get_text() for td in one.select(".result-table td"))

    def test_reflection_text_is_sanitised(self, rubric, rater):
        sales = DepartmentFactory(slug="sales")
        hostile = ReflectionFactory(
            agent=AgentFactory(department=sales),
            title="<script>alert('t')</script>Title",
            sections=[
                {
                    "heading": "<b>H</b>",
                    "body": "<script>alert(1)</script> **ok** <img src=x onerror=alert(2)>",
                }
            ],
        )
        others = [ReflectionFactory(agent=AgentFactory(department=sales)) for _ in range(3)]
        build_calibration_set(
            name="Tiny",
            reflections_with_gold=[(r, gold_for(n)) for n, r in enumerate([hostile, *others])],
            user=None,
            size=None,
        )
        attempt = start_attempt(user=rater)
        page = soup_of(client_for(rater).get(item_url(attempt, 1)))
        article = page.select_one("article.reflection-text")
        assert not article.select("script, img, b")
        assert article.select_one("h1").get_text() == "<script>alert('t')</script>Title"
        assert article.select_one(".prose strong").get_text() == "ok"


# ---------------------------------------------------------------------------------------------
# Scoring against gold


class TestScoring:
    def test_kappa_and_exact_agreement_on_a_hand_built_case(self):
        # Rater (0, 0.5, 1, 1) against gold (0, 0.5, 0.5, 1): Σw·O = 1/16, Σw·E = 5/16 → 0.8.
        pairs = list(zip([0.0, 0.5, 1.0, 1.0], [0.0, 0.5, 0.5, 1.0], strict=True))
        constant = [(0.5, 0.0), (0.5, 1.0), (0.5, 0.5), (0.5, 0.5)]
        result = agreement_with_gold(
            {
                "specificity": pairs,
                "actionability": pairs,
                "transferability": pairs,
                "accuracy": constant,
            }
        )
        assert result.kappa["specificity"] == pytest.approx(0.8)
        assert result.exact["specificity"] == 0.75
        assert result.kappa["accuracy"] is None  # a constant rater: undefined, not 0
        assert result.exact["accuracy"] == 0.5
        assert result.exact["pooled"] == pytest.approx(11 / 16)
        assert result.kappa["pooled"] is not None

    def test_exactly_the_threshold_passes_and_just_below_fails(self, rubric, memory, rater):
        tiny_set(memory, EDGE_GOLD)
        policy = CalibrationPolicy.current()
        assert policy.pass_kappa == 0.6
        attempt = submit_with(rater, EDGE_RATER)
        assert attempt.kappa["pooled"] == pytest.approx(0.6)
        assert attempt.kappa["accuracy"] == pytest.approx(0.6)
        assert attempt.exact["pooled"] == 0.0
        assert attempt.pass_kappa == 0.6 and attempt.passed is True

        policy.pass_kappa = 0.61
        policy.save()
        again = submit_with(rater, EDGE_RATER)
        assert again.pass_kappa == 0.61 and again.passed is False
        attempt.refresh_from_db()
        assert attempt.passed is True and attempt.pass_kappa == 0.6  # the threshold it had

    def test_an_undefined_kappa_does_not_pass(self):
        assert calibration_passed(None, -1.0) is False
        assert calibration_passed(0.6, 0.6) is True
        assert calibration_passed(0.5999, 0.6) is False

    def test_submitting_needs_every_item_and_freezes_the_attempt(self, calibration_set, rater):
        attempt = start_attempt(user=rater)
        item = calibration_set.items.get(position=1)
        record_item_ratings(attempt=attempt, item=item, levels={c: 0.5 for c in CRITERIA})
        with pytest.raises(CalibrationError, match="29 items still to rate"):
            submit_attempt(attempt=attempt)
        rate_all(attempt)
        submit_attempt(attempt=attempt)
        with pytest.raises(CalibrationError, match="final"):
            record_item_ratings(attempt=attempt, item=item, levels={c: 1.0 for c in CRITERIA})
        response = client_for(rater).post(
            item_url(attempt, 1, "rate"), levels_post({c: 1.0 for c in CRITERIA})
        )
        assert response.status_code == 302
        assert set(CalibrationRating.objects.filter(item=item).values_list("level", flat=True)) == {
            0.5
        }

    def test_each_item_shows_levels_beside_gold_after_submission_and_results_offer_a_retry(
        self, calibration_set, rater
    ):
        attempt = start_attempt(user=rater)
        rate_all(attempt)
        submit_attempt(attempt=attempt)
        client = client_for(rater)
        page = soup_of(client.get(reverse("calibration:attempt", args=[attempt.pk])))
        shown = revealed_positions(attempt)[0]
        assert page.select_one(f"#result-{shown} a")["href"] == item_url(attempt, shown)
        one = soup_of(client.get(item_url(attempt, shown)))
        one = one.select_one(f"#result-{shown} .result-table")
        rows = [
            [td.get_text(strip=True) for td in tr.select("th, td")][:3]
            for tr in one.select("tbody tr")
        ]
        assert rows == [
            [c.capitalize(), "0.5", f"{gold_for(shown - 1)[c]:g}"] for c in CRITERIA
        ]  # position n is memory[n - 1]
        kappas = {
            td["data-criterion"]: td.get_text()
            for td in page.select("#kappa-table td[data-criterion]")
        }
        assert set(kappas) == {*CRITERIA, "pooled"}
        assert all(v.startswith("undefined") for v in kappas.values())  # a constant rater
        assert "you used one level only (0.5)" in page.select_one("#why-pooled").get_text()
        assert page.select_one("#recalibrate")
        response = client.post(reverse("calibration:start"))
        assert CalibrationAttempt.objects.filter(rater=rater).count() == 2
        retry = CalibrationAttempt.objects.filter(rater=rater).latest("started_at")
        assert response["Location"] == item_url(retry, retry.order[0])
