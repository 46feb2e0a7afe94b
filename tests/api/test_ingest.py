"""Posting reflections, retrievals and task outcomes: the same parsing, scanning, idempotence
and answer as the import commands' --json, with each rejection's position in the request."""

from __future__ import annotations

import io
import json
from io import StringIO

import pytest
from django.core.management import call_command

from reflections.models import ImportRun, Reflection, RetrievalEvent, State, TaskRun
from tests.api.conftest import files_of, records_of

pytestmark = pytest.mark.django_db

SAMPLE_FILES = (
    "memory/reflections/researcher-agent/2026-03-01-api-timeout-handling.md",
    "memory/reflexions/2026-05/14-fin-20260514-0031.md",
    "memory/reflexions/2026-05/21-sal-20260521-0107.md",
    ".aiwg/ralph/reflections/ralph-task-123/001.json",
    "heuristics/gaia2-universe-27.jsonl",
)


@pytest.fixture
def all_departments(departments):
    from tests.factories import DepartmentFactory

    for slug in ("research", "organization"):
        DepartmentFactory(slug=slug, name=slug.title())


def test_posting_the_samples_imports_all_four_formats(ingest, samples, all_departments):
    response = ingest.post(
        "/reflections?default_department=research", files_of(samples, *SAMPLE_FILES)
    )

    assert response.status_code == 200
    answer = response.json()
    assert answer["rejected"] == []
    assert answer["created"] == Reflection.objects.count() == 6  # the JSONL file holds two
    assert set(Reflection.objects.values_list("format", flat=True)) == {
        "protocol_md", "frontmatter_md", "episodic_json", "heuristic_jsonl"
    }  # fmt: skip
    assert ImportRun.objects.get().paths == ["API: 5 file(s)"]


def test_one_file_may_be_posted_alone(ingest, samples, departments):
    (one,) = files_of(samples, "memory/reflexions/2026-05/14-fin-20260514-0031.md")
    assert ingest.post("/reflections", one).json()["created"] == 1


def test_posting_again_changes_nothing_and_the_command_agrees(
    ingest, samples, workspace_copy, all_departments
):
    body = files_of(samples, *SAMPLE_FILES)
    ingest.post("/reflections?default_department=research", body)
    again = ingest.post("/reflections?default_department=research", body).json()

    out = StringIO()
    call_command(
        "import_reflections", str(workspace_copy), "--default-department", "research", "--json",
        stdout=out,
    )  # fmt: skip
    command = json.loads(out.getvalue())
    assert again["created"] == again["updated"] == 0 and again["unchanged"] == 6
    # The command reads the same files as the same reflections (same source paths, hashes).
    assert command["unchanged"] == 6  # the rest of the samples are new to it
    assert command["created"] == Reflection.objects.count() - 6
    # The same keys (warnings appear only when there are some: these files have none).
    assert set(command) - {"warnings"} <= set(again)


def test_a_changed_file_is_an_update(ingest, samples, departments):
    (one,) = files_of(samples, "memory/reflexions/2026-05/14-fin-20260514-0031.md")
    ingest.post("/reflections", [one])
    one["content"] = one["content"].replace("did not balance", "was off by 12 EUR")
    assert ingest.post("/reflections", [one]).json()["updated"] == 1


def test_rejections_name_the_item_the_field_and_the_reason(ingest, samples, departments):
    good = files_of(samples, "memory/reflexions/2026-05/14-fin-20260514-0031.md")[0]
    body = [
        good,
        {"path": "/etc/passwd.md", "content": "x"},
        {"path": "memory/../secrets.md", "content": "x"},
        {"path": "memory/reflections/a.md"},
        "not an object",
        {"path": "memory/reflexions/no-department.md", "content": "---\noutcome: success\n---\nx"},
        {"path": "notes/readme.md", "content": "# Hello"},
        dict(good),
    ]
    answer = ingest.post("/reflections", body).json()

    assert answer["created"] == 1
    by_index = {r["index"]: r for r in answer["rejected"]}
    assert sorted(by_index) == [1, 2, 3, 4, 5, 6, 7]
    assert "relative to the workspace root" in by_index[1]["reason"]
    assert by_index[2]["field"] == "path" and "'..'" in by_index[2]["reason"]
    assert by_index[3]["field"] == "content"
    assert "expected an object" in by_index[4]["reason"]
    assert by_index[5]["path"] == "memory/reflexions/no-department.md"
    assert "not a recognised reflection format" in by_index[6]["reason"]
    assert "more than once" in by_index[7]["reason"]


def test_a_heuristic_line_is_rejected_by_its_line(ingest, departments):
    from tests.factories import DepartmentFactory

    DepartmentFactory(slug="organization")
    line = {"scenario_id": "s1", "department": "organization", "guideline": {"trigger": "t"}}
    body = {"path": "heuristics/h.jsonl", "content": json.dumps(line) + "\n{broken\n"}
    answer = ingest.post("/reflections", body).json()

    assert {(r["index"], r["line"]) for r in answer["rejected"]} == {(0, 1), (0, 2)}


def test_a_reflection_holding_a_secret_is_quarantined_and_the_answer_says_so(ingest, departments):
    text = (
        "---\ndepartment: finance\nagent: finance-agent\noutcome: failure\n---\n"
        "## What happened?\nThe export failed until I used the key AKIAZ7Q3XK5R2M4W6N8P.\n"
    )
    answer = ingest.post(
        "/reflections",
        [{"path": "memory/reflexions/2026-05/22-fin-20260522-0040.md", "content": text}],
    )

    assert answer.json()["quarantined"] == 1
    assert Reflection.objects.get().state == State.QUARANTINED
    assert "AKIAZ7Q3XK5R2M4W6N8P" not in answer.content.decode()


def test_posting_logs_imports_tasks_and_retrievals_like_the_command(ingest, samples, departments):
    ingest.post("/reflections", files_of(samples, *SAMPLE_FILES[1:3]))
    tasks = ingest.post("/tasks", records_of(samples / "logs" / "tasks.jsonl")).json()
    retrievals = records_of(samples / "logs" / "retrievals.jsonl")
    first = ingest.post("/retrievals", retrievals).json()
    again = ingest.post("/retrievals", retrievals).json()

    assert tasks["tasks"]["created"] == TaskRun.objects.count() > 0
    assert first["retrievals"]["created"] == RetrievalEvent.objects.count() > 0
    assert again["created"] == 0 and again["unchanged"] == first["created"]
    assert set(first) >= {"created", "updated", "unchanged", "rejected", "retrievals", "tasks"}


def test_a_bad_record_is_rejected_by_its_index_and_field(ingest, samples, departments):
    ingest.post("/reflections", files_of(samples, *SAMPLE_FILES[1:3]))
    good = records_of(samples / "logs" / "retrievals.jsonl")[0]
    body = [good, {**good, "retrieved_at": "yesterday"}, 42, {**good, "reflection": "nope.md"}]
    answer = ingest.post("/retrievals", body).json()

    assert answer["created"] == 1
    by_index = {r["index"]: r for r in answer["rejected"]}
    assert by_index[1]["field"] == "retrieved_at"
    assert "expected a JSON object" in by_index[2]["reason"]
    assert by_index[3]["field"] == "reflection" and "unknown reflection" in by_index[3]["reason"]


def test_a_batch_of_ten_thousand_retrievals_is_accepted(ingest, samples, departments):
    ingest.post("/reflections", files_of(samples, *SAMPLE_FILES[1:3]))
    good = records_of(samples / "logs" / "retrievals.jsonl")[0]
    body = [{**good, "task_id": f"t-{n}"} for n in range(10_000)]
    answer = ingest.post("/retrievals", body).json()

    assert answer["created"] == 10_000 and answer["rejected"] == []
    assert Reflection.objects.get(source_path=good["reflection"]).retrieval_count == 10_000


def test_more_than_the_batch_limit_is_refused_with_413(ingest, settings):
    settings.API_MAX_ITEMS = 3
    response = ingest.post("/tasks", [{}] * 4)
    assert response.status_code == 413
    assert "at most 3 items" in response.json()["detail"]


def test_a_body_over_the_size_limit_is_refused_with_413_before_it_is_read(ingest, settings):
    settings.API_MAX_REQUEST_BYTES = 1000
    response = ingest.post(
        "/reflections", [{"path": "memory/reflexions/a.md", "content": "x" * 2000}]
    )
    assert response.status_code == 413
    assert "over 1,000 bytes" in response.json()["detail"]
    assert not ImportRun.objects.exists()


def test_a_body_that_is_not_json_is_a_400_that_says_so(ingest):
    response = ingest.post("/tasks", b"{not json")
    assert response.status_code == 400
    assert "not JSON" in response.json()["detail"]


def test_too_many_requests_are_answered_429_with_retry_after(ingest, settings):
    settings.API_RATE_LIMIT = 2
    assert ingest.post("/tasks", []).status_code == 200
    assert ingest.post("/tasks", []).status_code == 200
    response = ingest.post("/tasks", [])
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= settings.API_RATE_WINDOW
    assert "retry after" in response.json()["detail"]


def test_counters_after_many_overlapping_batches_equal_a_recount(ingest, samples, departments):
    from django.db.models import Count, Max

    ingest.post("/reflections", files_of(samples, *SAMPLE_FILES[1:3]))
    records = records_of(samples / "logs" / "retrievals.jsonl")
    later = [{**r, "task_id": r["task_id"] + "-b", "retrieved_at": "2026-06-30T10:00:00Z"}
             for r in records]  # fmt: skip
    for batch in (records[:2], records, later, records[1:]):
        ingest.post("/retrievals", batch)

    recount = RetrievalEvent.objects.values("reflection").annotate(
        n=Count("id"), last=Max("retrieved_at")
    )
    assert recount
    for row in recount:
        stored = Reflection.objects.get(pk=row["reflection"])
        assert (stored.retrieval_count, stored.last_retrieved_at) == (row["n"], row["last"])


def test_a_reference_that_is_not_text_is_rejected_not_a_crash(ingest, departments):
    body = '[{"reflection": "\\ud800", "retrieved_at": "2026-05-20T09:12:00Z", "task_id": "t",'
    body += ' "agent": "a"}, {"task_id": "x", "reflections_injected": ["\\u0000"]}]'
    response = ingest.post("/retrievals", body)
    assert response.status_code == 200
    assert [r["index"] for r in response.json()["rejected"]] == [0, 1]


def test_the_rate_limit_counts_each_token_apart(ingest, settings):
    from api.services.tokens import create_token
    from tests.api.conftest import ApiClient

    settings.API_RATE_LIMIT = 1
    other = ApiClient(create_token(name="other", scope="ingest")[1])
    assert ingest.post("/tasks", []).status_code == 200
    assert ingest.post("/tasks", []).status_code == 429
    assert other.post("/tasks", []).status_code == 200


def chunked(ingest, body: bytes, *, terminated: bool):
    return ingest.client.generic(
        "POST",
        "/api/v1/tasks",
        b"",
        content_type="application/json",
        headers=ingest.headers,
        **{
            "CONTENT_LENGTH": "",
            "HTTP_TRANSFER_ENCODING": "chunked",
            "wsgi.input": io.BytesIO(body),
            "wsgi.input_terminated": terminated,
        },
    )


def test_a_chunked_body_the_server_decoded_is_read_whole(ingest, departments):
    task = {"task_id": "t-1", "agent": "finance-agent", "department": "finance",
            "task_type": "reconciliation", "finished_at": "2026-05-20T09:12:00Z",
            "outcome": "success"}  # fmt: skip
    response = chunked(ingest, json.dumps([task]).encode(), terminated=True)
    assert response.status_code == 200, response.json()
    assert response.json()["created"] == 1


def test_a_chunked_body_nobody_decoded_is_a_411_not_an_empty_body(ingest):
    response = chunked(ingest, b"[]", terminated=False)
    assert response.status_code == 411
    assert "Content-Length" in response.json()["detail"]
