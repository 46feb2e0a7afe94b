"""The scanner on real-looking data: the demo flags exactly its planted unsafe reflections, the
sample inputs have no findings."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from demo.workspace import write_workspace
from reflections.scanning import (
    INFRASTRUCTURE,
    INJECTION,
    PERSONAL,
    SECRET,
    mask,
    scan_text,
)
from tests.conftest import SAMPLES

# --- the demo workspace and the sample inputs -----------------------------------------------


def _reflections(root: Path) -> dict[str, str]:
    """Every reflection of a workspace by its source path (heuristics: `file#scenario_id`)."""
    found: dict[str, str] = {}
    for path in sorted(root.glob("memory/**/*.md")):
        found[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    for path in sorted(root.glob(".aiwg/**/*.json")):
        found[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    for path in sorted(root.glob("heuristics/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                scenario = json.loads(line)["scenario_id"]
                found[f"{path.relative_to(root).as_posix()}#{scenario}"] = line
    return found


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("demo")
    write_workspace(root, scale="default", seed=7)
    return root


EXPECTED_CATEGORY = {
    "aws_key": SECRET,
    "bearer_token": SECRET,
    "email": PERSONAL,
    "phone": PERSONAL,
    "internal_url": INFRASTRUCTURE,
    "prompt_injection": INJECTION,
}


def test_the_demo_workspace_flags_exactly_the_planted_unsafe_reflections(demo):
    reflections = _reflections(demo)
    assert len(reflections) > 5000
    unsafe = json.loads((demo / "planted.json").read_text(encoding="utf-8"))["unsafe"]
    started = time.perf_counter()
    flagged = {
        path: findings for path, text in reflections.items() if (findings := scan_text(text))
    }
    per_reflection = (time.perf_counter() - started) / len(reflections)
    assert set(flagged) == {item["path"] for item in unsafe}
    for item in unsafe:
        assert {f.category for f in flagged[item["path"]]} == {EXPECTED_CATEGORY[item["kind"]]}
    # A loose guard against a regex gone quadratic; the budget itself (≤100 µs) is measured
    # separately, as shared CI machines make a tight timing assertion flaky.
    assert per_reflection < 0.002


def test_masking_the_demo_unsafe_reflections_leaves_nothing_to_find(demo):
    unsafe = json.loads((demo / "planted.json").read_text(encoding="utf-8"))["unsafe"]
    reflections = _reflections(demo)
    for item in unsafe:
        text = reflections[item["path"]]
        masked = mask(text, scan_text(text))
        assert "[REDACTED:" in masked
        assert scan_text(masked) == []


def test_the_sample_inputs_have_no_findings():
    reflections = _reflections(SAMPLES)
    assert reflections
    assert {path: scan_text(text) for path, text in reflections.items() if scan_text(text)} == {}
