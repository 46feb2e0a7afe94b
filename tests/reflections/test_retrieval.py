"""Retrieval ranks by the protocol's rules and honours every verdict (both databases)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reflections.models import State
from reflections.selectors.retrieval import (
    RetrievalError,
    Retrieved,
    rank,
    retrieve,
)
from reflections.selectors.retrieval_text import BM25Similarity, query_words
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
TASK = "Reconcile the invoice ledger after the nightly export"


@pytest.fixture
def finance():
    return DepartmentFactory(slug="finance", name="Finance")


@pytest.fixture
def agent(finance):
    return AgentFactory(name="ledger-bot", department=finance)


def lesson(agent, title, *, task_type="reconciliation", state=State.ACTIVE, days_old=10, **kw):
    body = kw.pop("body", f"What happened?\n{title}.\n\nWhat should I do differently?\nCheck.")
    return ReflectionFactory(
        agent=agent,
        title=title,
        body=body,
        sections=[{"heading": "What happened?", "body": title}],
        task_type=task_type,
        state=state,
        created_at=NOW - timedelta(days=days_old),
        **kw,
    )


def titles(answer: list[Retrieved]) -> list[str]:
    return [r.reflection.title for r in answer]


def test_same_task_type_beats_another_task_type(agent):
    lesson(agent, "Reconcile the invoice ledger twice", task_type="onboarding")
    same = lesson(agent, "Reconcile the invoice ledger once", task_type="reconciliation")
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", as_of=NOW)
    assert answer[0].reflection == same
    assert "same task type (reconciliation)" in answer[0].reasons


def test_naming_the_same_tool_beats_naming_none(agent):
    lesson(agent, "Reconcile the invoice ledger twice", tools=[])
    with_tool = lesson(agent, "Reconcile the invoice ledger once", tools=["stripe-api"])
    answer = retrieve(
        task=TASK + " with stripe-api", task_type="reconciliation", department="finance", as_of=NOW
    )
    assert answer[0].reflection == with_tool
    assert "same tool/API: stripe-api" in answer[0].reasons


def test_the_newer_lesson_wins_when_everything_else_is_equal(agent):
    lesson(agent, "Reconcile the invoice ledger", days_old=300)
    newer = lesson(agent, "Reconcile the invoice ledger", days_old=3)
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", as_of=NOW)
    assert answer[0].reflection == newer


def test_a_deprecated_reflection_is_never_returned(agent):
    deprecated = lesson(agent, "Reconcile the invoice ledger export", state=State.DEPRECATED)
    lesson(agent, "Unrelated lesson about holidays", task_type="travel")
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", k=10, as_of=NOW)
    assert deprecated not in [r.reflection for r in answer]
    assert len(answer) == 1


def test_a_quarantined_reflection_is_never_returned(agent):
    lesson(agent, "Reconcile the invoice ledger export", state=State.QUARANTINED)
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", k=10, as_of=NOW)
    assert answer == []


def test_promoted_beats_active_at_equal_relevance(agent):
    lesson(agent, "Reconcile the invoice ledger", state=State.ACTIVE)
    promoted = lesson(agent, "Reconcile the invoice ledger", state=State.PROMOTED)
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", as_of=NOW)
    assert answer[0].reflection == promoted
    assert answer[0].multiplier == 1.5
    assert answer[0].score == pytest.approx(answer[1].score * 1.5, rel=1e-3)
    assert "promoted: weight x1.5" in answer[0].reasons


def test_an_archived_reflection_is_weighted_three_tenths(agent):
    archived = lesson(agent, "Reconcile the invoice ledger", state=State.ARCHIVED)
    active = lesson(agent, "Reconcile the invoice ledger", state=State.ACTIVE)
    answer = retrieve(task=TASK, task_type="reconciliation", department="finance", as_of=NOW)
    assert [r.reflection for r in answer] == [active, archived]
    assert answer[1].multiplier == 0.3
    assert answer[1].score == pytest.approx(answer[0].score * 0.3, rel=1e-3)


def test_text_similarity_picks_the_lesson_about_the_task(agent):
    lesson(agent, "Book the cheapest flight", task_type="travel", body="Flights and hotels.")
    about = lesson(agent, "Invoice ledger", task_type="travel", body="The nightly export broke.")
    answer = retrieve(task=TASK, department="finance", as_of=NOW)
    assert answer[0].reflection == about
    assert any(reason.startswith("text similarity") for reason in answer[0].reasons)


def test_only_the_named_department_answers(agent):
    elsewhere = AgentFactory(name="sales-bot", department=DepartmentFactory(slug="sales"))
    lesson(elsewhere, "Reconcile the invoice ledger")
    mine = lesson(agent, "Reconcile something else")
    answer = retrieve(task=TASK, department="finance", k=5, as_of=NOW)
    assert [r.reflection for r in answer] == [mine]


def test_the_agents_department_answers_when_no_department_is_named(agent):
    lesson(AgentFactory(name="sales-bot", department=DepartmentFactory(slug="sales")), TASK)
    mine = lesson(agent, "Reconcile something else")
    answer = retrieve(task=TASK, agent="ledger-bot", k=5, as_of=NOW)
    assert [r.reflection for r in answer] == [mine]


def test_a_reflection_written_after_as_of_is_not_returned(agent):
    lesson(agent, "Reconcile the invoice ledger", days_old=-2)
    assert retrieve(task=TASK, department="finance", as_of=NOW) == []
    assert len(retrieve(task=TASK, department="finance", as_of=date(2026, 6, 3))) == 1


def test_k_limits_the_answer_and_is_bounded(agent):
    for n in range(5):
        lesson(agent, f"Reconcile the invoice ledger {n}")
    assert len(retrieve(task=TASK, department="finance", k=3, as_of=NOW)) == 3
    with pytest.raises(RetrievalError, match="k:"):
        retrieve(task=TASK, k=0)
    with pytest.raises(RetrievalError, match="k:"):
        retrieve(task=TASK, k=51)


def test_an_unknown_department_is_an_error_naming_the_field():
    with pytest.raises(RetrievalError, match="department: no department 'nowhere'"):
        retrieve(task=TASK, department="nowhere")


def test_states_given_for_another_moment_replace_todays(agent):
    deprecated = lesson(agent, "Reconcile the invoice ledger", state=State.DEPRECATED)
    active = lesson(agent, "Reconcile another ledger", state=State.ACTIVE)
    answer = rank(
        task=TASK,
        task_type="reconciliation",
        as_of=NOW,
        k=5,
        states={deprecated.pk: State.ACTIVE, active.pk: State.DEPRECATED},
    )
    assert [r.reflection for r in answer] == [deprecated]
    assert answer[0].multiplier == 1.0
    assert answer[0].reflection.state == State.DEPRECATED  # as it is; ranked as it was


def test_a_reflection_quarantined_now_is_never_returned_whatever_state_it_had(agent):
    quarantined = lesson(agent, "Reconcile the invoice ledger", state=State.QUARANTINED)
    answer = rank(task=TASK, as_of=NOW, states={quarantined.pk: State.ACTIVE})
    assert answer == []


def test_bm25_prefers_the_document_with_the_rarer_word(agent):
    common = lesson(agent, "ledger ledger", body="ledger")
    rare = lesson(agent, "ledger nightly", body="ledger nightly")
    scores = BM25Similarity().scores("nightly ledger", [common, rare])
    assert scores[rare.pk] > scores[common.pk]


def test_query_words_drop_stop_words_and_repeats():
    assert query_words("Reconcile THE ledger, the ledger again!") == [
        "reconcile",
        "ledger",
    ]


@pytest.mark.skipif(
    __import__("django.db").db.connection.vendor != "postgresql",
    reason="the full-text candidates are PostgreSQL's",
)
def test_text_candidates_holding_every_word_come_before_those_holding_one(agent, monkeypatch):
    from reflections.selectors import retrieval_text

    one_word = [lesson(agent, f"Export note {n}", task_type="other") for n in range(3)]
    every_word = lesson(
        agent, "Reconcile the invoice ledger after the nightly export", task_type="other"
    )
    # The strict pass finds the lesson holding every word, the loose pass fills up.
    monkeypatch.setattr(retrieval_text, "MATCH_POOL", 10)

    found = retrieval_text.FullTextSimilarity().matches(
        every_word.__class__.objects.all(), TASK, limit=2
    )

    assert found[0] == every_word.pk
    assert len(found) == 2 and found[1] in {r.pk for r in one_word}


@pytest.mark.skipif(
    __import__("django.db").db.connection.vendor != "postgresql",
    reason="the full-text candidates are PostgreSQL's",
)
def test_a_departments_matches_are_candidates_however_many_another_department_holds(
    agent, monkeypatch
):
    """The pool of matches is drawn from the departments asked for: drawn from every
    department, another's many lessons on the word filled it first."""
    from reflections.models import Reflection
    from reflections.selectors import retrieval_text

    sales = AgentFactory(name="sales-bot", department=DepartmentFactory(slug="sales"))
    for n in range(5):  # written first: the first rows an unscoped index scan returns
        lesson(sales, f"Ledger export note {n}", task_type="other")
    ours = lesson(agent, "Ledger export check", task_type="other")
    monkeypatch.setattr(retrieval_text, "MATCH_POOL", 3)

    found = retrieval_text.FullTextSimilarity().matches(
        Reflection.objects.filter(department=agent.department), "ledger export", limit=5
    )

    assert found == [ours.pk]
