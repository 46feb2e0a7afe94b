"""GET /retrieve: the top-k reflections for a task, as the ranking selector answers it, each
answer logged as retrieval events unless the caller asks not to."""

from __future__ import annotations

import pytest

from reflections.models import RetrievalEvent, State
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def store():
    sales = DepartmentFactory(slug="sales")
    agent = AgentFactory(name="sales-bot", department=sales)
    return {
        state: ReflectionFactory(
            department=sales,
            agent=agent,
            state=state,
            task_type="invoice-export",
            title=f"{state} lesson on invoice exports",
        )
        for state in (State.ACTIVE, State.PROMOTED, State.DEPRECATED, State.QUARANTINED)
    }


def test_the_answer_is_ranked_and_never_holds_deprecated_or_quarantined(runtime, store):
    answer = runtime.get(
        "/retrieve", task="export invoices", task_type="invoice-export", agent="sales-bot", k=5
    ).json()

    ids = [r["id"] for r in answer["reflections"]]
    assert ids == [store[State.PROMOTED].pk, store[State.ACTIVE].pk]
    assert answer["reflections"][0]["multiplier"] == 1.5
    assert answer["reflections"][0]["rank"] == 1 and answer["reflections"][0]["reasons"]


def test_each_answer_is_logged_as_retrieval_events_for_the_agent(runtime, store):
    answer = runtime.get(
        "/retrieve", task="export invoices", agent="sales-bot", task_id="t-9", k=2
    ).json()
    events = RetrievalEvent.objects.order_by("rank")
    assert answer["logged"] == 2
    assert [(e.rank, e.task_id, e.agent.name) for e in events] == [
        (1, "t-9", "sales-bot"),
        (2, "t-9", "sales-bot"),
    ]


def test_an_answer_asked_not_to_be_logged_is_not(runtime, store):
    answer = runtime.get("/retrieve", task="export invoices", log="false").json()
    assert answer["logged"] == 0 and not RetrievalEvent.objects.exists()


def test_questions_it_cannot_answer_are_400s_that_say_why(runtime, store):
    assert "k:" in runtime.get("/retrieve", task="x", agent="a", k=0).json()["detail"]
    assert "task:" in runtime.get("/retrieve", task=" ", agent="a").json()["detail"]
    assert "agent:" in runtime.get("/retrieve", task="x").json()["detail"]
    unknown = runtime.get("/retrieve", task="x", agent="a", department="nowhere")
    assert unknown.status_code == 400


def test_an_ingest_token_cannot_retrieve(ingest, store):
    assert ingest.get("/retrieve", task="x", agent="a").status_code == 403


def test_the_answer_names_the_retrieval_it_logged(runtime, store):
    given = runtime.get("/retrieve", task="export invoices", agent="sales-bot", task_id="t-9")
    made_up = runtime.get("/retrieve", task="export invoices", agent="sales-bot").json()

    assert given.json()["task_id"] == "t-9"
    assert made_up["task_id"].startswith("retrieval-")
    assert set(RetrievalEvent.objects.values_list("task_id", flat=True)) == {
        "t-9",
        made_up["task_id"],
    }


def retried(runtime, key: str, **params):
    return runtime.client.get(
        "/api/v1/retrieve", params, headers={**runtime.headers, "Idempotency-Key": key}
    )


def test_a_retried_call_with_the_same_idempotency_key_is_answered_again_and_logged_once(
    runtime, store
):
    question = {"task": "export invoices", "agent": "sales-bot", "k": 2}
    first = retried(runtime, "call-1", **question)
    again = [retried(runtime, "call-1", **question) for _ in range(19)]

    assert first.status_code == 200 and first.json()["logged"] == 2
    assert all(r.status_code == 200 for r in again)
    assert {r.json()["task_id"] for r in again} == {first.json()["task_id"]}
    assert all(r.json()["reflections"] == first.json()["reflections"] for r in again)
    assert all(r["Idempotent-Replayed"] == "true" for r in again)
    assert RetrievalEvent.objects.count() == 2


def test_an_idempotency_key_reused_for_another_question_is_refused(runtime, store):
    retried(runtime, "call-1", task="export invoices", agent="sales-bot")
    other = retried(runtime, "call-1", task="close the books", agent="sales-bot")
    assert other.status_code == 422
    assert other.json()["detail"].startswith("Idempotency-Key: already used")


def test_idempotency_keys_are_each_tokens_own(runtime, store, settings):
    from api.services.tokens import create_token

    _, other_token = create_token(name="second runtime", scope="retrieve", user=None)
    other = type(runtime)(other_token)
    retried(runtime, "call-1", task="export invoices", agent="sales-bot")
    answer = retried(other, "call-1", task="export invoices", agent="sales-bot")
    assert answer.status_code == 200 and answer.json()["logged"] > 0
    assert "Idempotent-Replayed" not in answer


def test_the_schema_describes_every_field_and_refusal_of_retrieve_and_changes():
    from django.test import Client

    schema = Client().get("/api/v1/openapi.json").json()
    retrieve = schema["paths"]["/api/v1/retrieve"]["get"]
    assert {"200", "400", "401", "403", "422", "429"} <= set(retrieve["responses"])
    answer = retrieve["responses"]["200"]["content"]["application/json"]["schema"]
    fields = schema["components"]["schemas"][answer["$ref"].rsplit("/", 1)[1]]["properties"]
    assert {"task_id", "reflections", "logged"} <= set(fields)
    changes = schema["paths"]["/api/v1/changes"]["get"]
    assert {"200", "400", "401", "403", "429"} <= set(changes["responses"])
    assert "Idempotency-Key" in {p["name"] for p in retrieve["parameters"]}
