"""Calibration: the versioned rubric, building a set, the blind rating flow, κ against gold,
pass/fail at the threshold, quarterly recalibration, resuming, access and CSRF."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from bs4 import BeautifulSoup
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.models import State
from rubric.eligibility import is_calibrated
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationAttempt,
    CalibrationPolicy,
    CalibrationRating,
    CalibrationSet,
    GoldScore,
    Rubric,
)
from rubric.services.calibration import (
    agreement_with_gold,
    calibration_passed,
    rater_status,
    record_item_ratings,
    start_attempt,
    submit_attempt,
)
from rubric.services.calibration_sets import (
    CalibrationError,
    build_calibration_set,
    parse_gold_csv,
    resolve_gold_lines,
)
from rubric.services.rubric import (
    RubricError,
    default_rubric_spec,
    ensure_rubric,
    publish_rubric,
    rubric_spec,
)
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db

SPEC_ANCHORS = {
    ("specificity", 1.0): "when a prospect has previously responded to a competitor's outreach in "
    "Q4, prioritize differentiating-value messaging over feature-list messaging in subsequent "
    "outreach",
    ("specificity", 0.25): "communication should be tailored",
    ("actionability", 1.0): "on sales-to-delivery handoffs with discounted-price agreements, "
    "verify discount compatibility with standard onboarding template before kickoff using the "
    "discount-compatibility checker",
    ("actionability", 0.25): "verify things before kickoff",
}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def gold_for(n: int) -> dict[str, float]:
    """Varied, deterministic gold: every criterion uses several levels across the set."""
    return {c: LEVELS[(n + i) % len(LEVELS)] for i, c in enumerate(CRITERIA)}


def levels_post(levels: dict[str, float]) -> dict[str, str]:
    return {f"level_{c}": f"{v:g}" for c, v in levels.items()}


def item_url(attempt, position, action=""):
    name = "calibration:rate" if action == "rate" else "calibration:item"
    return reverse(name, kwargs={"pk": attempt.pk, "position": position})


@pytest.fixture
def rubric():
    return ensure_rubric()


@pytest.fixture
def memory():
    sales = DepartmentFactory(slug="sales", name="Sales")
    agent = AgentFactory(name="sales-agent", department=sales)
    return [ReflectionFactory(agent=agent, title=f"Lesson {n:02d}") for n in range(32)]


@pytest.fixture
def calibration_set(rubric, memory):
    return build_calibration_set(
        name="Set A",
        reflections_with_gold=[(r, gold_for(n)) for n, r in enumerate(memory[:30])],
        user=None,
    )


@pytest.fixture
def rater():
    return UserFactory(username="rita", roles=["rater"])


@pytest.fixture
def manager():
    return UserFactory(username="mia", roles=["manager"])


@pytest.fixture
def admin():
    return UserFactory(username="ada", roles=["admin"])


def rate_all(attempt, levels_of=lambda item: {c: 0.5 for c in CRITERIA}):
    for item in attempt.calibration_set.items.order_by("position"):
        record_item_ratings(attempt=attempt, item=item, levels=levels_of(item))


# ---------------------------------------------------------------------------------------------
# The rubric as versioned data


class TestRubric:
    def test_ensure_rubric_creates_v1_once_with_the_spec_anchors(self):
        first = ensure_rubric()
        again = ensure_rubric()
        call_command("ensure_rubric", stdout=open("/dev/null", "w"))  # noqa: SIM115
        assert first.pk == again.pk and Rubric.objects.count() == 1 and first.version == 1
        spec = rubric_spec(first)
        assert [c["key"] for c in spec["criteria"]] == list(CRITERIA)
        for c in spec["criteria"]:
            assert sorted(c["levels"]) == list(LEVELS) and all(c["levels"].values())
            assert c["question"] and c["anchors"]
        anchors = {(c["key"], v): t for c in spec["criteria"] for v, t in c["anchors"]}
        for key, text in SPEC_ANCHORS.items():
            assert anchors[key] == text

    def test_publishing_makes_v2_and_leaves_v1_unchanged(self, admin):
        v1 = ensure_rubric()
        before = rubric_spec(v1)
        spec = default_rubric_spec()
        spec["criteria"][0]["question"] = "Is the pattern concrete?"
        spec["criteria"][1]["levels"][0.5] = "An action without its moment."
        v2 = publish_rubric(spec=spec, user=admin, note="Shorter specificity question")
        assert v2.version == 2 and v2.created_by == admin and v2.note
        assert rubric_spec(Rubric.objects.get(version=1)) == before
        assert rubric_spec(v2)["criteria"][0]["question"] == "Is the pattern concrete?"
        assert ensure_rubric().pk == v2.pk

    def test_publishing_needs_a_note_and_every_level(self, admin):
        ensure_rubric()
        with pytest.raises(RubricError, match="note"):
            publish_rubric(spec=default_rubric_spec(), user=admin, note="  ")
        spec = default_rubric_spec()
        spec["criteria"][2]["levels"][0.75] = ""
        with pytest.raises(RubricError, match=r"transferability: level 0\.75"):
            publish_rubric(spec=spec, user=admin, note="oops")
        assert Rubric.objects.count() == 1

    def test_an_attempt_keeps_the_version_current_at_its_start(self, calibration_set, rater, admin):
        attempt = start_attempt(user=rater)
        assert attempt.rubric.version == 1
        spec = default_rubric_spec()
        spec["criteria"][0]["question"] = "Version two's question?"
        publish_rubric(spec=spec, user=admin, note="v2")
        attempt.refresh_from_db()
        assert attempt.rubric.version == 1
        page = soup_of(client_for(rater).get(item_url(attempt, 1)))
        assert "Version two's question?" not in page.get_text()
        other = UserFactory(roles=["rater"])
        assert start_attempt(user=other).rubric.version == 2

    def test_the_rubric_page_publishes_the_next_version(self, admin):
        client = client_for(admin)
        page = soup_of(client.get(reverse("calibration:rubric")))
        form = {
            el["name"]: el.get_text() if el.name == "textarea" else el.get("value", "")
            for el in page.select("#rubric-form textarea, #rubric-form input")
        }
        form["question_accuracy"] = "Is it true?"
        form["anchors_accuracy"] = "1 | the webhook dropped the field\n0 | skip the check"
        form["note"] = "Plainer accuracy question"
        response = client.post(reverse("calibration:rubric"), form)
        assert response.status_code == 302
        v2 = Rubric.objects.get(version=2)
        spec = rubric_spec(v2)["criteria"][3]
        assert spec["question"] == "Is it true?"
        assert spec["anchors"] == [(1.0, "the webhook dropped the field"), (0.0, "skip the check")]
        assert (
            rubric_spec(v2)["criteria"][0]
            == rubric_spec(Rubric.objects.get(version=1))["criteria"][0]
        )
        listed = soup_of(client.get(reverse("calibration:rubric")))
        assert [a.get_text() for a in listed.select("#rubric-versions a")] == ["v2", "v1"]

    def test_the_rubric_form_names_bad_anchor_lines_and_requires_a_note(self, admin):
        client = client_for(admin)
        page = soup_of(client.get(reverse("calibration:rubric")))
        form = {
            el["name"]: el.get_text() if el.name == "textarea" else el.get("value", "")
            for el in page.select("#rubric-form textarea, #rubric-form input")
        }
        form["anchors_specificity"] = "1 | fine\nno bar here\n0.3 | not a level"
        response = client.post(reverse("calibration:rubric"), form)
        assert response.status_code == 400
        errors = [li.get_text() for li in soup_of(response).select(".alert-error li, .alert-error")]
        text = " ".join(errors)
        assert "line 2" in text and "line 3: '0.3' is not a level" in text
        assert "This field is required" in text  # the note
        assert Rubric.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# Building a calibration set


class TestBuildSet:
    def test_gold_lines_name_the_line_and_the_field(self, memory):
        memory[3].state = State.QUARANTINED
        memory[3].save()
        text = "\n".join(
            [
                "reflection,specificity,actionability,transferability,accuracy",
                f"{memory[0].pk},1,0.5,0.25,0",
                f"{memory[1].source_path},1,0.3,1,1",
                "no/such/path.md,1,1,1,1",
                f"{memory[2].pk},1,1",
                f"{memory[3].pk},1,1,1,1",
                f"{memory[0].source_path},0,0,0,0",
                f"{memory[4].pk},1,1,1,high",
            ]
        )
        lines, errors = parse_gold_csv(text)
        found, missing = resolve_gold_lines(lines)
        errors += missing
        assert "line 3, actionability: '0.3' is not a level (0, 0.25, 0.5, 0.75, 1)" in errors
        assert "line 4, reflection: no reflection 'no/such/path.md'" in errors
        assert any(e.startswith("line 5: expected 5 fields") for e in errors)
        assert any(e.startswith("line 6, reflection:") and "quarantined" in e for e in errors)
        assert any(e.startswith("line 7, reflection:") and "line 2" in e for e in errors)
        assert any(e.startswith("line 8, accuracy: 'high'") for e in errors)
        assert found[0] == (
            memory[0],
            {"specificity": 1.0, "actionability": 0.5, "transferability": 0.25, "accuracy": 0.0},
        )

    def test_the_builder_page_is_all_or_nothing_with_per_line_errors(self, admin, memory):
        lines = [
            f"{r.pk},{','.join(f'{v:g}' for v in gold_for(n).values())}"
            for n, r in enumerate(memory[:30])
        ]
        lines[4] = f"{memory[4].pk},1,1,9,1"
        client = client_for(admin)
        url = reverse("calibration:set-new")
        response = client.post(url, {"name": "Bad", "rows": "\n".join(lines), "activate": "on"})
        assert response.status_code == 400
        shown = [li.get_text() for li in soup_of(response).select("#errors-rows li")]
        assert shown == ["line 5, transferability: '9' is not a level (0, 0.25, 0.5, 0.75, 1)"]
        assert not CalibrationSet.objects.exists() and not GoldScore.objects.exists()

        lines[4] = f"{memory[4].source_path},1,1,0.75,1"
        response = client.post(url, {"name": "Good", "rows": "\n".join(lines), "activate": "on"})
        assert response.status_code == 302
        built = CalibrationSet.objects.get()
        assert built.is_active and built.created_by == admin and built.items.count() == 30
        fifth = built.items.get(position=5)
        assert fifth.reflection == memory[4]
        assert {g.criterion: g.level for g in fifth.gold.all()}["transferability"] == 0.75

    def test_a_set_needs_thirty_items_and_no_quarantined_ones(self, rubric, memory):
        with pytest.raises(CalibrationError, match="30 reflections; 29 given"):
            build_calibration_set(
                name="Short",
                reflections_with_gold=[(r, gold_for(n)) for n, r in enumerate(memory[:29])],
                user=None,
            )
        memory[7].state = State.QUARANTINED
        with pytest.raises(CalibrationError, match=r"item 8: .* is quarantined"):
            build_calibration_set(
                name="Hostile",
                reflections_with_gold=[(r, gold_for(n)) for n, r in enumerate(memory[:30])],
                user=None,
            )
        assert not CalibrationSet.objects.exists()

    def test_activating_a_new_set_retires_the_old_one(self, calibration_set, memory):
        newer = build_calibration_set(
            name="Set B",
            reflections_with_gold=[(r, gold_for(n + 1)) for n, r in enumerate(memory[2:32])],
            user=None,
        )
        calibration_set.refresh_from_db()
        assert newer.is_active and not calibration_set.is_active


# ---------------------------------------------------------------------------------------------
# Rating blind


def normalised(response) -> str:
    """The HTML without what differs between two renders of the same page (tokens, nonces)."""
    html = response.content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'nonce="[^"]+"', "", html)


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
        results = soup_of(submitted)
        assert results.select(".gold-level")  # the check above can fail
        assert any("MARK-" in td.get_text() for td in results.select(".result-table td"))

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


# Quadratic-weighted κ of rater indices (0, 1, 2, 3) against gold (1, 0, 3, 2) is exactly 3/5:
# observed Σw·O = 1/16, expected Σw·E = 5/32 (weights (i-j)²/16), κ = 1 - (1/16)/(5/32) = 0.6.
EDGE_RATER = [0.0, 0.25, 0.5, 0.75]
EDGE_GOLD = [0.25, 0.0, 0.75, 0.5]


def tiny_set(memory, gold_levels):
    return build_calibration_set(
        name="Four",
        reflections_with_gold=[
            (r, {c: level for c in CRITERIA}) for r, level in zip(memory, gold_levels, strict=False)
        ],
        user=None,
        size=None,
    )


def submit_with(rater, rater_levels):
    attempt = start_attempt(user=rater)
    rate_all(attempt, lambda item: {c: rater_levels[item.position - 1] for c in CRITERIA})
    return submit_attempt(attempt=attempt)


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

    def test_the_results_page_shows_levels_beside_gold_and_offers_recalibration(
        self, calibration_set, rater
    ):
        attempt = start_attempt(user=rater)
        rate_all(attempt)
        submit_attempt(attempt=attempt)
        client = client_for(rater)
        page = soup_of(client.get(reverse("calibration:attempt", args=[attempt.pk])))
        first = page.select_one("#result-1 .result-table")
        rows = [
            [td.get_text(strip=True) for td in tr.select("th, td")][:3]
            for tr in first.select("tbody tr")
        ]
        assert rows == [
            [c.capitalize(), "0.5", f"{gold_for(0)[c]:g}"] for c in CRITERIA
        ]  # position 1 is memory[0]
        kappas = {
            td["data-criterion"]: td.get_text()
            for td in page.select("#kappa-table td[data-criterion]")
        }
        assert set(kappas) == {*CRITERIA, "pooled"}
        assert all(v == "undefined" for v in kappas.values())  # a constant rater
        assert page.select_one("#recalibrate")
        response = client.post(reverse("calibration:start"))
        assert CalibrationAttempt.objects.filter(rater=rater).count() == 2
        assert response["Location"] == item_url(
            CalibrationAttempt.objects.filter(rater=rater).latest("started_at"), 1
        )


# ---------------------------------------------------------------------------------------------
# Quarterly recalibration


class TestQuarters:
    def passed_at(self, rater, calibration_set, moment):
        return CalibrationAttempt.objects.create(
            rater=rater,
            calibration_set=calibration_set,
            rubric=ensure_rubric(),
            started_at=moment,
            submitted_at=moment,
            kappa={"pooled": 0.9},
            exact={"pooled": 0.8},
            pass_kappa=0.6,
            passed=True,
        )

    def test_recalibration_is_required_each_quarter_only_when_the_policy_says_so(
        self, calibration_set, rater
    ):
        self.passed_at(rater, calibration_set, datetime(2026, 3, 31, 23, tzinfo=UTC))
        april = datetime(2026, 4, 2, tzinfo=UTC)
        assert is_calibrated(rater, now=april)
        assert rater_status(rater, now=april).state == "passed"
        policy = CalibrationPolicy.current()
        policy.require_each_quarter = True
        policy.save()
        assert not is_calibrated(rater, now=april)
        assert rater_status(rater, now=april).state == "recalibrate"
        assert is_calibrated(rater, now=datetime(2026, 3, 1, tzinfo=UTC))

    def test_the_status_page_asks_for_recalibration(self, calibration_set, rater):
        self.passed_at(rater, calibration_set, datetime(2020, 1, 5, tzinfo=UTC))
        CalibrationPolicy.objects.filter(pk=CalibrationPolicy.current().pk).update(
            require_each_quarter=True
        )
        page = soup_of(client_for(rater).get(reverse("calibration:status")))
        assert page.select_one("#status-title").get_text() == "Recalibration required this quarter"
        assert page.select_one("#calibration-start").get_text() == "Recalibrate"


# ---------------------------------------------------------------------------------------------
# Rating one item at a time, resuming


class TestFlow:
    def test_leaving_and_coming_back_resumes_at_the_first_unrated_item(
        self, calibration_set, rater
    ):
        client = client_for(rater)
        started = client.post(reverse("calibration:start"))
        attempt = CalibrationAttempt.objects.get(rater=rater)
        assert started["Location"] == item_url(attempt, 1)
        for position in (1, 2, 3):
            saved = client.post(
                item_url(attempt, position, "rate"), levels_post(gold_for(position))
            )
            assert saved["Location"] == item_url(attempt, position + 1)
        # Leave, then come back via the status page.
        status = soup_of(client.get(reverse("calibration:status")))
        assert "3 of 30 items rated" in status.get_text()
        assert status.select_one("#calibration-start").get_text() == "Continue calibration"
        resumed = client.post(reverse("calibration:start"))
        assert resumed["Location"] == item_url(attempt, 4)
        assert CalibrationAttempt.objects.filter(rater=rater).count() == 1
        page = soup_of(client.get(item_url(attempt, 2)))
        ticked = {r["name"]: r["value"] for r in page.select("input[type=radio][checked]")}
        assert ticked == {k: v for k, v in levels_post(gold_for(2)).items()}

    def test_an_incomplete_item_is_refused_and_keeps_the_choices(self, calibration_set, rater):
        attempt = start_attempt(user=rater)
        response = client_for(rater).post(
            item_url(attempt, 1, "rate"), {"level_specificity": "0.75", "level_accuracy": "0.3"}
        )
        assert response.status_code == 422
        page = soup_of(response)
        problems = [li.get_text() for li in page.select("#rating-error li")]
        assert problems == [
            "actionability: pick a level",
            "transferability: pick a level",
            "Select a valid choice. 0.3 is not one of the available choices.",
        ]
        ticked = {r["name"]: r["value"] for r in page.select("input[type=radio][checked]")}
        assert ticked == {"level_specificity": "0.75"}
        assert not CalibrationRating.objects.exists()

    def test_htmx_saves_and_swaps_in_the_next_item_then_redirects_to_submit(
        self, calibration_set, rater
    ):
        client = client_for(rater)
        attempt = start_attempt(user=rater)
        rate_all(attempt)
        CalibrationRating.objects.filter(item__position=30).delete()
        CalibrationRating.objects.filter(item__position=7).delete()
        response = client.post(
            item_url(attempt, 6, "rate"), levels_post(gold_for(1)), HTTP_HX_REQUEST="true"
        )
        page = soup_of(response)
        assert not page.select("html, body") and page.select_one("#calibration-item")
        assert page.select_one("#calibration-item")["data-position"] == "7"
        assert response["HX-Push-Url"] == item_url(attempt, 7)
        client.post(item_url(attempt, 7, "rate"), levels_post(gold_for(1)), HTTP_HX_REQUEST="true")
        last = client.post(
            item_url(attempt, 30, "rate"), levels_post(gold_for(1)), HTTP_HX_REQUEST="true"
        )
        assert last["HX-Redirect"] == reverse("calibration:submit", args=[attempt.pk])

    def test_the_rating_step_takes_the_same_queries_wherever_it_is(self, calibration_set, rater):
        client = client_for(rater)
        attempt = start_attempt(user=rater)
        client.get(item_url(attempt, 1))  # warm the session and content types

        def count(call) -> int:
            with CaptureQueriesContext(connection) as ctx:
                response = call()
            assert response.status_code in (200, 302)
            return len(ctx.captured_queries)

        def rate(position):
            return lambda: client.post(
                item_url(attempt, position, "rate"),
                levels_post(gold_for(position)),
                HTTP_HX_REQUEST="true",
            )

        first_get = count(lambda: client.get(item_url(attempt, 1)))
        first_post = count(rate(1))
        for position in range(2, 25):
            record_item_ratings(
                attempt=attempt,
                item=calibration_set.items.get(position=position),
                levels=gold_for(position),
            )
        assert count(lambda: client.get(item_url(attempt, 25))) == first_get
        assert count(rate(25)) == first_post
        assert first_get <= 12


# ---------------------------------------------------------------------------------------------
# Who may do what; CSRF


class TestAccess:
    PAGES = {
        "status": "calibration:status",
        "policy": "calibration:policy",
        "rubric": "calibration:rubric",
        "sets": "calibration:sets",
        "set-new": "calibration:set-new",
    }
    EXPECTED = {
        "rater": {"status": 200, "policy": 403, "rubric": 403, "sets": 403, "set-new": 403},
        "manager": {"status": 403, "policy": 200, "rubric": 403, "sets": 403, "set-new": 403},
        "admin": {"status": 200, "policy": 200, "rubric": 200, "sets": 200, "set-new": 200},
        "reviewer": {"status": 403, "policy": 403, "rubric": 403, "sets": 403, "set-new": 403},
        None: {"status": 403, "policy": 403, "rubric": 403, "sets": 403, "set-new": 403},
    }

    @pytest.mark.parametrize("role", ["rater", "manager", "admin", "reviewer", None])
    def test_each_role_reaches_only_its_pages(self, calibration_set, role):
        user = UserFactory(roles=[role] if role else [])
        client = client_for(user)
        got = {page: client.get(reverse(name)).status_code for page, name in self.PAGES.items()}
        assert got == self.EXPECTED[role]

    def test_signed_out_people_are_sent_to_sign_in(self, calibration_set):
        response = Client().get(reverse("calibration:status"))
        assert response.status_code == 302 and "/login/" in response["Location"]

    def test_managers_cannot_rate_and_nobody_opens_another_raters_attempt(
        self, calibration_set, rater, manager
    ):
        attempt = start_attempt(user=rater)
        assert client_for(manager).post(reverse("calibration:start")).status_code == 403
        other = client_for(UserFactory(roles=["rater"]))
        assert other.get(item_url(attempt, 1)).status_code == 404
        rated = other.post(item_url(attempt, 1, "rate"), levels_post(gold_for(0)))
        assert rated.status_code == 404 and not CalibrationRating.objects.exists()
        assert other.get(reverse("calibration:attempt", args=[attempt.pk])).status_code == 404

    def test_managers_change_the_policy_and_it_is_recorded(self, manager):
        client = client_for(manager)
        response = client.post(
            reverse("calibration:policy"), {"pass_kappa": "0.7", "require_each_quarter": "on"}
        )
        assert response.status_code == 302
        policy = CalibrationPolicy.current()
        assert policy.pass_kappa == 0.7 and policy.require_each_quarter
        assert policy.updated_by == manager and policy.updated_at is not None
        page = soup_of(client.get(reverse("calibration:policy")))
        row = [td.get_text() for td in page.select("#policy-history tbody tr")[0].select("td")]
        assert row[1:] == ["mia", "pass κ 0.6 → 0.7; recalibration every quarter required"]
        bad = client.post(reverse("calibration:policy"), {"pass_kappa": "1.5"})
        assert bad.status_code == 400 and CalibrationPolicy.current().pass_kappa == 0.7

    def test_every_post_needs_the_csrf_token(self, calibration_set, rater, manager, admin):
        attempt = start_attempt(user=rater)
        posts = [
            (rater, reverse("calibration:start"), {}),
            (rater, item_url(attempt, 1, "rate"), levels_post(gold_for(0))),
            (rater, reverse("calibration:submit", args=[attempt.pk]), {}),
            (manager, reverse("calibration:policy"), {"pass_kappa": "0.9"}),
            (admin, reverse("calibration:rubric"), {"note": "x"}),
            (admin, reverse("calibration:set-new"), {"name": "x", "rows": "1,1,1,1,1"}),
        ]
        for user, url, data in posts:
            client = client_for(user, enforce_csrf_checks=True)
            assert client.post(url, data).status_code == 403, url
        assert not CalibrationRating.objects.exists()
        assert CalibrationPolicy.current().pass_kappa == 0.6
        # With the token from the page, the same post goes through.
        client = client_for(rater, enforce_csrf_checks=True)
        page = soup_of(client.get(item_url(attempt, 1)))
        token = page.select_one("#rating-form input[name=csrfmiddlewaretoken]")["value"]
        saved = client.post(
            item_url(attempt, 1, "rate"), {**levels_post(gold_for(0)), "csrfmiddlewaretoken": token}
        )
        assert saved.status_code == 302 and CalibrationRating.objects.count() == 4
