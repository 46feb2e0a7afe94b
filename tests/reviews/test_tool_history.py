"""The department's tool vocabulary (reviews.selectors.signal_facts.tool_history): the task
log's names, the names reflections carry in their own fields, and what those names stand for."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from reviews.selectors.signal_facts import named_tools, tool_history
from tests.factories import AgentFactory, ReflectionFactory, TaskRunFactory

pytestmark = pytest.mark.django_db
UNTIL = datetime(2026, 10, 1, tzinfo=UTC)


def test_a_carried_name_that_starts_one_tool_of_the_log_is_that_tool():
    agent = AgentFactory()
    TaskRunFactory(agent=agent, tools_used=["medstock-classic"])
    TaskRunFactory(agent=agent, tools_used=["rxstock"])
    lesson = ReflectionFactory(
        agent=agent,
        tools=["medstock"],
        title="Count against the Medstock balance report",
    )
    history = tool_history(agent.department_id, UNTIL)
    assert named_tools(lesson, history) == ["medstock classic"]


def test_a_carried_name_that_starts_two_tools_stays_its_own_name():
    agent = AgentFactory()
    TaskRunFactory(agent=agent, tools_used=["tms-classic", "tms-cloud"])
    lesson = ReflectionFactory(agent=agent, tools=["tms"], title="Plan the route in the TMS")
    history = tool_history(agent.department_id, UNTIL)
    assert named_tools(lesson, history) == ["tms"]
    assert history.get("tms") is None  # no task used "tms" itself: no history to judge by
