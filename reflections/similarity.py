"""Text similarity between reflections, pure: TF-IDF nearest neighbours and word-level diffs.

No database here: the neighbour service (reflections.services_neighbours) feeds one
department's texts in and stores what comes out; review evidence diffs two texts for the
side-by-side view.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

DEFAULT_K = 8
# Cosine of sublinear TF-IDF vectors (unigrams + bigrams, stop words removed). Below ~0.35
# two reflections share topic words ("invoice", "retry") but not phrasing; a reworded or
# reformatted copy of the same lesson keeps enough bigrams to score above it. On the demo
# workspace 47 of the 48 planted duplicates score 0.39-1.0 against their original (the 48th
# is crowded out of the top 8 by closer natural repeats), while 0.5 already loses 6 of them:
# 0.35 keeps real duplicates without listing every reflection on the same topic.
DEFAULT_THRESHOLD = 0.35
# Rows of the similarity matrix computed at once: CHUNK_CELLS / n rows, each a dense float32
# row of n similarities, so one chunk is ~64 MB whatever the department's size.
CHUNK_CELLS = 16_000_000
WORKERS = min(2, os.cpu_count() or 1)


@dataclass(frozen=True)
class Similar:
    """One neighbour of a document: its id and the cosine similarity (0-1)."""

    id: int
    similarity: float


def document_text(*, title: str, sections: Sequence[dict], body: str = "") -> str:
    """The text a reflection is compared by: its title, then its sections' bodies.

    Headings are left out: they are the source format's template ("Strategy", "Trigger"),
    and keeping them makes two formats of the same lesson look less alike than two
    different lessons in one format (on the demo, top-3 recall of planted duplicates goes
    from 41 to 46 of 48 without them). Without sections, the body stands in.
    """
    parts = [s.get("body", "") for s in sections if isinstance(s, dict)]
    text = "\n\n".join(p for p in parts if p) or body
    return f"{title}\n\n{text}" if text else title


def _vectorizer(n_docs: int, min_df: int) -> TfidfVectorizer:
    return TfidfVectorizer(
        # Repeating a word ten times is not ten times the evidence: 1 + log(tf).
        sublinear_tf=True,
        stop_words="english",
        # Bigrams tell "retry the export" from "export the retry"; lessons are phrases.
        ngram_range=(1, 2),
        # 1 by default: a term in one document only cannot make two documents alike, but it
        # belongs in that document's norm. Dropping such terms (min_df=2) shrinks the
        # vocabulary yet inflates similarity: two texts left with one shared word score 1.0.
        min_df=min_df if n_docs > min_df else 1,
        dtype=np.float32,
    )


def nearest_neighbours(
    documents: Sequence[tuple[int, str]],
    *,
    k: int = DEFAULT_K,
    threshold: float = DEFAULT_THRESHOLD,
    min_df: int = 1,
) -> dict[int, list[Similar]]:
    """Each document's most similar others (cosine of TF-IDF vectors), best first.

    A document gets its own top-k with similarity >= threshold, plus every document that
    has it in *its* top-k: the relation is symmetric (b is a's neighbour exactly when a is
    b's, with the same similarity), as Neighbour rows are stored in both directions, so a
    list may be longer than k. Equal similarities list the lower id first. Every id is a key,
    possibly with [].

    The similarity matrix is never held whole: rows are computed in chunks of about
    CHUNK_CELLS cells, so 15,000 documents need a few hundred MB beyond the sparse vectors.
    """
    ids = [doc_id for doc_id, _ in documents]
    result: dict[int, list[Similar]] = {doc_id: [] for doc_id in ids}
    n = len(ids)
    if n < 2 or k < 1:
        return result
    try:
        vectors = _vectorizer(n, min_df).fit_transform([text for _, text in documents])
    except ValueError:  # empty vocabulary: nothing but stop words, nothing to compare
        return result
    # Rows are L2-normalised over every term, so a dot product is the cosine. A term of one
    # document adds nothing to any dot product with another: its column goes once the norms
    # are taken, which leaves the same similarities and a much smaller product.
    shared = np.flatnonzero(np.bincount(vectors.indices, minlength=vectors.shape[1]) > 1)
    vectors = vectors.tocsc()[:, shared].tocsr()
    transposed = vectors.T.tocsc()
    take = min(k, n - 1)

    def chunk_top(start: int) -> tuple[int, np.ndarray, np.ndarray]:
        stop = min(n, start + chunk)
        sims = (vectors[start:stop] @ transposed).toarray()
        rows = np.arange(stop - start)
        sims[rows, rows + start] = -1.0  # never one's own neighbour
        top = np.argpartition(-sims, take - 1, axis=1)[:, :take]
        return start, top, np.take_along_axis(sims, top, axis=1)

    pairs: dict[tuple[int, int], float] = {}
    chunk = max(1, CHUNK_CELLS // n)
    # The sparse product releases the GIL: two chunks at once use both cores.
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for start, top, top_sims in pool.map(chunk_top, range(0, n, chunk)):
            for row, column in zip(*np.nonzero(top_sims >= threshold), strict=True):
                i, j = start + int(row), int(top[row, column])
                key = (i, j) if i < j else (j, i)
                # Float rounding may differ by direction; the pair keeps one value.
                pairs.setdefault(key, round(min(float(top_sims[row, column]), 1.0), 4))
    for (i, j), similarity in pairs.items():
        result[ids[i]].append(Similar(ids[j], similarity))
        result[ids[j]].append(Similar(ids[i], similarity))
    for neighbours in result.values():
        neighbours.sort(key=lambda s: (-s.similarity, s.id))
    return result


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
