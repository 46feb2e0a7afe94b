"""Recomputing stored neighbours: per department, both directions, quarantined text left out.

The mechanics are checked on the word TF-IDF baseline, whose cosines these three-reflection
fixtures were written for; what the default (latent) backend does differently, a refit that
moves every department's vectors, is checked at the end."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from reflections.models import (
    LatentFit,
    Neighbour,
    ReflectionHistory,
    ReflectionVector,
    State,
)
from reflections.services.neighbours import refresh_neighbours, stale_departments
from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def word_backend(settings):
    settings.SIMILARITY_BACKEND = "word"


LESSON = [
    {"heading": "What happened?", "body": "The ledger transfer was booked twice at month end."},
    {"heading": "What should I do differently?", "body": "Check pending transfers first."},
]
REWORDED = [
    {"heading": "Analysis", "body": "The ledger transfer was recorded twice at month end."},
    {"heading": "Action", "body": "Check pending transfers first."},
]
OTHER = [
    {"heading": "What happened?", "body": "The prospect's meeting landed at dawn abroad."},
    {"heading": "What should I do differently?", "body": "Confirm the time zone in invites."},
]


def reflection(agent, title, sections, **kwargs):
    return ReflectionFactory(agent=agent, title=title, sections=sections, **kwargs)


@pytest.fixture
def ops():
    agent = AgentFactory(department=DepartmentFactory(slug="ops"))
    return {
        "original": reflection(agent, "Ledger transfers", LESSON),
        "duplicate": reflection(agent, "Ledger transfers", REWORDED),
        "other": reflection(agent, "Meeting time zones", OTHER),
    }


def pairs() -> set[tuple[int, int]]:
    return set(Neighbour.objects.values_list("reflection_id", "neighbour_id"))


def test_refresh_stores_similar_reflections_in_both_directions(ops):
    summary = refresh_neighbours()

    a, b = ops["original"].pk, ops["duplicate"].pk
    assert pairs() == {(a, b), (b, a)}
    forward, backward = Neighbour.objects.order_by("reflection_id")
    assert forward.similarity == backward.similarity > 0.5
    assert forward.rank == backward.rank == 1
    assert summary["neighbours"] == 2
    assert summary["departments"][0]["reflections"] == 3


def test_quarantined_reflections_are_never_compared(ops):
    agent = ops["original"].agent
    secret = reflection(agent, "Ledger transfers", LESSON, state=State.QUARANTINED)

    refresh_neighbours()

    assert secret.pk not in {pk for pair in pairs() for pk in pair}
    assert pairs() == {
        (ops["original"].pk, ops["duplicate"].pk),
        (ops["duplicate"].pk, ops["original"].pk),
    }


def test_refresh_replaces_only_the_given_departments_rows(ops):
    sales_agent = AgentFactory(department=DepartmentFactory(slug="sales"))
    s1 = reflection(sales_agent, "Ledger transfers", LESSON)
    s2 = reflection(sales_agent, "Ledger transfers", LESSON)
    refresh_neighbours()
    ops["duplicate"].state = State.QUARANTINED
    ops["duplicate"].save()
    s2.state = State.QUARANTINED
    s2.save()

    refresh_neighbours(departments=["ops"])

    # ops lost its pair; sales keeps its rows until sales is refreshed.
    assert pairs() == {(s1.pk, s2.pk), (s2.pk, s1.pk)}


def test_departments_are_never_mixed(ops):
    sales_agent = AgentFactory(department=DepartmentFactory(slug="sales"))
    twin = reflection(sales_agent, "Ledger transfers", LESSON)

    refresh_neighbours()

    assert twin.pk not in {pk for pair in pairs() for pk in pair}


def test_rank_follows_similarity(ops):
    agent = ops["original"].agent
    third = reflection(
        agent,
        "Ledger transfers",
        [{"heading": "x", "body": "The ledger transfer was booked late at month end."}],
        created_at=datetime(2026, 4, 1, tzinfo=UTC),
    )

    refresh_neighbours(threshold=0.0)

    rows = list(Neighbour.objects.filter(reflection=ops["original"]).order_by("rank"))
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert [r.similarity for r in rows] == sorted((r.similarity for r in rows), reverse=True)
    assert rows[0].neighbour_id == ops["duplicate"].pk
    assert third.pk in {r.neighbour_id for r in rows}


def test_an_unknown_department_is_an_error(ops):
    with pytest.raises(ValueError, match="nowhere"):
        refresh_neighbours(departments=["nowhere"])
    with pytest.raises(CommandError, match="nowhere"):
        call_command("compute_neighbours", "--department", "nowhere")


def test_command_prints_json_for_machines(ops, capsys):
    call_command("compute_neighbours", "--department", "ops", "--json")

    summary = json.loads(capsys.readouterr().out)
    assert summary["neighbours"] == 2
    assert [d["department"] for d in summary["departments"]] == ["ops"]


def history(reflection, change, *, at, from_state="", to_state=""):
    ReflectionHistory.objects.create(
        reflection=reflection, at=at, change=change, actor_label="import",
        from_state=from_state, to_state=to_state,
    )  # fmt: skip


class TestWhichDepartmentsAreStale:
    def test_a_department_never_computed_is_stale_once_it_has_texts(self, ops):
        history(ops["original"], "created", at=datetime(2026, 11, 1, tzinfo=UTC))
        assert stale_departments() == ["ops"]

    def test_a_computed_department_is_fresh_until_a_text_changes(self, ops):
        history(ops["original"], "created", at=datetime(2026, 11, 1, tzinfo=UTC))
        refresh_neighbours()
        assert stale_departments() == []
        history(ops["other"], "content", at=datetime.now(UTC) + timedelta(seconds=1))
        assert stale_departments() == ["ops"]

    def test_decay_does_not_make_a_department_stale_but_quarantine_does(self, ops):
        history(ops["original"], "created", at=datetime(2026, 11, 1, tzinfo=UTC))
        refresh_neighbours()
        later = datetime.now(UTC) + timedelta(seconds=1)
        history(ops["other"], "state", at=later, from_state="active", to_state="archived")
        assert stale_departments() == []
        history(ops["other"], "state", at=later, from_state="active", to_state="quarantined")
        assert stale_departments() == ["ops"]


class TestTheLatentBackend:
    """The default: fitted on the whole installation, so a refit recomputes every department
    and stores a vector per reflection that is not quarantined; a few new texts are folded
    into the stored fit instead."""

    @pytest.fixture(autouse=True)
    def latent(self, settings):
        settings.SIMILARITY_BACKEND = "latent"

    def test_a_refresh_of_one_department_refits_and_recomputes_them_all(self, ops):
        sales_agent = AgentFactory(department=DepartmentFactory(slug="sales"))
        reflection(sales_agent, "Ledger transfers", LESSON)
        reflection(sales_agent, "Ledger transfers", REWORDED)

        summary = refresh_neighbours(departments=["ops"])

        assert summary["backend"] == "latent"
        assert [d["department"] for d in summary["departments"]] == ["ops", "sales"]
        assert ReflectionVector.objects.count() == 5

    def test_quarantined_text_gets_no_vector_and_no_neighbour(self, ops):
        secret = reflection(ops["original"].agent, "Ledger transfers", LESSON)
        refresh_neighbours()
        assert ReflectionVector.objects.filter(reflection=secret).exists()
        secret.state = State.QUARANTINED
        secret.save()

        refresh_neighbours()

        assert not ReflectionVector.objects.filter(reflection=secret).exists()
        assert secret.pk not in {pk for pair in pairs() for pk in pair}

    def test_the_reworded_lesson_is_the_nearest_neighbour(self, ops):
        refresh_neighbours()

        nearest = Neighbour.objects.filter(reflection=ops["original"]).order_by("rank").first()
        assert nearest.neighbour_id == ops["duplicate"].pk

    @pytest.fixture
    def fitted(self, ops):
        """Thirty lessons in ops and sales, fitted once."""
        sales_agent = AgentFactory(department=DepartmentFactory(slug="sales"))
        for n in range(27):
            agent = sales_agent if n % 2 else ops["original"].agent
            body = f"Rule {n}: {TOPICS[n % 9]}"
            reflection(agent, f"Lesson {n}", [{"heading": "x", "body": body}])
        summary = refresh_neighbours()
        assert summary["refit"]
        return LatentFit.objects.get()

    def test_a_few_new_texts_are_folded_into_the_stored_fit(self, ops, fitted):
        before = dict(ReflectionVector.objects.values_list("reflection_id", "computed_at"))
        new = reflection(ops["original"].agent, "Ledger transfers", REWORDED)

        summary = refresh_neighbours(departments=["ops"])

        assert not summary["refit"]
        assert [d["department"] for d in summary["departments"]] == ["ops"]
        vectors = dict(ReflectionVector.objects.values_list("reflection_id", "computed_at"))
        assert {pk for pk in vectors if vectors[pk] != before.get(pk)} == {new.pk}
        assert set(ReflectionVector.objects.values_list("backend", flat=True)) == {fitted.identity}
        assert LatentFit.objects.get().folded == {str(new.agent.department_id): 1}
        assert new.pk in {pk for pair in pairs() for pk in pair}

    def test_past_a_tenth_of_a_departments_texts_outside_the_fit_it_refits(self, ops, fitted):
        agent = ops["original"].agent
        ops_id = str(agent.department_id)
        assert fitted.fitted[ops_id] == 17
        reflection(agent, "Ledger transfers", REWORDED)
        assert not refresh_neighbours(departments=["ops"])["refit"]  # 1 of 17 folded in
        reflection(agent, "Meeting time zones", OTHER)  # 1 folded + 1 waiting > 1.7

        summary = refresh_neighbours(departments=["ops"])

        assert summary["refit"]
        assert [d["department"] for d in summary["departments"]] == ["ops", "sales"]
        fit = LatentFit.objects.get()
        assert (fit.fitted[ops_id], fit.folded) == (19, {})
        assert fit.identity != fitted.identity

    def test_a_department_the_fit_never_saw_is_not_folded_in(self, ops, fitted):
        newcomer = AgentFactory(department=DepartmentFactory(slug="legal"))
        reflection(newcomer, "Ledger transfers", LESSON)

        summary = refresh_neighbours(departments=["legal"])

        assert summary["refit"]
        assert LatentFit.objects.get().fitted[str(newcomer.department_id)] == 1

    def test_the_command_refits_when_told_to(self, ops, fitted, capsys):
        reflection(ops["original"].agent, "Ledger transfers", REWORDED)

        call_command("compute_neighbours", "--refit")

        assert "refitted" in capsys.readouterr().out
        assert sum(LatentFit.objects.get().fitted.values()) == 31

    def test_each_departments_background_is_reported_and_a_small_one_keeps_the_fit(
        self, ops, fitted
    ):
        summary = refresh_neighbours()

        for department in summary["departments"]:
            assert 0 <= department["background"] <= 1
            assert department["own_fit"] is False  # fewer lessons than OWN_FIT_MIN


TOPICS = [
    "check the manifest before the van leaves",
    "book large inbounds on a double door",
    "pin every package to an exact release",
    "rehearse the migration on a copy first",
    "ask the owner before dropping a column",
    "run backfills at night",
    "confirm the time zone in every invite",
    "count the pallets at the door",
    "match scans to the manifest lines",
]
