"""Opening, assigning and closing review cycles (DOMAIN §5)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reflections.models import Reflection, RetrievalEvent
from reflections.services.rollups import refresh_retrieval_rollup
from reviews.models import Decision, ReviewCycle, Verdict
from reviews.policies import (
    QuarterError,
    assign_round_robin,
    effort_seconds,
    previous_quarter,
    review_window,
)
from reviews.selectors.cycles import cycle_report, progress
from reviews.selectors.ranking import top_retrieved, top_retrieved_from_events
from reviews.services.cycles import ReviewError, close_cycle, open_cycle, reassign
from reviews.services.verdicts import decide
from tests.factories import (
    AgentFactory,
    DepartmentFactory,
    ReflectionFactory,
    RetrievalEventFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# 2026Q3 starts on 1 July; its window is the 90 days before: 2 April 00:00 to 1 July 00:00.
IN_WINDOW = datetime(2026, 6, 1, tzinfo=UTC)


def retrieve(reflection, times: int, *, at: datetime = IN_WINDOW):
    for i in range(times):
        RetrievalEventFactory(reflection=reflection, retrieved_at=at + timedelta(minutes=i))
    refresh_retrieval_rollup()  # factories bypass the import that keeps the rollup


@pytest.fixture
def agent(sales):
    return AgentFactory(name="sales-bot", department=sales)


@pytest.fixture
def ben(sales):
    return UserFactory(username="ben", roles=["reviewer"], departments=[sales])


@pytest.fixture
def manager():
    return UserFactory(username="mia", roles=["manager"])


class TestPurePolicies:
    def test_a_quarters_window_is_the_90_days_before_its_first_day(self):
        window = review_window("2026Q3")
        assert window.start == datetime(2026, 4, 2, tzinfo=UTC)
        assert window.end == datetime(2026, 7, 1, tzinfo=UTC)
        assert window.days == 90

    def test_a_cycle_opened_on_another_day_ends_its_window_that_day(self):
        window = review_window("2026Q4", starts_on=date(2026, 11, 22), days=30)
        assert (window.start, window.end) == (
            datetime(2026, 10, 23, tzinfo=UTC),
            datetime(2026, 11, 22, tzinfo=UTC),
        )

    @pytest.mark.parametrize("bad", ["2026Q5", "Q3", "2026-Q3", ""])
    def test_a_malformed_quarter_is_refused_with_its_text(self, bad):
        with pytest.raises(QuarterError, match="2026Q3"):
            review_window(bad)

    def test_the_quarter_before_the_first_is_last_years_fourth(self):
        assert previous_quarter("2026Q1") == "2025Q4"
        assert previous_quarter("2026q3") == "2026Q2"

    def test_round_robin_deals_ranks_like_cards_and_loads_differ_by_at_most_one(self):
        dealt = assign_round_robin(range(1, 8), ["a", "b", "c"])
        assert [dealt[r] for r in range(1, 8)] == ["a", "b", "c", "a", "b", "c", "a"]
        loads = [list(dealt.values()).count(p) for p in "abc"]
        assert max(loads) - min(loads) <= 1

    def test_effort_is_capped_and_unknown_starts_count_nothing(self):
        shown = datetime(2026, 7, 1, 9, tzinfo=UTC)
        assert effort_seconds(shown, shown + timedelta(seconds=95)) == 95
        assert effort_seconds(shown, shown + timedelta(hours=3)) == 15 * 60
        assert effort_seconds(None, shown) == 0
        assert effort_seconds(shown, shown - timedelta(seconds=5)) == 0


class TestOpeningACycle:
    def test_the_snapshot_ranks_by_retrievals_in_the_window_only(self, sales, agent, ana):
        busy, quiet, old = (ReflectionFactory(agent=agent) for _ in range(3))
        retrieve(busy, 3)
        retrieve(quiet, 1)
        retrieve(old, 10, at=datetime(2026, 4, 1, 23, tzinfo=UTC))  # the day before the window
        retrieve(quiet, 5, at=datetime(2026, 7, 1, tzinfo=UTC))  # the cycle's first day: after
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])
        items = list(cycle.items.order_by("rank").values_list("reflection_id", "retrievals"))
        assert items == [(busy.pk, 3), (quiet.pk, 1)]

    def test_deprecated_and_quarantined_reflections_are_not_queued(self, sales, agent, ana):
        kept = ReflectionFactory(agent=agent)
        gone = ReflectionFactory(agent=agent, state="deprecated")
        unsafe = ReflectionFactory(agent=agent, state="quarantined")
        for r in (kept, gone, unsafe):
            retrieve(r, 2)
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])
        assert list(cycle.items.values_list("reflection_id", flat=True)) == [kept.pk]

    def test_ties_go_to_the_more_recently_retrieved_then_the_lower_id(self, sales, agent, ana):
        first, second, third = (ReflectionFactory(agent=agent) for _ in range(3))
        retrieve(first, 2, at=IN_WINDOW)
        retrieve(second, 2, at=IN_WINDOW)
        retrieve(third, 2, at=IN_WINDOW + timedelta(days=1))
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])
        ranked = list(cycle.items.order_by("rank").values_list("reflection_id", flat=True))
        assert ranked == [third.pk, first.pk, second.pk]

    def test_the_snapshot_keeps_the_top_n_and_is_frozen(self, sales, agent, ana):
        reflections = [ReflectionFactory(agent=agent) for _ in range(5)]
        for n, r in enumerate(reflections, start=1):
            retrieve(r, n)
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana], size=3)
        before = list(cycle.items.order_by("rank").values_list("reflection_id", "retrievals"))
        retrieve(reflections[0], 50)  # later retrievals do not reshuffle the queue
        after = list(cycle.items.order_by("rank").values_list("reflection_id", "retrievals"))
        assert before == after == [(reflections[i].pk, i + 1) for i in (4, 3, 2)]

    def test_other_departments_are_not_in_the_snapshot(self, sales, agent, ana):
        other = ReflectionFactory(agent=AgentFactory(department=DepartmentFactory(slug="ops")))
        mine = ReflectionFactory(agent=agent)
        retrieve(other, 9)
        retrieve(mine, 1)
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])
        assert list(cycle.items.values_list("reflection_id", flat=True)) == [mine.pk]

    def test_items_are_dealt_round_robin_among_the_reviewers(self, sales, agent, ana, ben):
        for n in range(5):
            retrieve(ReflectionFactory(agent=agent), 10 - n)
        cycle = open_cycle(department=sales, quarter="2026Q3", reviewers=[ana, ben])
        dealt = list(cycle.items.order_by("rank").values_list("reviewer__username", flat=True))
        assert dealt == ["ana", "ben", "ana", "ben", "ana"]

    def test_the_same_department_and_quarter_cannot_be_opened_twice(self, sales, agent, ana):
        retrieve(ReflectionFactory(agent=agent), 1)
        open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])
        with pytest.raises(ReviewError, match="Sales already has a review cycle for 2026Q3"):
            open_cycle(department=sales, quarter="2026q3", reviewers=[ana])
        assert ReviewCycle.objects.count() == 1

    def test_reviewers_must_hold_the_role_and_belong_to_the_department(self, sales, agent):
        retrieve(ReflectionFactory(agent=agent), 1)
        outsider = UserFactory(username="olga", roles=["reviewer"])
        rater = UserFactory(username="rae", roles=["rater"], departments=[sales])
        with pytest.raises(ReviewError) as refused:
            open_cycle(department=sales, quarter="2026Q3", reviewers=[outsider, rater])
        assert "olga is not a member of Sales" in str(refused.value)
        assert "rae is not a reviewer" in str(refused.value)
        assert not ReviewCycle.objects.exists()

    def test_a_window_without_retrievals_is_refused(self, sales, ana):
        with pytest.raises(ReviewError, match="nothing to review"):
            open_cycle(department=sales, quarter="2026Q3", reviewers=[ana])


class TestTheCommand:
    def test_it_prints_the_snapshot_as_json(self, sales, agent, ana, ben, capsys):
        top, second = ReflectionFactory(agent=agent), ReflectionFactory(agent=agent)
        retrieve(top, 4)
        retrieve(second, 2)
        call_command(
            "open_review_cycle",
            "--department=sales",
            "--quarter=2026Q3",
            "--reviewers=ana,ben",
            "--json",
        )
        printed = json.loads(capsys.readouterr().out)
        assert printed["cycle"]["quarter"] == "2026Q3"
        assert printed["cycle"]["window_start"].startswith("2026-04-02")
        assert [(i["rank"], i["source_path"], i["retrievals"]) for i in printed["items"]] == [
            (1, top.source_path, 4),
            (2, second.source_path, 2),
        ]

    def test_opening_twice_fails_with_a_clear_message(self, sales, agent, ana):
        retrieve(ReflectionFactory(agent=agent), 1)
        args = ["open_review_cycle", "--department=sales", "--quarter=2026Q3", "--reviewers=ana"]
        call_command(*args)
        with pytest.raises(CommandError, match="already has a review cycle for 2026Q3"):
            call_command(*args)

    def test_unknown_reviewers_and_departments_are_named(self, sales):
        with pytest.raises(CommandError, match="no such user: nobody"):
            call_command(
                "open_review_cycle", "--department=sales", "--quarter=2026Q3", "--reviewers=nobody"
            )
        with pytest.raises(CommandError, match="no department 'nope'"):
            call_command(
                "open_review_cycle", "--department=nope", "--quarter=2026Q3", "--reviewers=x"
            )


@pytest.fixture
def cycle(sales, agent, ana, ben):
    for n in range(4):
        retrieve(ReflectionFactory(agent=agent), 10 - n)
    return open_cycle(department=sales, quarter="2026Q3", reviewers=[ana, ben])


class TestReassigning:
    def test_a_manager_moves_items_and_the_move_is_audited(self, cycle, ana, ben, manager):
        moved = reassign(cycle=cycle, ranks=[1, 3], to_reviewer=ben, user=manager)
        assert moved == 2
        assert set(cycle.items.filter(reviewer=ben).values_list("rank", flat=True)) == {1, 2, 3, 4}
        audit = Decision.objects.filter(action="reassign").order_by("item__rank")
        assert [(d.item.rank, d.from_reviewer, d.to_reviewer) for d in audit] == [
            (1, ana, ben),
            (3, ana, ben),
        ]

    def test_an_outsider_cannot_be_given_items(self, cycle, manager):
        outsider = UserFactory(username="olga", roles=["reviewer"])
        with pytest.raises(ReviewError, match="olga is not a member of Sales"):
            reassign(cycle=cycle, ranks=[1], to_reviewer=outsider, user=manager)

    def test_unknown_ranks_are_named(self, cycle, ben, manager):
        with pytest.raises(ReviewError, match="no items ranked 99"):
            reassign(cycle=cycle, ranks=[1, 99], to_reviewer=ben, user=manager)


class TestProgressAndClosing:
    def test_progress_counts_done_left_and_effort_per_reviewer(self, cycle, ana, ben):
        first = cycle.items.get(rank=1)
        shown = datetime.now(UTC) - timedelta(seconds=40)
        decide(item_id=first.pk, user=ana, verdict="keep", version=0, shown_at=shown)
        [summary] = progress([cycle])
        assert (summary.total, summary.done, summary.left) == (4, 1, 3)
        by_name = {r.username: r for r in summary.reviewers}
        assert (by_name["ana"].done, by_name["ana"].left) == (1, 1)
        assert 40 <= by_name["ana"].seconds < 60
        assert by_name["ben"].seconds == 0

    def test_an_incomplete_cycle_closes_only_when_asked_to(self, cycle, manager):
        with pytest.raises(ReviewError, match="4 items still without a verdict"):
            close_cycle(cycle=cycle, user=manager)
        close_cycle(cycle=cycle, user=manager, allow_incomplete=True)
        cycle.refresh_from_db()
        assert cycle.closed_by == manager and not cycle.is_open

    def test_a_closed_cycle_takes_no_more_verdicts(self, cycle, ana, manager):
        close_cycle(cycle=cycle, user=manager, allow_incomplete=True)
        with pytest.raises(ReviewError, match="closed"):
            decide(item_id=cycle.items.get(rank=1).pk, user=ana, verdict="keep", version=0)

    def test_the_report_counts_verdicts_lists_deprecations_and_compares_quarters(
        self, sales, agent, cycle, ana, ben, manager
    ):
        items = {i.rank: i for i in cycle.items.all()}
        decide(item_id=items[1].pk, user=ana, verdict="keep", version=0)
        decide(item_id=items[2].pk, user=ben, verdict="outdated", version=0, note="old API")
        decide(
            item_id=items[3].pk,
            user=ana,
            verdict="duplicate",
            version=0,
            duplicate_of=items[1].reflection_id,
        )
        close_cycle(cycle=cycle, user=manager, allow_incomplete=True)
        retrieve(ReflectionFactory(agent=agent), 3, at=datetime(2026, 9, 1, tzinfo=UTC))
        later = open_cycle(department=sales, quarter="2026Q4", reviewers=[ana])

        report = cycle_report(cycle)
        assert report.counts == {
            "keep": 1,
            "echo_chamber": 0,
            "outdated": 1,
            "duplicate": 1,
            "restored": 0,
            "not_reviewed": 1,
        }
        assert [i.rank for i in report.deprecated] == [2, 3]
        assert report.deprecated[0].note == "old API"
        [dup] = report.duplicates
        assert dup.duplicate_of_id == items[1].reflection_id
        assert report.previous is None

        data = cycle_report(later).as_dict()
        assert data["previous"]["cycle"]["quarter"] == "2026Q3"
        assert data["previous"]["counts"]["outdated"] == 1
        assert data["previous"]["deprecated_share"] == 0.5

    def test_close_command_prints_the_report_as_json(self, cycle, ana, capsys):
        for item in cycle.items.filter(reviewer=ana):
            decide(item_id=item.pk, user=ana, verdict=Verdict.ECHO_CHAMBER, version=0, note="x")
        with pytest.raises(CommandError, match="still without a verdict"):
            call_command("close_review_cycle", f"--cycle={cycle.pk}")
        call_command("close_review_cycle", f"--cycle={cycle.pk}", "--allow-incomplete", "--json")
        printed = json.loads(capsys.readouterr().out)
        assert printed["counts"]["echo_chamber"] == 2
        assert printed["cycle"]["closed_at"] is not None
        assert {d["verdict"] for d in printed["deprecated"]} == {"echo_chamber"}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    events=st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 95), st.sampled_from([0, 1, 3599, 86399])),
        max_size=60,
    ),
    size=st.integers(1, 6),
)
def test_the_rollup_snapshot_ranks_exactly_like_the_raw_events(sales, agent, events, size):
    """Counts from the daily rollup, ties settled by the exact last retrieval: the same ranking
    as reading every event, including ties on count and last day at the cut."""
    RetrievalEvent.objects.all().delete()
    reflections = list(Reflection.objects.filter(department=sales).order_by("id"))
    while len(reflections) < 8:
        reflections.append(ReflectionFactory(agent=agent))
    window = review_window("2026Q3")
    for n, (which, day, second) in enumerate(events):
        RetrievalEventFactory(
            reflection=reflections[which],
            retrieved_at=window.start + timedelta(days=day - 3, seconds=second),
            task_id=f"t-{n}",
        )
    refresh_retrieval_rollup()
    args = {"department": sales, "start": window.start, "end": window.end, "size": size}
    assert top_retrieved(**args) == top_retrieved_from_events(**args)
