"""The memory policies as pure functions: decay, retention, salience and the trigger gate."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from reflections.models import State
from reflections.policies import (
    DEFAULT_CONFIG,
    PolicyConfig,
    decay_state,
    retention,
    salience_reference,
    should_have_reflected,
)

AS_OF = date(2026, 6, 1)
START = datetime(2026, 6, 1, tzinfo=UTC)  # as_of 00:00 UTC
END = START + timedelta(days=1)  # nothing at or after it is seen


def days_before(n: int, *, hour: int = 12) -> datetime:
    """A moment on the calendar day n days before AS_OF."""
    return START - timedelta(days=n) + timedelta(hours=hour)


def decide(
    created_at: datetime,
    retrievals: list[datetime],
    *,
    as_of: date = AS_OF,
    state: str = State.ACTIVE,
    retention_archived_at: datetime | None = None,
    config: PolicyConfig = DEFAULT_CONFIG,
) -> tuple[str, str]:
    """decay_state fed from a list of retrieval times, counted independently of the module."""
    end = datetime(as_of.year, as_of.month, as_of.day, tzinfo=UTC) + timedelta(days=1)
    seen = [t for t in retrievals if t < end]
    return decay_state(
        created_at=created_at,
        last_retrieved_before_as_of=max(seen, default=None),
        retrievals_in_window=sum(
            t >= end - timedelta(days=config.promote_window_days) for t in seen
        ),
        retrievals_in_idle_window=sum(t >= end - timedelta(days=config.idle_days) for t in seen),
        as_of=as_of,
        current_state=state,
        retention_archived_at=retention_archived_at,
        config=config,
    )


# --------------------------------------------------------------------------- decay: edges


def test_a_reflection_created_exactly_90_days_before_as_of_is_not_archived_yet():
    assert decide(START - timedelta(days=90), [])[0] == State.ACTIVE
    assert decide(days_before(90, hour=23), [])[0] == State.ACTIVE


def test_a_reflection_created_91_days_before_as_of_and_never_retrieved_is_archived():
    state, reason = decide(START - timedelta(days=90, microseconds=1), [])
    assert state == State.ARCHIVED
    assert reason == "archived: created 2026-03-02 (>90 d), never retrieved"


def test_a_retrieval_exactly_30_days_before_as_of_no_longer_keeps_an_old_reflection():
    state, reason = decide(days_before(200), [days_before(30, hour=23)])
    assert state == State.ARCHIVED
    assert reason == "archived: created 2025-11-13 (>90 d), last retrieved 2026-05-02 (>30 d)"


def test_a_retrieval_29_days_before_as_of_keeps_an_old_reflection_active():
    assert decide(days_before(200), [START - timedelta(days=29)])[0] == State.ACTIVE


def test_five_retrievals_with_the_last_exactly_7_days_before_as_of_do_not_promote():
    retrievals = [days_before(n, hour=23) for n in (7, 8, 9, 10, 11)]
    assert decide(days_before(40), retrievals)[0] == State.ACTIVE


def test_five_retrievals_with_the_last_6_days_before_as_of_promote():
    retrievals = [START - timedelta(days=6)] + [days_before(n) for n in (8, 9, 10, 29)]
    state, reason = decide(days_before(40), retrievals)
    assert state == State.PROMOTED
    assert reason == "promoted: 5 retrievals in the last 30 d, last 2026-05-26"


def test_four_recent_retrievals_do_not_promote():
    assert decide(days_before(40), [days_before(n) for n in (1, 2, 3, 4)])[0] == State.ACTIVE


def test_retrievals_after_as_of_are_not_seen():
    late = [END + timedelta(hours=n) for n in range(6)]
    assert decide(days_before(100), late)[0] == State.ARCHIVED


def test_a_reflection_retrieved_again_after_archiving_becomes_active():
    created = days_before(120)
    assert decide(created, [days_before(60)], state=State.ACTIVE)[0] == State.ARCHIVED
    state, reason = decide(created, [days_before(60), days_before(2)], state=State.ARCHIVED)
    assert state == State.ACTIVE
    assert reason.startswith("active: created 2026-02-01, 1 retrievals in the last 30 d")


def test_a_deprecated_reflection_stays_deprecated_whatever_decay_sees():
    often = [days_before(n) for n in range(6)]
    assert decide(days_before(300), [], state=State.DEPRECATED)[0] == State.DEPRECATED
    assert decide(days_before(40), often, state=State.DEPRECATED)[0] == State.DEPRECATED


def test_a_quarantined_reflection_stays_quarantined():
    assert decide(days_before(300), [], state=State.QUARANTINED)[0] == State.QUARANTINED


def test_a_reflection_archived_by_retention_stays_archived_until_retrieved_after_it():
    archived_at = START - timedelta(days=9)  # the end of the retention run's as_of day
    before = [days_before(12)]
    state, reason = decide(
        days_before(40), before, state=State.ARCHIVED, retention_archived_at=archived_at
    )
    assert (state, reason) == (
        State.ARCHIVED,
        "archived: by retention on 2026-05-22, not retrieved since",
    )
    after = [*before, days_before(3)]
    assert (
        decide(days_before(40), after, state=State.ARCHIVED, retention_archived_at=archived_at)[0]
        == State.ACTIVE
    )


def test_thresholds_are_parameters():
    config = PolicyConfig(archive_after_days=10, idle_days=5, promote_min_retrievals=2)
    assert decide(days_before(11), [days_before(5)], config=config)[0] == State.ARCHIVED
    assert decide(days_before(11), [days_before(1), days_before(2)], config=config)[0] == (
        State.PROMOTED
    )


# --------------------------------------------------------------------------- decay: properties

moments = st.integers(min_value=-400 * 24, max_value=10 * 24).map(
    lambda h: START + timedelta(hours=h)
)
decay_states = st.sampled_from([State.ACTIVE, State.PROMOTED, State.ARCHIVED])
any_state = st.sampled_from(list(State))


@given(moments, st.lists(moments, max_size=12), any_state, st.booleans())
def test_decay_is_idempotent(created, retrievals, state, by_retention):
    stamp = START - timedelta(days=20) if by_retention else None
    first, _ = decide(created, retrievals, state=state, retention_archived_at=stamp)
    assert decide(created, retrievals, state=first, retention_archived_at=stamp)[0] == first


@given(moments, st.lists(moments, max_size=12), decay_states, st.integers(1, 400))
def test_with_no_new_retrievals_an_archived_reflection_stays_archived_later(
    created, retrievals, state, later_days
):
    seen = [t for t in retrievals if t < END]
    if decide(created, seen, state=state)[0] != State.ARCHIVED:
        return
    later = AS_OF + timedelta(days=later_days)
    assert decide(created, seen, as_of=later, state=State.ARCHIVED)[0] == State.ARCHIVED


@given(moments, st.lists(moments, max_size=12), decay_states)
def test_a_promoted_reflection_never_meets_the_archive_rule(created, retrievals, state):
    decided, _ = decide(created, retrievals, state=state)
    old = created < START - timedelta(days=90)
    idle = not any(END - timedelta(days=30) <= t < END for t in retrievals)
    if decided == State.PROMOTED:
        assert not (old and idle)
    if decided == State.ARCHIVED:
        assert old and idle


@given(
    moments, st.lists(moments, max_size=12), st.sampled_from([State.DEPRECATED, State.QUARANTINED])
)
def test_deprecated_and_quarantined_never_change(created, retrievals, state):
    assert decide(created, retrievals, state=state)[0] == state


# --------------------------------------------------------------------------- retention


def test_retention_keeps_the_newest_30_and_offers_the_rest_as_candidates():
    rows = [(i, days_before(i), State.ACTIVE) for i in range(1, 36)]
    retained, candidates = retention(rows)
    assert retained == list(range(1, 31))
    assert candidates == [31, 32, 33, 34, 35]


def test_retention_skips_deprecated_and_quarantined_reflections():
    rows = [(i, days_before(i), State.ACTIVE) for i in range(1, 33)]
    rows[0] = (1, days_before(1), State.DEPRECATED)
    rows[1] = (2, days_before(2), State.QUARANTINED)
    retained, candidates = retention(rows)
    assert retained == list(range(3, 33))
    assert candidates == []


def test_retention_breaks_ties_on_the_higher_id():
    same = days_before(3)
    assert retention([(1, same, State.ACTIVE), (2, same, State.ARCHIVED)], keep=1) == ([2], [1])


@given(st.lists(st.tuples(moments, any_state), max_size=80), st.integers(0, 40))
def test_retention_partitions_the_non_deprecated_reflections(items, keep):
    rows = [(i, created, state) for i, (created, state) in enumerate(items)]
    retained, candidates = retention(rows, keep=keep)
    kept = {i for i, _, s in rows if s not in (State.DEPRECATED, State.QUARANTINED)}
    assert set(retained) | set(candidates) == kept
    assert not set(retained) & set(candidates)
    assert len(retained) == min(keep, len(kept))


# --------------------------------------------------------------------------- salience


def test_imported_salience_wins():
    assert (
        salience_reference(imported=0.2, created_at=days_before(1), as_of=AS_OF, percentile=0.9)
        == 0.2
    )


def test_salience_is_unknown_before_14_days():
    assert (
        salience_reference(imported=None, created_at=days_before(13), as_of=AS_OF, percentile=0.9)
        is None
    )


def test_salience_is_the_department_percentile_from_14_days():
    assert (
        salience_reference(imported=None, created_at=days_before(14), as_of=AS_OF, percentile=0.75)
        == 0.75
    )


# --------------------------------------------------------------------------- trigger gate


def test_failed_and_partial_tasks_should_have_reflected():
    for outcome in ("failure", "partial"):
        assert should_have_reflected(
            outcome=outcome, confidence_at_start=0.9, prior_reflections_of_type=10
        )


def test_a_confident_success_of_a_familiar_task_type_needs_no_reflection():
    assert not should_have_reflected(
        outcome="success", confidence_at_start=0.6, prior_reflections_of_type=3
    )
    assert not should_have_reflected(
        outcome="success", confidence_at_start=None, prior_reflections_of_type=3
    )


def test_low_start_confidence_or_a_new_task_type_should_have_reflected():
    assert should_have_reflected(
        outcome="success", confidence_at_start=0.59, prior_reflections_of_type=10
    )
    assert should_have_reflected(
        outcome="success", confidence_at_start=0.9, prior_reflections_of_type=2
    )
