"""Duplicate keys are an error in every format: a parser keeps the last of two equal keys, so a
value written first (a token spelled in escapes) would be stored in the text reviewers read
while the scanner, reading the decoded data, saw only the clean duplicate. The rejection names
the file, the line and the field."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from reflections.importers.base import (
    FORMAT_EPISODIC,
    FORMAT_FRONTMATTER,
    FORMAT_HEURISTIC,
    FORMAT_PROTOCOL,
    ParsedReflection,
    Rejection,
)
from reflections.importers.registry import parse_text
from reflections.models import Reflection
from reflections.services.reflection_import import import_reflections
from tests.conftest import SAMPLES

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
EPISODIC = ".aiwg/ralph/reflections/ralph-task-123/001.json"
HEURISTIC = "heuristics/gaia2-universe-27.jsonl"
FRONTMATTER = "memory/reflexions/2026-05/22-dup-keys.md"
# A GitHub-style token spelled in \u escapes: the raw text shows no "ghp_".
ESCAPED_TOKEN = "\\u0067\\u0068\\u0070\\u005f" + "Zq8Lr2Vx6Kt0Nw4Bd7Hs1Fy5Gu9Ae3Ti6Ok2Pc"
HEX_TOKEN = "\\x67\\x68\\x70\\x5f" + "Zq8Lr2Vx6Kt0Nw4Bd7Hs1Fy5Gu9Ae3Ti6Ok2Pc"


def _only_rejection(items) -> Rejection:
    (item,) = items
    assert isinstance(item, Rejection), item
    return item


def _episodic_with_duplicate(*, escaped_key: bool = False) -> str:
    """The sample episodic file, its reflection text given twice: the token first."""
    text = (SAMPLES / EPISODIC).read_text()
    data = json.loads(text)
    clean = json.dumps(data["self_reflection"]["reflection_text"])
    key = "\\u0072eflection_text" if escaped_key else "reflection_text"
    # The raw text gains one line: the first, hidden value.
    return text.replace(
        f'"reflection_text": {clean}',
        f'"{key}": "{ESCAPED_TOKEN}",\n    "reflection_text": {clean}',
        1,
    )


def test_the_escaped_token_and_its_clean_duplicate_key_are_refused_in_episodic_json():
    text = _episodic_with_duplicate()
    assert ESCAPED_TOKEN in text and "ghp_" not in text
    rejection = _only_rejection(
        parse_text(text, fmt=FORMAT_EPISODIC, source_path=EPISODIC, now=NOW)
    )
    assert rejection.path == EPISODIC
    _first, second = (
        n
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip().startswith('"reflection_text"')
    )
    assert rejection.line == second
    assert rejection.reason.startswith("self_reflection.reflection_text: duplicate key")


def test_a_key_written_in_escapes_is_the_same_key_as_its_plain_duplicate():
    rejection = _only_rejection(
        parse_text(
            _episodic_with_duplicate(escaped_key=True),
            fmt=FORMAT_EPISODIC,
            source_path=EPISODIC,
            now=NOW,
        )
    )
    assert "self_reflection.reflection_text" in rejection.reason


def test_a_heuristic_line_with_a_duplicate_key_is_refused_on_its_line_and_the_rest_import():
    lines = (SAMPLES / HEURISTIC).read_text().splitlines()
    lines[1] = lines[1].replace('"guideline":', f'"guideline": "{ESCAPED_TOKEN}", "guideline":', 1)
    items = parse_text("\n".join(lines), fmt=FORMAT_HEURISTIC, source_path=HEURISTIC, now=NOW)
    rejections = [i for i in items if isinstance(i, Rejection)]
    assert [(r.path, r.line) for r in rejections] == [(HEURISTIC, 2)]
    assert rejections[0].reason.startswith("guideline: duplicate key")
    assert sum(isinstance(i, ParsedReflection) for i in items) == len(lines) - 1


FRONT = (
    "---\ntask_type: debugging\noutcome: failure\ndepartment: research\n"
    'agent: a1\ntags: ["{hidden}"]\ncreated_at: 2026-05-14\ntags: [cache]\n---\n'
    "## What happened?\nThe cache was cold.\n\n## What rule should I remember?\nWarm it.\n"
)


@pytest.mark.parametrize(
    ("fmt", "path"),
    [
        (FORMAT_FRONTMATTER, FRONTMATTER),
        (FORMAT_PROTOCOL, "memory/reflections/a1/2026-05-14-dup-keys.md"),
    ],
)
def test_a_front_matter_key_given_twice_is_refused_with_its_line(fmt, path):
    text = FRONT.replace("{hidden}", HEX_TOKEN)
    if fmt == FORMAT_PROTOCOL:
        text = text.replace("## What happened?", "# Reflection: 2026-05-14 - a1 - Cold cache\n\n"
                            "## What happened?")  # fmt: skip
    rejection = _only_rejection(parse_text(text, fmt=fmt, source_path=path, now=NOW))
    assert rejection.path == path
    assert rejection.line == 8  # the second "tags:", file line 8
    assert rejection.reason.startswith("front matter: tags: duplicate key")


def test_a_duplicate_key_inside_a_nested_front_matter_mapping_is_refused():
    text = FRONT.replace("tags: [cache]\n", "extra: {owner: ops, owner: dev}\n").replace(
        "{hidden}", "cache"
    )
    rejection = _only_rejection(
        parse_text(text, fmt=FORMAT_FRONTMATTER, source_path=FRONTMATTER, now=NOW)
    )
    assert rejection.line == 8 and "owner" in rejection.reason


def test_equal_keys_in_different_objects_are_no_duplicates():
    text = FRONT.replace("tags: [cache]\n", "notes: [{by: a, at: 1}, {by: b, at: 2}]\n").replace(
        "{hidden}", "cache"
    )
    (item,) = parse_text(text, fmt=FORMAT_FRONTMATTER, source_path=FRONTMATTER, now=NOW)
    assert isinstance(item, ParsedReflection)
    data = json.loads((SAMPLES / EPISODIC).read_text())
    data["evaluator_output"]["runs"] = [{"id": 1, "ok": False}, {"id": 2, "ok": True}]
    (item,) = parse_text(json.dumps(data), fmt=FORMAT_EPISODIC, source_path=EPISODIC, now=NOW)
    assert isinstance(item, ParsedReflection)


@pytest.mark.django_db
def test_an_import_stores_nothing_of_a_file_with_a_duplicate_key(tmp_path):
    ws = tmp_path / "ws"
    (ws / EPISODIC).parent.mkdir(parents=True)
    (ws / EPISODIC).write_text(_episodic_with_duplicate())
    summary = import_reflections(
        create_departments=True, paths=[ws], default_department="research", now=NOW
    )
    assert not Reflection.objects.filter(source_path__startswith=EPISODIC).exists()
    (rejection,) = summary.rejected
    assert rejection.path == EPISODIC and rejection.line
    assert "self_reflection.reflection_text: duplicate key" in rejection.reason


def test_a_reflexion_run_line_with_a_duplicate_key_is_refused_on_its_line():
    from reflections.importers.base import ParseError
    from reflections.importers.reflexion_runs import parse_programming_run

    run = (
        SAMPLES
        / "reflexion-runs"
        / "programming"
        / "leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl"
    )
    lines = run.read_text().splitlines()
    lines[2] = lines[2].replace(
        '"reflections":', f'"reflections": ["{ESCAPED_TOKEN}"], "reflections":', 1
    )
    with pytest.raises(ParseError) as exc:
        parse_programming_run("\n".join(lines), path=run.name)
    assert exc.value.line == 3
    assert exc.value.reason.startswith("reflections: duplicate key")
