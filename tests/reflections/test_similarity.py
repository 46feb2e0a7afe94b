"""Nearest neighbours by blocked products (here over the word TF-IDF baseline's vectors) and
word diffs: pure functions, no database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reflections.similarity import (
    DiffSegment,
    diff_words,
    document_text,
    longest_shared_run,
)
from reflections.similarity import nearest_neighbours as nearest
from reflections.similarity.backends import WordBackend

DEFAULT_THRESHOLD = WordBackend().calibration.floor


def nearest_neighbours(docs, *, k=8, threshold=DEFAULT_THRESHOLD):
    """The word baseline's neighbours of (id, text) pairs, as the neighbour service finds them."""
    texts = [text for _, text in docs]
    vectors = WordBackend().fit(texts)(texts)
    return nearest([doc_id for doc_id, _ in docs], vectors, k=k, threshold=threshold)


LEDGER = (
    "Reconcile the ledger before closing the month. The transfer between accounts was "
    "booked twice, so the balance was off; check pending transfers before reconciling."
)
LEDGER_REWORDED = (
    "Reconcile the ledger before closing the month. The transfer between accounts was "
    "recorded twice, so the balance was wrong; check pending transfers before reconciling."
)
LEDGER_LOOSE = (
    "Reconcile the ledger before closing the quarter, after the auditors sent their notes "
    "about unmatched supplier invoices and missing receipts."
)
CALENDAR = (
    "When a prospect proposes a meeting time, confirm their time zone in the invitation "
    "so the call does not land at dawn for the attendees abroad."
)
ONBOARDING = (
    "New hires need laptop accounts created two days ahead; ask facilities for desks and "
    "badges in the same request to avoid a second round trip."
)


def ids(similars) -> list[int]:
    return [s.id for s in similars]


def test_identical_texts_have_similarity_one():
    result = nearest_neighbours([(1, LEDGER), (2, LEDGER), (3, CALENDAR)])

    assert ids(result[1]) == [2]
    assert result[1][0].similarity == 1.0


def test_unrelated_texts_fall_below_the_threshold():
    result = nearest_neighbours([(1, LEDGER), (2, CALENDAR), (3, ONBOARDING)])

    assert result == {1: [], 2: [], 3: []}
    # ...though they are compared: with no threshold they are neighbours, just far ones.
    loose = nearest_neighbours([(1, LEDGER), (2, CALENDAR), (3, ONBOARDING)], threshold=0.0)
    assert all(s.similarity < DEFAULT_THRESHOLD for s in loose[1])


def test_neighbours_come_most_similar_first_and_stop_at_k():
    docs = [(1, LEDGER), (2, LEDGER_LOOSE), (3, LEDGER_REWORDED), (4, LEDGER), (5, CALENDAR)]

    result = nearest_neighbours(docs, threshold=0.0)
    top2 = nearest_neighbours(docs, k=2, threshold=0.0)

    assert ids(result[1]) == [4, 3, 2, 5]
    similarities = [s.similarity for s in result[1]]
    assert similarities == sorted(similarities, reverse=True)
    # Its own top 2, then those that have it in *their* top 2 (symmetric storage).
    assert ids(top2[1])[:2] == [4, 3]
    for other in ids(top2[1])[2:]:
        assert 1 in ids(top2[other])[:2]
    assert 5 not in ids(nearest_neighbours(docs, k=2)[1])  # the calendar is unrelated


def test_neighbours_are_symmetric_with_equal_similarity():
    docs = [(10, LEDGER), (20, LEDGER_LOOSE), (30, LEDGER_REWORDED), (40, CALENDAR)]

    result = nearest_neighbours(docs, k=1, threshold=0.0)

    pairs = {(a, s.id): s.similarity for a, similars in result.items() for s in similars}
    assert pairs  # something to be symmetric about
    for (a, b), similarity in pairs.items():
        assert pairs[(b, a)] == similarity
    # k=1, yet 20's best match (the ledger) also lists 20, which picked it.
    assert 20 in ids(result[10]) or 20 in ids(result[30])


def test_a_document_is_never_its_own_neighbour():
    result = nearest_neighbours([(1, LEDGER), (2, LEDGER_REWORDED)], threshold=0.0)

    assert ids(result[1]) == [2]
    assert ids(result[2]) == [1]


def test_too_few_or_empty_documents_have_no_neighbours():
    assert nearest_neighbours([(1, LEDGER)]) == {1: []}
    assert nearest_neighbours([(1, "the and of"), (2, "of the")]) == {1: [], 2: []}


def test_chunked_computation_matches_one_chunk(monkeypatch):
    docs = [(i, text) for i, text in enumerate([LEDGER, LEDGER_LOOSE, LEDGER_REWORDED] * 3)]
    whole = nearest_neighbours(docs, threshold=0.0)

    monkeypatch.setattr("reflections.similarity.nearest.BLOCK_CELLS", 10)  # a row per block

    assert nearest_neighbours(docs, threshold=0.0) == whole


def test_document_text_leaves_out_headings():
    sections = [
        {"heading": "What happened?", "body": "The ledger did not balance."},
        {"heading": "Strategy", "body": "Check transfers first."},
    ]

    text = document_text(title="Ledger", sections=sections, body="ignored")

    assert text == "Ledger\n\nThe ledger did not balance.\n\nCheck transfers first."
    assert document_text(title="Ledger", sections=[], body="Body") == "Ledger\n\nBody"


def test_diff_marks_the_changed_words_on_both_sides():
    a, b = diff_words("check the open transfers first", "check the pending transfers first")

    assert a == [
        DiffSegment("check the ", False),
        DiffSegment("open ", True),
        DiffSegment("transfers first", False),
    ]
    assert b == [
        DiffSegment("check the ", False),
        DiffSegment("pending ", True),
        DiffSegment("transfers first", False),
    ]


def test_diff_of_an_insertion_marks_only_the_longer_side():
    a, b = diff_words("book the slot", "book the slot today")

    assert a == [DiffSegment("book the slot", False)]
    assert b == [DiffSegment("book the slot ", False), DiffSegment("today", True)]


def test_diff_ignores_reflowed_whitespace():
    a, b = diff_words("check the\ntransfers", "check  the transfers")

    assert not any(s.changed for s in a + b)


words = st.lists(st.sampled_from(["ledger", "the", "transfer", "balance", "Check", "."]))


@given(words, words, st.sampled_from([" ", "\n", "  "]))
def test_diff_segments_join_back_into_each_text(left, right, sep):
    a, b = sep.join(left), " ".join(right)

    segments_a, segments_b = diff_words(a, b)

    assert "".join(s.text for s in segments_a) == a
    assert "".join(s.text for s in segments_b) == b
    # Equal runs are the same words in the same order on both sides.
    assert [w for s in segments_a if not s.changed for w in s.text.split()] == [
        w for s in segments_b if not s.changed for w in s.text.split()
    ]


def test_the_longest_shared_run_counts_words_in_a_row_whatever_case_and_punctuation():
    seed = "When an email thread has more than five recipients, reply to all by default."
    follower = "I applied the rule I rely on: when an email thread has more than five recipients!"
    assert longest_shared_run(seed, follower) == 9
    assert longest_shared_run(seed, "Reply all, by default.") == 3  # "all by default"
    assert longest_shared_run("", seed) == 0
