"""POST /api/v1/reflexion-runs: a run of the reference Reflexion implementation, imported whole
by the same service as the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from reflections.models import Reflection, ReflexionRun, TaskRun

pytestmark = pytest.mark.django_db

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs"
# Real runs of the reference implementation, shipped as samples.
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"


def alfworld_files() -> dict[str, str]:
    return {
        p.name: p.read_text() for p in sorted((SAMPLE_RUNS / "reflexion_run_logs").glob("*.json"))
    }


def test_an_alfworld_run_is_posted_as_its_trial_files(ingest):
    response = ingest.post(
        "/reflexion-runs",
        {"name": "reflexion_run_logs", "files": alfworld_files(), "department": "alfworld"},
    )
    assert response.status_code == 200, response.content
    assert response.json()["solved_by_trial"] == [9, 10, 11]
    assert ReflexionRun.objects.get().department.slug == "alfworld"
    again = ingest.post(
        "/reflexion-runs",
        {"name": "reflexion_run_logs", "files": alfworld_files(), "department": "alfworld"},
    )
    assert again.json()["created"] is False
    assert again.json()["reflections"] == {"created": 0, "unchanged": 6}


def test_a_programming_run_is_one_file(ingest):
    path = next((RUNS / "shapes").glob("*_reflexion_*.jsonl"))
    response = ingest.post(
        "/reflexion-runs", {"name": path.name, "files": {path.name: path.read_text()}}
    )
    assert response.status_code == 200
    assert response.json()["problems"] == 3
    assert TaskRun.objects.count() == 7


def test_a_bad_trial_file_refuses_the_run_and_names_it(ingest):
    files = alfworld_files()
    files["env_results_trial_1.json"] = '[{"name": "env_0", "memory": [], "is_success": 1}]'
    response = ingest.post("/reflexion-runs", {"name": "run", "files": files})
    assert response.status_code == 400
    assert "env_results_trial_1.json: entry 1 (env_0)" in response.json()["detail"]
    assert not Reflection.objects.exists() and not ReflexionRun.objects.exists()


def test_a_run_needs_a_name_and_files(ingest):
    assert ingest.post("/reflexion-runs", {"files": {}}).status_code == 400
    assert ingest.post("/reflexion-runs", {"name": "x", "files": []}).status_code == 400


def test_a_retrieve_token_cannot_post_a_run(runtime):
    response = runtime.post("/reflexion-runs", {"name": "x", "files": {"a": "b"}})
    assert response.status_code in (401, 403)


def test_a_trial_spacing_past_a_year_is_a_400_that_says_the_range(ingest):
    # Found by the schema fuzz (tests/api/test_schema_fuzz.py): it was a 500 (OverflowError).
    body = {"name": "run", "files": alfworld_files(), "trial_days": 1_638_616_228}
    answer = ingest.post("/reflexion-runs", body)
    assert answer.status_code == 400
    assert answer.json()["detail"] == "trial_days: a whole number from 1 to 366"
