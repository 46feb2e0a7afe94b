"""Memory policies (DOMAIN §4) as pure functions: decay, retention, salience, trigger gate.

Everything here works on plain values (datetimes, counts, states) with every threshold a
parameter, so it is tested without a database. The set-based application of these rules
lives in reflections.services.policy_runs, whose SQL mirrors these functions exactly.

Time windows. ``as_of`` is a calendar date in UTC and a policy run sees the world as it was
at the *end* of that day. With ``start`` = as_of 00:00 UTC and ``end`` = start + 1 day:

* "the last N days" is the N calendar days ending with as_of, i.e. [end - N d, end).
  A retrieval 29 days before as_of is in the 30-day window; one 30 days before is not.
  Likewise 6 days before is "within the last 7 days", 7 days before is not.
* "created more than 90 days before as_of" means the created *date* is more than 90 days
  before as_of: created_at < start - 90 d. Created exactly 90 days before → not yet.
* Retrievals at or after ``end`` are ignored, so a run for a past date is reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from reflections.models import State

# Decay never touches these: a human deprecated it, or the scanner quarantined it.
STICKY_STATES = frozenset({State.DEPRECATED, State.QUARANTINED})


@dataclass(frozen=True)
class PolicyConfig:
    archive_after_days: int = 90
    idle_days: int = 30
    promote_recent_days: int = 7
    promote_min_retrievals: int = 5
    promote_window_days: int = 30
    retention_keep: int = 30
    salience_min_age_days: int = 14
    gate_confidence: float = 0.6
    gate_min_prior: int = 3


DEFAULT_CONFIG = PolicyConfig()


@dataclass(frozen=True)
class Boundaries:
    """The instants a run for ``as_of`` compares timestamps with (see the module docstring)."""

    start: datetime  # as_of 00:00 UTC
    end: datetime  # the day after as_of, 00:00 UTC: nothing at or after it is seen
    created_before: datetime  # created earlier than this is "more than 90 days" old
    idle_since: datetime  # the 30-day window for "not retrieved" starts here
    promote_window_since: datetime  # the 30-day window for "≥ 5 retrievals" starts here
    recent_since: datetime  # the 7-day window for "retrieved recently" starts here
    salience_created_before: datetime  # created earlier than this is ≥ 14 days old


def boundaries(as_of: date, config: PolicyConfig = DEFAULT_CONFIG) -> Boundaries:
    start = datetime.combine(as_of, time.min, tzinfo=UTC)
    end = start + timedelta(days=1)
    return Boundaries(
        start=start,
        end=end,
        created_before=start - timedelta(days=config.archive_after_days),
        idle_since=end - timedelta(days=config.idle_days),
        promote_window_since=end - timedelta(days=config.promote_window_days),
        recent_since=end - timedelta(days=config.promote_recent_days),
        salience_created_before=end - timedelta(days=config.salience_min_age_days),
    )


def _day(value: datetime | None) -> str:
    return value.astimezone(UTC).date().isoformat() if value else "never"


def decay_state(
    *,
    created_at: datetime,
    last_retrieved_before_as_of: datetime | None,
    retrievals_in_window: int,
    retrievals_in_idle_window: int | None = None,
    as_of: date,
    current_state: str,
    retention_archived_at: datetime | None = None,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> tuple[str, str]:
    """The decay state a reflection should have at the end of ``as_of``, and why.

    ``last_retrieved_before_as_of`` is its latest retrieval before the end of as_of (None if
    never); ``retrievals_in_window`` counts its retrievals in the promotion window (30 d);
    ``retrievals_in_idle_window`` those in the idle window, which defaults to the same count
    (both windows are 30 days by default).

    Rules, in order: deprecated and quarantined are returned unchanged; a reflection the
    retention run archived stays archived until it is retrieved after that archiving; old
    and idle → archived; retrieved in the last 7 days and ≥ 5 times in 30 days → promoted;
    otherwise active (so an archived reflection retrieved again becomes active again).
    """
    if current_state in STICKY_STATES:
        return current_state, f"{current_state}: decay never changes it"
    b = boundaries(as_of, config)
    last = last_retrieved_before_as_of
    if retrievals_in_idle_window is None:
        retrievals_in_idle_window = retrievals_in_window
    if (
        current_state == State.ARCHIVED
        and retention_archived_at is not None
        and (last is None or last <= retention_archived_at)
    ):
        return State.ARCHIVED, (
            f"archived: by retention on {_day(retention_archived_at - timedelta(days=1))}, "
            f"not retrieved since"
        )
    if created_at < b.created_before and retrievals_in_idle_window == 0:
        return State.ARCHIVED, (
            f"archived: created {_day(created_at)} (>{config.archive_after_days} d), "
            + (
                f"last retrieved {_day(last)} (>{config.idle_days} d)"
                if last
                else "never retrieved"
            )
        )
    recent = last is not None and last >= b.recent_since
    if recent and retrievals_in_window >= config.promote_min_retrievals:
        return State.PROMOTED, (
            f"promoted: {retrievals_in_window} retrievals in the last "
            f"{config.promote_window_days} d, last {_day(last)}"
        )
    return State.ACTIVE, (
        f"active: created {_day(created_at)}, {retrievals_in_window} retrievals in the last "
        f"{config.promote_window_days} d, last {_day(last)}"
    )


def retention(
    reflections_of_one_agent: Iterable[tuple[int, datetime, str]],
    keep: int = DEFAULT_CONFIG.retention_keep,
) -> tuple[list[int], list[int]]:
    """(retained ids, archive-candidate ids) for one agent's (id, created_at, state) rows.

    The newest ``keep`` reflections that are neither deprecated nor quarantined are retained
    (newest first; equal timestamps: higher id first); the older ones are candidates, in
    the same order. Deprecated and quarantined reflections are in neither list.
    """
    ranked = sorted(
        (r for r in reflections_of_one_agent if r[2] not in STICKY_STATES),
        key=lambda r: (r[1], r[0]),
        reverse=True,
    )
    return [r[0] for r in ranked[:keep]], [r[0] for r in ranked[keep:]]


def salience_reference(
    *,
    imported: float | None,
    created_at: datetime,
    as_of: date,
    percentile: float | None,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> float | None:
    """Imported salience wins; else None until 14 days old; else the given percentile.

    The reference the production SQL (reflections.services.policy_runs.SALIENCE_SQL, run by
    apply_salience) implements; only the tests call it.

    The percentile (0 to 1) is PERCENT_RANK() of retrievals per day since creation among the
    department's reflections that are at least 14 days old, computed in SQL by the apply step.
    """
    if imported is not None:
        return imported
    if created_at >= boundaries(as_of, config).salience_created_before:
        return None
    return percentile


def should_have_reflected(
    *,
    outcome: str,
    confidence_at_start: float | None,
    prior_reflections_of_type: int,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> bool:
    """The reflection trigger gate: failed, partial, unsure at start, or a new task type."""
    return (
        outcome in ("failure", "partial")
        or (confidence_at_start is not None and confidence_at_start < config.gate_confidence)
        or prior_reflections_of_type < config.gate_min_prior
    )
