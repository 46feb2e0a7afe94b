"""A review cycle opened on an imported Reflexion run: its reflections are queue items like
any others, and one that restates an earlier reflection on the same problem says so."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse

from reflections.models import Department, Format
from reflections.selectors.runs import repetition, restated_by
from reflections.services.neighbours import refresh_neighbours
from reflections.services.reflexion_run_import import import_reflexion_run, read_run
from reviews.services.cycles import open_cycle
from reviews.signals import cycle_signals
from tests.factories import UserFactory
from tests.pages import client_for, soup_of

pytestmark = pytest.mark.django_db

# Real runs of the reference implementation, shipped as samples.
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "samples" / "reflexion-runs"

RUN = next((SAMPLE_RUNS / "programming").glob("*.jsonl"))


@pytest.fixture
def cycle():
    run, digest = read_run(RUN)
    import_reflexion_run(run, digest)
    refresh_neighbours()
    department = Department.objects.get(slug="leetcode-hard-py-40-uncontaminated")
    reviewer = UserFactory(username="ana", roles=["reviewer"], departments=[department])
    return open_cycle(
        department=department, quarter="2023Q2", reviewers=[reviewer],
        starts_on=date(2023, 5, 1),
    )  # fmt: skip


def test_a_cycle_on_a_run_holds_its_most_used_reflections_and_scores_them(cycle):
    items = list(cycle.items.select_related("reflection"))
    assert len(items) == 100
    assert {i.reflection.format for i in items} == {Format.REFLEXION_RUN}
    signals = cycle_signals(cycle)
    assert len(signals) == 100
    assert all(0 <= s.echo.score <= 1 and s.duplicate.keep for s in signals)


def test_a_reflection_that_restates_an_earlier_one_of_its_problem_says_so_in_the_queue(cycle):
    item = next(i for i in cycle.items.select_related("reflection") if restated_by(i.reflection))
    earlier = restated_by(item.reflection)
    page = soup_of(
        client_for(item.reviewer).get(reverse("reviews:item", args=[cycle.pk, item.rank]))
    )
    panel = page.select_one("#restates")
    assert panel is not None
    text = panel.get_text(" ", strip=True)
    assert f"reflection {earlier[0].number}" in text
    assert earlier[0].reflection.title in text
    problem = item.reflection.source_path.rsplit("/", 1)[0]
    assert earlier[0].reflection.source_path.startswith(problem + "/")


def test_a_reflection_of_no_run_shows_no_restatement_panel(cycle):
    from tests.factories import ReflectionFactory

    assert restated_by(ReflectionFactory()) == []


def test_the_runs_repetition_rate_is_measured_once_it_has_vectors():
    run, digest = read_run(RUN)
    import_reflexion_run(run, digest)
    from reflections.models import ReflexionRun

    stored = ReflexionRun.objects.get()
    assert repetition(stored).rate is None  # no vectors yet
    refresh_neighbours()
    measured = repetition(stored)
    assert measured.later == 146 - 37  # every problem's reflections after its first
    assert 0 < measured.rate <= 1


def test_a_backend_with_no_measured_bar_finds_restatements_on_its_vectors(settings, tmp_path):
    from reflections.models import ReflexionRun
    from reflections.selectors.runs import run_restatements
    from tests.reflections.test_similarity_backends import tiny_model

    settings.EMBEDDING_MODEL_DIR = str(tiny_model(tmp_path / "model"))
    settings.SIMILARITY_BACKEND = "embedding"  # its Calibration.repeats is None
    run, digest = read_run(RUN)
    import_reflexion_run(run, digest)
    refresh_neighbours()

    found, total = run_restatements(ReflexionRun.objects.get().label)

    assert total == 146 and len(found.places) == 146
    problem_of = {pk: problem for problem, _, pk in found.places}
    for later, earlier in found.earlier.items():
        assert all(problem_of[pk] == problem_of[later] for pk, _ in earlier)
    assert repetition(ReflexionRun.objects.get()).rate is not None
