"""Episodic-memory JSON (ralph loops): one reflection per file, dated by its timestamp."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime

import pytest

from reflections.importers.base import FORMAT_EPISODIC, ParseError
from reflections.importers.episodic import parse_episodic
from tests.conftest import SAMPLES

PATH = ".aiwg/ralph/reflections/ralph-task-123/001.json"
NOW = datetime(2026, 6, 1, tzinfo=UTC)
SAMPLE = json.loads((SAMPLES / PATH).read_text())


def parse(data: dict | str, path: str = PATH):
    text = data if isinstance(data, str) else json.dumps(data, indent=2)
    return parse_episodic(text, source_path=path, now=NOW)


def changed(**changes) -> dict:
    """The sample with dotted keys replaced ("self_reflection.confidence") or removed (None)."""
    data = copy.deepcopy(SAMPLE)
    for dotted, value in changes.items():
        *parents, key = dotted.split("__")
        target = data
        for parent in parents:
            target = target[parent]
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
    return data


def test_sample_is_a_failure_identified_by_loop_and_iteration():
    r = parse((SAMPLES / PATH).read_text())
    assert (r.kind, r.outcome, r.format) == ("failure", "failure", FORMAT_EPISODIC)
    assert r.external_id == "ralph-task-123/0"
    assert r.created_at == datetime(2026, 1, 20, 10, 15, tzinfo=UTC)
    assert (r.agent, r.department, r.task_type) == ("ralph-coder", "delivery", "programming")
    assert r.confidence == 0.8
    assert r.title == "Add tests for the login function"
    assert r.original_text == (SAMPLES / PATH).read_text()


def test_sample_sections_are_built_from_the_self_reflection():
    sections = {s["heading"]: s["body"] for s in parse(SAMPLE).sections}
    assert list(sections) == [
        "Reflection",
        "Root cause",
        "Causal reasoning",
        "Actionable insights",
        "Lessons learned",
        "Evaluator errors",
    ]
    assert sections["Root cause"] == (
        "No null check on the API response before mapping over it (category: edge_case_miss)"
    )
    assert sections["Actionable insights"] == (
        "- Check userData exists before calling .map()\n"
        "- Return an empty array when the response body is empty"
    )
    assert sections["Evaluator errors"] == (
        "- TypeError: Cannot read property 'map' of undefined (src/auth/login.ts:23)"
    )


def test_tools_come_from_the_prose_not_the_failure_category():
    tools = parse(SAMPLE).tools
    assert "map" in tools
    assert "edge_case_miss" not in tools


def test_a_passing_evaluation_is_a_success():
    r = parse(changed(evaluator_output__passed=True))
    assert (r.kind, r.outcome) == ("success", "success")


def test_invalid_json_is_rejected_with_the_json_line_number():
    text = (SAMPLES / PATH).read_text().replace('"agent": "ralph-coder",', '"agent": "ralph-coder"')
    with pytest.raises(ParseError) as exc:
        parse(text)
    assert exc.value.line == 5
    assert "invalid JSON: Expecting ',' delimiter (line 5" in exc.value.reason


def test_a_json_array_is_not_a_reflection():
    with pytest.raises(ParseError, match="one JSON object, found list"):
        parse("[1, 2]")


def test_a_missing_timestamp_is_rejected_rather_than_dated_today():
    with pytest.raises(ParseError) as exc:
        parse(changed(timestamp=None))
    assert exc.value.field == "timestamp" and "missing" in exc.value.reason


def test_an_unparsable_timestamp_is_rejected_naming_it():
    with pytest.raises(ParseError) as exc:
        parse(changed(timestamp="yesterday"))
    assert exc.value.field == "timestamp" and "'yesterday'" in exc.value.reason


def test_a_timestamp_in_the_future_is_rejected():
    with pytest.raises(ParseError, match="created date 2027-01-02 is in the future"):
        parse(changed(timestamp="2027-01-02T00:00:00Z"))


def test_an_offset_timestamp_is_stored_in_utc():
    r = parse(changed(timestamp="2026-01-20T12:15:00+02:00"))
    assert r.created_at == datetime(2026, 1, 20, 10, 15, tzinfo=UTC)


def test_the_iteration_is_required():
    with pytest.raises(ParseError) as exc:
        parse(changed(iteration="first"))
    assert exc.value.field == "iteration"


def test_a_missing_self_reflection_is_rejected():
    with pytest.raises(ParseError) as exc:
        parse(changed(self_reflection=None))
    assert exc.value.field == "self_reflection" and "missing" in exc.value.reason


def test_an_empty_reflection_text_is_rejected():
    with pytest.raises(ParseError) as exc:
        parse(changed(self_reflection__reflection_text="  "))
    assert exc.value.field == "self_reflection.reflection_text"


def test_passed_must_be_a_boolean():
    with pytest.raises(ParseError) as exc:
        parse(changed(evaluator_output__passed="no"))
    assert exc.value.field == "evaluator_output.passed"


def test_confidence_must_lie_between_0_and_1():
    with pytest.raises(ParseError) as exc:
        parse(changed(self_reflection__confidence=8))
    assert exc.value.field == "self_reflection.confidence"


def test_insights_must_be_a_list_of_text():
    with pytest.raises(ParseError) as exc:
        parse(changed(self_reflection__actionable_insights="check things"))
    assert exc.value.field == "self_reflection.actionable_insights"


def test_optional_parts_may_be_absent():
    data = changed(
        self_reflection__credit_assignment=None,
        self_reflection__causal_reasoning=None,
        self_reflection__actionable_insights=None,
        self_reflection__lessons_learned=None,
        self_reflection__confidence=None,
        evaluator_output__errors=None,
        task_description=None,
        agent=None,
    )
    r = parse(data)
    assert [s["heading"] for s in r.sections] == ["Reflection"]
    assert r.title == (
        "In my previous attempt, I added tests for the login function but didn't account for "
        "edge cases…"
    )
    assert (r.agent, r.confidence) == ("", None)


def test_deeply_nested_json_is_rejected_not_crashed_on():
    with pytest.raises(ParseError, match="nested too deeply"):
        parse("[" * 100_000)


def test_a_file_outside_a_loop_folder_is_identified_by_its_iteration_alone():
    assert parse(SAMPLE, path="001.json").external_id == "0"
