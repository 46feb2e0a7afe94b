"""Review signals (issue 12): each is a score in [0, 1] with its reasons, scored by pure
functions from constructed facts; the command prints them per item as JSON."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command

from reviews.selectors.echo_facts import EchoFacts, OwnTasks, Restatement, Sureness, WeekSplit
from reviews.selectors.signal_facts import OutdatedFacts, ToolUse, Twin
from reviews.signals.duplicate import CANDIDATE_SIMILARITY, score_duplicate, specifics
from reviews.signals.echo import score_echo
from reviews.signals.outdated import score_outdated
from tests.factories import UserFactory

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return NOW - timedelta(days=n)


# ------------------------------------------------------------------ echo


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
        # against 18 of the 30 that were not (60 %), in the same two weeks.
        "own_tasks": own((35, 10, 15, 9), (35, 11, 15, 9)),
    }
    return EchoFacts(**{**base, **changes})


def test_an_echo_chamber_is_flagged_when_every_part_of_the_mechanism_is_there():
    signal = score_echo(echo())
    assert signal.flagged
    assert 0.9 <= signal.score <= 1
    assert signal.reasons[0].startswith("handed to its author for 70% of the author's")
    assert any("repetition rate 5%" in reason for reason in signal.reasons)
    assert any("21 of 70 times" in r and "18 of 30" in r and "-30 pts" in r for r in signal.reasons)
    assert any("+0.07 more confident" in reason for reason in signal.reasons)
    assert any("no independent support" in reason for reason in signal.reasons)


def test_fed_tasks_are_compared_with_unfed_ones_of_the_same_weeks_not_the_whole_year():
    # Handed it mostly in early weeks when every task failed more: 17 of 40 fed tasks
    # succeeded against 17 of 23 unfed, but within each four weeks they did the same.
    early = own((30, 9, 3, 1), (10, 8, 20, 16))
    assert early.contrast() == pytest.approx(-0.025)
    assert not score_echo(echo(own_tasks=early)).flagged


def test_a_lesson_that_helps_is_not_an_echo_chamber_however_often_it_is_restated():
    helps = own((35, 28, 15, 9), (35, 28, 15, 9))
    signal = score_echo(echo(own_tasks=helps, family_lift=0.05, lift=0.05))
    assert not signal.flagged
    assert signal.score < 0.7


def test_a_sound_lesson_that_sits_beside_a_flawed_one_is_not_blamed_for_its_harm():
    # Its tasks do badly against the department (the flawed lesson is in the same prompts),
    # but the author's tasks fare the same with it and without it, and it is seldom handed.
    beside = own((10, 4, 40, 16), (5, 2, 45, 18))
    signal = score_echo(echo(own_tasks=beside, family_lift=-0.3))
    assert not signal.flagged
    assert any("+0 pts" in reason for reason in signal.reasons)


def test_a_lesson_whose_tasks_fail_without_making_the_author_surer_is_not_flagged():
    # Harmful-looking by chance: the tasks handed it started no more confident than the rest.
    level = (Sureness("success", 20, 20 * 0.71, 20, 20 * 0.71),)
    signal = score_echo(echo(own_tasks=own((35, 10, 15, 9), (35, 11, 15, 9), confidence=level)))
    assert not signal.flagged
    assert any("+0.00 more confident" in reason for reason in signal.reasons)


def test_without_logged_confidence_the_other_parts_decide():
    signal = score_echo(echo(own_tasks=own((35, 10, 15, 9), (35, 11, 15, 9), confidence=())))
    assert signal.flagged
    assert any("confidence at the start of its tasks not logged" in r for r in signal.reasons)


def test_a_harmful_lesson_the_author_seldom_retrieves_is_not_an_echo_chamber():
    seldom = own((10, 2, 40, 24), (10, 2, 40, 24))
    assert not score_echo(echo(own_tasks=seldom)).flagged


def test_restatements_written_without_the_lesson_injected_do_not_count():
    later = [Restatement(2, "b.md", 0.7, day(30), False)]
    assert not score_echo(echo(restatements=later)).flagged


def test_a_lesson_repeated_word_for_word_inside_another_tasks_story_is_a_restatement():
    # TF-IDF puts the two at 0.44: the tasks told around the rule differ.
    verbatim = [Restatement(2, "b.md", 0.44, day(30), True, shared_words=14)]
    assert score_echo(echo(restatements=verbatim)).flagged
    loosely = [Restatement(2, "b.md", 0.44, day(30), True, shared_words=5)]
    assert not score_echo(echo(restatements=loosely)).flagged
    unrelated = [Restatement(2, "b.md", 0.3, day(30), True, shared_words=14)]
    assert not score_echo(echo(restatements=unrelated)).flagged


def test_a_lesson_other_agents_reached_on_their_own_is_not_an_echo_chamber():
    assert not score_echo(echo(independent_agents=2)).flagged


def test_a_lesson_mostly_retrieved_by_others_is_not_an_echo_chamber():
    assert not score_echo(echo(family_self_retrievals=4)).flagged


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


def test_too_few_unfed_tasks_to_compare_says_why():
    signal = score_echo(echo(own_tasks=own((20, 5, 0, 0), (20, 5, 3, 2))))
    assert not signal.flagged
    assert any("at least 5 of each are needed" in reason for reason in signal.reasons)


# ------------------------------------------------------------------ outdated


def history(**tools) -> dict[str, ToolUse]:
    return {
        name: ToolUse(name, n, day(first), day(last)) for name, (n, first, last) in tools.items()
    }


def outdated(named, tools, newer=None) -> OutdatedFacts:
    return OutdatedFacts(named=named, until=NOW, history=tools, named_by_newer=newer or {})


STANDARD = {"ledger-api": (300, 200, 1), "old-export": (90, 200, 80), "new-api": (80, 79, 0)}


def test_a_tool_the_tasks_stopped_using_while_a_successor_took_over_is_outdated():
    signal = score_outdated(outdated(["old-export"], history(**STANDARD), {"new-api": 3}))
    assert signal.flagged
    assert signal.score == 1.0
    assert "`new-api` took over" in signal.reasons[0]
    assert "3 newer reflection(s)" in signal.reasons[0]


def test_a_tool_dropped_without_a_successor_is_only_suspicious():
    tools = history(**{k: v for k, v in STANDARD.items() if k != "new-api"})
    signal = score_outdated(outdated(["old-export"], tools))
    assert not signal.flagged
    assert signal.score == 0.5


def test_a_tool_still_in_use_is_not_outdated():
    signal = score_outdated(outdated(["ledger-api"], history(**STANDARD)))
    assert not signal.flagged
    assert signal.score == 0


def test_generic_nouns_are_never_tools():
    tools = history(csv=(90, 200, 80), **{"new-api": (80, 79, 0)})
    signal = score_outdated(outdated(["csv", "email"], tools))
    assert not signal.flagged
    assert "generic nouns are not tools: csv, email" in signal.reasons


def test_a_rarely_used_tool_is_not_silent_just_because_a_week_passed():
    tools = history(**{"quarterly-tool": (4, 300, 30), "new-api": (80, 40, 0)})
    assert not score_outdated(outdated(["quarterly-tool"], tools)).flagged


# ------------------------------------------------------------------ duplicate


def twin(key, similarity, created, text, state="active", retrievals=10, **more) -> Twin:
    return Twin(key, hash(key) % 1000, state, day(created), retrievals, similarity, text, **more)


CASE = "Atlas Office Supplies sent 19 invoices worth 4,200 EUR on Tuesday"


def test_a_later_rewording_of_the_same_case_is_a_duplicate_of_the_earliest():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}."),
        twin("old.md", 0.62, 100, f"Always check totals: {CASE}."),
    ]
    signal = score_duplicate(cluster)
    assert signal.flagged
    assert signal.keep == "old.md"
    assert f"similarity ≥ {CANDIDATE_SIMILARITY:.2f}" in signal.reasons[1]


def test_the_earliest_of_a_cluster_is_the_one_to_keep_and_is_not_flagged():
    cluster = [
        twin("old.md", 1.0, 100, f"Always check totals: {CASE}."),
        twin("new.md", 0.62, 10, f"Check totals. {CASE}."),
    ]
    signal = score_duplicate(cluster)
    assert not signal.flagged
    assert signal.keep == "old.md"


def test_an_archived_original_is_not_kept_over_a_live_copy():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}."),
        twin("old.md", 0.62, 100, f"Always check totals: {CASE}.", state="archived"),
    ]
    signal = score_duplicate(cluster)
    assert not signal.flagged
    assert signal.keep == "new.md"


def test_the_same_lesson_about_another_case_is_not_a_duplicate():
    cluster = [
        twin("new.md", 1.0, 10, "Check totals. Lumen Dental sent 7 invoices worth 900 USD."),
        twin("old.md", 0.8, 100, f"Always check totals: {CASE}."),
    ]
    assert not score_duplicate(cluster).flagged


def test_the_same_lesson_after_a_task_on_another_day_is_not_a_duplicate_even_word_for_word():
    cluster = [
        twin("new.md", 1.0, 10, "Check totals. I reconciled the ledger on 14 March."),
        twin("old.md", 0.95, 100, "Always check totals: I reconciled the ledger on 2 March."),
    ]
    signal = score_duplicate(cluster)
    assert not signal.flagged
    assert "never two different days" in signal.reasons[0]


def test_a_rewording_that_keeps_the_day_is_a_duplicate():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE} on 2 March."),
        twin("old.md", 0.62, 100, f"Always check totals: {CASE} on 2 March."),
    ]
    assert score_duplicate(cluster).flagged


def test_a_retelling_in_another_format_with_its_own_story_around_the_case_is_a_duplicate():
    # The case's names and figures sit inside the longer text, which adds who was waiting.
    cluster = [
        twin("new.json", 1.0, 10, f"Totals: {CASE} on 2 March; Nordlicht Media also waited."),
        twin("old.md", 0.55, 100, f"Always check totals: {CASE} on 2 March."),
    ]
    signal = score_duplicate(cluster)
    assert signal.flagged
    assert "names/figures shared (100%)" in signal.reasons[2]


def test_a_failures_lesson_and_a_successs_lesson_about_one_case_are_not_duplicates():
    cluster = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}.", kind="success"),
        twin("old.md", 0.7, 100, f"I forgot the totals. {CASE}.", kind="failure"),
    ]
    assert not score_duplicate(cluster).flagged
    partial = [cluster[0], twin("old.md", 0.7, 100, f"Check totals. {CASE}.", kind="partial")]
    assert not score_duplicate(partial).flagged
    both_failed = [
        twin("new.md", 1.0, 10, f"Check totals. {CASE}.", kind="partial"),
        twin("old.md", 0.7, 100, f"I forgot the totals. {CASE}.", kind="failure"),
    ]
    assert score_duplicate(both_failed).flagged


def test_two_passes_at_one_task_are_one_lesson_only_when_nearly_word_for_word():
    first = twin("loop/001.json", 0.7, 100, f"Retry with totals. {CASE}.", task="T-1")
    second = twin("loop/002.json", 1.0, 99, f"Check the sender. {CASE}.", task="T-1")
    assert not score_duplicate([second, first]).flagged
    again = twin("loop/001.json", 0.93, 100, f"Check the sender! {CASE}.", task="T-1")
    assert score_duplicate([second, again]).flagged


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


# ------------------------------------------------------------------ the command


@pytest.mark.django_db
def test_the_command_prints_every_item_with_three_scored_signals(tmp_path):
    from demo.workspace import write_workspace
    from reflections.models import Department
    from reviews.services.cycles import open_cycle

    write_workspace(tmp_path, scale="small")
    quiet = io.StringIO()
    call_command("import_reflections", str(tmp_path), "--create-departments", stdout=quiet)
    call_command("import_events", str(tmp_path / "logs"), stdout=quiet)
    call_command("compute_neighbours", stdout=quiet)
    department = Department.objects.get(slug="finance")
    reviewer = UserFactory(roles=["reviewer"], departments=[department])
    cycle = open_cycle(
        department=department, quarter="2026Q1", reviewers=[reviewer],
        starts_on=datetime(2026, 1, 20).date(),
    )  # fmt: skip
    out = io.StringIO()
    call_command("review_signals", "--cycle", str(cycle.pk), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["cycle"] == cycle.pk
    assert len(data["items"]) == cycle.items.count() > 0
    for item in data["items"]:
        assert item["source_path"]
        for name in ("echo", "outdated", "duplicate"):
            assert 0 <= item[name]["score"] <= 1
            assert isinstance(item[name]["flagged"], bool)
            assert item[name]["reasons"] and all(isinstance(r, str) for r in item[name]["reasons"])
        assert item["duplicate"]["keep"]
