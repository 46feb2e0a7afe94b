"""Reads for a reflection's page: where the policies stand on it, and what the scanner found."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db.models import Count, Max, Q

from reflections.models import (
    Reflection,
    ReflectionHistory,
    ScanFinding,
    State,
)
from reflections.policies import DEFAULT_CONFIG, PolicyConfig, boundaries, decay_state


@dataclass(frozen=True)
class ReflectionPolicy:
    as_of: date
    state: str
    multiplier: float
    policy_state: str  # what decay would say today (== state unless a run is due)
    reason: str
    archive_on: date | None  # the day decay archives it if nothing retrieves it
    retention_position: int | None
    retention_total: int | None
    keep: int
    salience_source: str  # "imported", "computed", "too young", "pending", "none"
    salience: float | None
    deprecated_entry: ReflectionHistory | None
    retrievals_in_window: int
    last_retrieved: datetime | None

    @property
    def will_change(self) -> bool:
        return self.policy_state != self.state

    @property
    def is_retained(self) -> bool:
        return self.retention_position is not None and self.retention_position <= self.keep

    @property
    def archive_is_due(self) -> bool:
        return self.archive_on is not None and self.archive_on <= self.as_of


def archive_date(
    created_at: datetime, last_retrieved: datetime | None, config: PolicyConfig = DEFAULT_CONFIG
) -> date:
    """The first as_of on which decay archives a reflection nobody retrieves any more.

    From policies.boundaries: created_at < as_of - 90 d (midnight) holds from
    created day + 91 on; no retrieval in [as_of + 1 - 30 d, as_of + 1) holds from
    last-retrieved day + 30 on.
    """
    created_day = created_at.astimezone(UTC).date()
    day = created_day + timedelta(days=config.archive_after_days + 1)
    if last_retrieved is not None:
        day = max(day, last_retrieved.astimezone(UTC).date() + timedelta(days=config.idle_days))
    return day


def window_stat_aggregates(as_of: date, config: PolicyConfig = DEFAULT_CONFIG) -> dict:
    """Aggregates over a reflection's retrievals for decay at as_of (joined into one query)."""
    b = boundaries(as_of, config)
    seen = Q(retrieved_at__lt=b.end)
    return {
        "policy_window": Count("id", filter=seen & Q(retrieved_at__gte=b.promote_window_since)),
        "policy_idle": Count("id", filter=seen & Q(retrieved_at__gte=b.idle_since)),
        "policy_last": Max("retrieved_at", filter=seen),
    }


def reflection_policy(
    *,
    reflection: Reflection,
    stats: dict,
    history: list[ReflectionHistory],
    as_of: date,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> ReflectionPolicy:
    """The policy panel, from values already fetched by selectors.reflection_detail."""
    last = stats.get("policy_last")
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=UTC)
    policy_state, reason = decay_state(
        created_at=reflection.created_at,
        last_retrieved_before_as_of=last,
        retrievals_in_window=stats.get("policy_window", 0),
        retrievals_in_idle_window=stats.get("policy_idle", 0),
        as_of=as_of,
        current_state=reflection.state,
        retention_archived_at=reflection.retention_archived_at,
        config=config,
    )
    deprecated_entry = None
    if reflection.state == State.DEPRECATED:
        deprecated_entry = next(
            (h for h in reversed(history) if h.to_state == State.DEPRECATED), None
        )
    if reflection.salience is not None:
        salience_source, salience = "imported", reflection.salience
    elif reflection.salience_computed is not None:
        salience_source, salience = "computed", reflection.salience_computed
    elif reflection.created_at >= boundaries(as_of, config).salience_created_before:
        salience_source, salience = "too young", None
    else:
        salience_source, salience = "pending", None
    decaying = reflection.state in (State.ACTIVE, State.PROMOTED)
    position = getattr(reflection, "retention_position", None)
    return ReflectionPolicy(
        as_of=as_of,
        state=reflection.state,
        multiplier=reflection.multiplier,
        policy_state=policy_state,
        reason=reason,
        archive_on=archive_date(reflection.created_at, last, config) if decaying else None,
        retention_position=position,
        retention_total=getattr(reflection, "retention_total", None) if position else None,
        keep=config.retention_keep,
        salience_source=salience_source,
        salience=salience,
        deprecated_entry=deprecated_entry,
        retrievals_in_window=stats.get("policy_window", 0),
        last_retrieved=last,
    )


# --------------------------------------------------------------------------- detail: findings


def reflection_findings(reflection: Reflection) -> list[ScanFinding]:
    """The scan findings of one reflection, oldest first, with who resolved them.

    A finding stores where and what kind, never the matched value (models.ScanFinding), so
    every field here is safe to show to anyone who may open the reflection.
    """
    return list(
        reflection.findings.select_related("resolved_by").order_by("detected_at", "start", "id")
    )
