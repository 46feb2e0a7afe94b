"""Runs of the reference Reflexion implementation (reflections/importers/reflexion_runs.py,
reflections/services/reflexion_run_import.py): both programming shapes, a baseline run, an
ALFWorld folder, a malformed line, a re-import."""

from __future__ import annotations

import io
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reflections.importers.base import ParseError
from reflections.importers.reflexion_runs import parse_programming_run, run_name
from reflections.models import Reflection, ReflexionRun, RetrievalEvent, TaskRun
from reflections.services.reflexion_run_import import RunOptions, import_reflexion_run, read_run

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "reflexion_runs"
# Real runs of the reference implementation, shipped as samples.
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"
LEETCODE = (
    SAMPLE_RUNS
    / "programming"
    / "leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl"
)
RUST = RUNS / "shapes" / "humaneval-rs-mini._reflexion_5_gpt-4_pass_at_k_1_rs.jsonl"
RUST_BASE = RUNS / "shapes" / "humaneval-rs-mini._simple_1_gpt-4_pass_at_k_1_rs.jsonl"


def test_a_file_name_says_benchmark_strategy_model_and_language():
    name = run_name("humaneval-py..gz_reflexion_5_gpt-4_pass_at_k_1_py.jsonl")
    assert (name.benchmark, name.strategy, name.model, name.language) == (
        "humaneval-py", "reflexion", "gpt-4", "py",
    )  # fmt: skip
    assert run_name("mbpp-py._simple_1_gpt-4_pass_at_k_1_py.jsonl").strategy == "simple"


def test_a_problem_with_n_reflections_was_attempted_n_plus_one_times():
    run, _ = read_run(RUST)
    xor = next(p for p in run.problems if p.key == "HumanEval_11_string_xor")
    assert [(a.trial, a.solved, a.memory) for a in xor.attempts] == [
        (0, False, []), (1, False, [0]), (2, False, [0, 1]), (3, False, [0, 1, 2]),
    ]  # fmt: skip
    assert run.solved_by_trial() == [1, 2, 2, 2]
    assert not run.baseline


def test_a_baseline_run_has_one_attempt_a_problem():
    run, _ = read_run(RUST_BASE)
    assert run.baseline
    assert run.trials == 1
    assert run.solved_by_trial() == [1]


def test_the_real_gpt4_leetcode_run_reads_as_the_log_says():
    run, _ = read_run(LEETCODE)
    assert len(run.problems) == 40
    assert sum(len(p.reflections) for p in run.problems) == 146
    assert run.solved_by_trial()[-1] == sum(json.loads(line)["is_solved"] for line in
                                            LEETCODE.read_text().splitlines())  # fmt: skip


def test_an_alfworld_folder_is_read_trial_by_trial():
    run, _ = read_run(SAMPLE_RUNS / "reflexion_run_logs")
    assert run.kind == "alfworld" and run.trials == 3
    env_4 = next(p for p in run.problems if p.key == "env_4")
    # Failed trials 0, 1 and 2; the memory it carried grows by one reflection a trial.
    assert [(a.trial, a.solved, len(a.memory)) for a in env_4.attempts] == [
        (0, False, 0), (1, False, 1), (2, False, 2),
    ]  # fmt: skip
    assert run.solved_by_trial() == [9, 10, 11]


@pytest.mark.parametrize(
    ("line", "field", "reason"),
    [
        ('{"task_id": "a", "is_solved": "yes"}', "is_solved", "expected true or false"),
        ('{"task_id": "a", "is_solved": true, "reflections": [1]}', "reflections", "item 1"),
        ('{"is_solved": true}', "task_id", "is missing"),
        ("{not json", None, "is not valid JSON"),
    ],
)
def test_a_malformed_line_is_named_with_its_line_and_field(line, field, reason):
    good = '{"task_id": "ok", "is_solved": true}\n'
    with pytest.raises(ParseError) as error:
        parse_programming_run(good + line + "\n", path="x._reflexion_5_gpt-4_pass_at_k_1.jsonl")
    assert error.value.line == 2
    assert error.value.field == field
    assert reason in error.value.reason


def test_a_missing_trial_file_is_named(tmp_path):
    folder = tmp_path / "reflexion_run_logs"
    shutil.copytree(SAMPLE_RUNS / "reflexion_run_logs", folder)
    (folder / "env_results_trial_1.json").unlink()
    with pytest.raises(ParseError, match=r"env_results_trial_1\.json is missing"):
        read_run(folder)


@pytest.mark.django_db
class TestImportingARun:
    def test_reflections_attempts_and_uses_of_memory_become_rows(self):
        run, digest = read_run(RUST)
        summary = import_reflexion_run(run, digest, options=RunOptions())

        assert summary.reflections.created == 4
        xor = Reflection.objects.filter(source_path__contains="HumanEval_11_string_xor")
        assert xor.count() == 3
        assert {r.department.slug for r in xor} == {"humaneval-rs-mini"}
        assert {r.agent.name for r in xor} == {"gpt-4"}
        assert {r.task_type for r in xor} == {"humaneval-rs-mini"}
        # 2 + 1 + 4 attempts; each reflection retrieved by every later attempt of its problem.
        assert TaskRun.objects.count() == 7
        assert RetrievalEvent.objects.count() == 1 + (1 + 2 + 3)
        last = TaskRun.objects.get(
            task_id="humaneval-rs-mini-reflexion-5-gpt-4-pass-at-k-1-rs/HumanEval_11_string_xor/3"
        )
        assert last.outcome == "failure"
        assert last.finished_at == datetime(2023, 3, 20, tzinfo=UTC) + timedelta(weeks=3, minutes=3)
        stored = ReflexionRun.objects.get()
        assert (stored.problems, stored.reflections, stored.solved_by_trial) == (3, 4, [1, 2, 2, 2])
        assert stored.solved_share == pytest.approx(2 / 3)

    def test_importing_the_same_run_again_changes_nothing(self):
        run, digest = read_run(LEETCODE)
        import_reflexion_run(run, digest)
        again = import_reflexion_run(run, digest)
        assert not again.created
        assert again.reflections.created == 0 and again.reflections.unchanged == 146
        assert again.events.as_dict()["tasks"]["created"] == 0
        assert ReflexionRun.objects.count() == 1

    def test_options_set_department_agent_and_dates(self):
        run, digest = read_run(SAMPLE_RUNS / "reflexion_run_logs")
        import_reflexion_run(run, digest, options=RunOptions(
            department="alfworld-gpt3", agent="davinci",
            started_at=datetime(2024, 1, 1, tzinfo=UTC), trial_interval=timedelta(days=1),
        ))  # fmt: skip
        stored = ReflexionRun.objects.get()
        assert stored.department.slug == "alfworld-gpt3" and stored.agent.name == "davinci"
        assert TaskRun.objects.order_by("finished_at").last().finished_at.date().isoformat() == (
            "2024-01-03"
        )


@pytest.mark.django_db
def test_the_command_imports_a_run_and_says_what_it_solved():
    out = io.StringIO()
    call_command("import_reflexion_run", str(RUST_BASE), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["problems"] == 3 and data["solved_by_trial"] == [1]
    assert data["reflections"]["created"] == 0  # a baseline writes no reflection


@pytest.mark.django_db
def test_the_command_refuses_a_run_with_a_bad_line_and_writes_nothing(tmp_path):
    bad = tmp_path / RUST.name
    bad.write_text(RUST.read_text() + '{"name": "x", "is_solved": 1}\n')
    with pytest.raises(CommandError, match=r"line 4: is_solved: expected true or false"):
        call_command("import_reflexion_run", str(bad), stdout=io.StringIO())
    assert not Reflection.objects.exists() and not ReflexionRun.objects.exists()
    with pytest.raises(CommandError, match="whole days or weeks"):
        call_command("import_reflexion_run", str(RUST), "--trial-interval", "2h")
    with pytest.raises(CommandError, match="from 1d to 366d"):
        call_command("import_reflexion_run", str(RUST), "--trial-interval", "99999999999d")


def test_a_run_whose_first_trial_file_is_missing_is_read_back_from_the_next_ones_memories(
    tmp_path,
):
    """The reference implementation's published ALFWorld baseline starts at trial 1: each
    reflection is written after a failed trial, so trial 1's memories tell trial 0."""
    whole, _ = read_run(SAMPLE_RUNS / "reflexion_run_logs")
    folder = tmp_path / "base_run_logs"
    shutil.copytree(SAMPLE_RUNS / "reflexion_run_logs", folder)
    (folder / "env_results_trial_0.json").unlink()

    run, _ = read_run(folder)

    assert run.solved_by_trial() == whole.solved_by_trial() == [9, 10, 11]
    attempts = [[(a.trial, a.solved, a.memory) for a in p.attempts] for p in run.problems]
    assert attempts == [[(a.trial, a.solved, a.memory) for a in p.attempts] for p in whole.problems]
    assert [p.reflections for p in run.problems] == [p.reflections for p in whole.problems]
    assert run.notes == [
        "env_results_trial_0.json is missing: trial 0 was read back from trial 1's memories (the "
        "reference implementation writes one reflection after each failed trial)"
    ]


def test_a_run_without_memories_whose_first_trial_file_is_missing_is_refused(tmp_path):
    folder = tmp_path / "base_run_logs"
    folder.mkdir()
    trial = [{"name": f"env_{k}", "memory": [], "is_success": k < 2} for k in range(3)]
    (folder / "env_results_trial_1.json").write_text(json.dumps(trial))
    with pytest.raises(ParseError, match=r"env_results_trial_0\.json is missing, and no memory"):
        read_run(folder)


@pytest.mark.django_db
def test_the_command_says_what_it_read_back(tmp_path):
    folder = tmp_path / "base_run_logs"
    shutil.copytree(SAMPLE_RUNS / "reflexion_run_logs", folder)
    (folder / "env_results_trial_0.json").unlink()
    out = io.StringIO()
    call_command("import_reflexion_run", str(folder), "--no-neighbours", stdout=out)
    assert "Note: env_results_trial_0.json is missing: trial 0 was read back" in out.getvalue()
    assert ReflexionRun.objects.get().solved_by_trial == [9, 10, 11]
