"""Retrieval and task logs: JSONL and CSV, line numbers people can find, reasons naming fields."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reflections.importers.base import ParsedRetrieval, ParsedTask, Rejection
from reflections.importers.events import (
    detect_log_kind,
    parse_retrieval_lines,
    parse_task_lines,
)
from reflections.importers.registry import parse_log_file
from tests.conftest import SAMPLES

NOW = datetime(2026, 6, 1, tzinfo=UTC)
RETRIEVAL = {
    "reflection": "memory/reflexions/2026-05/14-fin-20260514-0031.md",
    "retrieved_at": "2026-05-20T09:12:00Z",
    "task_id": "fin-20260520-0004",
    "agent": "finance-agent",
    "department": "finance",
    "rank": 1,
    "score": 0.91,
}
TASK = {
    "task_id": "fin-20260527-0019",
    "agent": "finance-agent",
    "department": "finance",
    "task_type": "reconciliation",
    "finished_at": "2026-05-27T15:02:00Z",
    "outcome": "failure",
    "failure_mode": "fx-fee-missing",
    "confidence_at_start": 0.55,
    "reflections_injected": ["memory/reflexions/2026-05/14-fin-20260514-0031.md"],
}
TASK_HEADER = (
    "task_id,agent,department,task_type,finished_at,outcome,reflections_injected,tools_used"
)


def retrievals(lines, fmt="jsonl"):
    return list(parse_retrieval_lines(lines, path="logs/r", fmt=fmt, now=NOW))


def tasks(lines, fmt="jsonl"):
    return list(parse_task_lines(lines, path="logs/t", fmt=fmt, now=NOW))


def retrieval_line(**changes) -> str:
    return json.dumps({k: v for k, v in {**RETRIEVAL, **changes}.items() if v is not None})


def task_line(**changes) -> str:
    return json.dumps({k: v for k, v in {**TASK, **changes}.items() if v is not None})


def rejection(items) -> Rejection:
    [item] = items
    assert isinstance(item, Rejection), item
    return item


def test_jsonl_retrieval_sample_reads_every_field():
    lines = (SAMPLES / "logs" / "retrievals.jsonl").read_text().splitlines()
    first, _, third = retrievals(lines)
    assert first == ParsedRetrieval(
        line=1,
        reflection_ref="memory/reflexions/2026-05/14-fin-20260514-0031.md",
        retrieved_at=datetime(2026, 5, 20, 9, 12, tzinfo=UTC),
        task_id="fin-20260520-0004",
        agent="finance-agent",
        department="finance",
        rank=1,
        score=0.91,
    )
    assert (third.line, third.agent, third.rank) == (3, "delivery-agent", 3)


def test_csv_retrieval_sample_reads_the_same_fields():
    lines = (SAMPLES / "logs" / "retrievals.csv").read_text().splitlines(keepends=True)
    [item] = retrievals(lines, "csv")
    assert item.line == 2  # the header is line 1
    assert item.reflection_ref.endswith("2026-03-01-api-timeout-handling.md")
    assert (item.department, item.rank, item.score) == ("research", 1, 0.88)


def test_task_sample_reads_every_field():
    lines = (SAMPLES / "logs" / "tasks.jsonl").read_text().splitlines()
    _, failed, _ = tasks(lines)
    assert failed == ParsedTask(
        line=2,
        task_id="fin-20260527-0019",
        agent="finance-agent",
        department="finance",
        task_type="reconciliation",
        finished_at=datetime(2026, 5, 27, 15, 2, tzinfo=UTC),
        outcome="failure",
        failure_mode="fx-fee-missing",
        confidence_at_start=0.55,
        reflections_injected=["memory/reflexions/2026-05/14-fin-20260514-0031.md"],
        tools_used=[],
    )


def test_tasks_may_list_the_tools_they_used():
    [item] = tasks([task_line(tools_used=["wise-api", "ledger"])])
    assert item.tools_used == ["wise-api", "ledger"]


def test_csv_lists_are_split_on_semicolons_or_read_as_json():
    lines = [
        TASK_HEADER,
        "t1,a,d,x,2026-05-01,success,ref-1; ref-2;,wise;ledger",
        't2,a,d,x,2026-05-01,success,"[""ref-3"", ""ref;4""]",',
    ]
    first, second = tasks(lines, "csv")
    assert (first.reflections_injected, first.tools_used) == (
        ["ref-1", "ref-2"],
        ["wise", "ledger"],
    )
    assert (second.reflections_injected, second.tools_used) == (["ref-3", "ref;4"], [])


@pytest.mark.parametrize("field", ["reflection", "retrieved_at", "task_id", "agent"])
def test_a_missing_required_retrieval_field_is_rejected_naming_it(field):
    item = rejection(retrievals([retrieval_line(**{field: None})]))
    assert (item.path, item.line) == ("logs/r", 1)
    assert item.reason == f"{field}: is missing"


@pytest.mark.parametrize(
    "field", ["task_id", "agent", "department", "task_type", "finished_at", "outcome"]
)
def test_a_missing_required_task_field_is_rejected_naming_it(field):
    assert rejection(tasks([task_line(**{field: None})])).reason.startswith(f"{field}: is missing")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-05-20T09:12:00Z", datetime(2026, 5, 20, 9, 12, tzinfo=UTC)),
        ("2026-05-20T11:12:00+02:00", datetime(2026, 5, 20, 9, 12, tzinfo=UTC)),
        ("2026-05-20T09:12:00", datetime(2026, 5, 20, 9, 12, tzinfo=UTC)),
        ("2026-05-20", datetime(2026, 5, 20, tzinfo=UTC)),
    ],
)
def test_timestamps_with_z_offset_or_plain_dates_are_read_as_utc(value, expected):
    [item] = retrievals([retrieval_line(retrieved_at=value)])
    assert item.retrieved_at == expected and item.retrieved_at.tzinfo is UTC


@pytest.mark.parametrize("value", ["20/05/2026", "yesterday", "2026-13-01T00:00:00Z"])
def test_an_unparsable_timestamp_is_rejected_naming_the_field(value):
    reason = rejection(retrievals([retrieval_line(retrieved_at=value)])).reason
    assert reason.startswith(f"retrieved_at: '{value}' is not an ISO 8601")


def test_a_timestamp_more_than_a_day_ahead_is_rejected():
    late = (NOW + timedelta(hours=25)).isoformat()
    reason = rejection(tasks([task_line(finished_at=late)])).reason
    assert reason == f"finished_at: {late} is more than 24 h in the future"
    [ok] = tasks([task_line(finished_at=(NOW + timedelta(hours=23)).isoformat())])
    assert isinstance(ok, ParsedTask)


def test_an_unknown_outcome_is_rejected_listing_allowed_values():
    reason = rejection(tasks([task_line(outcome="won")])).reason
    assert reason == "outcome: unknown outcome 'won'; expected one of success, partial, failure"


def test_outcome_case_and_spaces_are_forgiven():
    assert tasks([task_line(outcome=" Partial ")])[0].outcome == "partial"


@pytest.mark.parametrize("rank", ["first", "1.0", 1.5, True, -1])
def test_a_rank_that_is_not_a_whole_number_is_rejected(rank):
    assert rejection(retrievals([retrieval_line(rank=rank)])).reason.startswith("rank:")


@pytest.mark.parametrize("score", ["high", True, [0.9]])
def test_a_score_that_is_not_a_number_is_rejected(score):
    assert rejection(retrievals([retrieval_line(score=score)])).reason.startswith("score:")


def test_nan_scores_are_rejected():
    line = retrieval_line(score=None)[:-1] + ', "score": NaN}'
    assert rejection(retrievals([line])).reason.startswith("score:")


def test_rank_and_score_are_optional():
    [item] = retrievals([retrieval_line(rank=None, score=None, department=None)])
    assert (item.rank, item.score, item.department) == (None, None, "")


def test_confidence_outside_0_1_is_rejected():
    reason = rejection(tasks([task_line(confidence_at_start=1.2)])).reason
    assert reason.startswith("confidence_at_start:")


def test_a_non_list_reflections_injected_is_rejected_in_jsonl():
    reason = rejection(tasks([task_line(reflections_injected="a;b")])).reason
    assert reason.startswith("reflections_injected: expected a list")


def test_bad_json_lines_are_rejected_and_the_rest_continue():
    items = retrievals([retrieval_line(), "{oops", "", "[1]", retrieval_line()])
    assert [(type(i).__name__, i.line) for i in items] == [
        ("ParsedRetrieval", 1),
        ("Rejection", 2),
        ("Rejection", 4),
        ("ParsedRetrieval", 5),
    ]
    assert items[1].reason.startswith("invalid JSON:")
    assert items[2].reason == "expected a JSON object, found list"


def test_csv_line_numbers_are_physical_even_after_a_multiline_field():
    lines = [
        "reflection,retrieved_at,task_id,agent\n",
        '"memory/x.md",2026-05-01,"task\n',
        'spanning two lines",agent\n',
        "\n",
        "memory/y.md,not-a-date,t,a\n",
    ]
    items = retrievals(lines, "csv")
    assert items[0].line == 3  # the record ends on physical line 3
    assert (items[1].line, items[1].reason[:13]) == (5, "retrieved_at:")
    assert items[0].task_id == "task\nspanning two lines"


def test_csv_with_a_missing_column_is_rejected_once_at_the_header():
    item = rejection(retrievals(["reflection,task_id,agent\n", "a,b,c\n", "d,e,f\n"], "csv"))
    assert item.line == 1
    assert item.reason == "header: missing column(s) retrieved_at; no lines were read"


def test_a_csv_row_with_the_wrong_number_of_fields_is_rejected():
    item = rejection(
        retrievals(["reflection,retrieved_at,task_id,agent\n", "a,2026-05-01,t\n"], "csv")
    )
    assert (item.line, item.reason) == (2, "the line has 3 fields; the header has 4")


def test_detect_log_kind_reads_json_keys_and_csv_headers():
    assert detect_log_kind(RETRIEVAL) == "retrieval"
    assert detect_log_kind(TASK) == "task"
    assert detect_log_kind(["\ufeffReflection ", "retrieved_at", "agent"]) == "retrieval"
    assert detect_log_kind(TASK_HEADER.split(",")) == "task"
    assert detect_log_kind({"scenario_id": "x"}) is None


def test_parse_log_file_detects_the_kind_and_streams_the_samples():
    kind, items = parse_log_file(SAMPLES / "logs" / "tasks.jsonl", now=NOW)
    assert kind == "task" and len(list(items)) == 3
    kind, items = parse_log_file(SAMPLES / "logs" / "retrievals.csv", now=NOW)
    assert kind == "retrieval" and [i.line for i in items] == [2]


def test_parse_log_file_rejects_undecodable_lines_and_keeps_going(tmp_path):
    log = tmp_path / "retrievals.jsonl"
    good = retrieval_line().encode()
    latin1 = retrieval_line(agent="cafX").encode().replace(b"cafX", b"caf\xe9")
    log.write_bytes(good + b"\n" + latin1 + b"\n" + good)
    kind, items = parse_log_file(log, now=NOW)
    items = list(items)
    assert kind == "retrieval"
    assert [type(i).__name__ for i in items] == ["ParsedRetrieval", "Rejection", "ParsedRetrieval"]
    assert items[1].line == 2 and "UTF-8" in items[1].reason


def test_parse_log_file_refuses_a_log_it_cannot_identify(tmp_path):
    log = tmp_path / "other.jsonl"
    log.write_text('{"foo": 1}\n')
    kind, items = parse_log_file(log, now=NOW)
    assert kind is None
    assert "cannot tell the log kind" in rejection(list(items)).reason


@given(
    st.datetimes(
        min_value=datetime(2000, 1, 1),
        max_value=datetime(2026, 5, 30),
        timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)), None]),
    )
)
def test_any_iso_timestamp_reads_back_as_the_same_instant_in_utc(moment):
    [item] = retrievals([retrieval_line(retrieved_at=moment.isoformat())])
    expected = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
    assert item.retrieved_at == expected and item.retrieved_at.tzinfo is UTC


def test_a_deeply_nested_json_line_is_rejected_without_stopping_the_import():
    items = retrievals(["[" * 100_000, retrieval_line()])
    assert items[0].reason == "invalid JSON: nested too deeply"
    assert isinstance(items[1], ParsedRetrieval)


def test_csv_headers_are_matched_without_case_or_a_bom():
    [item] = retrievals(
        ["\ufeffReflection,Retrieved_At,TASK_ID,agent\n", "r,2026-05-01,t,a\n"], "csv"
    )
    assert (item.reflection_ref, item.task_id) == ("r", "t")
