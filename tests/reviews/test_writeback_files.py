"""Writing review deprecations into the source files: each format, idempotent, safe with files
that changed or paths that escape, atomic, and a no-op for the next import."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from reflections.importers.base import content_hash
from reflections.importers.workspace import parse_paths
from reflections.models import Reflection, ReflectionHistory, State
from reviews.services.writeback import write_back
from tests.factories import ReflectionFactory
from tests.reviews.writeback_support import (
    EPISODIC,
    FRONTMATTER,
    HEURISTIC,
    NOW,
    ORIGINAL,
    PROTOCOL,
    deprecate,
    import_ws,
    make_cycle,
    reflection_at,
    snapshot,
)

# --------------------------------------------------------------------------- the service


@pytest.mark.django_db
def test_write_back_writes_each_supported_format_and_reports_the_rest(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    deprecate(reflection_at(EPISODIC), "duplicate", duplicate_of=reflection_at(ORIGINAL))
    deprecate(reflection_at(HEURISTIC), "echo_chamber")

    report = write_back(root=workspace)

    assert report.paths("written") == [EPISODIC, FRONTMATTER]
    assert report.paths("unsupported") == [HEURISTIC]
    assert "one per line" in report.entries["unsupported"][0].detail
    front = (workspace / FRONTMATTER).read_text()
    assert "\ndeprecated_reason: outdated\narchived: true\n---\n" in front
    episode = json.loads((workspace / EPISODIC).read_text())
    assert episode["deprecated_reason"] == "duplicate"
    assert episode["archived"] is True
    assert episode["duplicate_of"] == ORIGINAL


@pytest.mark.django_db
def test_the_database_keeps_the_written_text_with_a_history_row(workspace):
    import_ws(workspace)
    item = deprecate(reflection_at(FRONTMATTER), "outdated")
    old_hash = item.reflection.content_hash

    write_back(root=workspace, now=NOW)

    reflection = reflection_at(FRONTMATTER)
    text = (workspace / FRONTMATTER).read_text()
    assert reflection.original_text == text
    assert reflection.content_hash == content_hash(text) != old_hash
    assert reflection.state == State.DEPRECATED
    assert reflection.deprecated_reason == "outdated"
    row = ReflectionHistory.objects.get(reflection=reflection, actor_label="write_back")
    assert (row.change, row.from_hash, row.to_hash) == (
        "content",
        old_hash,
        reflection.content_hash,
    )
    assert (row.from_state, row.to_state, row.at) == ("deprecated", "deprecated", NOW)


@pytest.mark.django_db
def test_reimporting_written_back_files_changes_nothing_and_keeps_them_deprecated(workspace):
    first = import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    deprecate(reflection_at(EPISODIC), "duplicate", duplicate_of=reflection_at(ORIGINAL))
    write_back(root=workspace)
    before = {r.source_path: (r.content_hash, r.updated_at) for r in Reflection.objects.all()}

    summary = import_ws(workspace)

    assert summary.rejected == []
    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, first.created)
    after = {r.source_path: (r.content_hash, r.updated_at) for r in Reflection.objects.all()}
    assert after == before
    for path, reason in ((FRONTMATTER, "outdated"), (EPISODIC, "duplicate")):
        reflection = reflection_at(path)
        assert (reflection.state, reflection.deprecated_reason) == ("deprecated", reason)


@pytest.mark.django_db
def test_a_written_back_file_declares_its_deprecation_to_any_importer(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "echo_chamber")
    write_back(root=workspace)

    [parsed] = parse_paths([workspace / FRONTMATTER], now=NOW)

    assert (parsed.deprecated_reason, parsed.archived) == ("echo_chamber", True)
    assert parsed.content_hash == reflection_at(FRONTMATTER).content_hash


@pytest.mark.django_db
def test_protocol_markdown_gains_a_block_the_importer_reads_back(workspace):
    import_ws(workspace)
    deprecate(reflection_at(PROTOCOL), "outdated")

    report = write_back(root=workspace)
    summary = import_ws(workspace)

    assert report.paths("written") == [PROTOCOL]
    assert summary.rejected == [] and summary.updated == 0
    assert reflection_at(PROTOCOL).state == State.DEPRECATED


@pytest.mark.django_db
def test_a_file_the_importer_would_reject_is_never_written(workspace, monkeypatch):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    before = (workspace / FRONTMATTER).read_bytes()
    # A writer that loses a required key: the importer would reject what it wrote.
    monkeypatch.setattr(
        "reviews.services.writeback.write_back_text",
        lambda text, **kw: text.replace("outcome: failure\n", "deprecated_reason: outdated\n"),
    )

    report = write_back(root=workspace)

    assert report.paths("unsupported") == [FRONTMATTER]
    assert "outcome" in report.entries["unsupported"][0].detail
    assert (workspace / FRONTMATTER).read_bytes() == before


@pytest.mark.django_db
def test_a_second_run_finds_everything_already_up_to_date(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    deprecate(reflection_at(EPISODIC), "outdated")
    write_back(root=workspace)
    files = snapshot(workspace)
    history = ReflectionHistory.objects.count()

    report = write_back(root=workspace)

    assert report.paths("up_to_date") == [EPISODIC, FRONTMATTER]
    assert report.counts["written"] == 0
    assert snapshot(workspace) == files
    assert ReflectionHistory.objects.count() == history


@pytest.mark.django_db
def test_a_file_changed_since_import_is_untouched_and_reported(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    path = workspace / FRONTMATTER
    path.write_text(path.read_text() + "\nA line the agent added after the import.\n")
    before = path.read_bytes()
    stored_hash = reflection_at(FRONTMATTER).content_hash

    report = write_back(root=workspace)

    assert report.paths("changed_since_import") == [FRONTMATTER]
    assert path.read_bytes() == before
    assert reflection_at(FRONTMATTER).content_hash == stored_hash


@pytest.mark.django_db
def test_a_dry_run_touches_nothing_and_lists_what_would_change(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "duplicate", duplicate_of=reflection_at(ORIGINAL))
    deprecate(reflection_at(EPISODIC), "outdated")
    files = snapshot(workspace)
    rows = list(Reflection.objects.order_by("id").values("content_hash", "original_text"))
    history = ReflectionHistory.objects.count()

    report = write_back(root=workspace, dry_run=True)

    assert report.dry_run
    assert report.paths("written") == [EPISODIC, FRONTMATTER]
    assert report.entries["written"][1].detail == (
        f"deprecated_reason: duplicate, archived: true, duplicate_of: {ORIGINAL}"
    )
    assert snapshot(workspace) == files
    assert list(Reflection.objects.order_by("id").values("content_hash", "original_text")) == rows
    assert ReflectionHistory.objects.count() == history


@pytest.mark.django_db
def test_a_source_path_that_climbs_out_of_the_root_is_refused(workspace, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("---\noutcome: failure\n---\nsecret plans\n")
    reflection = ReflectionFactory(
        source_path="memory/../../outside.md",
        format="frontmatter_md",
        original_text=outside.read_text(),
        content_hash=content_hash(outside.read_text()),
    )
    deprecate(reflection, "outdated")

    report = write_back(root=workspace)

    assert report.paths("refused") == ["memory/../../outside.md"]
    assert outside.read_text() == "---\noutcome: failure\n---\nsecret plans\n"


@pytest.mark.django_db
def test_a_symlink_out_of_the_tree_is_refused_and_its_target_untouched(workspace, tmp_path):
    outside = tmp_path / "elsewhere" / "28-ops-1.md"
    outside.parent.mkdir()
    shutil.copy(workspace / FRONTMATTER, outside)
    link = workspace / "memory/reflexions/2026-05/28-ops-1.md"
    link.symlink_to(outside)
    reflection = ReflectionFactory(
        source_path="memory/reflexions/2026-05/28-ops-1.md",
        format="frontmatter_md",
        original_text=outside.read_text(),
        content_hash=content_hash(outside.read_text()),
    )
    deprecate(reflection, "outdated")
    before = outside.read_bytes()

    report = write_back(root=workspace)

    assert report.paths("refused") == ["memory/reflexions/2026-05/28-ops-1.md"]
    assert "outside the workspace" in report.entries["refused"][0].detail
    assert outside.read_bytes() == before
    assert link.is_symlink()


@pytest.mark.django_db
def test_a_missing_file_is_reported(workspace):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    (workspace / FRONTMATTER).unlink()

    report = write_back(root=workspace)

    assert report.paths("missing") == [FRONTMATTER]


@pytest.mark.django_db
def test_a_failure_mid_write_leaves_the_original_file_and_row_intact(workspace, monkeypatch):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    path = workspace / FRONTMATTER
    before = path.read_bytes()
    stored = reflection_at(FRONTMATTER).content_hash

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    report = write_back(root=workspace)

    assert report.paths("failed") == [FRONTMATTER]
    assert "No space left on device" in report.entries["failed"][0].detail
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        ["14-fin-20260514-0031.md", "21-sal-20260521-0107.md"]
    )  # no temporary file left behind
    assert reflection_at(FRONTMATTER).content_hash == stored
    assert not ReflectionHistory.objects.filter(actor_label="write_back").exists()


@pytest.mark.django_db
def test_the_file_keeps_its_mode_line_endings_and_bom(workspace):
    path = workspace / FRONTMATTER
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    path.chmod(0o640)
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")

    write_back(root=workspace)
    summary = import_ws(workspace)

    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\n")
    assert b"deprecated_reason: outdated\r\narchived: true\r\n---\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert path.stat().st_mode & 0o777 == 0o640
    assert summary.updated == 0


@pytest.mark.django_db
def test_only_current_deprecating_verdicts_are_written_and_one_cycle_can_be_chosen(workspace):
    import_ws(workspace)
    finance = reflection_at(FRONTMATTER).department
    old_cycle = make_cycle(finance, "2026Q3")
    new_cycle = make_cycle(finance, "2026Q4")
    deprecate(reflection_at(FRONTMATTER), "outdated", cycle=old_cycle)
    deprecate(reflection_at(EPISODIC), "outdated", cycle=new_cycle)
    kept = deprecate(reflection_at(ORIGINAL), "outdated", cycle=new_cycle)
    # A verdict later undone: the item is cleared and the reflection restored.
    kept.verdict = ""
    kept.save()
    Reflection.objects.filter(pk=kept.reflection_id).update(
        state=State.ACTIVE, deprecated_reason=""
    )

    report = write_back(root=workspace, dry_run=True, cycle=new_cycle.pk)

    assert report.paths("written") == [EPISODIC]
    assert sum(report.counts.values()) == 1


@pytest.mark.django_db
def test_a_reflection_deprecated_in_two_cycles_is_written_with_the_latest_verdict(workspace):
    import_ws(workspace)
    finance = reflection_at(FRONTMATTER).department
    reflection = reflection_at(FRONTMATTER)
    deprecate(reflection, "outdated", cycle=make_cycle(finance, "2026Q3"))
    deprecate(
        reflection,
        "echo_chamber",
        cycle=make_cycle(finance, "2026Q4"),
        decided_at=datetime(2026, 10, 5, 9, 30, tzinfo=UTC) + timedelta(days=30),
    )

    report = write_back(root=workspace)

    assert report.paths("written") == [FRONTMATTER]
    assert "deprecated_reason: echo_chamber\n" in (workspace / FRONTMATTER).read_text()


@pytest.mark.django_db
def test_the_command_prints_a_dry_run_and_json(workspace, capsys):
    import_ws(workspace)
    deprecate(reflection_at(FRONTMATTER), "outdated")
    deprecate(reflection_at(PROTOCOL), "outdated")
    before = snapshot(workspace)

    call_command("write_back", "--root", str(workspace), "--dry-run")
    text = capsys.readouterr().out
    call_command("write_back", "--root", str(workspace), "--dry-run", "--json")
    data = json.loads(capsys.readouterr().out)

    assert text.splitlines()[0].startswith(
        "Write-back (dry run, nothing changed): 2 would be written"
    )
    assert f"  {FRONTMATTER}: deprecated_reason: outdated, archived: true" in text.splitlines()
    assert data["dry_run"] is True
    assert sorted(e["source_path"] for e in data["written"]) == sorted([FRONTMATTER, PROTOCOL])
    assert data["unsupported"] == []
    assert snapshot(workspace) == before
