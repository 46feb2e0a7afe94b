"""The demo's review cycles on the small demo: past quarters replayed at their own dates (so
review markers spread over the year), this quarter's left open for the demo reviewer."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from demo.reviews import PAST_REVIEWER, quarter_moment
from insights.selectors.learning import review_markers
from reflections.models import ACTIVE_SET_STATES, Reflection, ReflectionHistory, State
from reflections.selectors.dates import week_start
from reflections.selectors.health import active_set_by_week, active_set_by_week_replayed
from reviews.models import Decision, ReviewCycle
from reviews.policies import quarter_start
from tests.demo.commands import run

pytestmark = pytest.mark.django_db


def quarter_of(moment: datetime) -> str:
    return f"{moment.year}Q{(moment.month - 1) // 3 + 1}"


def test_past_cycles_are_closed_inside_their_quarters(small):
    run("import_reflections", str(small), "--create-departments")
    run("import_events", str(small / "logs"), "--create-departments")
    run("create_demo_users", "--password", "demo-pass-1")
    said = run("seed_demo_reviews", "--workspace", str(small))

    # The small demo has delivery and finance, and history up to January 2026: the delivery
    # cycle of 2026Q1 is replayed; later quarters had nothing retrieved before them.
    closed = list(ReviewCycle.objects.filter(closed_at__isnull=False))
    assert [(c.department.slug, c.quarter) for c in closed] == [("delivery", "2026Q1")]
    cycle = closed[0]
    assert "Closed demo cycle delivery 2026Q1 on 2026-01-29" in said
    assert cycle.opened_at == quarter_moment("2026Q1", 2)
    assert cycle.closed_at == quarter_moment("2026Q1", 28)
    assert [r.username for r in cycle.reviewers.all()] == [PAST_REVIEWER]
    # Every verdict and every state change it made is dated inside the quarter, in order.
    decided = sorted(cycle.items.values_list("decided_at", flat=True))
    assert len(decided) == cycle.items.count() > 0
    assert all(quarter_of(at) == "2026Q1" for at in decided)
    assert cycle.opened_at < decided[0] <= decided[-1] < cycle.closed_at
    decisions = Decision.objects.filter(item__cycle=cycle)
    assert {quarter_of(at) for at in decisions.values_list("at", flat=True)} == {"2026Q1"}
    changes = ReflectionHistory.objects.filter(reason__startswith="review 2026Q1")
    assert changes.exists()
    assert {quarter_of(at) for at in changes.values_list("at", flat=True)} == {"2026Q1"}

    # The learning curves' markers fall in that quarter, not on the day the demo was built.
    markers = review_markers(
        since=datetime(2025, 11, 1, tzinfo=UTC), until=datetime(2026, 12, 1, tzinfo=UTC),
        department_ids=None,
    )  # fmt: skip
    # (dated by ISO week: 1 January 2026 is in the week of Monday 29 December)
    assert markers and all(m.week >= week_start(quarter_start("2026Q1")) for m in markers)
    assert all(m.week < quarter_start("2026Q2") for m in markers)

    # This quarter's finance cycle would wait for the demo reviewer; the small demo's history
    # ends long before it, which the command says instead of failing.
    assert not ReviewCycle.objects.filter(closed_at__isnull=True).exists()
    assert "No demo cycle for finance 2026Q4: Finance has no retrieved reflections" in said

    # The past reviewer cannot sign in; running again changes nothing.
    assert not get_user_model().objects.get(username=PAST_REVIEWER).has_usable_password()
    run("seed_demo_reviews", "--workspace", str(small))
    assert ReviewCycle.objects.count() == 1


def test_the_demo_seeds_past_verdicts_before_it_replays_a_year_of_decay():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    past = makefile.index("seed_demo_reviews --workspace $(DEMO_DIR) --past-only")
    assert past < makefile.index("apply_policies --backfill-from")


def test_the_demo_history_agrees_with_the_reflections_states(small):
    """The active set replayed from the history (Memory health) is the active set counted from
    the states (the overview): past verdicts are dated before the decay that follows them."""
    run("import_reflections", str(small), "--create-departments")
    run("import_events", str(small / "logs"), "--create-departments")
    said = run("seed_demo_reviews", "--workspace", str(small), "--past-only")
    assert "Closed demo cycle delivery 2026Q1" in said
    run("apply_policies", "--backfill-from=2025-12-01", "--as-of=2026-03-31", "--every=7")
    run("create_demo_users", "--password", "demo-pass-1")
    run("seed_demo_reviews", "--workspace", str(small))

    assert Reflection.objects.filter(state=State.DEPRECATED).exists()
    later = datetime(2027, 1, 4, tzinfo=UTC)
    counted = Reflection.objects.filter(state__in=ACTIVE_SET_STATES).count()
    assert active_set_by_week([later], None) == [counted]
    assert active_set_by_week_replayed([later], None) == [counted]
