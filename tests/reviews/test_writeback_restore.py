"""Taking a written-back deprecation out of its file again once the verdict is undone or
changed to keep: byte for byte, twice is once, never over a file changed since."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command

from reflections.importers.base import content_hash
from reflections.models import Reflection, ReflectionHistory, State
from reviews.services.verdicts import undo
from reviews.services.writeback import write_back
from tests.reviews.writeback_support import (
    EPISODIC,
    FRONTMATTER,
    NOW,
    ORIGINAL,
    PROTOCOL,
    deprecate,
    import_ws,
    kept,
    make_cycle,
    reflection_at,
    reviewed,
    snapshot,
    undone,
)


@pytest.mark.django_db
@pytest.mark.parametrize("path", [FRONTMATTER, PROTOCOL, EPISODIC])
@pytest.mark.parametrize("withdraw", [undone, kept], ids=["undo", "keep"])
def test_a_withdrawn_verdict_restores_the_file_byte_for_byte(workspace, path, withdraw):
    first = import_ws(workspace)
    original = (workspace / path).read_bytes()
    item = reviewed(reflection_at(path), "outdated")
    # Written an hour before it is restored, whatever today's date is.
    assert write_back(root=workspace, now=NOW - timedelta(hours=1)).paths("written") == [path]
    assert (workspace / path).read_bytes() != original

    withdraw(item)
    report = write_back(root=workspace, now=NOW)

    assert report.paths("restored") == [path]
    assert report.counts["written"] == 0
    assert report.entries["restored"][0].detail == (
        "removed deprecated_reason, archived (the text as it was before write-back)"
    )
    assert (workspace / path).read_bytes() == original
    reflection = reflection_at(path)
    assert reflection.content_hash == content_hash((workspace / path).read_text())
    assert reflection.original_text == (workspace / path).read_text()
    assert (reflection.state, reflection.deprecated_reason) == ("active", "")
    row = ReflectionHistory.objects.filter(reflection=reflection, actor_label="write_back").last()
    assert (row.change, row.to_hash, row.at) == ("content", reflection.content_hash, NOW)
    assert (row.from_state, row.to_state) == ("active", "active")

    summary = import_ws(workspace)

    assert summary.rejected == []
    assert (summary.created, summary.updated, summary.unchanged) == (0, 0, first.created)
    assert reflection_at(path).state == State.ACTIVE


@pytest.mark.django_db
def test_an_undone_duplicate_loses_its_duplicate_of_too(workspace):
    import_ws(workspace)
    original = (workspace / EPISODIC).read_bytes()
    item = deprecate(reflection_at(EPISODIC), "duplicate", duplicate_of=reflection_at(ORIGINAL))
    write_back(root=workspace)
    assert b'"duplicate_of"' in (workspace / EPISODIC).read_bytes()

    undo(item_id=item.pk, user=item.reviewer, version=item.version)
    report = write_back(root=workspace)

    assert report.paths("restored") == [EPISODIC]
    assert "duplicate_of" in report.entries["restored"][0].detail
    assert (workspace / EPISODIC).read_bytes() == original


@pytest.mark.django_db
def test_the_files_own_archived_true_survives_a_restore(workspace):
    path = workspace / FRONTMATTER
    path.write_text(
        path.read_text().replace("outcome: failure\n", "outcome: failure\narchived: true\n")
    )
    import_ws(workspace)
    original = path.read_bytes()
    assert reflection_at(FRONTMATTER).state == State.ARCHIVED
    item = reviewed(reflection_at(FRONTMATTER), "echo_chamber")
    write_back(root=workspace)

    kept(item)
    report = write_back(root=workspace)

    assert report.entries["restored"][0].detail == (
        "removed deprecated_reason (the text as it was before write-back)"
    )
    assert path.read_bytes() == original
    assert import_ws(workspace).updated == 0
    assert reflection_at(FRONTMATTER).state == State.ARCHIVED


@pytest.mark.django_db
def test_restoring_twice_is_restoring_once(workspace):
    import_ws(workspace)
    items = [reviewed(reflection_at(p), "outdated") for p in (FRONTMATTER, PROTOCOL, EPISODIC)]
    write_back(root=workspace)
    for item in items:
        undone(item)
    assert write_back(root=workspace).paths("restored") == sorted([FRONTMATTER, PROTOCOL, EPISODIC])
    files = snapshot(workspace)
    history = ReflectionHistory.objects.count()

    report = write_back(root=workspace)

    assert sum(report.counts.values()) == 0
    assert snapshot(workspace) == files
    assert ReflectionHistory.objects.count() == history


@pytest.mark.django_db
def test_a_restore_dry_run_changes_nothing_and_lists_it(workspace, capsys):
    import_ws(workspace)
    item = reviewed(reflection_at(FRONTMATTER), "outdated")
    write_back(root=workspace)
    undone(item)
    files = snapshot(workspace)
    rows = list(Reflection.objects.order_by("id").values("content_hash", "original_text"))
    history = ReflectionHistory.objects.count()

    report = write_back(root=workspace, dry_run=True)
    call_command("write_back", "--root", str(workspace), "--dry-run")
    text = capsys.readouterr().out
    call_command("write_back", "--root", str(workspace), "--dry-run", "--json")
    data = json.loads(capsys.readouterr().out)

    assert report.paths("restored") == [FRONTMATTER]
    assert text.splitlines()[0].startswith(
        "Write-back (dry run, nothing changed): 0 would be written, 1 would be restored, "
    )
    assert "Would restore:" in text.splitlines()
    assert [e["source_path"] for e in data["restored"]] == [FRONTMATTER]
    assert data["counts"]["restored"] == 1
    assert snapshot(workspace) == files
    assert list(Reflection.objects.order_by("id").values("content_hash", "original_text")) == rows
    assert ReflectionHistory.objects.count() == history


@pytest.mark.django_db
def test_the_command_reports_restored_files(workspace, capsys):
    import_ws(workspace)
    item = reviewed(reflection_at(PROTOCOL), "outdated")
    write_back(root=workspace)
    undone(item)

    call_command("write_back", "--root", str(workspace))
    lines = capsys.readouterr().out.splitlines()

    assert lines[0].startswith("Write-back: 0 written, 1 restored, ")
    assert lines[1:3] == [
        "Restored:",
        f"  {PROTOCOL}: removed deprecated_reason, archived (the text as it was before write-back)",
    ]


@pytest.mark.django_db
def test_a_written_back_file_changed_since_is_not_restored(workspace):
    import_ws(workspace)
    item = reviewed(reflection_at(FRONTMATTER), "outdated")
    write_back(root=workspace)
    undone(item)
    path = workspace / FRONTMATTER
    path.write_text(path.read_text() + "\nA line the agent added after the write-back.\n")
    before = path.read_bytes()
    stored = reflection_at(FRONTMATTER).content_hash

    report = write_back(root=workspace)

    assert report.paths("changed_since_import") == [FRONTMATTER]
    assert report.counts["restored"] == 0
    assert path.read_bytes() == before
    assert reflection_at(FRONTMATTER).content_hash == stored


@pytest.mark.django_db
def test_a_restored_file_keeps_its_mode_line_endings_and_bom(workspace):
    path = workspace / FRONTMATTER
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    path.chmod(0o640)
    import_ws(workspace)
    original = path.read_bytes()
    item = reviewed(reflection_at(FRONTMATTER), "outdated")
    write_back(root=workspace)

    undone(item)
    write_back(root=workspace)

    assert path.read_bytes() == original
    assert path.stat().st_mode & 0o777 == 0o640
    assert import_ws(workspace).updated == 0


@pytest.mark.django_db
def test_only_the_chosen_cycles_withdrawn_verdicts_are_restored_and_deprecated_ones_never(
    workspace,
):
    import_ws(workspace)
    undone_item = reviewed(reflection_at(FRONTMATTER), "outdated")
    reviewed(reflection_at(PROTOCOL), "outdated")  # still deprecated: its file keeps the keys
    write_back(root=workspace)
    undone(undone_item)
    other = make_cycle(reflection_at(FRONTMATTER).department, "2027Q1")

    assert write_back(root=workspace, dry_run=True, cycle=other.pk).counts["restored"] == 0
    report = write_back(root=workspace, cycle=undone_item.cycle_id)

    assert report.paths("restored") == [FRONTMATTER]
    assert report.paths("up_to_date") == []  # the protocol file is in another department's cycle
    assert "deprecated_reason" in (workspace / PROTOCOL).read_text()
    assert write_back(root=workspace).paths("up_to_date") == [PROTOCOL]


@pytest.mark.django_db
def test_a_restore_the_importer_would_reject_is_never_written(workspace, monkeypatch):
    import_ws(workspace)
    item = reviewed(reflection_at(FRONTMATTER), "outdated")
    write_back(root=workspace)
    undone(item)
    before = (workspace / FRONTMATTER).read_bytes()
    monkeypatch.setattr(
        "reviews.services.writeback.restore_text",
        lambda text, **kw: text.replace("outcome: failure\n", ""),
    )

    report = write_back(root=workspace)

    assert report.paths("unsupported") == [FRONTMATTER]
    assert (workspace / FRONTMATTER).read_bytes() == before
