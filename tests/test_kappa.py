"""The one Cohen's κ (reflexion_site/kappa.py) gives scikit-learn's cohen_kappa_score on any
ratings, weighted or not, with the cases scikit-learn leaves undefined answered None."""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from reflexion_site.kappa import cohen_kappa

LEVELS = [0, 1, 2, 3, 4]  # the rubric passes its levels as ordinals
pairs = st.lists(st.tuples(st.sampled_from(LEVELS), st.sampled_from(LEVELS)), min_size=1)


@settings(max_examples=300, deadline=None)
@given(pairs=pairs, weights=st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_is_scikit_learns_on_any_ratings(pairs, weights):
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns where κ is undefined
        expected = cohen_kappa_score(a, b, labels=LEVELS, weights=weights)
    ours = cohen_kappa(a, b, labels=LEVELS, weights=weights)
    if math.isnan(expected):
        assert ours is None
    else:
        assert ours == pytest.approx(expected, abs=1e-12)


def test_ratings_outside_the_labels_are_left_out_as_scikit_learn_leaves_them():
    a, b = ["keep", "echo", "keep", "odd"], ["keep", "echo", "echo", "keep"]
    expected = cohen_kappa_score(a, b, labels=["keep", "echo"])
    assert cohen_kappa(a, b, labels=["keep", "echo"]) == pytest.approx(expected)


def test_no_pairs_and_total_chance_agreement_are_undefined():
    assert cohen_kappa([], [], labels=LEVELS) is None
    assert cohen_kappa([1, 1, 1], [1, 1, 1], labels=LEVELS) is None


def test_an_unknown_weighting_is_refused():
    with pytest.raises(ValueError, match="unknown weights"):
        cohen_kappa([1], [1], labels=LEVELS, weights="cubic")
