"""The import and export commands: JSON for machines, summaries for people; grown logs."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from reflections.models import (
    Reflection,
    RetrievalEvent,
)
from tests.reflections.import_support import import_logs, import_ws

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


pytestmark = pytest.mark.django_db

# --------------------------------------------------------------------------- commands


def test_import_commands_print_one_json_object(workspace, capsys):
    call_command(
        "import_reflections",
        "--create-departments",
        str(workspace),
        "--default-department",
        "research",
        "--json",
    )
    reflections = json.loads(capsys.readouterr().out)
    call_command("import_events", "--create-departments", str(workspace / "logs"), "--json")
    events = json.loads(capsys.readouterr().out)

    assert {"created", "updated", "unchanged", "rejected"} <= reflections.keys()
    assert reflections["created"] == 11
    assert events["created"] == 7 and events["rejected"] == []


def test_import_command_summarises_rejections_for_people(workspace, capsys):
    (workspace / "memory/reflexions/2026-05/23-empty-0001.md").write_bytes(b"")

    call_command(
        "import_reflections",
        "--create-departments",
        str(workspace),
        "--default-department",
        "research",
    )

    out = capsys.readouterr().out
    assert "11 created" in out and "1 rejected" in out
    assert "memory/reflexions/2026-05/23-empty-0001.md" in out


def test_export_writes_one_record_per_reflection_with_state_and_counters(workspace, capsys):
    import_ws(workspace)
    import_logs(workspace)

    call_command("export_reflections", "--department", "finance")
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    call_command("export_reflections", "--format", "csv")
    csv_lines = capsys.readouterr().out.splitlines()

    assert record["source_path"] == "memory/reflexions/2026-05/14-fin-20260514-0031.md"
    assert (record["state"], record["multiplier"], record["retrieval_count"]) == ("active", 1.0, 2)
    assert record["last_retrieved_at"] == "2026-05-27T14:40:00+00:00"
    for key in (
        "content_hash",
        "department",
        "agent",
        "kind",
        "outcome",
        "created_at",
        "deprecated_reason",
    ):
        assert key in record
    assert csv_lines[0].startswith("source_path,content_hash,department,agent")
    assert len(csv_lines) == 1 + Reflection.objects.count()


def test_a_log_that_grew_since_the_last_import_adds_only_its_new_lines(workspace):
    import_ws(workspace)
    import_logs(workspace, "retrievals.jsonl")
    log = workspace / "logs/retrievals.jsonl"
    first_line = log.read_text().splitlines()[0]
    new_line = json.loads(first_line) | {"task_id": "fin-20260601-0001"}
    log.write_text(log.read_text() + json.dumps(new_line) + "\n")

    again = import_logs(workspace, "retrievals.jsonl")

    assert again.details["retrievals"] == {"created": 1, "unchanged": 3}
    finance = Reflection.objects.get(source_path=new_line["reflection"])
    assert finance.retrieval_count == finance.retrievals.count() == 3


def test_a_line_repeated_within_one_log_is_stored_once(workspace):
    import_ws(workspace)
    log = workspace / "logs/retrievals.jsonl"
    first_line = log.read_text().splitlines()[0]
    log.write_text(log.read_text() + first_line + "\n")

    summary = import_logs(workspace, "retrievals.jsonl")

    assert summary.details["retrievals"] == {"created": 3, "unchanged": 1}
    assert RetrievalEvent.objects.count() == 3


def test_the_progress_bar_of_an_import_shows_the_rows_written_and_their_rate(workspace):
    from reflections.management.commands._output import progress_bar, rows_per_second

    bar = progress_bar(enabled=False, unit="file")
    shown = rows_per_second(bar)
    rows_seen = []
    summary = import_ws(workspace, rows_done=lambda rows: (rows_seen.append(rows), shown(rows)))

    assert rows_seen and rows_seen[-1] == summary.created
    assert bar.postfix.startswith(f"{summary.created:,} rows, ")
    assert bar.postfix.endswith(" rows/s")
