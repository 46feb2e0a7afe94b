"""Applying the memory policies to the database: set-based, idempotent, explained in history."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reflections.models import Reflection, ReflectionHistory, State
from reflections.policies import PolicyConfig, decay_state
from reflections.services.decay import apply_decay, decay_decisions
from reflections.services.policy_runs import (
    BackfillError,
    apply_policies,
    apply_salience,
    archive_retention_candidates,
    backfill_policies,
    retention_candidates,
)
from reflections.services.rollups import refresh_retrieval_rollup
from tests.factories import AgentFactory, ReflectionFactory, RetrievalEventFactory

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 6, 1)
START = datetime(2026, 6, 1, tzinfo=UTC)
END = START + timedelta(days=1)


def days_before(n: float) -> datetime:
    return START - timedelta(days=n)


def retrieve(reflection, *moments: datetime) -> None:
    for moment in moments:
        RetrievalEventFactory(reflection=reflection, retrieved_at=moment)
    # Decay counts from the daily rollup, which imports keep; factories write events only.
    refresh_retrieval_rollup()


def state_of(reflection) -> str:
    return Reflection.objects.values_list("state", flat=True).get(pk=reflection.pk)


# --------------------------------------------------------------------------- decay


def test_an_old_idle_reflection_is_archived_with_its_reason_in_history():
    old = ReflectionFactory(created_at=days_before(150))
    retrieve(old, days_before(60))

    changes = apply_decay(as_of=AS_OF)

    assert [(c.source_path, c.from_state, c.to_state) for c in changes] == [
        (old.source_path, "active", "archived")
    ]
    assert state_of(old) == State.ARCHIVED
    entry = ReflectionHistory.objects.get(reflection=old)
    assert (entry.change, entry.actor_label, entry.from_state, entry.to_state) == (
        "state",
        "policy:decay",
        "active",
        "archived",
    )
    assert entry.reason == "archived: created 2026-01-02 (>90 d), last retrieved 2026-04-02 (>30 d)"


def test_the_exact_boundaries_hold_in_the_database_too():
    exactly_90 = ReflectionFactory(created_at=days_before(90))
    over_90 = ReflectionFactory(created_at=days_before(90) - timedelta(microseconds=1))
    kept_by_29 = ReflectionFactory(created_at=days_before(200))
    retrieve(kept_by_29, days_before(29))
    lost_at_30 = ReflectionFactory(created_at=days_before(200))
    retrieve(lost_at_30, days_before(29) - timedelta(microseconds=1))
    recent_6 = ReflectionFactory(created_at=days_before(40))
    retrieve(recent_6, days_before(6), *(days_before(n) for n in (10, 11, 12, 13)))
    recent_7 = ReflectionFactory(created_at=days_before(40))
    retrieve(
        recent_7,
        days_before(6) - timedelta(microseconds=1),
        *(days_before(n) for n in (10, 11, 12, 13)),
    )

    apply_decay(as_of=AS_OF)

    assert state_of(exactly_90) == State.ACTIVE
    assert state_of(over_90) == State.ARCHIVED
    assert state_of(kept_by_29) == State.ACTIVE
    assert state_of(lost_at_30) == State.ARCHIVED
    assert state_of(recent_6) == State.PROMOTED
    assert state_of(recent_7) == State.ACTIVE


def test_a_reflection_retrieved_again_after_archiving_becomes_active():
    reflection = ReflectionFactory(created_at=days_before(150))
    apply_decay(as_of=AS_OF - timedelta(days=10))
    assert state_of(reflection) == State.ARCHIVED

    retrieve(reflection, days_before(2))
    changes = apply_decay(as_of=AS_OF)

    assert [(c.from_state, c.to_state) for c in changes] == [("archived", "active")]
    assert state_of(reflection) == State.ACTIVE
    assert list(
        ReflectionHistory.objects.filter(reflection=reflection).values_list("to_state", flat=True)
    ) == ["archived", "active"]


def test_a_deprecated_reflection_stays_deprecated_when_decay_runs():
    deprecated = ReflectionFactory(created_at=days_before(150), state=State.DEPRECATED)
    busy = ReflectionFactory(created_at=days_before(40), state=State.DEPRECATED)
    retrieve(busy, *(days_before(n) for n in range(6)))

    assert apply_decay(as_of=AS_OF) == []
    assert state_of(deprecated) == State.DEPRECATED
    assert state_of(busy) == State.DEPRECATED
    assert not ReflectionHistory.objects.exists()


def test_a_quarantined_reflection_stays_quarantined_when_decay_runs():
    quarantined = ReflectionFactory(created_at=days_before(150), state=State.QUARANTINED)
    apply_decay(as_of=AS_OF)
    assert state_of(quarantined) == State.QUARANTINED


def test_retrievals_after_as_of_do_not_count():
    reflection = ReflectionFactory(created_at=days_before(150))
    retrieve(reflection, END, END + timedelta(days=1))
    apply_decay(as_of=AS_OF)
    assert state_of(reflection) == State.ARCHIVED


def test_a_dry_run_lists_the_changes_and_writes_nothing():
    reflection = ReflectionFactory(created_at=days_before(150))
    changes = apply_decay(as_of=AS_OF, dry_run=True)
    assert [c.to_state for c in changes] == ["archived"]
    assert state_of(reflection) == State.ACTIVE
    assert not ReflectionHistory.objects.exists()


def test_decay_changes_nothing_the_second_time():
    ReflectionFactory(created_at=days_before(150))
    promoted = ReflectionFactory(created_at=days_before(20))
    retrieve(promoted, *(days_before(n) for n in range(5)))
    assert len(apply_decay(as_of=AS_OF)) == 2
    assert apply_decay(as_of=AS_OF) == []
    assert ReflectionHistory.objects.count() == 2


def test_decay_writes_in_a_constant_number_of_queries():
    def run() -> int:
        with CaptureQueriesContext(connection) as queries:
            apply_decay(as_of=AS_OF)
        return len(queries)

    ReflectionFactory.create_batch(3, created_at=days_before(150))
    few = run()
    ReflectionFactory.create_batch(40, created_at=days_before(150))
    assert run() == few


def test_the_decay_sql_decides_exactly_what_the_policy_function_decides():
    rng = random.Random(20260601)
    config = PolicyConfig()
    retrievals: dict[int, list[datetime]] = {}
    for n in range(120):
        # Dates cluster on the boundaries (90/30/7 days) so off-by-one errors show up.
        created = days_before(rng.choice([0, 5, 13, 14, 40, 89, 90, 91, 120, 400]))
        created -= timedelta(hours=rng.choice([-1, 0, 1, 12]))
        reflection = ReflectionFactory(
            created_at=created,
            state=rng.choice([State.ACTIVE] * 4 + [State.ARCHIVED, State.PROMOTED]),
            retention_archived_at=END - timedelta(days=20) if n % 13 == 0 else None,
        )
        moments = sorted(
            days_before(rng.choice([-3, 0, 1, 6, 7, 8, 20, 29, 30, 31, 60]))
            - timedelta(minutes=rng.choice([-1, 0, 1]))
            for _ in range(rng.choice([0, 0, 1, 3, 5, 6, 9]))
        )
        moments = sorted(set(moments))
        retrieve(reflection, *moments)
        retrievals[reflection.pk] = moments
    ReflectionFactory(state=State.DEPRECATED)

    decisions = decay_decisions(as_of=AS_OF, config=config)

    assert len(decisions) == 120
    for d in decisions:
        reflection = Reflection.objects.get(pk=d.reflection_id)
        seen = [t for t in retrievals[d.reflection_id] if t < END]
        expected, _ = decay_state(
            created_at=reflection.created_at,
            last_retrieved_before_as_of=max(seen, default=None),
            retrievals_in_window=sum(t >= END - timedelta(days=30) for t in seen),
            as_of=AS_OF,
            current_state=reflection.state,
            retention_archived_at=reflection.retention_archived_at,
            config=config,
        )
        assert d.to_state == expected, reflection.source_path
    assert {d.to_state for d in decisions} >= {State.ACTIVE, State.PROMOTED, State.ARCHIVED}


# --------------------------------------------------------------------------- retention


@pytest.fixture
def agent_with_33():
    agent = AgentFactory(name="ledger-bot")
    reflections = [
        ReflectionFactory(agent=agent, created_at=days_before(40 - n)) for n in range(33)
    ]
    return agent, reflections[::-1]  # newest first


def test_retention_candidates_are_each_agents_reflections_beyond_the_newest_30(agent_with_33):
    agent, newest_first = agent_with_33
    ReflectionFactory(agent=agent, created_at=days_before(1), state=State.DEPRECATED)
    other = ReflectionFactory(created_at=days_before(3))

    result = retention_candidates(as_of=AS_OF)

    assert result[agent.pk].retained == [r.pk for r in newest_first[:30]]
    assert result[agent.pk].candidates == [r.pk for r in newest_first[30:]]
    assert result[other.agent_id].retained == [other.pk]


def test_the_yearly_retention_run_archives_the_candidates_with_their_position(agent_with_33):
    _, newest_first = agent_with_33

    changes = archive_retention_candidates(as_of=AS_OF)

    assert [c.reflection_id for c in changes] == sorted(r.pk for r in newest_first[30:])
    assert changes[0].reason == "retention: #33 of agent ledger-bot (only the newest 30 are kept)"
    assert state_of(newest_first[30]) == State.ARCHIVED
    assert state_of(newest_first[29]) == State.ACTIVE
    assert archive_retention_candidates(as_of=AS_OF) == []
    assert ReflectionHistory.objects.filter(actor_label="policy:retention").count() == 3


def test_decay_keeps_a_retention_archived_reflection_archived_until_it_is_retrieved(
    agent_with_33,
):
    _, newest_first = agent_with_33
    oldest = newest_first[-1]
    retrieve(oldest, days_before(3))
    archive_retention_candidates(as_of=AS_OF)

    assert apply_decay(as_of=AS_OF + timedelta(days=5)) == []
    assert state_of(oldest) == State.ARCHIVED

    retrieve(oldest, START + timedelta(days=6))
    changes = apply_decay(as_of=AS_OF + timedelta(days=7))

    assert [(c.source_path, c.to_state) for c in changes] == [(oldest.source_path, "active")]
    assert Reflection.objects.get(pk=oldest.pk).retention_archived_at is None


# --------------------------------------------------------------------------- salience


def test_salience_is_the_percentile_of_retrievals_per_day_within_the_department():
    quiet = ReflectionFactory(created_at=days_before(30))
    agent = quiet.agent
    busy = ReflectionFactory(agent=agent, created_at=days_before(30))
    retrieve(busy, *(days_before(n) for n in range(1, 5)))
    middling = ReflectionFactory(agent=agent, created_at=days_before(60))
    retrieve(middling, *(days_before(n) for n in range(1, 5)))
    imported = ReflectionFactory(agent=agent, created_at=days_before(30), salience=0.05)
    too_young = ReflectionFactory(agent=agent, created_at=days_before(13))
    elsewhere = ReflectionFactory(created_at=days_before(30))

    assert apply_salience(as_of=AS_OF) == 4

    computed = dict(Reflection.objects.values_list("pk", "salience_computed"))
    # Among the four old-enough reflections of the department: quiet = imported < middling < busy.
    assert computed[quiet.pk] == 0.0
    assert computed[middling.pk] == pytest.approx(2 / 3)
    assert computed[busy.pk] == 1.0
    assert computed[imported.pk] is None
    assert Reflection.objects.get(pk=imported.pk).effective_salience == 0.05
    assert computed[too_young.pk] is None
    assert computed[elsewhere.pk] == 0.0
    assert apply_salience(as_of=AS_OF) == 0


# --------------------------------------------------------------------------- the command


def run_command(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("apply_policies", *args, stdout=out)
    return out.getvalue()


def test_the_command_dry_run_lists_every_change_as_json_and_writes_nothing():
    old = ReflectionFactory(created_at=days_before(150))

    report = json.loads(run_command("--as-of", "2026-06-01", "--dry-run", "--json"))

    assert report["changes"] == [
        {
            "source_path": old.source_path,
            "from": "active",
            "to": "archived",
            "reason": "archived: created 2026-01-02 (>90 d), never retrieved",
        }
    ]
    assert report["counts"]["decay:archived"] == 1
    assert state_of(old) == State.ACTIVE
    assert not ReflectionHistory.objects.exists()


def test_running_the_command_twice_with_the_same_date_changes_nothing_the_second_time(
    agent_with_33,
):
    ReflectionFactory(created_at=days_before(150))

    first = json.loads(run_command("--as-of", "2026-06-01", "--retention", "--json"))
    second = json.loads(run_command("--as-of", "2026-06-01", "--retention", "--json"))

    assert first["counts"]["changed"] == 4
    assert first["counts"]["retention:archived"] == 3
    assert second["changes"] == []
    assert second["counts"] == {"changed": 0, "salience_updated": 0}


def test_the_command_prints_a_summary_with_reasons_for_people():
    old = ReflectionFactory(created_at=days_before(150))
    out = run_command("--as-of", "2026-06-01", "--dry-run")
    assert "1 reflections would change state" in out
    assert f"{old.source_path}: active → archived (archived: created 2026-01-02" in out


def test_the_command_rejects_a_malformed_date():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--as-of must be a date"):
        run_command("--as-of", "June 1st")


def test_apply_policies_dry_run_matches_the_real_run():
    agent = AgentFactory()
    for n in range(32):
        ReflectionFactory(agent=agent, created_at=days_before(100 + n))
    dry = apply_policies(as_of=AS_OF, dry_run=True, retention=True)
    real = apply_policies(as_of=AS_OF, retention=True)
    assert dry.as_dict() == real.as_dict()
    assert real.counts["retention:archived"] == 2
    assert real.counts["decay:archived"] == 30


class TestBackfill:
    """A new installation replays the daily job over its past, so its history shows how the
    active set moved (apply_policies --backfill-from)."""

    def test_runs_every_step_through_the_last_day_stamped_at_each_day(self):
        old = ReflectionFactory(created_at=datetime(2025, 1, 3, tzinfo=UTC))

        runs = backfill_policies(first=date(2026, 4, 1), last=date(2026, 4, 20), every_days=7)

        assert [r.as_of for r in runs] == [
            date(2026, 4, 1), date(2026, 4, 8), date(2026, 4, 15), date(2026, 4, 20),
        ]  # fmt: skip
        (archived,) = ReflectionHistory.objects.filter(reflection=old, actor_label="policy:decay")
        # The state as of 1 April: the last moment of that day.
        assert archived.at == datetime(2026, 4, 1, 23, 59, 59, 999999, tzinfo=UTC)

    def test_is_refused_once_policies_ran_after_its_first_day(self):
        ReflectionFactory(created_at=datetime(2025, 1, 3, tzinfo=UTC))
        apply_policies(as_of=date(2026, 5, 1))

        with pytest.raises(BackfillError, match="policies already ran on or after 2026-04-01"):
            backfill_policies(first=date(2026, 4, 1), last=date(2026, 5, 1))

    def test_the_command_prints_each_run(self, capsys):
        ReflectionFactory(created_at=datetime(2025, 1, 3, tzinfo=UTC))
        call_command("apply_policies", "--as-of=2026-04-15", "--backfill-from=2026-04-01", "--json")
        runs = json.loads(capsys.readouterr().out)["backfill"]
        assert [r["as_of"] for r in runs] == ["2026-04-01", "2026-04-08", "2026-04-15"]
        assert runs[0]["counts"]["decay:archived"] == 1


def test_the_active_set_counts_an_imported_state_from_when_the_reflection_was_written():
    """A year of memory imported today: a reflection quarantined by that import was never
    active, so it counts as not active in the weeks before the import too."""
    from reflections.selectors.health import active_set_by_week

    written = datetime(2026, 3, 2, tzinfo=UTC)
    kept = ReflectionFactory(created_at=written)
    unsafe = ReflectionFactory(created_at=written, agent=kept.agent, state="quarantined")
    imported = datetime(2026, 11, 22, 9, tzinfo=UTC)
    for reflection, state in ((kept, "active"), (unsafe, "quarantined")):
        ReflectionHistory.objects.create(
            reflection=reflection, at=imported, change="created", actor_label="import",
            to_state=state,
        )  # fmt: skip

    weeks = [datetime(2026, 3, 9, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=UTC)]
    assert active_set_by_week(weeks, None) == [1, 1]


def test_a_repeated_demo_backfill_is_skipped_quietly(capsys):
    ReflectionFactory(created_at=datetime(2025, 1, 3, tzinfo=UTC))
    args = ["apply_policies", "--as-of=2026-04-15", "--backfill-from=2026-04-01", "--unless-ran"]
    call_command(*args)
    history = ReflectionHistory.objects.count()

    call_command(*args)

    assert "Backfill skipped: policies already ran" in capsys.readouterr().out
    assert ReflectionHistory.objects.count() == history
