"""Scanning a text: every rule on the text as written, the injection rules on its normalised
views too, overlapping spans of one category merged."""

from __future__ import annotations

import re
from collections.abc import Iterator

from reflections.scanning.cues import CueIndex, ShapeIndex
from reflections.scanning.findings import CATEGORIES, PERSONAL, SECRET, Finding
from reflections.scanning.normalise import ENCODED_HINTS, views
from reflections.scanning.public_values import PUBLIC_VALUES, public_spans
from reflections.scanning.rule import DIGIT_SHAPE
from reflections.scanning.rules import INJECTION_RULES, OWN_RULES
from reflections.scanning.rules_contacts import names_beside_contacts
from reflections.scanning.values import character_classes, is_placeholder
from reflections.scanning.vendor import DETECT_SECRETS, detect_secrets

# The allow-listed values are found in the same pass as the cue words.
_PUBLIC_CUES = frozenset(value.lower() for value in PUBLIC_VALUES)
_CUES = CueIndex(
    OWN_RULES,
    extra_cues=(
        *(cue for cues, _ in DETECT_SECRETS for cue in cues),
        *ENCODED_HINTS,
        *_PUBLIC_CUES,
    ),
)
_VIEW_CUES = CueIndex(INJECTION_RULES)
# Every rule's digit shapes are found in one pass (a cued rule's `applies` checks its own);
# rules without cues that have shapes are dispatched by the shapes a text has.
_SHAPES = ShapeIndex(OWN_RULES)
_ALWAYS = tuple(r for r in _CUES.uncued if not r.shapes)
# A secret's value that goes on on the next line: one token alone on its line.
_CONTINUATION = re.compile(r"[ \t]*\r?\n[ \t]*([A-Za-z0-9+/=_-]{6,})[ \t]*(?=\r?\n|\Z)")


def _continued(text: str, end: int) -> int:
    """Where a secret ending at `end` really ends: a value wrapped onto the following lines
    (a key pasted in two halves) goes on while each next line holds one random-looking token."""
    for _ in range(4):
        if not end or not (text[end - 1].isalnum() or text[end - 1] in "+/=_-"):
            return end
        match = _CONTINUATION.match(text, end)
        if not match or match.group(1).isalpha() or character_classes(match.group(1)) < 2:
            return end
        end = match.end(1)
    return end


def iter_findings(text: str) -> Iterator[Finding]:
    """Every rule's findings, unmerged and unsorted (scan_text is what callers normally want);
    well-known public values (scanning.public_values) are never findings."""
    found: list[Finding] = []
    lowered = text.lower()
    cues = _CUES.found(lowered)
    public = public_spans(text) if not _PUBLIC_CUES.isdisjoint(cues) else []
    for finding in _raw_findings(text, lowered, cues):
        if any(start <= finding.start and finding.end <= end for start, end in public):
            continue
        if finding.category == SECRET:
            end = _continued(text, finding.end)
            if end != finding.end:
                finding = Finding(finding.rule, SECRET, finding.start, end, finding.summary)
        found.append(finding)
        yield finding
    yield from names_beside_contacts(text, [f for f in found if f.category == PERSONAL])


def _raw_findings(text: str, lowered: str, cues: set[str]) -> Iterator[Finding]:
    ascii_only = text.isascii()
    shape = text.encode("utf-8", "surrogatepass").translate(DIGIT_SHAPE)
    for finding in detect_secrets(text, cues):
        if not is_placeholder(text[finding.start : finding.end]):
            yield finding
    shapes = _SHAPES.found(shape)
    shaped = [rule for rule in _SHAPES.shaped(shapes) if not rule.cues]
    for rule in (*_ALWAYS, *shaped, *_CUES.cued(cues)):
        if rule.applies(lowered, ascii_only, shape, text, cues, shapes):
            yield from rule.findings(text, lowered, cues, shape)
    for view in views(text, cues):
        view_lowered = view.text.lower()
        view_ascii = view.text.isascii()
        view_shape = view.text.encode("utf-8", "surrogatepass").translate(DIGIT_SHAPE)
        view_cues = _VIEW_CUES.found(view_lowered)
        for rule in (*_VIEW_CUES.uncued, *_VIEW_CUES.cued(view_cues)):
            if not rule.applies(view_lowered, view_ascii, view_shape, view.text, view_cues):
                continue
            for finding in rule.findings(view.text, view_lowered, view_cues, view_shape):
                start, end = view.written_span(finding.start, finding.end)
                yield Finding(finding.rule, finding.category, start, end, finding.summary)


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
