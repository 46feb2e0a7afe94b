"""Deprecations as rows: the reflections a review verdict deprecated, for the CSV/JSON export
and for writing the verdicts back into the source files."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from django.db.models import QuerySet

from reflections.models import Department, State
from reflections.scanning import mask, scan_text
from reflexion_site.downloads import SafeCsvWriter, iso_utc
from reviews.models import ReviewCycle, ReviewItem, Verdict

DEPRECATING_VERDICTS = (Verdict.ECHO_CHAMBER, Verdict.OUTDATED, Verdict.DUPLICATE)

EXPORT_FIELDS = (
    "source_path",
    "title",
    "department",
    "verdict",
    "duplicate_of",
    "note",
    "reviewer",
    "decided_at",
    "cycle",
)


def deprecation_items(
    *, cycle: ReviewCycle | int | None = None, departments: Iterable[Department] | None = None
) -> QuerySet[ReviewItem]:
    """Review items whose current verdict deprecates a reflection that is still deprecated.

    An undone verdict is cleared on the item, so it is not here; a restored one is marked on
    the item and is not either (the cycle's report counts it as restored); nor is a reflection
    quarantined since (a re-import found a secret): its text is for admins only.
    """
    items = ReviewItem.objects.filter(
        verdict__in=DEPRECATING_VERDICTS,
        restored_at__isnull=True,
        reflection__state=State.DEPRECATED,
    )
    if cycle is not None:
        items = items.filter(cycle=cycle)
    if departments is not None:
        items = items.filter(reflection__department__in=departments)
    return items.select_related(
        "cycle", "reflection", "reflection__department", "duplicate_of", "decided_by", "reviewer"
    ).order_by("reflection__department__slug", "cycle__quarter", "reflection__source_path", "id")


def deprecation_rows(
    *, cycle: ReviewCycle | int | None = None, departments: Iterable[Department] | None = None
) -> list[dict]:
    """One row per deprecating verdict, in EXPORT_FIELDS order. The note is a reviewer's free
    text: anything the scanner takes for a secret or personal data is masked (DOMAIN §3.4)."""
    rows = []
    for item in deprecation_items(cycle=cycle, departments=departments):
        reflection = item.reflection
        decider = item.decided_by or item.reviewer
        rows.append(
            {
                "source_path": reflection.source_path,
                "title": reflection.title,
                "department": reflection.department.slug,
                "verdict": item.verdict,
                "duplicate_of": item.duplicate_of.source_path if item.duplicate_of else "",
                "note": _masked(item.note),
                "reviewer": decider.get_username() if decider else "",
                "decided_at": iso_utc(item.decided_at),
                "cycle": item.cycle.quarter,
            }
        )
    return rows


def write_deprecations_csv(rows: Iterable[dict], stream: TextIO) -> None:
    """CSV with a header row; every cell made safe to open in a spreadsheet."""
    writer = SafeCsvWriter(stream)
    writer.writerow(EXPORT_FIELDS)
    for row in rows:
        writer.writerow([row[field] for field in EXPORT_FIELDS])


def _masked(text: str) -> str:
    if not text:
        return text
    findings = scan_text(text)
    return mask(text, findings) if findings else text
