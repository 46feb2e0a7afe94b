"""The demo's calibration set: spread over departments and kinds, deterministic, idempotent,
and the text heuristic behind its gold."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from demo.calibration import heuristic_gold, pick_demo_reflections
from reflections.models import State
from rubric.models import CalibrationSet, GoldScore, Rubric
from rubric.services.rubric import ensure_rubric
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rubric():
    return ensure_rubric()


class TestDemoSet:
    @pytest.fixture
    def demo_memory(self):
        made = []
        for slug in ("sales", "finance", "content"):
            agent = AgentFactory(name=f"{slug}-agent", department=DepartmentFactory(slug=slug))
            for kind in ("failure", "partial", "success", "decision"):
                for n in range(4):
                    made.append(
                        ReflectionFactory(agent=agent, kind=kind, title=f"{slug} {kind} {n}")
                    )
        made[0].state = State.QUARANTINED
        made[0].save()
        return made

    def test_the_demo_set_is_spread_deterministic_and_idempotent(self, demo_memory):
        picked = pick_demo_reflections()
        assert [r.pk for r in pick_demo_reflections()] == [r.pk for r in picked]
        assert len(picked) == 30 and len({r.pk for r in picked}) == 30
        assert demo_memory[0] not in picked
        first_twelve = picked[:12]  # one per (department, kind) stratum before any repeats
        assert len({(r.department.slug, r.kind) for r in first_twelve}) == 12
        call_command("seed_demo_calibration", stdout=open("/dev/null", "w"))  # noqa: SIM115
        call_command("seed_demo_calibration", stdout=open("/dev/null", "w"))  # noqa: SIM115
        built = CalibrationSet.objects.get()
        assert built.is_active and built.items.count() == 30
        assert GoldScore.objects.filter(item__calibration_set=built).count() == 120
        assert Rubric.objects.count() == 1

    def test_the_heuristic_prefers_concrete_actionable_lessons(self, rubric):
        sales = DepartmentFactory(slug="sales")
        concrete = ReflectionFactory(
            agent=AgentFactory(department=sales),
            sections=[
                {
                    "heading": "What happened?",
                    "body": "The `zapier-webhook` dropped the region "
                    "field for 6 of 23 leads after the column change on Acme Corp's sheet.",
                },
                {
                    "heading": "What should I do differently?",
                    "body": "When a column changes, "
                    "send 1 test lead through `zapier-webhook` and compare every field.",
                },
            ],
        )
        vague = ReflectionFactory(
            agent=AgentFactory(department=sales),
            sections=[
                {
                    "heading": "What happened?",
                    "body": "It went badly and people were unhappy "
                    "with how the whole thing turned out in the end.",
                },
                {
                    "heading": "What should I do differently?",
                    "body": "Communication should be tailored.",
                },
            ],
        )
        good, poor = heuristic_gold(concrete), heuristic_gold(vague)
        assert good["specificity"] == 1.0 and poor["specificity"] == 0.25
        assert good["actionability"] == 1.0 and poor["actionability"] == 0.25
        assert good["accuracy"] > poor["accuracy"]
        assert heuristic_gold(concrete) == good  # deterministic
