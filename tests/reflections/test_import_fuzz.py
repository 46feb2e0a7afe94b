"""Bad input never costs good input: hundreds of broken files and log lines, each imported beside
valid ones, give a clean rejection naming the file (and line) and never a traceback, and every
valid file beside them is imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from reflections.models import Reflection, RetrievalEvent, TaskRun
from reflections.services.event_import import import_events
from reflections.services.reflection_import import import_reflections
from tests.conftest import SAMPLES
from tests.reflections.fuzz_cases import log_mutations, reflection_mutations

pytestmark = pytest.mark.django_db(transaction=False)

FRONTMATTER = "memory/reflexions/2026-05/14-fin-20260514-0031.md"
PROTOCOL = "memory/reflections/researcher-agent/2026-03-12-choose-data-source.md"
EPISODIC = ".aiwg/ralph/reflections/ralph-task-123/001.json"
HEURISTIC = "heuristics/gaia2-universe-27.jsonl"
VALID = (
    "memory/reflexions/2026-05/21-sal-20260521-0107.md",
    "memory/reflections/researcher-agent/2026-03-01-api-timeout-handling.md",
)


def workspace_with(tmp_path: Path, relative: str, data: bytes) -> Path:
    ws = tmp_path / "ws"
    for path in VALID:
        target = ws / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((SAMPLES / path).read_bytes())
    broken = ws / relative
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_bytes(data)
    return ws


CASES = [
    (name, target, mutate)
    for target in (FRONTMATTER, PROTOCOL, EPISODIC, HEURISTIC)
    for name, mutate in reflection_mutations(target)
]


@pytest.mark.parametrize(("name", "target", "mutate"), CASES, ids=[f"{c[1]}:{c[0]}" for c in CASES])
def test_a_broken_reflection_file_is_rejected_cleanly_and_the_rest_imported(
    tmp_path, name, target, mutate
):
    ws = workspace_with(tmp_path, target, mutate((SAMPLES / target).read_bytes()))

    summary = import_reflections(paths=[ws], default_department="research", create_departments=True)

    stored = set(Reflection.objects.values_list("source_path", flat=True))
    assert set(VALID) <= stored, "a valid file beside the broken one was lost"
    path_of_target = target.split("#")[0]
    imported = any(p.split("#")[0] == path_of_target for p in stored)
    rejected = [r for r in summary.rejected if path_of_target in r.path]
    assert imported or rejected, "the broken file was skipped without a word"
    for rejection in rejected:
        assert "Traceback" not in rejection.reason and len(rejection.reason) < 400


LOG_CASES = [
    (name, kind, mutate) for kind in ("tasks", "retrievals") for name, mutate in log_mutations(kind)
]


@pytest.mark.parametrize(
    ("name", "kind", "mutate"), LOG_CASES, ids=[f"{c[1]}:{c[0]}" for c in LOG_CASES]
)
def test_a_broken_log_line_is_rejected_cleanly_and_the_other_lines_imported(
    tmp_path, name, kind, mutate
):
    import_reflections(paths=[SAMPLES], default_department="research", create_departments=True)
    lines = (SAMPLES / "logs" / f"{kind}.jsonl").read_text().splitlines()
    good, bad = lines[0], mutate(lines[1])
    log = tmp_path / f"{kind}.jsonl"
    log.write_bytes(
        good.encode() + b"\n" + (bad if isinstance(bad, bytes) else bad.encode()) + b"\n"
    )

    summary = import_events(paths=[log], create_departments=True)

    model = TaskRun if kind == "tasks" else RetrievalEvent
    assert model.objects.count() >= 1, "the valid line beside the broken one was lost"
    reported = {r.line for r in summary.rejected}
    stored = model.objects.count()
    assert stored == 2 or 2 in reported, "the broken line was neither imported nor reported"
    for rejection in summary.rejected:
        assert "Traceback" not in rejection.reason and len(rejection.reason) < 400


def test_the_commands_print_rejections_and_never_a_traceback(tmp_path, capsys):
    ws = workspace_with(
        tmp_path, EPISODIC, b'{"iteration": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    )
    call_command(
        "import_reflections", str(ws), "--default-department", "research", "--create-departments",
        "--json",
    )  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["created"] == len(VALID)
    assert [r["path"] for r in out["rejected"]] == [EPISODIC]
