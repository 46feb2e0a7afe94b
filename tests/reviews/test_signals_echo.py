"""The echo-chamber signal (reviews/signals/echo.py): a weighted sum of the mechanism's parts,
flagged at its cut, a part without evidence carrying no weight. Pure: facts are constructed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reviews.selectors.echo_facts import EchoFacts, OwnTasks, Restatement, Sureness, WeekSplit
from reviews.signals import echo as echo_module
from reviews.signals.echo import echo_parts, harm_of, score_echo

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return NOW - timedelta(days=n)


SURER = (Sureness("success", 20, 20 * 0.78, 20, 20 * 0.71),)  # fed tasks start 0.07 surer


def own(*blocks: tuple[int, int, int, int], confidence=SURER) -> OwnTasks:
    """The author's tasks of the lesson's kind: (fed, succeeded, unfed, succeeded) for one
    week in each block of four."""
    monday = date(2026, 6, 1)
    return OwnTasks(
        ("lead-qualification",),
        tuple(WeekSplit(monday + timedelta(weeks=4 * i), *b) for i, b in enumerate(blocks)),
        confidence,
    )


def echo(**changes) -> EchoFacts:
    base = {
        "retrievals": 20,
        "self_retrievals": 18,
        "retrieving_agents": 2,
        "retrieving_tasks": 20,
        "lift": -0.3,
        "injected_tasks": 20,
        "later_by_author": 40,
        "restatements": [
            Restatement(2, "b.md", 0.7, day(30), True),
            Restatement(3, "c.md", 0.6, day(10), True),
        ],
        "independent_agents": 0,
        "similar": 2,
        "family_lift": -0.3,
        "family_tasks": 30,
        "family_retrievals": 30,
        "family_self_retrievals": 28,
        # 70 of the author's 100 tasks of its kind were handed it: 21 of them succeeded (30 %),
        # against 18 of the 30 that were not (60 %), in the same two blocks of weeks.
        "own_tasks": own((35, 10, 15, 9), (35, 11, 15, 9)),
    }
    return EchoFacts(**{**base, **changes})


def part(signal, name):
    return next(p for p in signal.parts if p.name == name)


def test_an_echo_chamber_is_flagged_when_every_part_of_the_mechanism_is_there():
    signal = score_echo(echo())
    assert signal.flagged
    assert signal.score >= 0.95
    assert signal.cut == echo_module.CUT
    assert signal.reasons[0].startswith("handed to its author for 70 % of the author's")
    assert signal.reasons[1].startswith("self-retrieval ") and " %" in signal.reasons[1]
    assert signal.reasons[2].startswith("repetition rate 5 %: 2 of the author's 40 later")
    assert any("21 of 70 times" in r and "18 of 30" in r and "-30 pts" in r for r in signal.reasons)
    assert any("+0.07 more confident" in reason for reason in signal.reasons)
    assert [p.name for p in signal.parts] == list(echo_module.WEIGHTS)


def test_the_harm_is_how_sure_the_gap_is_not_only_how_wide():
    # The same 30-point gap, measured on 70 and 30 tasks, then on 7 and 5.
    wide = harm_of(own((35, 10, 15, 9), (35, 11, 15, 9)))
    thin = harm_of(own((7, 2, 5, 3)))
    assert wide == 1.0
    assert 0 < thin < 0.6


def test_harm_seen_on_a_handful_of_fed_tasks_counts_for_its_share_of_a_dozen():
    # Five fed tasks that all failed against 25 of 29 unfed: z far above 2, but five tasks.
    handful = own((5, 0, 29, 25))
    assert harm_of(handful) == pytest.approx(5 / echo_module.HARM_FULL_FED)
    assert harm_of(own((12, 0, 29, 25))) == 1.0
    signal = score_echo(echo(own_tasks=handful))
    assert not signal.flagged
    assert any("(on fewer than 12 fed tasks: counts for 5 of 12)" in r for r in signal.reasons)


def test_fed_tasks_are_compared_with_unfed_ones_of_the_same_weeks_not_the_whole_year():
    # Handed it mostly in early weeks when every task failed more: 17 of 40 fed tasks
    # succeeded against 17 of 23 unfed, but within each four weeks they did the same.
    early = own((30, 9, 3, 1), (10, 8, 20, 16))
    assert early.contrast() == pytest.approx(-0.025)
    signal = score_echo(echo(own_tasks=early))
    assert part(signal, "harm").value < 0.2
    assert not signal.flagged


def test_a_lesson_that_helps_is_not_an_echo_chamber_however_often_it_is_restated():
    helps = own((35, 28, 15, 9), (35, 28, 15, 9))
    signal = score_echo(echo(own_tasks=helps, family_lift=0.05, lift=0.05))
    assert part(signal, "harm").value == 0
    assert not signal.flagged


def test_a_sound_lesson_that_sits_beside_a_flawed_one_is_not_blamed_for_its_harm():
    # Its tasks do badly against the department (the flawed lesson is in the same prompts),
    # but the author's tasks fare the same with it and without it, and it is seldom handed.
    beside = own((10, 4, 40, 16), (5, 2, 45, 18))
    signal = score_echo(echo(own_tasks=beside, family_lift=-0.3))
    assert not signal.flagged
    assert any("+0 pts" in reason for reason in signal.reasons)


def test_confidence_that_did_not_rise_lowers_the_score_without_vetoing_the_flag():
    level = (Sureness("success", 20, 20 * 0.71, 20, 20 * 0.71),)
    flat = score_echo(echo(own_tasks=own((35, 10, 15, 9), (35, 11, 15, 9), confidence=level)))
    surer = score_echo(echo())
    assert part(flat, "surer").value == 0
    assert flat.score < surer.score
    assert flat.flagged  # harmful, dominant, self-retrieved and restated all the same
    assert any("+0.00 more confident" in reason for reason in flat.reasons)


def test_without_logged_confidence_the_part_carries_no_weight_and_does_not_veto():
    signal = score_echo(echo(own_tasks=own((35, 10, 15, 9), (35, 11, 15, 9), confidence=())))
    assert part(signal, "surer").value is None
    assert signal.flagged
    assert signal.score == pytest.approx(1.0)
    assert any("confidence at the start of its tasks not logged" in r for r in signal.reasons)
    assert any(r.startswith("no evidence for surer: carries no weight") for r in signal.reasons)


def test_a_chamber_handed_on_a_fifth_of_its_tasks_is_flagged_when_the_rest_is_strong():
    # The case: fed on 19 % of its tasks, the rest of the mechanism plainly there.
    seldom = own((10, 2, 40, 24), (9, 2, 41, 25))
    signal = score_echo(echo(own_tasks=seldom))
    assert 0.4 < part(signal, "dominance").value < 0.6
    assert signal.flagged


def test_a_lesson_neither_harmful_nor_often_handed_scores_low():
    signal = score_echo(echo(own_tasks=own((5, 3, 45, 27), (5, 3, 45, 27))))
    assert signal.score < 0.4


def test_restatements_written_without_the_lesson_injected_do_not_count():
    later = [Restatement(2, "b.md", 0.7, day(30), False)]
    signal = score_echo(echo(restatements=later))
    assert part(signal, "repeats").value == 0
    assert signal.score < score_echo(echo()).score


def test_an_author_who_wrote_nothing_since_has_no_evidence_of_repeating_it():
    signal = score_echo(echo(restatements=[], later_by_author=0))
    assert part(signal, "repeats").value is None
    assert signal.flagged


def test_a_lesson_mostly_retrieved_by_others_scores_lower():
    others = score_echo(echo(family_self_retrievals=4))
    assert part(others, "self-retrieval").value == 0
    assert others.score < score_echo(echo()).score


def test_independent_support_is_reported():
    signal = score_echo(echo(independent_agents=2))
    assert "2 other agent(s) wrote the same lesson independently" in signal.reasons


def test_a_follower_that_restates_an_earlier_lesson_under_injection_is_flagged():
    # Seldom retrieved itself; the retrievals of it and the lesson it restates are the author's.
    follower = echo(
        restatements=[],
        restates=[Restatement(1, "a.md", 0.7, day(90), True)],
        retrievals=3,
        self_retrievals=1,
    )
    signal = score_echo(follower)
    assert signal.flagged
    assert any("28 of 30 retrievals of it and its restatements" in r for r in signal.reasons)


def test_an_opposite_rule_read_as_a_restatement_does_not_inherit_the_chambers_harm():
    # Its family (it and the flawed lesson it "restates") did badly; handed alone, it did not.
    alone = own((20, 12, 20, 12))
    signal = score_echo(echo(alone_tasks=alone))
    assert part(signal, "harm").value == 0
    assert not signal.flagged


def test_a_follower_whose_own_thin_record_agrees_keeps_the_chambers_harm():
    # Handed alone on 6 tasks (2 succeeded) against 6 unfed (4 succeeded): worse, on too few
    # tasks to be sure; that is no contradiction of the family's record.
    alone = own((6, 2, 6, 4))
    assert harm_of(alone) < 0.6
    signal = score_echo(echo(alone_tasks=alone))
    assert part(signal, "harm").value == 1.0
    assert signal.flagged


def test_too_few_unfed_tasks_to_compare_says_why_and_the_other_parts_decide():
    # Handed on 37 of 40 tasks, the author surer, self-retrieved, restated: no outcome to
    # compare, and no veto either.
    signal = score_echo(echo(own_tasks=own((20, 5, 0, 0), (17, 5, 3, 2))))
    assert part(signal, "harm").value is None
    assert signal.flagged
    assert any("at least 5 of each are needed" in reason for reason in signal.reasons)
    assert any("no evidence for harm" in reason for reason in signal.reasons)


def test_thin_evidence_cannot_reach_the_cut_alone():
    # Only the self-retrieval is known (a new lesson, no tasks of its kind yet): however
    # strong, it is a small share of the weight and the score shrinks with it.
    signal = score_echo(echo(own_tasks=OwnTasks(), restatements=[], later_by_author=0))
    assert [p.name for p in signal.parts if p.known] == ["self-retrieval"]
    assert signal.score < 0.1
    assert not signal.flagged


def test_every_part_is_in_the_unit_interval():
    for facts in (echo(), echo(own_tasks=OwnTasks()), echo(retrievals=0, family_retrievals=0)):
        for p in echo_parts(facts):
            assert p.value is None or 0 <= p.value <= 1
