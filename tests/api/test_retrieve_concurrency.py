"""Twenty runtimes retrying one /retrieve at the same moment with one Idempotency-Key: the
answer is logged once (PostgreSQL: real concurrent transactions)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from api.services.tokens import create_token
from reflections.models import RetrievalEvent
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_concurrent_retries_with_one_key_log_the_answer_once():
    if connection.vendor != "postgresql":
        pytest.skip("needs real concurrent transactions (PostgreSQL)")
    sales = DepartmentFactory(slug="sales")
    agent = AgentFactory(name="sales-bot", department=sales)
    for n in range(3):
        ReflectionFactory(department=sales, agent=agent, title=f"invoice export lesson {n}")
    _, token = create_token(name="runtime", scope="retrieve", user=None)
    start, statuses = threading.Barrier(20), []

    def call():
        try:
            start.wait()
            answer = Client().get(
                "/api/v1/retrieve",
                {"task": "export invoices", "agent": "sales-bot", "k": 3},
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "retry-7"},
            )
            statuses.append((answer.status_code, answer.json()["task_id"]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=call) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert len(statuses) == 20 and {status for status, _ in statuses} == {200}
    assert len({task_id for _, task_id in statuses}) == 1
    assert RetrievalEvent.objects.count() == 3
