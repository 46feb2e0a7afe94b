"""The generator itself: the same bytes for a seed, reruns, refusals, the window, the summary."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from demo.library import content_problems
from demo.workspace import TODAY, write_workspace
from tests.demo.workspace.support import Workspace, tree


def test_content_library_is_sound():
    assert content_problems() == []


def test_small_scale_generates_in_under_two_seconds(tmp_path):
    started = time.perf_counter()
    write_workspace(tmp_path / "ws", scale="small")
    assert time.perf_counter() - started < 2.0


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    first = write_workspace(tmp_path / "a", scale="small", seed=11)
    second = write_workspace(tmp_path / "b", scale="small", seed=11)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    assert {**first, "out": ""} == {**second, "out": ""}


def test_another_seed_writes_other_content(tmp_path):
    write_workspace(tmp_path / "a", scale="small", seed=11)
    write_workspace(tmp_path / "b", scale="small", seed=12)
    assert tree(tmp_path / "a") != tree(tmp_path / "b")


def test_a_rerun_replaces_its_own_workspace_without_leftovers(tmp_path):
    write_workspace(tmp_path / "ws", scale="small", seed=1)
    write_workspace(tmp_path / "ws", scale="small", seed=2)
    write_workspace(tmp_path / "fresh", scale="small", seed=2)
    assert tree(tmp_path / "ws") == tree(tmp_path / "fresh")


def test_a_directory_holding_someone_elses_reflections_is_refused(tmp_path):
    theirs = tmp_path / "ws" / "memory" / "reflections" / "agent" / "2026-01-01-mine.md"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("# Reflection: …\n")
    with pytest.raises(FileExistsError, match="choose an empty directory"):
        write_workspace(tmp_path / "ws", scale="small")
    assert theirs.exists()


def test_an_unknown_scale_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown scale 'huge'"):
        write_workspace(tmp_path, scale="huge")


def test_a_late_start_ends_the_window_on_today(tmp_path):
    summary = write_workspace(tmp_path, scale="small", start=TODAY - timedelta(days=20))
    assert summary["end"] == TODAY.isoformat()
    assert summary["tasks"] > 0 and summary["reflections"]["total"] > 0


def test_the_summary_and_planted_json_agree(any_ws: Workspace):
    import json

    planted = json.loads((any_ws.root / "planted.json").read_text())
    for key in ("duplicates", "outdated", "echo", "unsafe"):
        assert planted[key] == any_ws.planted[key]
    assert planted["agents"] == any_ws.summary["agents"]
