"""Every rule's cue words found in one pass over a text (Aho-Corasick), and from them the rules
worth running: a text that holds none of a rule's cues never reaches the rule's regex, and
never even costs the rule a Python call."""

from __future__ import annotations

from collections.abc import Iterable

import ahocorasick

from reflections.scanning.rule import Rule


class CueIndex:
    def __init__(self, rules: Iterable[Rule], extra_cues: Iterable[str] = ()) -> None:
        self.rules = tuple(rules)
        # Rules without cues are checked for every text (they have shapes or gates instead).
        self.uncued = tuple(r for r in self.rules if not r.cues)
        self._by_cue: dict[str, list[int]] = {}
        self._automaton = ahocorasick.Automaton()
        cues = set(extra_cues)
        for position, rule in enumerate(self.rules):
            if rule.cues:
                for cue in rule.cues[0]:
                    self._by_cue.setdefault(cue, []).append(position)
            for group in rule.cues:
                cues.update(group)
        for cue in cues:
            self._automaton.add_word(cue, cue)
        self._automaton.make_automaton()

    def found(self, lowered: str) -> set[str]:
        """The cues in the text; a short cue (four characters or fewer) that starts with a letter
        counts only where a word starts ("ask" in "ask the user", not in "task"), while a longer
        one may end a word ("straße" in "Gneisenaustraße")."""
        found = set()
        for end, cue in self._automaton.iter(lowered):
            start = end - len(cue) + 1
            if start and len(cue) <= 4 and cue[0].isalpha() and lowered[start - 1].isalpha():
                continue
            found.add(cue)
        return found

    def cued(self, found: set[str]) -> list[Rule]:
        """The rules one of whose first cues was found, in the order they were given."""
        positions: set[int] = set()
        for cue in found:
            positions.update(self._by_cue.get(cue, ()))
        return [self.rules[p] for p in sorted(positions)]
