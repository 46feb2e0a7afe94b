"""Scanning at the door: unsafe reflections are stored quarantined, their values nowhere."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime

import pytest
from django.core.management import call_command

from reflections.models import Reflection, ReflectionHistory, ScanFinding, State
from reflections.services.reflection_import import import_reflections

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
SECRET = "AKIAZ7Q3XK5R2M4W6N8P"
EMAIL = "dana.whitfield@example-client.com"
PATH = "memory/reflexions/2026-05/22-fin-20260522-0040.md"


@pytest.fixture
def workspace(tmp_path, samples):
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    (ws / PATH).write_text(
        "---\ntask_type: reconciliation\noutcome: failure\ndepartment: finance\n"
        "agent: finance-agent\n---\n## What happened?\nThe export failed until I used the key "
        f"{SECRET} and wrote to {EMAIL}.\n\n## Why?\nThe token had expired.\n\n"
        "## What rule should I remember?\nRotate keys before month end.\n"
    )
    return ws


def test_a_reflection_with_a_secret_is_imported_quarantined_with_its_findings(workspace):
    summary = import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )

    reflection = Reflection.objects.get(source_path=PATH)
    assert reflection.state == State.QUARANTINED and reflection.multiplier == 0
    assert summary.details["quarantined"] == 1
    categories = set(
        ScanFinding.objects.filter(reflection=reflection).values_list("category", flat=True)
    )
    assert categories == {"secret", "personal"}
    assert Reflection.objects.exclude(source_path=PATH).filter(state=State.QUARANTINED).count() == 0


def test_findings_and_history_never_hold_the_secret_value(workspace):
    import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )

    stored = json.dumps(list(ScanFinding.objects.values()), default=str) + json.dumps(
        list(ReflectionHistory.objects.values_list("reason", flat=True))
    )
    assert SECRET not in stored and EMAIL not in stored
    assert "dana.whitfield" not in stored


def test_the_import_command_reports_quarantined_reflections_in_json(workspace, capsys):
    call_command(
        "import_reflections",
        "--create-departments",
        str(workspace),
        "--default-department",
        "research",
        "--json",
    )

    output = capsys.readouterr().out
    assert json.loads(output)["quarantined"] == 1
    assert SECRET not in output


def test_a_rejection_that_quotes_a_secret_is_masked(tmp_path, capsys):
    bad = tmp_path / "ws/memory/reflections/ops-agent/2026-05-02-rotate-keys.md"
    bad.parent.mkdir(parents=True)
    bad.write_text(f"# Lesson: 2026-05-02 - ops-agent - use {SECRET}\n\n## What happened?\nx\n")

    call_command(
        "import_reflections",
        "--create-departments",
        str(tmp_path / "ws"),
        "--default-department",
        "ops",
        "--json",
    )

    result = json.loads(capsys.readouterr().out)
    assert len(result["rejected"]) == 1
    assert SECRET not in json.dumps(result)


def test_reimporting_a_quarantined_reflection_adds_no_duplicate_findings(workspace):
    import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )
    count = ScanFinding.objects.count()

    again = import_reflections(
        create_departments=True, paths=[workspace], default_department="research", now=NOW
    )

    assert again.unchanged == 12 and again.details["quarantined"] == 0
    assert ScanFinding.objects.count() == count


def test_scan_reflections_quarantines_a_stored_reflection_once(capsys):
    from tests.factories import ReflectionFactory

    clean = ReflectionFactory()
    leaky = ReflectionFactory(original_text=f"Call the API with Bearer {SECRET}abcdef0123456789")

    call_command("scan_reflections", "--json")
    first = json.loads(capsys.readouterr().out)
    call_command("scan_reflections", "--json")
    second = json.loads(capsys.readouterr().out)

    leaky.refresh_from_db()
    clean.refresh_from_db()
    assert (leaky.state, clean.state) == (State.QUARANTINED, State.ACTIVE)
    assert first["quarantined"] == 1 and first["new_findings"] >= 1
    assert second["quarantined"] == 0 and second["new_findings"] == 0
    history = ReflectionHistory.objects.get(reflection=leaky, to_state=State.QUARANTINED)
    assert history.actor_label == "scan" and SECRET not in history.reason


def test_neither_the_export_nor_the_logs_carry_the_secret(workspace, capsys, caplog):
    caplog.set_level("DEBUG")
    call_command(
        "import_reflections",
        "--create-departments",
        str(workspace),
        "--default-department",
        "research",
    )
    call_command("export_reflections", "--format", "jsonl")
    call_command("export_reflections", "--format", "csv")

    printed = capsys.readouterr()
    assert PATH in printed.out  # the quarantined reflection is exported, as a record
    for channel in (printed.out, printed.err, caplog.text):
        assert SECRET not in channel and EMAIL not in channel


def test_a_clean_file_that_gains_a_secret_is_quarantined_on_reimport(tmp_path, samples):
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    import_reflections(create_departments=True, paths=[ws], default_department="research", now=NOW)
    path = ws / "memory/reflexions/2026-05/21-sal-20260521-0107.md"
    path.write_text(path.read_text().replace("a feature list.", f"a feature list; key {SECRET}."))

    summary = import_reflections(
        create_departments=True, paths=[ws], default_department="research", now=NOW
    )

    reflection = Reflection.objects.get(
        source_path="memory/reflexions/2026-05/21-sal-20260521-0107.md"
    )
    assert (summary.updated, summary.details["quarantined"]) == (1, 1)
    assert reflection.state == State.QUARANTINED and SECRET in reflection.original_text
    assert ReflectionHistory.objects.filter(
        reflection=reflection, to_state=State.QUARANTINED
    ).exists()


def test_a_changed_file_with_a_secret_and_a_deprecation_is_quarantined_not_deprecated(
    tmp_path, samples
):
    ws = tmp_path / "ws"
    shutil.copytree(samples, ws, symlinks=True)
    import_reflections(create_departments=True, paths=[ws], default_department="research", now=NOW)
    path = ws / "memory/reflexions/2026-05/21-sal-20260521-0107.md"
    text = path.read_text().replace("a feature list.", f"a feature list; key {SECRET}.")
    declared = "---\ndeprecated_reason: outdated\ntask_type:"
    path.write_text(text.replace("---\ntask_type:", declared, 1))

    import_reflections(create_departments=True, paths=[ws], default_department="research", now=NOW)

    reflection = Reflection.objects.get(
        source_path="memory/reflexions/2026-05/21-sal-20260521-0107.md"
    )
    assert reflection.state == State.QUARANTINED
    states = ReflectionHistory.objects.filter(reflection=reflection, change="state")
    assert list(states.values_list("to_state", flat=True)) == [State.QUARANTINED]
