"""Two Reflexion runs under one name (the reference implementation names its logs by
benchmark, strategy and model, so `reflexion_mbpp_py/` and `reflexion_mbpp_py2/` hold the same
file name): the same run grown is taken as it grew; another run is refused, nothing written,
until it is given a name of its own."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reflections.models import Reflection, ReflexionRun, TaskRun
from reflections.services.reflexion_run_import import (
    RunError,
    RunOptions,
    import_reflexion_run,
    read_run,
)

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"
NAME = "leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl"
LINES = (SAMPLES / "programming" / NAME).read_text().splitlines(keepends=True)


def log(folder: Path, lines: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME
    path.write_text("".join(lines))
    return path


def rows() -> tuple[int, int, list]:
    runs = list(ReflexionRun.objects.values_list("label", "problems", "reflections"))
    return Reflection.objects.count(), TaskRun.objects.count(), runs


def test_the_same_run_grown_by_more_problems_adds_what_it_gained(tmp_path):
    import_reflexion_run(*read_run(log(tmp_path / "early", LINES[:30])))
    grown = import_reflexion_run(*read_run(log(tmp_path / "later", LINES)))
    assert not grown.created and grown.problems == 40
    assert ReflexionRun.objects.get().problems == 40
    assert Reflection.objects.count() == grown.reflections.created + grown.reflections.unchanged


def test_another_run_under_a_stored_name_is_refused_and_nothing_is_written(tmp_path):
    import_reflexion_run(*read_run(log(tmp_path / "reflexion_py", LINES)))
    before = rows()
    # The same problems, their reflections told by another run of the same model.
    other = [json.loads(line) for line in LINES]
    for problem in other:
        problem["reflections"] = [f"{text} (the second run)" for text in problem["reflections"]]
    other_log = log(tmp_path / "reflexion_py2", [json.dumps(p) + "\n" for p in other])
    with pytest.raises(RunError, match="another run of this name was imported on") as refused:
        import_reflexion_run(*read_run(other_log))
    assert "this one tells it differently" in str(refused.value)
    assert "--run NAME" in str(refused.value)
    assert rows() == before


def test_a_run_given_a_name_of_its_own_is_kept_beside_the_first(tmp_path):
    first = log(tmp_path / "reflexion_py", LINES)
    second = log(tmp_path / "reflexion_py2", LINES[:30])
    import_reflexion_run(*read_run(first))
    import_reflexion_run(*read_run(second), options=RunOptions(label="leetcode py2"))
    labels = dict(ReflexionRun.objects.values_list("label", "problems"))
    assert labels == {NAME: 40, "leetcode py2": 30}


def test_another_run_read_from_a_folder_is_named_by_its_folder_too_and_found_there_again(
    tmp_path,
):
    call_command("import_reflexion_run", str(log(tmp_path / "reflexion_py", LINES)))
    second = str(log(tmp_path / "reflexion_py2", LINES[:30]))
    out = io.StringIO()
    call_command("import_reflexion_run", second, "--no-neighbours", stdout=out)
    assert f"Another run holds the name {NAME}" in out.getvalue()
    assert dict(ReflexionRun.objects.values_list("label", "problems")) == {
        NAME: 40,
        f"reflexion_py2/{NAME}": 30,
    }
    assert ReflexionRun.objects.values("slug").distinct().count() == 2
    before = rows()
    out = io.StringIO()
    call_command("import_reflexion_run", second, "--no-neighbours", "--json", stdout=out)
    again = json.loads(out.getvalue())
    assert again["run"] == f"reflexion_py2/{NAME}" and not again["created"]
    assert again["reflections"]["created"] == 0
    assert rows() == before


def test_the_command_names_a_run_as_told(tmp_path):
    call_command("import_reflexion_run", str(log(tmp_path / "a", LINES)), "--no-neighbours")
    second = str(log(tmp_path / "b", LINES[:30]))
    out = io.StringIO()
    call_command(
        "import_reflexion_run", second, "--run", "py2", "--no-neighbours", "--json", stdout=out
    )
    assert json.loads(out.getvalue())["run"] == "py2"
    with pytest.raises(CommandError, match="it holds 30 problems, the stored run 40"):
        call_command("import_reflexion_run", second, "--run", NAME, "--no-neighbours")
