"""One scanning rule: a gated regular expression and how it words its finding."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reflections.scanning.findings import Finding
from reflections.scanning.vendor import any_search


@dataclass(frozen=True)
class Rule:
    name: str
    category: str
    regex: re.Pattern[str]
    summary: str | Callable[[re.Match[str]], str | None]
    # Cheap prechecks on the lower-cased text, so that clean text never reaches the full
    # regex: one that starts with \b, a lookbehind, a class or an alternation is tried position
    # by position (20-60 µs per KB here), while `in` and a literal-led search skip ahead.
    # `cues`: groups of substrings, every group needs one hit. `gates`: literal-led patterns,
    # one must hit. Both must accept everything the regex matches.
    cues: tuple[tuple[str, ...], ...] = ()
    gates: tuple[re.Pattern[str], ...] = ()
    non_ascii: bool = False  # the rule only matches non-ASCII characters
    # Substrings of the text's digit shape (UTF-8, every ASCII digit turned into "0"), one of
    # which must occur: "000-000" finds digit groups in one memchr-speed pass.
    shapes: tuple[bytes, ...] = ()
    # Substrings that must occur at least so many times: an IPv6 address without "::" has
    # seven colons.
    counts: tuple[tuple[str, int], ...] = ()
    # Literal-led patterns searched on the text as written (capitalised words, say).
    text_gates: tuple[re.Pattern[str], ...] = ()
    group: int | str = 0  # the capture group that holds the value (0: the whole match)
    # Where a costly regex can only match near a cheap one: `anchor` (a literal-led pattern on
    # the lower-cased text) finds the places, and the regex runs within `window` characters
    # (before, after) of each instead of over the whole text. The regex must not rely on \Z.
    anchor: re.Pattern[str] | None = None
    window: tuple[int, int] = (100, 250)

    def applies(
        self,
        lowered: str,
        ascii_only: bool,
        shape: bytes,
        text: str = "",
        cues_found: frozenset[str] | set[str] | None = None,
    ) -> bool:
        """Whether the text could hold a match; `cues_found` (every cue of every rule found in
        one pass, scanning.cues) replaces a substring search per cue."""
        if self.non_ascii and ascii_only:
            return False
        if any(lowered.count(cue) < n for cue, n in self.counts):
            return False
        if self.shapes and not any(cue in shape for cue in self.shapes):
            return False
        for group in self.cues:
            if cues_found is not None:
                if cues_found.isdisjoint(group):
                    return False
                continue
            for cue in group:
                if cue in lowered:
                    break
            else:
                return False
        if self.text_gates and not any_search(self.text_gates, text):
            return False
        return not self.gates or any_search(self.gates, lowered)

    def findings(self, text: str, lowered: str | None = None) -> Iterator[Finding]:
        seen: set[tuple[int, int]] = set()
        for match in self._matches(text, lowered):
            summary = self.summary(match) if callable(self.summary) else self.summary
            if summary is None:  # rejected by the rule's own check
                continue
            start, end = match.span(self.group)
            if (start, end) in seen:
                continue
            seen.add((start, end))
            yield Finding(self.name, self.category, start, end, summary)

    def _matches(self, text: str, lowered: str | None) -> Iterator[re.Match[str]]:
        lowered = text.lower() if lowered is None else lowered
        # Lower-casing can change a text's length (İ → i̇): then offsets do not carry over.
        if self.anchor is None or len(lowered) != len(text):
            yield from self.regex.finditer(text)
            return
        before, after = self.window
        windows: list[list[int]] = []
        for hit in self.anchor.finditer(lowered):
            start, end = max(0, hit.start() - before), min(len(text), hit.end() + after)
            if windows and start <= windows[-1][1]:
                windows[-1][1] = max(windows[-1][1], end)
            else:
                windows.append([start, end])
        for start, end in windows:
            yield from self.regex.finditer(text, start, end)


DIGIT_SHAPE = bytes.maketrans(b"0123456789", b"0" * 10)


def gates(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in patterns)
