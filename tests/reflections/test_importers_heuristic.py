"""ERL heuristic JSONL: one lesson per line, a bad line never sinks the file."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from reflections.importers.base import FORMAT_HEURISTIC, ParsedReflection, Rejection, content_hash
from reflections.importers.heuristic import parse_heuristic_file
from tests.conftest import SAMPLES

PATH = "heuristics/gaia2-universe-27.jsonl"
NOW = datetime(2026, 6, 1, tzinfo=UTC)
SAMPLE_LINES = (SAMPLES / PATH).read_text().splitlines()


def parse(text: str) -> list[ParsedReflection | Rejection]:
    return list(parse_heuristic_file(text, source_path=PATH, now=NOW))


def line(**changes) -> str:
    data = json.loads(SAMPLE_LINES[0])
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


def only_rejection(text: str) -> Rejection:
    [item] = parse(text)
    assert isinstance(item, Rejection), item
    return item


def test_sample_yields_one_reflection_per_line():
    first, second = parse((SAMPLES / PATH).read_text())
    assert first.source_path == f"{PATH}#scenario_universe_27_9aqrhh"
    assert first.external_id == "scenario_universe_27_9aqrhh"
    assert (first.kind, first.outcome, first.format) == ("failure", "failure", FORMAT_HEURISTIC)
    assert (second.kind, second.outcome) == ("success", "success")
    assert first.created_at == datetime(2026, 4, 2, tzinfo=UTC)
    assert (first.agent, first.department, first.task_type) == (
        "mobile-agent",
        "organization",
        "email",
    )
    assert [s["heading"] for s in first.sections] == ["Task", "Analysis", "Trigger", "Action"]
    assert first.title == "When I need to send an email and my input is attendee names."
    assert first.tools == ["email", "contacts"]


def test_each_reflection_keeps_its_own_line_as_original_text():
    first, _ = parse((SAMPLES / PATH).read_text())
    assert first.original_text == SAMPLE_LINES[0]
    assert first.content_hash == content_hash(SAMPLE_LINES[0])


def test_an_invalid_json_line_is_rejected_and_the_rest_continue():
    items = parse("\n".join([SAMPLE_LINES[0], '{"scenario_id": "x", ', SAMPLE_LINES[1]]))
    assert [type(i).__name__ for i in items] == [
        "ParsedReflection",
        "Rejection",
        "ParsedReflection",
    ]
    assert items[1].line == 2 and items[1].path == PATH
    assert items[1].reason.startswith("invalid JSON:")


def test_blank_lines_are_skipped_but_counted():
    items = parse(f"\n{SAMPLE_LINES[0]}\n\n   \nnot json\n")
    assert isinstance(items[0], ParsedReflection)
    assert items[1].line == 5


def test_a_line_that_is_not_an_object_is_rejected():
    assert "one JSON object per line" in only_rejection("[1, 2]").reason


def test_a_duplicate_scenario_id_rejects_the_later_line():
    items = parse(f"{SAMPLE_LINES[0]}\n{line(task='Another task')}")
    assert isinstance(items[0], ParsedReflection)
    assert items[1].line == 2
    assert "duplicate 'scenario_universe_27_9aqrhh' (first on line 1)" in items[1].reason


def test_a_line_without_created_at_is_rejected():
    rejection = only_rejection(line(created_at=None))
    assert rejection.reason.startswith("created_at: is missing")


def test_a_future_created_at_is_rejected():
    assert (
        "created date 2027-01-02 is in the future"
        in only_rejection(line(created_at="2027-01-02")).reason
    )


def test_an_unknown_reward_is_rejected_listing_allowed_values():
    reason = only_rejection(line(reward="partial")).reason
    assert reason == "reward: unknown outcome 'partial'; expected one of success, failure"


def test_a_guideline_without_a_trigger_is_rejected():
    reason = only_rejection(line(guideline={"action": "Do it."})).reason
    assert reason == "guideline.trigger: is missing"


def test_a_missing_scenario_id_is_rejected():
    assert only_rejection(line(scenario_id=None)).reason == "scenario_id: is missing"


def test_a_scenario_id_with_a_hash_is_rejected_because_it_would_break_the_path():
    assert "must not contain '#'" in only_rejection(line(scenario_id="a#b")).reason
