"""The versioned rubric and building calibration sets (from data and from a CSV with gold)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from reflections.models import State
from rubric.models import (
    CRITERIA,
    LEVELS,
    CalibrationSet,
    GoldScore,
    Rubric,
)
from rubric.services.calibration import (
    start_attempt,
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
from tests.factories import UserFactory
from tests.pages import client_for, soup_of
from tests.rubric.calibration_support import SPEC_ANCHORS, gold_for, item_url

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db

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
