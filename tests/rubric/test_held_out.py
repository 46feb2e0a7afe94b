"""The held-out plan: scored on unseen gold, a third revealed at most, ten kept for a retry."""

from __future__ import annotations

import random

import pytest

from rubric.held_out import MIN_SCORED, NoFairRetry, plan_attempt, revealed_by

SET = list(range(1, 31))


def test_a_first_attempt_is_scored_on_every_item_and_reveals_a_third():
    plan = plan_attempt(SET, set(), rng=random.Random(1))
    assert plan.scored == SET
    assert len(plan.revealed) == 10 and len(plan.held_out) == 20
    assert set(plan.revealed) | set(plan.held_out) == set(SET)


def test_retries_go_on_forever_on_the_last_ten_unseen_items():
    seen: set[int] = set()
    sizes = []
    for n in range(6):
        plan = plan_attempt(SET, seen, rng=random.Random(n))
        assert not seen & set(plan.scored)  # never scored on gold already shown
        sizes.append((len(plan.scored), len(plan.revealed)))
        seen |= revealed_by(plan.scored, plan.held_out, SET)
    assert sizes == [(30, 10), (20, 10), (10, 0), (10, 0), (10, 0), (10, 0)]


def test_attempts_from_before_hold_outs_revealed_everything():
    assert revealed_by([], [], SET) == set(SET)


def test_no_fair_retry_when_too_little_gold_is_unseen():
    with pytest.raises(NoFairRetry, match=f"at least {MIN_SCORED} you have not seen"):
        plan_attempt(SET, set(SET[:25]))


def test_a_small_set_is_scored_whole_and_reveals_nothing_it_needs():
    plan = plan_attempt([1, 2, 3, 4], set(), rng=random.Random(3))
    assert plan.scored == [1, 2, 3, 4] and plan.revealed == []
