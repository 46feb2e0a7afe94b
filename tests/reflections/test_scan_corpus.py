"""The scanner against the corpora in tests/fixtures/scan_corpus, through the importer's own
parser: detection and masking per category, false positives on clean look-alikes.

dev-a, dev-b, dev-c and round3 are the corpora the rules were written against (dev-c and
round3 were held out until their first measurement); heldout was measured once after the last
change to the rules and has never been tuned on: its floor only guards against regressions.
"""

from __future__ import annotations

import pytest

from tests.scan_corpus import UNSAFE_CATEGORIES, Report, evaluate, load, redaction_problem

DEV = ("dev-a", "dev-b", "dev-c", "round3")
# What the issue asks of our corpus: share of unsafe records detected and fully masked.
TARGET = {"secret": 0.95, "infrastructure": 0.95, "injection": 0.95, "personal": 0.90}
# The held-out corpus as first measured (bench/scan_corpus.py prints it): a floor, not a goal.
HELDOUT_FLOOR = {"secret": 0.92, "infrastructure": 0.84, "injection": 0.79, "personal": 0.75}


@pytest.fixture(scope="module")
def dev() -> Report:
    combined = Report()
    for corpus in DEV:
        report = evaluate(corpus)
        combined.total += report.total
        combined.detected += report.detected
        combined.hidden += report.hidden
        combined.clean += report.clean
        combined.false_positives += report.false_positives
    return combined


@pytest.mark.parametrize("category", UNSAFE_CATEGORIES)
def test_our_corpus_is_detected_and_masked_in_every_category(dev, category):
    hidden = dev.hidden[category] / dev.total[category]
    assert hidden >= TARGET[category], (
        f"{category}: {dev.hidden[category]}/{dev.total[category]} detected and fully masked"
    )


def test_our_clean_look_alikes_raise_at_most_one_false_positive_in_thirty(dev):
    assert len(dev.false_positives) * 30 <= dev.clean, [o.record["id"] for o in dev.false_positives]


def test_the_held_out_corpus_does_not_fall_below_its_first_measurement():
    report = evaluate("heldout")
    for category in UNSAFE_CATEGORIES:
        assert report.rate(category) >= HELDOUT_FLOOR[category], category
    assert len(report.false_positives) <= 10


@pytest.mark.parametrize(
    "corpus",
    (*DEV, "heldout"),
)
def test_a_flagged_reflections_masked_text_can_be_submitted_as_its_redaction(corpus):
    """The masked text keeps its format (JSON stays JSON, front matter stays YAML) and passes
    the strict rule, so an admin edits what is left rather than repairing syntax."""
    problems = {r["id"]: p for r in load(corpus, "unsafe") if (p := redaction_problem(r))}
    assert not problems
