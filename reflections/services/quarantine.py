"""Working the quarantine: masked reading, dismissing a finding, redacting a reflection."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from reflections.importers.base import ParsedReflection, content_hash, normalise_text
from reflections.importers.registry import parse_text
from reflections.models import Reflection, ReflectionHistory, ScanFinding, State
from reflections.scanning import Finding, describe_findings, mask, scan_text


class RedactionError(ValueError):
    """The edited text cannot replace the reflection (it does not parse, or is still unsafe)."""


def open_findings(reflection: Reflection):
    return reflection.findings.filter(
        status=ScanFinding.Status.OPEN, content_hash=reflection.content_hash
    )


def masked_text(reflection: Reflection) -> str:
    """The text with every finding masked; mask() re-scans, so nothing unsafe slips through."""
    findings = [
        Finding(rule=f.rule, category=f.category, start=f.start, end=f.end, summary=f.summary)
        for f in open_findings(reflection)
    ]
    return mask(reflection.original_text, findings or scan_text(reflection.original_text))


def _release(reflection: Reflection, *, user, reason: str) -> None:
    """Out of quarantine: back to active; the next policy run applies decay as usual."""
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
    file_path = reflection.source_path.split("#", 1)[0]
    parsed = [
        p
        for p in parse_text(text, fmt=reflection.format, source_path=file_path, now=timezone.now())
        if not isinstance(p, ParsedReflection) or p.source_path == reflection.source_path
    ]
    if len(parsed) != 1 or not isinstance(parsed[0], ParsedReflection):
        problem = parsed[0].reason if parsed else "the text holds no reflection"
        raise RedactionError(f"the edited text does not parse: {problem}")
    if remaining := scan_text(text):
        raise RedactionError(f"the edited text is still unsafe: {describe_findings(remaining)}")
    p = parsed[0]
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
    reflection.title = p.title[:512]
    reflection.sections = p.sections
    reflection.body = p.body
    reflection.tools = p.tools
    reflection.save()
    if reflection.state == State.QUARANTINED:
        _release(reflection, user=user, reason=f"redacted: {reason.strip()}")
    return reflection
