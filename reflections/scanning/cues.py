"""Every rule's cue words found in one pass over a text (Aho-Corasick), and from them the rules
worth running: a text that holds none of a rule's cues never reaches the rule's regex, and
never even costs the rule a Python call."""

from __future__ import annotations

from collections.abc import Iterable

from ahocorasick_rs import AhoCorasick, Implementation

from reflections.scanning.rule import Rule


class CueIndex:
    def __init__(self, rules: Iterable[Rule], extra_cues: Iterable[str] = ()) -> None:
        self.rules = tuple(rules)
        # Rules without cues are checked for every text (they have shapes or gates instead).
        self.uncued = tuple(r for r in self.rules if not r.cues)
        self._by_cue: dict[str, list[int]] = {}
        cues = set(extra_cues)
        for position, rule in enumerate(self.rules):
            if rule.cues:
                for cue in rule.cues[0]:
                    self._by_cue.setdefault(cue, []).append(position)
            for group in rule.cues:
                cues.update(group)
        self._cues = sorted(cues)
        # Short Latin-script cues that start with a letter count only where a word starts.
        self._word_start = [
            len(cue) <= 4 and cue.isascii() and cue[0].isalpha() for cue in self._cues
        ]
        # A DFA: the cost per character does not grow with the number of cues.
        self._automaton = AhoCorasick(self._cues, implementation=Implementation.DFA)

    def found(self, lowered: str) -> set[str]:
        """The cues in the text; a short Latin-script cue (four characters or fewer) that starts
        with a letter counts only where a word starts ("ask" in "ask the user", not in "task"),
        while a longer one may end a word ("straße" in "Gneisenaustraße"). Scripts written
        without spaces (区 in 世田谷区) have no word starts to wait for."""
        found = set()
        word_start = self._word_start
        for index, start, _ in self._automaton.find_matches_as_indexes(lowered, overlapping=True):
            if word_start[index] and start and lowered[start - 1].isalpha():
                continue
            found.add(self._cues[index])
        return found

    def cued(self, found: set[str]) -> list[Rule]:
        """The rules one of whose first cues was found, in the order they were given."""
        positions: set[int] = set()
        for cue in found:
            positions.update(self._by_cue.get(cue, ()))
        return [self.rules[p] for p in sorted(positions)]


class ShapeIndex:
    """The digit shapes of every shape-gated rule found in one pass over a text's digit
    shape (rule.DIGIT_SHAPE): the rules without cues that a text's digits could match."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules = tuple(r for r in rules if r.shapes)
        self._by_shape: dict[bytes, list[int]] = {}
        for position, rule in enumerate(self.rules):
            for needle in rule.shapes:
                self._by_shape.setdefault(needle, []).append(position)
        self._needles = list(self._by_shape)
        self._automaton = AhoCorasick(
            [n.decode("latin-1") for n in self._needles], implementation=Implementation.DFA
        )

    def found(self, shape: bytes) -> set[bytes]:
        matches = self._automaton.find_matches_as_indexes(shape.decode("latin-1"), overlapping=True)
        return {self._needles[index] for index, _, _ in matches}

    def shaped(self, found: set[bytes]) -> list[Rule]:
        positions: set[int] = set()
        for needle in found:
            positions.update(self._by_shape[needle])
        return [self.rules[p] for p in sorted(positions)]
