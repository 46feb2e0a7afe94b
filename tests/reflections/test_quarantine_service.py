"""Dismissing and redacting findings: who, why, and the secret never kept."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from reflections.models import ReflectionHistory, ScanFinding, State
from reflections.services.quarantine import (
    RedactionError,
    dismiss_finding,
    masked_text,
    redact_reflection,
)
from tests.factories import ReflectionFactory, UserFactory

pytestmark = pytest.mark.django_db

SECRET = "AKIAZ7Q3XK5R2M4W6N8P"
PROTOCOL = (
    "# Procedure: 2026-03-01 - agent-1 - Rotate the export key\n\n"
    "## Strategy\nI used {value} to run the export.\n\n"
    "## Why it worked\nThe old key had expired.\n"
)


@pytest.fixture
def quarantined(capsys):
    reflection = ReflectionFactory(
        source_path="memory/reflections/agent-1/2026-03-01-rotate-the-export-key.md",
        original_text=PROTOCOL.format(value=SECRET),
    )
    call_command("scan_reflections")
    capsys.readouterr()
    reflection.refresh_from_db()
    assert reflection.state == State.QUARANTINED
    return reflection


@pytest.fixture
def admin():
    return UserFactory(username="ada", roles=["admin"])


def test_the_masked_text_hides_the_secret(quarantined):
    text = masked_text(quarantined)

    assert SECRET not in text and "[REDACTED:secret]" in text


def test_dismissing_the_last_finding_releases_the_reflection_with_a_reason(quarantined, admin):
    (finding,) = ScanFinding.objects.filter(reflection=quarantined)

    dismiss_finding(finding=finding, user=admin, reason="a documented test key")

    quarantined.refresh_from_db()
    finding.refresh_from_db()
    assert quarantined.state == State.ACTIVE
    assert (finding.status, finding.resolved_by, finding.resolution_reason) == (
        "dismissed",
        admin,
        "a documented test key",
    )
    release = ReflectionHistory.objects.get(reflection=quarantined, to_state=State.ACTIVE)
    assert release.actor == admin and "a documented test key" in release.reason


def test_a_dismissal_needs_a_reason(quarantined, admin):
    (finding,) = ScanFinding.objects.filter(reflection=quarantined)

    with pytest.raises(ValueError, match="why"):
        dismiss_finding(finding=finding, user=admin, reason="  ")


def test_redacting_replaces_the_text_and_releases_the_reflection(quarantined, admin):
    old_hash = quarantined.content_hash

    redacted = redact_reflection(
        reflection=quarantined,
        user=admin,
        new_text=PROTOCOL.format(value="the rotated key"),
        reason="removed the access key",
    )

    assert redacted.state == State.ACTIVE and SECRET not in redacted.original_text
    assert redacted.content_hash != old_hash
    assert set(redacted.findings.values_list("status", flat=True)) == {"redacted"}
    row = ReflectionHistory.objects.get(reflection=redacted, change="content")
    assert (row.from_hash, row.to_hash) == (old_hash, redacted.content_hash)
    assert SECRET not in row.reason


def test_a_redaction_that_leaves_the_secret_is_refused_without_echoing_it(quarantined, admin):
    with pytest.raises(RedactionError) as error:
        redact_reflection(
            reflection=quarantined,
            user=admin,
            new_text=PROTOCOL.format(value=SECRET + " "),
            reason="tried",
        )

    assert "still looks unsafe" in str(error.value) and SECRET not in str(error.value)
    quarantined.refresh_from_db()
    assert quarantined.state == State.QUARANTINED


def test_a_redaction_that_breaks_the_format_is_refused(quarantined, admin):
    with pytest.raises(RedactionError, match="does not parse"):
        redact_reflection(reflection=quarantined, user=admin, new_text="just words", reason="x")
