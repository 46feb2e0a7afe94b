"""A department the installation's fit cannot tell apart is compared in a fit of its own texts
(reflections.similarity.background, reflections.services.neighbours.department_vectors)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reflections.services.neighbours import department_vectors
from reflections.similarity.backends import LatentBackend, WordBackend
from reflections.similarity.background import OWN_FIT_MIN, mean_likeness, needs_own_fit

TOPICS = [
    "the median of an even-length window",
    "an empty input list",
    "integer overflow in the running product",
    "the off-by-one end of the loop",
    "duplicate keys in the lookup table",
    "negative numbers in the prefix sums",
    "the graph's disconnected parts",
    "the recursion depth on long chains",
]


def templated(n: int) -> list[str]:
    """One model's template around a different diagnosis each time, as a Reflexion run writes."""
    return [
        "The implementation is incorrect because it does not properly handle "
        f"{TOPICS[i % len(TOPICS)]} in case {i}. This causes the function to return "
        "incorrect results for some test cases."
        for i in range(n)
    ]


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=10_000))
def test_the_background_is_the_mean_cosine_of_two_different_lessons(n, seed):
    rows = unit_rows(np.random.default_rng(seed).normal(size=(n, 8)) + 0.5)
    cosines = rows @ rows.T
    expected = (cosines.sum() - np.trace(cosines)) / (n * (n - 1))
    assert mean_likeness(rows) == pytest.approx(expected, abs=1e-5)


def test_only_a_department_alike_beyond_the_reference_and_large_enough_gets_its_own_fit():
    assert needs_own_fit(0.77, 0.3, lessons=146)
    assert not needs_own_fit(0.21, 0.3, lessons=966)  # the demo's departments
    assert not needs_own_fit(0.77, 0.3, lessons=OWN_FIT_MIN - 1)  # too few to fit on
    assert not needs_own_fit(0.77, None, lessons=146)  # a backend with no reference


def test_a_templated_department_is_compared_in_a_fit_of_its_own_texts():
    backend = LatentBackend()
    texts = templated(80)
    # The installation's fit barely shaped by this department: every lesson alike.
    crowded = unit_rows(np.random.default_rng(5).normal(size=(80, 16)) * 0.1 + 1.0)
    vectors, background = department_vectors(backend, texts, crowded)
    assert background.own_fit and background.likeness > 0.9
    assert background.own_likeness < background.likeness / 1.5
    assert np.allclose(vectors, backend.fit(texts)(texts))


def test_a_department_the_installations_fit_tells_apart_keeps_its_vectors():
    rows = unit_rows(np.random.default_rng(6).normal(size=(80, 16)))
    vectors, background = department_vectors(LatentBackend(), templated(80), rows)
    assert vectors is rows and not background.own_fit


def test_word_tfidf_fitted_per_department_is_used_as_it_is():
    backend = WordBackend()
    texts = templated(60)
    sparse = backend.fit(texts)(texts)
    vectors, background = department_vectors(backend, texts, sparse)
    assert vectors is sparse and background is None


def test_the_default_backend_has_a_reference_above_the_development_corpora():
    assert LatentBackend().calibration.background == 0.3


@pytest.mark.django_db
def test_compute_neighbours_says_which_department_it_compared_in_its_own_fit(settings, capsys):
    from django.core.management import call_command

    from tests.factories import AgentFactory, DepartmentFactory, ReflectionFactory

    settings.SIMILARITY_BACKEND = "latent"
    agent = AgentFactory(department=DepartmentFactory(slug="leetcode"))
    for number, text in enumerate(templated(OWN_FIT_MIN + 10)):
        ReflectionFactory(agent=agent, title=f"Reflection {number}", body=text, sections=[])

    call_command("compute_neighbours")

    out = capsys.readouterr().out
    assert "leetcode: 60 reflections" in out
    assert "compared in a fit of its own texts (its lessons are 0." in out
