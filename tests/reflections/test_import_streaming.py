"""An import stores each batch while the next is parsed: the batching never shows in the result,
and the rows written beside them (history, the active set, the search index) are whole."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from reflections.models import ActiveSetChange, Reflection, ReflectionHistory, ScanFinding
from reflections.services import reflection_batch, reflection_import
from reflections.services.active_set import refresh_active_set
from tests.reflections.import_support import import_ws

pytestmark = pytest.mark.django_db


def stored(model, *fields):
    return sorted(model.objects.values_list(*fields))


def test_an_import_in_chunks_of_two_stores_what_an_import_in_one_chunk_stores(
    workspace, monkeypatch
):
    one_chunk = import_ws(workspace)
    rows = stored(Reflection, "source_path", "department__slug", "agent__name", "state")
    history = stored(ReflectionHistory, "reflection__source_path", "change", "to_state")
    findings = stored(ScanFinding, "reflection__source_path", "rule")
    Reflection.objects.all().delete()

    monkeypatch.setattr(reflection_import, "CHUNK_ROWS", 2)
    in_pairs = import_ws(workspace)

    assert in_pairs.as_dict() == one_chunk.as_dict()
    assert stored(Reflection, "source_path", "department__slug", "agent__name", "state") == rows
    assert stored(ReflectionHistory, "reflection__source_path", "change", "to_state") == history
    assert stored(ScanFinding, "reflection__source_path", "rule") == findings


def test_a_protocol_file_waits_for_the_later_record_that_places_its_agent(workspace, monkeypatch):
    # The protocol file (no department) sorts before the episodic file naming the agent's
    # department; with one file per chunk it cannot be placed when it is parsed.
    protocol = workspace / "memory/a-first/finance-agent/2026-05-02-classify-fx-fees.md"
    protocol.parent.mkdir(parents=True)
    protocol.write_text(
        "# Procedure: 2026-05-02 - finance-agent - Classify FX fees\n\n## Strategy\nSplit the fee"
        " line first.\n\n## Why it worked\nThe fee is its own ledger line.\n"
    )
    monkeypatch.setattr(reflection_import, "CHUNK_ROWS", 1)

    import_ws(workspace, default_department=None)

    placed = Reflection.objects.get(source_path__endswith="classify-fx-fees.md")
    assert placed.department.slug == "finance"


def test_a_reimport_in_chunks_changes_nothing(workspace, monkeypatch):
    import_ws(workspace)
    monkeypatch.setattr(reflection_import, "CHUNK_ROWS", 3)

    again = import_ws(workspace)

    assert (again.created, again.updated) == (0, 0)
    assert again.unchanged == Reflection.objects.count()


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the GIN search index is PostgreSQL's"
)


@postgres_only
def test_an_import_leaves_the_search_index_to_postgresql_and_search_finds_its_rows(workspace):
    # Measured: on 2 cores, entries merged once after the rows (a GIN pending list) cost more
    # than PostgreSQL's own upkeep beside the parsing (docs/architecture.md, "Imports").
    seen: list[str] = []

    def watch(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        import_ws(workspace)

    assert not [sql for sql in seen if "gin_" in sql or "INDEX" in sql]
    from reflections.selectors.reflections import search_text

    assert search_text(Reflection.objects.all(), "competitor").exists()


def test_a_new_row_holds_every_value_in_the_column_reflection_columns_names():
    from datetime import UTC, datetime

    from reflections.importers.base import ParsedReflection
    from reflections.services.batches import ImportSummary

    now = datetime(2026, 11, 24, tzinfo=UTC)
    parsed = ParsedReflection(
        source_path="memory/reflexions/2026-05/02-t1.md",
        format="frontmatter_md",
        original_text="text",
        content_hash="abc",
        kind="success",
        outcome="success",
        created_at=datetime(2026, 5, 2, tzinfo=UTC),
        title="Split the fee line",
        sections=[{"heading": "Why?", "body": "The fee is its own line."}],
        task_type="reconciliation",
        task_id="t1",
        external_id="ext-1",
        tags=["fx"],
        skills=["fx-conversion"],
        tools=["ledger"],
        confidence=0.5,
        model_used="model-a",
        salience=0.7,
        deprecated_reason="superseded",
    )
    batch = reflection_batch.ReflectionBatch(summary=ImportSummary(), now=now)

    row = dict(
        zip(reflection_batch.REFLECTION_COLUMNS, batch._new_row(7, parsed, 3, 4), strict=True)
    )

    expected = reflection_batch.content_values(parsed, 3, 4)
    for column in ("sections", "tags", "skills", "tools"):
        expected[column] = json.dumps(expected[column])
    expected["created_at"] = reflection_batch.bulk.adapt_value(expected["created_at"])
    assert {column: row[column] for column in expected} == expected
    assert (row["id"], row["source_path"], row["state"]) == (7, parsed.source_path, "deprecated")
    assert (row["deprecated_reason"], row["retrieval_count"], row["last_retrieved_at"]) == (
        "superseded",
        0,
        None,
    )
    assert row["imported_at"] == row["updated_at"] == batch.db_now


def active_set_rows() -> set[tuple]:
    return set(
        ActiveSetChange.objects.values_list("reflection_id", "department_id", "day", "change")
    )


def write_declared_states(ws):
    """Files that declare every state, and one the scanner quarantines."""
    for day, declared in enumerate(
        ["promoted: true", "archived: true", "deprecated_reason: superseded", ""], start=10
    ):
        secret = "The key AKIAZ7Q3XK5R2M4W6N8P worked." if not declared else "Split the line."
        (ws / f"memory/reflexions/2026-06/{day}-fin-2026061{day}.md").write_text(
            f"---\ntask_type: reconciliation\noutcome: failure\ndepartment: finance\n"
            f"agent: finance-agent\n{declared}\n---\n## What happened?\n{secret}\n\n"
            "## What rule should I remember?\nRotate keys before month end.\n"
        )


def test_the_active_set_rows_an_import_writes_with_its_reflections_equal_a_whole_recount(
    workspace, monkeypatch
):
    (workspace / "memory/reflexions/2026-06").mkdir(parents=True)
    write_declared_states(workspace)
    monkeypatch.setattr(reflection_import, "CHUNK_ROWS", 2)

    import_ws(workspace)

    written = active_set_rows()
    states = set(Reflection.objects.values_list("state", flat=True))
    refresh_active_set()
    assert active_set_rows() == written
    assert states == {"active", "promoted", "archived", "deprecated", "quarantined"}
    assert len(written) == Reflection.objects.filter(state__in=["active", "promoted"]).count()


def test_a_changed_file_is_still_recounted_after_the_import_wrote_the_new_ones(workspace):
    import_ws(workspace)
    changed = next((workspace / "memory").rglob("*.md"))
    changed.write_text(changed.read_text().replace("\n", "\n\n", 1))

    summary = import_ws(workspace)

    assert summary.updated == 1
    written = active_set_rows()
    refresh_active_set()
    assert active_set_rows() == written
