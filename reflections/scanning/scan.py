"""Scanning a text: every rule on the text as written, the injection rules on its normalised
views too, overlapping spans of one category merged."""

from __future__ import annotations

from collections.abc import Iterator

from reflections.scanning.cues import CueIndex, ShapeIndex
from reflections.scanning.findings import CATEGORIES, Finding
from reflections.scanning.normalise import ENCODED_HINTS, views
from reflections.scanning.rule import DIGIT_SHAPE
from reflections.scanning.rules import INJECTION_RULES, OWN_RULES
from reflections.scanning.values import is_placeholder
from reflections.scanning.vendor import DETECT_SECRETS, detect_secrets

_CUES = CueIndex(
    OWN_RULES,
    extra_cues=(
        *(cue for cues, _ in DETECT_SECRETS for cue in cues),
        *ENCODED_HINTS,
    ),
)
_VIEW_CUES = CueIndex(INJECTION_RULES)
# Rules without cues: those gated by digit shapes are dispatched by the shapes a text has.
_SHAPES = ShapeIndex(_CUES.uncued)
_ALWAYS = tuple(r for r in _CUES.uncued if not r.shapes)


def iter_findings(text: str) -> Iterator[Finding]:
    """Every rule's findings, unmerged and unsorted (scan_text is what callers normally want)."""
    lowered = text.lower()
    ascii_only = text.isascii()
    shape = text.encode("utf-8", "surrogatepass").translate(DIGIT_SHAPE)
    cues = _CUES.found(lowered)
    for finding in detect_secrets(text, cues):
        if not is_placeholder(text[finding.start : finding.end]):
            yield finding
    shapes = _SHAPES.found(shape)
    for rule in (*_ALWAYS, *_SHAPES.shaped(shapes), *_CUES.cued(cues)):
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
