"""Scanning a text (every rule, overlapping spans merged) and masking what was found."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from reflections.scanning.findings import CATEGORIES, Finding
from reflections.scanning.rule import DIGIT_SHAPE
from reflections.scanning.rules import OWN_RULES
from reflections.scanning.vendor import detect_secrets


def iter_findings(text: str) -> Iterator[Finding]:
    """Every rule's findings, unmerged and unsorted (scan_text is what callers normally want)."""
    lowered = text.lower()
    ascii_only = text.isascii()
    shape = text.encode("utf-8", "surrogatepass").translate(DIGIT_SHAPE)
    yield from detect_secrets(text, lowered)
    for rule in OWN_RULES:
        if rule.applies(lowered, ascii_only, shape):
            yield from rule.findings(text)


def scan_text(text: str) -> list[Finding]:
    """The findings in `text`, sorted by start, overlapping spans of one category merged."""
    merged: list[Finding] = []
    by_category: dict[str, list[Finding]] = {}
    for finding in iter_findings(text):
        if finding.end > finding.start:
            by_category.setdefault(finding.category, []).append(finding)
    for findings in by_category.values():
        # The earliest, then widest, span names the merged finding.
        findings.sort(key=lambda f: (f.start, -f.end))
        current = findings[0]
        for finding in findings[1:]:
            if finding.start < current.end:
                if finding.end > current.end:
                    current = Finding(
                        current.rule, current.category, current.start, finding.end, current.summary
                    )
            else:
                merged.append(current)
                current = finding
        merged.append(current)
    merged.sort(key=lambda f: (f.start, f.end, CATEGORIES.index(f.category)))
    return merged


def mask(text: str, findings: Iterable[Finding]) -> str:
    """`text` with each finding's span replaced by `[REDACTED:<category>]`.

    Spans of different categories can overlap (a password in a URL on an internal host);
    overlapping spans become one marker naming every category involved. A marker can give a
    neighbouring value the word boundary a rule waits for ("DE89…00gho_…" → "DE89…00[…"), so
    the result is scanned again and whatever the masking exposed is masked too.
    """
    masked = _mask_once(text, findings)
    for _ in range(_MASK_ROUNDS):
        exposed = scan_text(masked)
        if not exposed:
            break
        masked = _mask_once(masked, exposed)
    return masked


# Each round only replaces text with markers, so a second round is already rare.
_MASK_ROUNDS = 5


def _mask_once(text: str, findings: Iterable[Finding]) -> str:
    spans = sorted((f.start, f.end, f.category) for f in findings if f.end > f.start)
    out: list[str] = []
    position = 0
    i = 0
    while i < len(spans):
        start, end, category = spans[i]
        categories = [category]
        i += 1
        while i < len(spans) and spans[i][0] < end:
            end = max(end, spans[i][1])
            if spans[i][2] not in categories:
                categories.append(spans[i][2])
            i += 1
        start = max(start, position)
        out.append(text[position:start])
        categories.sort(key=CATEGORIES.index)
        out.append(f"[REDACTED:{'+'.join(categories)}]")
        position = max(position, end)
    out.append(text[position:])
    return "".join(out)
