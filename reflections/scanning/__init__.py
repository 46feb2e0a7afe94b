"""Find secrets, personal data, internal infrastructure and prompt injection in reflection text.

The public interface. Rules live in rules_*.py (the project's own) and vendor.py
(detect-secrets); normalise.py makes the views injection rules also read; masking.py hides
more than the rules detect.
"""

from reflections.scanning.deferred import deferred

# detect-secrets' plugins import `requests` only to verify a secret online, which a scan never
# does: every rule module is imported here first, with it deferred (scanning.deferred).
with deferred("requests"):
    from reflections.scanning.findings import (
        CATEGORIES,
        INFRASTRUCTURE,
        INJECTION,
        PERSONAL,
        SECRET,
        Finding,
        describe_findings,
    )
    from reflections.scanning.masking import mask, strict_findings
    from reflections.scanning.rules import RULES
    from reflections.scanning.scan import iter_findings, scan_text


def typed_and_hidden(text: str | None) -> tuple[str, list[str]]:
    """What a person typed (a note, a comment, a rationale, a name), stripped, with whatever
    the scanner flags masked as in imported text, before it is stored: so no page, export,
    log or command's output shows it; and the categories hidden, in order, for telling the
    writer. The one path for all typed text (issue 30)."""
    text = (text or "").strip()
    findings = scan_text(text) if text else []
    if not findings:
        return text, []
    masked = mask(text, findings)
    hidden = list(dict.fromkeys(f.category for f in findings)) if masked != text else []
    return masked, hidden


def typed(text: str | None) -> str:
    """typed_and_hidden's text alone."""
    return typed_and_hidden(text)[0]


__all__ = [
    "CATEGORIES",
    "INFRASTRUCTURE",
    "INJECTION",
    "PERSONAL",
    "RULES",
    "SECRET",
    "Finding",
    "describe_findings",
    "iter_findings",
    "mask",
    "scan_text",
    "strict_findings",
    "typed",
    "typed_and_hidden",
]
