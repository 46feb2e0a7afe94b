"""Per-reflection injection counters equal a recount of the injections."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from reflections.models import (
    Reflection,
)
from reflections.tasks import run_daily_policies
from tests.factories import (
    ReflectionFactory,
    TaskInjectionFactory,
)
from tests.reflections.rollups.support import (
    FINANCE,
    SALES,
    import_tasks,
    injected,
    injections,
    injections_of,
    injections_recount,
    write_tasks,
)

pytestmark = pytest.mark.django_db


def test_imported_injections_are_counted_per_reflection(workspace):
    write_tasks(
        workspace,
        injected("t1", FINANCE, SALES),
        injected("t2", FINANCE),
        injected("t3", outcome="failure"),
    )

    import_tasks(workspace)

    assert (injections_of(FINANCE), injections_of(SALES)) == (2, 1)
    assert injections() == injections_recount()


def test_reimporting_the_same_tasks_leaves_the_injection_counts_as_they_were(workspace):
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)
    before = injections()

    again = import_tasks(workspace)

    assert again.created == again.updated == 0
    assert injections() == before == injections_recount()


# A year's task log is a dozen chunks: the counters move once per file, by the sum of what the
# chunks noted, and come out as if the file were one chunk.
@pytest.mark.parametrize("chunk_rows", [200_000, 1], ids=["one chunk", "a chunk a task"])
def test_new_and_changed_tasks_move_their_injections(workspace, monkeypatch, chunk_rows):
    monkeypatch.setattr("reflections.services.task_import.EVENT_CHUNK_ROWS", chunk_rows)
    write_tasks(workspace, injected("t1", FINANCE, SALES), injected("t2", FINANCE))
    import_tasks(workspace)
    # t1 changed (its outcome) and now injects only SALES; t2 is as it was but names another
    # reflection too; t3 is new.
    write_tasks(
        workspace,
        injected("t1", SALES, outcome="failure"),
        injected("t2", FINANCE, SALES),
        injected("t3", FINANCE, SALES),
    )

    summary = import_tasks(workspace)

    assert (summary.details["tasks"]["created"], summary.details["tasks"]["updated"]) == (1, 1)
    assert injections() == injections_recount()
    assert (injections_of(FINANCE), injections_of(SALES)) == (2, 3)


def test_injections_saved_one_at_a_time_are_counted():
    reflection = ReflectionFactory()
    TaskInjectionFactory(reflection=reflection)
    TaskInjectionFactory(reflection=reflection)

    assert injections()[reflection.pk] == 2 == injections_recount()[reflection.pk]


def test_the_refresh_command_and_the_daily_run_recount_injections():
    busy, quiet = ReflectionFactory(), ReflectionFactory()
    for _ in range(3):
        TaskInjectionFactory(reflection=busy)
    expected = injections_recount()
    assert (expected[busy.pk], expected[quiet.pk]) == (3, 0)

    def drift():
        # Written behind the services' back: a restore, a raw SQL fix, a task deleted with its
        # injections.
        Reflection.objects.update(injection_count=5)

    drift()
    call_command("refresh_rollup", "--since", "2026-05-02")
    assert injections()[busy.pk] == 5  # a recount from a day on leaves all-time counts alone
    call_command("refresh_rollup")
    assert injections() == expected

    drift()
    run_daily_policies.call(as_of="2026-11-21", reschedule=False)
    assert injections() == expected
