"""Writing review deprecations back into the source files: each format, idempotent, safe with
files that changed or paths that escape, atomic, and a no-op for the next import; and taking
them out again when the verdict is undone or changed to keep."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from reflections.importers.base import content_hash
from reflections.importers.workspace import parse_paths
from reflections.models import Reflection, ReflectionHistory, State
from reflections.services.reflection_import import import_reflections
from reviews.models import ReviewCycle, ReviewItem
from reviews.services.verdicts import decide, undo
from reviews.services.writeback import write_back
from reviews.writeback.deprecation import Deprecation, WriteBackUnsupported
from reviews.writeback.episodic import restore_episodic, write_back_episodic
from reviews.writeback.formats import restore_text, write_back_text, written_back_keys
from reviews.writeback.markdown import (
    restore_frontmatter,
    restore_protocol,
    write_back_frontmatter,
    write_back_protocol,
)
from tests.factories import ReflectionFactory, UserFactory

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)

FRONTMATTER = "memory/reflexions/2026-05/14-fin-20260514-0031.md"
ORIGINAL = "memory/reflexions/2026-05/21-sal-20260521-0107.md"
EPISODIC = ".aiwg/ralph/reflections/ralph-task-123/001.json"
PROTOCOL = "memory/reflections/researcher-agent/2026-03-12-choose-data-source.md"
HEURISTIC = "heuristics/gaia2-universe-27.jsonl#scenario_universe_27_9aqrhh"


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def workspace(tmp_path, samples) -> Path:
    """A private copy of the sample inputs, imported: the files the database knows."""
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    return ws


def import_ws(ws: Path):
    return import_reflections(paths=[ws], default_department="research", now=NOW)


def make_cycle(department, quarter: str = "2026Q4") -> ReviewCycle:
    return ReviewCycle.objects.create(
        department=department,
        quarter=quarter,
        window_start=datetime(2026, 7, 1, tzinfo=UTC),
        window_end=datetime(2026, 10, 1, tzinfo=UTC),
        opened_at=datetime(2026, 10, 1, tzinfo=UTC),
    )


def deprecate(reflection, verdict: str, *, cycle=None, duplicate_of=None, decided_at=None):
    """What the review service leaves behind after a non-keep verdict."""
    reflection.state, reflection.deprecated_reason = State.DEPRECATED, verdict
    reflection.save(update_fields=["state", "deprecated_reason"])
    cycle = cycle or ReviewCycle.objects.filter(department=reflection.department).first()
    cycle = cycle or make_cycle(reflection.department)
    reviewer = UserFactory(username="rita")
    return ReviewItem.objects.create(
        cycle=cycle,
        rank=cycle.items.count() + 1,
        reflection=reflection,
        retrievals=10,
        last_retrieved_at=datetime(2026, 9, 30, tzinfo=UTC),
        reviewer=reviewer,
        verdict=verdict,
        duplicate_of=duplicate_of,
        decided_at=decided_at or datetime(2026, 10, 5, 9, 30, tzinfo=UTC),
        decided_by=reviewer,
        state_before=State.ACTIVE,
    )


def reflection_at(source_path: str) -> Reflection:
    return Reflection.objects.get(source_path=source_path)


def snapshot(ws: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under the workspace: bytes, mtime (ns) and mode."""
    out = {}
    for path in sorted(ws.rglob("*")):
        if path.is_file():
            info = path.stat()
            out[str(path.relative_to(ws))] = (path.read_bytes(), info.st_mtime_ns, info.st_mode)
    return out


# --------------------------------------------------------------------------- pure writers


def test_front_matter_gains_the_keys_after_every_other_key_it_keeps(samples):
    text = (samples / FRONTMATTER).read_text()

    written = write_back_frontmatter(text, Deprecation("outdated"))

    front, body = written.split("\n---\n", 1)
    assert front.split("\n")[-2:] == ["deprecated_reason: outdated", "archived: true"]
    # Every original line is still there, in order, and the body is byte for byte the same.
    assert front.split("\n")[:-2] == text.split("\n---\n", 1)[0].split("\n")
    assert body == text.split("\n---\n", 1)[1]
    meta = yaml.safe_load(front.removeprefix("---\n"))
    assert meta["deprecated_reason"] == "outdated"
    assert meta["archived"] is True
    assert meta["tags"] == ["wise", "internal-transfer", "classification"]


def test_a_duplicate_names_the_original_by_its_source_path(samples):
    text = (samples / FRONTMATTER).read_text()

    written = write_back_frontmatter(text, Deprecation("duplicate", ORIGINAL))

    meta = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["deprecated_reason"] == "duplicate"
    assert meta["duplicate_of"] == ORIGINAL


def test_a_changed_verdict_replaces_the_reason_and_drops_a_stale_duplicate_of(samples):
    once = write_back_frontmatter(
        (samples / FRONTMATTER).read_text(), Deprecation("duplicate", ORIGINAL)
    )

    again = write_back_frontmatter(once, Deprecation("echo_chamber"))

    meta = yaml.safe_load(again.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["deprecated_reason"] == "echo_chamber"
    assert "duplicate_of" not in meta
    assert again == write_back_frontmatter(
        (samples / FRONTMATTER).read_text(), Deprecation("echo_chamber")
    )


def test_existing_keys_are_edited_in_place_keeping_comments():
    text = (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "archived: false  # decay said so\n"
        "tags:\n"
        "- wise\n"
        "- ledger\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )

    written = write_back_frontmatter(text, Deprecation("outdated"))

    assert written == (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "archived: true  # decay said so\n"
        "tags:\n"
        "- wise\n"
        "- ledger\n"
        "deprecated_reason: outdated\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )


def test_a_value_yaml_would_misread_is_quoted():
    written = write_back_frontmatter(
        "---\noutcome: failure\n---\nbody\n", Deprecation("duplicate", "memory/x: y #1.md")
    )

    meta = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    assert meta["duplicate_of"] == "memory/x: y #1.md"


def test_front_matter_this_edit_cannot_change_safely_is_unsupported_not_mangled():
    flow = "---\n{outcome: failure, tags: [a]}\n---\nbody\n"

    with pytest.raises(WriteBackUnsupported, match="add the keys by hand"):
        write_back_frontmatter(flow, Deprecation("outdated"))


def test_protocol_markdown_gains_a_front_matter_block_above_the_h1(samples):
    text = (samples / PROTOCOL).read_text()

    written = write_back_protocol(text, Deprecation("outdated"))

    assert written == "---\ndeprecated_reason: outdated\narchived: true\n---\n" + text


def test_episodic_json_gains_top_level_keys_in_the_files_own_style(samples):
    text = (samples / EPISODIC).read_text()

    written = write_back_episodic(text, Deprecation("duplicate", ORIGINAL))

    data = json.loads(written)
    original = json.loads(text)
    assert list(data) == [*original, "deprecated_reason", "archived", "duplicate_of"]
    assert {k: data[k] for k in original} == original
    # The members before are untouched (one-line arrays stay on one line); ours follow them
    # with the same two-space indentation and ": ".
    head, tail = written.rsplit("  },\n", 1)
    assert text.startswith(head)
    assert tail == (
        '  "deprecated_reason": "duplicate",\n'
        '  "archived": true,\n'
        f'  "duplicate_of": "{ORIGINAL}"\n'
        "}\n"
    )


def test_compact_json_stays_compact():
    written = write_back_episodic('{"iteration":0,"x":[1, 2]}', Deprecation("outdated"))

    assert written == '{"iteration":0,"x":[1, 2],"deprecated_reason":"outdated","archived":true}'


def test_json_keys_already_present_change_value_in_place():
    text = '{\n  "archived": false,\n  "iteration": 3,\n  "duplicate_of": "a.md"\n}\n'

    written = write_back_episodic(text, Deprecation("echo_chamber"))

    assert written == (
        '{\n  "archived": true,\n  "iteration": 3,\n  "deprecated_reason": "echo_chamber"\n}\n'
    )


def test_heuristic_jsonl_is_unsupported_with_a_reason():
    with pytest.raises(WriteBackUnsupported, match="one per line"):
        write_back_text(
            '{"scenario_id": "s"}\n', fmt="heuristic_jsonl", deprecation=Deprecation("outdated")
        )


@pytest.mark.parametrize(
    ("path", "fmt"),
    [(FRONTMATTER, "frontmatter_md"), (PROTOCOL, "protocol_md"), (EPISODIC, "episodic_json")],
)
@pytest.mark.parametrize(
    "deprecation", [Deprecation("outdated"), Deprecation("duplicate", ORIGINAL)], ids=str
)
def test_writing_back_twice_gives_the_same_text(samples, path, fmt, deprecation):
    once = write_back_text((samples / path).read_text(), fmt=fmt, deprecation=deprecation)

    assert write_back_text(once, fmt=fmt, deprecation=deprecation) == once


_scalars = st.one_of(
    st.booleans(),
    st.integers(-1000, 1000),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20),
)
_keys = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
_meta = st.dictionaries(_keys, st.one_of(_scalars, st.lists(_scalars, max_size=3)), max_size=6)
_deprecations = st.one_of(
    st.sampled_from([Deprecation("outdated"), Deprecation("echo_chamber")]),
    st.builds(
        lambda p: Deprecation("duplicate", p),
        st.from_regex(r"[a-z0-9/._ #:-]{1,30}", fullmatch=True),
    ),
)


@given(meta=_meta, deprecation=_deprecations, block_style=st.booleans())
def test_any_front_matter_keeps_its_keys_and_gains_the_deprecation_once(
    meta, deprecation, block_style
):
    front = yaml.safe_dump(meta, sort_keys=False, default_flow_style=False if block_style else None)
    text = f"---\n{front}---\n## What happened?\nbody\n"
    try:
        written = write_back_frontmatter(text, deprecation)
    except WriteBackUnsupported:
        return  # refusing is allowed; a wrong edit is not

    loaded = yaml.safe_load(written.split("\n---\n", 1)[0].removeprefix("---\n"))
    expected = dict(meta, **deprecation.keys())
    if not deprecation.duplicate_of:
        expected.pop("duplicate_of", None)
    assert loaded == expected
    assert written.endswith("---\n## What happened?\nbody\n")
    assert write_back_frontmatter(written, deprecation) == written


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


# --------------------------------------------------------------------------- restoring: pure

FORMATS = [(FRONTMATTER, "frontmatter_md"), (PROTOCOL, "protocol_md"), (EPISODIC, "episodic_json")]
DEPRECATIONS = [Deprecation("outdated"), Deprecation("duplicate", ORIGINAL)]


@pytest.mark.parametrize(("path", "fmt"), FORMATS)
@pytest.mark.parametrize("deprecation", DEPRECATIONS, ids=str)
def test_restoring_gives_back_exactly_the_text_before_write_back(samples, path, fmt, deprecation):
    text = (samples / path).read_text()
    written = write_back_text(text, fmt=fmt, deprecation=deprecation)

    restored = restore_text(written, fmt=fmt)

    assert restored == text
    assert written_back_keys(restored, fmt=fmt) == {}
    assert restore_text(restored, fmt=fmt) == restored  # restoring twice is restoring once


@pytest.mark.parametrize(("path", "fmt"), FORMATS)
def test_text_never_written_back_is_left_as_it_is(samples, path, fmt):
    text = (samples / path).read_text()

    assert restore_text(text, fmt=fmt) == text


def test_front_matter_loses_only_the_write_back_lines():
    text = (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "deprecated_reason: duplicate\n"
        "tags:\n"
        "- wise\n"
        "archived: true  # decay said so\n"
        "duplicate_of: 'memory/x: y.md'\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )

    assert restore_frontmatter(text) == (
        "---\n"
        "# written by the agent\n"
        "outcome: failure  # it did not balance\n"
        "tags:\n"
        "- wise\n"
        "---\n"
        "## What happened?\nIt broke.\n"
    )


def test_keys_named_in_keep_stay():
    text = "---\noutcome: failure\narchived: true\ndeprecated_reason: outdated\n---\nbody\n"

    assert restore_frontmatter(text, keep=("archived",)) == (
        "---\noutcome: failure\narchived: true\n---\nbody\n"
    )
    assert restore_episodic(
        '{"a": 1, "archived": true, "deprecated_reason": "outdated"}', keep=("archived",)
    ) == ('{"a": 1, "archived": true}')


def test_a_protocol_block_goes_as_a_whole_and_one_with_other_keys_is_unsupported():
    body = "# Reflection: 2026-03-12 - researcher-agent - x\n\n## What happened?\nA.\n"

    assert restore_protocol("---\narchived: true\ndeprecated_reason: outdated\n---\n" + body) == (
        body
    )
    with pytest.raises(WriteBackUnsupported, match="never writes"):
        restore_protocol("---\ndeprecated_reason: outdated\nowner: ana\n---\n" + body)


def test_json_members_go_with_their_separator_wherever_they_are():
    text = '{\n  "archived": true,\n  "iteration": 3,\n  "deprecated_reason": "outdated"\n}\n'

    assert restore_episodic(text) == '{\n  "iteration": 3\n}\n'
    assert restore_episodic('{"deprecated_reason":"outdated","archived":true}') == "{}"
    assert restore_episodic('{"iteration":0,"deprecated_reason":"outdated","archived":true}') == (
        '{"iteration":0}'
    )


def test_a_flow_front_matter_is_unsupported_not_mangled():
    with pytest.raises(WriteBackUnsupported, match="remove these keys by hand"):
        restore_frontmatter("---\n{outcome: failure, deprecated_reason: outdated}\n---\nbody\n")


@given(meta=_meta, deprecation=_deprecations, block_style=st.booleans())
def test_any_front_matter_written_back_restores_to_itself(meta, deprecation, block_style):
    meta = {k: v for k, v in meta.items() if k not in ("deprecated_reason", "archived")}
    meta.pop("duplicate_of", None)
    front = yaml.safe_dump(meta, sort_keys=False, default_flow_style=False if block_style else None)
    text = f"---\n{front}---\n## What happened?\nbody\n"
    try:
        written = write_back_frontmatter(text, deprecation)
    except WriteBackUnsupported:
        return

    assert restore_frontmatter(written) == text


# --------------------------------------------------------------------------- restoring: service


def reviewed(reflection, verdict: str, *, duplicate_of=None) -> ReviewItem:
    """A review item decided through the review service, as a reviewer would."""
    department = reflection.department
    cycle = ReviewCycle.objects.filter(department=department).first() or make_cycle(department)
    reviewer = UserFactory(username=f"rev-{department.slug}", roles=["reviewer"])
    reviewer.departments.add(department)
    item = ReviewItem.objects.create(
        cycle=cycle,
        rank=cycle.items.count() + 1,
        reflection=reflection,
        retrievals=10,
        last_retrieved_at=datetime(2026, 9, 30, tzinfo=UTC),
        reviewer=reviewer,
    )
    return decide(
        item_id=item.pk,
        user=reviewer,
        verdict=verdict,
        version=item.version,
        duplicate_of=duplicate_of.pk if duplicate_of else None,
    )


def undone(item: ReviewItem) -> ReviewItem:
    return undo(item_id=item.pk, user=item.reviewer, version=item.version)


def kept(item: ReviewItem) -> ReviewItem:
    return decide(item_id=item.pk, user=item.reviewer, verdict="keep", version=item.version)


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
