"""Review signals (issue 12, 26): what every signal shares (a weighted score whose missing parts
carry no weight, flagged at its cut) and the command that prints them per item as JSON."""

from __future__ import annotations

import io
import json
from datetime import datetime

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from reviews.signals import CUTS
from reviews.signals.base import MIN_KNOWN, Part, Signal, missing_note, weighted
from tests.factories import UserFactory

values = st.one_of(st.none(), st.floats(0, 1))
weights = st.floats(0.01, 1)


@given(st.lists(st.tuples(weights, values), min_size=1, max_size=6))
def test_a_weighted_score_stays_in_the_unit_interval(spec):
    parts = [Part(f"p{i}", w, v) for i, (w, v) in enumerate(spec)]
    assert 0 <= weighted(parts) <= 1 + 1e-9


@given(st.lists(st.tuples(weights, st.floats(0, 1)), min_size=1, max_size=5), weights)
def test_a_missing_part_never_lowers_the_score_while_enough_weight_is_known(spec, extra):
    known = [Part(f"p{i}", w, v) for i, (w, v) in enumerate(spec)]
    with_missing = [*known, Part("missing", extra, None)]
    total = sum(p.weight for p in with_missing)
    if sum(p.weight for p in known) >= MIN_KNOWN * total:
        assert weighted(with_missing) == pytest.approx(weighted(known))
    else:  # too little is known: the score shrinks in proportion, never grows
        assert weighted(with_missing) <= weighted(known) + 1e-9


def test_a_part_with_no_evidence_is_named_in_the_reasons():
    parts = [Part("harm", 0.5, 1.0), Part("surer", 0.2, None), Part("repeats", 0.1, None)]
    assert missing_note(parts) == (
        "no evidence for surer, repeats: carries no weight, the other parts decide"
    )
    assert missing_note(parts[:1]) is None


def test_the_flag_is_the_score_against_the_cut():
    assert Signal.scored("echo", 0.8, 0.8, ["why"]).flagged
    assert not Signal.scored("echo", 0.79, 0.8, ["why"]).flagged


def test_a_signal_survives_a_round_trip_through_json():
    signal = Signal.scored(
        "duplicate", 0.9, 0.85, ["why"], [Part("alike", 0.5, 1.0), Part("same case", 0.3, None)]
    )
    again = Signal.from_dict(json.loads(json.dumps({"name": "duplicate", **signal.as_dict()})))
    assert again == signal


def test_every_signal_has_one_documented_cut():
    assert set(CUTS) == {"echo", "outdated", "duplicate"}
    assert all(0 < cut < 1 for cut in CUTS.values())


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
            signal = item[name]
            assert 0 <= signal["score"] <= 1
            assert signal["flagged"] == (signal["score"] >= signal["cut"])
            assert signal["cut"] == CUTS[name]
            assert signal["reasons"] and all(isinstance(r, str) for r in signal["reasons"])
        assert item["duplicate"]["keep"]
