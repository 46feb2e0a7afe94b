"""Tool names in any written form: a vocabulary of names found in a text in one pass (pure).

A lesson names a tool the way its author writes: `ledger-api-v1`, "Ledger API v1",
"ledger_api v1", "TMS-CLASSIC", "carrierquote API v1", "luigi 3.x". The task log writes it
once, its own way (`tools_used`). Every spelling is brought to one *key*: lowercase, the
words and numbers of the name joined by single spaces, so separators, backticks and case do
not matter. A name is found in a text when its key's words appear there in a row, between
word boundaries; whatever follows (a version, "API", "CLI") does not stop the match, so
"tms-classic v4" names `tms-classic`. A versioned name (`ledger-api-v1`) also stands for its
family (`ledger-api`): a text that names the family without a version names the family, whose
history is every version's (reviews.selectors.signal_facts.tool_history). Where two names
match at one place, the longer wins ("ledger api v1" over "ledger api").

A version is written with or without its "v" ("interax v4" names `interax-4`, "ledger api 1"
names `ledger-api-v1`), so a lesson that names one version is not read as the family, which a
successor version keeps alive. A one-word name is also found split in two where one part is
short, as a prefix or an initialism is hyphenated ("cv-parse 2" names `cvparse-v2`, "Rx Stock"
names `rxstock`); two long parts are left alone, since "carrier quote" is prose as often as it
is `carrierquote`. An alias (tool_history: a name a reflection's own fields carry that is the
first word of exactly one tool of the task log, `medstock` for `medstock-classic`) is found as
the tool it stands for, and so is a word written as a product name, with capitals inside it,
that is the first word of exactly one name of several words ("TalentLink" names
`talentlink-ats`); in plain lowercase such a first word is left alone ("court" is not
`court-efile`).

All names are matched together by one Aho-Corasick automaton, so a department's whole
vocabulary costs one pass over each text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from ahocorasick_rs import AhoCorasick, MatchKind

from reflections.similarity.text import ENGLISH_STOP_WORDS

_WORDS = re.compile(r"[a-z0-9]+")
# A word written as a product name: capitals inside it ("TalentLink", "ServiceNow").
_CAMEL = re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z0-9]+)+\b")
# A version, as key_of splits it into words: "v1", "v2 3", "3 x", "4".
_VERSION = re.compile(r"v?\d+|x")
# Formats, channels and office nouns a lesson may name but no department ever "retires"
# (issue 12: every Finance hit named `csv`); they never count as tools.
GENERIC = frozenset(
    [
        "csv",
        "tsv",
        "json",
        "jsonl",
        "xml",
        "yaml",
        "yml",
        "pdf",
        "html",
        "markdown",
        "md",
        "txt",
        "xlsx",
        "xls",
        "docx",
        "excel",
        "spreadsheet",
        "spreadsheets",
        "sheet",
        "sheets",
        "email",
        "emails",
        "e",
        "mail",
        "mail",
        "inbox",
        "phone",
        "calendar",
        "chat",
        "slack",
        "sms",
        "sql",
        "http",
        "https",
        "rest",
        "api",
        "apis",
        "webhook",
        "webhooks",
        "browser",
        "file",
        "files",
        "folder",
        "database",
    ]
)
MIN_KEY_CHARS = 3  # "ci", "db": too short to tell a tool from an abbreviation in prose
# A one-word name is also found split in two when one part is at most this long (a prefix or
# an initialism: "cv-parse", "rx stock", "e-file") and the word at least SPLIT_MIN_CHARS.
SPLIT_SHORT_PART, SPLIT_MIN_CHARS = 3, 6


def key_of(name: str) -> str:
    """The one spelling every written form of `name` shares: "Ledger_API v1" → "ledger api v1"."""
    return " ".join(_WORDS.findall(name.lower()))


def family_of(key: str) -> str | None:
    """The key without its trailing version words, when it has some: "ledger api v1" →
    "ledger api"; None for an unversioned key or one that is all version."""
    words = key.split(" ")
    end = len(words)
    while end and _VERSION.fullmatch(words[end - 1]):
        end -= 1
    if end == len(words) or end == 0:
        return None
    return " ".join(words[:end])


def written_forms(key: str) -> Iterator[str]:
    """The ways a key is written besides itself, as key_of would read them: each version word
    with and without its "v" ("interax 4" ↔ "interax v4"), a one-word name's first word split
    where one part is short ("cvparse v2" → "cv parse v2", "cv parse 2"), and a name of several
    words run together ("tms classic" → "tmsclassic")."""
    words = key.split(" ")
    versions = [
        [w, w[1:]] if w[0] == "v" and w[1:].isdigit() else [w, f"v{w}"] if w.isdigit() else [w]
        for w in words
    ]
    heads = [words[0]]
    head = words[0]
    if len(head) >= SPLIT_MIN_CHARS and head.isalpha():
        for cut in range(2, len(head) - 1):
            left, right = head[:cut], head[cut:]
            short = left if len(left) <= SPLIT_SHORT_PART else right
            if len(short) <= SPLIT_SHORT_PART and short not in ENGLISH_STOP_WORDS:
                heads.append(f"{left} {right}")
    tails = [""]
    for options in versions[1:]:
        tails = [f"{tail} {option}" for tail in tails for option in options]
    for first in heads:
        for tail in tails:
            form = f"{first}{tail}"
            if form != key:
                yield form
    joined = key.replace(" ", "")
    if " " in key and len(joined) >= 5:
        yield joined


def is_generic(key: str) -> bool:
    return key in GENERIC or len(key.replace(" ", "")) < MIN_KEY_CHARS


def _haystack(text: str) -> str:
    """The text as keys are written, padded so that every word has a space on both sides."""
    return f" {key_of(text)} "


class ToolMatcher:
    """Finds the keys of a vocabulary in texts. Built once per department (a few dozen names),
    used for every reflection of it."""

    def __init__(self, names: Iterable[str], aliases: Mapping[str, str] | None = None):
        keys: set[str] = set()
        for name in names:
            if not isinstance(name, str):
                continue
            key = key_of(name)
            if not key or is_generic(key):
                continue
            keys.add(key)
            family = family_of(key)
            if family and not is_generic(family):
                keys.add(family)
        # An alias is found as the key it stands for (only when that key is a tool here).
        self.aliases = {
            alias: key for alias, key in (aliases or {}).items() if key in keys and alias != key
        }
        self.keys = frozenset(keys - set(self.aliases))
        # Each key as its words, then in its other written forms (written_forms); a key's own
        # spelling wins over another key's other form.
        patterns: dict[str, str] = {f" {key} ": key for key in sorted(self.keys)}
        for key in sorted(self.keys):
            for form in written_forms(key):
                patterns.setdefault(f" {form} ", key)
        for alias, key in sorted(self.aliases.items()):
            patterns.setdefault(f" {alias} ", key)
        # The first word of exactly one name of several words, for a word written as a
        # product name (keys_in).
        firsts: dict[str, list[str]] = {}
        for key in self.keys:
            head, _, rest = key.partition(" ")
            if rest and head.isalpha() and not is_generic(head):
                firsts.setdefault(head, []).append(key)
        self._heads = {
            head: keys[0]
            for head, keys in firsts.items()
            if len(keys) == 1 and head not in self.keys and head not in self.aliases
        }
        self._keys = list(patterns.values())
        self._automaton = (
            AhoCorasick(list(patterns), matchkind=MatchKind.Standard) if patterns else None
        )

    def key_for(self, name: str) -> str | None:
        """The vocabulary's key for a name given whole (a `tools` field's item), or None."""
        key = key_of(name)
        key = self.aliases.get(key, key)
        return key if key in self.keys else None

    def keys_in(self, text: str) -> list[str]:
        """The vocabulary's keys `text` names, in order of first mention, each once; a key
        matched only inside a longer one at the same place is not counted."""
        if self._automaton is None or not text:
            return []
        if self._heads:
            text = _CAMEL.sub(lambda m: self._heads.get(m.group(0).lower(), m.group(0)), text)
        haystack = _haystack(text)
        spans = [
            (start, end, self._keys[index])
            for index, start, end in self._automaton.find_matches_as_indexes(
                haystack, overlapping=True
            )
        ]
        found: list[str] = []
        for start, end, key in sorted(spans, key=lambda s: (s[0], -s[1])):
            inside = any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
            if not inside and key not in found:
                found.append(key)
        return found
