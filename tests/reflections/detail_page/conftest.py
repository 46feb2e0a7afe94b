"""Fixtures of the reflection-page tests: a manager signed in, an agent, one reflection."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    UserFactory,
)


@pytest.fixture
def manager_client(client):
    client.force_login(UserFactory(roles=["manager"]))
    return client


@pytest.fixture
def finance_agent():
    return AgentFactory(
        name="finance-agent", department=DepartmentFactory(slug="finance", name="Finance")
    )


@pytest.fixture
def reflection(finance_agent):
    return ReflectionFactory(
        agent=finance_agent,
        title="Classify FX fees before reconciling",
        source_path="memory/reflexions/2026-05/14-fin-20260514-0031.md",
        format="frontmatter_md",
        kind="failure",
        outcome="failure",
        state="promoted",
        task_type="reconciliation",
        task_id="fin-20260514-0031",
        created_at=datetime(2026, 5, 14, 16, 5, tzinfo=UTC),
        confidence=0.55,
        model_used="gpt-4.1",
        salience=0.82,
        tags=["fx", "fees"],
        skills=["ledger-matching"],
        tools=["bank-feed-api", "fx-rates"],
        retrieval_count=42,
        last_retrieved_at=datetime(2026, 5, 27, 14, 40, tzinfo=UTC),
        sections=[
            {"heading": "What happened?", "body": "The **card fees** were booked as FX loss."},
            {"heading": "What rule should I remember?", "body": "- split fees\n- then match"},
        ],
        original_text="---\ntask_type: reconciliation\n---\n## What happened?\n<b>raw</b> text\n",
    )
