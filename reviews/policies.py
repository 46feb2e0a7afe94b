"""Review rules as pure functions over plain values (DOMAIN §5): quarters, windows, who gets
which item, and how long an item took."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

CYCLE_SIZE = 100
WINDOW_DAYS = 90
# A reviewer who walks away mid-item should not count as four hours of work on it.
IDLE_CAP_SECONDS = 15 * 60

_QUARTER = re.compile(r"^(\d{4})Q([1-4])$")


class QuarterError(ValueError):
    pass


def parse_quarter(quarter: str) -> tuple[int, int]:
    match = _QUARTER.match(quarter.strip().upper())
    if not match:
        raise QuarterError(f"quarter {quarter!r} is not of the form 2026Q3")
    return int(match[1]), int(match[2])


def quarter_start(quarter: str) -> date:
    year, q = parse_quarter(quarter)
    return date(year, 3 * (q - 1) + 1, 1)


def previous_quarter(quarter: str) -> str:
    year, q = parse_quarter(quarter)
    return f"{year - 1}Q4" if q == 1 else f"{year}Q{q - 1}"


@dataclass(frozen=True)
class Window:
    start: datetime  # inclusive
    end: datetime  # exclusive

    @property
    def days(self) -> int:
        return (self.end - self.start).days


def review_window(
    quarter: str, *, starts_on: date | None = None, days: int = WINDOW_DAYS
) -> Window:
    """The retrievals a cycle ranks by: the `days` days before the cycle starts (midnight UTC).
    A cycle starts on the first day of its quarter unless it is opened for another date."""
    if days < 1:
        raise ValueError("a review window is at least one day long")
    start_day = starts_on or quarter_start(quarter)
    end = datetime.combine(start_day, time.min, tzinfo=UTC)
    return Window(start=end - timedelta(days=days), end=end)


def assign_round_robin(ranks: Sequence[int], reviewers: Sequence) -> dict[int, object]:
    """Deal the items like cards, in rank order: reviewer i gets ranks i, i+n, i+2n …

    Round-robin rather than contiguous blocks so that every reviewer gets the same mix of
    the most- and least-retrieved items (the top ranks carry the most risk), the loads differ
    by at most one item, and a cycle stopped early has its top items covered by everyone."""
    if not reviewers:
        raise ValueError("a cycle needs at least one reviewer")
    return {rank: reviewers[i % len(reviewers)] for i, rank in enumerate(sorted(ranks))}


def effort_seconds(
    shown_at: datetime | None, decided_at: datetime, cap: int = IDLE_CAP_SECONDS
) -> int:
    """Time on one item: from being shown to the verdict, idle time capped; unknown start = 0."""
    if shown_at is None or decided_at < shown_at:
        return 0
    return min(int((decided_at - shown_at).total_seconds()), cap)
