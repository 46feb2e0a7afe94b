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
    # Or: the rule's first cues are the anchors, found with str.find (a long alternation as
    # an anchor regex is tried position by position).
    anchor_cues: bool = False
    # Or: the places where one of `shapes` occurs (found with bytes.find on the digit shape),
    # for an ASCII text; a digit-led regex would otherwise be tried at every position.
    anchor_shapes: bool = False

    def applies(
        self,
        lowered: str,
        ascii_only: bool,
        shape: bytes,
        text: str = "",
        cues_found: frozenset[str] | set[str] | None = None,
        shapes_found: set[bytes] | None = None,
    ) -> bool:
        """Whether the text could hold a match; `cues_found` and `shapes_found` (every cue and
        digit shape of every rule found in one pass each, scanning.cues) replace a substring
        search per cue."""
        if self.non_ascii and ascii_only:
            return False
        if any(lowered.count(cue) < n for cue, n in self.counts):
            return False
        if self.shapes and not (
            any(needle in shapes_found for needle in self.shapes)
            if shapes_found is not None
            else any(needle in shape for needle in self.shapes)
        ):
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

    def findings(
        self,
        text: str,
        lowered: str | None = None,
        cues_found: set[str] | None = None,
        shape: bytes | None = None,
    ) -> Iterator[Finding]:
        seen: set[tuple[int, int]] = set()
        for match in self._matches(text, lowered, cues_found, shape):
            summary = self.summary(match) if callable(self.summary) else self.summary
            if summary is None:  # rejected by the rule's own check
                continue
            start, end = match.span(self.group)
            if (start, end) in seen:
                continue
            seen.add((start, end))
            yield Finding(self.name, self.category, start, end, summary)

    def _matches(
        self,
        text: str,
        lowered: str | None,
        cues_found: set[str] | None = None,
        shape: bytes | None = None,
    ) -> Iterator[re.Match[str]]:
        lowered = text.lower() if lowered is None else lowered
        if self.anchor_shapes:
            if shape is None or len(shape) != len(text):  # not ASCII: offsets differ
                yield from self.regex.finditer(text)
                return
            hits = self._shape_hits(shape)
        # Lower-casing can change a text's length (İ → i̇): then offsets do not carry over.
        elif (self.anchor is None and not self.anchor_cues) or len(lowered) != len(text):
            yield from self.regex.finditer(text)
            return
        else:
            hits = self._anchors(lowered, cues_found)
        before, after = self.window
        windows: list[list[int]] = []
        for hit_start, hit_end in hits:
            start, end = max(0, hit_start - before), min(len(text), hit_end + after)
            if windows and start <= windows[-1][1]:
                windows[-1][1] = max(windows[-1][1], end)
            else:
                windows.append([start, end])
        for start, end in windows:
            yield from self.regex.finditer(text, start, end)

    def _shape_hits(self, shape: bytes) -> list[tuple[int, int]]:
        hits = []
        for cue in self.shapes:
            position = shape.find(cue)
            while position >= 0:
                hits.append((position, position + len(cue)))
                position = shape.find(cue, position + len(cue))
        return sorted(hits)

    def _anchors(self, lowered: str, cues_found: set[str] | None) -> list[tuple[int, int]]:
        if not self.anchor_cues:
            return [hit.span() for hit in self.anchor.finditer(lowered)]
        words = self.cues[0] if cues_found is None else cues_found.intersection(self.cues[0])
        hits = []
        for word in words:
            position = lowered.find(word)
            while position >= 0:
                hits.append((position, position + len(word)))
                position = lowered.find(word, position + 1)
        return sorted(hits)


DIGIT_SHAPE = bytes.maketrans(b"0123456789", b"0" * 10)


def gates(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in patterns)
