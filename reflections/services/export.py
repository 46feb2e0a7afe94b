"""Exporting one flat record per reflection (JSONL or CSV), never its text."""

from __future__ import annotations

from collections.abc import Iterator

from reflections.models import Reflection

EXPORT_FIELDS = (
    "source_path",
    "content_hash",
    "department",
    "agent",
    "kind",
    "outcome",
    "task_type",
    "created_at",
    "state",
    "multiplier",
    "retrieval_count",
    "last_retrieved_at",
    "deprecated_reason",
)


def iter_reflection_export(*, department: str | None = None) -> Iterator[dict]:
    """One flat record per reflection; never the text itself (it may be quarantined)."""
    qs = Reflection.objects.order_by("id")
    if department:
        qs = qs.filter(department__slug=department)
    for row in qs.values(
        "source_path",
        "content_hash",
        "department__slug",
        "agent__name",
        "kind",
        "outcome",
        "task_type",
        "created_at",
        "state",
        "retrieval_count",
        "last_retrieved_at",
        "deprecated_reason",
    ).iterator(chunk_size=5000):
        yield {
            "source_path": row["source_path"],
            "content_hash": row["content_hash"],
            "department": row["department__slug"],
            "agent": row["agent__name"] or "",
            "kind": row["kind"],
            "outcome": row["outcome"] or "",
            "task_type": row["task_type"],
            "created_at": row["created_at"].isoformat(),
            "state": row["state"],
            "multiplier": Reflection(state=row["state"]).multiplier,
            "retrieval_count": row["retrieval_count"],
            "last_retrieved_at": row["last_retrieved_at"].isoformat()
            if row["last_retrieved_at"]
            else "",
            "deprecated_reason": row["deprecated_reason"],
        }
