"""Working the quarantine: masked reading, dismissing a finding, redacting a reflection."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from reflections.importers import pool
from reflections.importers.base import ParsedReflection, content_hash, normalise_text
from reflections.models import Reflection, ReflectionHistory, ScanFinding, State
from reflections.scanning import Finding, describe_findings, strict_findings
from reflections.scanning.fields import masked_source, scan_reflection
from reflections.services.stored_fields import parsed_from_text, restore_stored


class RedactionError(ValueError):
    """The edited text cannot replace the reflection (it does not parse, or is still unsafe);
    `masked` is the edit as the form shows it again, everything still unsafe masked."""

    def __init__(self, message: str, *, masked: str = "") -> None:
        super().__init__(message)
        self.masked = masked


def open_findings(reflection: Reflection):
    return reflection.findings.filter(
        status=ScanFinding.Status.OPEN, content_hash=reflection.content_hash
    )


def masked_text(reflection: Reflection) -> str:
    """The text as the quarantine shows it: every finding and all the strict mask adds hidden
    (masked_source re-scans, so nothing unsafe slips through)."""
    findings = [
        Finding(f.rule, f.category, f.start, f.end, f.summary, f.field)
        for f in open_findings(reflection)
    ]
    return masked_source(reflection.original_text, findings)


def unsafe_in(text: str, values: dict) -> list[Finding]:
    """What still looks unsafe in an edit, by the strict rule masking uses: the findings, and
    every value a secret-named key holds, random strings, names beside personal data."""
    findings = scan_reflection(text, values)
    return strict_findings(text, [f for f in findings if not f.field]) + [
        f for f in findings if f.field
    ]


def _release(reflection: Reflection, *, user, reason: str) -> None:
    """Out of quarantine, showing what the text says again: back to active; the next policy
    run applies decay as usual."""
    parsed = parsed_from_text(reflection, reflection.original_text)
    if isinstance(parsed, ParsedReflection):
        restore_stored(reflection, parsed)
        reflection.save()
    reflection.change_state(State.ACTIVE, by=user, why=reason)


@transaction.atomic
def dismiss_finding(*, finding: ScanFinding, user, reason: str) -> None:
    """A false positive: recorded with who and why; the last one releases the reflection."""
    if not reason.strip():
        raise ValueError("say why the finding is not a problem")
    finding = ScanFinding.objects.select_for_update().get(pk=finding.pk)
    if finding.status != ScanFinding.Status.OPEN:
        raise ValueError("this finding was already resolved")
    finding.status = ScanFinding.Status.DISMISSED
    finding.resolved_by, finding.resolved_at = user, timezone.now()
    finding.resolution_reason = reason.strip()
    finding.save()
    reflection = Reflection.objects.select_for_update().get(pk=finding.reflection_id)
    if reflection.state == State.QUARANTINED and not open_findings(reflection).exists():
        _release(
            reflection,
            user=user,
            reason=f"finding dismissed ({finding.category}: {finding.summary}): {reason.strip()}",
        )


@transaction.atomic
def redact_reflection(*, reflection: Reflection, user, new_text: str, reason: str) -> Reflection:
    """Replace the text with an edit that parses and scans clean; history keeps both hashes."""
    if not reason.strip():
        raise ValueError("say what was redacted and why")
    reflection = Reflection.objects.select_for_update().get(pk=reflection.pk)
    text = normalise_text(new_text.encode("utf-8"))
    parsed = parsed_from_text(reflection, text)
    if not isinstance(parsed, ParsedReflection):
        raise RedactionError(f"the edited text does not parse: {parsed}")
    values = pool.values_of(parsed) | {"department": reflection.department.slug}
    if remaining := unsafe_in(text, values):
        raise RedactionError(
            "the edited text still looks unsafe: "
            + describe_findings(remaining)
            + ". Replace what is marked [REDACTED:…] below, or leave the marker in place",
            masked=masked_source(text, remaining),
        )

    now = timezone.now()
    old_hash = reflection.content_hash
    ReflectionHistory.objects.create(
        reflection=reflection,
        at=now,
        change=ReflectionHistory.Change.CONTENT,
        actor=user,
        actor_label=user.get_username(),
        from_state=reflection.state,
        to_state=reflection.state,
        reason=f"redacted: {reason.strip()}",
        from_hash=old_hash,
        to_hash=content_hash(text),
    )
    reflection.findings.filter(status=ScanFinding.Status.OPEN).update(
        status=ScanFinding.Status.REDACTED,
        resolved_by=user,
        resolved_at=now,
        resolution_reason=reason.strip(),
    )
    reflection.original_text = text
    reflection.content_hash = content_hash(text)
    restore_stored(reflection, parsed)
    reflection.save()
    if reflection.state == State.QUARANTINED:
        _release(reflection, user=user, reason=f"redacted: {reason.strip()}")
    return reflection
