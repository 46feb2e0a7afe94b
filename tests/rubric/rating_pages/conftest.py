"""Fixtures of the rating-page tests: a department, the rubric, three raters, a round."""

from __future__ import annotations

import pytest

from rubric.services.rounds import create_round
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory, UserFactory
from tests.rubric.rating_pages.support import ANA, BEN, CY
from tests.rubric.rating_support import make_rater, make_rubric


@pytest.fixture
def sales():
    return DepartmentFactory(slug="sales", name="Sales")


@pytest.fixture
def rubric():
    return make_rubric()


@pytest.fixture
def raters(rubric, sales):
    return [make_rater(name, departments=[sales]) for name in (ANA, BEN, CY)]


@pytest.fixture
def manager():
    return UserFactory(username="mia-manager", roles=["manager"])


@pytest.fixture
def reflections(sales):
    agent = AgentFactory(name="sales-bot", department=sales)
    return [
        ReflectionFactory(agent=agent, title=f"Lesson {n} <script>alert({n})</script>")
        for n in range(4)
    ]


@pytest.fixture
def rating_round(reflections, raters, manager):
    # Four items, three raters each, three raters: everyone rates every item.
    return create_round(name="Q3 sample", size=4, raters=raters, seed=11, user=manager)
