"""Fixtures of the rubric tests: the rubric, a small memory, a calibration set, people by role."""

from __future__ import annotations

import pytest

from rubric.services.calibration_sets import (
    build_calibration_set,
)
from rubric.services.rubric import (
    ensure_rubric,
)
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.rubric.calibration_support import gold_for

pytestmark = pytest.mark.django_db


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
