"""Restoring a deprecated reflection with a note (DOMAIN §5): who may, what it returns to, the
audit it leaves, the command, and write-back taking the deprecation out of the file."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command

from reflections.models import Reflection, ReflectionHistory, State
from reviews.models import Decision
from reviews.selectors.cycles import cycle_report
from reviews.selectors.export import deprecation_rows
from reviews.services.cycles import Conflict, ReviewError, close_cycle
from reviews.services.restore import restore_reflection
from reviews.services.verdicts import decide, undo
from reviews.services.writeback import write_back
from tests.factories import DepartmentFactory, UserFactory
from tests.reviews.test_verdicts import make_cycle
from tests.reviews.writeback_support import (
    FRONTMATTER,
    NOW,
    import_ws,
    reflection_at,
    reviewed,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def deprecated_in_a_closed_cycle():
    """The archived item #2 marked outdated, then its cycle closed."""
    cycle, ana = make_cycle()
    archived = cycle.items.select_related("reflection").get(rank=2)
    assert archived.reflection.state == State.ARCHIVED
    decide(item_id=archived.pk, user=ana, verdict="outdated", version=0, note="tool gone")
    close_cycle(cycle=cycle, user=None, allow_incomplete=True)
    return archived, ana


def state_of(reflection):
    r = Reflection.objects.get(pk=reflection.pk)
    return r.state, r.deprecated_reason


def test_a_reviewer_restores_a_reflection_deprecated_in_a_closed_cycle(
    deprecated_in_a_closed_cycle,
):
    item, ana = deprecated_in_a_closed_cycle
    restore_reflection(reflection_id=item.reflection_id, user=ana, note="the tool is back")

    # Back to the state it had before the verdict, not merely active.
    assert state_of(item.reflection) == ("archived", "")
    row = ReflectionHistory.objects.filter(reflection_id=item.reflection_id).last()
    assert (row.from_state, row.to_state, row.actor) == ("deprecated", "archived", ana)
    assert row.reason == "restored (deprecated in review 2026Q3) — the tool is back"
    decision = Decision.objects.filter(item=item).last()
    assert (decision.action, decision.note, decision.to_state) == (
        "restore",
        "the tool is back",
        "archived",
    )
    # The verdict of the closed cycle stays as it was decided.
    item.refresh_from_db()
    assert item.verdict == "outdated"


def test_an_admin_may_restore_any_department(deprecated_in_a_closed_cycle):
    item, _ = deprecated_in_a_closed_cycle
    admin = UserFactory(username="root", roles=["admin"])
    restore_reflection(reflection_id=item.reflection_id, user=admin, note="mistake")
    assert state_of(item.reflection)[0] == "archived"


@pytest.mark.parametrize(
    "who",
    ["a reviewer of another department", "a rater of the department", "a manager"],
)
def test_nobody_else_may_restore_and_learns_nothing_of_it(deprecated_in_a_closed_cycle, who):
    item, _ = deprecated_in_a_closed_cycle
    sales = item.cycle.department
    person = {
        "a reviewer of another department": lambda: UserFactory(
            roles=["reviewer"], departments=[DepartmentFactory(slug="fin")]
        ),
        "a rater of the department": lambda: UserFactory(roles=["rater"], departments=[sales]),
        "a manager": lambda: UserFactory(roles=["manager"]),
    }[who]()
    with pytest.raises(ReviewError, match="that you may restore"):
        restore_reflection(reflection_id=item.reflection_id, user=person, note="why not")
    assert state_of(item.reflection) == ("deprecated", "outdated")


def test_the_note_is_required(deprecated_in_a_closed_cycle):
    item, ana = deprecated_in_a_closed_cycle
    with pytest.raises(ReviewError, match="note is required"):
        restore_reflection(reflection_id=item.reflection_id, user=ana, note="  ")
    assert state_of(item.reflection)[0] == "deprecated"


def test_only_a_deprecated_reflection_can_be_restored(deprecated_in_a_closed_cycle):
    item, ana = deprecated_in_a_closed_cycle
    live = item.cycle.items.get(rank=1)
    with pytest.raises(ReviewError, match="not deprecated: nothing to restore"):
        restore_reflection(reflection_id=live.reflection_id, user=ana, note="x")


def test_the_command_restores_with_a_note(deprecated_in_a_closed_cycle, capsys):
    item, _ = deprecated_in_a_closed_cycle
    call_command(
        "restore_reflection", "--id", str(item.reflection_id), "--note", "back", "--user", "ana"
    )
    assert "now archived" in capsys.readouterr().out
    assert state_of(item.reflection)[0] == "archived"


def test_the_command_refuses_clearly(deprecated_in_a_closed_cycle):
    item, _ = deprecated_in_a_closed_cycle
    with pytest.raises(CommandError, match="no active user 'nobody'"):
        call_command(
            "restore_reflection", "--id", str(item.reflection_id), "--note", "x", "--user", "nobody"
        )
    with pytest.raises(CommandError, match="no reflection 999999"):
        call_command("restore_reflection", "--id", "999999", "--note", "x", "--user", "ana")


@pytest.mark.parametrize("one_cycle", [False, True], ids=["all", "its-cycle"])
def test_write_back_takes_a_restored_deprecation_out_of_its_file(workspace, one_cycle):
    import_ws(workspace)
    original = (workspace / FRONTMATTER).read_bytes()
    item = reviewed(reflection_at(FRONTMATTER), "outdated")
    write_back(root=workspace, now=NOW - timedelta(hours=1))
    assert (workspace / FRONTMATTER).read_bytes() != original
    close_cycle(cycle=item.cycle, user=None, allow_incomplete=True)

    admin = UserFactory(username="root", roles=["admin"])
    restore_reflection(reflection_id=item.reflection_id, user=admin, note="still true")
    report = write_back(root=workspace, now=NOW, cycle=item.cycle if one_cycle else None)

    assert report.paths("restored") == [FRONTMATTER]
    assert (workspace / FRONTMATTER).read_bytes() == original
    assert reflection_at(FRONTMATTER).state == State.ACTIVE


def test_a_restored_reflection_leaves_the_deprecation_export(deprecated_in_a_closed_cycle):
    item, ana = deprecated_in_a_closed_cycle
    assert [row["verdict"] for row in deprecation_rows()] == ["outdated"]
    restore_reflection(reflection_id=item.reflection_id, user=ana, note="back")
    assert deprecation_rows() == []


def test_restored_in_an_open_cycle_the_verdict_has_nothing_left_to_undo_but_can_be_replaced():
    cycle, ana = make_cycle()
    it = cycle.items.get(rank=2)  # archived before the review
    decide(item_id=it.pk, user=ana, verdict="echo_chamber", version=0)
    restore_reflection(reflection_id=it.reflection_id, user=ana, note="not an echo")
    assert state_of(it.reflection) == ("archived", "")

    # The restore already put the reflection back; an open tab's undo is stale, a fresh one is
    # refused with the reason.
    with pytest.raises(Conflict):
        undo(item_id=it.pk, user=ana, version=1)
    with pytest.raises(ReviewError, match="was restored by ana"):
        undo(item_id=it.pk, user=ana, version=2)

    # A new verdict replaces the restored one, and the item is no longer counted as restored.
    decide(item_id=it.pk, user=ana, verdict="keep", version=2)
    it.refresh_from_db()
    assert (it.verdict, it.is_restored, it.restore_note) == ("keep", False, "")
    assert state_of(it.reflection) == ("archived", "")
    actions = list(Decision.objects.filter(item=it).values_list("action", flat=True))
    assert actions == ["verdict", "restore", "verdict"]


def test_the_item_is_marked_restored_by_whom_and_why(deprecated_in_a_closed_cycle):
    item, ana = deprecated_in_a_closed_cycle
    restore_reflection(reflection_id=item.reflection_id, user=ana, note="the tool is back")
    item.refresh_from_db()
    assert item.is_restored
    assert (item.restored_by, item.restore_note) == (ana, "the tool is back")
    assert item.verdict == "outdated"  # as it was decided


def test_the_report_counts_a_restored_item_as_restored_not_deprecated():
    cycle, ana = make_cycle()
    first, second = cycle.items.get(rank=1), cycle.items.get(rank=2)
    decide(item_id=first.pk, user=ana, verdict="echo_chamber", version=0)
    decide(item_id=second.pk, user=ana, verdict="outdated", version=0)
    restore_reflection(reflection_id=first.reflection_id, user=ana, note="not an echo")

    report = cycle_report(cycle)
    assert report.counts == {
        "keep": 0,
        "echo_chamber": 0,
        "outdated": 1,
        "duplicate": 0,
        "restored": 1,
        "not_reviewed": 1,
    }
    assert [i.rank for i in report.deprecated] == [2]
    assert [i.rank for i in report.restored] == [1]
    assert report.deprecated_share == pytest.approx(1 / 3)
    # The export lists what the report calls deprecated, and nothing else.
    rows = deprecation_rows(cycle=cycle)
    assert [r["source_path"] for r in rows] == [second.reflection.source_path]
    restored_row = report.as_dict()["restored"][0]
    assert (restored_row["verdict"], restored_row["restored_by"]) == ("echo_chamber", "ana")
