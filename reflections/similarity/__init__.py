"""How alike reflections are: the text they are compared by, the backends that turn it into
vectors, nearest neighbours by blocked matrix products, and word diffs (all pure)."""

from reflections.similarity.nearest import DEFAULT_K, Similar, nearest_neighbours
from reflections.similarity.text import (
    DiffSegment,
    Spans,
    diff_spans,
    diff_words,
    document_text,
    longest_shared_run,
    segments_of,
    text_digest,
)

__all__ = [
    "DEFAULT_K",
    "DiffSegment",
    "Similar",
    "Spans",
    "diff_spans",
    "diff_words",
    "document_text",
    "longest_shared_run",
    "nearest_neighbours",
    "segments_of",
    "text_digest",
]
