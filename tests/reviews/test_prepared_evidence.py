"""Evidence prepared when a cycle opens (issue 14): on the small demo, what is stored equals
what the selectors compute fresh, a late import inside the window makes it stale and the item
recomputes, a verdict does not, the queue reads it in fewer queries, and the background task
that opening queues is run by the worker."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from demo.workspace import write_workspace
from reflections.caching import EVENTS, MEMORY, WINDOWS, bump_data_version, data_version
from reflections.models import Department
from reflections.services.event_import import import_events
from reflections.services.neighbours import refresh_neighbours
from reflections.services.reflection_import import import_reflections
from reflections.similarity import diff_words
from reviews.models import PreparedEvidence, ReviewCycle, ReviewItem
from reviews.selectors.evidence import display_text, item_evidence, neighbour_candidates
from reviews.selectors.originals import guard_warnings_of, window_figures
from reviews.services.bulk import bulk_verdict
from reviews.services.cycles import open_cycle
from reviews.services.evidence import (
    decode,
    evidence_version,
    prepare_cycle,
    prepared_figures,
    window_evidence,
)
from reviews.services.verdicts import decide
from reviews.signals import duplicate_signal, item_signals
from tests.factories import UserFactory
from tests.pages import client_for

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 2, 1, tzinfo=UTC)  # the small demo's history ends in January 2026


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small-prepared")
    write_workspace(root, scale="small")
    return root


def load(small: Path) -> None:
    import_reflections(paths=[small], create_departments=True, now=NOW)
    import_events(paths=[small / "logs"], create_departments=True, now=NOW)
    refresh_neighbours()


@pytest.fixture
def delivery(small):
    load(small)
    return Department.objects.get(slug="delivery")


@pytest.fixture
def reviewer(delivery):
    return UserFactory(username="rita", roles=["reviewer"], departments=[delivery])


@pytest.fixture
def cycle(delivery, reviewer):
    return open_cycle(department=delivery, quarter="2026Q1", reviewers=[reviewer])


def items_of(cycle) -> list[ReviewItem]:
    return list(cycle.items.select_related("cycle", "reflection").order_by("rank"))


def stored(item: ReviewItem):
    return decode(PreparedEvidence.objects.get(item=item).data)


def test_stored_evidence_equals_the_evidence_computed_fresh(cycle):
    items = items_of(cycle)

    assert prepare_cycle(cycle) == len(items) > 10

    for item in items:
        kept, fresh = stored(item), item_evidence(item)
        signals = item_signals(item)
        assert kept.series == fresh.series
        assert kept.lift == fresh.lift
        assert kept.retrievers == fresh.retrievers
        assert kept.echo == signals.echo
        assert kept.outdated == signals.outdated
        shown = fresh.duplicates
        assert kept.facts == window_figures(
            cycle, [item.reflection_id, *(c.reflection.pk for c in shown)]
        )
        # Each shown neighbour's diff, for the very texts it was made of.
        assert set(kept.diffs) == {c.reflection.pk for c in shown}
        for candidate in neighbour_candidates(item, kept.diffs):
            own, theirs = display_text(item.reflection), display_text(candidate.reflection)
            assert (candidate.item_segments, candidate.segments) == diff_words(own, theirs)
    # Real figures, not empty ones: retrievals, lifts with enough tasks, agents, reasons.
    prepared = [stored(item) for item in items]
    assert all(p.series.total > 0 for p in prepared)
    assert any(p.lift.lift is not None for p in prepared)
    assert any(len(p.retrievers.agents) > 1 for p in prepared)
    assert all(p.echo.reasons and p.outdated.reasons for p in prepared)


def test_preparing_a_cycle_takes_the_same_queries_for_the_panels_however_many_items(cycle):
    items = items_of(cycle)
    with CaptureQueriesContext(connection) as one:
        prepare_cycle(cycle.__class__.objects.get(pk=cycle.pk), stale_only=False)
    panels = [q for q in one.captured_queries if "reflections_retrievalday" in q["sql"]]
    # The weekly series of every item and the guard's window retrievals of every item and
    # neighbour: one query each for the whole cycle.
    assert len(panels) == 2
    assert len(items) > 10


def late_retrieval(small: Path, tmp_path: Path, item: ReviewItem, at: datetime) -> Path:
    """A retrieval log line for the item's reflection, imported after the cycle opened."""
    agent = item.reflection.agent
    log = tmp_path / "late.jsonl"
    log.write_text(
        json.dumps(
            {
                "reflection": item.reflection.source_path,
                "retrieved_at": at.isoformat().replace("+00:00", "Z"),
                "task_id": "late-task-1",
                "agent": agent.name,
                "department": agent.department.slug,
                "rank": 1,
                "score": 0.5,
            }
        )
        + "\n"
    )
    return log


def test_a_late_import_inside_the_window_makes_the_item_recompute(cycle, small, tmp_path):
    prepare_cycle(cycle)
    item = items_of(cycle)[0]
    before = window_evidence(item)
    version = evidence_version()
    inside = cycle.window_end - timedelta(days=3)

    import_events(paths=[late_retrieval(small, tmp_path, item, inside)], now=NOW)

    assert evidence_version() != version
    after = window_evidence(item)
    assert after.series.total == before.series.total + 1
    assert after.retrievers.total == before.retrievers.total + 1
    assert after == window_evidence(item)  # now stored again under the new version
    assert PreparedEvidence.objects.get(item=item).version == evidence_version()
    assert after.series == item_evidence(item).series


def test_a_verdict_leaves_the_prepared_evidence_current(cycle, reviewer):
    prepare_cycle(cycle)
    version = data_version(EVENTS)
    item = items_of(cycle)[0]

    decide(item_id=item.pk, user=reviewer, verdict="outdated", version=item.version)

    assert data_version(EVENTS) == version
    assert PreparedEvidence.objects.filter(version=evidence_version()).count() == len(
        items_of(cycle)
    )


def test_a_releases_migrate_leaves_the_prepared_evidence_current_but_not_the_cached_figures(
    cycle,
):
    """Every release runs migrate: cached figures may come from older code and go, but the
    prepared evidence names its code's version already (at 100,000 reflections, each item
    computed again took 1.1 s on its first view after a release)."""
    prepare_cycle(cycle)
    figures = data_version(EVENTS), data_version(MEMORY)

    call_command("migrate", verbosity=0)

    assert data_version(EVENTS) != figures[0] and data_version(MEMORY) != figures[1]
    assert PreparedEvidence.objects.filter(version=evidence_version()).count() == len(
        items_of(cycle)
    )


def test_what_moves_the_events_moves_the_past_windows_too(cycle):
    windows = data_version(WINDOWS)

    bump_data_version(EVENTS)

    assert data_version(WINDOWS) != windows


def item_url(cycle, rank: int, name: str = "reviews:item") -> str:
    return reverse(name, kwargs={"pk": cycle.pk, "rank": rank})


def page_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


def test_the_queue_reads_prepared_evidence_in_fewer_queries(
    cycle, reviewer, django_assert_max_num_queries
):
    client = client_for(reviewer)
    first, second = items_of(cycle)[:2]
    client.get(item_url(cycle, first.rank))  # the session and the role cache
    PreparedEvidence.objects.all().delete()

    computed = page_queries(client, item_url(cycle, second.rank))  # computes and stores it
    assert PreparedEvidence.objects.filter(item=second).exists()
    with django_assert_max_num_queries(computed - 8):
        assert client.get(item_url(cycle, second.rank)).status_code == 200


def test_a_queue_step_computes_no_figure_and_no_diff_once_prepared(cycle, reviewer, monkeypatch):
    prepare_cycle(cycle)
    client = client_for(reviewer)
    item = next(i for i in items_of(cycle) if len(stored(i).diffs) > 1)
    client.get(item_url(cycle, 1))  # the session and the role cache

    def computed(*args, **kwargs):
        raise AssertionError("computed live")

    monkeypatch.setattr("reviews.selectors.evidence.diff_words", computed)
    monkeypatch.setattr("reviews.selectors.originals.window_figures", computed)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(item_url(cycle, item.rank))
    assert page.status_code == 200
    assert not [q for q in ctx.captured_queries if "reflexion_cache" in q["sql"]]
    assert page.context["top_facts"] is not None


def test_the_figures_prepared_with_the_items_are_their_window_figures(cycle):
    prepare_cycle(cycle)
    ids = [item.reflection_id for item in items_of(cycle)]

    figures = prepared_figures(cycle, ids)

    assert figures.keys() >= set(ids)  # and the neighbours the items show
    assert figures == window_figures(cycle, sorted(figures))
    bump_data_version(WINDOWS)  # a late import: stale rows give nothing
    assert prepared_figures(cycle, ids) == {}


def test_a_bulk_duplicate_of_prepared_items_recounts_no_window_figure(
    cycle, reviewer, monkeypatch
):
    prepare_cycle(cycle)
    original, *marked = items_of(cycle)[:6]
    ids = [original.reflection_id, *(item.reflection_id for item in marked)]
    prepared = prepared_figures(cycle, ids)
    asked = guard_warnings_of(marked, original.reflection)
    assert guard_warnings_of(marked, original.reflection, prepared=prepared) == asked
    cache.clear()  # nor from the cache those calls filled

    def counted(*args, **kwargs):
        raise AssertionError("window figures counted again")

    monkeypatch.setattr("reviews.selectors.originals.window_figures", counted)
    bulk_verdict(
        cycle=cycle, user=reviewer, ranks=[i.rank for i in marked], action="duplicate",
        duplicate_of=original.reflection_id, confirmed=True,
    )  # fmt: skip
    assert {i.verdict for i in cycle.items.filter(pk__in=[i.pk for i in marked])} == {"duplicate"}


def test_a_neighbour_whose_text_changed_is_diffed_again(cycle):
    prepare_cycle(cycle)
    item = next(i for i in items_of(cycle) if stored(i).diffs)
    prepared = stored(item).diffs
    neighbour = neighbour_candidates(item, prepared)[0].reflection
    neighbour.body = neighbour.body + " Also: page the on-call lead first."
    neighbour.save(update_fields=["body"])

    again = next(c for c in neighbour_candidates(item, prepared) if c.reflection == neighbour)
    own, theirs = display_text(item.reflection), display_text(neighbour)
    assert prepared[neighbour.pk].segments(own, theirs) is None
    assert (again.item_segments, again.segments) == diff_words(own, theirs)
    assert any("page the on-call lead" in s.text for s in again.segments if s.changed)


def test_the_duplicate_signal_from_the_shown_neighbours_equals_the_one_read_alone(cycle):
    for item in items_of(cycle):
        shown = neighbour_candidates(item)
        assert duplicate_signal(item, shown) == duplicate_signal(item)


def test_fetching_the_next_item_in_the_background_prepares_its_evidence(cycle, reviewer):
    client = client_for(reviewer)
    first, second = items_of(cycle)[:2]
    assert second.reviewer_id == reviewer.pk
    PreparedEvidence.objects.all().delete()

    page = client.get(item_url(cycle, first.rank)).content.decode()
    assert f'data-url="{item_url(cycle, second.rank)}"' in page
    response = client.get(
        item_url(cycle, second.rank), headers={"HX-Request": "true", "X-Queue-Prefetch": "1"}
    )

    assert response.status_code == 200
    assert PreparedEvidence.objects.filter(item=second, version=evidence_version()).exists()


def test_reviewers_of_other_departments_cannot_read_an_item(cycle, small):
    outsider = UserFactory(roles=["reviewer"], departments=[Department.objects.get(slug="finance")])
    rank = items_of(cycle)[0].rank

    assert client_for(outsider).get(item_url(cycle, rank)).status_code == 404
    assert client_for(UserFactory(roles=["rater"])).get(item_url(cycle, rank)).status_code in (
        403,
        404,
    )


def test_opening_a_cycle_queues_the_preparation(cycle):
    (queued,) = DBTaskResult.objects.filter(task_path="reviews.tasks.prepare_cycle_evidence")
    assert queued.status == "READY"
    assert not PreparedEvidence.objects.exists()  # opening itself stays fast


def test_the_command_prepares_a_named_cycle_and_says_how_many(cycle):
    out = io.StringIO()
    call_command("prepare_evidence", "--cycle", str(cycle.pk), stdout=out)

    assert f"evidence of {cycle.items.count()} items prepared" in out.getvalue()
    assert PreparedEvidence.objects.count() == cycle.items.count()
    with pytest.raises(CommandError, match="no review cycle"):
        call_command("prepare_evidence", "--cycle", "999999")
    with pytest.raises(CommandError, match="--cycle ID"):
        call_command("prepare_evidence")


# The worker closes database connections between tasks: the test cannot sit in a transaction.
@pytest.mark.django_db(transaction=True)
def test_the_worker_runs_the_queued_preparation(cycle):
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    (done,) = DBTaskResult.objects.filter(task_path="reviews.tasks.prepare_cycle_evidence")
    assert done.status == "SUCCESSFUL"
    assert PreparedEvidence.objects.filter(version=evidence_version()).count() == (
        cycle.items.count()
    )


@pytest.mark.django_db(transaction=True)
def test_the_worker_leaves_a_cycle_closed_before_it_got_there(cycle):
    ReviewCycle.objects.filter(pk=cycle.pk).update(closed_at=timezone.now())

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    (done,) = DBTaskResult.objects.filter(task_path="reviews.tasks.prepare_cycle_evidence")
    assert done.status == "SUCCESSFUL"
    assert done.return_value == {"cycle": cycle.pk, "status": "closed"}
    assert not PreparedEvidence.objects.exists()
