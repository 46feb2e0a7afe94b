"""What the cycle page says under each signal's cut about its flag on other authors' memory."""

from __future__ import annotations

from reviews.signals import HELD_OUT, NAMES
from reviews.signals.base import HeldOut, RealReading


def test_a_flag_that_held_says_how_often_it_was_right_and_what_it_found():
    said = HeldOut(corpora=3, right=51, wrong=7, missed=17).sentence()
    assert said == (
        "On 3 corpora written by other people, with no weight or cut fitted on them, it flagged "
        "58 items, 51 rightly (88 %), and found 51 of the 68 planted (75 %)."
    )


def test_a_flag_that_found_little_tells_the_reviewer_to_look_for_themselves():
    said = HeldOut(corpora=3, right=0, wrong=1, missed=63).sentence()
    assert "it flagged 1 item, wrongly, and found 0 of the 63 planted (0 %)." in said
    assert said.endswith("A missing flag says little here: read the item's neighbours yourself.")


def test_a_score_that_orders_well_where_its_cut_misses_tells_the_reviewer_to_sort_by_it():
    said = HeldOut(corpora=5, right=69, wrong=9, missed=50, ranks_from=0.95).sentence()
    assert said.endswith(
        "found 69 of the 119 planted (58 %). Its score orders them better than its cut finds "
        "them (on each corpus a planted item scored above one not planted 95 times in 100 or "
        "more): sort the queue by this score and read the items just under the cut."
    )
    assert "sort the queue" not in HeldOut(corpora=5, right=69, wrong=9, missed=50).sentence()
    found_most = HeldOut(corpora=3, right=34, wrong=0, missed=2, ranks_from=0.99).sentence()
    assert "sort the queue" not in found_most  # 94 % found: the cut is the reading


def test_the_echo_signal_tells_reviewers_to_sort_by_its_score():
    assert "sort the queue by this score" in HELD_OUT["echo"].sentence()


def test_a_flag_never_wrong_says_so_without_a_share():
    said = HeldOut(corpora=3, right=34, wrong=0, missed=0).sentence()
    assert "it flagged 34 items, all rightly, and found 34 of the 34 planted (100 %)." in said


def test_a_flag_that_never_fired_says_so():
    said = HeldOut(corpora=1, right=0, wrong=0, missed=5).sentence()
    assert "it flagged nothing, and found 0 of the 5 planted (0 %)." in said


def test_every_signal_carries_its_figures_and_they_are_counts_of_something():
    assert set(HELD_OUT) == set(NAMES)
    for figures in HELD_OUT.values():
        assert figures.corpora >= 1
        assert figures.right + figures.missed > 0  # something was planted


def test_real_memory_follows_the_planted_figures_with_what_its_readers_marked():
    real = RealReading(memory="a real run", flagged=19, right=18, marked=73, why="read on")
    said = HeldOut(corpora=3, right=0, wrong=1, missed=63, real=real).sentence()
    assert said.endswith(
        "read the item's neighbours yourself. On a real run, where two independent readers "
        "marked 73 items, it flagged 19 items, 18 rightly, and found 18 of the 73; read on."
    )
    nothing = RealReading(memory="a real run", flagged=0, right=0, marked=5, why="read on")
    assert "it flagged 0 items, and found 0 of the 5" in nothing.sentence()


def test_the_duplicate_signal_tells_what_its_flags_were_worth_on_real_reflexion_runs():
    real = HELD_OUT["duplicate"].real
    assert real is not None and "Reflexion" in real.memory
    assert real.right <= real.flagged and real.right <= real.marked
