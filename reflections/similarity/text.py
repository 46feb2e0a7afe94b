"""The text a reflection is compared by, the terms two texts share, and word-level diffs of
two texts (pure).

Review evidence diffs a reflection against each duplicate candidate for the side-by-side view;
the echo signal counts the words two texts repeat in a row; the duplicate signal reads how
many terms two passes at one task share.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path


def _english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (what the word backend drops too), read from the
    module that holds them without importing scikit-learn: that import costs a web worker
    seconds and ~120 MiB, and /retrieve and the duplicate signal need only this list."""
    package = importlib.util.find_spec("sklearn")  # finds, does not run, the package
    path = Path(package.submodule_search_locations[0], "feature_extraction", "_stop_words.py")
    spec = importlib.util.spec_from_file_location("_sklearn_stop_words", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return frozenset(module.ENGLISH_STOP_WORDS)


ENGLISH_STOP_WORDS = _english_stop_words()


# A content word: a letter, then letters, digits, underscores or apostrophes (identifiers kept).
_CONTENT_WORD = re.compile(r"[a-z][a-z0-9_']+")


@lru_cache(maxsize=4096)  # the reviewed text is read against each of its neighbours
def content_terms(text: str) -> frozenset[str]:
    """The text's content words (lowercase, stop words dropped) and each pair of them that
    stand next to each other once the stop words are out: the pairs keep some of the order,
    so "off by one" and "one off" differ."""
    words = [w for w in _CONTENT_WORD.findall(text.lower()) if w not in ENGLISH_STOP_WORDS]
    return frozenset(words) | frozenset(f"{a} {b}" for a, b in pairwise(words))


def shared_terms(one: str, other: str) -> float:
    """The share of the two texts' content terms that both use (Jaccard): 0 when they share
    none, 1 when they use the same ones."""
    mine, theirs = content_terms(one), content_terms(other)
    return len(mine & theirs) / len(mine | theirs) if mine or theirs else 0.0


# Sections that quote the task rather than say anything about it (reflexion_run_import).
CONTEXT_HEADINGS = frozenset({"Problem"})


def document_text(*, title: str, sections: Sequence[dict], body: str = "") -> str:
    """The text a reflection is compared by: its title, then its sections' bodies.

    Headings are left out: they are the source format's template ("Strategy", "Trigger"),
    and keeping them makes two formats of the same lesson look less alike than two
    different lessons in one format (on the demo, top-3 recall of planted duplicates goes
    from 41 to 46 of 48 without them). Without sections, the body stands in. A section that
    only quotes the problem a lesson was learnt on (CONTEXT_HEADINGS: a Reflexion run's
    problem statement) is left out too: every reflection on one problem quotes it whole, and
    it would make them all alike whatever they say.
    """
    parts = [
        s.get("body", "")
        for s in sections
        if isinstance(s, dict) and s.get("heading") not in CONTEXT_HEADINGS
    ]
    text = "\n\n".join(p for p in parts if p) or body
    return f"{title}\n\n{text}" if text else title


@dataclass(frozen=True)
class DiffSegment:
    """A run of one side's text; changed when the other side has something else there."""

    text: str
    changed: bool


# A word with the whitespace after it, so the segments join back into the exact text.
_TOKEN = re.compile(r"^\s+|\S+\s*")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _segments(tokens: list[str], spans: list[tuple[int, int, bool]]) -> list[DiffSegment]:
    segments: list[DiffSegment] = []
    for lo, hi, changed in spans:
        if lo == hi:
            continue
        text = "".join(tokens[lo:hi])
        if segments and segments[-1].changed == changed:
            segments[-1] = DiffSegment(segments[-1].text + text, changed)
        else:
            segments.append(DiffSegment(text, changed))
    return segments


# One side's diff as token ranges: (first token, past the last, changed). What a prepared
# queue item stores instead of the text (reviews.services.evidence).
Spans = list[tuple[int, int, bool]]


def diff_words(a: str, b: str) -> tuple[list[DiffSegment], list[DiffSegment]]:
    """Word-level diff of two texts for side-by-side highlighting.

    Returns each side as runs of equal and changed text; each side's segments join back into
    that text exactly. Words compare without their surrounding whitespace, so a reflowed
    paragraph is not a change.
    """
    spans_a, spans_b = diff_spans(a, b)
    return segments_of(a, spans_a), segments_of(b, spans_b)


def diff_spans(a: str, b: str) -> tuple[Spans, Spans]:
    """diff_words as token ranges of each side, to be turned into segments by segments_of."""
    tokens_a, tokens_b = _tokens(a), _tokens(b)
    # autojunk off: it would treat frequent words ("the") as junk in texts over 200 words
    # and leave them unmatched, which highlights half of a near-identical text.
    matcher = difflib.SequenceMatcher(
        None, [t.strip() for t in tokens_a], [t.strip() for t in tokens_b], autojunk=False
    )
    spans_a: Spans = []
    spans_b: Spans = []
    for tag, a_lo, a_hi, b_lo, b_hi in matcher.get_opcodes():
        changed = tag != "equal"
        spans_a.append((a_lo, a_hi, changed))
        spans_b.append((b_lo, b_hi, changed))
    return spans_a, spans_b


def segments_of(text: str, spans: Spans) -> list[DiffSegment]:
    """The segments of one side from its spans (diff_spans of this very text)."""
    return _segments(_tokens(text), spans)


def text_digest(text: str) -> str:
    """A short fingerprint of a text: a stored diff is used only for the texts it was made of."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


_WORD = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)?")


def longest_shared_run(a: str, b: str) -> int:
    """How many words in a row the two texts share, case and punctuation aside: a lesson
    repeated in its own words ("reply to all by default so nobody is left out") shares a long
    run even when the tasks around it differ and the texts' TF-IDF similarity is modest."""
    words_a, words_b = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    return matcher.find_longest_match(0, len(words_a), 0, len(words_b)).size
