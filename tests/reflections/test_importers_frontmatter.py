"""Front-matter Markdown: the YAML header, the three-question body, and their failure modes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from reflections.importers.base import FORMAT_FRONTMATTER, ParseError
from reflections.importers.frontmatter import parse_frontmatter
from tests.conftest import SAMPLES

NOW = datetime(2026, 6, 1, tzinfo=UTC)
PATH = "memory/reflexions/2026-05/14-fin-20260514-0031.md"

BODY = """## What happened?
I misclassified a transfer.

## Why?
The counterparty is our own entity.

## What rule should I remember?
Classify Marktr LLC transactions as internal transfers. Always.
"""


def parse(front: str, body: str = BODY, *, path: str = PATH):
    return parse_frontmatter(f"---\n{front}---\n{body}", source_path=path, now=NOW)


def raises(front: str, body: str = BODY, *, path: str = PATH) -> ParseError:
    with pytest.raises(ParseError) as exc:
        parse(front, body, path=path)
    return exc.value


def test_finance_sample_reads_every_field():
    r = parse_frontmatter((SAMPLES / PATH).read_text(), source_path=PATH, now=NOW)
    assert (r.kind, r.outcome, r.format) == ("failure", "failure", FORMAT_FRONTMATTER)
    assert r.created_at == datetime(2026, 5, 14, tzinfo=UTC)
    assert r.task_id == "fin-20260514-0031"
    assert (r.agent, r.department, r.task_type) == ("finance-agent", "finance", "reconciliation")
    assert r.model_used == "claude-sonnet-4-5"
    assert r.confidence == 0.62
    assert r.salience is None
    assert r.tags == ["wise", "internal-transfer", "classification"]
    assert r.skills == ["ledger-reconcile", "wise-export"]
    assert [s["heading"] for s in r.sections] == [
        "What happened?",
        "Why?",
        "What rule should I remember?",
    ]
    assert r.title.startswith("When reconciling a Wise transaction")
    assert len(r.title) <= 100 and r.title.endswith("…")
    assert r.tools == ["wise", "isinternaltransfer"]
    assert (r.archived, r.promoted, r.deprecated_reason) == (False, False, "")


def test_sales_sample_keeps_its_stated_salience():
    path = "memory/reflexions/2026-05/21-sal-20260521-0107.md"
    r = parse_frontmatter((SAMPLES / path).read_text(), source_path=path, now=NOW)
    assert (r.kind, r.salience, r.task_id) == ("success", 0.83, "sal-20260521-0107")


def test_title_is_the_first_sentence_of_the_rule():
    assert parse("outcome: partial\n").title == (
        "Classify Marktr LLC transactions as internal transfers."
    )


def test_title_falls_back_to_the_first_section_without_a_rule():
    body = "## What happened?\nIt broke. Then it mended.\n"
    assert parse("outcome: failure\n", body).title == "It broke."


def test_malformed_yaml_is_rejected_with_the_file_line_and_the_yaml_problem():
    front = "outcome: failure\ntags: [a, b\nmodel_used: x\n"
    err = raises(front)
    assert err.field == "front matter"
    assert err.line == 4  # "---" is line 1; the scanner notices on the model_used line
    assert "invalid YAML" in err.reason and "expected ',' or ']'" in err.reason


def test_unclosed_front_matter_is_rejected():
    with pytest.raises(ParseError) as exc:
        parse_frontmatter(
            "---\noutcome: failure\n## What happened?\nx\n", source_path=PATH, now=NOW
        )
    assert exc.value.line == 1 and "never closed" in exc.value.reason


def test_front_matter_that_is_not_a_mapping_is_rejected():
    err = raises("- outcome\n- failure\n")
    assert err.field == "front matter" and "mapping" in err.reason and "list" in err.reason


def test_frontmatter_rejects_unknown_outcome_naming_the_field():
    err = raises("task_type: x\noutcome: win\n")
    assert err.field == "outcome"
    assert err.line == 3
    assert "'win'" in err.reason and "success, partial, failure" in err.reason


def test_frontmatter_requires_an_outcome():
    err = raises("task_type: x\n")
    assert err.field == "outcome" and "missing" in err.reason


def test_outcome_is_case_insensitive():
    assert parse("outcome: Partial\n").outcome == "partial"


def test_tags_must_be_a_list():
    err = raises("outcome: failure\ntags: wise, fx\n")
    assert (err.field, err.line) == ("tags", 3)
    assert "expected a list" in err.reason


def test_tags_must_hold_text_items():
    err = raises("outcome: failure\ntags: [a, {b: c}]\n")
    assert err.field == "tags" and "text items" in err.reason


def test_numeric_tags_are_kept_as_text_and_duplicates_dropped():
    assert parse("outcome: failure\ntags: [q4, 2026, q4, ' ']\n").tags == ["q4", "2026"]


@pytest.mark.parametrize("value", ["high", "1.5", "-0.1", "true"])
def test_confidence_must_be_a_number_between_0_and_1(value):
    err = raises(f"outcome: failure\nconfidence_at_start: {value}\n")
    assert err.field == "confidence_at_start"


def test_salience_outside_0_1_is_rejected():
    assert raises("outcome: failure\nsalience_score: 3\n").field == "salience_score"


def test_review_state_written_back_into_the_file_is_read():
    r = parse("outcome: failure\narchived: true\npromoted: false\ndeprecated_reason: outdated\n")
    assert (r.archived, r.promoted, r.deprecated_reason) == (True, False, "outdated")


def test_archived_must_be_a_boolean():
    assert raises("outcome: failure\narchived: maybe\n").field == "archived"


def test_strings_are_stripped_and_must_be_text():
    assert parse("outcome: failure\nagent: '  finance-agent '\n").agent == "finance-agent"
    assert raises("outcome: failure\nmodel_used: [a]\n").field == "model_used"


def test_a_created_at_key_overrides_the_path_date():
    r = parse("outcome: failure\ncreated_at: 2026-05-14T17:30:00+02:00\n")
    assert r.created_at == datetime(2026, 5, 14, 15, 30, tzinfo=UTC)


def test_a_date_key_is_accepted_as_the_created_date():
    assert parse("outcome: failure\ndate: 2026-05-10\n").created_at == datetime(
        2026, 5, 10, tzinfo=UTC
    )


def test_a_created_date_in_the_future_is_rejected():
    err = raises("outcome: failure\ncreated_at: 2027-01-02\n")
    assert "created date 2027-01-02 is in the future" in err.reason
    assert err.field == "created_at"


def test_a_future_path_date_is_rejected():
    err = raises("outcome: failure\n", path="memory/reflexions/2027-01/02-t.md")
    assert "created date 2027-01-02 is in the future" in err.reason


def test_an_impossible_path_date_is_rejected():
    err = raises("outcome: failure\n", path="memory/reflexions/2026-02/30-t.md")
    assert err.field == "path" and "2026-02/30" in err.reason


def test_without_a_conventional_path_the_front_matter_must_date_the_reflection():
    err = raises("outcome: failure\n", path="notes/lesson.md")
    assert err.field == "created_at" and "memory/reflexions/YYYY-MM/DD-<task-id>.md" in err.reason
    r = parse("outcome: failure\ncreated_at: 2026-05-01\ntask_id: t-1\n", path="notes/lesson.md")
    assert (r.created_at.day, r.task_id) == (1, "t-1")


def test_an_empty_body_is_rejected():
    err = raises("outcome: failure\n", "\n\n")
    assert err.field == "body"


def test_body_text_without_headings_is_kept():
    r = parse("outcome: failure\n", "Just a paragraph of lesson.\n")
    assert r.sections == [{"heading": "Reflection", "body": "Just a paragraph of lesson."}]


def test_unsafe_yaml_tags_are_refused_not_executed(tmp_path):
    marker = tmp_path / "pwned"
    front = f"outcome: failure\nx: !!python/object/apply:os.system ['touch {marker}']\n"
    err = raises(front)
    assert "invalid YAML" in err.reason
    assert not marker.exists()


def test_title_does_not_stop_at_an_abbreviation():
    body = "## What rule should I remember?\nUse a checker, e.g. the fx tool, first. Then go.\n"
    assert parse("outcome: failure\n", body).title == "Use a checker, e.g. the fx tool, first."
