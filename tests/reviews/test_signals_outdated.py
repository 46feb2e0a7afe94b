"""The outdated signal (reviews/signals/outdated.py): tools named in any form, a stop in the
task log, a successor for the same work, newer reflections naming it. Pure: facts constructed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from reflections.tool_names import ToolMatcher, key_of
from reviews.selectors.signal_facts import OutdatedFacts, ToolHistory, ToolUse
from reviews.signals.outdated import CUT, score_outdated, successor_for

NOW = datetime(2026, 7, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return NOW - timedelta(days=n)


def history(**tools) -> ToolHistory:
    """tool=(tasks, first day back, last day back[, {task type: tasks}])"""
    uses = {}
    for name, spec in tools.items():
        n, first, last, *types = spec
        name = name.replace("_", "-")
        uses[key_of(name)] = ToolUse(
            name, n, day(first), day(last), key_of(name), types[0] if types else {"triage": n}
        )
    return ToolHistory(uses, ToolMatcher(u.name for u in uses.values()))


def outdated(named, tools, newer=None, *, written=100) -> OutdatedFacts:
    return OutdatedFacts(
        named=[key_of(n) for n in named],
        created_at=day(written),
        until=NOW,
        history=tools,
        named_by_newer=newer or {},
    )


STANDARD = {"ledger_api": (300, 200, 1), "old_export": (90, 200, 80), "new_api": (80, 79, 0)}


def test_a_tool_the_tasks_stopped_using_while_a_successor_took_over_is_outdated():
    signal = score_outdated(outdated(["old-export"], history(**STANDARD), {"new api": (3, 12)}))
    assert signal.flagged
    assert signal.score == 1.0
    assert "`new-api` took over" in signal.reasons[0]
    assert "named by 3 of the 12 reflection(s) written since" in signal.reasons[0]


def test_no_reflection_written_since_is_missing_evidence_not_a_veto():
    signal = score_outdated(outdated(["old-export"], history(**STANDARD), {"new api": (0, 0)}))
    newer = next(p for p in signal.parts if p.name == "named by newer")
    assert newer.value is None
    assert signal.flagged
    assert "no reflection written since" in signal.reasons[0]
    assert any(r.startswith("no evidence for named by newer") for r in signal.reasons)


def test_a_tool_dropped_without_a_successor_is_only_suspicious():
    tools = history(**{k: v for k, v in STANDARD.items() if k != "new_api"})
    signal = score_outdated(outdated(["old-export"], tools))
    assert not signal.flagged
    assert 0.5 <= signal.score < CUT
    assert "no successor appeared in the tasks" in signal.reasons[0]


def test_a_tool_still_in_use_is_not_outdated():
    signal = score_outdated(outdated(["ledger-api"], history(**STANDARD)))
    assert not signal.flagged
    assert signal.score == 0
    assert signal.reasons == ["still in use: `ledger-api`"]


def test_generic_nouns_are_never_tools():
    tools = history(csv=(90, 200, 80), new_api=(80, 79, 0))
    signal = score_outdated(outdated(["csv", "email"], tools))
    assert not signal.flagged
    assert signal.score == 0


def test_a_rarely_used_tool_is_not_silent_just_because_a_week_passed():
    tools = history(quarterly_tool=(4, 300, 30), new_api=(80, 40, 0))
    assert not score_outdated(outdated(["quarterly-tool"], tools)).flagged


def test_a_lesson_written_after_the_switch_that_names_both_tools_knows_of_it():
    # "Since tariffbook was switched off, use tariff-engine": history, not an outdated rule.
    signal = score_outdated(
        outdated(["old-export", "new-api"], history(**STANDARD), {"new api": (3, 12)}, written=10)
    )
    assert not signal.flagged
    assert "written knowing of the switch" in signal.reasons[0]


def test_a_lesson_written_after_the_last_use_scores_lower():
    before = score_outdated(outdated(["old-export"], history(**STANDARD), {"new api": (3, 12)}))
    after = score_outdated(
        outdated(["old-export"], history(**STANDARD), {"new api": (3, 12)}, written=40)
    )
    assert after.score < before.score
    assert "after its last use" in after.reasons[0]


def test_the_successor_is_the_new_tool_used_for_the_same_work():
    # Two tools changed in one month: each successor took over its own task type.
    tools = history(
        luigi=(160, 200, 90, {"etl-backfill": 160}),
        hive_cli=(190, 200, 85, {"schema-migration": 190}),
        trino_cli=(200, 95, 0, {"schema-migration": 200}),
        dagster=(150, 80, 0, {"etl-backfill": 150}),
    )
    assert successor_for(tools.get("luigi"), tools, NOW).name == "dagster"
    assert successor_for(tools.get("hive cli"), tools, NOW).name == "trino-cli"


def test_a_department_without_tools_in_its_task_log_gives_no_evidence_either_way():
    signal = score_outdated(outdated(["old-export"], ToolHistory({}, ToolMatcher([]))))
    assert signal.score == 0
    assert "records no tools" in signal.reasons[-1]
