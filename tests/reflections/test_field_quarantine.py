"""A finding in any field quarantines the reflection, and the value is stored and shown masked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from reflections.models import Agent, Reflection, ScanFinding, State, TaskRun
from reflections.services.event_import import import_events
from reflections.services.quarantine import dismiss_finding, redact_reflection
from reflections.services.reflection_import import import_reflections
from tests.factories import UserFactory
from tests.pages import client_for
from tests.reflections.import_support import NOW

pytestmark = pytest.mark.django_db

TOKEN = "ghp_Q7tX2mK9vR4wL8nB3cJ6pZ1sD5fH0gY2aE7u"
BODY = (
    "## What happened?\nThe nightly export timed out.\n\n"
    "## Why?\nThe batch size was too large for the API.\n\n"
    "## What rule should I remember?\nKeep export batches under 500 rows.\n"
)


def write_reflexion(ws: Path, name: str, *, body: str = BODY, **front) -> Path:
    meta = {
        "task_type": "export",
        "outcome": "failure",
        "department": "research",
        "agent": "export-agent",
        "tags": "[export, batching]",
        **front,
    }
    path = ws / "memory" / "reflexions" / "2026-05" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{key}: {value}" for key, value in meta.items()]
    path.write_text("---\n" + "\n".join(lines) + "\n---\n" + body)
    return path


def run_import(ws: Path):
    return import_reflections(paths=[ws], now=NOW, create_departments=True)


def test_a_token_in_the_tags_quarantines_and_is_stored_masked(tmp_path):
    write_reflexion(tmp_path, "14-tags", tags=f"[export, {TOKEN}]")

    run_import(tmp_path)

    reflection = Reflection.objects.get()
    assert reflection.state == State.QUARANTINED
    assert reflection.tags == ["export", "[REDACTED:secret]"]
    assert TOKEN in reflection.original_text  # kept as written, for a dismissal to restore


def test_a_token_as_the_agent_name_is_stored_masked_and_logs_find_that_agent(tmp_path):
    write_reflexion(tmp_path, "14-agent", agent=TOKEN)
    run_import(tmp_path)
    log = tmp_path / "retrievals.jsonl"
    log.write_text(
        json.dumps(
            {
                "reflection": "memory/reflexions/2026-05/14-agent.md",
                "retrieved_at": "2026-05-20T09:12:00Z",
                "task_id": "t-1",
                "agent": TOKEN,
            }
        )
        + "\n"
    )

    summary = import_events(paths=[log], now=NOW)

    (agent,) = Agent.objects.all()
    assert TOKEN not in agent.name and agent.name.startswith("[REDACTED:secret] (")
    assert Reflection.objects.get().agent == agent
    assert summary.created == 1 and agent.retrievals.count() == 1


def test_a_secret_hidden_by_a_json_escape_is_found_and_never_shown(tmp_path):
    escaped = "\\u0067" + TOKEN[1:]  # "g" written as \u0067: the raw text never shows "ghp_"
    path = tmp_path / ".aiwg" / "ralph" / "reflections" / "loop-1" / "iteration-0.json"
    path.parent.mkdir(parents=True)
    path.write_text(
        '{"iteration": 0, "timestamp": "2026-05-20T10:15:00Z", "agent": "ralph", '
        '"department": "research", "task_type": "export", '
        '"self_reflection": {"reflection_text": "Batches over 500 rows time out.", '
        f'"credit_assignment": {{"root_cause": "token {escaped} expired"}}}}, '
        '"evaluator_output": {"passed": false}}'
    )

    run_import(tmp_path)

    reflection = Reflection.objects.get()
    assert reflection.state == State.QUARANTINED
    fields = set(reflection.findings.values_list("field", flat=True))
    assert "json:self_reflection.credit_assignment.root_cause" in fields
    admin = client_for(UserFactory(roles=["admin"]))
    html = admin.get(f"/quarantine/{reflection.pk}/").content.decode()
    assert TOKEN[4:] not in html and escaped not in html


def test_a_file_whose_path_holds_a_secret_is_rejected_with_the_path_masked(tmp_path):
    write_reflexion(tmp_path, f"14-{TOKEN}")

    summary = run_import(tmp_path)

    assert not Reflection.objects.exists()
    (rejection,) = summary.rejected
    assert TOKEN not in rejection.path and TOKEN not in rejection.reason
    assert "source_path: looks unsafe" in rejection.reason


def test_a_department_holding_a_secret_is_rejected_without_quoting_it(tmp_path):
    write_reflexion(tmp_path, "14-dept", department="sk-live-4eC39HqLyjWDarjtT1zdp7dc")

    summary = run_import(tmp_path)

    assert not Reflection.objects.exists()
    assert all("4eC39HqLyjWDarjtT1zdp7dc" not in r.reason for r in summary.rejected)


def test_dismissing_the_last_finding_restores_the_fields_from_the_text(tmp_path):
    write_reflexion(tmp_path, "14-tags", tags=f"[export, {TOKEN}]")
    run_import(tmp_path)
    reflection = Reflection.objects.get()

    for finding in reflection.findings.all():
        dismiss_finding(finding=finding, user=UserFactory(), reason="a revoked test token")

    reflection.refresh_from_db()
    assert reflection.state == State.ACTIVE
    assert reflection.tags == ["export", TOKEN]


def test_a_redaction_replaces_every_field_from_the_edit(tmp_path):
    write_reflexion(tmp_path, "14-tags", tags=f"[export, {TOKEN}]", task_type="export")
    run_import(tmp_path)
    reflection = Reflection.objects.get()
    edit = reflection.original_text.replace(TOKEN, "revoked-token").replace(
        "task_type: export", "task_type: nightly-export"
    )

    redact_reflection(reflection=reflection, user=UserFactory(), new_text=edit, reason="revoked")

    reflection.refresh_from_db()
    assert reflection.state == State.ACTIVE
    assert reflection.tags == ["export", "revoked-token"]
    assert reflection.task_type == "nightly-export"


def test_a_rescan_masks_the_columns_of_what_it_quarantines(tmp_path, capsys):
    write_reflexion(tmp_path, "14-title")
    run_import(tmp_path)
    Reflection.objects.update(title=f"Export with {TOKEN}", task_type=f"export {TOKEN}")

    call_command("scan_reflections")

    reflection = Reflection.objects.get()
    assert reflection.state == State.QUARANTINED
    assert TOKEN not in reflection.title and TOKEN not in reflection.task_type
    assert set(reflection.findings.values_list("field", flat=True)) >= {"title", "task_type"}
    assert TOKEN not in capsys.readouterr().out


def test_a_task_logs_unsafe_task_type_is_stored_masked(tmp_path):
    log = tmp_path / "tasks.jsonl"
    log.write_text(
        json.dumps(
            {
                "task_id": "t-1",
                "agent": "coder",
                "department": "research",
                "task_type": f"deploy {TOKEN}",
                "finished_at": "2026-05-20T10:00:00Z",
                "outcome": "success",
            }
        )
        + "\n"
    )

    import_events(paths=[log], now=NOW, create_departments=True)

    assert TOKEN not in TaskRun.objects.get().task_type


def test_rejection_reasons_never_quote_a_secret(tmp_path):
    log = tmp_path / "retrievals.jsonl"
    log.write_text(
        json.dumps(
            {
                "reflection": f"memory/reflexions/{TOKEN}.md",
                "retrieved_at": TOKEN,
                "task_id": "t-1",
                "agent": "a",
            }
        )
        + "\n"
    )

    summary = import_events(paths=[log], now=NOW)

    assert summary.rejected
    assert all(TOKEN not in r.reason and TOKEN not in r.path for r in summary.rejected)


def test_findings_in_fields_are_listed_with_the_field_on_the_quarantine_page(tmp_path):
    write_reflexion(tmp_path, "14-tags", tags=f"[export, {TOKEN}]")
    run_import(tmp_path)
    reflection = Reflection.objects.get()
    assert ScanFinding.objects.filter(reflection=reflection, field="").exists()

    html = client_for(UserFactory(roles=["admin"])).get(f"/quarantine/{reflection.pk}/")

    assert TOKEN.encode() not in html.content


def test_the_csv_export_disarms_a_formula_from_an_imported_field(tmp_path, capsys):
    write_reflexion(tmp_path, "14-formula", task_type="'=HYPERLINK(\"http://x.test\")'")
    run_import(tmp_path)

    call_command("export_reflections", "--format", "csv")

    out = capsys.readouterr().out
    assert "'=HYPERLINK" in out and ",=HYPERLINK" not in out


def test_the_admin_shows_a_quarantined_reflection_masked(tmp_path):
    write_reflexion(tmp_path, "14-body", body=BODY + f"\nThe token was {TOKEN}.\n")
    run_import(tmp_path)
    reflection = Reflection.objects.get()
    admin = client_for(UserFactory(roles=["admin"], is_staff=True, is_superuser=True))

    listing = admin.get("/admin/reflections/reflection/")
    page = admin.get(f"/admin/reflections/reflection/{reflection.pk}/change/")

    assert listing.status_code == 200 and page.status_code == 200
    assert b"[REDACTED:secret]" in page.content
    for response in (listing, page):
        assert TOKEN.encode() not in response.content
