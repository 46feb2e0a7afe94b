"""The Python client (clients/python/) against a live server: what it posts is imported,
what it retrieves is ranked and logged, it walks the change feed page by page and resumes
from its cursor, waits out a 429, and a refused token raises without showing the token."""

from __future__ import annotations

import logging
import time

import pytest
from reflexion_review import BadRequest, Client, Forbidden, Unauthorized

from api.services.tokens import create_token
from reflections.models import ReflexionRun, RetrievalEvent, State, TaskRun
from reviews.models import Judgement
from tests.api.conftest import files_of
from tests.factories import ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

FIN = "memory/reflexions/2026-05/14-fin-20260514-0031.md"


@pytest.fixture
def ingest(live_server, ingest_token):
    with Client(live_server.url, ingest_token) as client:
        yield client


@pytest.fixture
def runtime(live_server, retrieve_token):
    with Client(live_server.url, retrieve_token) as client:
        yield client


def test_a_posted_reflection_is_retrieved_for_its_task_and_the_answer_is_logged(
    ingest, runtime, samples, departments
):
    summary = ingest.ingest_reflections(files_of(samples, FIN))
    assert (summary["created"], summary["rejected"]) == (1, [])

    answer = runtime.retrieve(
        "reconcile the May Wise export", task_type="reconciliation", agent="finance-agent"
    )

    (found,) = answer["reflections"]
    assert (found["source_path"], found["rank"], found["state"]) == (FIN, 1, "active")
    logged = RetrievalEvent.objects.filter(agent__name="finance-agent")
    assert answer["logged"] == 1 == logged.count()


def test_a_refused_file_comes_back_with_its_index_and_the_rest_is_imported(
    ingest, samples, departments
):
    bad = {"path": "../outside.md", "content": "x"}
    summary = ingest.ingest_reflections([*files_of(samples, FIN), bad])
    assert summary["created"] == 1
    assert [r["index"] for r in summary["rejected"]] == [1]


def test_retrievals_and_tasks_posted_by_the_client_are_counted_once(ingest, samples, departments):
    ingest.ingest_reflections(files_of(samples, FIN))
    retrieval = {
        "reflection": FIN,
        "retrieved_at": "2026-05-20T09:12:00Z",
        "task_id": "fin-20260520-0004",
        "agent": "finance-agent",
        "department": "finance",
        "rank": 1,
        "score": 0.91,
    }
    task = {
        "task_id": "fin-20260520-0004",
        "agent": "finance-agent",
        "department": "finance",
        "task_type": "reconciliation",
        "finished_at": "2026-05-20T09:40:00Z",
        "outcome": "success",
        "reflections_injected": [FIN],
    }

    assert ingest.ingest_retrievals([retrieval])["retrievals"]["created"] == 1
    assert ingest.ingest_tasks([task])["tasks"]["created"] == 1
    assert ingest.ingest_retrievals([retrieval])["unchanged"] == 1
    assert RetrievalEvent.objects.count() == 1
    assert TaskRun.objects.get().outcome == "success"


def test_judgements_are_stored_once_and_a_bad_one_names_its_record_and_field(ingest):
    first = ReflectionFactory()
    second = ReflectionFactory(department=first.department)
    keep = {"reflection": str(first.pk), "verdict": "keep", "confidence": 0.8, "judge": "gpt"}
    duplicate = {
        "reflection": str(second.pk),
        "verdict": "duplicate",
        "duplicate_of": first.source_path,
        "confidence": 0.6,
        "judge": "gpt",
    }

    assert ingest.ingest_judgements([keep, duplicate]) == {
        "created": 2,
        "updated": 0,
        "unchanged": 0,
    }
    assert ingest.ingest_judgements([keep, duplicate])["unchanged"] == 2

    with pytest.raises(BadRequest) as refused:
        ingest.ingest_judgements([keep, {**duplicate, "confidence": 3}])
    assert (refused.value.status, refused.value.record, refused.value.field) == (
        400,
        2,
        "confidence",
    )
    assert Judgement.objects.count() == 2


def test_a_reflexion_run_is_imported_whole_and_posting_it_again_changes_nothing(ingest, samples):
    files = {
        p.name: p.read_text()
        for p in sorted((samples / "reflexion-runs/reflexion_run_logs").glob("*.json"))
    }
    first = ingest.ingest_reflexion_run("reflexion_run_logs", files, department="alfworld")
    again = ingest.ingest_reflexion_run("reflexion_run_logs", files, department="alfworld")

    assert (first["created"], first["solved_by_trial"]) == (True, [9, 10, 11])
    assert (again["created"], again["reflections"]) == (False, {"created": 0, "unchanged": 6})
    assert ReflexionRun.objects.get().department.slug == "alfworld"


def state_changes(n: int) -> list:
    person = UserFactory(roles=["admin"])
    made = []
    for i in range(n):
        reflection = ReflectionFactory()
        reflection.change_state(State.DEPRECATED, by=person, why=f"change {i}")
        made.append(reflection)
    return made


def test_the_change_feed_is_walked_page_by_page_and_resumes_after_its_cursor(runtime):
    made = state_changes(5)

    feed = runtime.changes(limit=2)  # three pages
    changes = list(feed)

    assert [c["reflection"]["id"] for c in changes] == [r.pk for r in made]
    assert all(c["evict"] for c in changes)
    assert feed.cursor == changes[-1]["cursor"]
    # Nothing new: resuming yields nothing and keeps the cursor.
    idle = runtime.changes(since=feed.cursor)
    assert list(idle) == [] and idle.cursor == feed.cursor

    (later,) = state_changes(1)
    assert [c["reflection"]["id"] for c in runtime.changes(since=feed.cursor)] == [later.pk]


def test_a_feed_stopped_halfway_resumes_at_the_next_change(runtime):
    made = state_changes(3)
    feed = runtime.changes(limit=2)
    next(feed)
    rest = runtime.changes(since=feed.cursor, limit=2)
    assert [c["reflection"]["id"] for c in rest] == [r.pk for r in made[1:]]


def test_a_429_is_waited_out_for_as_long_as_the_server_says(live_server, retrieve_token, settings):
    settings.API_RATE_LIMIT = 1
    settings.API_RATE_WINDOW = 2
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    with Client(live_server.url, retrieve_token, sleep=sleep) as client:
        # From the start of a window the second call falls in the first one's window, so it is
        # refused, waited out and answered (a third, should a stalled machine cross windows).
        time.sleep(2 - time.time() % 2)
        for _ in range(3):
            assert client.changes_page()["changes"] == []
            if waits:
                break

    assert len(waits) == 1 and waits[0] in (1.0, 2.0)


def test_an_unknown_token_raises_unauthorized_and_shows_the_token_nowhere(live_server, caplog):
    token = "rrapi_" + "x" * 40
    caplog.set_level(logging.DEBUG)
    with Client(live_server.url, token) as client, pytest.raises(Unauthorized) as refused:
        client.changes_page()

    assert refused.value.status == 401
    assert token not in f"{refused.value} {refused.value!r} {client!r}"
    assert token not in caplog.text


def test_a_token_of_the_other_scope_raises_forbidden_naming_the_scope(live_server, db):
    token = create_token(name="orchestrator", scope="ingest")[1]
    with Client(live_server.url, token) as client, pytest.raises(Forbidden) as refused:
        client.retrieve("any task", log=False)
    assert "'retrieve'" in str(refused.value)
