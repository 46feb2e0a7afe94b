"""One reflection's page: retrievals, injected tasks, state history, what is withheld, its cost."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.db.models import Count, Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from reflections.caching import EVENTS, bump_data_version
from reflections.models import RetrievalDay, RetrievalEvent
from reflections.selectors.policy import window_stat_aggregates
from reflections.selectors.reflection_events import retrieval_figures, retrieval_page
from reflections.services.rollups import refresh_retrieval_rollup
from tests.factories import (
    AgentFactory,
    ReflectionFactory,
    ReflectionHistoryFactory,
    RetrievalEventFactory,
    TaskInjectionFactory,
    TaskRunFactory,
    UserFactory,
)
from tests.reflections.detail_page.support import T0, detail_url, soup_of, summary, table_rows

pytestmark = pytest.mark.django_db


def test_the_retrieval_history_shows_who_retrieved_it_and_how_the_task_went(
    manager_client, reflection, finance_agent
):
    other = AgentFactory(name="sales-agent")
    TaskRunFactory(task_id="t-ok", agent=other, outcome="success")
    RetrievalEventFactory(
        reflection=reflection,
        agent=finance_agent,
        task_id="t-unreported",
        retrieved_at=T0,
        rank=2,
        score=0.5,
    )
    RetrievalEventFactory(
        reflection=reflection,
        agent=other,
        task_id="t-ok",
        retrieved_at=T0 + timedelta(hours=1),
        rank=1,
        score=0.91234,
    )
    RetrievalEventFactory(
        reflection=reflection,
        agent=other,
        task_id="t-ok",
        retrieved_at=T0 + timedelta(hours=2),
        rank=None,
        score=None,
    )

    page = soup_of(manager_client.get(detail_url(reflection)))

    assert table_rows(page, "table.retrievals") == [
        ["2026-03-10 02:00", "sales-agent cross-agent", "t-ok", "Success", "—", "—"],
        ["2026-03-10 01:00", "sales-agent cross-agent", "t-ok", "Success", "1", "0.912"],
        ["2026-03-10 00:00", "finance-agent", "t-unreported", "not reported", "2", "0.500"],
    ]
    assert len(page.select("table.retrievals tr.cross-agent")) == 2
    assert summary(page, "retrievals") == {
        "Retrievals": "3",
        "Distinct tasks": "2",
        "Cross-agent": "67% (2)",
    }


def test_the_injected_tasks_show_their_outcomes_and_counts(manager_client, reflection):
    for i, (outcome, mode) in enumerate(
        [("success", ""), ("failure", "wrong-fx-source"), ("success", ""), ("partial", "timeout")]
    ):
        task = TaskRunFactory(
            task_id=f"inj-{i}",
            outcome=outcome,
            failure_mode=mode,
            finished_at=T0 + timedelta(days=i),
            agent=AgentFactory(name=f"worker-{i}"),
            task_type="reconciliation",
        )
        TaskInjectionFactory(reflection=reflection, task_run=task)

    page = soup_of(manager_client.get(detail_url(reflection)))

    assert table_rows(page, "table.injections") == [
        ["2026-03-13 00:00", "inj-3", "worker-3", "reconciliation", "Partial", "timeout"],
        ["2026-03-12 00:00", "inj-2", "worker-2", "reconciliation", "Success", "—"],
        ["2026-03-11 00:00", "inj-1", "worker-1", "reconciliation", "Failure", "wrong-fx-source"],
        ["2026-03-10 00:00", "inj-0", "worker-0", "reconciliation", "Success", "—"],
    ]
    assert summary(page, "injections") == {
        "Tasks": "4",
        "Success": "2",
        "Partial": "1",
        "Failure": "1",
        "Success rate": "50%",
    }


def test_the_state_history_shows_each_change_with_who_and_why(manager_client, reflection):
    reviewer = UserFactory(username="rita", roles=["reviewer"])
    ReflectionHistoryFactory(
        reflection=reflection,
        at=T0,
        change="created",
        actor_label="import",
        from_state="",
        to_state="active",
    )
    ReflectionHistoryFactory(
        reflection=reflection,
        at=T0 + timedelta(days=1),
        change="content",
        actor_label="import",
        from_state="",
        to_state="",
        from_hash="a" * 64,
        to_hash="b" * 64,
    )
    ReflectionHistoryFactory(
        reflection=reflection,
        at=T0 + timedelta(days=2),
        change="state",
        actor=reviewer,
        actor_label="rita",
        from_state="active",
        to_state="deprecated",
        reason="outdated: uses the retired v1 rates API",
    )

    page = soup_of(manager_client.get(detail_url(reflection)))

    assert table_rows(page, "table.history") == [
        ["2026-03-10 00:00", "Created", "— → active", "import", "—"],
        ["2026-03-11 00:00", "Content updated", "aaaaaaaa → bbbbbbbb", "import", "—"],
        [
            "2026-03-12 00:00",
            "State changed",
            "active → deprecated",
            "rita",
            "outdated: uses the retired v1 rates API",
        ],
    ]


def test_an_untouched_reflection_says_what_is_missing(manager_client, reflection):
    page = soup_of(manager_client.get(detail_url(reflection)))

    assert [p.get_text(strip=True) for p in page.select(".panel .empty-state")] == [
        "The scan found nothing unsafe.",
        "Never retrieved.",
        "Not injected into any reported task.",
        "No recorded changes.",
        "Never injected into a reported run, and no state changes.",
    ]


def test_a_quarantined_reflection_withholds_its_text_even_from_admins(client, finance_agent):
    client.force_login(UserFactory(roles=["admin"]))
    quarantined = ReflectionFactory(
        agent=finance_agent,
        state="quarantined",
        title="key sk-live-123",
        sections=[{"heading": "Why?", "body": "api key sk-live-123"}],
        original_text="api key sk-live-123",
    )

    response = client.get(detail_url(quarantined))

    page = soup_of(response)
    assert "sk-live-123" not in page.get_text()
    assert page.select("details.original") == []
    assert (
        page.select_one(".reflection-text .alert")
        .get_text(" ", strip=True)
        .startswith("Text withheld.")
    )


def count_queries(client, reflection) -> int:
    bump_data_version(EVENTS)  # what happened to it is cached: count the queries computing it
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(detail_url(reflection))
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_query_count_does_not_grow_with_the_evidence(manager_client, finance_agent):
    once = ReflectionFactory(agent=finance_agent)
    task = TaskRunFactory(task_id="once", agent=finance_agent)
    RetrievalEventFactory(reflection=once, agent=finance_agent, task_id=task.task_id)
    TaskInjectionFactory(reflection=once, task_run=task)
    busy = ReflectionFactory(agent=finance_agent)
    for i in range(12):
        agent = AgentFactory(name=f"retriever-{i}")
        task = TaskRunFactory(task_id=f"busy-{i}", agent=agent)
        RetrievalEventFactory(reflection=busy, agent=agent, task_id=task.task_id)
        TaskInjectionFactory(reflection=busy, task_run=task)
        ReflectionHistoryFactory(reflection=busy, actor=UserFactory())

    assert count_queries(manager_client, once) == count_queries(manager_client, busy)
    # session, user, roles, reflection, retrievals (the rollup's days, distinct tasks, the
    # newest retrieval's time, the first page), the first page of injections, their counts
    # week by week (the injection audit's one grouped query), history, scan findings, rubric
    # scores, and the events' cache on a miss: its version, the read and the database
    # cache's write (count, key, insert), 6 savepoints around them
    assert count_queries(manager_client, busy) <= 24


def test_what_happened_to_it_is_cached_until_new_events_arrive(manager_client, finance_agent):
    busy = ReflectionFactory(agent=finance_agent)
    task = TaskRunFactory(task_id="busy-1", agent=finance_agent)
    TaskInjectionFactory(reflection=busy, task_run=task)
    manager_client.get(detail_url(busy))
    with CaptureQueriesContext(connection) as again:
        manager_client.get(detail_url(busy))
    assert not any("reflections_taskinjection" in q["sql"] for q in again)
    RetrievalEventFactory(reflection=busy, agent=finance_agent, task_id="busy-1")
    page = manager_client.get(detail_url(busy))
    assert page.context["detail"].retrieval_total == 1


def test_managers_see_the_rubric_scores_and_raters_do_not(manager_client, client):
    from rubric.models import Rating
    from rubric.services.rubric import ensure_rubric

    reflection = ReflectionFactory()
    rubric = ensure_rubric()
    for n, rater in enumerate(UserFactory(roles=["rater"]) for _ in range(2)):
        for criterion in ("specificity", "actionability", "transferability", "accuracy"):
            Rating.objects.create(
                rater=rater, reflection=reflection, criterion=criterion, level=0.5 + n / 4,
                rubric=rubric, rated_at=datetime(2026, 6, 1, tzinfo=UTC), source="import",
            )  # fmt: skip
    url = reverse("reflections:detail", args=[reflection.pk])

    managed = BeautifulSoup(manager_client.get(url).content, "html.parser")
    assert (
        managed.select_one('[data-stat="aggregate"]').get_text(strip=True) == "0.63"
    )  # (0.5 + 0.75) / 2 = 0.625
    assert managed.select_one('[data-stat="raters"]').get_text(strip=True) == "2"

    client.force_login(UserFactory(roles=["rater"], departments=[reflection.department]))
    assert "Rubric quality" not in client.get(url).content.decode()


def test_the_retrieval_figures_from_the_rollup_equal_a_count_of_the_events(finance_agent):
    """The page reads its counts and the decay inputs from the daily rollup: the same figures
    as aggregating every event, at the window edges, with other agents and after as_of."""
    reflection = ReflectionFactory(agent=finance_agent)
    other = AgentFactory(name="other-agent")
    as_of = date(2026, 5, 20)
    moments = [
        datetime(2026, 5, 20, 23, 59, 59, tzinfo=UTC),  # as_of's last second
        datetime(2026, 5, 21, 0, 0, tzinfo=UTC),  # after as_of: counted in total only
        datetime(2026, 4, 21, 0, 0, tzinfo=UTC),  # the 30-day window's first instant
        datetime(2026, 4, 20, 23, 59, tzinfo=UTC),
        datetime(2026, 2, 19, 12, tzinfo=UTC),
        datetime(2026, 2, 20, 12, tzinfo=UTC),
        datetime(2025, 12, 1, 8, tzinfo=UTC),
    ]
    for i, at in enumerate(moments):
        agent = other if i % 2 else finance_agent
        RetrievalEventFactory(
            reflection=reflection, agent=agent, retrieved_at=at, task_id=f"t{i % 4}"
        )

    expected = reflection.retrievals.aggregate(
        total=Count("id"),
        distinct_tasks=Count("task_id", distinct=True),
        cross_agent=Count("id", filter=~Q(agent_id=finance_agent.pk)),
        **window_stat_aggregates(as_of),
    )
    assert retrieval_figures(reflection, finance_agent.pk, as_of) == expected
    assert expected["policy_last"] == moments[0]
    assert expected["total"] == 7 and expected["distinct_tasks"] == 4


def test_a_reflection_never_retrieved_has_no_figures(finance_agent):
    reflection = ReflectionFactory(agent=finance_agent)
    figures = retrieval_figures(reflection, None, date(2026, 5, 20))
    assert figures == {
        "total": 0,
        "distinct_tasks": 0,
        "policy_window": 0,
        "policy_idle": 0,
        "policy_last": None,
    }


def test_the_newest_retrievals_are_the_newest_whatever_the_rollup_says(finance_agent):
    reflection = ReflectionFactory(agent=finance_agent)
    RetrievalEvent.objects.bulk_create(
        RetrievalEvent(
            reflection=reflection,
            agent=finance_agent,
            task_id=f"t-{i}",
            retrieved_at=T0 + timedelta(hours=7 * i),
        )
        for i in range(60)
    )

    def newest(size: int) -> list[str]:
        page = retrieval_page(reflection, finance_agent.pk, size=size)
        assert page.next_cursor is not None
        return [e.task_id for e in page.rows]

    expected = [f"t-{i}" for i in range(59, 44, -1)]
    assert newest(15) == expected  # no rollup yet: read from the beginning
    refresh_retrieval_rollup()
    assert newest(15) == expected  # from the day the newest 15 begin
    # A rollup that counts more on its newest days than there are events, or less.
    for wrong in (40, 0):
        RetrievalDay.objects.filter(
            pk__in=RetrievalDay.objects.order_by("-day").values("pk")[:2]
        ).update(retrievals=wrong)
        assert newest(15) == expected
