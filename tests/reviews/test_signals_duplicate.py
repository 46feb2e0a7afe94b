"""The duplicate signal (reviews/signals/duplicate.py): each neighbour scored as a pair (how
alike, the same case, the same task type), the best pair against the cut, the one to keep
never flagged. Pure: the clusters are constructed, scored on the default backend's scale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from reflections.similarity.backends import LatentBackend
from reviews.selectors.signal_facts import Twin
from reviews.signals.duplicate import CUT, score_duplicate, specifics

NOW = datetime(2026, 7, 1, tzinfo=UTC)
SCALE = LatentBackend().calibration


def day(n: int) -> datetime:
    return NOW - timedelta(days=n)


def twin(key, similarity, created, text, state="active", retrievals=10, **more) -> Twin:
    return Twin(key, hash(key) % 1000, state, day(created), retrievals, similarity, text, **more)


CASE = "Atlas Office Supplies sent 19 invoices worth 4,200 EUR on Tuesday"


def test_a_later_rewording_of_the_same_case_is_a_duplicate_of_the_earliest():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}.", task_type="invoicing"),
        twin("old.md", 0.92, 100, f"Always check totals: {CASE}.", task_type="invoicing"),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert signal.flagged
    assert signal.score >= CUT
    assert signal.keep == "old.md"
    assert signal.reasons[0].startswith("keep old.md")
    assert "same case 1.00" in signal.reasons[1]


def test_the_earliest_of_a_cluster_is_the_one_to_keep_and_is_not_flagged():
    cluster = [
        twin("old.md", 1.0, 100, f"Always check totals: {CASE}."),
        twin("new.md", 0.92, 10, f"Check totals. {CASE}."),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert not signal.flagged
    assert signal.keep == "old.md"
    assert signal.reasons[0] == "this is the one to keep (earliest live, most retrieved)"


def test_an_archived_original_is_not_kept_over_a_live_copy():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}."),
        twin("old.md", 0.92, 100, f"Always check totals: {CASE}.", state="archived"),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert not signal.flagged
    assert signal.keep == "new.md"


def test_the_same_lesson_in_other_words_with_no_case_named_is_judged_on_its_likeness():
    # No names, figures or dates on either side: "same case" is missing, not a veto.
    cluster = [
        twin("new.md", 1.0, 10, "Cut a long history load into daily slices.", task_type="etl"),
        twin("old.md", 0.9, 100, "Schedule one backfill job per calendar day.", task_type="etl"),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert next(p for p in signal.parts if p.name == "same case").value is None
    assert signal.flagged


def test_a_loose_likeness_is_not_enough():
    cluster = [
        twin("new.md", 1.0, 10, "Cut a long history load into daily slices.", task_type="etl"),
        twin("old.md", 0.45, 100, "Check row counts before the swap.", task_type="etl"),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert not signal.flagged
    assert signal.reasons[0].startswith("no neighbour carries the same lesson: closest: old.md")


def test_another_task_type_counts_against():
    same = twin("old.md", 0.85, 100, "Cut a long load into daily slices.", task_type="etl")
    other = twin("old.md", 0.85, 100, "Cut a long load into daily slices.", task_type="billing")
    new = twin("new.md", 1.0, 10, "Slice a long load by day.", task_type="etl")
    assert score_duplicate([new, other], SCALE).score < score_duplicate([new, same], SCALE).score


def test_the_same_lesson_about_another_case_scores_lower_than_the_same_case():
    other_case = "Check totals. Lumen Dental sent 7 invoices worth 900 USD."
    new = twin("new.md", 1.0, 10, other_case)
    assert (
        score_duplicate(
            [new, twin("old.md", 0.85, 100, f"Always check totals: {CASE}.")], SCALE
        ).score
        < score_duplicate(
            [twin("new.md", 1.0, 10, f"Check: {CASE}."), twin("old.md", 0.85, 100, CASE)], SCALE
        ).score
    )


def test_the_same_lesson_after_a_task_on_another_day_is_not_a_duplicate_even_word_for_word():
    cluster = [
        twin("new.md", 1.0, 10, "Check totals. I reconciled the ledger on 14 March."),
        twin("old.md", 0.99, 100, "Always check totals: I reconciled the ledger on 2 March."),
    ]
    signal = score_duplicate(cluster, SCALE)
    assert not signal.flagged
    assert "1 left out (dated on other days" in signal.reasons[0]


def test_a_rewording_that_keeps_the_day_is_a_duplicate():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE} on 2 March."),
        twin("old.md", 0.88, 100, f"Always check totals: {CASE} on 2 March."),
    ]
    assert score_duplicate(cluster, SCALE).flagged


def test_a_failures_lesson_and_a_successs_lesson_can_be_one_lesson():
    # The demo's rule that they never are was retired: real duplicates are told after either.
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}.", kind="success"),
        twin("old.md", 0.92, 100, f"I forgot the totals. {CASE}.", kind="failure"),
    ]
    assert score_duplicate(cluster, SCALE).flagged


RETRY = "retry the upload once the ledger export has finished and the totals are in."
ASK = "ask the sender which currency its invoices were written in before matching them."


def test_two_passes_at_one_task_are_one_lesson_only_when_they_share_most_of_their_terms():
    # The same case by construction, so only the lesson's own words can tell them apart.
    first = twin("loop/001.json", 0.89, 100, f"Atlas Office Supplies: {RETRY}", task="T-1")
    second = twin("loop/002.json", 1.0, 99, f"Atlas Office Supplies: {ASK}", task="T-1")
    assert not score_duplicate([second, first], SCALE).flagged
    again = twin("loop/001.json", 0.5, 100, f"Atlas Office Supplies: {ASK} Then match.", task="T-1")
    assert score_duplicate([second, again], SCALE).flagged


def test_a_date_is_one_specific_and_a_weekday_alone_is_none():
    assert specifics("Closed the books on 3 December, a Monday, for Alder Systems.") == {
        "3 December",
        "Alder Systems",
    }


def test_specifics_are_figures_and_names_not_sentence_openers():
    assert specifics("Always call Atlas Office Supplies. Then wait 3 days.") == {
        "Atlas Office Supplies",
        "3",
    }


def test_a_single_digit_both_texts_name_is_no_evidence_either_way():
    # An ALFWorld agent's lessons name "countertop 1" and "plate 2": nothing strong to share,
    # so the case part carries no weight and the text decides (before, 0 capped the pair).
    later = "I forgot to clean the plate 2 before putting it on countertop 1. Clean it first."
    earlier = "I put the plate 2 on countertop 1 without cleaning it. Go to sinkbasin 1 first."
    signal = score_duplicate(
        [
            twin("env_2/2", 1.0, 10, later, task_type="alfworld"),
            twin("env_2/1", SCALE.alike_full, 100, earlier, task_type="alfworld"),
        ],
        SCALE,
    )
    assert signal.flagged
    assert "same case unknown" in signal.reasons[1]


def test_a_strong_specific_only_one_text_names_still_says_they_are_two_cases():
    later = "Check totals before sending, as Lumen Dental sent 7 invoices."
    earlier = "Check totals before sending the 3 invoices."
    signal = score_duplicate(
        [twin("new.md", 1.0, 10, later), twin("old.md", SCALE.alike_full, 100, earlier)], SCALE
    )
    assert signal.parts[1].value == 0.0
