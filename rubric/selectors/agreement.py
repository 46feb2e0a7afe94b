"""Reads for the agreement statistics: the ratings of a round or a date range, in one query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from rubric.agreement import AgreementResult, agreement
from rubric.models import Rating


@dataclass(frozen=True)
class AgreementReport:
    result: AgreementResult
    items: int  # reflections with at least one rating
    raters: int
    ratings: int  # the ratings the statistics are over
    # Earlier ratings of the same reflection and criterion by the same rater (a date range may
    # span two rounds): only the latest counts, so each rater has one level per unit.
    superseded: int
    rubric_versions: tuple[int, ...]

    def as_dict(self) -> dict:
        return {
            "items": self.items,
            "raters": self.raters,
            "ratings": self.ratings,
            "superseded": self.superseded,
            "rubric_versions": list(self.rubric_versions),
            **self.result.as_dict(),
        }


def rating_table(
    *, round_id: int | None = None, since: date | None = None, until: date | None = None
) -> tuple[dict[tuple[int, str, str], float], int, tuple[int, ...]]:
    """{(reflection id, rater username, criterion): level}, the number of superseded ratings
    and the rubric versions met. `since` and `until` are UTC days, both included; the filters
    combine; none at all means every rating."""
    ratings = Rating.objects.all()
    if round_id is not None:
        ratings = ratings.filter(assignment__item__rating_round_id=round_id)
    if since is not None:
        ratings = ratings.filter(rated_at__gte=datetime.combine(since, time.min, tzinfo=UTC))
    if until is not None:
        end = datetime.combine(until + timedelta(days=1), time.min, tzinfo=UTC)
        ratings = ratings.filter(rated_at__lt=end)
    rows = ratings.order_by("rated_at", "id").values_list(
        "reflection_id", "rater__username", "criterion", "level", "rubric__version"
    )
    table: dict[tuple[int, str, str], float] = {}
    versions: set[int] = set()
    loaded = 0
    for reflection_id, username, criterion, level, version in rows:
        table[reflection_id, username, criterion] = level  # in time order: the latest wins
        versions.add(version)
        loaded += 1
    return table, loaded - len(table), tuple(sorted(versions))


def agreement_report(
    *, round_id: int | None = None, since: date | None = None, until: date | None = None
) -> AgreementReport:
    table, superseded, versions = rating_table(round_id=round_id, since=since, until=until)
    return AgreementReport(
        result=agreement(table),
        items=len({item for item, _, _ in table}),
        raters=len({rater for _, rater, _ in table}),
        ratings=len(table),
        superseded=superseded,
        rubric_versions=versions,
    )
